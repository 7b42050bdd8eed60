package generate

import (
	"math/bits"
	"strings"
)

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
