package generate

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/askplane/askplane/internal/chunk"
	"github.com/askplane/askplane/internal/evidence"
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

// headingKind says what a sibling heading's first word makes it; with
// steps (the question asks for them), a heading saying what to do as an
// -ing word is a step too.
func headingKind(h string, steps bool) sectionKind {
	w := firstWord(h)
	switch {
	case choiceWords[w]:
		return choiceSections
	case imperative[w] || steps && gerund(w) || w == "step" || strings.Trim(w, "0123456789.)") == "" && w != "":
		return stepSections
	}
	return plainSections
}

// gerund: w is what to do said as an -ing word ("Setting up site
// search", "Adding the search page"), as guides title their steps too,
// and as docs title topics ("Customizing the example site pages"): only
// a question asking for steps reads such headings as steps.
func gerund(w string) bool {
	base, ok := strings.CutSuffix(w, "ing")
	return ok && len(base) > 1 && (imperative[base] || imperative[base+"e"] || imperative[undouble(base)])
}

// section is one of a run of sibling sections: a record of the package
// (rec ≥ 0), or a section of the same page the package does not hold
// (rec -1), known by its heading only.
type section struct {
	rec     int
	heading string
}

// siblings is the sections of rec's page at rec's level under the same
// parent (rec included), in reading order: from the page's records when
// the package carries them, else from the package's own records. nil
// when rec is not a section.
func (c *composer) siblings(rec int) []section {
	a := &c.pkg.Records[rec]
	n := len(a.Headings)
	if a.Anchor == "" || n < 2 {
		return nil
	}
	same := func(anchor string, h []string) bool {
		return anchor != "" && len(h) == n && slices.Equal(h[:n-1], a.Headings[:n-1])
	}
	inPkg := func(url, anchor string) int {
		for ri := range c.pkg.Records {
			if r := &c.pkg.Records[ri]; r.URL == url && r.Anchor == anchor {
				return ri
			}
		}
		return -1
	}
	var out []section
	if a.Page != nil {
		for i := range a.Page {
			if r := &a.Page[i]; same(r.Anchor, r.Headings) {
				out = append(out, section{rec: inPkg(r.URL, r.Anchor), heading: r.Headings[n-1]})
			}
		}
		return out
	}
	var recs []int
	for ri := range c.pkg.Records {
		if r := &c.pkg.Records[ri]; r.URL == a.URL && same(r.Anchor, r.Headings) {
			recs = append(recs, ri)
		}
	}
	slices.SortStableFunc(recs, func(x, y int) int { return c.pkg.Records[x].Order - c.pkg.Records[y].Order })
	for _, ri := range recs {
		out = append(out, section{rec: ri, heading: c.pkg.Records[ri].Headings[n-1]})
	}
	return out
}

