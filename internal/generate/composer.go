package generate

import (
	"context"
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
	maxChoices          = 5  // alternatives listed
	maxSteps            = 6  // steps listed
	maxAskedSteps       = 12 // steps listed when the question asks for them
)

// Composer answers with text copied verbatim from the package's records,
// shaped by what the question asks and by what the best evidence is:
//
//   - a definition ("What is X?") by the defining sentence of the section
//     or page whose title names X, usually its first paragraph;
//   - one action ("How do I X?") by the sentence that says how, then its
//     code block verbatim;
//   - a procedure (sibling sections of one page that are steps, or an
//     ordered list) by the ordered steps, the first command quoted, the
//     whole guide when the reader asked for the steps, and a closing line
//     saying which steps the page goes on with when it is cut;
//   - a place ("Where does X keep its cache?") by the sentence naming the
//     path or URL;
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
	pkg        *evidence.Package
	question   string
	plain      string   // the question as plain() has it, once
	terms      []string // the question's terms, sorted, distinct, stemmed
	all        uint64   // every term's bit
	subject    uint64   // the terms naming what is asked about
	sh         shape
	sents      []sent
	heads      []uint64 // per record: question terms in its title and headings
	code       []uint64 // per record: question terms in its code blocks
	own        []uint64 // per record: question terms in its own heading (the title for a page's intro)
	verb       uint64   // a how-to question's first term, usually what to do
	property   bool     // the question asks for an option's default, type or environment variable
	command    bool     // the question is a command line (flagged)
	polarity   int      // that verb's direction: 1 shows or adds, -1 hides or removes, 0 neither
	stepsAsked bool     // the question asks for steps (procedureAsked)
	place      bool     // the question asks where something is (placeAsked)
	listing    bool     // the question asks for several things ("which keys …")
	weighs     bool     // the question weighs options ("which is easier", "do you recommend")
	errCode    string   // an error code the question names (ask_invalid_request), plain
	entry      bool     // the answer is a troubleshooting entry
	masks      map[string]uint64
	derived    map[string]uint64 // a word's question terms by derivation, once per word
	common     uint64            // terms most of the package's records hold
	leadBlock  int               // the lead's block in its record
	verbatim   string            // a question naming code ("static: true"), as sentences and code are compared with it
	quoted     bool              // the verbatim is code the reader quoted in backticks inside a longer question
	literal    []bool            // per record: its code holds the verbatim question
	named      string            // a definition's subject as asked ("docsy" of "what is Docsy")
	head       uint64            // the terms of the thing a definition asks about within something else ("skin" of "a skin in Docsy's semantic class design")
	restated   []bool            // per record: its own heading is the question
	ofRelease  []bool            // per record: its title or headings name the release the question names; nil when it names none
	excluded   uint64            // terms of what the question sets aside ("other than rootMargin")
	kind       uint64            // the kind a definition names its subject with, when a page or section is titled without it ("backend" of "what is the chunker backend")
	maxBytes   int
	out        composed
}

func compose(question string, pkg *evidence.Package, maxBytes int) *composed {
	c := newComposer(question, pkg, maxBytes)
	c.answer()
	c.nameOption()
	return &c.out
}

