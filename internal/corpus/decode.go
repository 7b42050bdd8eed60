package corpus

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/askplane/askplane/internal/chunk"
	"github.com/askplane/askplane/internal/chunk/chunk1"
	"github.com/askplane/askplane/internal/protocol"
)

// Rules are how a v3 page's HTML becomes records: the chunker and what
// comes with its version. They are part of the evidence engine that
// reads the corpus (see internal/engines); v1 and v2 corpora do not
// depend on them.
type Rules struct {
	// Split is the chunker; PlainText and TrimGlyphs are its version's
	// (a record's text from its blocks; a title's trailing glyphs).
	Split      func(string) ([]chunk.Chunk, error)
	PlainText  func([]chunk.Block) string
	TrimGlyphs func(string) string
	// HeadingTitle takes an untitled page's title from its first h1, else
	// its first heading (askplane.chunk/2 on).
	HeadingTitle bool
}

// Current are the rules of [chunk.Version], what [Load] reads with.
var Current = Rules{Split: chunk.Split, PlainText: chunk.PlainText, TrimGlyphs: chunk.TrimGlyphs, HeadingTitle: true}

// Chunk1 are the rules of askplane.chunk/1 (internal/chunk/chunk1), kept
// for the engines that read v3 corpora with them.
var Chunk1 = Rules{Split: chunk1.Split, PlainText: chunk1.PlainText, TrimGlyphs: chunk1.TrimGlyphs}

// The wire shape of askplane.corpus v1, v2 and v3 (see the package doc). The
// build writes keys sorted, so nothing may depend on key order;
// encoding/json matches by name.
type wireCorpus struct {
	Protocol string     `json:"protocol"`
	Version  int        `json:"version"`
	SiteID   string     `json:"siteId"`
	Language string     `json:"language"`
	Pages    []wirePage `json:"pages"`
}

type wirePage struct {
	URL    string      `json:"url"`
	Title  string      `json:"title"`
	Chunks []wireChunk `json:"chunks"` // v1, v2

	// v3: the page's kind, section, language and rendered content HTML.
	Kind    *string `json:"kind"`
	Section *string `json:"section"`
	Lang    *string `json:"lang"`
	HTML    *string `json:"html"`
}

// wireChunk holds the members of both versions; each version reads its own.
type wireChunk struct {
	Anchor *string `json:"anchor"`
	Text   *string `json:"text"`

	Headings []string `json:"headings"` // v1: the path, the page title first

	Level   *int    `json:"level"`   // v2: 0 before the first heading, else 1–6
	Heading *string `json:"heading"` // v2: the heading's own text, untrimmed
}

// maxLevel is the deepest heading level, h6.
const maxLevel = 6

// decode checks the rules retrieval relies on, the same ones `askplane
// verify` reports on: every citation href is safe, every record id is
// unique, and no record is empty. A corpus failing them is refused whole,
// since it was not produced by a correct build.
//
// A version 2 corpus is turned into the records version 1 stores, by the
// rules in the package doc: headings and text trimmed, heading paths
// rebuilt from the levels, and chunks without text left out.
func decode(data []byte, rules Rules) (*Corpus, error) {
	var w wireCorpus
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, fail(CodeInvalid, "the corpus is not valid askplane.corpus JSON")
	}
	switch {
	case w.Protocol != CorpusProtocol:
		return nil, fail(CodeInvalid, "protocol must be "+CorpusProtocol)
	case w.Version < OldestCorpusVersion || w.Version > CorpusVersion:
		return nil, fail(CodeUnsupported, "the corpus version is not 1, 2 or 3")
	case !protocol.ValidIdentifier(w.SiteID):
		return nil, fail(CodeInvalid, "siteId is not a SafeIdentifier")
	case !protocol.ValidIdentifier(w.Language):
		return nil, fail(CodeInvalid, "language is not a SafeIdentifier")
	}
	n := 0
	for _, p := range w.Pages {
		n += len(p.Chunks)
	}
	c := &Corpus{SiteID: w.SiteID, Language: w.Language, Records: make([]Record, 0, n)}
	seen := make(map[string]struct{}, n)
	var stack []openHeading
	for i, p := range w.Pages {
		where := "page " + strconv.Itoa(i+1)
		if !strings.HasPrefix(p.URL, "/") || !protocol.ValidHref(p.URL) {
			return nil, fail(CodeInvalid, where+": url is not a safe root-relative href")
		}
		if w.Version == 3 {
			var err error
			if stack, err = c.addPageV3(p, where, w.Language, rules, seen, stack); err != nil {
				return nil, err
			}
			continue
		}
		root := []string{p.Title}
		stack = stack[:0]
		for j, ch := range p.Chunks {
			at := where + ", chunk " + strconv.Itoa(j+1)
			r := Record{URL: p.URL, Title: p.Title}
			if w.Version == 1 {
				if ch.Anchor == nil || ch.Headings == nil {
					return nil, fail(CodeInvalid, at+": anchor and headings are required")
				}
				r.Anchor, r.Headings = *ch.Anchor, ch.Headings
				if ch.Text != nil {
					r.Text = *ch.Text
				}
				if protocol.Trim(r.Text) == "" {
					return nil, fail(CodeInvalid, at+": the text is empty")
				}
			} else {
				if ch.Level == nil || ch.Anchor == nil || ch.Heading == nil || ch.Text == nil {
					return nil, fail(CodeInvalid, at+": level, anchor, heading and text are required")
				}
				level := *ch.Level
				switch {
				case level < 0 || level > maxLevel:
					return nil, fail(CodeInvalid, at+": level must be 0 to 6")
				case level == 0 && j > 0:
					return nil, fail(CodeInvalid, at+": only a page's first chunk may have level 0")
				case level == 0 && (*ch.Anchor != "" || *ch.Heading != ""):
					return nil, fail(CodeInvalid, at+": a level 0 chunk has no anchor or heading")
				}
				r.Anchor = *ch.Anchor
				if level == 0 {
					r.Headings = root
				} else {
					stack, r.Headings = openHeadingAt(stack, root, level, strings.TrimSpace(*ch.Heading))
				}
				r.Text = strings.TrimSpace(*ch.Text)
				if protocol.Trim(r.Text) == "" {
					continue // no text: the chunk only opens its heading
				}
			}
			if !protocol.ValidHref(r.Href()) {
				return nil, fail(CodeInvalid, at+": url#anchor is not a safe href")
			}
			r.ID = RecordID(r.URL, r.Anchor)
			if _, dup := seen[r.ID]; dup {
				return nil, fail(CodeInvalid, at+": the same url and anchor appear twice")
			}
			seen[r.ID] = struct{}{}
			c.Records = append(c.Records, r)
		}
	}
	return c, nil
}

