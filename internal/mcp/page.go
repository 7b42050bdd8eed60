package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"unicode/utf16"

	"github.com/askplane/askplane/internal/replay"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Pages reads the Markdown twins the Hugo module publishes next to every
// page (internal/static's Twins).
type Pages interface {
	Read(urlPath string) (text, twinPath string, err error)
}

// PageInput is read_page's input.
type PageInput struct {
	URL    string `json:"url" jsonschema:"the page's URL or path on this site (/docs/x/, https://host/docs/x/, or its .md twin)"`
	Offset int    `json:"offset,omitempty" jsonschema:"where to start, in UTF-16 units (next_offset of the previous slice)"`
}

// PageRead is read_page's output: one slice of a page's Markdown twin,
// with read_evidence's rules (UTF-16 offsets that never split a
// character, at most replay.DefaultReadBytes of JSON, the SHA-256 of the
// whole text on every slice).
type PageRead struct {
	Schema          string `json:"schema"`
	URL             string `json:"url" jsonschema:"the twin's path on the site"`
	MediaType       string `json:"media_type"`
	ContentSHA256   string `json:"content_sha256"`
	TotalCharacters int    `json:"total_characters"`
	CharacterUnit   string `json:"character_unit"`
	Offset          int    `json:"offset"`
	EndOffset       int    `json:"end_offset"`
	NextOffset      *int   `json:"next_offset"`
	Data            string `json:"data"`
	MaxBytes        int    `json:"max_bytes"`
	Partial         bool   `json:"partial"`
}

// PageReadSchema names PageRead's shape.
const PageReadSchema = "askplane.page-read/1"

var (
	errNoPage     = replayErr("no Markdown twin at that URL on this site")
	errPageOffset = replayErr("offset is outside the page or inside a surrogate pair")
)

func addPageTool(s *sdk.Server, pages Pages, annotations *sdk.ToolAnnotations) {
	sdk.AddTool(s, &sdk.Tool{
		Name:        "read_page",
		Title:       "Read a page",
		Description: "Read a page of this documentation site as Markdown (its twin: title, URL and content, no navigation), by URL or path, in slices by UTF-16 offset that never split a character; every slice carries the SHA-256 of the whole text.",
		Annotations: annotations,
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in PageInput) (*sdk.CallToolResult, PageRead, error) {
		out, err := readPage(pages, in, replay.DefaultReadBytes)
		return nil, out, err
	})
}

// readPage slices the twin of in.URL into at most maxBytes of JSON.
func readPage(pages Pages, in PageInput, maxBytes int) (PageRead, error) {
	if in.URL == "" || len(in.URL) > 2048 {
		return PageRead{}, errNoPage
	}
	u, err := url.Parse(in.URL)
	if err != nil || u.Path == "" && u.Host == "" {
		return PageRead{}, errNoPage
	}
	p := u.Path
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	text, twin, err := pages.Read(p)
	if err != nil {
		return PageRead{}, errNoPage
	}
	units := utf16.Encode([]rune(text))
	if in.Offset < 0 || in.Offset > len(units) || in.Offset > replay.MaxReadOffset || splits(units, in.Offset) {
		return PageRead{}, errPageOffset
	}
	rd := PageRead{Schema: PageReadSchema, URL: twin, MediaType: "text/markdown", ContentSHA256: replay.ContentHash([]byte(text)),
		TotalCharacters: len(units), CharacterUnit: "utf-16-code-units", Offset: in.Offset, MaxBytes: maxBytes}
	encode := func(end int) []byte {
		rd.EndOffset, rd.Data, rd.NextOffset = end, string(utf16.Decode(units[in.Offset:end])), nil
		if end < len(units) {
			next := end
			rd.NextOffset = &next
		}
		rd.Partial = in.Offset > 0 || end < len(units)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.Encode(rd)
		return buf.Bytes()
	}
	// The largest end whose slice fits, never inside a surrogate pair.
	lo, hi := in.Offset, len(units)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if len(encode(mid)) <= maxBytes {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if splits(units, lo) {
		lo--
	}
	if lo == in.Offset && in.Offset < len(units) {
		return PageRead{}, errPageOffset
	}
	encode(lo)
	return rd, nil
}

// splits reports whether offset falls between a surrogate pair's halves.
func splits(units []uint16, offset int) bool {
	return offset > 0 && offset < len(units) && utf16.IsSurrogate(rune(units[offset-1])) && units[offset-1] < 0xdc00
}
