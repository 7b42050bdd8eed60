package generate

import (
	"context"
	"math/bits"
	"slices"
	"strings"

	"github.com/askplane/askplane/internal/chunk"
	"github.com/askplane/askplane/internal/evidence"
)

// ComposerModel is the usage model of the Composer, the default
// extractive generator since it replaced Extractive
// (ExtractiveModel, "askplane.extractive/1"), which stays available.
const ComposerModel = "askplane.extractive/2"

// Composer bounds: the prose of an answer, and one code block quoted
// whole or not at all.
const (
	DefaultComposeBytes = 600
	maxComposeCode      = 900
	maxChoices          = 5 // alternatives listed
	maxSteps            = 6 // steps listed
)

// Composer answers with text copied verbatim from the package's records,
// shaped by what the question asks and by what the best evidence is:
//
//   - a definition ("What is X?") by the defining sentence of the section
//     or page whose title names X, usually its first paragraph;
//   - one action ("How do I X?") by the sentence that says how, then its
//     code block verbatim;
//   - a procedure (sibling sections of one page that are steps, or an
//     ordered list) by the ordered steps, the first command quoted;
//   - alternatives (sibling sections of one page that are ways of doing
//     the same thing) by one line saying there are several, the options
//     as a list, and the first option's command;
//   - a setting or function (a short question naming it) by the table
//     row, definition entry or sentence that says what it is, and an
//     example when the section has one;
//   - an error message by the troubleshooting entry: its cause, then the
//     fix and its code.
//
// A lead is chosen by asking whether a sentence answers: its coverage of
// the question's words, with its section's headings; its place in the
// section; definitional or imperative forms; and penalties for sentences
// that depend on what came before ("This …", "For example …"),
// fragments and closing boilerplate. Nothing is stitched from unrelated
// sections. When nothing answers well it says so in one line and lists
// the closest sections. Run cites the records used in the engine's
// order; when the lead is not from the engine's first page, a closing
// "See also" line names (and so cites) that page's section too. It is
// deterministic and the zero value is ready to use.
type Composer struct {
	MaxBytes int // 0: DefaultComposeBytes; the prose's length in bytes
}

var _ Generator = Composer{}

// Question shapes.
type shape int

const (
	shapeHowto shape = iota
	shapeDefine
	shapeReference
	shapeError
	shapeWhy
	shapeCompare
)

// sent is one quotable sentence (or table row) of one record.
type sent struct {
	rec, block, pos int
	text            string
	kind            chunk.Kind
	mask            uint64 // question terms in the sentence
	heads           uint64 // question terms in the record's title and headings
	score           int
}

// Generate composes the answer and streams it, one delta per piece.
func (c Composer) Generate(ctx context.Context, q Question, pkg *evidence.Package, emit func(Event) error) error {
	if pkg == nil || len(pkg.Records) == 0 {
		return ErrNoEvidence
	}
	maxBytes := c.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultComposeBytes
	}
	out := compose(q.Text, pkg, maxBytes)
	out.dropDangling()
	if out == nil || len(out.deltas) == 0 {
		return ErrEmpty
	}
	for _, ev := range out.deltas {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := emit(ev); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return emit(Event{Usage: &Usage{Model: ComposerModel}, Unsure: out.unsure})
}

// composer is one composition's state.
type composer struct {
	pkg       *evidence.Package
	question  string
	terms     []string // the question's terms, sorted, distinct, stemmed
	all       uint64   // every term's bit
	subject   uint64   // the terms naming what is asked about
	sh        shape
	sents     []sent
	heads     []uint64 // per record: question terms in its title and headings
	code      []uint64 // per record: question terms in its code blocks
	own       []uint64 // per record: question terms in its own heading (the title for a page's intro)
	verb      uint64   // a how-to question's first term, usually what to do
	listing   bool     // the question asks for several things ("which keys …")
	weighs    bool     // the question weighs options ("which is easier", "do you recommend")
	errCode   string   // an error code the question names (ask_invalid_request), plain
	entry     bool     // the answer is a troubleshooting entry
	masks     map[string]uint64
	derived   map[string]uint64 // a word's question terms by derivation, once per word
	common    uint64            // terms most of the package's records hold
	leadBlock int               // the lead's block in its record
	verbatim  string            // a question naming code ("static: true"), as sentences and code are compared with it
	literal   []bool            // per record: its code holds the verbatim question
	named     string            // a definition's subject as asked ("docsy" of "what is Docsy")
	restated  []bool            // per record: its own heading is the question
	maxBytes  int
	out       composed
}

func compose(question string, pkg *evidence.Package, maxBytes int) *composed {
	c := newComposer(question, pkg, maxBytes)
	if c.sections() {
		return &c.out
	}
	switch sib, parent, kind := c.group(); kind {
	case choiceSections:
		c.alternatives(sib, parent)
		return &c.out
	case stepSections:
		c.procedure(sib, parent)
		return &c.out
	}
	if c.sh == shapeError {
		if r := c.errorEntry(); r >= 0 && c.troubleshoot(r) {
			return &c.out
		}
	}
	if c.listing && c.listLead() || c.sh == shapeCompare && c.compareList() || c.commandAnswer() {
		return &c.out
	}
	lead := c.lead()
	if lead < 0 {
		c.unsure()
		return &c.out
	}
	if c.listSteps(lead) {
		return &c.out
	}
	c.single(lead)
	return &c.out
}

// newComposer reads the question and scores every sentence of the
// package.
func newComposer(question string, pkg *evidence.Package, maxBytes int) *composer {
	c := &composer{pkg: pkg, question: question, maxBytes: maxBytes}
	asked := phrasal.Replace(question) // in the words the pages use
	c.terms = stemTerms(asked)
	c.all = 1<<uint(len(c.terms)) - 1
	if len(c.terms) == 64 {
		c.all = ^uint64(0)
	}
	c.sh, c.subject = classify(question, c)
	l := strings.ToLower(question)
	c.weighs = weighing(l)
	c.errCode = strings.ToLower(errorCodeIn(question))
	c.listing = strings.HasPrefix(l, "which ") || strings.HasPrefix(l, "what are ") || strings.HasPrefix(l, "list ") ||
		strings.Contains(l, " are there") || pluralAsked(l)
	if v := plain(question); codeLike(question) && (strings.ContainsAny(v, ".:_/=-") || camelParts(question) != question && !strings.Contains(v, " ")) && len(v) >= 6 && !strings.Contains(v, "?") {
		c.verbatim = v
	}
	c.literal = make([]bool, len(pkg.Records))
	c.sents = make([]sent, 0, 32) // collect's sentences: 11–27 a question, median 18
	c.restated = make([]bool, len(pkg.Records))
	restated := strings.TrimRight(plain(question), "?!. ")
	if c.sh == shapeDefine {
		for _, p := range []string{"what is a ", "what is an ", "what is the ", "what is ", "what's ", "what are the ", "what are ", "define ", "meaning of "} {
			if r, ok := strings.CutPrefix(restated, p); ok {
				c.named = r
				break
			}
		}
	}
	c.heads = make([]uint64, len(pkg.Records))
	c.code = make([]uint64, len(pkg.Records))
	c.own = make([]uint64, len(pkg.Records))
	if c.sh == shapeHowto {
		if t := evidence.Terms(asked); len(t) > 0 {
			if i, ok := slices.BinarySearch(c.terms, stem(t[0])); ok && len(c.terms) > 1 {
				c.verb = 1 << uint(i)
			}
		}
	}
	for ri := range pkg.Records {
		r := &pkg.Records[ri]
		m := c.mask(r.Title)
		for _, h := range r.Headings {
			m |= c.mask(h)
		}
		c.heads[ri] = m
		if n := len(r.Headings); r.Anchor != "" && n > 0 {
			c.own[ri] = c.mask(r.Headings[n-1])
			c.restated[ri] = strings.TrimRight(plain(r.Headings[n-1]), "?!. ") == restated
		} else {
			c.own[ri] = c.mask(r.Title)
		}
		for _, b := range r.Blocks {
			if b.Kind == chunk.Code {
				c.code[ri] |= c.mask(b.Text)
				c.literal[ri] = c.literal[ri] || c.verbatim != "" && hasWord(plain(b.Text), c.verbatim)
			}
		}
	}
	if pkg.Records[0].Blocks == nil {
		c.collectExcerpts()
	} else {
		c.collect()
	}
	if n := len(pkg.Records); n >= 4 && len(c.terms) >= 8 {
		df := make([]int, len(c.terms))
		for ri := range pkg.Records {
			m := c.heads[ri] | c.code[ri]
			for i := range c.sents {
				if c.sents[i].rec == ri {
					m |= c.sents[i].mask
				}
			}
			for t := range c.terms {
				if m&(1<<uint(t)) != 0 {
					df[t]++
				}
			}
		}
		for t, d := range df {
			if 2*d > n {
				c.common |= 1 << uint(t)
			}
		}
	}
	for i := range c.sents {
		c.sents[i].score = c.score(&c.sents[i])
	}
	if c.verbatim != "" {
		// A section introduces a setting where it first names it ("Then
		// add `sidebar_root_for` to …"); later mentions are notes on it.
		seen := -1
		for i := range c.sents {
			if s := &c.sents[i]; s.rec != seen && containsFold(s.text, c.verbatim) && hasWord(factsOf(s.text).plain, c.verbatim) {
				seen = s.rec
				s.score += 6
			}
		}
	}
	if c.sh == shapeHowto {
		// "You can configure your site to show … For details, see …":
		// a sentence that says what can be done and leaves how to the
		// page it sends the reader to does not answer a how-to.
		for i := 0; i+1 < len(c.sents); i++ {
			s, next := &c.sents[i], &c.sents[i+1]
			if next.rec == s.rec && next.block == s.block && !strings.Contains(s.text, "`") && factsOf(next.text).pointer {
				s.score -= 8
			}
		}
	}
	return c
}

