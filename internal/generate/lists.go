package generate

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/askplane/askplane/internal/chunk"
)

// listLead answers a question asking for several things ("what are the
// parts", "which keys") with the list or small table of one of the
// engine's first two records whose own heading speaks to the question,
// after the sentence introducing it; false when there is none. Of a
// section's lists, the one saying most of what is asked beyond the
// section's headings is tried first ("Docsy's default Chroma styles for
// light/dark modes are:" before the setup steps that open the section).
func (c *composer) listLead() bool {
	type candidate struct {
		rec, block, intro int // intro: the introducing sentence, -1 when none
		says              int
	}
	var cands []candidate
	for ri := range min(2, len(c.pkg.Records)) {
		if c.own[ri] == 0 {
			continue
		}
		bs := c.pkg.Records[ri].Blocks
		for bi, b := range bs {
			if b.Kind != chunk.List && b.Kind != chunk.Table || b.Kind == chunk.List && properties(b.Text) && !c.property {
				continue // an option's properties say where it is set, not what is asked
			}
			intro := -1
			var m uint64 // what the introduction says
			if bi > 0 && bs[bi-1].Kind == chunk.Paragraph {
				if i := c.lastIn(ri, bi-1); i >= 0 && c.sents[i].score > 0 && len(c.sents[i].text) <= maxSupportBytes {
					intro, m = i, c.sents[i].mask
				}
			}
			lm := c.listMask(ri, bi, m)
			if !c.listSpeaks(ri, lm) {
				continue
			}
			// What the introduction says counts twice: it says what the
			// list is, where a list's lines may merely mention the words.
			says := bits.OnesCount64(lm&^c.heads[ri]) + bits.OnesCount64(m&^c.heads[ri])
			cands = append(cands, candidate{ri, bi, intro, says})
		}
	}
	slices.SortStableFunc(cands, func(a, b candidate) int { return b.says - a.says })
	for _, x := range cands {
		size := 0
		if x.intro >= 0 {
			c.add(c.sents[x.intro].text, x.rec)
			size = len(c.sents[x.intro].text)
		}
		if c.quoteList(x.rec, x.block, &size) {
			c.seeAlso(x.rec)
			return true
		}
		c.out = composed{}
	}
	return false
}

// listSpeaks: a list or table block of rec, m the question terms it and
// its introduction hold (listMask), speaks of what is asked beyond its
// section's name, or its section's own heading is most of the question
// ("What gets deployed"): a page's steps do not answer which variables
// it sets.
func (c *composer) listSpeaks(rec int, m uint64) bool {
	return m&^c.heads[rec] != 0 || 2*bits.OnesCount64(c.own[rec]) >= bits.OnesCount64(c.all)
}

// listMask is the question terms a list or table block's top-level lines
// and its introduction (intro) hold.
func (c *composer) listMask(rec, block int, intro uint64) uint64 {
	m := intro
	for _, l := range strings.Split(c.pkg.Records[rec].Blocks[block].Text, "\n") {
		if !strings.HasPrefix(l, " ") {
			m |= c.mask(l)
		}
	}
	return m
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
	// A reference table too long to quote whole is quoted compactly,
	// each row to its first sentence, within twice the answer's budget:
	// all of a shortcode's parameters are the answer to "what are its
	// parameters", and a few of them are not.
	limit := c.maxBytes + 200
	if len(lines) > 0 && (len(lines) > maxTableRows || *size+n > limit) && b.Kind == chunk.Table {
		lines, n = compactRows(b.Text)
		limit = 2 * c.maxBytes
	}
	// So is a list of items of several sentences each (an upgrade
	// guide's actions, each with its reason), each item to its first.
	if len(lines) > 0 && len(lines) <= maxTableRows && *size+n > limit && b.Kind == chunk.List {
		lines, n = firstSentences(lines)
	}
	// A list longer than a table may be is quoted when it fits as a
	// table would: nine one-line options ("`date` - Add a date …") are
	// the answer to "what does --log-format accept".
	if len(lines) == 0 || len(lines) > 2*maxTableRows || *size+n > limit {
		return false
	}
	// Items that only head their sub-items ("Runtime configuration
	// (`env_auth = true` in the config file):") are quoted with them, each
	// to its first sentence, when they fit: the heads alone name no way
	// to do anything, and an answer ending on a colon reads as cut.
	if b.Kind == chunk.List {
		if nested, m := headedItems(b.Text); nested != nil && *size+m <= max(limit, 2*c.maxBytes) {
			lines, n = nested, m
		}
	}
	// An ordered list keeps its numbers.
	c.writeLines(lines, b.Kind == chunk.List && strings.TrimLeft(b.Text, "0123456789") != b.Text, rec)
	*size += n
	// A list whose last item introduces code ("… add the following to
	// your `_styles_project.scss` project style file:") is followed by
	// that code, as the item says.
	if bs := c.pkg.Records[rec].Blocks; strings.HasSuffix(lines[len(lines)-1], ":") && block+1 < len(bs) && bs[block+1].Kind == chunk.Code &&
		len(bs[block+1].Text) <= maxComposeCode && !c.quotedCode(bs[block+1].Text) {
		c.add("\n\n"+fence(bs[block+1]), rec)
		return true
	}
	c.listGoesOn(rec, block+1, size)
	return true
}

