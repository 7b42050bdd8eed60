package chunk

import (
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Split parses one page's content HTML (a fragment, as in <body>) and
// returns its chunks in document order. The first chunk is always the
// text before the first anchored heading or term (Level 0), possibly
// without blocks; later chunks may be empty too (a heading directly
// followed by a deeper one): the caller keeps them for heading paths and
// skips them as records.
//
// The rules, in order of precedence:
//
//   - Dropped with everything inside: script, style, template, noscript,
//     nav, button, label, form controls, svg, math, iframe, object,
//     embed, canvas, audio, video; any element with the class
//     askplane-ignore or the attribute data-askplane-ignore; role
//     navigation, tablist, tab, toolbar, menu, menubar or search;
//     aria-hidden="true"; a class or aria-label naming a breadcrumb; a
//     tab-label class (tab-button, nav-tabs, code-tabs, see tabClasses);
//     a link that is a heading anchor (class anchor, headerlink,
//     header-anchor, heading-anchor, anchor-link, hanchor, anchorjs-link,
//     or text made only of #, ¶, §, 🔗 or ⚓); Chroma line numbers.
//   - Every h1–h6 with text or an id starts a chunk, and so does a dt
//     with an id (at [TermLevel]); a dt without one is a Term block. A
//     heading's Anchor is the first id found on: the heading; an element
//     inside it (a span or a link, also a link's name); an empty a or
//     span (id, or a's name) right before it, with no text or block
//     between; the element it opens (a section or div whose first
//     element child it is); the target of a same-page link inside it
//     when the page has that id. An id found off its heading is not
//     used twice, and a heading's or term's own id that an earlier chunk
//     found off its heading counts as none: only two headings' own ids
//     can clash (the corpus reader then keys the later one id-1, …). Without any
//     id, Anchor is "" and Key is the id Hugo's "github" rule makes of
//     the text (see [Chunk]). In a note, a heading without an id of its
//     own is the note's text (a callout's title), not a chunk. A heading
//     named "See also", "Related" (and their translations, see
//     seeAlsoTitles) makes every following list whose items all start
//     with a link be dropped, up to the next heading of the same or a
//     higher level.
//   - code outside pre is a Markdown code span in the text around it
//     (headings and chunk Heading text keep the bare text): fenced by
//     one backtick more than its longest backtick run, with a space
//     inside each fence when it starts or ends with a backtick.
//   - pre is a Code block, verbatim; a Chroma table (class lntable) is
//     the Code block of its code cell. Lang is the first language-x class
//     or data-lang attribute on the pre or the code inside it. A toml or
//     yaml (yml) Code block whose # comments annotate settings has them
//     in Notes (see annotate).
//   - ul/ol are one List block, an item per line ("- " or "N. "), nested
//     lists indented by their parent's marker width; a pre, table, dl or
//     note inside an item ends the List block, becomes its own block, and
//     the list goes on in a new List block.
//   - table is a Table block: a "| a | b |" line per row, with a
//     "| --- | --- |" line after a header row (in thead, or all th); "|"
//     in a cell is written "\|". A caption is a Paragraph before it.
//   - dd is a Definition block; blockquote, and elements with role note
//     or alert or an admonition class (admonition, callout, alert, note,
//     notice, warning, tip, hint, caution, important, danger, info, or a
//     class starting admonition-, callout- or alert-) are Note blocks;
//     consecutive paragraphs of one of them are one block.
//   - Any other text is Paragraph text, a block ending at every
//     block-level element's edge (p, div, section, br does not end one).
//     Whitespace in prose collapses to one space; empty blocks are left
//     out.
func Split(src string) ([]Chunk, error) {
	if len(src) > MaxPageBytes {
		return nil, &Error{Code: CodeTooLarge, Message: "the page's HTML is over " + strconv.Itoa(MaxPageBytes) + " bytes"}
	}
	ctx := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(src), ctx)
	if err != nil {
		return nil, &Error{Code: CodeInvalid, Message: "the page's HTML cannot be parsed"}
	}
	s := &splitter{chunks: []Chunk{{}}, kind: Paragraph, nodes: nodes}
	for _, n := range nodes {
		s.walk(n, 1)
	}
	s.flush()
	if s.err != nil {
		return nil, s.err
	}
	return s.chunks, nil
}

