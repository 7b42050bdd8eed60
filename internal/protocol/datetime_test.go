package protocol

import (
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/conformance"
)

// dateTimeVector is one case of testdata/conformance/datetimes.json, shared
// with the TypeScript reference.
type dateTimeVector struct {
	Value   string `json:"value"`
	Valid   bool   `json:"valid"`
	EpochMs *int64 `json:"epochMs"`
	Note    string `json:"note"`
}

func loadDateTimeVectors(t testing.TB) []dateTimeVector {
	t.Helper()
	var doc struct {
		Description string           `json:"description"`
		Cases       []dateTimeVector `json:"cases"`
	}
	conformance.Load(t, "datetimes.json", &doc)
	if len(doc.Cases) < 50 {
		t.Fatalf("only %d datetime vectors", len(doc.Cases))
	}
	return doc.Cases
}

func TestParseDateTimeConformance(t *testing.T) {
	for _, c := range loadDateTimeVectors(t) {
		ms, ok := ParseDateTime(c.Value)
		if ok != c.Valid {
			t.Errorf("ParseDateTime(%q) ok = %v, want %v (%s)", c.Value, ok, c.Valid, c.Note)
			continue
		}
		if c.Valid != (c.EpochMs != nil) {
			t.Errorf("vector %q: epochMs must be present exactly for valid cases", c.Value)
			continue
		}
		if ok && ms != *c.EpochMs {
			t.Errorf("ParseDateTime(%q) = %d, want %d (%s)", c.Value, ms, *c.EpochMs, c.Note)
		}
	}
}

func TestParseDateTimeEdgeCases(t *testing.T) {
	tests := []struct {
		in string
		ms int64
		ok bool
	}{
		{"1970-01-01T00:00Z", 0, true},
		{"1970-01-01T00:00:00.001Z", 1, true},
		{"1970-01-01T00:00:00.0009Z", 0, true},
		{"1969-12-31T23:59:59.9999Z", -1, true}, // fraction truncated to .999, before the epoch
		{"1970-01-01T00:00:00+00:01", -60000, true},
		{"1970-01-01T00:00:00-00:01", 60000, true},
		{"2024-02-29T23:59:59.999+23:59", 1709251199999 - (23*60+59)*60000, true},
		{"0004-02-29T00:00Z", -62035891200000, true},
		{"0100-02-29T00:00Z", 0, false},
		{"0400-02-29T00:00Z", -49539340800000, true},
		{"2026-07-13T00:00+", 0, false},
		{"2026-07-13T00:00+02:", 0, false},
		{"2026-07-13T00:00+02:0", 0, false},
		{"2026-07-13T00:00+02-00", 0, false},
		{"2026-07-13T00:00:", 0, false},
		{"2026-07-13T00:00:0", 0, false},
		{"2026-07-13T00:00:00.", 0, false},
		{"2026-07-13T00:00:00.5", 0, false},
		{"2026-07-13T00:00:00.5.5Z", 0, false},
		{"2026-07-13T00:00:00.\u0665Z", 0, false},
		{"2026-07-13X00:00Z", 0, false},
		{"2026-07-13T00-00Z", 0, false},
		{"2026_07-13T00:00Z", 0, false},
		{"2026-07_13T00:00Z", 0, false},
		{"2026-07-13T00:00:00.1234567890123456789012345678901234567890Z", 1783900800123, true},
		// V8 reads at most 9 significant digits after leading zeros but
		// scales by min(length, 9): these reproduce Node's Date.parse.
		{"1970-01-01T00:00:00.012345678Z", 12, true},
		{"1970-01-01T00:00:00.0123456789Z", 123, true},
		{"1970-01-01T00:00:00.000000123456789Z", 123, true},
		{"1970-01-01T00:00:00.0000001234Z", 0, true},
		{"1970-01-01T00:00:00.0000000000Z", 0, true},
	}
	for _, tt := range tests {
		ms, ok := ParseDateTime(tt.in)
		if ok != tt.ok || ok && ms != tt.ms {
			t.Errorf("ParseDateTime(%q) = %d, %v; want %d, %v", tt.in, ms, ok, tt.ms, tt.ok)
		}
	}
}

// isoString renders ms as JavaScript's Date.prototype.toISOString does for
// years 0000..9999.
func isoString(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}

// TestFormatParseRoundTrip walks days across several centuries, including
// the Gregorian exceptions, through both directions.
func TestFormatParseRoundTrip(t *testing.T) {
	const day = 86400000
	start, _ := ParseDateTime("0000-01-01T00:00Z")
	end, _ := ParseDateTime("9999-12-31T00:00Z")
	for ms := start; ms <= end; ms += 7*day + 3601001 {
		s := isoString(ms)
		got, ok := ParseDateTime(s)
		if !ok || got != ms {
			t.Fatalf("round trip %d -> %q -> %d, %v", ms, s, got, ok)
		}
	}
}

func FuzzParseDateTime(f *testing.F) {
	for _, c := range loadDateTimeVectors(f) {
		f.Add(c.Value)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ms, ok := ParseDateTime(s)
		if !ok {
			return
		}
		if !strings.Contains(s, "T") || len(s) < 17 {
			t.Fatalf("accepted %q", s)
		}
		// ms lies within years 0000..9999 widened by a day of offset.
		const minMs, maxMs = -62167219200000, 253402300799999
		if ms < minMs-86400000 || ms > maxMs+86400000 {
			t.Fatalf("ParseDateTime(%q) = %d out of range", s, ms)
		}
		if ms < minMs || ms > maxMs {
			return // formats with an expanded year, which is not accepted
		}
		f := isoString(ms)
		if back, ok := ParseDateTime(f); !ok || back != ms {
			t.Fatalf("%q -> %d -> %q -> %d, %v", s, ms, f, back, ok)
		}
		// A Z-zoned input with exactly millisecond precision is already in
		// canonical form, so formatting must reproduce it byte for byte.
		if len(s) == 24 && s[19] == '.' && s[23] == 'Z' && f != s {
			t.Fatalf("toISOString(ParseDateTime(%q)) = %q", s, f)
		}
	})
}

func BenchmarkParseDateTime(b *testing.B) {
	inputs := []string{
		"2026-07-13T10:20:30.123Z",
		"2026-07-13T01:00+02:00",
		"2026-07-13T10:20:30.123456789-05:30",
		"2026-02-29T00:00Z",
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		ParseDateTime(inputs[i%len(inputs)])
	}
}
