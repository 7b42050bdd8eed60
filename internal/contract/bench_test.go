package contract

import (
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/provider"
)

// benchInput is a realistic Ask input: five records of the evidence
// engine's maximum excerpt (1,200 bytes).
func benchInput() AskInput {
	in := AskInput{Question: "How long should browsers cache the artifact, and what happens when it expires?"}
	for i := range 5 {
		in.Records = append(in.Records, AskRecord{
			ID:    "docs.caching:artifact-lifetime-0123456789a" + string(rune('0'+i)),
			Title: "Caching › Artifact lifetime",
			Text:  strings.Repeat("Serve the artifact with Cache-Control immutable; the site config revalidates. ", 16)[:1200],
		})
	}
	return in
}

func BenchmarkPrepareRequest(b *testing.B) {
	a := boundAsk(b)
	in := benchInput()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.PrepareRequest(in, Budget{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	a := boundAsk(b)
	resp := provider.Response{Text: `{"answer":"` + strings.Repeat("Browsers may keep the artifact for a year. ", 35) +
		`","cites":["docs.caching:artifact-lifetime-0123456789a0","docs.caching:artifact-lifetime-0123456789a3"]}`}
	b.SetBytes(int64(len(resp.Text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Decode(resp); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDefineRegisterBind is the startup cost of one contract.
func BenchmarkDefineRegisterBind(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		boundAsk(b)
	}
}
