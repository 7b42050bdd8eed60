package generate

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/askplane/askplane/internal/chunk"
)

// said: the answer already quotes text (as a sentence or a list line).
func (c *composer) said(text string) bool {
	for _, ev := range c.out.deltas {
		if strings.Contains(ev.Delta, text) {
			return true
		}
	}
	return false
}

// single composes one section's answer: the lead, the sentences after it
// in its block that still answer, the list or table it introduces, its
// code (with a code block directly after it), and the sentence after the
// code; all from the lead's record, the code also from another section
// of the same page when the lead's has none.
func (c *composer) single(li int) {
	li = c.readFrom(li)
	if c.afterSteps(li) {
		return
	}
	c.earlierStep(li)
	lead := c.sents[li]
	c.leadBlock = lead.block
	size, covered := 0, lead.mask
	// A setting's value asked by name ("td.chrome shared") and answered
	// by how to set it says first what the value does, from the list
	// that names it ("`shared` emits each region on one donor page …").
	if m := c.meaning(&lead); m != nil {
		c.add(m.text+"\n\n", m.rec)
		size, covered = len(m.text)+2, covered|m.mask
	}
	// A section that says the setting asked by name is deprecated says
	// so first, with what replaces it: a reader about to use it needs
	// that before how.
	if d := c.deprecation(lead.rec); d != "" && (c.sh == shapeReference || c.verbatim != "") && !strings.Contains(d, lead.text) {
		c.add(d+"\n\n", lead.rec)
		size += len(d) + 2
	}
	// An entry the question names is quoted whole, and is the answer:
	// what clicking "Create child page" does is the rest of its list
	// item.
	if item := c.entryAsked(&lead); item != "" {
		c.add(item, lead.rec)
		c.seeAlso(lead.rec)
		return
	}
	c.add(lead.text, lead.rec)
	size += len(lead.text)
	li, lead, size, covered = c.pastScope(li, lead, size, covered)
	li, lead, size, covered = c.leaningOn(li, lead, size, covered)
	lead, size, covered = c.goOn(li, lead, size, covered)
	if k := c.codeAfter(lead.rec, lead.block); c.sh == shapeError && !c.command && (k < 0 || c.echoes(c.pkg.Records[lead.rec].Blocks[k].Text)) {
		// The cause alone leaves the reader where they were: the entry's
		// fix follows ("The simplest fix is to run" and its command),
		// unless the answer goes on with code of its own.
		if f := c.fixAfter(&lead); f >= 0 && size+2+len(c.sents[f].text) <= c.maxBytes {
			// The message the cause introduces ("… a pop-up will appear
			// saying:") is quoted when short, so the cause reads whole.
			if k >= 0 && strings.HasSuffix(lead.text, ":") && c.lastOf(&lead) && k < c.sents[f].block {
				if b := c.pkg.Records[lead.rec].Blocks[k]; len(b.Text) <= maxComposeCode/2 {
					c.add("\n\n"+fence(b), lead.rec)
					size += 2 + len(b.Text)
				}
			}
			lead = c.sents[f]
			c.add("\n\n"+lead.text, lead.rec)
			size += 2 + len(lead.text)
			covered |= lead.mask
		}
	}
	lead, size, covered, done := c.openingGoesOn(lead, size, covered)
	if done {
		return
	}
	if c.sh == shapeCompare && lead.kind == chunk.Paragraph && !strings.HasSuffix(lead.text, ":") {
		c.otherSide(&lead, &size)
	}
	bs := c.pkg.Records[lead.rec].Blocks
	// A list or small table the lead's paragraph introduces is the answer's
	// body ("Lighthouse reads a few keys of its own:" then the keys); so is
	// the whole list when the lead is one item of a section whose headings
	// ask more than the item says ("which keys …").
	// So is the whole list when its section's own heading is most of
	// the question ("Writing good phrasings" for "how to write good
	// phrasings"): each item is one piece of the answer.
	whole := (lead.kind == chunk.List || lead.kind == chunk.Table) && (c.listing && c.heads[lead.rec]&^lead.mask != 0 ||
		lead.kind == chunk.List && c.pkg.Records[lead.rec].Anchor != "" && 3*bits.OnesCount64(c.own[lead.rec]) >= 2*bits.OnesCount64(c.all) ||
		lead.kind == chunk.List && c.verbatim != "" && lead.pos == 0 && shortList(c.pkg.Records[lead.rec].Blocks[lead.block].Text, c.maxBytes))
	kept, keptSize := c.out, size // what a whole list that does not fit falls back to
	if whole {
		c.out = composed{}
		size = 0
		lead.block--
	}
	listed := false
	// A lead that introduces items each with its code ("Move `_markup`
	// one level up:" then the move, "Add underscore prefixes to
	// subfolders:" then the moves) quotes every pair.
	if !whole && lead.kind == chunk.Paragraph && c.lastOf(&lead) && strings.HasSuffix(lead.text, ":") && c.itemCodes(lead.rec, lead.block+1) {
		c.seeAlso(lead.rec)
		return
	}
	if (whole || lead.kind == chunk.Paragraph && c.lastOf(&lead)) && lead.block+1 < len(bs) {
		listed = c.quoteList(lead.rec, lead.block+1, &size)
	}
	if whole && !listed {
		c.out, size = kept, keptSize // the lead, rather than nothing
		lead.block++
	}
	// A question asking for several things ("which keys", "what files")
	// is answered by the list or table of the lead's section, or of a
	// section of its page whose heading speaks to the question.
	if c.listing && !listed && !(strings.HasSuffix(lead.text, ":") && c.introducesCode(&lead)) {
		// (A lead introducing code has its answer there: "… these
		// parameters to control the output:" then the letters.)
		for ri := range c.pkg.Records {
			if ri != lead.rec && (c.pkg.Records[ri].URL != c.pkg.Records[lead.rec].URL || c.own[ri] == 0) {
				continue
			}
			for bi, b := range c.pkg.Records[ri].Blocks {
				if (b.Kind == chunk.List && !(properties(b.Text) && !c.property) || b.Kind == chunk.Table) && (ri != lead.rec || bi != lead.block) && c.listSpeaks(ri, c.listMask(ri, bi, 0)) && c.quoteList(ri, bi, &size) {
					listed = true
					break
				}
			}
			if listed {
				break
			}
		}
	}
	if c.sh == shapeWhy || c.sh == shapeCompare && lead.kind != chunk.Paragraph {
		if c.sh == shapeCompare {
			c.support(lead.rec, &covered) // the other side: the list's next item
		}
		// An explanation that ends by showing how ("… by formatting the
		// preceding entry as a block scalar, like this:") shows it, and
		// says what it achieves.
		if bi := c.codeAfter(lead.rec, lead.block); strings.HasSuffix(lead.text, ":") && bi >= 0 && len(c.pkg.Records[lead.rec].Blocks[bi].Text) <= maxComposeCode {
			c.add("\n\n"+fence(c.pkg.Records[lead.rec].Blocks[bi]), lead.rec)
			if after := c.paragraph(lead.rec, bi+1, false); len(after) > 0 {
				c.add("\n\n"+after[0].text, lead.rec)
			}
		}
		c.seeAlso(lead.rec)
		return
	}
	codeRec, code := c.leadCode(&lead)
	if code < 0 && c.sh == shapeReference {
		codeRec, code = c.exampleOf()
	}
	if code >= 0 && !c.quotedCode(c.pkg.Records[codeRec].Blocks[code].Text) {
		c.quoteCode(&lead, codeRec, code, size, covered)
	}
	c.readOn(lead.rec, &covered)
	c.support(lead.rec, &covered)
	c.seeAlso(lead.rec)
}