// PlainText is the text of blocks as one string: each block's text on
// its own line(s), in order, a Code block's Notes on the lines after its
// code. It is a chunk's Record.Text, so sentence splitting (which ends a
// sentence at a line break) never joins two blocks.
func PlainText(blocks []Block) string {
	n := 0
	for _, b := range blocks {
		n += len(b.Text) + len(b.Notes) + 2
	}
	var sb strings.Builder
	sb.Grow(n)
	for i, b := range blocks {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(b.Text)
		if b.Notes != "" {
			sb.WriteByte('\n')
			sb.WriteString(b.Notes)
		}
	}
	return sb.String()
}

type splitter struct {
	chunks []Chunk
	err    *Error

	inline strings.Builder // pending prose
	kind   Kind            // what pending prose becomes: Paragraph, Note or Definition
	serial int             // the note or definition it belongs to (0: none)
	next   int             // the last serial handed out
	last   int             // serial of the chunk's last block, when it may take more

	lines  []string // the list being built
	prefix string   // the current list item's marker (its first line) or indent

	seeAlso int // level of the "See also" heading whose section this is, or 0

	nodes   []*html.Node    // the fragment, for ids
	ids     map[string]bool // every id (and a's name) of the page, once a heading needs them
	used    map[string]bool // the chunks' keys so far
	found   map[string]bool // the keys that are ids found off their heading
	pending string          // the id of an empty anchor not yet followed by content
}

func (s *splitter) fail(code, msg string) {
	if s.err == nil {
		s.err = &Error{Code: code, Message: msg}
	}
}

func (s *splitter) deep(depth int) bool {
	if depth > MaxDepth {
		s.fail(CodeTooDeep, "elements nest more than "+strconv.Itoa(MaxDepth)+" deep")
		return true
	}
	return s.err != nil
}

// emit adds a block to the current chunk, merging it into the previous
// block when both belong to the same note or definition.
func (s *splitter) emit(kind Kind, lang, text string, serial int) {
	c := &s.chunks[len(s.chunks)-1]
	if serial != 0 && serial == s.last && len(c.Blocks) > 0 && c.Blocks[len(c.Blocks)-1].Kind == kind {
		c.Blocks[len(c.Blocks)-1].Text += " " + text
		return
	}
	if len(c.Blocks) == MaxBlocksPerChunk {
		s.fail(CodeTooManyParts, "a chunk has more than "+strconv.Itoa(MaxBlocksPerChunk)+" blocks")
		return
	}
	c.Blocks = append(c.Blocks, Block{Kind: kind, Lang: lang, Text: text})
	s.last = serial
}

// flush turns pending prose into a block.
func (s *splitter) flush() {
	if s.inline.Len() == 0 {
		return
	}
	t := collapse(s.inline.String())
	s.inline.Reset()
	if t != "" {
		s.emit(s.kind, "", t, s.serial)
	}
}

func (s *splitter) open(level int, anchor, key, heading string) {
	s.flush()
	if len(s.chunks) == MaxChunks {
		s.fail(CodeTooManyParts, "a page has more than "+strconv.Itoa(MaxChunks)+" chunks")
		return
	}
	if s.used == nil {
		s.used = map[string]bool{}
	}
	s.used[key] = true
	s.chunks = append(s.chunks, Chunk{Level: level, Anchor: anchor, Key: key, Heading: heading})
	s.last = 0
}

// within walks n's children as prose of kind, in a container of its own
// (a note inside a note is part of the outer one).
func (s *splitter) within(n *html.Node, depth int, kind Kind) {
	if s.kind == kind {
		s.children(n, depth)
		return
	}
	s.flush()
	oldKind, oldSerial := s.kind, s.serial
	s.next++
	s.kind, s.serial = kind, s.next
	s.children(n, depth)
	s.flush()
	s.kind, s.serial = oldKind, oldSerial
}

func (s *splitter) children(n *html.Node, depth int) {
	for c := n.FirstChild; c != nil && s.err == nil; c = c.NextSibling {
		s.walk(c, depth+1)
	}
}

