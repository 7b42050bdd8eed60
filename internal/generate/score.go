package generate

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/askplane/askplane/internal/chunk"
	"github.com/askplane/askplane/internal/evidence"
)

// score says how well a sentence answers the question.
func (c *composer) score(s *sent) int {
	ctx := s.mask | s.heads
	if c.sh == shapeHowto || c.sh == shapeReference {
		ctx |= c.code[s.rec] // a how-to or a setting's section is also its code
	}
	// A term most records of the package hold ("change", "old") says
	// less of which sentence answers than a rare one: it counts half.
	w := func(m uint64) int {
		m &^= c.excluded | c.kind // what the question sets aside, or the kind of thing it names, is no reason to quote a sentence
		return 2*bits.OnesCount64(m&^c.common) + bits.OnesCount64(m&c.common)
	}
	sc := 4*w(s.mask) + 6*w(ctx)
	if s.mask&c.excluded != 0 {
		sc -= 12 // it speaks of what the question sets aside
	}
	if s.mask != 0 && strings.Contains(s.text, "(") {
		// Words found only in an aside ("… translucent while the cover is
		// visible (typically used for hero images on the home page)")
		// are not what the sentence says.
		sc -= 4 * w(s.mask&^c.mask(outsideParens(s.text)))
	}
	if subject := c.subject &^ c.kind; (c.sh == shapeDefine || c.sh == shapeReference) && s.mask&subject == subject && subject != 0 {
		sc += 10 // names what is asked about
	}
	var p string // the sentence for a verbatim comparison, when one is asked for
	if c.verbatim != "" || c.named != "" && s.pos == 0 {
		p = factsOf(s.text).plain
	}
	if c.verbatim != "" && hasWord(p, c.verbatim) && !mentioned(p, c.verbatim) {
		sc += 30 // says the very setting or command asked about
		if strings.HasPrefix(p, c.verbatim) {
			sc += 20 // and speaks of it, rather than naming it among others
		}
	} else if c.verbatim != "" && (mentioned(p, c.verbatim) || strings.Contains(p, c.verbatim)) {
		// It names it only as an example of something else, or names
		// a longer setting that starts with it (offlineSearchMaxResults
		// for offlineSearch).
		sc -= 10
	} else if c.literal[s.rec] && c.quoted {
		sc += 20 // its section's code holds what the reader quoted: the section is about it
	} else if c.literal[s.rec] && s.pos == 0 {
		sc += 10 // its section's code holds it
	}
	own := c.own[s.rec]
	if c.verb != 0 && (s.mask|own)&c.verb != 0 {
		sc += 10 // does what is asked
	}
	if s.mask == 0 && !(s.pos == 0 && 2*bits.OnesCount64(own) >= bits.OnesCount64(c.all)) {
		sc -= 12 // says nothing of the question, and is not what its section opens with
	}
	f := factsOf(s.text) // what every check below reads, once a text
	l := f.lower
	if s.pos == 0 {
		sc += 6 // a block's first sentence says what the block is about
	}
	first := c.opens(s.rec, s.block) // the record's first prose block
	if first && s.pos == 0 {
		sc += 4
		if r := &c.pkg.Records[s.rec]; r.Anchor == "" && c.heads[s.rec] != 0 && c.sh != shapeError {
			sc += 8 // a page's opening says what the page is about
			if c.sh == shapeHowto && c.allAsked(r.Title) {
				sc += 16 // and the page is what the how-to names ("deploy on Netlify": the Netlify page starts the guide)
			}
		}
	}
	if c.restated[s.rec] && s.pos == 0 && first {
		sc += 24 // its section's heading is the question ("What is Docsy?", "A fact has no phrasing of its own")
	}
	sc -= 6 * s.rec // the engine's ranking
	if c.ofRelease != nil && c.ofRelease[s.rec] {
		sc += 12 // from the release the question names
	}
	if c.aside(s.rec) {
		sc -= 10 // a blog post or release note: an aside, where the docs are the reference
		if c.sh == shapeHowto {
			sc -= 10 // a release note says a thing can now be done; the docs say how
		}
	}
	if then, ok := strings.CutPrefix(l, "then "); ok && imperative[firstWord(then)] {
		sc -= 6 // "Then add `sidebar_root_for` to …": a later step, but it says what to do
	} else if f.leans && c.sh == shapeWhy && s.pos > 0 {
		sc -= 6 // "This prevents the title from …" says why, read with the sentence before it (readFrom)
	} else if f.leans {
		sc -= 18
	}
	if f.closing {
		sc -= 20
	}
	if back := c.pointsBack(s); back && c.opens(s.rec, s.block-1) {
		sc += 4 // with the list or table it speaks of, its section's opening
	} else if f.anaphoric && !back {
		sc -= 12 // "a body that breaks any of these": what these are came before
	}
	if r := s.text[0]; (r >= 'a' && r <= 'z') && s.kind != chunk.Table && s.kind != chunk.List && !codeStart(s.text) {
		sc -= 14 // a fragment cut from a longer sentence
	}
	if strings.HasPrefix(s.text, "(") || fewWords(s.text, 4) && s.kind != chunk.Table {
		sc -= 14
	}
	if (strings.HasSuffix(s.text, ";") || strings.HasSuffix(s.text, ",")) && s.kind != chunk.List {
		sc -= 10
	}
	if strings.HasSuffix(s.text, "?") {
		sc -= 20 // a question is not its answer
	}
	if s.kind == chunk.List && propertyLine(s.text) && !c.property {
		sc -= 20 // "Config: hash_type", "Env Var: …": where a setting is set, not what it does
	}
	if c.sh != shapeDefine && c.sh != shapeReference && c.definesOther(s.text) {
		sc -= 12 // "`deterministic` is the envelope …": it says what another thing is
	}
	if f.pointer {
		sc -= 10 // it sends the reader elsewhere rather than answering
		if c.sh == shapeHowto && !strings.Contains(s.text, "`") {
			sc -= 10 // and leaves how to the page it names
		}
	}
	if c.errCode != "" && c.verbatim != c.errCode && strings.Contains(l, c.errCode) {
		if p := f.plain; mentioned(p, c.errCode) {
			sc -= 10 // lists the code among others
		} else if hasWord(p, c.errCode) {
			sc += 10 // says when the code is given
		}
	}
	if c.command && c.quotesAsked(s.text) {
		sc += 8 // quotes the flag and value of the command line asked about ("`--type box` also matches `dropbox`")
	}
	if c.place && f.place && s.mask != 0 {
		sc += 10 // names the place asked for (place.go)
	}
	if c.weighs && (strings.Contains(l, " than ") || strings.Contains(l, "recommend") || strings.Contains(l, "prefer")) {
		sc += 10 // weighs one option against another, as asked
	}
	if s.kind == chunk.List {
		if name, _, ok := strings.Cut(s.text, ": "); ok && c.namesEntry(name) {
			sc += 20 // the entry of what the question names ("Create child page: Brings the user to …")
		}
	}
	switch c.sh {
	case shapeDefine, shapeReference:
		if c.head != 0 && c.own[s.rec] == c.head && s.pos == 0 && first {
			sc += 20 // the section named for the thing asked about ("Skins" for "what is a skin in …")
		}
		if c.named != "" && s.pos == 0 && (strings.HasPrefix(p, c.named+" is ") || strings.HasPrefix(p, c.named+" are ")) {
			sc += 8 // "Docsy is a …": opens by defining what is asked about
		}
		if f.definitional {
			sc += 8
			if strings.Contains(l, " is not ") || strings.Contains(l, " are not ") {
				sc -= 12 // what something is not
			}
		}
		if w, _, _ := strings.Cut(c.named, " "); w != "" && (strings.HasPrefix(l, w+" — ") || strings.HasPrefix(l, w+" - ")) {
			sc += 36 // an entry naming it, then what it is ("stale — the artifact is past its expiresAt"): a glossary line
		}
		if s.kind == chunk.Table || s.kind == chunk.Definition {
			if s.mask&c.subject != 0 {
				sc += 8
			}
		}
		if s.heads&c.subject == c.subject && c.subject != 0 {
			sc += 8 // the section names the subject
		}
	case shapeHowto:
		if directs(s.text) {
			sc += 8
		}
		if lastStep(l) && s.mask&c.verb == 0 {
			sc -= 20 // "Open http://localhost:1313 in your web browser …": how a guide ends, not how it goes
		}
		if d := direction(l); c.polarity < 0 && d == c.polarity && s.mask&c.verb == 0 {
			sc += 10 // does what is asked in other words ("To display no links at all" for "stop … listing")
		} else if c.polarity != 0 && d == -c.polarity {
			sc -= 16 // "To disable breadcrumbs …" does the opposite of "show the breadcrumb"
		}
		sc += c.purpose(l)
		if s.kind == chunk.Table && !c.listing {
			sc -= 8 // a reference row is rarely how to do something
		}
	case shapeError:
		if c.isEcho(s.text) {
			return -100 // the message the reader pasted, quoted back: it tells them nothing
		}
		if c.quotesMessage(s.text) {
			sc += 20 // "If it fails with the message `unknown command "selfupdate"` then …": says when the pasted message comes
		}
		if c.troubleshooting(s.rec) {
			sc += 12 // an entry of a troubleshooting page, not an aside elsewhere
		}
		if s.kind == chunk.Table {
			sc -= 8 // a limits table names an error; its entry explains it
		}
		if strings.Contains(l, " means ") || strings.Contains(l, "cause") || strings.Contains(l, " because ") {
			sc += 8
		}
	}
	return sc
}

