package generate

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/askplane/askplane/internal/chunk"
)

// Answers that span sibling sections of one page: a procedure whose
// steps are sections, or alternatives (ways of doing one thing) that
// are. Both list the sections in reading order, one line each (its
// heading and first sentence), and quote the first section's command.

// sectionKind is what a run of sibling sections is.
type sectionKind int

const (
	plainSections sectionKind = iota
	stepSections
	choiceSections
)

// choiceWords open a heading naming one way among several.
var choiceWords = map[string]bool{
	"as": true, "with": true, "using": true, "via": true, "from": true, "on": true, "by": true, "through": true,
	"option": true, "method": true, "alternative": true, "without": true,
}

// headingKind says what a sibling heading's first word makes it.
func headingKind(h string) sectionKind {
	w := firstWord(h)
	switch {
	case choiceWords[w]:
		return choiceSections
	case imperative[w] || w == "step" || strings.Trim(w, "0123456789.)") == "" && w != "":
		return stepSections
	}
	return plainSections
}

// siblings is the package's records that are sections of rec's page at
// rec's level under the same parent (rec included), in reading order;
// nil when rec is not a section.
func (c *composer) siblings(rec int) []int {
	a := &c.pkg.Records[rec]
	n := len(a.Headings)
	if a.Anchor == "" || n < 2 {
		return nil
	}
	var out []int
	for ri := range c.pkg.Records {
		r := &c.pkg.Records[ri]
		if r.URL == a.URL && r.Anchor != "" && len(r.Headings) == n && slices.Equal(r.Headings[:n-1], a.Headings[:n-1]) {
			out = append(out, ri)
		}
	}
	slices.SortStableFunc(out, func(x, y int) int { return c.pkg.Records[x].Order - c.pkg.Records[y].Order })
	return out
}

// group finds sibling sections answering the question together: the
// sections (at least two in the package) of the best-matching page
// under one parent, every heading of one kind (steps or choices), the
// question's words found in their parent (the page title, the parent
// heading) and none singling out one section. It returns them in
// reading order and their kind.
func (c *composer) group() ([]int, sectionKind) {
	if c.sh != shapeHowto {
		return nil, plainSections
	}
	for ri := range min(2, len(c.pkg.Records)) {
		sib := c.siblings(ri)
		if len(sib) < 2 {
			continue
		}
		r := &c.pkg.Records[sib[0]]
		n := len(r.Headings)
		parent := c.mask(r.Title)
		for _, h := range r.Headings[:n-1] {
			parent |= c.mask(h)
		}
		if parent == 0 {
			continue
		}
		kind := headingKind(r.Headings[n-1])
		own := make([]uint64, len(sib))
		for i, si := range sib {
			h := c.pkg.Records[si].Headings
			if headingKind(h[n-1]) != kind {
				kind = plainSections
			}
			// The heading's first word is what the step does ("Add the
			// widget"): a question doing the same does not single it out.
			_, rest, _ := strings.Cut(h[n-1], " ")
			own[i] = c.mask(rest) &^ parent
		}
		if kind == plainSections {
			continue
		}
		// A question naming what one section alone names asks for that
		// section ("install as a git submodule").
		picked := false
		for i := range own {
			var others uint64
			for j := range own {
				if j != i {
					others |= own[j]
				}
			}
			if own[i]&^others != 0 {
				picked = true
			}
		}
		if picked {
			continue
		}
		return sib, kind
	}
	return nil, plainSections
}

// sectionLine is a section's line in a list: its heading and its first
// sentence that says something on its own, if short.
func (c *composer) sectionLine(rec int) string {
	r := &c.pkg.Records[rec]
	line := r.Headings[len(r.Headings)-1]
	for i := range c.sents {
		s := &c.sents[i]
		if s.rec != rec || s.kind == chunk.Table {
			continue
		}
		if len(s.text) <= 180 && !strings.HasSuffix(s.text, "?") && s.score > -10 {
			t := s.text
			if strings.HasSuffix(t, ":") {
				t = strings.TrimSuffix(t, ":") + "."
			}
			line += ": " + t
		}
		break
	}
	return line
}

// firstCode is a section's first code block that fits, with the sentence
// introducing it when there is one; -1 when it has none.
func (c *composer) firstCode(rec int) (int, string) {
	bs := c.pkg.Records[rec].Blocks
	for bi, b := range bs {
		if b.Kind != chunk.Code || len(b.Text) > maxComposeCode {
			continue
		}
		intro := ""
		for i := range c.sents {
			s := &c.sents[i]
			if s.rec == rec && s.block == bi-1 && strings.HasSuffix(s.text, ":") && c.lastOf(s) {
				intro = s.text
			}
		}
		return bi, intro
	}
	return -1, ""
}

// alternatives composes "several ways" answers.
func (c *composer) alternatives(sib []int) {
	sib = sib[:min(len(sib), maxChoices)]
	r := &c.pkg.Records[sib[0]]
	parent := r.Title
	if n := len(r.Headings); n > 2 {
		parent = r.Headings[n-2]
	}
	c.add("There are "+count(len(sib))+" ways ("+parent+"):", sib[0])
	for _, si := range sib {
		c.add("\n- "+c.sectionLine(si), si)
	}
	c.codeOf(sib[0])
}

// procedure composes step-by-step answers.
func (c *composer) procedure(sib []int) {
	sib = sib[:min(len(sib), maxSteps)]
	r := &c.pkg.Records[sib[0]]
	parent := r.Title
	if n := len(r.Headings); n > 2 {
		parent = r.Headings[n-2]
	}
	// The page's intro, when the package holds it and it speaks to the
	// question, says what the steps achieve.
	for ri := range c.pkg.Records {
		p := &c.pkg.Records[ri]
		if p.URL == r.URL && p.Anchor == "" {
			for i := range c.sents {
				s := &c.sents[i]
				if s.rec == ri && s.mask != 0 && s.score > 0 && len(s.text) <= 300 && !strings.HasSuffix(s.text, ":") {
					c.add(s.text+"\n\n", ri)
					break
				}
			}
			break
		}
	}
	c.add("The steps ("+parent+"):", sib[0])
	for i, si := range sib {
		c.add("\n"+itoa(i+1)+". "+c.sectionLine(si), si)
	}
	c.codeOf(sib[0])
}

// codeOf quotes a section's first command, introduced by its heading.
func (c *composer) codeOf(rec int) {
	bi, intro := c.firstCode(rec)
	if bi < 0 {
		return
	}
	r := &c.pkg.Records[rec]
	if intro == "" {
		intro = r.Headings[len(r.Headings)-1] + ":"
	}
	c.add("\n\n"+intro+"\n\n"+fence(r.Blocks[bi]), rec)
}

func count(n int) string {
	if n >= 0 && n < 7 {
		return [...]string{"no", "one", "two", "three", "four", "five", "six"}[n]
	}
	return itoa(n)
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// coverage is how many question terms m holds.
func coverage(m uint64) int { return bits.OnesCount64(m) }