func (s *splitter) walk(n *html.Node, depth int) {
	if s.deep(depth) {
		return
	}
	switch n.Type {
	case html.TextNode:
		if s.pending != "" && strings.TrimSpace(n.Data) != "" {
			s.pending = ""
		}
		s.inline.WriteString(n.Data)
		return
	case html.ElementNode:
	default:
		return
	}
	if dropped(n) {
		return
	}
	if id := emptyAnchor(n); id != "" {
		s.pending = id
		return
	}
	switch a := n.DataAtom; a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		s.heading(n, depth, int(headingLevel(a)))
		return
	case atom.Pre, atom.Ul, atom.Ol, atom.Table, atom.Dl, atom.Dt, atom.Dd, atom.Blockquote, atom.Hr, atom.Img:
		s.pending = ""
	}
	switch a := n.DataAtom; a {
	case atom.Code:
		s.codeSpan(n, depth, &s.inline)
	case atom.Pre:
		s.flush()
		s.code(n, depth)
	case atom.Ul, atom.Ol:
		s.flush()
		if s.seeAlso > 0 && linksOnly(n) {
			return
		}
		s.list(n, depth, 0)
		s.flushList()
	case atom.Table:
		s.flush()
		s.table(n, depth)
	case atom.Dl:
		s.flush()
		s.dl(n, depth)
	case atom.Dt:
		s.term(n, depth)
	case atom.Dd:
		s.within(n, depth, Definition)
	case atom.Blockquote:
		s.within(n, depth, Note)
	case atom.Br:
		s.inline.WriteByte(' ')
	case atom.Hr:
		s.flush()
	default:
		if isNote(n) {
			s.within(n, depth, Note)
			return
		}
		if blockLevel[a] {
			s.flush()
			s.children(n, depth)
			s.flush()
			return
		}
		s.children(n, depth)
	}
}

// blockLevel are the elements whose edges end a paragraph.
var blockLevel = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Section: true, atom.Article: true, atom.Main: true,
	atom.Aside: true, atom.Header: true, atom.Footer: true, atom.Figure: true, atom.Figcaption: true,
	atom.Details: true, atom.Summary: true, atom.Address: true, atom.Hgroup: true, atom.Center: true,
	atom.Fieldset: true, atom.Legend: true, atom.Dialog: true, atom.Li: true, atom.Caption: true,
	atom.Tr: true, atom.Td: true, atom.Th: true,
}

func headingLevel(a atom.Atom) int {
	switch a {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	}
	return 6
}

func (s *splitter) heading(n *html.Node, depth, level int) {
	if s.kind == Note && attr(n, "id") == "" { // a callout's title: part of its text
		s.inline.WriteByte(' ')
		s.children(n, depth)
		s.inline.WriteByte(' ')
		return
	}
	s.flush()
	text := TrimGlyphs(s.text(n, depth, 0))
	if text == "" { // a theme whose heading is all one permalink
		text = TrimGlyphs(s.text(n, depth, keepLinks))
	}
	if s.seeAlso > 0 && level <= s.seeAlso {
		s.seeAlso = 0
	}
	see := seeAlsoTitles[strings.ToLower(strings.TrimRight(text, " :."))]
	anchor := s.ownID(n)
	if anchor == "" {
		if anchor = s.foundID(n); anchor != "" {
			if s.found == nil {
				s.found = map[string]bool{}
			}
			s.found[anchor] = true
		}
	}
	s.pending = ""
	switch {
	case anchor != "":
		s.open(level, anchor, anchor, text)
	case text != "":
		s.open(level, "", s.generate(text), text)
	}
	if see {
		s.seeAlso = level
	}
}

// ownID is n's id, unless an earlier chunk found that id off its heading
// (a link to it goes there, the first in the page): then n is treated as
// having none.
func (s *splitter) ownID(n *html.Node) string {
	if id := attr(n, "id"); !s.found[id] {
		return id
	}
	return ""
}

// foundID is the id a heading without one of its own is linked by (see
// Split), or "" when it has none, or when that id is some chunk's already.
func (s *splitter) foundID(n *html.Node) string {
	id := innerID(n, 0)
	if id == "" {
		id = s.pending
	}
	if id == "" && n.Parent != nil && (n.Parent.DataAtom == atom.Section || n.Parent.DataAtom == atom.Div || n.Parent.DataAtom == atom.Article) && firstElement(n.Parent) == n {
		id = attr(n.Parent, "id")
	}
	if id == "" {
		for d := range n.Descendants() {
			if d.Type == html.ElementNode && d.DataAtom == atom.A {
				if frag, ok := strings.CutPrefix(attr(d, "href"), "#"); ok && frag != "" && s.pageIDs()[frag] {
					id = frag
					break
				}
			}
		}
	}
	if s.used[id] {
		return ""
	}
	return id
}

