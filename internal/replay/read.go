package replay

import (
	"bytes"
	"encoding/json"
	"unicode/utf16"
)

// Sections a read can page through.
const (
	SectionRecordText = "record_text" // one selected record's excerpt, text/plain
	SectionPackage    = "package"     // the package's complete canonical JSON
)

// Bounds of a read, in bytes of the whole response JSON.
const (
	MinReadBytes     = 8 << 10
	DefaultReadBytes = 16 << 10
	MaxReadBytes     = 64 << 10
	MaxReadOffset    = 2_000_000
)

// ReadSchema names a read's response.
const ReadSchema = "askplane.evidence-read/1"

// Read is one slice of a value of a replayed package. Offsets count
// UTF-16 code units; a slice never splits a surrogate pair, and
// content_sha256 is the hash of the complete value, so a client that
// follows next_offset to null and concatenates data can check it.
type Read struct {
	Schema          string   `json:"schema"`
	Section         string   `json:"section"`
	RecordID        *string  `json:"record_id"`
	ContextID       string   `json:"context_id"`
	MediaType       string   `json:"media_type"`
	ContentSHA256   string   `json:"content_sha256"`
	TotalCharacters int      `json:"total_characters"`
	CharacterUnit   string   `json:"character_unit"`
	Offset          int      `json:"offset"`
	EndOffset       int      `json:"end_offset"`
	NextOffset      *int     `json:"next_offset"`
	Data            string   `json:"data"`
	MaxBytes        int      `json:"max_bytes"`
	Partial         bool     `json:"partial"`
	ReplayIdentity  Identity `json:"replay_identity"`
}

// Slice returns the read of section (and record, for record_text) of res
// from offset, as JSON of at most maxBytes (0 means DefaultReadBytes).
func Slice(res *Result, section, recordID string, offset, maxBytes int) ([]byte, error) {
	if maxBytes == 0 {
		maxBytes = DefaultReadBytes
	}
	if maxBytes < MinReadBytes || maxBytes > MaxReadBytes {
		return nil, invalid("max_bytes must be 8192 to 65536")
	}
	rd := Read{Schema: ReadSchema, Section: section, ContextID: res.Package.ContextID, CharacterUnit: "utf-16-code-units",
		MaxBytes: maxBytes, ReplayIdentity: res.Identity}
	var value string
	switch section {
	case SectionPackage:
		if recordID != "" {
			return nil, invalid("record_id is only for record_text")
		}
		value, rd.MediaType = string(res.Canonical), "application/json"
	case SectionRecordText:
		found := false
		for i := range res.Package.Records {
			if res.Package.Records[i].ID == recordID {
				value, found = res.Package.Records[i].Excerpt, true
				break
			}
		}
		if !found {
			return nil, invalid("record_id is not a record of this package")
		}
		rd.RecordID, rd.MediaType = &recordID, "text/plain"
	default:
		return nil, invalid("section must be record_text or package")
	}
	units := utf16.Encode([]rune(value))
	if offset < 0 || offset > len(units) || offset > MaxReadOffset || splitsPair(units, offset) {
		return nil, invalid("offset is outside the value or inside a surrogate pair")
	}
	rd.ContentSHA256 = ContentHash([]byte(value))
	rd.TotalCharacters, rd.Offset = len(units), offset
	encode := func(end int) []byte {
		rd.EndOffset, rd.Data = end, string(utf16.Decode(units[offset:end]))
		rd.NextOffset = nil
		if end < len(units) {
			next := end
			rd.NextOffset = &next
		}
		rd.Partial = offset > 0 || end < len(units)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.Encode(rd) // strings, ints and bools only
		return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	}
	end, err := fit(units, offset, func(end int) bool { return len(encode(end)) <= maxBytes })
	if err != nil {
		return nil, err
	}
	return encode(end), nil
}

// fit returns the largest end in [offset, len(units)] whose slice fits,
// stepping back one unit rather than splitting a surrogate pair. It must
// advance unless offset is the end.
func fit(units []uint16, offset int, fits func(end int) bool) (int, error) {
	lo, hi := offset, len(units) // fits(lo) is checked below
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	end := lo
	if splitsPair(units, end) {
		end--
	}
	if !fits(end) || end == offset && offset < len(units) {
		return 0, fail(CodeBudget, "no part of the value fits max_bytes")
	}
	return end, nil
}

// splitsPair reports whether i falls between a high and a low surrogate.
func splitsPair(units []uint16, i int) bool {
	return i > 0 && i < len(units) && utf16.IsSurrogate(rune(units[i-1])) && units[i-1] < 0xDC00 && units[i] >= 0xDC00 && units[i] <= 0xDFFF
}