// meaning is, for a reference question answered by an instruction
// (lead), the list item elsewhere in the package that opens with a
// code-named value the question names and says what it does; nil when
// there is none.
func (c *composer) meaning(lead *sent) *sent {
	if c.sh != shapeReference || !directs(lead.text) {
		return nil
	}
	var best *sent
	for i := range c.sents {
		s := &c.sents[i]
		if s.kind != chunk.List || s.rec == lead.rec && s.block == lead.block || s.score <= 0 || len(s.text) > maxSupportBytes || directs(s.text) {
			continue
		}
		name, _, ok := openingCode(s.text)
		if !ok || c.mask(name) == 0 || !hasWord(c.plain, plain(name)) {
			continue
		}
		if best == nil || s.score > best.score {
			best = s
		}
	}
	return best
}

// support adds at most maxSupport sentences that cover question terms
// the answer does not yet hold, and only while it leaves some
// uncovered: from the lead's section, its page's opening, or a section
// of its page whose own heading names a term still uncovered. Nothing comes from
// another page or an unrelated section. Each must stand on its own (its
// score) and fit the prose bound; they follow in reading order, each its
// own paragraph.
func (c *composer) support(leadRec int, covered *uint64) {
	used := map[string]bool{}
	prose := 0
	for _, ev := range c.out.deltas {
		used[strings.TrimSpace(ev.Delta)] = true
		if !fenced(ev.Delta) {
			prose += len(ev.Delta)
		}
	}
	url := c.pkg.Records[leadRec].URL
	// The words a comparison is asked in are not what it is about.
	comparing := c.mask("difference differences between versus compare comparison")
	// A question asking where gets the sentence of the lead's section that
	// names the place, when the answer names none yet (place.go): no path
	// or URL, and no code of the lead's section showing the setting in
	// its file.
	placed := !c.place || namesPlace(c.out.prose())
	for _, ev := range c.out.deltas {
		placed = placed || fenced(ev.Delta) && ev.Sources[0] == c.pkg.Records[leadRec].ID
	}
	var picked []int
	for range maxSupport {
		if *covered&c.all == c.all {
			break // the answer holds every question term
		}
		best, bestNew := -1, 0
		for i := range c.sents {
			s := &c.sents[i]
			if s.score < 20 || used[s.text] || len(s.text) > maxSupportBytes || prose+2+len(s.text) > c.maxBytes || strings.HasSuffix(s.text, ":") && !c.comparedCode(s) || strings.HasSuffix(s.text, "?") || c.said(s.text) || s.mask&c.excluded != 0 {
				continue
			}
			if leans(s.text) {
				continue // "To do so, …": its subject came before it
			}
			if s.kind == chunk.List && (propertyLine(s.text) || fewWords(s.text, 2)) {
				continue // "Config: hash_type", or a bare example value ("false") without what it does
			}
			if r := &c.pkg.Records[s.rec]; s.rec != leadRec && (r.URL != url || r.Anchor != "" && (c.own[s.rec]&^*covered == 0 || s.score < 40) || c.entry) {
				continue // only the page's opening, or a section naming an uncovered term in its heading; an error's entry stands alone
			}
			if s.kind == chunk.Table && !c.listing && c.sh != shapeReference {
				continue // a reference row is not support for a how-to or an error
			}
			// On a tie, the lead's own block first (a list's next item),
			// then the better sentence.
			n := bits.OnesCount64(s.mask &^ *covered &^ comparing)
			if !placed && s.rec == leadRec && s.mask != 0 && factsOf(s.text).place {
				n++
			}
			near := func(t *sent) bool { return t.rec == leadRec && t.block == c.leadBlock }
			if n > bestNew || n == bestNew && n > 0 && (near(s) && !near(&c.sents[best]) || near(s) == near(&c.sents[best]) && s.score > c.sents[best].score) {
				best, bestNew = i, n
			}
		}
		if best < 0 {
			break
		}
		s := &c.sents[best]
		used[s.text] = true
		placed = placed || factsOf(s.text).place
		*covered |= s.mask
		prose += 2 + len(s.text)
		picked = append(picked, best)
	}
	// A how-to answered in words only ("Enable it by adding your ID to
	// the site configuration.") goes on with the sentence of its section
	// that names the setting or command, when there is one.
	if c.sh == shapeHowto && len(picked) == 0 && !c.said("`") {
		best := -1
		for i := range c.sents {
			s := &c.sents[i]
			if s.rec != leadRec || s.score <= 0 || used[s.text] || !strings.Contains(s.text, "`") ||
				len(s.text) > maxSupportBytes || prose+2+len(s.text) > c.maxBytes || strings.HasSuffix(s.text, "?") || strings.HasSuffix(s.text, ":") || leans(s.text) || c.said(s.text) {
				continue
			}
			if best < 0 || s.score > c.sents[best].score {
				best = i
			}
		}
		if best >= 0 {
			picked = append(picked, best)
		}
	}
	// A setting asked by its camelCase name ("cookieSecretEnv") goes on
	// with the sentence of its page that speaks of it in words ("The
	// cookie secret (at least 32 bytes) lives in the environment"): often
	// where the page says what it holds.
	if phrase := camelPhrase(c.question); phrase != "" && len(picked) == 0 {
		for i := range c.sents {
			s := &c.sents[i]
			if c.pkg.Records[s.rec].URL != url || used[s.text] || s.score <= 0 || len(s.text) > maxSupportBytes || prose+2+len(s.text) > c.maxBytes ||
				strings.HasSuffix(s.text, "?") || strings.HasSuffix(s.text, ":") || leans(s.text) || c.said(s.text) || !strings.Contains(strings.ToLower(s.text), phrase) {
				continue
			}
			picked = append(picked, i)
			break
		}
	}
	slices.Sort(picked) // sentences are collected in reading order
	room := c.maxBytes - len(c.out.prose())
	for _, i := range picked {
		s := &c.sents[i]
		room -= 2 + len(s.text)
		c.add("\n\n"+c.inParagraph(i, picked, &room), s.rec)
		if c.comparedCode(s) {
			c.add("\n\n"+fence(c.pkg.Records[s.rec].Blocks[c.codeAfter(s.rec, s.block)]), s.rec)
		}
	}
}