// answer composes the answer the question's shape and the evidence call
// for.
func (c *composer) answer() {
	if name := c.unnamed(); name != "" {
		c.unsureOf(name)
		return
	}
	if c.sections() {
		return
	}
	switch sib, parent, kind := c.group(); kind {
	case choiceSections:
		c.alternatives(sib, parent)
		return
	case stepSections:
		c.procedure(sib, parent)
		return
	}
	if c.sh == shapeError {
		if r := c.errorEntry(); r >= 0 && c.troubleshoot(r) {
			return
		}
	}
	if c.namedItems() || c.listing && c.listLead() || c.sh == shapeCompare && (c.compareSections() || c.comparePages() || c.compareOptions() || c.compareList()) || c.sh != shapeCompare && c.namesChoice() && (c.comparePages() || c.compareOptions()) || c.commandAnswer() {
		return
	}
	lead := c.lead()
	if lead < 0 {
		c.unsure()
		return
	}
	lead = c.guideLead(lead)
	if d := c.detail(lead); d >= 0 {
		if c.single(d); len(c.out.deltas) > 0 {
			return
		}
	}
	if c.listSteps(lead) || c.codeSteps(lead) || c.wholeSection(lead) {
		return
	}
	c.single(lead)
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
	if x := excludedIn(question); x != "" {
		c.excluded = c.mask(x) &^ c.mask(strings.Replace(question, x, " ", 1))
	}
	l := strings.ToLower(question)
	c.weighs = weighing(l)
	c.stepsAsked = procedureAsked(l)
	c.place = placeAsked(l)
	c.errCode = strings.ToLower(errorCodeIn(question))
	c.listing = listingAsked(l)
	c.property = propertyAsked(l)
	if _, asked, ok := strings.Cut(l, ": "); ok && !c.listing {
		c.listing = listingAsked(asked) // "docsy.dev site variants: which branch does each publish from?"
	}
	c.plain = plain(question)
	c.command = flagged(c.plain)
	v := c.plain
	if c.errCode == "" {
		v = unframed(v) // an error code keeps its question's shape: errors are answered by when they are given
	}
	if codeLike(question) && (strings.ContainsAny(v, ".:_/=-") || camelParts(question) != question && !strings.Contains(v, " ")) && len(v) >= 6 && !strings.Contains(v, "?") {
		c.verbatim = v
	}
	// Code the reader quoted in backticks inside a longer question ("after
	// a Hugo upgrade `enabled: yes` in my YAML no longer …") is what is
	// compared with the pages, not the whole question.
	if _, rest, ok := strings.Cut(question, "`"); ok && strings.Count(question, "`") == 2 {
		if span, _, _ := strings.Cut(rest, "`"); len(span) >= 3 {
			c.verbatim, c.quoted = plain(span), true
		}
	}
	c.literal = make([]bool, len(pkg.Records))
	c.sents = make([]sent, 0, 32) // collect's sentences: 11–27 a question, median 18
	c.restated = make([]bool, len(pkg.Records))
	restated := strings.TrimRight(c.plain, "?!. ")
	titled := "" // the thing a definition question asks about, as a page would be titled
	if c.sh == shapeDefine {
		for _, p := range []string{"what is a ", "what is an ", "what is the ", "what is ", "what's ", "what are the ", "what are ", "define ", "meaning of ", "what does "} {
			if r, ok := strings.CutPrefix(restated, p); ok {
				// "what does rclone test info do? someone told me to run
				// it": the subject ends with the first question.
				r, _, _ = strings.Cut(r, "?")
				for _, a := range []string{"a ", "an ", "the "} {
					r = strings.TrimPrefix(r, a) // "what's a taxonomy term"
				}
				c.named = r
				// "what is a skin in Docsy's semantic class design" asks
				// what a skin is: the section named "Skins" answers.
				for _, sep := range []string{" in ", " of ", " for ", " on ", " with ", " and "} {
					r, _, _ = strings.Cut(r, sep)
				}
				for _, end := range []string{" used for", " good for", " meant for", " for", " accept", " take", " do", " mean", " control", " return"} {
					r = strings.TrimSuffix(r, end) // "what is rclone serve docker for", "what does --log-format accept"
				}
				if r != c.named {
					c.head = c.mask(r)
				}
				titled = r
				break
			}
		}
	}
	c.heads = make([]uint64, len(pkg.Records))
	c.code = make([]uint64, len(pkg.Records))
	c.own = make([]uint64, len(pkg.Records))
	if c.sh == shapeHowto {
		t := evidence.Terms(request(asked))
		for len(t) > 1 && vague[t[0]] {
			t = t[1:] // "use our own logo": what is done to the logo is the point
		}
		if len(t) > 0 {
			c.polarity = polarity[stem(t[0])]
			if i, ok := slices.BinarySearch(c.terms, stem(t[0])); ok && len(c.terms) > 1 {
				c.verb = 1 << uint(i)
			}
		}
	}
	release := releaseIn(question)
	if release != "" {
		c.ofRelease = make([]bool, len(pkg.Records))
	}
	// The kind a definition names its subject with ("backend" of "chunker
	// backend"); no term when it names none.
	kind := c.mask(titled[len(kindless(titled)):])
	for ri := range pkg.Records {
		r := &pkg.Records[ri]
		m := c.mask(r.Title)
		for _, h := range r.Headings {
			m |= c.mask(h)
		}
		c.heads[ri] = m
		if release != "" {
			c.ofRelease[ri] = namesRelease(r, release)
		}
		if n := len(r.Headings); r.Anchor != "" && n > 0 {
			c.own[ri] = c.mask(r.Headings[n-1])
			h := strings.TrimRight(plain(r.Headings[n-1]), "?!. ")
			// A section headed with what a definition asks about ("rclone
			// serve docker" for "what is rclone serve docker for?") opens
			// with its definition.
			c.restated[ri] = h == restated || namesSetting(h, c.plain) || titles(h, titled) || flagHeading(h, titled)
		} else {
			c.own[ri] = c.mask(r.Title)
			// A page titled with what a definition asks about opens with
			// its definition.
			c.restated[ri] = titles(strings.TrimRight(plain(r.Title), "?!. "), titled)
		}
		if c.restated[ri] {
			// Found by its name alone, what a definition asks about is
			// not defined by the sentences that name its kind ("Many
			// storage backends …" for "what is the chunker backend").
			c.kind = kind
		}
		for _, b := range r.Blocks {
			if b.Kind == chunk.Code {
				c.code[ri] |= c.mask(b.Text)
				c.literal[ri] = c.literal[ri] || c.verbatim != "" && hasWord(plain(b.Text), c.verbatim)
			} else if b.Kind == chunk.List && c.verbatim != "" && !c.literal[ri] {
				// An option reference's properties ("- Config:
				// directory_name_encryption") name the setting its
				// section is about, as its code would.
				c.literal[ri] = namesProperty(b.Text, c.verbatim)
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

func (c *composer) add(text string, rec int) {
	c.out.add(text, c.pkg.Records[rec].ID)
}
