package generate

import (
	"context"
	"math/bits"
	"slices"
	"strings"

	"github.com/askplane/askplane/internal/chunk"
	"github.com/askplane/askplane/internal/evidence"
)

// Bounds of a structured answer (records with blocks, from a v3 corpus):
// the prose is bounded by MaxBytes as before; one code block of at most
// DefaultMaxCodeBytes (with at most one more that directly follows it) is
// quoted whole or not at all, never cut.
const (
	DefaultMaxCodeBytes = 1500
	maxSupport          = 2   // supporting sentences besides the one after the code
	maxSupportBytes     = 400 // a longer sentence or list is not support
)

// unit is one quotable piece of a record: a sentence of a prose block or
// of a list item.
type unit struct {
	rec, block, pos int // record rank, block index, sentence index in the block
	text            string
	last            bool // the last sentence of its block
	row             bool // a table row (table.go)
	mask            uint64
}

// composed is the answer as deltas, in order.
type composed struct {
	deltas []Event
	size   int
	unsure bool // the answer lists the closest sections (composer.unsure)
}

func (c *composed) add(text string, id string) {
	c.deltas = append(c.deltas, Event{Delta: text, Sources: []string{id}})
	c.size += len(text)
}

// prose is the answer's text outside its code blocks.
func (c *composed) prose() string {
	var b strings.Builder
	for _, ev := range c.deltas {
		if !fenced(ev.Delta) {
			b.WriteString(ev.Delta)
		}
	}
	return b.String()
}

// fenced: an answer's delta is (or holds) a code block, which the prose
// budget does not count.
func fenced(delta string) bool { return strings.Contains(delta, "```") }

// prepend puts text before everything written so far.
func (c *composed) prepend(text string, id string) {
	c.deltas = append([]Event{{Delta: text, Sources: []string{id}}}, c.deltas...)
	c.size += len(text)
}

// dropDangling removes a sentence that ends in ":" when what follows it
// is not the list, table or code it announces ("The current generated
// links are:" then another section's sentence): the composition left out
// what the sentence promised, and a colon over nothing reads as broken.
func (c *composed) dropDangling() {
	if c == nil {
		return
	}
	// Dropping one can leave the one before it over nothing ("- Using
	// Docker:" above a dropped "Build the container:"): again until none
	// is left.
	for {
		n := len(c.deltas)
		if !c.dropDanglingOnce() || len(c.deltas) == n {
			return
		}
	}
}

// dropDanglingOnce is one pass of dropDangling; false when it left the
// answer as it was because the sentence is all there is.
func (c *composed) dropDanglingOnce() bool {
	var kept []Event
	size, answers := c.size, false
	for i, d := range c.deltas {
		if strings.HasSuffix(d.Delta, ":") && (i+1 == len(c.deltas) || !announced(c.deltas[i+1].Delta)) {
			size -= len(d.Delta)
			continue
		}
		kept = append(kept, d)
		answers = answers || !strings.HasPrefix(d.Delta, "\n\nSee also ")
	}
	if !answers {
		return false // the sentence is all the answer there is: better said than dropped
	}
	c.deltas, c.size = kept, size
	if len(kept) > 0 {
		if t := strings.TrimLeft(kept[0].Delta, " \n"); t != kept[0].Delta {
			c.size -= len(kept[0].Delta) - len(t)
			kept[0].Delta = t
		}
	}
	return true
}

// announced: text, the piece after a sentence ending in ":", is what
// such a sentence introduces: a list item, a table row or code.
func announced(text string) bool {
	t := strings.TrimLeft(text, " \n")
	if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") || strings.HasPrefix(t, "|") {
		return true
	}
	n := len(t) - len(strings.TrimLeft(t, "0123456789"))
	return n > 0 && strings.HasPrefix(t[n:], ". ")
}