// purpose weighs a sentence that opens by naming its task ("To change
// the navbar background color, …") against the task asked: a task whose
// every word the question holds is the one asked; one that adds words
// of its own ("navbar", "background") is a narrower or another task,
// however many of the question's words it shares.
//
// Only a short question names one task; a long one tells a story whose
// words no task repeats. Code spans in the task are examples ("To add
// the classes `myclass` and …"), not words of it.
func (c *composer) purpose(l string) int {
	if len(c.terms) > 7 {
		return 0
	}
	task, ok := strings.CutPrefix(l, "to ")
	if !ok {
		task, ok = strings.CutPrefix(l, "if you want to ")
	}
	if !ok {
		return 0
	}
	end := strings.IndexAny(task, ",:;")
	if end < 0 || end > 120 {
		return 0
	}
	task = task[:end]
	for strings.Count(task, "`") >= 2 {
		i := strings.IndexByte(task, '`')
		j := strings.IndexByte(task[i+1:], '`')
		task = task[:i] + task[i+1+j+1:]
	}
	matched, extra := 0, 0
	for _, w := range evidence.Terms(task) {
		if scaffold[w] || len(w) < 3 {
			continue
		}
		if c.mask(w) != 0 {
			matched++
		} else {
			extra++
		}
	}
	switch {
	case matched == 0:
		return 0
	case extra == 0:
		return 6
	case extra >= 3:
		return -4 * min(extra-2, 3)
	}
	return 0
}