// classify says what the question asks and which of its terms name the
// subject (the terms after "what is", or the whole short question).
func classify(q string, c *composer) (shape, uint64) {
	l := strings.ToLower(strings.TrimSpace(q))
	l = strings.TrimRight(l, "?!. ")
	words := strings.Fields(l)
	has := func(ps ...string) bool {
		for _, p := range ps {
			if strings.HasPrefix(l, p) {
				return true
			}
		}
		return false
	}
	rest := func(ps ...string) uint64 {
		for _, p := range ps {
			if r, ok := strings.CutPrefix(l, p); ok {
				return c.mask(r)
			}
		}
		return c.all
	}
	switch {
	case procedureAsked(l):
		return shapeHowto, c.all
	case errorLike(q):
		return shapeError, c.all
	case strings.Contains(l, "difference between") || strings.Contains(l, " vs ") || strings.Contains(l, " versus "):
		return shapeCompare, c.all
	case has("why ", "does ", "do ", "can ", "is ", "are ", "should ", "will ", "has ", "have "):
		return shapeWhy, c.all
	case has("what is ", "what's ", "what are ", "what is a ", "define ", "meaning of ", "what does ") && !strings.Contains(l, " need") && !has("what does the ", "what does a "):
		return shapeDefine, rest("what is a ", "what is an ", "what is the ", "what is ", "what's ", "what are the ", "what are ", "define ", "meaning of ", "what does ")
	case has("how ", "to ", "where ", "when ", "which ", "what ", "can i", "i "):
		return shapeHowto, c.all
	case len(words) <= 4 && codeLike(q):
		return shapeReference, c.all
	case len(words) <= 5 && !imperative[words[0]] && !strings.HasSuffix(strings.TrimSpace(q), "?"):
		// A few nouns, no question word and no verb ("request body
		// size limit", "tabpane options"): a lookup of what they are.
		return shapeReference, c.all
	}
	return shapeHowto, c.all
}

// pluralAsked: "what <things> …" asks for several ("what files does
// it write", "what order are the steps in"); "what does …", "what is …"
// do not, whatever plural follows.
func pluralAsked(l string) bool {
	w := strings.Fields(l)
	if len(w) < 3 || w[0] != "what" {
		return false
	}
	switch w[1] {
	case "is", "does", "do", "was", "has", "happens", "causes":
		return false
	}
	return strings.Contains(l, "s ")
}