// structured writes a markdown answer from records that carry blocks:
//
//  1. The lead is the best-ranked record's sentence covering the most
//     question terms (the earliest on ties), or its first sentence when
//     none matches. A sentence ending in ":" may lead only when the block
//     after it is code, which it introduces.
//  2. Then one code block, verbatim in a fence with its language: the one
//     right after the lead when the lead introduces it, else the code
//     block whose text, introducing paragraph and headings cover the most
//     question terms (better-ranked record, then earlier block, on ties;
//     from a record other than the lead's only with two question terms or
//     more), and the code blocks directly after it in the same record (at
//     most two in all). Over DefaultMaxCodeBytes a block is left out whole.
//  3. Then the first sentence after the code when it shares a question
//     term with the question, and at most maxSupport sentences (of prose or
//     list items) from any record, each with two question terms or more
//     and adding terms the prose so far does not cover, chosen greedily as the sentence generator does.
//
// Sentences with an unbalanced template tag ({{ without }}), a dangling
// ":" (it introduces something not quoted) or that speak of "this page"
// are never quoted. Every delta names the one record it was taken from.
// It returns nil when the records give nothing to quote.
func (e Extractive) structured(terms []string, pkg *evidence.Package, maxBytes int) *composed {
	var units []unit
	for ri := range pkg.Records {
		for bi, b := range pkg.Records[ri].Blocks {
			switch b.Kind {
			case chunk.Paragraph, chunk.Note, chunk.Definition:
				ss := evidence.Sentences(b.Text)
				for si, s := range ss {
					if quotable(s) {
						units = append(units, unit{rec: ri, block: bi, pos: si, text: s, last: si == len(ss)-1, mask: maskOf(s, terms)})
					}
				}
			case chunk.Table:
				for pos, cells := range tableRows(b.Text) {
					if t := rowText(cells); t != "" && len(t) <= maxTableRowBytes && quotable(t) {
						// A row speaks of its first cell (the option, the
						// code, the part): it matches a question only
						// through it, so a word in another cell ("a
						// SafeIdentifier, up to 128 characters") does not
						// make the row a definition of that word.
						var m uint64
						if maskOf(cells[0], terms) != 0 {
							m = maskOf(t, terms)
						}
						units = append(units, unit{rec: ri, block: bi, pos: pos, text: t, row: true, mask: m})
					}
				}
			case chunk.List:
				// Each item's sentences, its marker left out; a list
				// item never ends with an introduction to code.
				pos := 0
				for _, line := range strings.Split(b.Text, "\n") {
					item := listItem(line)
					for _, s := range evidence.Sentences(item) {
						if quotable(s) {
							units = append(units, unit{rec: ri, block: bi, pos: pos, text: s, mask: maskOf(s, terms)})
						}
						pos++
					}
				}
			}
		}
	}
	blocks := func(ri int) []chunk.Block { return pkg.Records[ri].Blocks }
	introduces := func(u unit) bool { // a lead ending in ":" with code after it
		bs := blocks(u.rec)
		return u.last && u.block+1 < len(bs) && bs[u.block+1].Kind == chunk.Code && len(bs[u.block+1].Text) <= DefaultMaxCodeBytes
	}
	dangling := func(u unit) bool { return strings.HasSuffix(u.text, ":") }

	// 1. The lead: from the best-ranked record, unless it matched on its
	// title and headings alone (no sentence of it has a question term);
	// then from the best-ranked record with the sentence covering most.
	leadFrom := func(all bool) int {
		lead := -1
		for i, u := range units {
			if (!all && u.rec != 0) || len(u.text) > maxBytes || (dangling(u) && !introduces(u)) {
				continue
			}
			// On a tie, a table row (matched through its first cell, the
			// thing it defines) beats a sentence that only mentions a word.
			n, best := bits.OnesCount64(u.mask), -1
			if lead >= 0 {
				best = bits.OnesCount64(units[lead].mask)
			}
			if n > best || (n == best && n > 0 && u.row && !units[lead].row) {
				lead = i
			}
		}
		return lead
	}
	lead := leadFrom(false)
	var out composed
	var covered uint64
	used := map[int]bool{}
	// A best-ranked record that matched on its heading alone and holds a
	// small table ("The moving parts", then a table of them) is answered
	// by that table, row by row: it is what the section says.
	if lead < 0 || units[lead].mask == 0 {
		if rows := tableLead(units, pkg, terms, maxBytes); rows != nil {
			for i, ui := range rows {
				sep := "\n"
				if i == 0 {
					sep = ""
				}
				out.add(sep+"- "+units[ui].text, pkg.Records[0].ID)
				covered |= units[ui].mask
				used[ui] = true
			}
			lead = rows[0]
		}
	}
	if len(out.deltas) == 0 && (lead < 0 || units[lead].mask == 0) {
		if l := leadFrom(true); l >= 0 && units[l].mask != 0 {
			lead = l
		}
	}
	leadRec := 0
	if lead >= 0 {
		leadRec = units[lead].rec
	}
	if lead >= 0 && !used[lead] {
		out.add(units[lead].text, pkg.Records[leadRec].ID)
		covered |= units[lead].mask
		used[lead] = true
	}

	// 2. The code.
	codeRec, codeBlock := -1, -1
	if lead >= 0 && dangling(units[lead]) {
		codeRec, codeBlock = leadRec, units[lead].block+1
	} else {
		best := -1
		for ri := range pkg.Records {
			var heads uint64
			for _, h := range pkg.Records[ri].Headings {
				heads |= maskOf(h, terms)
			}
			for bi, b := range blocks(ri) {
				if b.Kind != chunk.Code || len(b.Text) > DefaultMaxCodeBytes {
					continue
				}
				m := maskOf(b.Text, terms) | heads
				if bi > 0 && blocks(ri)[bi-1].Kind != chunk.Code {
					m |= maskOf(blocks(ri)[bi-1].Text, terms)
				}
				n := bits.OnesCount64(m)
				// Code from another record than the lead's must earn its
				// place as a supporting sentence does, with two question
				// terms or more: one shared word ("widget") is not enough
				// to quote another page's example under this answer.
				if ri != leadRec && n < min(2, len(terms)) {
					continue
				}
				if n > best {
					best, codeRec, codeBlock = n, ri, bi
				}
			}
		}
		if best <= 0 {
			codeRec = -1
		}
	}
	after := -1 // the block after the quoted code
	if codeRec >= 0 {
		bs := blocks(codeRec)
		id := pkg.Records[codeRec].ID
		// Code the lead does not introduce keeps its own introduction, a
		// last sentence ending in ":" right before it.
		if lead < 0 || !dangling(units[lead]) {
			for i, u := range units {
				if u.rec == codeRec && u.block == codeBlock-1 && u.last && dangling(u) && !used[i] && out.size+2+len(u.text) <= maxBytes {
					sep := "\n\n"
					if out.size == 0 {
						sep = ""
					}
					out.add(sep+u.text, id)
					used[i] = true
					covered |= u.mask
					break
				}
			}
		}
		end := codeBlock
		for n := 0; end < len(bs) && bs[end].Kind == chunk.Code && n < 2 && len(bs[end].Text) <= DefaultMaxCodeBytes; n++ {
			sep := "\n\n"
			if out.size == 0 && end == codeBlock {
				sep = ""
			}
			out.add(sep+fence(bs[end]), id)
			end++
		}
		after = end
	}

	// 3. Support: the sentence after the code, then the greedy cover.
	prose := 0
	if lead >= 0 {
		prose = len(units[lead].text)
		if units[lead].row {
			prose = out.size
		}
	}
	var support []int
	follow := false
	if codeRec >= 0 {
		for i, u := range units {
			if u.rec == codeRec && u.block == after && u.pos == 0 && u.mask != 0 && !used[i] && !dangling(u) && prose+2+len(u.text) <= maxBytes {
				support = append(support, i)
				follow = true
				used[i] = true
				covered |= u.mask
				prose += 2 + len(u.text)
				break
			}
		}
	}
	for n := 0; n < maxSupport; n++ {
		best, bestNew, bestAll := -1, 0, 0
		for i, u := range units {
			if used[i] || dangling(u) || len(u.text) > maxSupportBytes || prose+2+len(u.text) > maxBytes {
				continue
			}
			nw, all := bits.OnesCount64(u.mask&^covered), bits.OnesCount64(u.mask)
			if all < 2 {
				continue // one question word is a stray match, not support
			}
			if nw > bestNew || (nw == bestNew && nw > 0 && all > bestAll) {
				best, bestNew, bestAll = i, nw, all
			}
		}
		if best < 0 {
			break
		}
		used[best] = true
		covered |= units[best].mask
		prose += 2 + len(units[best].text)
		support = append(support, best)
	}
	// The follow-up stays first; the rest in reading order.
	if len(support) > 1 {
		first := 0
		if follow {
			first = 1
		}
		slices.SortFunc(support[first:], func(a, b int) int {
			ua, ub := units[a], units[b]
			if ua.rec != ub.rec {
				return ua.rec - ub.rec
			}
			if ua.block != ub.block {
				return ua.block - ub.block
			}
			return ua.pos - ub.pos
		})
	}
	prev := -1
	for _, i := range support {
		u := units[i]
		sep := "\n\n"
		switch {
		case out.size == 0:
			sep = ""
		case prev >= 0 && units[prev].rec == u.rec && units[prev].block == u.block && units[prev].pos+1 == u.pos && u.pos > 0:
			sep = " "
		}
		out.add(sep+u.text, pkg.Records[u.rec].ID)
		prev = i
	}
	if len(out.deltas) == 0 {
		return nil
	}
	return &out
}

