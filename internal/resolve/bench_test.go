package resolve

import (
	"fmt"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
)

// benchArtifact is a full-size artifact: 1,024 entries, each with two own
// aliases, the first ten sharing "shared topic", and a one-citation answer.
func benchArtifact(tb testing.TB) *protocol.Artifact {
	tb.Helper()
	a := &protocol.Artifact{
		ArtifactID: "bench", SiteID: "bench-site",
		GeneratedAt: "2026-07-01T00:00:00Z", ExpiresAt: "2099-01-01T00:00:00Z",
	}
	for i := range protocol.MaxEntries {
		values := []string{fmt.Sprintf("Question %d", i), fmt.Sprintf("how do I do thing number %d", i)}
		if i < 10 {
			values = append(values, "shared topic")
		}
		a.Entries = append(a.Entries, protocol.Entry{
			ID: fmt.Sprintf("entry-%04d", i), Kind: protocol.KindDocument, Label: fmt.Sprintf("Entry %d", i),
			Values: values,
			Answer: protocol.Answer{
				Markdown:  fmt.Sprintf("Answer %d. %s", i, strings.Repeat("Some explanatory text. ", 4)),
				Citations: []protocol.Citation{{ID: "doc", Title: "Documentation", Href: fmt.Sprintf("/docs/%d", i)}},
			},
		})
	}
	sealed, err := protocol.Seal(a)
	if err != nil {
		tb.Fatal(err)
	}
	return sealed
}

func benchTrust(a *protocol.Artifact) protocol.Trust {
	return protocol.Trust{ContentHash: a.ContentHash, SiteID: a.SiteID}
}

func BenchmarkResolve(b *testing.B) {
	a := benchArtifact(b)
	r := New(a, benchTrust(a))
	if r.err != nil {
		b.Fatal(r.err)
	}
	for _, bc := range []struct {
		name, query string
		outcome     protocol.Outcome
	}{
		{"exact", "question 512", protocol.OutcomeAnswer},
		{"exact-mixed-case", "Question 512", protocol.OutcomeAnswer},
		{"miss", "what is the meaning of life", protocol.OutcomeEscalation},
		{"choices", "shared topic", protocol.OutcomeChoices},
		{"unicode", "ＱＵＥＳＴＩＯＮ\u3000５１２", protocol.OutcomeAnswer},
	} {
		if got := r.Resolve(bc.query).Outcome; got != bc.outcome {
			b.Fatalf("%s: outcome %s", bc.name, got)
		}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r.Resolve(bc.query)
			}
		})
	}
}

func BenchmarkNew(b *testing.B) {
	a := benchArtifact(b)
	trust := benchTrust(a)
	b.ReportAllocs()
	for b.Loop() {
		if New(a, trust).err != nil {
			b.Fatal("rejected")
		}
	}
}