// openHeading is a heading whose section has not ended yet, with its full
// path (the page title first).
type openHeading struct {
	level int
	path  []string
}

// openHeadingAt closes the open headings of level >= level, then opens a
// heading of that level and title under the innermost one still open (or
// at root), returning the new stack and the new heading's path. Paths are
// built with full slice expressions so no two records share a backing
// array that a later append could overwrite.
func openHeadingAt(stack []openHeading, root []string, level int, title string) ([]openHeading, []string) {
	for len(stack) > 0 && stack[len(stack)-1].level >= level {
		stack = stack[:len(stack)-1]
	}
	parent := root
	if len(stack) > 0 {
		parent = stack[len(stack)-1].path
	}
	path := append(parent[:len(parent):len(parent)], title)
	return append(stack, openHeading{level: level, path: path}), path
}

// addPageV3 chunks one v3 page (see the package doc) and appends its
// records. seen holds the ids of every record so far.
func (c *Corpus) addPageV3(p wirePage, where, lang string, rules Rules, seen map[string]struct{}, stack []openHeading) ([]openHeading, error) {
	switch {
	case p.HTML == nil || p.Kind == nil || p.Section == nil || p.Lang == nil:
		return stack, fail(CodeInvalid, where+": kind, section, lang and html are required")
	case *p.Lang != lang:
		return stack, fail(CodeInvalid, where+": lang is not the corpus language")
	}
	chunks, err := rules.Split(*p.HTML)
	if err != nil {
		return stack, fail(CodeInvalid, where+": "+err.Error())
	}
	title := rules.TrimGlyphs(p.Title)
	titled := -1 // the chunk whose heading is the page's title
	if title == "" && rules.HeadingTitle {
		titled = headingTitle(chunks)
		if titled >= 0 {
			title = chunks[titled].Heading
		}
	}
	root := []string{title}
	stack = stack[:0]
	for j, ch := range chunks {
		var headings []string
		switch {
		case ch.Level == 0:
			headings = root
		case j == titled: // its path is the title's, not the title twice
			stack, _ = openHeadingAt(stack, root, ch.Level, ch.Heading)
			stack[len(stack)-1].path = root
			headings = root
		default:
			stack, headings = openHeadingAt(stack, root, ch.Level, ch.Heading)
		}
		if len(ch.Blocks) == 0 {
			continue // no content: the chunk only opens its heading
		}
		r := Record{URL: p.URL, Anchor: ch.Anchor, Title: title, Headings: headings, Text: rules.PlainText(ch.Blocks), Blocks: ch.Blocks}
		if protocol.Trim(r.Text) == "" {
			continue
		}
		at := where + ", chunk " + strconv.Itoa(j+1)
		if !protocol.ValidHref(r.Href()) {
			return stack, fail(CodeInvalid, at+": url#anchor is not a safe href")
		}
		key := ch.Key // a heading without an id: the key Hugo would make it
		if key == "" {
			key = ch.Anchor
		}
		r.ID = RecordID(r.URL, key)
		// Two headings with the same id of their own are an author's slip
		// that Hugo builds without a word; refusing the corpus for it
		// would take the whole site's answers down. The later one is
		// keyed as Hugo numbers repeated ids (id-1, id-2, …) and links
		// where a browser goes, the first.
		for n := 1; hasKey(seen, r.ID); n++ {
			r.ID = RecordID(r.URL, key+"-"+strconv.Itoa(n))
		}
		seen[r.ID] = struct{}{}
		c.Records = append(c.Records, r)
	}
	return stack, nil
}

func hasKey(seen map[string]struct{}, id string) bool {
	_, ok := seen[id]
	return ok
}

// headingTitle is the index of the chunk whose heading titles an untitled
// page: its first h1, else its first heading (not a term), or -1.
func headingTitle(chunks []chunk.Chunk) int {
	first := -1
	for j, ch := range chunks {
		if ch.Level < 1 || ch.Level > maxLevel || ch.Heading == "" { // the chunker trimmed it
			continue
		}
		if ch.Level == 1 {
			return j
		}
		if first < 0 {
			first = j
		}
	}
	return first
}