// tableLead is the rows (unit indexes) of the best-ranked record's first
// table when the record's headings share a question term, and the table
// has at most maxTableRows rows, every one quotable, that fit maxBytes as
// lines; nil otherwise.
func tableLead(units []unit, pkg *evidence.Package, terms []string, maxBytes int) []int {
	var heads uint64
	for _, h := range pkg.Records[0].Headings {
		heads |= maskOf(h, terms)
	}
	if heads == 0 {
		return nil
	}
	var rows []int
	size, block := 0, -1
	for i, u := range units {
		if u.rec != 0 || !u.row || (block >= 0 && u.block != block) {
			continue
		}
		block = u.block
		rows = append(rows, i)
		size += len(u.text) + 3
	}
	if len(rows) == 0 || len(rows) > maxTableRows || size > maxBytes ||
		len(rows) != len(tableRows(pkg.Records[0].Blocks[block].Text)) {
		return nil
	}
	return rows
}

// listItem is a list line without its indent and marker ("- ", "3. ").
func listItem(line string) string {
	t := strings.TrimLeft(line, " ")
	if r, ok := strings.CutPrefix(t, "- "); ok {
		return r
	}
	if i := strings.Index(t, ". "); i > 0 && strings.Trim(t[:i], "0123456789") == "" {
		return t[i+2:]
	}
	return t
}

// quotable rejects sentences an answer must not quote: an unbalanced
// template tag (a sentence cut inside {{ … }}), and references to the
// page they sit on.
func quotable(s string) bool {
	if strings.Count(s, "{{") != strings.Count(s, "}}") {
		return false
	}
	l := strings.ToLower(s)
	return !strings.HasPrefix(l, "this page") && !strings.HasPrefix(l, "these pages") && !strings.HasPrefix(l, "on this page")
}

// fence writes a code block in a markdown fence longer than any run of
// backticks in it, with its language.
func fence(b chunk.Block) string {
	n, run := 3, 0
	for i := 0; i < len(b.Text); i++ {
		if b.Text[i] == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	lang := b.Lang
	if strings.ContainsAny(lang, " `\n") {
		lang = ""
	}
	return f + lang + "\n" + b.Text + "\n" + f
}

// emitComposed streams a composed answer, cancellation checked before
// every delta.
func emitComposed(ctx context.Context, c *composed, emit func(Event) error) error {
	for _, ev := range c.deltas {
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
	return emit(Event{Usage: &Usage{Model: ExtractiveModel}})
}
