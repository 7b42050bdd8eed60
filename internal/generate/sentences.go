package generate

import (
	"strings"

	"github.com/askplane/askplane/internal/chunk"
	"github.com/askplane/askplane/internal/evidence"
)

// collect gathers the quotable sentences of records with blocks.
func (c *composer) collect() {
	// The question names one setting, so every comment a code block
	// gives a setting is a sentence to weigh.
	one := (c.verbatim != "" && !strings.Contains(c.verbatim, " ")) || c.sh == shapeReference
	for ri := range c.pkg.Records {
		for bi, b := range c.pkg.Records[ri].Blocks {
			switch b.Kind {
			case chunk.Paragraph, chunk.Note, chunk.Definition:
				if tabLabel(b) {
					continue
				}
				text := b.Text
				if b.Kind == chunk.Note {
					text = noteBody(text)
				}
				for si, s := range sentencesOf(text) {
					if factsOf(s).quotable {
						c.sents = append(c.sents, sent{rec: ri, block: bi, pos: si, text: s, kind: b.Kind, mask: c.mask(s), heads: c.heads[ri]})
					}
				}
			case chunk.Code:
				// A setting's comment in a TOML or YAML example says what
				// the setting does ("endpoint = … # where the widget
				// sends questions"): for a question naming a setting, an
				// entry of its own, quoted alone.
				for pos, line := range strings.Split(b.Notes, "\n") {
					// A question that names no one setting still asks of a
					// key it names in its words ("why fetch-depth: 0 in the
					// workflow").
					if !one && !c.namesKey(line) {
						continue
					}
					if t := settingNote(line); t != "" && quotable(t) {
						c.sents = append(c.sents, sent{rec: ri, block: bi, pos: pos, text: t, kind: chunk.Code, mask: c.mask(t), heads: c.heads[ri]})
					}
				}
			case chunk.Table:
				for pos, cells := range tableRows(b.Text) {
					if t := rowText(cells); t != "" && len(t) <= maxTableRowBytes && quotable(t) {
						var m uint64
						if c.mask(cells[0]) != 0 {
							m = c.mask(t)
						}
						c.sents = append(c.sents, sent{rec: ri, block: bi, pos: pos, text: t, kind: chunk.Table, mask: m, heads: c.heads[ri]})
					}
				}
			case chunk.List:
				pos := 0
				for _, line := range strings.Split(b.Text, "\n") {
					for _, s := range sentencesOf(listItem(line)) {
						if factsOf(s).quotable {
							c.sents = append(c.sents, sent{rec: ri, block: bi, pos: pos, text: s, kind: chunk.List, mask: c.mask(s), heads: c.heads[ri]})
						}
						pos++
					}
				}
			}
		}
	}
}

// collectExcerpts gathers sentences of records without blocks (v1, v2
// corpora): their excerpts, one paragraph each.
func (c *composer) collectExcerpts() {
	for ri := range c.pkg.Records {
		for si, s := range sentences(c.pkg.Records[ri].Excerpt) {
			if quotable(s) {
				c.sents = append(c.sents, sent{rec: ri, pos: si, text: s, kind: chunk.Paragraph, mask: c.mask(s), heads: c.heads[ri]})
			}
		}
	}
}

// sentences is evidence.Sentences as an answer quotes them: a sentence
// cut after an abbreviation ("traditional vs.", "e.g.") joined with the
// next, and a footnote number after a sentence's stop ("aliases.2")
// dropped.
func sentences(text string) []string {
	ss := evidence.Sentences(text)
	out := ss[:0]
	for i := 0; i < len(ss); i++ {
		s := ss[i]
		// Nor inside a code span ("`{{%/* ... */%}}`") or a quote
		// ("… the following error: "The folder … valid. Please choose
		// another"."), nor after a question quoted in a sentence ("What is the module path? is a
		// package question").
		for i+1 < len(ss) && (abbreviated(s) || strings.Count(s, "`")%2 == 1 || strings.Count(s, "\"")%2 == 1 || quotedAsk(s, ss[i+1])) {
			i++
			s += " " + ss[i]
		}
		if n := len(s); n > 2 && s[n-1] >= '0' && s[n-1] <= '9' && (s[n-2] == '.' || n > 3 && s[n-2] >= '0' && s[n-2] <= '9' && s[n-3] == '.') {
			s = strings.TrimRight(s, "0123456789")
		}
		out = append(out, s)
	}
	return out
}