// group finds sibling sections answering the question together: the
// sections (at least two) of the best-matching page under one parent,
// every heading of one kind (steps or choices), the question's words
// found in their parent (the page title, the parent heading) and none
// singling out one section, or a question asking for the steps. It
// returns them in reading order, their parent's name and their kind.
func (c *composer) group() ([]section, string, sectionKind) {
	ways := waysAsked(strings.ToLower(c.question))
	if c.sh != shapeHowto && !ways {
		return nil, "", plainSections
	}
	steps := c.stepsAsked
	for ri := range min(2, len(c.pkg.Records)) {
		sib := c.siblings(ri)
		if len(sib) < 2 {
			continue
		}
		r := &c.pkg.Records[ri]
		n := len(r.Headings)
		parent := c.mask(r.Title)
		for _, h := range r.Headings[:n-1] {
			parent |= c.mask(h)
		}
		if parent == 0 && !steps {
			continue
		}
		kind := headingKind(sib[0].heading, steps)
		// "what are the ways to install rclone on windows": the sections
		// under "Windows installation" are the ways, whatever their
		// headings say ("Chocolatey package manager").
		forced := ways && !steps && n >= 2 && c.parentAsked(r.Headings[n-2])
		if forced {
			kind = choiceSections
		}
		own := make([]uint64, len(sib))
		for i, x := range sib {
			if !forced && headingKind(x.heading, steps) != kind {
				kind = plainSections
			}
			// The heading's first word is what the step does ("Add the
			// widget"): a question doing the same does not single it out.
			_, rest, _ := strings.Cut(x.heading, " ")
			own[i] = c.mask(rest)
		}
		if kind == plainSections || steps && kind != stepSections {
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
		if picked && !steps {
			continue
		}
		// Nor do sections none of whose headings holds what the question
		// asks beyond their parent ("add an inline image" under "Logos
		// and Images": not "Add your logo", "Use icons", "Add your
		// favicons"): the question asks for something else.
		var heads uint64
		for _, o := range own {
			heads |= o
		}
		if rest := c.all &^ parent &^ c.verb; !steps && kind == stepSections && rest != 0 && heads&rest == 0 {
			continue
		}
		name := r.Title
		if n > 2 {
			name = r.Headings[n-2]
		}
		if kind == stepSections && c.polarity >= 0 {
			sib = undoing(sib) // "Disabling GCSE search" is no step of setting it up
		}
		return sib, name, kind
	}
	return nil, "", plainSections
}

// undoing is steps without those that undo what the others do (a
// heading that disables, removes or uninstalls), while two or more stay.
func undoing(sib []section) []section {
	var kept []section
	for _, x := range sib {
		if direction(strings.ToLower(x.heading)) >= 0 {
			kept = append(kept, x)
		}
	}
	if len(kept) < 2 {
		return sib
	}
	return kept
}

// sectionLine is a section's line in a list: its heading and its first
// sentence that says something on its own, if short.
func (c *composer) sectionLine(rec int) string {
	r := &c.pkg.Records[rec]
	line := unnumbered(r.Headings[len(r.Headings)-1])
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

// unnumbered is a step's heading without the number it carries ("1.
// Image fingerprints", "Step 2: Build"), as the answer numbers steps
// itself.
func unnumbered(h string) string {
	t := h
	if r, ok := strings.CutPrefix(t, "Step "); ok {
		t = r
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 || i+1 >= len(t) || !strings.ContainsRune(".):", rune(t[i])) || t[i+1] != ' ' {
		return h // no number, or one that is part of the heading ("3.5 GB limit")
	}
	if r := strings.TrimLeft(t[i+1:], " "); r != "" {
		return r
	}
	return h
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
		if i := c.lastIn(rec, bi-1); i >= 0 && strings.HasSuffix(c.sents[i].text, ":") {
			intro = c.sents[i].text
		}
		return bi, intro
	}
	return -1, ""
}

// alternatives composes "several ways" answers: one line saying there
// are several, the options in reading order (with the first sentence of
// each the package holds), then the first held option's command.
func (c *composer) alternatives(sib []section, parent string) {
	sib = sib[:min(len(sib), maxChoices)]
	first := firstHeld(sib)
	c.add("There are "+count(len(sib))+" ways ("+parent+"):", first)
	for _, x := range sib {
		if x.rec < 0 {
			c.add("\n- "+x.heading, first)
			continue
		}
		c.add("\n- "+c.sectionLine(x.rec), x.rec)
	}
	c.codeOf(first)
}

// sections answers a question asking for the list of a page's parts
// ("list of validation errors") when the engine's first record is a
// section of the page whose title names what is asked: the page's
// sections at that level, in reading order, each with its first
// sentence when the package holds it. False, having written nothing,
// otherwise.
func (c *composer) sections() bool {
	l := strings.ToLower(strings.TrimSpace(c.question))
	if !strings.HasPrefix(l, "list of ") && !strings.HasPrefix(l, "list all ") && !strings.HasPrefix(l, "list the ") {
		return false
	}
	r := &c.pkg.Records[0]
	title := c.mask(r.Title)
	sib := c.siblings(0)
	if len(sib) < 3 || 2*bits.OnesCount64(title) < bits.OnesCount64(c.all) {
		return false
	}
	n := len(sib)
	sib = sib[:min(n, 2*maxChoices)]
	c.add(r.Title+" has "+count(n)+" sections:", 0)
	for _, x := range sib {
		line := x.heading
		if x.rec >= 0 && c.out.size < c.maxBytes {
			line = c.sectionLine(x.rec) // with its first sentence, while the answer is short
		}
		rec := max(x.rec, 0)
		c.add("\n- "+line, rec)
	}
	return true
}

// procedure composes step-by-step answers: the page's opening when the
// package holds it and it speaks to the question, then the steps
// numbered in reading order (each the package holds with its first
// sentence), then the held steps' commands, in order, within one code
// budget.
func (c *composer) procedure(sib []section, parent string) {
	sib = sib[:min(len(sib), maxSteps)]
	first := firstHeld(sib)
	url := c.pkg.Records[first].URL
	for ri := range c.pkg.Records {
		p := &c.pkg.Records[ri]
		if p.URL == url && p.Anchor == "" {
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
	c.add("The steps ("+parent+"):", first)
	for i, x := range sib {
		if x.rec < 0 {
			c.add("\n"+itoa(i+1)+". "+unnumbered(x.heading), first)
			continue
		}
		c.add("\n"+itoa(i+1)+". "+c.sectionLine(x.rec), x.rec)
	}
	// The commands of the steps the package holds, in order, while they
	// fit one code budget: a guide is mostly its commands.
	code := 0
	for _, x := range sib {
		if x.rec < 0 {
			continue
		}
		if bi, _ := c.firstCode(x.rec); bi < 0 || code > 0 && code+len(c.pkg.Records[x.rec].Blocks[bi].Text) > maxComposeCode {
			continue
		}
		code += c.codeOf(x.rec)
	}
}

// firstHeld is the first section the package holds.
func firstHeld(sib []section) int {
	for _, x := range sib {
		if x.rec >= 0 {
			return x.rec
		}
	}
	return 0
}

// codeOf quotes a section's first command, introduced by its heading.
// It returns the code's length, 0 when the section has none.
func (c *composer) codeOf(rec int) int {
	bi, intro := c.firstCode(rec)
	if bi < 0 {
		return 0
	}
	r := &c.pkg.Records[rec]
	if c.quotedCode(r.Blocks[bi].Text) {
		return 0 // a sibling step with the very same command
	}
	if intro == "" {
		intro = r.Headings[len(r.Headings)-1] + ":"
		// A label naming the file the code goes in
		// ("layouts/_markup/render-passthrough.html") says where.
		if t := strings.TrimSpace(strings.TrimSuffix(r.Blocks[max(bi-1, 0)].Text, ":")); bi > 0 && r.Blocks[bi-1].Kind == chunk.Paragraph && filePath(t) {
			intro = r.Headings[len(r.Headings)-1] + ", `" + t + "`:"
		}
	}
	c.add("\n\n"+intro+"\n\n"+fence(r.Blocks[bi]), rec)
	n := len(r.Blocks[bi].Text)
	if bi+1 < len(r.Blocks) && r.Blocks[bi+1].Kind == chunk.Code && len(r.Blocks[bi+1].Text) <= maxComposeCode/2 && !c.quotedCode(r.Blocks[bi+1].Text) {
		c.add("\n\n"+fence(r.Blocks[bi+1]), rec)
		n += len(r.Blocks[bi+1].Text)
	}
	return n
}

// quotedCode: the answer already quotes this code, ignoring white space.
func (c *composer) quotedCode(code string) bool {
	want := strings.Join(strings.Fields(code), " ")
	for _, ev := range c.out.deltas {
		if fenced(ev.Delta) && strings.Contains(strings.Join(strings.Fields(ev.Delta), " "), want) {
			return true
		}
	}
	return false
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

// errorEntry is the troubleshooting entry for an error question: the
// record among the engine's first three whose own heading names most of
// the question's words (two at least: "duplicate id" of "build error:
// duplicate fact id"), or -1.
func (c *composer) errorEntry() int {
	// Words every error message has do not single out its entry.
	noise := c.mask("error errors failed fails fail failure not found cannot unable invalid build")
	best, bestN := -1, 0
	need := min(2, bits.OnesCount64(c.all&^noise))
	// A question naming the first page's subject by its title
	// ("jottacloud: couldn't fetch token: invalid_grant") is not answered
	// by another page's entry for the same message (OneDrive's
	// invalid_grant).
	first := c.allAsked(c.pkg.Records[0].Title)
	for ri := range min(3, len(c.pkg.Records)) {
		if c.pkg.Records[ri].Anchor == "" || need == 0 {
			continue
		}
		if first && c.pkg.Records[ri].URL != c.pkg.Records[0].URL && !c.allAsked(c.pkg.Records[ri].Title) {
			continue
		}
		// An entry of a troubleshooting page whose heading or quoted
		// message names the question comes first: an aside elsewhere
		// (a blog post) may share more words with it.
		if c.troubleshooting(ri) && (c.own[ri]|c.code[ri])&^noise != 0 {
			return ri
		}
		if n := bits.OnesCount64(c.own[ri] &^ noise); n >= need && n > bestN {
			best, bestN = ri, n
		}
	}
	if best >= 0 && c.outscored(best) {
		// A section sharing the question's words in its heading ("Option
		// 2: using the GitHub UI" for "broken on GitHub Pages") is no
		// troubleshooting entry when a sentence elsewhere answers far
		// better ("When deploying to GitHub Pages your baseURL needs …").
		return -1
	}
	if best >= 0 && c.verbatim != "" && !c.states(best) {
		// An error code asked alone ("DETERMINISTIC_HASH_MISMATCH"):
		// a section whose heading shares its words ("Hash mismatches")
		// gives way to the sentence that says when the code is given.
		for ri := range min(3, len(c.pkg.Records)) {
			if c.states(ri) {
				return -1
			}
		}
	}
	return best
}

// outscored: the best sentence outside rec beats every sentence of rec
// by a wide margin (20).
func (c *composer) outscored(rec int) bool {
	in, out := -1<<30, -1<<30
	for i := range c.sents {
		if s := &c.sents[i]; s.rec == rec {
			in = max(in, s.score)
		} else {
			out = max(out, s.score)
		}
	}
	return out >= in+20
}

// states: a sentence of record rec names the setting, command or code
// asked about verbatim, as what it speaks of rather than as an example.
func (c *composer) states(rec int) bool {
	for i := range c.sents {
		if s := &c.sents[i]; s.rec == rec {
			if p := factsOf(s.text).plain; hasWord(p, c.verbatim) && !mentioned(p, c.verbatim) {
				return true
			}
		}
	}
	return false
}

// troubleshoot answers from a troubleshooting entry: its opening
// paragraph's sentences, the cause and then the fix, up to the bound,
// then its code.
func (c *composer) troubleshoot(rec int) bool {
	first := -1
	for i := range c.sents {
		if s := &c.sents[i]; s.rec == rec && s.kind != chunk.Table && !strings.HasSuffix(s.text, "?") && !(s.kind == chunk.Code && c.echoes(s.text)) {
			first = i
			break
		}
	}
	if first < 0 {
		return false
	}
	// An entry of two messages starts at the sentence naming the one
	// pasted ("`x509: certificate signed by unknown authority` error may
	// occur …", after the other x509 error's sentence).
	for i := first + 1; i < len(c.sents); i++ {
		if s := &c.sents[i]; s.rec == rec && s.kind == chunk.Paragraph && c.echoes(s.text) {
			first = i
			break
		}
	}
	c.entry = true
	if !c.wholeSection(first) {
		c.single(first)
	}
	if k := c.fixSection(rec); k >= 0 {
		c.quoteFix(k)
	}
	return true
}

// fixWords name a section that holds an error's fix.
var fixWords = []string{"workaround", "fix", "solution", "resolution", "remedy", "resolve", "solve"}

// fixSection is the package's record that is a subsection of the entry
// rec named as its fix ("Workaround"), -1 when there is none.
func (c *composer) fixSection(rec int) int {
	r := &c.pkg.Records[rec]
	for ri := range c.pkg.Records {
		k := &c.pkg.Records[ri]
		if ri == rec || k.URL != r.URL || len(k.Headings) != len(r.Headings)+1 || !slices.Equal(k.Headings[:len(r.Headings)], r.Headings) {
			continue
		}
		h := strings.ToLower(k.Headings[len(k.Headings)-1])
		for _, w := range fixWords {
			if strings.Contains(h, w) {
				return ri
			}
		}
	}
	return -1
}

// quoteFix adds a fix section's opening: its first sentences while they
// fit, then the code or list its opening introduces.
func (c *composer) quoteFix(rec int) {
	size := 0
	for i := range c.sents {
		s := &c.sents[i]
		if s.rec != rec || s.kind == chunk.Table || c.said(s.text) {
			continue
		}
		if size > 0 && (s.block != c.sents[i-1].block || size+len(s.text) > 300) {
			break
		}
		c.add("\n\n"+s.text, rec)
		size += len(s.text)
		if strings.HasSuffix(s.text, ":") {
			bs := c.pkg.Records[rec].Blocks
			if all, start := c.steps(rec, 2); all != nil && start == s.block+1 {
				c.writeSteps(rec, all, "\n\n")
			} else if c.introducesCode(s) {
				c.add("\n\n"+fence(bs[c.codeAfter(rec, s.block)]), rec)
			} else if c.introducesList(s) {
				c.quoteList(rec, s.block+1, &size)
			}
			break
		}
	}
}

// sectionHint is what a record is among its page's sections, for a model
// reading the evidence as the Composer does: " (step 2 of 5)" for one of
// sibling sections that are steps, " (way 1 of 2)" for one of several
// ways, " (page opening)" for the text before a page's first section,
// "" when it is none of these or the record carries no page (a package
// decoded from JSON).
func sectionHint(r *evidence.Selected) string {
	if r.Page == nil {
		return ""
	}
	if r.Anchor == "" {
		if len(r.Page) > 1 {
			return " (page opening)"
		}
		return ""
	}
	n := len(r.Headings)
	if n < 2 {
		return ""
	}
	var heads []string
	at := -1
	for i := range r.Page {
		p := &r.Page[i]
		if p.Anchor != "" && len(p.Headings) == n && slices.Equal(p.Headings[:n-1], r.Headings[:n-1]) {
			if p.Anchor == r.Anchor {
				at = len(heads)
			}
			heads = append(heads, p.Headings[n-1])
		}
	}
	if len(heads) < 2 || at < 0 {
		return ""
	}
	kind := headingKind(heads[0], false)
	for _, h := range heads {
		if headingKind(h, false) != kind {
			return ""
		}
	}
	switch kind {
	case stepSections:
		return " (step " + itoa(at+1) + " of " + itoa(len(heads)) + ")"
	case choiceSections:
		return " (way " + itoa(at+1) + " of " + itoa(len(heads)) + ")"
	}
	return ""
}