// procedureAsked: the question asks for the steps, not one action.
func procedureAsked(l string) bool {
	for _, w := range []string{"steps", "step by step", "step-by-step", "set up", "setup", "get started", "getting started", "walk me through", "from scratch"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// codeLike: a question naming a setting or function (a dot, an
// underscore, camelCase, a colon) rather than asking in words.
func codeLike(q string) bool {
	for _, w := range strings.Fields(q) {
		if strings.ContainsAny(w, "._:/") && len(w) > 2 {
			return true
		}
		for i := 1; i < len(w); i++ {
			if w[i] >= 'A' && w[i] <= 'Z' && w[i-1] >= 'a' && w[i-1] <= 'z' {
				return true
			}
		}
	}
	return len(strings.Fields(q)) <= 2
}

// errorLike: a pasted error message, or a question about one.
func errorLike(q string) bool {
	l := strings.ToLower(q)
	for _, w := range []string{"error", "failed", "fails", "not found", "can't", "cannot", "404", "unable", "invalid", "panic", "refused", "denied", "doesn't work", "does not work", "not working", "broken"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	if errorCodeIn(q) != "" {
		return true // "what does ASK_PERSISTENCE_CONFLICT mean"
	}
	return strings.ContainsAny(q, "\"“") && len(strings.Fields(q)) > 3
}

// errorCode: an upper-case code with an underscore, as error codes are
// written (ASK_RATE_LIMITED, EACCES_DENIED), not an acronym (CSS, SHA256).
func errorCode(w string) bool {
	if len(w) < 5 || !strings.Contains(w, "_") {
		return false
	}
	for _, r := range w {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// errorCodeIn is the first error code q names, quoted or not, or "".
func errorCodeIn(q string) string {
	for _, w := range strings.Fields(q) {
		if w = strings.Trim(w, "`'\"“”?!.,:;()"); errorCode(w) {
			return w
		}
	}
	return ""
}

// mask is the question terms s contains, computed once per text: titles,
// headings and code blocks are read again by several steps.
func (c *composer) mask(s string) uint64 {
	if m, ok := c.masks[s]; ok {
		return m
	}
	m := c.maskOf(s)
	if c.masks == nil {
		c.masks = make(map[string]uint64, 64)
	}
	c.masks[s] = m
	return m
}

func (c *composer) maskOf(s string) uint64 {
	var m uint64
	for _, w := range stemsOf(s) {
		if i, ok := slices.BinarySearch(c.terms, w); ok {
			m |= 1 << uint(i)
			continue
		}
		if len(w) < 5 {
			continue // too short to be a derived form of anything
		}
		d, ok := c.derived[w]
		if !ok {
			// A derived form: "installation" for "install", "configure"
			// for "configuration".
			for i, q := range c.terms {
				short, long := q, w
				if len(long) < len(short) {
					short, long = long, short
				}
				if len(short) >= 5 && len(long)-len(short) <= 5 && strings.HasPrefix(long, short[:len(short)-1]) {
					d |= 1 << uint(i)
				}
			}
			if c.derived == nil {
				c.derived = make(map[string]uint64, 64) // a question's packages: 41–111 words, median 62
			}
			c.derived[w] = d
		}
		m |= d
	}
	return m
}

// scaffold words: what a question is asked in, never what it is about
// ("what fields does a fact have", "do I need PostCSS"). The engines keep
// their own, frozen stopwords; these only steer which sentence answers.
var scaffold = map[string]bool{
	"have": true, "has": true, "had": true, "should": true, "would": true, "could": true, "must": true,
	"want": true, "please": true, "possible": true, "only": true, "just": true, "really": true, "actually": true,
}

// camelParts is s followed, when it holds camelCase identifiers, by
// their parts ("contentHash" also as "content Hash"), so a question's
// "content hash" meets `contentHash` and "maxSources" meets "sources".
func camelParts(s string) string {
	boundary := func(i int) bool { return s[i] >= 'A' && s[i] <= 'Z' && s[i-1] >= 'a' && s[i-1] <= 'z' }
	first := 0
	for i := 1; i < len(s) && first == 0; i++ {
		if boundary(i) {
			first = i
		}
	}
	if first == 0 {
		return s
	}
	b := make([]byte, 0, 2*len(s)+8)
	b = append(b, s...)
	b = append(b, ' ')
	for i := 0; i < len(s); i++ {
		if i > 0 && boundary(i) {
			b = append(b, ' ')
		}
		b = append(b, s[i])
	}
	return string(b)
}

// camelPhrase is the first two parts, as words, of a camelCase setting
// asked alone ("cookie secret" of "cookieSecretEnv"); "" for any other
// question.
func camelPhrase(q string) string {
	q = strings.Trim(strings.TrimSpace(q), "`?")
	parts := strings.Fields(camelParts(q))
	if len(parts) < 3 || strings.ContainsAny(q, " ._-/:") {
		return "" // camelParts gives the identifier, then its parts
	}
	return strings.ToLower(parts[1] + " " + parts[2])
}

// stemTerms is the question's terms, stemmed, sorted and distinct, at
// most 64.
func stemTerms(q string) []string {
	t := evidence.Terms(camelParts(q))
	t = slices.DeleteFunc(t, func(w string) bool { return scaffold[w] })
	for i := range t {
		t[i] = stem(t[i])
	}
	slices.Sort(t)
	t = slices.Compact(t)
	return t[:min(len(t), 64)]
}

// stem strips a few English suffixes and a final e, so "pages" meets
// "page", "serves" and "serving" meet "serve", "gets" and "getting" meet
// "get", and "locally" meets "local".
// It is applied to the question and the sentences alike, so a stem need
// only be the same for the forms of one word, not a word itself.
func stem(w string) string {
	if b, ok := irregular[w]; ok {
		return b
	}
	w = american(w)
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		w = w[:n-3] + "y"
	case n > 5 && strings.HasSuffix(w, "sses"):
		w = w[:n-2]
	case n > 4 && strings.HasSuffix(w, "es") && (strings.ContainsRune("sxz", rune(w[n-3])) || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		w = w[:n-2]
	case n > 5 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:n-3])
	case n > 4 && strings.HasSuffix(w, "ed"):
		w = undouble(w[:n-2])
	case n > 5 && strings.HasSuffix(w, "ly"):
		w = w[:n-2]
	case n > 3 && w[n-1] == 's' && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:n-1]
	}
	w = american(w) // "colours" once its s is gone
	if len(w) > 4 && w[len(w)-1] == 'e' {
		w = w[:len(w)-1]
	}
	if s, ok := synonym[w]; ok {
		return s
	}
	return w
}

// phrasal turns the phrasal verbs readers ask with into the verb docs
// write ("turn off the feedback widget" is "disable" on the page), for
// the question's terms only.
var phrasal = strings.NewReplacer(
	"turn off", "disable", "Turn off", "disable", "switch off", "disable", "Switch off", "disable",
	"turn on", "enable", "Turn on", "enable", "switch on", "enable", "Switch on", "enable",
	"get rid of", "remove", "Get rid of", "remove", "set up", "configure", "Set up", "configure",
)

// synonym maps the stems of the verbs docs and readers use for one
// action to one of them: a reader asks to "change" what the page says
// to "customize", to "delete" what it says to "remove". Only words that
// name the same action whatever the subject; "set", "hide" or "override"
// say more than "change" and keep their own stems. So too the names
// readers shorten or vary for one thing: a "folder" the page calls a
// "directory", a "repo" it calls a "repository".
var synonym = map[string]string{
	"customiz": "chang", "modify": "chang", "modifi": "chang", "alter": "chang", "adjust": "chang",
	"delet": "remov", "display": "show", "activat": "enabl", "deactivat": "disabl",
	"launch": "start", "upgrad": "updat",
	"folder": "directory", "subfolder": "subdirectory", "dir": "directory", "repo": "repository",
}

// american spells w as American English does where British differs
// ("colour", "customise", "initialisation"), so either meets the other.
func american(w string) string {
	n := len(w)
	switch {
	case n > 5 && strings.HasSuffix(w, "our"):
		return w[:n-2] + "r"
	case n > 7 && strings.HasSuffix(w, "isation"):
		return w[:n-6] + "zation"
	}
	for _, suf := range []string{"ise", "ised", "ises", "ising"} {
		if n > len(suf)+3 && strings.HasSuffix(w, suf) {
			return w[:n-len(suf)] + "iz" + suf[2:]
		}
	}
	return w
}

// irregular verb forms docs use, by their base form ("No question is
// sent" answers "does it send my questions").
var irregular = map[string]string{
	"sent": "send", "built": "build", "ran": "run", "got": "get", "gotten": "get", "made": "make",
	"written": "write", "wrote": "write", "kept": "keep", "found": "find", "chose": "choose", "chosen": "choose",
	"gave": "give", "given": "give", "took": "take", "taken": "take", "shown": "show", "known": "know",
	"began": "begin", "begun": "begin", "broke": "break", "broken": "break", "hidden": "hide", "hid": "hide",
	"went": "go", "gone": "go", "saw": "see", "seen": "see", "held": "hold", "meant": "mean", "lost": "lose",
	"told": "tell", "thrown": "throw", "drawn": "draw", "left": "leave",
}

// undouble drops the doubled consonant a suffix left ("runn" of
// "running", "stopp" of "stopped"), keeping ll, ss and zz ("install",
// "pass") and a word of three letters ("add" of "adding").
func undouble(w string) string {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// collect gathers the quotable sentences of records with blocks.
func (c *composer) collect() {
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
				if (c.verbatim == "" || strings.Contains(c.verbatim, " ")) && c.sh != shapeReference {
					continue // a question that names no one setting
				}
				for pos, line := range strings.Split(b.Notes, "\n") {
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
		// Nor inside a code span ("`{{%/* ... */%}}`"), nor after a
		// question quoted in a sentence ("What is the module path? is a
		// package question").
		for i+1 < len(ss) && (abbreviated(s) || strings.Count(s, "`")%2 == 1 || quotedAsk(s, ss[i+1])) {
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
	for _, a := range []string{" vs.", "(vs.", " e.g.", "(e.g.", " i.e.", "(i.e.", " cf.", " approx.", " incl."} {
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

// hasWord: p holds v, not as the start or end of a longer identifier.
func hasWord(p, v string) bool {
	word := func(b byte) bool { return b == '_' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }
	for i := 0; ; {
		j := strings.Index(p[i:], v)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(v)
		if (j == 0 || !word(p[j-1]) || !word(v[0])) && (end == len(p) || !word(p[end]) || !word(v[len(v)-1])) {
			return true
		}
		i = j + 1
	}
}

// mentioned: the plain sentence p names v only as an example of
// something else ("recorded by its stable code, such as ASK_TIMEOUT",
// "a stable code — ask_timeout, ask_invalid_request and the others", "a
// post to the ask endpoint (params.askplane.endpoint)").
func mentioned(p, v string) bool {
	for _, m := range []string{"such as ", "e.g. ", "for example ", "like ", "— "} {
		if strings.Contains(p, m+v) {
			return true
		}
	}
	if strings.Contains(p, "("+v+")") {
		return true // named alone in parentheses; "(x makes it …)" speaks of it
	}
	return strings.Contains(p, " and the others") || strings.Contains(p, " and others")
}

// anaphoric: the sentence names what came before it mid-way ("any of
// these", "the above"), so it does not stand alone.
func anaphoric(l string) bool {
	l = l[:min(len(l), 72)]
	for _, a := range []string{" of these", " of those", " these ", " those ", " the above", " above,", " mentioned "} {
		if i := strings.Index(l, a); i >= 0 && i < 60 {
			return true
		}
	}
	return false
}

// leans: s opens leaning on what came before it.
func leans(s string) bool {
	return leansLower(strings.ToLower(s[:min(len(s), 24)]))
}

// leansLower is leans of a lower-cased sentence.
func leansLower(l string) bool {
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

// score says how well a sentence answers the question.
func (c *composer) score(s *sent) int {
	ctx := s.mask | s.heads
	if c.sh == shapeHowto || c.sh == shapeReference {
		ctx |= c.code[s.rec] // a how-to or a setting's section is also its code
	}
	// A term most records of the package hold ("change", "old") says
	// less of which sentence answers than a rare one: it counts half.
	w := func(m uint64) int { return 2*bits.OnesCount64(m&^c.common) + bits.OnesCount64(m&c.common) }
	sc := 4*w(s.mask) + 6*w(ctx)
	if (c.sh == shapeDefine || c.sh == shapeReference) && s.mask&c.subject == c.subject && c.subject != 0 {
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
	if c.aside(s.rec) {
		sc -= 10 // a blog post or release note: an aside, where the docs are the reference
		if c.sh == shapeHowto {
			sc -= 10 // a release note says a thing can now be done; the docs say how
		}
	}
	if then, ok := strings.CutPrefix(l, "then "); ok && imperative[firstWord(then)] {
		sc -= 6 // "Then add `sidebar_root_for` to …": a later step, but it says what to do
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
	if c.weighs && (strings.Contains(l, " than ") || strings.Contains(l, "recommend") || strings.Contains(l, "prefer")) {
		sc += 10 // weighs one option against another, as asked
	}
	switch c.sh {
	case shapeDefine, shapeReference:
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
		sc += c.purpose(l)
		if s.kind == chunk.Table && !c.listing {
			sc -= 8 // a reference row is rarely how to do something
		}
	case shapeError:
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

// weighing: the question asks which of several options is better in
// some way ("Hugo modules or git submodule, which is easier to
// maintain?", "which installation option do you recommend").
func weighing(l string) bool {
	for _, w := range strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == ',' || r == '?' }) {
		switch w {
		case "easier", "harder", "better", "worse", "faster", "slower", "simpler", "safer", "cheaper", "best", "easiest", "simplest", "recommend", "recommended", "prefer", "preferred":
			return true
		}
	}
	return false
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

// containsFold: s holds sub, ASCII case ignored, without allocating (a
// filter before the checks that lower-case a sentence).
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// fileName: h is a file's name alone ("netlify.toml", ".env"), as a
// section named for its file is headed.
func fileName(h string) bool {
	dot := strings.LastIndexByte(h, '.')
	return dot >= 0 && dot < len(h)-1 && len(h) <= 64 && !strings.ContainsAny(h, " `/\\")
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

// unquote drops backticks and double quotes, straight and curly. Built
// once: a Replacer's first Replace builds its tables, which cost more
// than the replacing when it was made anew for every sentence.
var unquote = strings.NewReplacer("`", "", "\u201c", "", "\u201d", "", "\"", "")

// plain is s for a verbatim comparison: lower case, without backticks
// or quotes, runs of white space as one space.
func plain(s string) string {
	s = unquote.Replace(strings.ToLower(s))
	return strings.Join(strings.Fields(s), " ")
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
	name, rest, ok := strings.Cut(strings.TrimPrefix(s, "`"), "`")
	if !ok || !strings.HasPrefix(s, "`") || !(strings.HasPrefix(rest, " is ") || strings.HasPrefix(rest, " are ")) {
		return false
	}
	return c.mask(name) == 0
}

func definitional(l string) bool {
	for _, v := range []string{" is a ", " is an ", " is the ", " are ", " is ", " means ", " refers to ", " holds ", " lets ", " makes "} {
		if i := strings.Index(l, v); i > 0 && i < 80 {
			return true
		}
	}
	return false
}

// lead is the sentence that answers best, -1 when none answers well
// enough to be presented as the answer.
func (c *composer) lead() int {
	best := -1
	for i := range c.sents {
		s := &c.sents[i]
		if len(s.text) > c.maxBytes || strings.HasSuffix(s.text, ":") && !c.introducesCode(s) && !c.introducesList(s) {
			continue
		}
		// A question is not an answer, unless it is a FAQ item whose
		// answer follows it; a question quoted as an example ("Does the
		// widget send my questions anywhere?" as a phrasing) gives way
		// to the best sentence that is not one.
		if strings.HasSuffix(s.text, "?") && (i+1 >= len(c.sents) || c.sents[i+1].rec != s.rec || strings.HasSuffix(c.sents[i+1].text, "?")) {
			continue
		}
		if best < 0 || s.score > c.sents[best].score {
			best = i
		}
	}
	if best < 0 {
		return -1
	}
	s := &c.sents[best]
	// An answer covers the question: in the sentence, its headings and
	// its code at least a third of the question's terms.
	n := bits.OnesCount64(c.all)
	cov := bits.OnesCount64(s.mask | s.heads | c.code[s.rec])
	if s.mask == 0 && s.heads == 0 || cov < min(2, (n+2)/3) || s.score < 10 {
		return -1
	}
	return best
}

func (c *composer) introducesCode(s *sent) bool {
	k := c.codeAfter(s.rec, s.block)
	return k >= 0 && len(c.pkg.Records[s.rec].Blocks[k].Text) <= maxComposeCode && c.lastOf(s)
}

// codeAfter is the code block right after block in rec, past any tab
// labels between them ("Front matter:", "toml"); -1 when none follows.
func (c *composer) codeAfter(rec, block int) int {
	bs := c.pkg.Records[rec].Blocks
	for k := block + 1; k < len(bs); k++ {
		switch {
		case bs[k].Kind == chunk.Code:
			return k
		case !tabLabel(bs[k]):
			return -1
		}
	}
	return -1
}

// tabLabel: a block that only names the tab or file a code block sits
// in ("Front matter:", "toml", "hugo.yaml"), as themes render code
// tabs; it is no sentence to quote.
func tabLabel(b chunk.Block) bool {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(b.Text), ":"))
	return (b.Kind == chunk.Paragraph || b.Kind == chunk.List && strings.HasPrefix(b.Text, " ")) && t != "" && len(t) <= 24 && !strings.Contains(t, ". ") && !strings.ContainsAny(t, "\n") && fewWords(t, 4)
}

// introducesList: s ends its paragraph and a list follows it ("To
// serve your site locally:" then the steps).
func (c *composer) introducesList(s *sent) bool {
	bs := c.pkg.Records[s.rec].Blocks
	return s.kind == chunk.Paragraph && s.block+1 < len(bs) && bs[s.block+1].Kind == chunk.List && c.lastOf(s)
}

func (c *composer) lastOf(s *sent) bool {
	for i := range c.sents {
		t := &c.sents[i]
		if t.rec == s.rec && t.block == s.block && t.pos > s.pos {
			return false
		}
	}
	return true
}

// said: the answer already quotes text (as a sentence or a list line).
func (c *composer) said(text string) bool {
	for _, ev := range c.out.deltas {
		if strings.Contains(ev.Delta, text) {
			return true
		}
	}
	return false
}

func (c *composer) add(text string, rec int) {
	c.out.add(text, c.pkg.Records[rec].ID)
}

// single composes one section's answer: the lead, the sentences after it
// in its block that still answer, the list or table it introduces, its
// code (with a code block directly after it), and the sentence after the
// code; all from the lead's record, the code also from another section
// of the same page when the lead's has none.
func (c *composer) single(li int) {
	// A lead that is itself a question (a FAQ item, a heading-like
	// sentence) is answered by the sentence after it.
	if strings.HasSuffix(c.sents[li].text, "?") && li+1 < len(c.sents) && c.sents[li+1].rec == c.sents[li].rec {
		li++
	}
	// An explanation or a definition is read from the start of its
	// paragraph when the paragraph is short and opens on its own: the
	// sentences before the lead are usually its reason ("… loads as an
	// external ES module from your origin, so script-src 'self' covers
	// it. … Nothing needs a nonce …"). Short is about three sentences,
	// 520 bytes: still well under the answer's budget.
	if l := &c.sents[li]; (c.sh == shapeWhy || c.sh == shapeDefine || c.sh == shapeCompare || c.sh == shapeError) && l.pos > 0 && l.kind == chunk.Paragraph {
		first, n := li, 0
		for first > 0 && c.sents[first-1].rec == l.rec && c.sents[first-1].block == l.block {
			first--
		}
		for i := first; i <= li; i++ {
			n += len(c.sents[i].text) + 1
		}
		if f := &c.sents[first]; n <= 520 && f.pos == 0 && (f.score > 0 || leans(l.text)) && !strings.HasSuffix(f.text, ":") {
			li = first
		}
	}
	// A definition found in a list item is read from the sentence that
	// introduces the list ("… a doc-rooted site structure, where:"), the
	// list following it whole.
	if l := &c.sents[li]; c.sh == shapeDefine && l.kind == chunk.List && l.block > 0 {
		for i := li - 1; i >= 0 && c.sents[i].rec == l.rec && c.sents[i].block >= l.block-1; i-- {
			if t := &c.sents[i]; t.block == l.block-1 && t.kind == chunk.Paragraph && c.introducesList(t) && strings.HasSuffix(t.text, ":") {
				li = i
				break
			}
		}
	}
	if c.afterSteps(li) {
		return
	}
	c.earlierStep(li)
	lead := c.sents[li]
	c.leadBlock = lead.block
	size, covered := 0, lead.mask
	// A setting's value asked by name ("td.chrome shared") and answered
	// by how to set it says first what the value does, from the list
	// that names it ("`shared` emits each region on one donor page …").
	if m := c.meaning(&lead); m != nil {
		c.add(m.text+"\n\n", m.rec)
		size, covered = len(m.text)+2, covered|m.mask
	}
	c.add(lead.text, lead.rec)
	size += len(lead.text)
	// The sentences that follow the lead in its block, while they add to
	// the answer and fit: the rest of a definition, the fix after a cause.
	if lead.kind != chunk.Table && lead.kind != chunk.List && lead.kind != chunk.Code && !strings.HasSuffix(lead.text, ":") {
		for i := li + 1; i < len(c.sents); i++ {
			s := &c.sents[i]
			// A definition goes on into the next paragraph of its
			// section while it is short: what the thing is, then what
			// it holds or does.
			next := s.block == lead.block+1 && s.pos == 0 && s.kind == chunk.Paragraph && size < 300 &&
				(c.sh == shapeDefine || c.sh == shapeHowto && !imperative[firstWord(lead.text)] && directs(s.text))
			if s.rec != lead.rec || s.block != lead.block && !next || strings.HasSuffix(s.text, ":") && !c.introducesCode(s) && !c.introducesList(s) {
				break
			}
			sep := " "
			if s.block != lead.block {
				sep = "\n\n"
			}
			if size+1+len(s.text) > c.maxBytes || closingLike(s.text) {
				break
			}
			if strings.HasSuffix(s.text, ":") && (c.sh == shapeWhy || c.sh == shapeCompare) && !c.introducesList(s) {
				break // it introduces code this answer does not quote
			}
			// A how-to goes on while the sentence adds a question word or
			// says what to do, or while the answer is a short line yet.
			if c.sh == shapeHowto && s.mask&^covered == 0 && !imperative[firstWord(s.text)] && (size >= 200 || s.score <= 0) {
				break
			}
			if c.sh == shapeError && s.mask&^covered == 0 && !fixLike(s.text) && size > 200 {
				break
			}
			c.add(sep+s.text, s.rec)
			size += len(sep) + len(s.text)
			covered |= s.mask
			lead = *s
			if strings.HasSuffix(s.text, ":") {
				break
			}
		}
	}
	// A short answer from a page's opening goes on with the list of its
	// page's section whose own heading is only words asked: the
	// specifics behind it (a yes-or-no question: "The widget is meant to
	// be usable with a keyboard alone …" then "Keyboard": Tab reaches …,
	// Enter submits …; "what does the sidecar measure": "The sidecar
	// measures enough to establish a baseline …" then "What is
	// measured": time to the first event …).
	if r := &c.pkg.Records[lead.rec]; c.sh != shapeError && r.Anchor == "" && size < 200 {
		for ri := range c.pkg.Records {
			n := &c.pkg.Records[ri]
			if ri == lead.rec || n.URL != r.URL || n.Anchor == "" || len(n.Blocks) == 0 || n.Blocks[0].Kind != chunk.List ||
				!c.allAsked(n.Headings[len(n.Headings)-1]) {
				continue
			}
			if c.quoteList(ri, 0, &size) {
				c.seeAlso(lead.rec)
				return
			}
			break
		}
	}
	// A short how-to answer from a page's opening goes on with its first
	// section's opening paragraph, which usually says how ("Declare
	// those in data files." then "Any file under data/askplane/ is
	// read: …").
	if r := &c.pkg.Records[lead.rec]; c.sh == shapeHowto && r.Anchor == "" && size < 200 && lead.kind == chunk.Paragraph && c.lastOf(&lead) && !c.introducesCode(&lead) && !c.introducesList(&lead) {
		for ri := range c.pkg.Records {
			n := &c.pkg.Records[ri]
			if n.URL != r.URL || n.Order != r.Order+1 || len(n.Blocks) == 0 || n.Blocks[0].Kind != chunk.Paragraph {
				continue
			}
			for i := range c.sents {
				t := &c.sents[i]
				if t.rec != ri || t.block != 0 {
					continue
				}
				if size+2+len(t.text) > c.maxBytes || closingLike(t.text) {
					break
				}
				sep := " "
				if t.pos == 0 {
					sep = "\n\n"
				}
				c.add(sep+t.text, ri)
				size += len(sep) + len(t.text)
				covered |= t.mask
				lead = *t
			}
			break
		}
	}
	bs := c.pkg.Records[lead.rec].Blocks
	// A list or small table the lead's paragraph introduces is the answer's
	// body ("Lighthouse reads a few keys of its own:" then the keys); so is
	// the whole list when the lead is one item of a section whose headings
	// ask more than the item says ("which keys …").
	// So is the whole list when its section's own heading is most of
	// the question ("Writing good phrasings" for "how to write good
	// phrasings"): each item is one piece of the answer.
	whole := (lead.kind == chunk.List || lead.kind == chunk.Table) && (c.listing && c.heads[lead.rec]&^lead.mask != 0 ||
		lead.kind == chunk.List && c.pkg.Records[lead.rec].Anchor != "" && 3*bits.OnesCount64(c.own[lead.rec]) >= 2*bits.OnesCount64(c.all))
	if whole {
		c.out = composed{}
		size = 0
		lead.block--
	}
	listed := false
	if (whole || lead.kind == chunk.Paragraph && c.lastOf(&lead)) && lead.block+1 < len(bs) {
		listed = c.quoteList(lead.rec, lead.block+1, &size)
	}
	// A question asking for several things ("which keys", "what files")
	// is answered by the list or table of the lead's section, or of a
	// section of its page whose heading speaks to the question.
	if c.listing && !listed {
		for ri := range c.pkg.Records {
			if ri != lead.rec && (c.pkg.Records[ri].URL != c.pkg.Records[lead.rec].URL || c.own[ri] == 0) {
				continue
			}
			for bi, b := range c.pkg.Records[ri].Blocks {
				if (b.Kind == chunk.List || b.Kind == chunk.Table) && (ri != lead.rec || bi != lead.block) && c.listSpeaks(ri, bi, 0) && c.quoteList(ri, bi, &size) {
					listed = true
					break
				}
			}
			if listed {
				break
			}
		}
	}
	if c.sh == shapeWhy || c.sh == shapeCompare && lead.kind != chunk.Paragraph {
		if c.sh == shapeCompare {
			c.support(lead.rec, &covered) // the other side: the list's next item
		}
		c.seeAlso(lead.rec)
		return
	}
	// The code: the block the lead introduces, else the best-matching
	// code block of the lead's section, else of another section of its
	// page with a question term in its code or headings.
	codeRec, code := lead.rec, -1
	if c.introducesCode(&lead) && strings.HasSuffix(lead.text, ":") {
		code = c.codeAfter(lead.rec, lead.block)
	} else {
		best := 0
		for ri := range c.pkg.Records {
			if ri != lead.rec && c.pkg.Records[ri].URL != c.pkg.Records[lead.rec].URL {
				continue
			}
			if ri != lead.rec && (c.sh == shapeDefine || c.sh == shapeCompare || code >= 0 && codeRec == lead.rec) {
				continue
			}
			rbs := c.pkg.Records[ri].Blocks
			for bi, b := range rbs {
				if b.Kind != chunk.Code || len(b.Text) > maxComposeCode {
					continue
				}
				if c.sh == shapeDefine && (ri != lead.rec || bi != lead.block+1) {
					continue // a definition quotes only the example right after it
				}
				m := c.mask(b.Text)
				if bi > 0 && rbs[bi-1].Kind != chunk.Code {
					m |= c.mask(rbs[bi-1].Text)
				}
				if ri == lead.rec {
					m |= c.heads[ri]
				} else if h := c.pkg.Records[ri].Headings; len(h) > 0 {
					m |= c.mask(h[len(h)-1])
				}
				n := bits.OnesCount64(m) * 2
				switch {
				case ri == lead.rec:
					n += 2
				case c.pkg.Records[lead.rec].Anchor == "" && c.pkg.Records[ri].Order == c.pkg.Records[lead.rec].Order+1:
					// A page's intro is followed by its first section,
					// which usually holds the page's first command: it
					// weighs more than one more word of the question.
					n += 3
				case bits.OnesCount64(m) < min(2, bits.OnesCount64(c.all)):
					// Another section's code must earn its place with
					// its own words, not the page title they share.
					continue
				}
				if ri == lead.rec && bi == lead.block+1 {
					n++ // right after the lead
				}
				if n > best {
					best, codeRec, code = n, ri, bi
				}
			}
		}
	}
	if code < 0 && c.sh == shapeReference {
		codeRec, code = c.exampleOf()
	}
	if code >= 0 {
		cbs := c.pkg.Records[codeRec].Blocks
		// Code the lead does not introduce keeps its own introduction.
		if codeRec != lead.rec || code != c.codeAfter(lead.rec, lead.block) || !strings.HasSuffix(lead.text, ":") {
			intro := -1
			for i := range c.sents {
				s := &c.sents[i]
				if s.rec != codeRec || c.codeAfter(s.rec, s.block) != code || !c.lastOf(s) || c.said(s.text) || size+2+len(s.text) > c.maxBytes+200 {
					continue
				}
				// Its introduction ("… as follows:"), or, for another
				// section's code, the instruction before it ("Add the
				// parameter `hide_feedback` to the page's front matter
				// and set it to `true`.").
				if strings.HasSuffix(s.text, ":") || codeRec != lead.rec && directs(s.text) {
					intro = i
					break
				}
			}
			if intro >= 0 {
				s := &c.sents[intro]
				c.add("\n\n"+s.text, s.rec)
				size += 2 + len(s.text)
			} else if h := c.pkg.Records[codeRec].Headings; codeRec != lead.rec && len(h) > 0 && fileName(h[len(h)-1]) {
				// A section named for the file its code is ("netlify.toml")
				// says so by its heading.
				c.add("\n\n`"+h[len(h)-1]+"`:", codeRec)
			}
		}
		c.add("\n\n"+fence(cbs[code]), codeRec)
		end := code + 1
		if end < len(cbs) && cbs[end].Kind == chunk.Code && len(cbs[end].Text) <= maxComposeCode/2 {
			c.add("\n\n"+fence(cbs[end]), codeRec)
			end++
		}
		// The first sentence after the code, when it still speaks to the
		// question.
		for i := range c.sents {
			s := &c.sents[i]
			if s.rec != codeRec || s.block != end || s.pos != 0 || !(s.mask&^covered != 0 && s.score > 0 || c.entry) || size+2+len(s.text) > c.maxBytes {
				continue
			}
			if !strings.HasSuffix(s.text, ":") {
				c.add("\n\n"+s.text, s.rec)
				break
			}
			// "To fix this, install …, then rebuild:" and its list, when
			// the sentence is all its paragraph and the list fits.
			if c.introducesList(s) {
				n, sz := len(c.out.deltas), size+2+len(s.text)
				c.add("\n\n"+s.text, s.rec)
				if !c.quoteList(s.rec, s.block+1, &sz) {
					c.out.deltas, c.out.size = c.out.deltas[:n], c.out.size-2-len(s.text)
				}
			}
			break
		}
	}
	c.support(lead.rec, &covered)
	c.seeAlso(lead.rec)
}

// meaning is, for a reference question answered by an instruction
// (lead), the list item elsewhere in the package that opens with a
// code-named value the question names and says what it does; nil when
// there is none.
func (c *composer) meaning(lead *sent) *sent {
	if c.sh != shapeReference || !directs(lead.text) {
		return nil
	}
	var best *sent
	for i := range c.sents {
		s := &c.sents[i]
		if s.kind != chunk.List || s.rec == lead.rec && s.block == lead.block || s.score <= 0 || len(s.text) > maxSupportBytes || directs(s.text) {
			continue
		}
		name, _, ok := strings.Cut(strings.TrimPrefix(s.text, "`"), "`")
		if !ok || !strings.HasPrefix(s.text, "`") || c.mask(name) == 0 || !hasWord(plain(c.question), plain(name)) {
			continue
		}
		if best == nil || s.score > best.score {
			best = s
		}
	}
	return best
}

// listLead answers a question asking for several things ("what are the
// parts", "which keys") with the list or small table of one of the
// engine's first two records whose own heading speaks to the question,
// after the sentence introducing it; false when there is none.
func (c *composer) listLead() bool {
	for ri := range min(2, len(c.pkg.Records)) {
		if c.own[ri] == 0 {
			continue
		}
		bs := c.pkg.Records[ri].Blocks
		for bi, b := range bs {
			if b.Kind != chunk.List && b.Kind != chunk.Table {
				continue
			}
			size := 0
			var m uint64 // what the introduction and the listed lines say
			if bi > 0 && bs[bi-1].Kind == chunk.Paragraph {
				for i := range c.sents {
					if s := &c.sents[i]; s.rec == ri && s.block == bi-1 && c.lastOf(s) && s.score > 0 && len(s.text) <= maxSupportBytes {
						c.add(s.text, ri)
						size = len(s.text)
						m |= s.mask
					}
				}
			}
			if !c.listSpeaks(ri, bi, m) {
				c.out = composed{}
				continue
			}
			if c.quoteList(ri, bi, &size) {
				c.seeAlso(ri)
				return true
			}
			c.out = composed{}
		}
	}
	return false
}

// compareList answers a comparison with a list whose items each open by
// naming one of the things compared ("`full` (default) emits each
// page's chrome …", "`shared` emits each region on one donor page …"),
// read with the sentence that introduces it: the docs' own side-by-side.
func (c *composer) compareList() bool {
	for ri := range c.pkg.Records {
		bs := c.pkg.Records[ri].Blocks
		for bi, b := range bs {
			if b.Kind != chunk.List || !c.namesEachSide(b.Text) {
				continue
			}
			size := 0
			if bi > 0 && bs[bi-1].Kind == chunk.Paragraph {
				for i := range c.sents {
					if s := &c.sents[i]; s.rec == ri && s.block == bi-1 && c.lastOf(s) && strings.HasSuffix(s.text, ":") {
						c.add(s.text, ri)
						size = len(s.text)
					}
				}
			}
			if c.quoteList(ri, bi, &size) {
				c.seeAlso(ri)
				return true
			}
			c.out = composed{}
		}
	}
	return false
}

// namesEachSide: every top-level item of the list opens with a name (a
// code span, or a few words before a colon or dash) that is a question
// term, and the items name at least two different ones.
func (c *composer) namesEachSide(list string) bool {
	var seen uint64
	n := 0
	for _, l := range strings.Split(list, "\n") {
		if strings.HasPrefix(l, " ") || strings.TrimSpace(l) == "" {
			continue
		}
		item := strings.TrimSpace(listItem(l))
		var name string
		if rest, ok := strings.CutPrefix(item, "`"); ok {
			name, _, _ = strings.Cut(rest, "`")
		} else if i := strings.IndexAny(item, ":—–"); i > 0 && fewWords(item[:i], 5) {
			name = item[:i]
		}
		m := c.mask(name)
		if name == "" || m == 0 {
			return false
		}
		seen |= m
		n++
	}
	return n >= 2 && bits.OnesCount64(seen) >= 2
}

// listSpeaks: the list or table block (its top-level lines, with intro,
// the terms of its introduction) speaks of what is asked beyond its
// section's name, or its section's own heading is most of the question
// ("What gets deployed"): a page's steps do not answer which variables
// it sets.
func (c *composer) listSpeaks(rec, block int, intro uint64) bool {
	m := intro
	for _, l := range strings.Split(c.pkg.Records[rec].Blocks[block].Text, "\n") {
		if !strings.HasPrefix(l, " ") {
			m |= c.mask(l)
		}
	}
	return m&^c.heads[rec] != 0 || 2*bits.OnesCount64(c.own[rec]) >= bits.OnesCount64(c.all)
}

// afterSteps answers with a lead that names steps of the numbered list
// just before it ("Steps 3 and 5 fail with DETERMINISTIC_HASH_MISMATCH"),
// or points back at the list or table ("A body that breaks any of these
// is rejected …"), by the list's introduction, the list, then the lead:
// without them, "step 3" or "these" tell a reader nothing. False when
// the lead does neither or the list is too long to quote whole.
func (c *composer) afterSteps(li int) bool {
	l := &c.sents[li]
	if !c.pointsBack(l) {
		return false
	}
	before := c.out
	size := 0
	if l.block >= 2 {
		for i := li - 1; i >= 0 && c.sents[i].rec == l.rec && c.sents[i].block >= l.block-2; i-- {
			if t := &c.sents[i]; t.block == l.block-2 && t.kind == chunk.Paragraph && strings.HasSuffix(t.text, ":") {
				c.add(t.text, t.rec)
				size = len(t.text)
				break
			}
		}
	}
	if !c.quoteList(l.rec, l.block-1, &size) {
		c.out = before // a list too long to quote: the lead alone
		return false
	}
	c.leadBlock = l.block - 1
	c.add("\n\n"+l.text, l.rec)
	return true
}

// earlierStep quotes, before a how-to's lead, the instruction that the
// lead's step follows: a section of two instructions, each with its
// code ("To create a doc-rooted site, redefine the permalinks as
// follows:" then "Add the following front matter to each site root
// index file:"), is answered by both in order, not by the second alone.
// The earlier instruction's code comes right before the lead (an
// instruction further back is another task of the section), it names a
// word of the question and it opens with what to do ("To …", "Add …").
func (c *composer) earlierStep(li int) {
	l := &c.sents[li]
	if c.sh != shapeHowto || l.kind != chunk.Paragraph {
		return
	}
	if next := li + 1; !c.instruction(l) && !(next < len(c.sents) && c.sents[next].rec == l.rec && c.sents[next].block <= l.block+1 && c.instruction(&c.sents[next])) {
		return // the lead is no step of a guide
	}
	for i := range c.sents {
		t := &c.sents[i]
		if t.rec != l.rec || t.block >= l.block-1 || t.mask == 0 || !c.instruction(t) {
			continue
		}
		k := c.codeAfter(t.rec, t.block)
		if k != l.block-1 {
			continue // its code is not right before the lead: another task of the section
		}
		if c.out.size+len(t.text)+len(c.pkg.Records[t.rec].Blocks[k].Text) > c.maxBytes {
			return
		}
		c.add(t.text, t.rec)
		c.add("\n\n"+fence(c.pkg.Records[t.rec].Blocks[k])+"\n\n", t.rec)
		return
	}
}

// instruction: s says what to do ("Add …", "To pin it, specify …",
// "After updating the theme, tidy …") and introduces the code that does
// it.
func (c *composer) instruction(s *sent) bool {
	if !strings.HasSuffix(s.text, ":") || !c.introducesCode(s) {
		return false
	}
	if directs(s.text) {
		return true
	}
	_, main, ok := strings.Cut(factsOf(s.text).lower, ", ")
	return ok && imperative[firstWord(main)]
}

// pointsBack: s opens the paragraph right after a list or table in its
// record and speaks of it ("Steps 3 and 5 fail …" after a numbered list,
// "any of these" after a table), so it answers with it.
func (c *composer) pointsBack(s *sent) bool {
	if s.pos != 0 || s.kind != chunk.Paragraph || s.block < 1 || s.rec >= len(c.pkg.Records) {
		return false
	}
	switch prev := c.pkg.Records[s.rec].Blocks[s.block-1]; {
	case prev.Kind == chunk.List && strings.HasPrefix(prev.Text, "1.") && namesStep(s.text):
		return true
	case prev.Kind == chunk.List || prev.Kind == chunk.Table:
		return factsOf(s.text).anaphoric
	}
	return false
}

// namesStep: s speaks of numbered steps ("Steps 3 and 5 fail …", "In
// step 2, …").
func namesStep(s string) bool {
	l := strings.ToLower(s)
	for _, p := range []string{"step ", "steps "} {
		for i := strings.Index(l, p); i >= 0; {
			if j := i + len(p); j < len(l) && l[j] >= '1' && l[j] <= '9' && (i == 0 || l[i-1] == ' ') {
				return true
			}
			k := strings.Index(l[i+1:], p)
			if k < 0 {
				break
			}
			i += 1 + k
		}
	}
	return false
}

// quoteList quotes a list or table block one "- " line per item or
// row when it has at most maxTableRows and fits; false when it does not.
func (c *composer) quoteList(rec, block int, size *int) bool {
	b := c.pkg.Records[rec].Blocks[block]
	if b.Kind != chunk.List && b.Kind != chunk.Table {
		return false
	}
	// One line per item or row, whole: an item of two sentences is one
	// line, not two.
	var lines []string
	n := 0
	if b.Kind == chunk.List {
		for _, l := range strings.Split(b.Text, "\n") {
			if strings.HasPrefix(l, " ") {
				continue // a nested item belongs to the one above it
			}
			if t := strings.TrimSpace(listItem(l)); t != "" {
				if !quotable(t) || len(t) > maxTableRowBytes {
					return false
				}
				lines = append(lines, t)
				n += 3 + len(t)
			}
		}
	} else {
		for i := range c.sents {
			if s := &c.sents[i]; s.rec == rec && s.block == block {
				lines = append(lines, s.text)
				n += 3 + len(s.text)
			}
		}
	}
	if len(lines) == 0 || len(lines) > maxTableRows || *size+n > c.maxBytes+200 {
		return false
	}
	// An ordered list keeps its numbers.
	ordered := b.Kind == chunk.List && strings.TrimLeft(b.Text, "0123456789") != b.Text
	for i, l := range lines {
		marker := "- "
		if ordered {
			marker = itoa(i+1) + ". "
		}
		sep := "\n"
		switch {
		case i == 0 && c.out.size == 0:
			sep = ""
		case i == 0:
			sep = "\n\n"
		}
		c.add(sep+marker+l, rec)
	}
	*size += n
	return true
}

// support adds at most maxSupport sentences that cover question terms
// the answer does not yet hold, and only while it leaves some
// uncovered: from the lead's section, its page's opening, or a section
// of its page whose own heading names a term still uncovered. Nothing comes from
// another page or an unrelated section. Each must stand on its own (its
// score) and fit the prose bound; they follow in reading order, each its
// own paragraph.
func (c *composer) support(leadRec int, covered *uint64) {
	used := map[string]bool{}
	prose := 0
	for _, ev := range c.out.deltas {
		used[strings.TrimSpace(ev.Delta)] = true
		if !strings.Contains(ev.Delta, "```") {
			prose += len(ev.Delta)
		}
	}
	url := c.pkg.Records[leadRec].URL
	// The words a comparison is asked in are not what it is about.
	comparing := c.mask("difference differences between versus compare comparison")
	var picked []int
	for range maxSupport {
		if *covered&c.all == c.all {
			break // the answer holds every question term
		}
		best, bestNew := -1, 0
		for i := range c.sents {
			s := &c.sents[i]
			if s.score < 20 || used[s.text] || len(s.text) > maxSupportBytes || prose+2+len(s.text) > c.maxBytes || strings.HasSuffix(s.text, ":") && !c.comparedCode(s) || strings.HasSuffix(s.text, "?") || c.said(s.text) {
				continue
			}
			if leans(s.text) {
				continue // "To do so, …": its subject came before it
			}
			if r := &c.pkg.Records[s.rec]; s.rec != leadRec && (r.URL != url || r.Anchor != "" && (c.own[s.rec]&^*covered == 0 || s.score < 40) || c.entry) {
				continue // only the page's opening, or a section naming an uncovered term in its heading; an error's entry stands alone
			}
			if s.kind == chunk.Table && !c.listing && c.sh != shapeReference {
				continue // a reference row is not support for a how-to or an error
			}
			// On a tie, the lead's own block first (a list's next item),
			// then the better sentence.
			n := bits.OnesCount64(s.mask &^ *covered &^ comparing)
			near := func(t *sent) bool { return t.rec == leadRec && t.block == c.leadBlock }
			if n > bestNew || n == bestNew && n > 0 && (near(s) && !near(&c.sents[best]) || near(s) == near(&c.sents[best]) && s.score > c.sents[best].score) {
				best, bestNew = i, n
			}
		}
		if best < 0 {
			break
		}
		s := &c.sents[best]
		used[s.text] = true
		*covered |= s.mask
		prose += 2 + len(s.text)
		picked = append(picked, best)
	}
	// A how-to answered in words only ("Enable it by adding your ID to
	// the site configuration.") goes on with the sentence of its section
	// that names the setting or command, when there is one.
	if c.sh == shapeHowto && len(picked) == 0 && !c.said("`") {
		best := -1
		for i := range c.sents {
			s := &c.sents[i]
			if s.rec != leadRec || s.score <= 0 || used[s.text] || !strings.Contains(s.text, "`") ||
				len(s.text) > maxSupportBytes || prose+2+len(s.text) > c.maxBytes || strings.HasSuffix(s.text, "?") || strings.HasSuffix(s.text, ":") || leans(s.text) || c.said(s.text) {
				continue
			}
			if best < 0 || s.score > c.sents[best].score {
				best = i
			}
		}
		if best >= 0 {
			picked = append(picked, best)
		}
	}
	// A setting asked by its camelCase name ("cookieSecretEnv") goes on
	// with the sentence of its page that speaks of it in words ("The
	// cookie secret (at least 32 bytes) lives in the environment"): often
	// where the page says what it holds.
	if phrase := camelPhrase(c.question); phrase != "" && len(picked) == 0 {
		for i := range c.sents {
			s := &c.sents[i]
			if c.pkg.Records[s.rec].URL != url || used[s.text] || s.score <= 0 || len(s.text) > maxSupportBytes || prose+2+len(s.text) > c.maxBytes ||
				strings.HasSuffix(s.text, "?") || strings.HasSuffix(s.text, ":") || leans(s.text) || c.said(s.text) || !strings.Contains(strings.ToLower(s.text), phrase) {
				continue
			}
			picked = append(picked, i)
			break
		}
	}
	slices.Sort(picked) // sentences are collected in reading order
	for _, i := range picked {
		s := &c.sents[i]
		c.add("\n\n"+s.text, s.rec)
		if c.comparedCode(s) {
			c.add("\n\n"+fence(c.pkg.Records[s.rec].Blocks[c.codeAfter(s.rec, s.block)]), s.rec)
		}
	}
}

// comparedCode: in a comparison, s introduces a short code block (the
// other side's example: "TOML front matter is fenced with three plus
// signs:"), which is quoted with it.
func (c *composer) comparedCode(s *sent) bool {
	return c.sh == shapeCompare && strings.HasSuffix(s.text, ":") && c.introducesCode(s) && len(c.pkg.Records[s.rec].Blocks[c.codeAfter(s.rec, s.block)].Text) <= maxComposeCode/3
}

// exampleOf is, for a question naming a setting or function (camelCase,
// or a dotted path), the first code block of the package (in the
// engine's order) that names it verbatim (the last dotted part of a
// name: "maxResults" of "search.maxResults"), as its example; -1 when
// none does.
func (c *composer) exampleOf() (int, int) {
	var names []string
	for _, w := range strings.Fields(c.question) {
		w = strings.Trim(w, "`'\"?,;()")
		dotted := false
		if i := strings.LastIndexAny(w, ".:/"); i >= 0 {
			w, dotted = w[i+1:], true
		}
		camel := false
		for i := 1; i < len(w); i++ {
			camel = camel || w[i] >= 'A' && w[i] <= 'Z' && w[i-1] >= 'a' && w[i-1] <= 'z'
		}
		if camel && len(w) >= 4 || dotted && len(w) >= 5 {
			names = append(names, w) // a setting, not an error code or a file extension
		}
	}
	for ri := range c.pkg.Records {
		for bi, b := range c.pkg.Records[ri].Blocks {
			if b.Kind != chunk.Code || len(b.Text) > maxComposeCode {
				continue
			}
			for _, n := range names {
				if strings.Contains(b.Text, n) {
					return ri, bi
				}
			}
		}
	}
	return -1, -1
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

// seeAlso cites the engine's first record when the answer was taken from
// another page, in one line naming it.
func (c *composer) seeAlso(rec int) {
	r0 := &c.pkg.Records[0]
	if rec == 0 || c.pkg.Records[rec].URL == r0.URL {
		return
	}
	for _, ev := range c.out.deltas {
		if ev.Sources[0] == r0.ID {
			return // already quoted
		}
	}
	line := "\n\nSee also " + r0.Label()
	// With what that section says, when it says something of its own.
	best := -1
	for i := range c.sents {
		if s := &c.sents[i]; s.rec == 0 && s.mask != 0 && s.score >= 20 && len(s.text) <= maxSupportBytes && !strings.HasSuffix(s.text, ":") && !strings.HasSuffix(s.text, "?") && (best < 0 || s.score > c.sents[best].score) {
			best = i
		}
	}
	switch {
	case best >= 0:
		line += ": " + c.sents[best].text
	case c.heads[0]|c.code[0] != 0:
		line += "."
	default:
		return // the engine's first says nothing of the question
	}
	c.add(line, 0)
}

// unsure says that nothing answers well and lists the closest sections.
func (c *composer) unsure() {
	c.out.unsure = true
	c.add("I found no passage that answers this directly; the closest sections are:", 0)
	seen := map[string]bool{}
	for ri := range c.pkg.Records {
		r := &c.pkg.Records[ri]
		if seen[r.Href()] || len(seen) == 3 {
			continue
		}
		seen[r.Href()] = true
		line := "\n- " + r.Label()
		if s := c.firstSentence(ri); s != "" {
			line += ": " + s
		}
		c.add(line, ri)
	}
}

// firstSentence is a record's best one-line excerpt: its sentence with the
// most question terms, the first on ties, if short enough.
func (c *composer) firstSentence(rec int) string {
	best := -1
	for i := range c.sents {
		s := &c.sents[i]
		if s.rec != rec || len(s.text) > 200 || strings.HasSuffix(s.text, ":") {
			continue
		}
		if best < 0 || bits.OnesCount64(s.mask) > bits.OnesCount64(c.sents[best].mask) {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return c.sents[best].text
}
