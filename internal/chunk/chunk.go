// Package chunk parses a page's rendered content HTML (what Hugo's
// .Content gives, as the askplane.corpus v3 build writes it) into typed
// blocks, and splits them into chunks at headings (whichever element
// carries their id, if any) and anchored definition terms, leaving out
// what a reader would not call content:
// navigation, tab labels, heading anchor glyphs, "See also" link lists,
// scripts, and every region an author marks with class askplane-ignore
// or the attribute data-askplane-ignore.
//
// The rules are part of the retrieval engine: the same HTML always gives
// the same chunks for a given [Version], and any change to what Split
// returns must come with a new Version and a new engine id (see
// internal/evidence.EngineID3). The rules of askplane.chunk/1 are frozen
// in internal/chunk/chunk1, for the engines that read with them.
package chunk

// Version names the chunking rules below. The evidence engine that
// indexes chunked records names it in its own id's documentation.
const Version = "askplane.chunk/2"

// Kind is a block's type.
type Kind string

const (
	Paragraph  Kind = "paragraph"  // running text (p, and loose text)
	Heading    Kind = "heading"    // askplane.chunk/1 only: a heading without an id (it split nothing)
	Code       Kind = "code"       // a pre block, verbatim, with Lang when known
	List       Kind = "list"       // ul/ol: one "- item" or "1. item" line per item
	Table      Kind = "table"      // rows as a small markdown table
	Term       Kind = "term"       // a dt without an id
	Definition Kind = "definition" // a dd
	Note       Kind = "note"       // blockquote, or an admonition (role=note, class note/warning/…)
)

// Block is one unit of content. Text is plain text: whitespace collapsed
// for prose; verbatim (lines kept, the final newline dropped) for Code;
// one line per item or row for List and Table. From askplane.chunk/2 on,
// inline code in prose, list items, table cells, terms and definitions
// is a Markdown code span, as in "Run `hugo mod init`" (the fence is one
// backtick longer than the longest run of them in the code).
type Block struct {
	Kind Kind
	Lang string // Code only: the language from class="language-x" or data-lang
	Text string
	// Notes (Code only, askplane.chunk/2 on) is what the # comments of a
	// TOML or YAML block say about the settings they annotate, a line
	// each: "`search` in `[params.askplane]`: Set to false to hide the
	// search box". It is derived text, for search and sentence
	// selection: [PlainText] writes it after the code; Text, which shows
	// the comments already, stays verbatim for display.
	Notes string
}

// Chunk is the content under one heading: the text before the page's
// first heading (Level 0, no Anchor, Key or Heading), or one heading
// (Level 1–6) or anchored definition term (Level TermLevel) and the
// blocks up to the next one.
type Chunk struct {
	Level int
	// Anchor is the id a link to the chunk may use: one the page has. It
	// is "" before the first heading and for a heading the page gives no
	// id (askplane.chunk/2 splits there all the same).
	Anchor string
	// Key is unique among the page's chunks but for Level 0: Anchor, or
	// for a heading without one the id Hugo would give it (its text by
	// the "github" autoHeadingIDType rule, "-1", "-2", … appended when
	// another id of the page has it). Record ids are made from it.
	// askplane.chunk/1 leaves it "" (its Anchor is its key).
	Key     string
	Heading string // the heading's or term's text, anchor glyphs left out
	Blocks  []Block
}

// TermLevel is the level of a chunk opened by an anchored definition term:
// deeper than any heading, so a term's path is the enclosing heading's
// plus the term, and the next heading closes it.
const TermLevel = 7

// Bounds. A page over them is refused with an [*Error] of a stable code.
const (
	MaxPageBytes      = 4 << 20 // the HTML of one page
	MaxDepth          = 256     // element nesting
	MaxChunks         = 4096    // chunks per page
	MaxBlocksPerChunk = 2048    // blocks per chunk
)

// Stable error codes.
const (
	CodeTooLarge     = "chunk.page.too-large"
	CodeTooDeep      = "chunk.too-deep"
	CodeTooManyParts = "chunk.too-many"
	CodeInvalid      = "chunk.html.invalid"
)

// Error is every error Split returns. Messages never echo page content.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return "chunk: " + e.Code + ": " + e.Message }
