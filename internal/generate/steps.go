package generate

import (
	"math/bits"
	"strings"

	"github.com/askplane/askplane/internal/chunk"
	"github.com/askplane/askplane/internal/evidence"
)

// A guide written as one numbered list (which the chunker splits at the
// code between its items) is answered by its steps: each step's first
// sentence, numbered in reading order, with the code that follows it.

// step is one numbered item of a record's ordered lists.
type step struct {
	text   string
	code   int      // the code block that follows the step, -1 when none
	nested []string // its sub-items, each as listItem has it
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

// numberedAfter: a list of rec after block bi goes on with item n ("3.
// Before you trust this command …").
func (c *composer) numberedAfter(rec, bi, n int) bool {
	want := itoa(n) + ". "
	for _, b := range c.pkg.Records[rec].Blocks[bi+1:] {
		if b.Kind != chunk.List {
			continue
		}
		for _, line := range strings.Split(b.Text, "\n") {
			if strings.HasPrefix(strings.TrimLeft(line, " "), want) {
				return true
			}
		}
	}
	return false
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
				} else if n := len(out); n > 0 && strings.HasPrefix(line, " ") {
					out[n-1].nested = append(out[n-1].nested, strings.TrimSpace(listItem(line)))
				}
			}
		case b.Kind == chunk.Code:
			if n := len(out); n > 0 && out[n-1].code < 0 && len(b.Text) <= maxComposeCode {
				out[n-1].code = bi
			}
		case tabLabel(b):
			// "hugo.toml" above one of a step's code tabs
		case b.Kind == chunk.Note && len(out) > 0 && c.numberedAfter(rec, bi, len(out)+1):
			// a note inside a step ("NOTE: If you're porting …"), the
			// guide going on with its next number after it
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

// guideLead is, for a question asking for the steps, the first step of
// the package's numbered guide whose own heading holds more of the
// question's words than the lead's does ("Patch release workflow" for
// "steps for a docsy patch release", over "Publishing a release"); the
// lead itself when there is none.
func (c *composer) guideLead(li int) int {
	if c.sh != shapeHowto || !c.stepsAsked {
		return li
	}
	best, most := li, bits.OnesCount64(c.own[c.sents[li].rec])
	for ri := range c.pkg.Records {
		if ri == c.sents[li].rec {
			continue
		}
		all, start := c.steps(ri, 3)
		if all == nil || bits.OnesCount64(c.own[ri]) <= most {
			continue
		}
		for i := range c.sents {
			if t := &c.sents[i]; t.rec == ri && t.block == start && t.kind == chunk.List {
				best, most = i, bits.OnesCount64(c.own[ri])
				break
			}
		}
	}
	return best
}

