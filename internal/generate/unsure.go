package generate

import (
	"math/bits"
	"strings"
)

// unsure says that nothing answers well and lists the closest sections.
func (c *composer) unsure() {
	c.closest("I found no passage that answers this directly; the closest sections are:")
}

// unsureOf says that the evidence never names what the question does
// ("Vercel") and lists the closest sections.
func (c *composer) unsureOf(name string) {
	c.closest("I found nothing about " + name + " in these docs; the closest sections are:")
}

// closest writes line, then the package's first three pages' sections,
// each with its best one-line excerpt.
func (c *composer) closest(line string) {
	c.out.unsure = true
	c.add(line, 0)
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

// unnamed is a name the question gives (a capitalized word other than
// its first, "Vercel" in "how do I deploy docsy to Vercel") that no
// record of the package holds in its title, headings, sentences or
// code; "" when there is none. A product or service the evidence never
// names is one the docs do not cover, and the nearest passage about
// deploying, however well it scores, answers another question.
func (c *composer) unnamed() string {
	if c.pkg.Records[0].Blocks == nil {
		return "" // an excerpt is a few sentences of a section: what it leaves out, the section may still say
	}
	var held uint64
	for ri := range c.pkg.Records {
		held |= c.heads[ri] | c.code[ri]
	}
	for i := range c.sents {
		held |= c.sents[i].mask
	}
	words := strings.Fields(c.question)
	for i, w := range words {
		w = strings.Trim(w, ",.;:!?()\"'’")
		if i == 0 || len(w) < 3 || w[0] < 'A' || w[0] > 'Z' || strings.ContainsAny(w, "`_./'’") {
			continue
		}
		// Only a name the question takes its task to ("deploy … to
		// Vercel", "use it with Jekyll"): the product the docs are about
		// is named in passing too ("after Docsy 0.15"), and the sections
		// that answer need not repeat it.
		if !towards[strings.ToLower(words[i-1])] || i+1 < len(words) && words[i+1][0] >= '0' && words[i+1][0] <= '9' {
			continue
		}
		if m := c.mask(w); m != 0 && m&held == 0 {
			return w
		}
	}
	return ""
}

// towards: words after which a name is where or with what the task is
// done.
var towards = map[string]bool{"to": true, "on": true, "onto": true, "into": true, "with": true, "via": true, "using": true, "from": true}