// fileName: h is a file's name alone ("netlify.toml", ".env"), as a
// section named for its file is headed.
func fileName(h string) bool {
	dot := strings.LastIndexByte(h, '.')
	return dot >= 0 && dot < len(h)-1 && len(h) <= 64 && !strings.ContainsAny(h, " `/\\")
}

// filePath: t is a file's path alone ("layouts/_markup/render-passthrough.html"),
// as a theme labels the code it shows.
func filePath(t string) bool {
	base := t[strings.LastIndexByte(t, '/')+1:]
	return fileName(base) && len(t) <= 100 && !strings.ContainsAny(t, " `\\")
}

// allAsked: every word of the heading or title h is one the question
// asks ("Netlify" for "deploy on Netlify", "Keyboard" for "can I use
// the widget with only a keyboard").
func (c *composer) allAsked(h string) bool {
	m := c.mask(h)
	return m != 0 && len(stemTerms(h)) == bits.OnesCount64(m)
}

// opens: no prose (paragraph, list, table) comes before block in rec.
func (c *composer) opens(rec, block int) bool {
	if rec >= len(c.pkg.Records) {
		return false
	}
	for bi := 0; bi < block; bi++ {
		if k := c.pkg.Records[rec].Blocks[bi].Kind; k == chunk.Paragraph || k == chunk.List || k == chunk.Table {
			return false
		}
	}
	return true
}

// aside: the record is a blog post or a release note, and the question
// does not ask about one.
func (c *composer) aside(rec int) bool {
	u := strings.ToLower(c.pkg.Records[rec].URL)
	if !strings.Contains(u, "/blog/") && !strings.Contains(u, "/news/") && !strings.Contains(u, "changelog") && !strings.Contains(u, "release-notes") {
		return false
	}
	l := strings.ToLower(c.question)
	return !strings.Contains(l, "release") && !strings.Contains(l, "blog") && !strings.Contains(l, "changelog") && !strings.Contains(l, "version")
}

// troubleshooting: the record is on a troubleshooting or known-issues
// page or section.
func (c *composer) troubleshooting(rec int) bool {
	r := &c.pkg.Records[rec]
	for _, h := range append([]string{r.Title}, r.Headings...) {
		l := strings.ToLower(h)
		if strings.Contains(l, "troubleshoot") || strings.Contains(l, "known issue") || strings.Contains(l, "common problem") || strings.Contains(l, "common error") {
			return true
		}
	}
	return false
}

