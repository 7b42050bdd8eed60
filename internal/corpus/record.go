package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/askplane/askplane/internal/chunk"
)

// Corpus is one verified corpus file, flattened into records (one per
// heading chunk) in file order. File order is meaningful: retrieval breaks
// score ties by it, so the same file always ranks the same way.
type Corpus struct {
	SiteID   string
	Language string
	Version  string // the corpus contentHash, "sha256:" + 64 hex
	Records  []Record
}

// Record is one heading chunk of one page.
type Record struct {
	// ID is derived from URL and Anchor only, so it survives rebuilds that
	// do not move the section, and is a SafeIdentifier so it can be sent as
	// a citation id.
	ID       string
	URL      string
	Anchor   string
	Title    string
	Headings []string
	// Text is the chunk's plain text, what the evidence engine indexes
	// and excerpts. From a v3 corpus it is the blocks' texts, one block
	// per line or lines (chunk.PlainText).
	Text string
	// Blocks is the chunk's structure (paragraphs, code with its
	// language, lists, tables, …), from a v3 corpus only; nil for v1 and
	// v2, whose records are text alone.
	Blocks []Block
}

// Block is one typed unit of a chunk's content (see internal/chunk).
type Block = chunk.Block

// Href is the link a citation points to: the page, and the section when
// the chunk has an anchor (the text before a page's first heading has none).
func (r *Record) Href() string {
	if r.Anchor == "" {
		return r.URL
	}
	return r.URL + "#" + r.Anchor
}

// maxSlug keeps IDs well under the 128-character SafeIdentifier limit
// once the 13-character hash suffix is added.
const maxSlug = 100

// RecordID returns the stable id of the chunk at url#anchor: a readable
// slug of the path and anchor (for logs and the review page) followed by
// 12 hex digits of SHA-256(url "#" anchor), which keeps ids distinct when
// slugs collide or are truncated.
func RecordID(url, anchor string) string {
	sum := sha256.Sum256([]byte(url + "#" + anchor))
	var b strings.Builder
	appendSlug(&b, url, '.')
	if anchor != "" {
		if b.Len() == 0 {
			b.WriteString("home")
		}
		b.WriteByte(':')
		appendSlug(&b, anchor, '-')
	}
	slug := b.String()
	if len(slug) > maxSlug {
		slug = strings.TrimRight(slug[:maxSlug], ".:-")
	}
	if slug == "" || slug[len(slug)-1] == ':' {
		slug += "home"
	}
	return slug + "-" + hex.EncodeToString(sum[:6])
}

// appendSlug writes the ASCII letters and digits of s, lowercased, turning
// each run of anything else into sep (never leading or doubled).
func appendSlug(b *strings.Builder, s string, sep byte) {
	pending := false
	start := b.Len()
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
			fallthrough
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			if pending && b.Len() > start {
				b.WriteByte(sep)
			}
			pending = false
			b.WriteByte(c)
		default:
			pending = true
		}
	}
}
