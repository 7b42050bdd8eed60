package generate

import (
	"math/bits"
	"strings"

	"github.com/askplane/askplane/internal/chunk"
	"github.com/askplane/askplane/internal/evidence"
)

// compareList answers a comparison with a list whose items each open by
// naming one of the things compared ("`full` (default) emits each
// page's chrome …", "`shared` emits each region on one donor page …"),
// read with the sentence that introduces it: the docs' own side-by-side.
func (c *composer) compareList() bool {
	for ri := range c.pkg.Records {
		bs := c.pkg.Records[ri].Blocks
		for bi, b := range bs {
			if b.Kind == chunk.Table {
				if c.compareRows(ri, bi) {
					c.seeAlso(ri)
					return true
				}
				continue
			}
			if b.Kind != chunk.List || !c.namesEachSide(b.Text) {
				continue
			}
			size := 0
			if bi > 0 && bs[bi-1].Kind == chunk.Paragraph {
				if i := c.lastIn(ri, bi-1); i >= 0 && strings.HasSuffix(c.sents[i].text, ":") {
					c.add(c.sents[i].text, ri)
					size = len(c.sents[i].text)
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

// compareRows answers a comparison with the rows of a table whose first
// cells are the sides compared ("`test:repo` | Fast, offline repo
// checks", "`test:smoke` | Slow, network-bound; …"), after the sentence
// introducing the table: those rows only, a line each. False, having
// written nothing, when the table's rows do not name both sides.
func (c *composer) compareRows(rec, block int) bool {
	sd := sides(c.plain)
	if len(sd) != 2 {
		return false
	}
	var lines []string
	named := [2]bool{}
	for _, cells := range tableRows(c.pkg.Records[rec].Blocks[block].Text) {
		first := plain(cells[0])
		for k, side := range sd {
			if first == side {
				if t := rowText(cells); t != "" && len(t) <= maxTableRowBytes && quotable(t) {
					lines = append(lines, t)
					named[k] = true
				}
			}
		}
	}
	if !named[0] || !named[1] {
		return false
	}
	if bs := c.pkg.Records[rec].Blocks; block > 0 && bs[block-1].Kind == chunk.Paragraph {
		if i := c.lastIn(rec, block-1); i >= 0 && strings.HasSuffix(c.sents[i].text, ":") && !fewWords(c.sents[i].text, 5) {
			c.add(c.sents[i].text, rec)
		}
	}
	c.writeLines(lines, false, rec)
	return true
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

// sides is what a comparison compares, as the question names it ("a vs
// b", "a versus b", "difference between a and b"), plain; nil when it
// names no two sides.
func sides(plainQuestion string) []string {
	q := strings.TrimRight(plainQuestion, "?!. ")
	if _, rest, ok := strings.Cut(q, "difference between "); ok {
		if a, b, ok := strings.Cut(rest, " and "); ok {
			return []string{a, b}
		}
	}
	for _, sep := range []string{" vs ", " vs. ", " versus "} {
		if a, b, ok := strings.Cut(q, sep); ok {
			return []string{a, b}
		}
	}
	return nil
}

// otherSide adds, to a comparison whose lead (a paragraph's sentence)
// names one side only, the first sentence of the lead's section that
// names the other side only, where the page has it: before the lead or
// after it, in the page's order ("add SCSS variable overrides to
// _variables_project.scss" with "to modify Bootstrap's color maps, use
// _variables_project_after_bs.scss").
func (c *composer) otherSide(lead *sent, size *int) {
	sd := sides(c.plain)
	if len(sd) != 2 {
		return
	}
	p := factsOf(lead.text).plain
	a, b := hasWord(p, sd[0]), hasWord(p, sd[1])
	if a == b {
		return
	}
	other, named := sd[0], sd[1]
	if a {
		other, named = sd[1], sd[0]
	}
	for i := range c.sents {
		s := &c.sents[i]
		if s.rec != lead.rec || s.kind != chunk.Paragraph || len(s.text) > maxSupportBytes || c.said(s.text) || strings.HasSuffix(s.text, "?") || strings.HasSuffix(s.text, ":") {
			continue
		}
		if t := factsOf(s.text).plain; !hasWord(t, other) || hasWord(t, named) {
			continue
		}
		if s.block < lead.block || s.block == lead.block && s.pos < lead.pos {
			c.out.prepend(s.text+"\n\n", c.pkg.Records[s.rec].ID)
		} else {
			c.add("\n\n"+s.text, s.rec)
		}
		*size += len(s.text) + 2
		return
	}
}

// orSides is what "A or B, what's the difference" compares, plain: the
// words before " or " and those after it up to the next comma or
// question; nil when the question asks no difference between two.
func orSides(plainQuestion string) []string {
	q := strings.TrimRight(plainQuestion, "?!. ")
	if !strings.Contains(q, "difference") && !strings.Contains(q, "which one") {
		return nil
	}
	a, b, ok := strings.Cut(q, " or ")
	if !ok {
		return nil
	}
	if i := strings.LastIndexAny(a, ",:?"); i >= 0 {
		a = a[i+1:]
	}
	if i := strings.IndexAny(b, ",:?"); i >= 0 {
		b = b[:i]
	}
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if a == "" || b == "" {
		return nil
	}
	return []string{a, b}
}

// compareSections answers a comparison of two things that two sibling
// sections of one page are each named for ("--vfs-cache-mode writes"
// and "--vfs-cache-mode full" for "vfs cache mode writes or full, what's
// the difference"): each section's heading and opening, a line each.
// False, having written nothing, when the package holds no such pair.
func (c *composer) compareSections() bool {
	sd := sides(c.plain)
	if len(sd) != 2 {
		sd = orSides(c.plain)
	}
	if len(sd) != 2 {
		return false
	}
	ma, mb := c.mask(sd[0]), c.mask(sd[1])
	ua, ub := ma&^mb, mb&^ma // what names each side alone
	if ua == 0 || ub == 0 {
		return false
	}
	for i := range c.pkg.Records {
		for j := range c.pkg.Records {
			ri, rj := &c.pkg.Records[i], &c.pkg.Records[j]
			n := len(ri.Headings)
			if i == j || ri.URL != rj.URL || ri.Anchor == "" || rj.Anchor == "" || n < 2 || len(rj.Headings) != n || ri.Headings[n-2] != rj.Headings[n-2] {
				continue
			}
			hi, hj := c.own[i], c.own[j]
			if hi&ua&^hj == 0 || hj&ub&^hi == 0 || hi&ub != 0 || hj&ua&^hi != 0 || !c.onlyAsked(ri.Headings[n-1]) || !c.onlyAsked(rj.Headings[n-1]) {
				continue // each named for one side, and for nothing the question does not say
			}
			li, lj := c.sideLine(i, j), c.sideLine(j, i)
			if !strings.Contains(li, ": ") || !strings.Contains(lj, ": ") {
				continue // a side without its opening sentence says nothing of it
			}
			c.add("- "+li, i)
			c.add("\n- "+lj, j)
			c.seeAlso(i)
			return true
		}
	}
	return false
}

// onlyAsked: every word of heading h is a word of the question ("--vfs-
// cache-mode full"; not "--include-from - Read include patterns from
// file" for "--include '*.jpg'").
func (c *composer) onlyAsked(h string) bool {
	for _, t := range evidence.Terms(h) {
		if c.mask(t) == 0 {
			return false
		}
	}
	return true
}

// sideLine is a compared section's line: its heading and its first
// sentence that the other side's section does not share (two modes'
// sections often open alike: "In this mode rclone will batch up
// uploads …"); the heading alone when it has none that fits.
func (c *composer) sideLine(rec, other int) string {
	r := &c.pkg.Records[rec]
	line := unnumbered(r.Headings[len(r.Headings)-1])
	shared := map[string]bool{}
	for i := range c.sents {
		if c.sents[i].rec == other {
			shared[c.sents[i].text] = true
		}
	}
	for i := range c.sents {
		s := &c.sents[i]
		if s.rec != rec || s.kind == chunk.Table || s.kind == chunk.Code || shared[s.text] {
			continue
		}
		if len(s.text) <= 220 && !strings.HasSuffix(s.text, "?") && !strings.HasSuffix(s.text, ":") {
			line += ": " + s.text
		}
		break
	}
	return line
}