// detail is, for a how-to the lead would answer with a whole guide
// (its record is a numbered guide) but which does not ask for the steps,
// the sentence of that record outside its steps holding two or more of
// the question's words that neither the lead nor its headings hold
// ("… the `--force` option (which forces upload of all files)" for
// "hugo deploy only uploads changed files, how do I force it to upload
// everything"): a question about an aside of a guide gets that aside,
// not the guide from its start; -1 when no sentence does.
func (c *composer) detail(li int) int {
	s := &c.sents[li]
	if c.sh != shapeHowto || c.stepsAsked {
		return -1
	}
	if all, _ := c.steps(s.rec, 3); all == nil {
		return -1
	}
	rest := c.all &^ (s.mask | s.heads)
	best, most := -1, 1
	for i := range c.sents {
		t := &c.sents[i]
		if t.rec != s.rec || i == li || t.kind == chunk.List || t.score <= 0 || strings.HasSuffix(t.text, "?") {
			continue // a step itself is answered by the guide
		}
		if k := bits.OnesCount64(t.mask & rest); k > most {
			best, most = i, k
		}
	}
	return best
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
	if s.kind != chunk.List && !c.stepsAsked && s.block >= start {
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
// sep goes before the first. A reader who asked for the steps gets the
// whole guide, up to maxAskedSteps in twice the prose budget: the sixth
// of eleven steps is where a guide cut short leaves them stranded. A
// guide still cut says how many steps the page goes on with.
func (c *composer) writeSteps(rec int, all []step, sep string) {
	most, budget := maxSteps, c.maxBytes
	if c.stepsAsked {
		most, budget = maxAskedSteps, 2*c.maxBytes
	}
	prose, code, n, fenced, left := 0, 0, 0, false, 0
	for _, st := range all {
		first := stepLine(st.text)
		if closingLike(first) || !quotable(first) {
			continue
		}
		if n == most || prose > budget {
			left++
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
		if sub := c.subStep(st, first); sub != "" && prose+len(sub) <= c.maxBytes {
			c.add("\n   - "+sub, rec)
			prose += len(sub) + 6
		}
		if st.code >= 0 {
			b := c.pkg.Records[rec].Blocks[st.code]
			if code+len(b.Text) <= maxComposeCode && !c.quotedCode(b.Text) {
				c.add("\n\n"+fence(b), rec)
				code += len(b.Text)
				fenced = true
			}
		}
	}
	if left == 0 {
		return
	}
	if last := &c.out.deltas[len(c.out.deltas)-1]; strings.HasSuffix(last.Delta, ":") {
		// The last step quoted announces what the answer leaves out: the
		// page goes on from it.
		c.out.size -= len(last.Delta)
		c.out.deltas = c.out.deltas[:len(c.out.deltas)-1]
		n, left = n-1, left+1
	}
	c.add("\n\n"+moreSteps(n, left), rec)
}

// moreSteps tells a reader that a guide goes on past the n steps quoted
// ("Steps 6 to 11 are on the page."), so the answer does not read as the
// whole of it.
func moreSteps(n, left int) string {
	if left == 1 {
		return "Step " + itoa(n+1) + " is on the page."
	}
	if left == 2 {
		return "Steps " + itoa(n+1) + " and " + itoa(n+2) + " are on the page."
	}
	return "Steps " + itoa(n+1) + " to " + itoa(n+left) + " are on the page."
}

// subStep is, for a step that introduces sub-steps ("In the Deploy
// settings page:"), the one of them that speaks to what the question
// asks beyond the steps' page (the build command "If you are using
// Docsy as a Git submodule, …" for "deploy … when the theme is a git
// submodule"), to its first sentence; "" when none does.
func (c *composer) subStep(st step, line string) string {
	if !strings.HasSuffix(line, ":") {
		return ""
	}
	// What it speaks to: question words the answer does not hold yet, nor
	// any other sub-step, nor a verb of no meaning.
	said := c.mask(c.out.prose())
	for v := range vague {
		said |= c.mask(v)
	}
	masks := make([]uint64, len(st.nested))
	for i, n := range st.nested {
		masks[i] = c.mask(n)
	}
	best, most := "", 0
	for i, n := range st.nested {
		var others uint64
		for j, m := range masks {
			if j != i {
				others |= m
			}
		}
		if k := bits.OnesCount64(masks[i] &^ said &^ others); k > most && n != "" && quotable(n) {
			best, most = n, k
		}
	}
	if ss := sentences(best); len(ss) > 0 && len(ss[0]) <= maxSupportBytes {
		return ss[0]
	}
	return ""
}

// afterSteps answers with a lead that names steps of the numbered list
// just before it ("Steps 3 and 5 fail with DETERMINISTIC_HASH_MISMATCH"),
// or points back at the list or table ("A body that breaks any of these
// is rejected …"), by the list's introduction, the list, then the lead:
// without them, "step 3" or "these" tell a reader nothing. False when
// the lead does neither or the list is too long to quote whole.
func (c *composer) afterSteps(li int) bool {
	l := &c.sents[li]
	if !c.pointsBack(l) {
		return false
	}
	before := c.out
	size := 0
	if l.block >= 2 {
		for i := li - 1; i >= 0 && c.sents[i].rec == l.rec && c.sents[i].block >= l.block-2; i-- {
			if t := &c.sents[i]; t.block == l.block-2 && t.kind == chunk.Paragraph && strings.HasSuffix(t.text, ":") {
				c.add(t.text, t.rec)
				size = len(t.text)
				break
			}
		}
	}
	if !c.quoteList(l.rec, l.block-1, &size) {
		c.out = before // a list too long to quote: the lead alone
		return false
	}
	c.leadBlock = l.block - 1
	c.add("\n\n"+l.text, l.rec)
	return true
}

// earlierStep quotes, before a how-to's lead, the instruction that the
// lead's step follows: a section of two instructions, each with its
// code ("To create a doc-rooted site, redefine the permalinks as
// follows:" then "Add the following front matter to each site root
// index file:"), is answered by both in order, not by the second alone.
// The earlier instruction's code comes right before the lead (an
// instruction further back is another task of the section), it names a
// word of the question and it opens with what to do ("To …", "Add …").
func (c *composer) earlierStep(li int) {
	l := &c.sents[li]
	if c.sh != shapeHowto || l.kind != chunk.Paragraph {
		return
	}
	if next := li + 1; !c.instruction(l) && !(next < len(c.sents) && c.sents[next].rec == l.rec && c.sents[next].block <= l.block+1 && c.instruction(&c.sents[next])) {
		return // the lead is no step of a guide
	}
	for i := range c.sents {
		t := &c.sents[i]
		if t.rec != l.rec || t.block >= l.block-1 || t.mask == 0 || !c.instruction(t) {
			continue
		}
		k := c.codeAfter(t.rec, t.block)
		if k != l.block-1 {
			continue // its code is not right before the lead: another task of the section
		}
		if c.out.size+len(t.text)+len(c.pkg.Records[t.rec].Blocks[k].Text) > c.maxBytes {
			return
		}
		c.add(t.text, t.rec)
		c.add("\n\n"+fence(c.pkg.Records[t.rec].Blocks[k])+"\n\n", t.rec)
		return
	}
}

// instruction: s says what to do ("Add …", "To pin it, specify …",
// "After updating the theme, tidy …") and introduces the code that does
// it.
func (c *composer) instruction(s *sent) bool {
	if !strings.HasSuffix(s.text, ":") || !c.introducesCode(s) {
		return false
	}
	if directs(s.text) {
		return true
	}
	_, main, ok := strings.Cut(factsOf(s.text).lower, ", ")
	return ok && imperative[firstWord(main)]
}

// pointsBack: s opens the paragraph right after a list or table in its
// record and speaks of it ("Steps 3 and 5 fail …" after a numbered list,
// "any of these" after a table), so it answers with it.
func (c *composer) pointsBack(s *sent) bool {
	if s.pos != 0 || s.kind != chunk.Paragraph || s.block < 1 || s.rec >= len(c.pkg.Records) {
		return false
	}
	switch prev := c.pkg.Records[s.rec].Blocks[s.block-1]; {
	case prev.Kind == chunk.List && strings.HasPrefix(prev.Text, "1.") && namesStep(s.text):
		return true
	case prev.Kind == chunk.List || prev.Kind == chunk.Table:
		return factsOf(s.text).anaphoric
	}
	return false
}

// namesStep: s speaks of numbered steps ("Steps 3 and 5 fail …", "In
// step 2, …").
func namesStep(s string) bool {
	l := strings.ToLower(s)
	for _, p := range []string{"step ", "steps "} {
		for i := strings.Index(l, p); i >= 0; {
			if j := i + len(p); j < len(l) && l[j] >= '1' && l[j] <= '9' && (i == 0 || l[i-1] == ' ') {
				return true
			}
			k := strings.Index(l[i+1:], p)
			if k < 0 {
				break
			}
			i += 1 + k
		}
	}
	return false
}

// itemCodes writes the run of one-item lists each followed by its code
// that starts at block of rec ("- Move `_markup` one level up:" then
// "layouts/_default/_markup/ → layouts/_markup/", …): a guide written as
// bullets, each with what it does. False, having written nothing, when
// there are fewer than two such pairs or they do not fit.
func (c *composer) itemCodes(rec, block int) bool {
	bs := c.pkg.Records[rec].Blocks
	var pairs [][2]int
	size := c.out.size
	for bi := block; bi+1 < len(bs); bi += 2 {
		item, code := bs[bi], bs[bi+1]
		if item.Kind != chunk.List || code.Kind != chunk.Code || strings.Count(strings.TrimSpace(item.Text), "\n") > 0 {
			break
		}
		size += len(item.Text) + len(code.Text) + 12
		if size > c.maxBytes+maxComposeCode || !quotable(listItem(item.Text)) {
			break
		}
		pairs = append(pairs, [2]int{bi, bi + 1})
	}
	if len(pairs) < 2 {
		return false
	}
	for _, p := range pairs {
		c.add("\n\n- "+strings.TrimSpace(listItem(bs[p[0]].Text))+"\n\n"+fence(bs[p[1]]), rec)
	}
	return true
}