// innerID is the first id (or a link's name) on an element inside n,
// not looking into svg or math.
func innerID(n *html.Node, depth int) string {
	if depth > MaxDepth {
		return ""
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.DataAtom == atom.Svg || c.DataAtom == atom.Math || c.Data == "svg" {
			continue
		}
		if id := attr(c, "id"); id != "" {
			return id
		}
		if c.DataAtom == atom.A {
			if name := attr(c, "name"); name != "" {
				return name
			}
		}
		if id := innerID(c, depth+1); id != "" {
			return id
		}
	}
	return ""
}

func firstElement(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}

// emptyAnchor is the id of an a or span with no text that only marks a
// place (<a id="x"></a>, <a name="x"></a>, <span id="x"></span>), or "".
func emptyAnchor(n *html.Node) string {
	var id string
	switch n.DataAtom {
	case atom.A:
		if id = attr(n, "id"); id == "" {
			id = attr(n, "name")
		}
	case atom.Span:
		id = attr(n, "id")
	}
	if id == "" {
		return ""
	}
	for d := range n.Descendants() {
		if d.Type == html.TextNode && strings.TrimSpace(d.Data) != "" || d.Type == html.ElementNode && d.DataAtom == atom.Img {
			return ""
		}
	}
	return id
}

// pageIDs are the ids (and link names) on the page's elements.
func (s *splitter) pageIDs() map[string]bool {
	if s.ids != nil {
		return s.ids
	}
	s.ids = map[string]bool{}
	for _, n := range s.nodes {
		for d := range n.Descendants() {
			s.addIDs(d)
		}
		s.addIDs(n)
	}
	return s.ids
}

func (s *splitter) addIDs(n *html.Node) {
	if n.Type != html.ElementNode {
		return
	}
	for _, a := range n.Attr {
		if a.Key == "id" || (a.Key == "name" && n.DataAtom == atom.A) {
			if v := strings.TrimSpace(a.Val); v != "" {
				s.ids[v] = true
			}
		}
	}
}

// generate is the key of a heading without an id: what Hugo's "github"
// autoHeadingIDType makes of its text (trimmed; space and '-' become
// '-', letters, digits and '_' are kept, lower-cased, the rest dropped;
// "heading" when nothing is left), with "-1", "-2", … appended while an
// id of the page or a chunk's key has it.
func (s *splitter) generate(text string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(text) {
		switch {
		case r == '-' || r == ' ':
			b.WriteByte('-')
		case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		}
	}
	base := b.String()
	if base == "" {
		base = "heading"
	}
	ids := s.pageIDs()
	key := base
	for i := 1; ids[key] || s.used[key]; i++ {
		key = base + "-" + strconv.Itoa(i)
	}
	return key
}

// seeAlsoTitles are the headings of link lists that point elsewhere.
var seeAlsoTitles = map[string]bool{
	"see also": true, "related": true, "related pages": true, "related topics": true,
	"related content": true, "related articles": true, "further reading": true,
	"voir aussi": true, "à voir aussi": true, "pages connexes": true,
	"siehe auch": true, "véase también": true, "ver también": true, "vedi anche": true,
	"veja também": true, "zie ook": true,
}

func (s *splitter) term(n *html.Node, depth int) {
	s.flush()
	s.pending = ""
	if id := s.ownID(n); id != "" {
		s.open(TermLevel, id, id, TrimGlyphs(s.text(n, depth, 0)))
	} else if text := TrimGlyphs(s.text(n, depth, codeSpans)); text != "" {
		s.emit(Term, "", text, 0)
	}
}

func (s *splitter) dl(n *html.Node, depth int) {
	for c := n.FirstChild; c != nil && s.err == nil; c = c.NextSibling {
		if s.deep(depth + 1) {
			return
		}
		if c.Type != html.ElementNode || dropped(c) {
			if c.Type == html.TextNode {
				s.inline.WriteString(c.Data)
			}
			continue
		}
		switch c.DataAtom {
		case atom.Dt:
			s.term(c, depth+1)
		case atom.Dd:
			s.within(c, depth+1, Definition)
		case atom.Div: // <dl><div><dt>…</dt><dd>…</dd></div></dl>
			s.dl(c, depth+1)
		default:
			s.walk(c, depth+1)
		}
	}
	s.flush()
}