// listGoesOn quotes the first sentence of the paragraph at block of rec,
// right after a list the answer quoted, when it adds one more item to
// the list ("It also provides a default landing page template … that you
// can use for any other section" after the templates for docs, blog and
// community): the enumeration goes on past the list's last item.
func (c *composer) listGoesOn(rec, block int, size *int) {
	bs := c.pkg.Records[rec].Blocks
	if block >= len(bs) || bs[block].Kind != chunk.Paragraph {
		return
	}
	ss := sentencesOf(bs[block].Text)
	if len(ss) == 0 || !addsToList(ss[0]) || *size+2+len(ss[0]) > c.maxBytes+200 || !factsOf(ss[0]).quotable || c.said(ss[0]) {
		return
	}
	c.add("\n\n"+ss[0], rec)
	*size += 2 + len(ss[0])
}

// addsToList: s opens by adding to what was just listed ("It also
// provides …", "There is also …", "In addition, …").
func addsToList(s string) bool {
	l := strings.ToLower(s)
	for _, p := range []string{"it also ", "they also ", "there is also ", "there are also ", "in addition", "additionally", "also, "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// firstSentences is each of a list's lines cut to its first sentence,
// and their length as quoted.
func firstSentences(lines []string) (out []string, n int) {
	for _, l := range lines {
		if ss := sentences(l); len(ss) > 0 {
			l = ss[0]
		}
		out = append(out, l)
		n += 3 + len(l)
	}
	return out, n
}

// writeLines writes lines as a list, numbered when ordered, a paragraph
// apart from what the answer already holds.
func (c *composer) writeLines(lines []string, ordered bool, rec int) {
	k := 0 // the top-level items written
	for i, l := range lines {
		marker := "- "
		if sub, ok := strings.CutPrefix(l, subItem); ok {
			c.add("\n   "+sub, rec) // with its own marker
			continue
		}
		if k++; ordered {
			marker = itoa(k) + ". "
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
}

// entryAsked is, for a list item's sentence that opens with a name the
// question asks about ("Create child page: Brings the user to a create
// new file form …" for "what happens when a reader clicks Create child
// page"), the whole item; "" otherwise. A name of one plain word is too
// common to be what is asked.
func (c *composer) entryAsked(s *sent) string {
	name, _, ok := strings.Cut(s.text, ": ")
	if !ok || s.kind != chunk.List || !c.namesEntry(name) {
		return ""
	}
	for _, l := range strings.Split(c.pkg.Records[s.rec].Blocks[s.block].Text, "\n") {
		if strings.HasPrefix(l, " ") {
			continue
		}
		if item := strings.TrimSpace(listItem(l)); strings.HasPrefix(item, s.text) && len(item) <= maxSupportBytes+200 && quotable(item) {
			return item
		}
	}
	return ""
}

// namesEntry: the question names name, an entry's name of two words or
// more, or one in code, as a phrase, and the name is at least half of
// what it asks: a long question naming an entry in passing ("the Edit
// this page links open the wrong file") asks something else, and steps
// are not an entry's description.
func (c *composer) namesEntry(name string) bool {
	p := plain(name)
	if p == "" || len(p) > 60 || !strings.Contains(p, " ") && !strings.Contains(name, "`") || c.stepsAsked {
		return false
	}
	return 2*bits.OnesCount64(c.mask(name)) >= bits.OnesCount64(c.all) && hasWord(c.plain, p)
}

// shortList: a list of at most maxTableRows top-level items, none of
// them a numbered step, that fits in limit bytes: one a setting's answer
// quotes whole ("Review the path values", "If the path should be
// site-relative, leave it as is", …).
func shortList(text string, limit int) bool {
	n := 0
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, " ") || strings.TrimSpace(l) == "" {
			continue
		}
		if orderedItem(l) != "" {
			return false
		}
		n++
	}
	return n >= 2 && n <= maxTableRows && len(text) <= limit
}

// subItem marks a line of quoteList's lines that is a sub-item of the
// line before it, written indented under it.
const subItem = "\x00"

// headedItems is a list's lines with the sub-items of its items that
// head them (end in ":"), each to its first sentence and marked
// subItem, and their length as quoted; nil when no item heads sub-items
// or one of them is not quotable. Deeper sub-items are left out.
func headedItems(text string) ([]string, int) {
	var out []string
	n, headed, depth := 0, false, -1
	heads := false // the last top-level item heads its sub-items
	for _, l := range strings.Split(text, "\n") {
		indent := len(l) - len(strings.TrimLeft(l, " "))
		t := strings.TrimSpace(listItem(l))
		if t == "" {
			continue
		}
		switch {
		case indent == 0:
			heads, depth = strings.HasSuffix(t, ":"), -1
			out = append(out, t)
			n += 3 + len(t)
		case heads && (depth < 0 || indent == depth):
			depth = indent
			if ss := sentences(t); len(ss) > 0 {
				t = ss[0]
			}
			if !quotable(t) {
				return nil, 0
			}
			marker := "- " // an ordered sub-item keeps its number
			if num, _, ok := strings.Cut(strings.TrimLeft(l, " "), ". "); ok && num != "" && strings.Trim(num, "0123456789") == "" {
				marker = num + ". "
			}
			out = append(out, subItem+marker+t)
			n += 4 + len(marker) + len(t)
			headed = true
		}
	}
	if !headed {
		return nil, 0
	}
	return out, n
}
