package generate

import (
	"math/bits"
	"strings"

	"github.com/askplane/askplane/internal/chunk"
)

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

// lastIn is the index of the last sentence of rec's block (the one
// lastOf holds for), -1 when the block gives none: the sentence that
// introduces what follows the block.
func (c *composer) lastIn(rec, block int) int {
	last := -1
	for i := range c.sents {
		if s := &c.sents[i]; s.rec == rec && s.block == block && (last < 0 || s.pos > c.sents[last].pos) {
			last = i
		}
	}
	return last
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
