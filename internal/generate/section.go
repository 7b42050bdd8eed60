package generate

import (
	"strings"

	"github.com/askplane/askplane/internal/chunk"
)

// wholeSection answers with the lead's section whole, in reading order,
// when all of it fits the answer, and reports whether it did. A short
// section says what it has to say in its own order (the cause, then
// what to check, then the command to run after), and picking the
// sentences that share the question's words loses the ones that say
// what the reader needs next: rclone's "PCS cookie errors" entry ends
// with `rclone reconnect remote:`, and Fastmail's section with the app
// password to create.
//
// It declines when single says something the section's order would not
// (what a value asked by name means, that a setting is deprecated, the
// one entry asked), when the section's code is tabs of one setting, when
// a how-to's command is in another section, and when the lead is
// further on in its section and does not go on from what comes before
// it: that is context or another case ("To display a simple list …"
// before "To display no links at all …").
func (c *composer) wholeSection(li int) bool {
	li = c.readFrom(li)
	lead := &c.sents[li]
	r := &c.pkg.Records[lead.rec]
	if r.Anchor == "" || len(r.Blocks) < 2 {
		return false
	}
	if !c.opensSection(li) && !c.goesOn(lead) {
		return false
	}
	if c.meaning(lead) != nil || c.deprecation(lead.rec) != "" || c.entryAsked(lead) != "" {
		return false
	}
	prose, code, codes := 0, 0, 0
	for _, b := range r.Blocks {
		if tabLabel(b) {
			return false // code in tabs (hugo.toml, hugo.yaml): one of them answers
		}
		if b.Kind == chunk.Code {
			code += len(b.Text)
			codes++
		} else {
			prose += len(b.Text) + 2
		}
	}
	if prose > c.maxBytes || code > maxComposeCode {
		return false
	}
	if codes == 0 && c.sh == shapeHowto {
		if cr, cb := c.leadCode(lead); cb >= 0 && cr != lead.rec {
			return false // the how is another section's command
		}
	}
	kept, size := c.out, 0
	for bi, b := range r.Blocks {
		switch {
		case b.Kind == chunk.Code:
			// The message the reader pasted is not quoted back unless the
			// cause introduces it ("… shows a pop-up saying:"); code a
			// list's last item introduced is quoted with the list.
			introduced := bi > 0 && strings.HasSuffix(strings.TrimSpace(r.Blocks[bi-1].Text), ":")
			if c.sh == shapeError && c.echoes(b.Text) && !introduced || bi > 0 && r.Blocks[bi-1].Kind == chunk.List && c.said(b.Text) {
				continue
			}
			c.add(paragraphBreak(c.out.size)+fence(b), lead.rec)
		case b.Kind == chunk.List || b.Kind == chunk.Table:
			if !c.quoteList(lead.rec, bi, &size) {
				c.out = kept
				return false
			}
		case c.sh == shapeError && c.echoes(b.Text) && (b.Kind == chunk.Note || c.isEcho(b.Text)):
			// the pasted message quoted alone
		default:
			c.add(paragraphBreak(c.out.size)+strings.TrimSpace(b.Text), lead.rec)
		}
		size = c.out.size
	}
	var covered uint64
	for i := range c.sents {
		if c.sents[i].rec == lead.rec {
			covered |= c.sents[i].mask
		}
	}
	c.support(lead.rec, &covered)
	c.seeAlso(lead.rec)
	return true
}

// opensSection: sentence li is the first of its record.
func (c *composer) opensSection(li int) bool {
	for i := range li {
		if c.sents[i].rec == c.sents[li].rec {
			return false
		}
	}
	return true
}

// goesOn: lead, further on in its section, continues what comes before
// it, so the section is read from its start: a sentence that leans on
// the one before ("Similarly, …"), or one opening the paragraph after an
// example that says what the example does ("All files on `B:` which are
// less than 50 KiB are deleted …") or is the next item of a numbered
// guide. A sentence that introduces something ("… run:") starts a case
// of its own.
func (c *composer) goesOn(lead *sent) bool {
	if strings.HasSuffix(lead.text, ":") {
		return false
	}
	bs := c.pkg.Records[lead.rec].Blocks
	afterExample := lead.block > 0 && bs[lead.block-1].Kind == chunk.Code && lead.pos == 0 &&
		(c.codeAfter(lead.rec, lead.block) < 0 || lead.kind == chunk.List)
	return leans(lead.text) || afterExample
}

// paragraphBreak is what goes before a block written after size bytes.
func paragraphBreak(size int) string {
	if size == 0 {
		return ""
	}
	return "\n\n"
}

// readOn continues a short answer with the paragraphs of its section
// that follow the last sentence quoted, in reading order, while they
// speak of the question and fit: a focused section's next sentences say
// what the lead's thing does ("When files are written, they will be
// written to both …" after how to tag a :writeback upstream), where
// sentences chosen for sharing the question's words come from anywhere.
func (c *composer) readOn(rec int, covered *uint64) {
	prose := len(c.out.prose())
	if prose >= readOnBelow || c.pkg.Records[rec].Anchor == "" {
		return
	}
	last := -1
	for i := range c.sents {
		if c.sents[i].rec == rec && c.said(c.sents[i].text) {
			last = i
		}
	}
	if last < 0 {
		return
	}
	block := -1 // the block of the last sentence written, when the answer ends with it
	if n := len(c.out.deltas); n > 0 && strings.HasSuffix(c.out.deltas[n-1].Delta, c.sents[last].text) {
		block = c.sents[last].block
	}
	for i := last + 1; i < len(c.sents); i++ {
		s := &c.sents[i]
		if s.rec != rec || s.kind != chunk.Paragraph || strings.HasSuffix(s.text, ":") || strings.HasSuffix(s.text, "?") || closingLike(s.text) {
			break
		}
		if c.said(s.text) {
			continue
		}
		if s.block != block && s.mask&^c.common == 0 && s.block != c.sents[last].block {
			break // a paragraph that says nothing of the question
		}
		sep := "\n\n"
		if s.block == block {
			sep = " "
		}
		if prose+len(sep)+len(s.text) > c.maxBytes {
			break
		}
		c.add(sep+s.text, rec)
		prose += len(sep) + len(s.text)
		*covered |= s.mask
		block = s.block
	}
}

// readOnBelow is the prose length under which an answer reads on in its
// section.
const readOnBelow = 300

// following is the package's record of the section that follows rec on
// its page (the next in reading order), or -1 when the package does not
// hold it.
func (c *composer) following(rec int) int {
	r := &c.pkg.Records[rec]
	for ri := range c.pkg.Records {
		if n := &c.pkg.Records[ri]; n.URL == r.URL && n.Order == r.Order+1 {
			return ri
		}
	}
	return -1
}