func (s *splitter) code(pre *html.Node, depth int) {
	var b strings.Builder
	s.codeText(pre, depth, &b)
	text := strings.TrimRight(strings.TrimLeft(b.String(), "\r\n"), " \t\r\n")
	if strings.TrimSpace(text) == "" {
		return
	}
	lang := language(pre)
	s.emit(Code, lang, text, 0)
	if c := &s.chunks[len(s.chunks)-1]; s.err == nil && len(c.Blocks) > 0 {
		c.Blocks[len(c.Blocks)-1].Notes = annotate(lang, text)
	}
}

// codeSpan writes code element n's text to b as a Markdown code span.
func (s *splitter) codeSpan(n *html.Node, depth int, b *strings.Builder) {
	var raw strings.Builder
	s.codeText(n, depth, &raw)
	code := collapse(raw.String())
	if code == "" {
		return
	}
	run, longest := 0, 0
	for i := 0; i < len(code); i++ {
		if code[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	pad := ""
	if code[0] == '`' || code[len(code)-1] == '`' {
		pad = " "
	}
	b.WriteString(fence + pad + code + pad + fence)
}

func (s *splitter) codeText(n *html.Node, depth int, b *strings.Builder) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if s.deep(depth + 1) {
			return
		}
		switch c.Type {
		case html.TextNode:
			b.WriteString(c.Data)
		case html.ElementNode:
			if dropped(c) || hasClass(c, "ln") || hasClass(c, "lnt") {
				continue
			}
			if c.DataAtom == atom.Br {
				b.WriteByte('\n')
				continue
			}
			s.codeText(c, depth+1, b)
		}
	}
}