// pointer: a sentence that only sends the reader to another page.
func pointer(l string) bool {
	for _, p := range []string{", see ", "see the ", "refer to ", "follow our ", "follow the ", "is described in ", "are described in ", "as described in ", "as explained in ", "for details", "for more information"} {
		if strings.Contains(l, p) {
			return true
		}
	}
	return strings.HasPrefix(l, "see ")
}

// codeStart: a sentence opening with a lowercase identifier that is the
// thing it speaks of ("hidden: true removes …", "editURL sets …").
func codeStart(s string) bool {
	w, _, _ := strings.Cut(s, " ")
	return strings.ContainsAny(w, ".:_=/<>{}()") || strings.ToLower(w) != w
}

// definesOther: s opens by saying what a code-named thing is ("`x` is
// …", "`x` are …") and the question does not name that thing.
func (c *composer) definesOther(s string) bool {
	name, rest, ok := openingCode(s)
	if !ok || !(strings.HasPrefix(rest, " is ") || strings.HasPrefix(rest, " are ")) {
		return false
	}
	return c.mask(name) == 0
}

// openingCode is the code span s opens with ("`shared` emits …": shared)
// and what follows it; ok is false when s does not open with one.
func openingCode(s string) (name, rest string, ok bool) {
	if !strings.HasPrefix(s, "`") {
		return "", s, false
	}
	return strings.Cut(s[1:], "`")
}

func definitional(l string) bool {
	for _, v := range []string{" is a ", " is an ", " is the ", " are ", " is ", " means ", " refers to ", " holds ", " lets ", " makes "} {
		if i := strings.Index(l, v); i > 0 && i < 80 {
			return true
		}
	}
	return false
}

// outsideParens is s without its parenthesized asides.
func outsideParens(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// polarity says which way a verb (stemmed) turns a thing: on, shown,
// added (1), or off, hidden, removed (-1). An instruction turning a
// thing the other way than asked answers another question.
var polarity = map[string]int{
	"enabl": 1, "show": 1, "add": 1, "includ": 1, "start": 1, "open": 1, "install": 1, "activat": 1,
	"disabl": -1, "hide": -1, "remov": -1, "exclud": -1, "stop": -1, "clos": -1, "uninstall": -1, "deactivat": -1,
}

// direction is an instruction's polarity: its verb's, turned over by a
// "no" after it ("To display no links at all" hides them).
func direction(l string) int {
	d := polarity[stem(doing(l))]
	if d != 0 {
		l, _ = strings.CutPrefix(l, "to ")
		_, rest, _ := strings.Cut(l, " ")
		if w := firstWord(rest); w == "no" || w == "nothing" || w == "none" {
			d = -d
		}
	}
	return d
}

// doing is the verb an instruction opens with: its first word, or the
// word after "to " ("To disable breadcrumbs, …").
func doing(l string) string {
	if r, ok := strings.CutPrefix(l, "to "); ok {
		l = r
	}
	return firstWord(l)
}

// lastStep: l (lower case) is how a guide ends rather than what it does:
// looking at the result in a browser, stopping the server.
func lastStep(l string) bool {
	for _, d := range [...]string{"in your web browser", "in your browser", "press ctrl", "ctrl + c", "ctrl+c"} {
		if strings.Contains(l, d) {
			return true
		}
	}
	return false
}

// namesRelease: r's title or headings name release ("Release 0.14.0
// report" for "0.14" of "since upgrading to Docsy 0.14"). Read once a
// record, not once a sentence.
func namesRelease(r *evidence.Selected, release string) bool {
	names := func(h string) bool {
		for _, w := range strings.FieldsFunc(h, func(r rune) bool { return r == ' ' || r == '(' || r == ')' || r == ',' || r == 'v' }) {
			if w == release || strings.HasPrefix(w, release+".") {
				return true
			}
		}
		return false
	}
	return names(r.Title) || slices.ContainsFunc(r.Headings, names)
}

// releaseIn is the first version number a question names ("0.14" of
// "since upgrading to Docsy 0.14"), "" when it names none.
func releaseIn(q string) string {
	for _, w := range strings.FieldsFunc(q, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.') }) {
		w = strings.Trim(w, ".")
		if strings.Count(w, ".") >= 1 && w[0] >= '0' && w[0] <= '9' {
			return w
		}
	}
	return ""
}

// quotesAsked: text has a code span of two words or more that the
// question, a command line, holds as it is ("`--type box`").
func (c *composer) quotesAsked(text string) bool {
	return anySpan(text, func(span string) bool {
		return strings.Contains(span, " ") && hasWord(c.plain, plain(span))
	})
}
