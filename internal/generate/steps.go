package generate

import (
	"strings"

	"github.com/askplane/askplane/internal/chunk"
	"github.com/askplane/askplane/internal/evidence"
)

// A guide written as one numbered list (which the chunker splits at the
// code between its items) is answered by its steps: each step's first
// sentence, numbered in reading order, with the code that follows it.

// step is one numbered item of a record's ordered lists.
type step struct {
	text string
	code int // the code block that follows the step, -1 when none
}

// orderedItem is a top-level item of an ordered list ("3. Run …"); ""
// for anything else.
func orderedItem(line string) string {
	i := strings.Index(line, ". ")
	if i <= 0 || i > 3 || strings.Trim(line[:i], "0123456789") != "" {
		return ""
	}
	return strings.TrimSpace(line[i+2:])
}

// steps is rec's numbered items in reading order, each with the first
// code block after it (before the next item); nil when it has fewer
// than least.
func (c *composer) steps(rec, least int) (_ []step, start int) {
	var out []step
blocks:
	for bi, b := range c.pkg.Records[rec].Blocks {
		switch {
		case b.Kind == chunk.List:
			for _, line := range strings.Split(b.Text, "\n") {
				if t := orderedItem(line); t != "" {
					if len(out) == 0 {
						start = bi
					}
					out = append(out, step{text: t, code: -1})
				}
			}
		case b.Kind == chunk.Code:
			if n := len(out); n > 0 && out[n-1].code < 0 && len(b.Text) <= maxComposeCode {
				out[n-1].code = bi
			}
		case tabLabel(b):
			// "hugo.toml" above one of a step's code tabs
		case len(out) > 0:
			break blocks // the list is over: a paragraph or a note follows it
		}
	}
	if len(out) < least {
		return nil, 0
	}
	return out, start
}

// guideOf is, for a page's opening (rec), the package's section of that
// page that is a numbered guide of at least three steps and whose own
// heading speaks to the question or that opens the page, with its steps;
// -1 when there is none.
func (c *composer) guideOf(rec int) (int, []step) {
	r := &c.pkg.Records[rec]
	if r.Anchor != "" {
		return -1, nil
	}
	for g := range c.pkg.Records {
		if k := &c.pkg.Records[g]; g != rec && k.URL == r.URL && (c.own[g]&c.all != 0 || k.Order == r.Order+1) {
			if all, _ := c.steps(g, 3); all != nil && actions(all) {
				return g, all
			}
		}
	}
	return -1, nil
}

// actions: most of the steps say what to do (their first word is an
// imperative), so the list is a guide, not an ordered reference ("1.
// `protocol`, `version` …").
func actions(all []step) bool {
	n := 0
	for _, st := range all {
		if w := firstWord(st.text); imperative[w] || w == "to" || w == "in" || w == "on" || w == "from" || w == "if" {
			n++
		}
	}
	return 2*n >= len(all)
}

// stepLine is a step as one line: the whole item when short, else its
// first sentence, unless that only sets the scene and the item, a
// little longer, goes on to say what to do before its code ("With GitHub
// Pages, a site is published to the branch gh-pages … You must create
// this branch first, … via command line:").
func stepLine(item string) string {
	if len(item) <= 200 {
		return item
	}
	ss := evidence.Sentences(item)
	if len(ss) == 0 {
		return item
	}
	if len(item) <= 280 && strings.HasSuffix(item, ":") && !imperative[firstWord(ss[0])] {
		return item
	}
	return ss[0]
}

// listSteps composes a how-to whose lead is one step of a numbered guide:
// the page's opening sentence when it speaks to the question, then the
// steps, at most maxSteps, each its first sentence, and the code after a
// step while the code fits one budget. False, having written nothing,
// when the lead's record is not such a guide.
func (c *composer) listSteps(lead int) bool {
	s := &c.sents[lead]
	if c.sh != shapeHowto {
		return false
	}
	// The lead is a step, or the question asks for the steps, or the lead
	// opens what the steps then do.
	all, start := c.steps(s.rec, 3)
	if all == nil {
		// A page's opening answers with the steps of its section that
		// does what is asked ("Build and run the container").
		if g, guide := c.guideOf(s.rec); g >= 0 && s.pos == 0 {
			c.add(s.text+"\n\n", s.rec)
			c.writeSteps(g, guide, "")
			c.seeAlso(g)
			return true
		}
		return false
	}
	if s.kind != chunk.List && !procedureAsked(strings.ToLower(c.question)) && s.block >= start {
		return false
	}
	n := 0 // the steps quoted
	for _, st := range all {
		first := stepLine(st.text)
		if closingLike(first) || !quotable(first) {
			continue
		}
		if len(first) > 240 {
			return false // a step too long to be one line: not a list of steps
		}
		n++
	}
	if n < 3 {
		return false
	}
	// The opening: the record's first paragraph's sentence that speaks to
	// the question, when it is short.
	for i := range c.sents {
		t := &c.sents[i]
		if t.rec == s.rec && t.kind == chunk.Paragraph && t.block == 0 && t.mask != 0 && t.score > 0 && len(t.text) <= 300 && !strings.HasSuffix(t.text, ":") {
			c.add(t.text+"\n\n", t.rec)
			break
		}
	}
	c.caution(s.rec, start)
	c.writeSteps(s.rec, all, "")
	c.seeAlso(s.rec)
	return true
}

// caution quotes the first sentence of a note that comes before a
// guide's steps in its section ("Make sure to correctly set your site's
// baseURL, …"): what to get right before following them.
func (c *composer) caution(rec, start int) {
	bs := c.pkg.Records[rec].Blocks
	for bi := 0; bi < start && bi < len(bs); bi++ {
		if bs[bi].Kind != chunk.Note {
			continue
		}
		ss := sentencesOf(noteBody(bs[bi].Text))
		if len(ss) > 0 && len(ss[0]) <= 300 && factsOf(ss[0]).quotable && !c.said(ss[0]) {
			c.add(ss[0]+"\n\n", rec)
		}
		return
	}
}

// writeSteps writes rec's steps, at most maxSteps while the prose fits,
// numbered, each with the code after it while the code fits one budget;
// sep goes before the first.
func (c *composer) writeSteps(rec int, all []step, sep string) {
	prose, code, n, fenced := 0, 0, 0, false
	for _, st := range all {
		if n == maxSteps || prose > c.maxBytes {
			break
		}
		first := stepLine(st.text)
		if closingLike(first) || !quotable(first) {
			continue
		}
		n++
		switch {
		case n == 1 && c.out.size == 0:
			sep = ""
		case n == 1:
		case fenced:
			sep = "\n\n"
		default:
			sep = "\n"
		}
		fenced = false
		c.add(sep+itoa(n)+". "+first, rec)
		prose += len(first) + 4
		if st.code >= 0 {
			b := c.pkg.Records[rec].Blocks[st.code]
			if code+len(b.Text) <= maxComposeCode && !c.quotedCode(b.Text) {
				c.add("\n\n"+fence(b), rec)
				code += len(b.Text)
				fenced = true
			}
		}
	}
}