// quotedAsk: s ends with a question and next goes on in lower case, so
// the question was quoted inside one sentence.
func quotedAsk(s, next string) bool {
	return (strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!")) && next != "" && next[0] >= 'a' && next[0] <= 'z'
}

// abbreviated: s ends with an abbreviation, not a sentence's stop.
func abbreviated(s string) bool {
	for _, a := range []string{" vs.", "(vs.", " e.g.", "(e.g.", " eg.", "(eg.", " i.e.", "(i.e.", " ie.", " cf.", " approx.", " incl.", " resp.", "(resp.", " esp.", " Fig.", " fig."} {
		if strings.HasSuffix(s, a) {
			return true
		}
	}
	return false
}

// dependent openings: a sentence starting so leans on what came before.
var dependent = []string{
	"this ", "it ", "its ", "these ", "those ", "that ", "they ", "them ", "then ", "also ", "however", "but ", "so ", "otherwise",
	"instead", "for example", "for instance", "in the future", "in that case", "in this case", "here ", "there ", "such ",
	"the same ", "both ", "either ", "likewise", "finally", "next,", "afterwards", "once ", "now ", "still ", "as above", "see ",
	"e.g.", "and ", "or ", "which ", "like ", "in addition", "additionally", "moreover", "furthermore", "as a consequence",
	"as a result", "consequently", "to do so", "to do this", "to do that", "when it ", "if it ", "when they ", "if they ", "where it ",
}

// anaphoric: the sentence names what came before it mid-way ("any of
// these", "the above"), so it does not stand alone.
func anaphoric(l string) bool {
	l = l[:min(len(l), 72)]
	for _, a := range []string{" of these", " of those", " these ", " those ", " the above", " above,", " as above", " shown above", " described above", " listed above", " mentioned "} {
		if i := strings.Index(l, a); i >= 0 && i < 60 {
			return true
		}
	}
	// "Docsy applies it when …", "You set them …": a pronoun as the
	// object of the sentence's first verb stands for what the sentence
	// before named, unless it only fills a subject's place ("… it can be
	// useful"). After "when" or "if" ("When it passes, …") the sentence
	// is read with the one before when that one is quoted.
	ws := strings.Fields(l[:min(len(l), 40)])
	if len(ws) > 2 && !subordinate[ws[0]] && !subordinate[ws[1]] {
		return ws[2] == "them" || ws[2] == "it" && (len(ws) == 3 || !expletive[ws[3]])
	}
	return false
}

// expletive: words after an "it" that stands for nothing ("it is
// recommended", "it can be useful").
var expletive = map[string]bool{"is": true, "can": true, "may": true, "might": true, "will": true, "would": true, "should": true, "was": true, "has": true, "must": true}

// subordinate: words that open a clause, after which a pronoun is its
// subject, not an object.
var subordinate = map[string]bool{"when": true, "if": true, "once": true, "after": true, "before": true, "until": true, "as": true, "because": true, "since": true, "while": true, "unless": true, "where": true}

// leans: s opens leaning on what came before it.
func leans(s string) bool {
	return leansLower(strings.ToLower(s[:min(len(s), 24)]))
}

// leansLower is leans of a lower-cased sentence.
func leansLower(l string) bool {
	if strings.HasPrefix(l, "for example, to ") || strings.HasPrefix(l, "for instance, to ") {
		return false // "For example, to delete all files bigger than 100 MiB, …" names its own task
	}
	for _, d := range dependent {
		if strings.HasPrefix(l, d) {
			return true
		}
	}
	return false
}

// closing boilerplate: sentences that end a guide rather than answer.
var closing = []string{"whenever you", "from now on", "that's it", "that is it", "you're done", "you are done", "congratulations", "happy ", "next steps", "read on", "learn more", "in the next"}

// imperative first words of a sentence that says how.
var imperative = map[string]bool{
	"add": true, "set": true, "run": true, "use": true, "create": true, "put": true, "install": true, "call": true, "give": true,
	"pass": true, "declare": true, "enable": true, "disable": true, "remove": true, "copy": true, "write": true, "open": true,
	"change": true, "configure": true, "import": true, "include": true, "start": true, "build": true, "deploy": true, "allow": true,
	"point": true, "keep": true, "make": true, "save": true, "list": true, "check": true, "initialise": true, "initialize": true,
	"override": true, "replace": true, "clone": true, "push": true, "select": true, "choose": true, "type": true, "edit": true,
	"download": true, "upgrade": true, "update": true, "define": true, "mark": true, "name": true, "bundle": true, "proxy": true,
	"serve": true, "place": true, "register": true, "quote": true, "wrap": true, "follow": true, "ask": true,
	"show": true, "hide": true, "turn": true, "stop": true, "display": true, "exclude": true, "migrate": true, "publish": true,
	"host": true, "preview": true, "embed": true, "insert": true, "rename": true, "move": true, "translate": true, "customize": true,
	"customise": true, "render": true, "verify": true, "fetch": true,
	"tidy": true, "refresh": true, "reinstall": true, "specify": true, "navigate": true, "restart": true, "delete": true,
	"uninstall": true, "modify": true, "adjust": true, "apply": true, "commit": true, "pull": true, "append": true,
	"generate": true, "pin": true, "upload": true, "rebuild": true, "rerun": true, "re-run": true, "reload": true,
	"clear": true, "click": true, "paste": true, "press": true, "ensure": true, "assign": true, "mount": true, "skip": true,
}

// directs: s opens by saying what to do ("Add …", "To pin it, …").
func directs(s string) bool {
	return imperative[firstWord(s)] || strings.HasPrefix(factsOf(s).lower, "to ")
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(s, " ")
	return strings.ToLower(strings.Trim(w, ",:;."))
}

// fewWords: s has fewer than n words.
func fewWords(s string, n int) bool {
	words, in := 0, false
	for i := 0; i < len(s); i++ {
		sp := s[i] == ' ' || s[i] == '\t' || s[i] == '\n'
		if !sp && !in {
			words++
			if words >= n {
				return false
			}
		}
		in = !sp
	}
	return true
}

// fixLike: a sentence saying how to fix something.
func fixLike(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "fix") || strings.HasPrefix(l, "to fix") || imperative[firstWord(s)] || strings.Contains(l, " instead")
}