// comparedCode: in a comparison, s introduces a short code block (the
// other side's example: "TOML front matter is fenced with three plus
// signs:"), which is quoted with it.
func (c *composer) comparedCode(s *sent) bool {
	return c.sh == shapeCompare && strings.HasSuffix(s.text, ":") && c.introducesCode(s) && len(c.pkg.Records[s.rec].Blocks[c.codeAfter(s.rec, s.block)].Text) <= maxComposeCode/3
}

// exampleOf is, for a question naming a setting or function (camelCase,
// or a dotted path), the first code block of the package (in the
// engine's order) that names it verbatim (the last dotted part of a
// name: "maxResults" of "search.maxResults"), as its example; -1 when
// none does.
func (c *composer) exampleOf() (int, int) {
	var names []string
	for _, w := range strings.Fields(c.question) {
		w = strings.Trim(w, "`'\"?,;()")
		dotted := false
		if i := strings.LastIndexAny(w, ".:/"); i >= 0 {
			w, dotted = w[i+1:], true
		}
		camel := false
		for i := 1; i < len(w); i++ {
			camel = camel || w[i] >= 'A' && w[i] <= 'Z' && w[i-1] >= 'a' && w[i-1] <= 'z'
		}
		if camel && len(w) >= 4 || dotted && len(w) >= 5 {
			names = append(names, w) // a setting, not an error code or a file extension
		}
	}
	for ri := range c.pkg.Records {
		for bi, b := range c.pkg.Records[ri].Blocks {
			if b.Kind != chunk.Code || len(b.Text) > maxComposeCode {
				continue
			}
			for _, n := range names {
				if strings.Contains(b.Text, n) {
					return ri, bi
				}
			}
		}
	}
	return -1, -1
}