// language finds the code language on pre or the code elements in it.
func language(n *html.Node) string {
	for _, a := range n.Attr {
		if a.Key == "data-lang" && a.Val != "" {
			return a.Val
		}
		if a.Key == "class" {
			for _, c := range strings.Fields(a.Val) {
				if l, ok := strings.CutPrefix(c, "language-"); ok && l != "" {
					return l
				}
			}
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Code {
			if l := language(c); l != "" {
				return l
			}
		}
	}
	return ""
}

// list adds the lines of ul/ol n to s.lines, indented by indent.
func (s *splitter) list(n *html.Node, depth, indent int) {
	num := 1
	if v, err := strconv.Atoi(attr(n, "start")); err == nil && v >= 0 && v < 1e9 {
		num = v
	}
	for c := n.FirstChild; c != nil && s.err == nil; c = c.NextSibling {
		if s.deep(depth + 1) {
			return
		}
		if c.Type != html.ElementNode || dropped(c) {
			continue
		}
		if c.DataAtom == atom.Ul || c.DataAtom == atom.Ol {
			s.list(c, depth+1, indent+2)
			continue
		}
		marker := "- "
		if n.DataAtom == atom.Ol {
			marker = strconv.Itoa(num) + ". "
			num++
		}
		saved := s.prefix
		s.prefix = strings.Repeat(" ", indent) + marker
		s.item(c, depth+1, indent+len(marker))
		s.commitLine()
		s.prefix = saved
	}
}

// item walks a list item's content into list lines; nested lists are
// indented to the item's text, and code, tables, definition lists and
// notes end the List block so far and become blocks of their own.
func (s *splitter) item(n *html.Node, depth, indent int) {
	for c := n.FirstChild; c != nil && s.err == nil; c = c.NextSibling {
		if s.deep(depth + 1) {
			return
		}
		switch c.Type {
		case html.TextNode:
			s.inline.WriteString(c.Data)
			continue
		case html.ElementNode:
		default:
			continue
		}
		if dropped(c) {
			continue
		}
		switch c.DataAtom {
		case atom.Ul, atom.Ol:
			s.commitLine()
			s.list(c, depth+1, indent)
			s.prefix = strings.Repeat(" ", indent)
		case atom.Pre, atom.Table, atom.Dl, atom.Blockquote:
			s.commitLine()
			s.flushList()
			s.walk(c, depth+1)
			s.prefix = strings.Repeat(" ", indent)
		case atom.Br:
			s.inline.WriteByte(' ')
		case atom.Code:
			s.codeSpan(c, depth+1, &s.inline)
		default:
			if isNote(c) {
				s.commitLine()
				s.flushList()
				s.walk(c, depth+1)
				s.prefix = strings.Repeat(" ", indent)
				continue
			}
			if blockLevel[c.DataAtom] {
				s.inline.WriteByte(' ')
			}
			s.item(c, depth+1, indent)
		}
	}
}

// commitLine ends the pending list line.
func (s *splitter) commitLine() {
	t := collapse(s.inline.String())
	s.inline.Reset()
	if t == "" {
		return
	}
	s.lines = append(s.lines, s.prefix+t)
	s.prefix = strings.Repeat(" ", len(s.prefix))
}

// flushList turns the pending list lines into a List block.
func (s *splitter) flushList() {
	if len(s.lines) == 0 {
		return
	}
	s.emit(List, "", strings.Join(s.lines, "\n"), 0)
	s.lines = s.lines[:0]
}

func (s *splitter) table(n *html.Node, depth int) {
	if hasClass(n, "lntable") { // Chroma's line-numbered table: the code cell
		var pre *html.Node
		for d := range n.Descendants() {
			if d.Type == html.ElementNode && d.DataAtom == atom.Pre {
				pre = d
			}
		}
		if pre != nil {
			s.code(pre, depth)
		}
		return
	}
	var rows []string
	header := false
	var visit func(n *html.Node, depth int, head bool)
	visit = func(n *html.Node, depth int, head bool) {
		for c := n.FirstChild; c != nil && s.err == nil; c = c.NextSibling {
			if s.deep(depth+1) || c.Type != html.ElementNode || dropped(c) {
				continue
			}
			switch c.DataAtom {
			case atom.Caption:
				if t := s.text(c, depth+1, codeSpans); t != "" {
					s.emit(Paragraph, "", t, 0)
				}
			case atom.Thead:
				visit(c, depth+1, true)
			case atom.Tbody, atom.Tfoot:
				visit(c, depth+1, false)
			case atom.Tr:
				var cells []string
				allTh := true
				for d := c.FirstChild; d != nil; d = d.NextSibling {
					if d.Type != html.ElementNode || dropped(d) || (d.DataAtom != atom.Td && d.DataAtom != atom.Th) {
						continue
					}
					allTh = allTh && d.DataAtom == atom.Th
					cells = append(cells, strings.ReplaceAll(s.text(d, depth+2, codeSpans), "|", `\|`))
				}
				if len(cells) == 0 {
					continue
				}
				rows = append(rows, "| "+strings.Join(cells, " | ")+" |")
				if len(rows) == 1 && (head || allTh) {
					header = true
					sep := make([]string, len(cells))
					for i := range sep {
						sep[i] = "---"
					}
					rows = append(rows, "| "+strings.Join(sep, " | ")+" |")
				}
			}
		}
	}
	visit(n, depth, false)
	if len(rows) == 0 || (header && len(rows) == 2 && strings.Trim(rows[0], "| ") == "") {
		return
	}
	s.emit(Table, "", strings.Join(rows, "\n"), 0)
}

// How text writes n's content.
const (
	codeSpans = 1 << iota // code as Markdown code spans
	keepLinks             // heading anchor links kept (their text, glyphs aside)
)

// text is the collapsed text of n's content, dropped elements left out.
func (s *splitter) text(n *html.Node, depth int, mode int) string {
	var b strings.Builder
	var visit func(n *html.Node, depth int)
	visit = func(n *html.Node, depth int) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if s.deep(depth + 1) {
				return
			}
			switch c.Type {
			case html.TextNode:
				b.WriteString(c.Data)
			case html.ElementNode:
				if dropped(c) && (mode&keepLinks == 0 || c.DataAtom != atom.A || glyphOnly(c)) {
					continue
				}
				if c.DataAtom == atom.Code && mode&codeSpans != 0 {
					s.codeSpan(c, depth+1, &b)
					continue
				}
				if c.DataAtom == atom.Br || blockLevel[c.DataAtom] {
					b.WriteByte(' ')
				}
				visit(c, depth+1)
				if blockLevel[c.DataAtom] {
					b.WriteByte(' ')
				}
			}
		}
	}
	visit(n, depth)
	return collapse(b.String())
}