func closingLike(s string) bool {
	l := strings.ToLower(s)
	for _, d := range closing {
		if strings.Contains(l, d) {
			return true
		}
	}
	return false
}

// maxIntroBytes is how long the paragraph before a command may be and
// still be quoted whole; a longer one gives only its last sentence, the
// one that introduces the code.
const maxIntroBytes = 300

// paragraph is the quotable sentences of rec's block when it is a
// paragraph: the whole of a short one, or of a longer one only its last
// sentence when last (an introduction) and its first when not.
func (c *composer) paragraph(rec, block int, last bool) []*sent {
	if block < 0 || block >= len(c.pkg.Records[rec].Blocks) || c.pkg.Records[rec].Blocks[block].Kind != chunk.Paragraph {
		return nil
	}
	var ss []*sent
	n := 0
	for i := range c.sents {
		if s := &c.sents[i]; s.rec == rec && s.block == block {
			ss = append(ss, s)
			n += len(s.text) + 1
		}
	}
	switch {
	case len(ss) == 0 || n <= maxIntroBytes:
		return ss
	case last:
		return ss[len(ss)-1:]
	}
	return ss[:1]
}

// verdict: s is a short yes or no that opens an answer ("Absolutely
// not!", "Yes.", "Not necessarily."), the first thing a yes-or-no
// question wants, though it names nothing asked.
func verdict(s string) bool {
	l := strings.ToLower(strings.TrimRight(s, ".!,"))
	if !fewWords(l, 4) {
		return false
	}
	for _, v := range []string{"yes", "no", "absolutely", "not ", "definitely", "of course", "certainly", "usually", "generally"} {
		if l == strings.TrimSpace(v) || strings.HasPrefix(l, v) {
			return true
		}
	}
	return false
}