// seeAlso cites the engine's first record when the answer was taken from
// another page, in one line naming it.
func (c *composer) seeAlso(rec int) {
	r0 := &c.pkg.Records[0]
	if rec == 0 || c.pkg.Records[rec].URL == r0.URL {
		return
	}
	for _, ev := range c.out.deltas {
		if ev.Sources[0] == r0.ID {
			return // already quoted
		}
	}
	line := "\n\nSee also " + r0.Label()
	// With what that section says, when it says something of its own.
	best := -1
	for i := range c.sents {
		if s := &c.sents[i]; s.rec == 0 && s.mask != 0 && s.score >= 20 && len(s.text) <= maxSupportBytes && !strings.HasSuffix(s.text, ":") && !strings.HasSuffix(s.text, "?") && (best < 0 || s.score > c.sents[best].score) {
			best = i
		}
	}
	switch {
	case best >= 0:
		line += ": " + c.sents[best].text
	case c.heads[0]|c.code[0] != 0:
		line += "."
	default:
		return // the engine's first says nothing of the question
	}
	c.add(line, 0)
}

// readFrom is the sentence an answer whose best sentence is li starts
// from: the answer after a sentence that is a question, the start of a
// short paragraph that explains, the introduction of a list a
// definition was found in.
func (c *composer) readFrom(li int) int {
	// A lead that is itself a question (a FAQ item, a heading-like
	// sentence) is answered by the sentence after it.
	if strings.HasSuffix(c.sents[li].text, "?") && li+1 < len(c.sents) && c.sents[li+1].rec == c.sents[li].rec {
		li++
	}
	// An explanation or a definition is read from the start of its
	// paragraph when the paragraph is short and opens on its own: the
	// sentences before the lead are usually its reason ("… loads as an
	// external ES module from your origin, so script-src 'self' covers
	// it. … Nothing needs a nonce …"). Short is about three sentences,
	// 520 bytes: still well under the answer's budget. A setting's
	// answer is read so only when what comes before says its default
	// ("By default, Docsy emits an event value of 100 …" before "You can
	// change this value by setting …").
	// So is one that closes a list item, from the item's start (an
	// upgrade note's "Parameter `…footer_about_disable` is deprecated."
	// after what replaces it), the item then quoted whole; one that
	// leans on the sentence before it is read from that one (below).
	if l := &c.sents[li]; (c.sh == shapeWhy || c.sh == shapeDefine || c.sh == shapeCompare || c.sh == shapeError || c.sh == shapeReference) && l.pos > 0 && (l.kind == chunk.Paragraph || l.kind == chunk.Note || l.kind == chunk.List && !leans(l.text) && (li+1 == len(c.sents) || !c.together(l, &c.sents[li+1]))) {
		first, n, defaults := li, 0, false
		for first > 0 && c.sents[first-1].rec == l.rec && c.sents[first-1].block == l.block && (l.kind != chunk.List || c.together(&c.sents[first-1], l)) {
			first--
		}
		for i := first; i <= li; i++ {
			n += len(c.sents[i].text) + 1
			defaults = defaults || i < li && strings.Contains(factsOf(c.sents[i].text).lower, "default")
		}
		if f := &c.sents[first]; n <= 520 && f.pos == 0 && (f.score > 0 || leans(l.text) || c.sh == shapeWhy && verdict(f.text)) && !strings.HasSuffix(f.text, ":") && !strings.HasSuffix(f.text, "?") && (c.sh != shapeReference || defaults) {
			li = first
		}
	}
	// A sentence leaning on the one before it in its paragraph or list
	// item ("This prevents the title from appearing in a page's table of
	// contents.") is read from that one ("The title renders as … a
	// `<div>` rather than a heading element.").
	if l := &c.sents[li]; leans(l.text) && li > 0 {
		if p := &c.sents[li-1]; c.together(p, l) && !leans(p.text) {
			li--
		}
	}
	// A definition found in a list item is read from the sentence that
	// introduces the list ("… a doc-rooted site structure, where:"), the
	// list following it whole.
	if l := &c.sents[li]; c.sh == shapeDefine && l.kind == chunk.List && l.block > 0 {
		for i := li - 1; i >= 0 && c.sents[i].rec == l.rec && c.sents[i].block >= l.block-1; i-- {
			if t := &c.sents[i]; t.block == l.block-1 && t.kind == chunk.Paragraph && c.introducesList(t) && strings.HasSuffix(t.text, ":") {
				li = i
				break
			}
		}
	}
	return li
}

