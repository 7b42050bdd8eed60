package protocol_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
)

// maxArtifact builds a sealed artifact of 1,024 entries just under the
// 512 KiB limit, with mixed ASCII and non-ASCII aliases.
func maxArtifact(tb testing.TB) (*protocol.Artifact, []byte) {
	tb.Helper()
	a := &protocol.Artifact{ArtifactID: "bench", SiteID: "bench-site", GeneratedAt: "2026-07-13T00:00:00.000Z"}
	for i := range protocol.MaxEntries {
		e := protocol.Entry{
			ID:     fmt.Sprintf("entry-%04d", i),
			Kind:   protocol.KindCommand,
			Label:  fmt.Sprintf("How do I run task %d?", i),
			Values: []string{fmt.Sprintf("run task %d", i), fmt.Sprintf("Task %d command", i), "docs", fmt.Sprintf("ＴＡＳＫ %d ünïcode", i)},
			Answer: protocol.Answer{
				Markdown:  fmt.Sprintf("Run `askplane task %d --verbose`.\n\n", i) + strings.Repeat("Explains the flags and what happens next. ", 3),
				Citations: []protocol.Citation{{ID: fmt.Sprintf("c%d", i), Title: "Task reference", Href: fmt.Sprintf("/docs/tasks/%d/#usage", i)}},
			},
		}
		a.Entries = append(a.Entries, e)
	}
	sealed, err := protocol.Seal(a)
	if err != nil {
		b, _ := a.MarshalJSON()
		tb.Fatal(len(b), err)
	}
	data, _ := sealed.MarshalJSON()
	if len(data) > protocol.MaxArtifactBytes || len(data) < protocol.MaxArtifactBytes*8/10 {
		tb.Fatalf("artifact is %d bytes; want near %d", len(data), protocol.MaxArtifactBytes)
	}
	return sealed, data
}

// BenchmarkVerifyMaxArtifact measures decode + verify + index of a
// maximum-size artifact; compare with BenchmarkJSONUnmarshalMaxArtifact.
func BenchmarkVerifyMaxArtifact(b *testing.B) {
	a, data := maxArtifact(b)
	trust := protocol.Trust{ContentHash: a.ContentHash, SiteID: a.SiteID}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := protocol.VerifyArtifact(data, trust); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJSONUnmarshalMaxArtifact is the baseline: plain encoding/json
// unmarshalling of the same bytes into a generic value.
func BenchmarkJSONUnmarshalMaxArtifact(b *testing.B) {
	_, data := maxArtifact(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJSONUnmarshalStructMaxArtifact is a second baseline: encoding/json
// into typed structs, with no validation or hashing.
func BenchmarkJSONUnmarshalStructMaxArtifact(b *testing.B) {
	_, data := maxArtifact(b)
	type citation struct{ ID, Title, Href string }
	type entry struct {
		ID, Kind, Label string
		Match           struct {
			Type   string
			Values []string
		}
		Answer struct {
			Markdown  string
			Citations []citation
		}
	}
	type artifact struct {
		Protocol                                                string
		Version                                                 int
		ArtifactID, SiteID, ContentHash, GeneratedAt, ExpiresAt string
		Entries                                                 []entry
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var v artifact
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNormalizeKey(b *testing.B) {
	for _, in := range []string{"install cli", "  NPM  Install   AgentsKit ", "ＩＮＳＴＡＬＬ ｃｌｉ", "ΟΔΥΣΣΕΥΣ İstanbul"} {
		b.Run(in, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				protocol.NormalizeKey(in)
			}
		})
	}
}