// dropped reports whether n and everything in it is left out.
func dropped(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Template, atom.Noscript, atom.Nav, atom.Button, atom.Label,
		atom.Input, atom.Select, atom.Textarea, atom.Svg, atom.Math, atom.Iframe, atom.Object,
		atom.Embed, atom.Canvas, atom.Audio, atom.Video, atom.Head, atom.Link, atom.Meta:
		return true
	}
	if n.DataAtom == 0 && (n.Data == "svg" || n.Data == "math") {
		return true
	}
	for _, a := range n.Attr {
		switch a.Key {
		case "data-askplane-ignore":
			return true
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return true
			}
		case "role":
			switch strings.ToLower(strings.TrimSpace(a.Val)) {
			case "navigation", "tablist", "tab", "toolbar", "menu", "menubar", "search":
				return true
			}
		case "aria-label":
			if strings.Contains(strings.ToLower(a.Val), "breadcrumb") {
				return true
			}
		case "class":
			for _, c := range strings.Fields(a.Val) {
				c = strings.ToLower(c)
				if c == "askplane-ignore" || strings.Contains(c, "breadcrumb") || tabClasses[c] {
					return true
				}
				if n.DataAtom == atom.A && anchorClasses[c] {
					return true
				}
			}
		}
	}
	return n.DataAtom == atom.A && glyphOnly(n)
}

// tabClasses are the classes themes give a row of tab labels ("yaml toml
// json" above a code sample in several languages).
var tabClasses = map[string]bool{
	"tab-button": true, "tab-label": true, "tabs-label": true, "tab-labels": true,
	"tab-list": true, "tabs-list": true, "nav-tabs": true, "tabs-nav": true, "tab-nav": true,
	"code-tabs": true,
}

var anchorClasses = map[string]bool{
	"anchor": true, "headerlink": true, "header-anchor": true, "heading-anchor": true,
	"anchor-link": true, "hanchor": true, "anchorjs-link": true, "heading-link": true,
}

// glyphOnly reports whether a link's text is only anchor glyphs (and
// spaces), as a heading's permalink is.
func glyphOnly(n *html.Node) bool {
	seen := false
	for d := range n.Descendants() {
		if d.Type != html.TextNode {
			continue
		}
		for _, r := range d.Data {
			switch {
			case unicode.IsSpace(r), r == '\uFE0F':
			case isGlyph(r):
				seen = true
			default:
				return false
			}
		}
	}
	return seen
}

func isGlyph(r rune) bool {
	return r == '#' || r == '¶' || r == '§' || r == '🔗' || r == '⚓' || r == '🔖'
}

// TrimGlyphs drops pilcrows and link symbols left at a heading's or
// title's end by themes that write them as text, and trims. A '#' stays:
// "C#" is a title (anchor links are dropped as elements instead).
func TrimGlyphs(s string) string {
	return strings.TrimSpace(strings.TrimRight(s, " ¶§🔗⚓\uFE0F"))
}

var noteClasses = map[string]bool{
	"admonition": true, "callout": true, "alert": true, "note": true, "notice": true,
	"warning": true, "tip": true, "hint": true, "caution": true, "important": true,
	"danger": true, "info": true, "admonitionblock": true,
}

// isNote reports whether n is an admonition.
func isNote(n *html.Node) bool {
	if n.DataAtom != atom.Div && n.DataAtom != atom.Aside && n.DataAtom != atom.Section && n.DataAtom != atom.P {
		return false
	}
	for _, a := range n.Attr {
		switch a.Key {
		case "role":
			if v := strings.ToLower(a.Val); v == "note" || v == "alert" {
				return true
			}
		case "class":
			for _, c := range strings.Fields(strings.ToLower(a.Val)) {
				if noteClasses[c] || strings.HasPrefix(c, "admonition-") || strings.HasPrefix(c, "callout-") || strings.HasPrefix(c, "alert-") {
					return true
				}
			}
		}
	}
	return false
}

// linksOnly reports whether every item of list n starts with a link.
func linksOnly(n *html.Node) bool {
	items := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.DataAtom != atom.Li {
			continue
		}
		items++
		if !startsWithLink(c) {
			return false
		}
	}
	return items > 0
}

func startsWithLink(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			if strings.TrimSpace(c.Data) != "" {
				return false
			}
		case html.ElementNode:
			if c.DataAtom == atom.A {
				return true
			}
			return startsWithLink(c)
		}
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return strings.TrimSpace(a.Val)
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	for _, a := range n.Attr {
		if a.Key == "class" {
			for _, c := range strings.Fields(a.Val) {
				if c == class {
					return true
				}
			}
		}
	}
	return false
}

// collapse turns each run of white space into one space and trims.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