// pastScope goes on from a lead that only says when what follows applies
// ("Applies if your site uses `td-offset-anchor` …", the way upgrade
// guides open each action) to the action: the rest of its list item, or
// the paragraph after it, which the answer then continues from. A list
// of actions after it is quoted by the usual path, as the list a
// paragraph introduces.
func (c *composer) pastScope(li int, lead sent, size int, covered uint64) (int, sent, int, uint64) {
	if !scopeOnly(lead.text) || li+1 >= len(c.sents) {
		return li, lead, size, covered
	}
	next := &c.sents[li+1]
	if next.rec != lead.rec {
		return li, lead, size, covered
	}
	same := c.together(&lead, next)
	after := next.block == lead.block+1 && next.pos == 0 && next.kind == chunk.Paragraph && (lead.kind == chunk.List || c.lastOf(&lead))
	if !same && !after || size+2+len(next.text) > c.maxBytes {
		return li, lead, size, covered
	}
	sep := " "
	if !same {
		sep = "\n\n"
	}
	c.add(sep+next.text, next.rec)
	return li + 1, *next, size + len(sep) + len(next.text), covered | next.mask
}

// leaningOn goes on from the lead to the sentences after it in its
// paragraph or list item that lean on it ("This prevents the title from
// appearing in a page's table of contents."): what the lead was read
// for, when readFrom started it a sentence earlier.
func (c *composer) leaningOn(li int, lead sent, size int, covered uint64) (int, sent, int, uint64) {
	for li+1 < len(c.sents) {
		next := &c.sents[li+1]
		if !c.together(&lead, next) || !leans(next.text) || size+1+len(next.text) > c.maxBytes {
			break
		}
		c.add(" "+next.text, next.rec)
		li, lead, size, covered = li+1, *next, size+1+len(next.text), covered|next.mask
	}
	return li, lead, size, covered
}

// scopeOnly: s only says when what follows applies ("Applies if your
// project has YAML with unquoted `yes` …"); alone it answers nothing.
func scopeOnly(s string) bool {
	l := strings.ToLower(s)
	if strings.Contains(l, ": ") || strings.HasSuffix(l, ":") {
		return false // what to do follows in the sentence itself
	}
	for _, p := range [...]string{"applies if ", "applies to ", "applies when ", "applies only ", "this applies ", "only applies ", "only needed if ", "needed only if "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// together: sentences a and b, a before b, are of one paragraph, or of
// one item of a list.
func (c *composer) together(a, b *sent) bool {
	if a.rec != b.rec || a.block != b.block {
		return false
	}
	if a.kind != chunk.List {
		return true
	}
	for _, line := range strings.Split(c.pkg.Records[a.rec].Blocks[a.block].Text, "\n") {
		if i := strings.Index(line, a.text); i >= 0 {
			return strings.Contains(line[i+len(a.text):], b.text)
		}
	}
	return false
}

// goOn writes the sentences that follow the lead in its block while they
// add to the answer and fit, and returns the last one written as the
// lead, with the answer's size and the question terms it covers.
func (c *composer) goOn(li int, lead sent, size int, covered uint64) (sent, int, uint64) {
	// The sentences that follow the lead in its block, while they add to
	// the answer and fit: the rest of a definition, the fix after a cause.
	if lead.kind != chunk.Table && lead.kind != chunk.List && lead.kind != chunk.Code && !strings.HasSuffix(lead.text, ":") {
		for i := li + 1; i < len(c.sents); i++ {
			s := &c.sents[i]
			// A definition goes on into the next paragraph of its
			// section while it is short: what the thing is, then what
			// it holds or does.
			// A why goes on into a paragraph that gives the cause of what
			// the lead describes ("This is because rclone can't find out
			// the size …"), or, while the answer is short, into one that
			// says how to avoid it ("If you want to avoid ever hitting
			// these limits, you may use the --tpslimit flag …").
			next := s.block == lead.block+1 && s.pos == 0 && s.kind == chunk.Paragraph &&
				(size < 300 && (c.sh == shapeDefine || c.sh == shapeHowto && !imperative[firstWord(lead.text)] && directs(s.text)) ||
					c.sh == shapeWhy && (causal(s.text) || size < 300 && remedy(s.text)))
			if s.rec != lead.rec || s.block != lead.block && !next || strings.HasSuffix(s.text, ":") && !c.introducesCode(s) && !c.introducesList(s) {
				break
			}
			sep := " "
			if s.block != lead.block {
				sep = "\n\n"
			}
			if size+1+len(s.text) > c.maxBytes || closingLike(s.text) {
				break
			}
			if strings.HasSuffix(s.text, ":") && (c.sh == shapeWhy || c.sh == shapeCompare) && !c.introducesList(s) {
				break // it introduces code this answer does not quote
			}
			// A how-to goes on while the sentence adds a question word or
			// says what to do, or while the answer is a short line yet.
			if c.sh == shapeHowto && s.mask&^covered == 0 && !imperative[firstWord(s.text)] && (size >= 200 || s.score <= 0) {
				break
			}
			if c.sh == shapeError && s.mask&^covered == 0 && !fixLike(s.text) && size > 200 {
				break
			}
			c.add(sep+s.text, s.rec)
			size += len(sep) + len(s.text)
			covered |= s.mask
			lead = *s
			if strings.HasSuffix(s.text, ":") {
				break
			}
		}
	}
	return lead, size, covered
}

// openingGoesOn continues a short answer from a page's opening: with the
// list of the section whose heading is only words asked, which ends the
// answer (done), or, for a how-to, with its first section's opening
// paragraph.
func (c *composer) openingGoesOn(lead sent, size int, covered uint64) (sent, int, uint64, bool) {
	// A short answer from a page's opening goes on with the list of its
	// page's section whose own heading is only words asked: the
	// specifics behind it (a yes-or-no question: "The widget is meant to
	// be usable with a keyboard alone …" then "Keyboard": Tab reaches …,
	// Enter submits …; "what does the sidecar measure": "The sidecar
	// measures enough to establish a baseline …" then "What is
	// measured": time to the first event …).
	if r := &c.pkg.Records[lead.rec]; c.sh != shapeError && r.Anchor == "" && size < 200 {
		for ri := range c.pkg.Records {
			n := &c.pkg.Records[ri]
			if ri == lead.rec || n.URL != r.URL || n.Anchor == "" || len(n.Blocks) == 0 || n.Blocks[0].Kind != chunk.List ||
				!c.allAsked(n.Headings[len(n.Headings)-1]) {
				continue
			}
			if c.quoteList(ri, 0, &size) {
				c.seeAlso(lead.rec)
				return lead, size, covered, true
			}
			break
		}
	}
	// A short how-to answer from a page's opening goes on with its first
	// section's opening paragraph, which usually says how ("Declare
	// those in data files." then "Any file under data/askplane/ is
	// read: …").
	// So does a one-line definition of what a section is named for
	// ("Serve any remote on docker's volume plugin API." then what the
	// command does, in its synopsis).
	if r := &c.pkg.Records[lead.rec]; (c.sh == shapeHowto && r.Anchor == "" && size < 200 || c.sh == shapeDefine && c.restated[lead.rec] && size < 100) && lead.kind == chunk.Paragraph && c.lastOf(&lead) && !c.introducesCode(&lead) && !c.introducesList(&lead) {
		if ri := c.following(lead.rec); ri >= 0 && len(c.pkg.Records[ri].Blocks) > 0 && c.pkg.Records[ri].Blocks[0].Kind == chunk.Paragraph {
			for i := range c.sents {
				t := &c.sents[i]
				if t.rec != ri || t.block != 0 {
					continue
				}
				if size+2+len(t.text) > c.maxBytes || closingLike(t.text) {
					break
				}
				sep := " "
				if t.pos == 0 {
					sep = "\n\n"
				}
				c.add(sep+t.text, ri)
				size += len(sep) + len(t.text)
				covered |= t.mask
				lead = *t
			}
		}
	}
	return lead, size, covered, false
}

// leadCode is the code block an answer led by lead quotes: the block the
// lead introduces, else the best-matching code block of the lead's
// section, else of another section of its page with a question term in
// its code or headings; block -1 when none.
func (c *composer) leadCode(lead *sent) (rec, block int) {
	codeRec, code := lead.rec, -1
	if c.introducesCode(lead) && strings.HasSuffix(lead.text, ":") {
		code = c.codeAfter(lead.rec, lead.block)
	} else {
		best := 0
		for ri := range c.pkg.Records {
			if ri != lead.rec && c.pkg.Records[ri].URL != c.pkg.Records[lead.rec].URL {
				continue
			}
			if ri != lead.rec && (c.sh == shapeDefine || c.sh == shapeCompare || code >= 0 && codeRec == lead.rec) {
				continue
			}
			rbs := c.pkg.Records[ri].Blocks
			for bi, b := range rbs {
				if b.Kind != chunk.Code || len(b.Text) > maxComposeCode || c.sh == shapeError && c.echoes(b.Text) {
					continue
				}
				if c.sh == shapeDefine && (ri != lead.rec || bi != lead.block+1) {
					continue // a definition quotes only the example right after it
				}
				m := c.mask(b.Text)
				if bi > 0 && rbs[bi-1].Kind != chunk.Code {
					m |= c.mask(rbs[bi-1].Text)
				}
				if ri != lead.rec && m&c.excluded != 0 {
					continue // another section's example of what the question sets aside
				}
				if ri == lead.rec {
					m |= c.heads[ri]
				} else if h := c.pkg.Records[ri].Headings; len(h) > 0 {
					m |= c.mask(h[len(h)-1])
				}
				n := bits.OnesCount64(m) * 2
				switch {
				case ri == lead.rec:
					n += 2
				case c.pkg.Records[lead.rec].Anchor == "" && c.pkg.Records[ri].Order == c.pkg.Records[lead.rec].Order+1:
					// A page's intro is followed by its first section,
					// which usually holds the page's first command: it
					// weighs more than one more word of the question.
					n += 3
				case c.pkg.Records[lead.rec].Anchor != "" && m&c.own[lead.rec] != c.own[lead.rec]:
					// Nor is it about another thing than the lead's
					// section ("iframe": not the card shortcode's code,
					// though both name a shortcode's parameters).
					continue
				case bits.OnesCount64(m) < min(2, bits.OnesCount64(c.all)):
					// Another section's code must earn its place with
					// its own words, not the page title they share.
					continue
				}
				if ri == lead.rec && bi == lead.block+1 {
					n++ // right after the lead
				}
				if n > best {
					best, codeRec, code = n, ri, bi
				}
			}
		}
	}
	return codeRec, code
}

// quoteCode writes block code of codeRec after the answer led by lead:
// with its own introduction when the lead does not introduce it, a
// second short block right after it, and the first sentence after the
// code while it still speaks to the question (terms not yet covered).
func (c *composer) quoteCode(lead *sent, codeRec, code, size int, covered uint64) {
	cbs := c.pkg.Records[codeRec].Blocks
	// Code the lead does not introduce keeps its own introduction.
	if codeRec != lead.rec || code != c.codeAfter(lead.rec, lead.block) || !strings.HasSuffix(lead.text, ":") {
		intro := -1
		for i := range c.sents {
			s := &c.sents[i]
			if s.rec != codeRec || c.codeAfter(s.rec, s.block) != code || !c.lastOf(s) || c.said(s.text) || size+2+len(s.text) > c.maxBytes+200 {
				continue
			}
			// Its introduction ("… as follows:"), or, for another
			// section's code, the instruction before it ("Add the
			// parameter `hide_feedback` to the page's front matter
			// and set it to `true`.").
			if strings.HasSuffix(s.text, ":") || codeRec != lead.rec && directs(s.text) {
				intro = i
				break
			}
		}
		if intro >= 0 {
			s := &c.sents[intro]
			c.add("\n\n"+s.text, s.rec)
			size += 2 + len(s.text)
		} else if h := c.pkg.Records[codeRec].Headings; codeRec != lead.rec && len(h) > 0 && fileName(h[len(h)-1]) {
			// A section named for the file its code is ("netlify.toml")
			// says so by its heading.
			c.add("\n\n`"+h[len(h)-1]+"`:", codeRec)
		}
	}
	c.add("\n\n"+fence(cbs[code]), codeRec)
	end := code + 1
	if end < len(cbs) && cbs[end].Kind == chunk.Code && len(cbs[end].Text) <= maxComposeCode/2 {
		c.add("\n\n"+fence(cbs[end]), codeRec)
		end++
	}
	// The first sentence after the code, when it still speaks to the
	// question.
	for i := range c.sents {
		s := &c.sents[i]
		if s.rec != codeRec || s.block != end || s.pos != 0 || !(s.mask&^covered != 0 && s.score > 0 || c.entry) || size+2+len(s.text) > c.maxBytes || c.said(s.text) {
			continue
		}
		if !strings.HasSuffix(s.text, ":") {
			c.add("\n\n"+s.text, s.rec)
			break
		}
		// "To fix this, install …, then rebuild:" and its list, when
		// the sentence is all its paragraph and the list fits.
		if c.introducesList(s) {
			n, sz := len(c.out.deltas), size+2+len(s.text)
			c.add("\n\n"+s.text, s.rec)
			if !c.quoteList(s.rec, s.block+1, &sz) {
				c.out.deltas, c.out.size = c.out.deltas[:n], c.out.size-2-len(s.text)
			}
		}
		break
	}
}

// remedy: s opens by saying how to avoid or get past what came before
// ("If you want to avoid …", "To work around this, …", "The fix is …").
func remedy(s string) bool {
	l := strings.ToLower(s)
	for _, p := range []string{"if you want to avoid ", "to avoid ", "to prevent ", "to work around ", "to get around ", "to fix ", "to stop this", "to solve ", "you can avoid ", "you can prevent ", "you can work around ", "the workaround ", "a workaround ", "the fix ", "the solution ", "one solution "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// causal: s opens by giving the cause of what came before ("This is
// because …", "The reason is …").
func causal(s string) bool {
	l := strings.ToLower(s)
	if strings.HasPrefix(l, "because of this") || strings.HasPrefix(l, "because of that") {
		return false // a consequence of what came before, not its cause
	}
	for _, p := range []string{"this is because ", "that is because ", "this happens because ", "this is due to ", "the reason ", "because "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// inParagraph is support sentence i with what it needs of its
// paragraph, within room more bytes (room is what is left after): read
// from the paragraph's start when that fits (withOpening), and on with
// the sentences after it that lean on it ("For example, …", "This can
// be achieved by creating …") and are not picked themselves.
func (c *composer) inParagraph(i int, picked []int, room *int) string {
	s := &c.sents[i]
	text := s.text
	if t := c.withOpening(i); len(t)-len(text) <= *room {
		*room -= len(t) - len(text)
		text = t
	}
	for j := i + 1; j < len(c.sents) && c.sents[j].rec == s.rec && c.sents[j].block == s.block && c.sents[j].pos == c.sents[j-1].pos+1; j++ {
		n := &c.sents[j]
		if !leans(n.text) || 1+len(n.text) > *room || c.said(n.text) || slices.Contains(picked, j) {
			break
		}
		text += " " + n.text
		*room -= 1 + len(n.text)
	}
	return text
}

// withOpening is support sentence i read from the start of its short
// paragraph when what comes before it there is not quoted yet: "If you
// want local time then add the `--localtime` flag." goes with "Note that
// value of `--timestamp` is in UTC.", which says what it is local
// rather than.
func (c *composer) withOpening(i int) string {
	s := &c.sents[i]
	bs := c.pkg.Records[s.rec].Blocks
	if s.pos == 0 || s.block >= len(bs) || bs[s.block].Kind != chunk.Paragraph || len(bs[s.block].Text) > maxSupportBytes {
		return s.text // a package decoded from JSON has excerpts, not blocks
	}
	var before []string
	for j := i - 1; j >= 0 && c.sents[j].rec == s.rec && c.sents[j].block == s.block; j-- {
		if c.said(c.sents[j].text) {
			return s.text
		}
		before = append(before, c.sents[j].text)
	}
	if len(before) != s.pos {
		return s.text // a sentence of the paragraph is not quotable
	}
	slices.Reverse(before)
	return strings.Join(append(before, s.text), " ")
}
