package protocol

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// seedFiles adds every conformance vector file as a seed, so the fuzzers
// start from real artifacts, sites and envelopes.
func seedFiles(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/conformance/*.json")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err == nil && len(data) < 64<<10 {
			f.Add(data)
		}
	}
}

// FuzzDecodeArtifact checks that whatever decodes re-encodes to bytes that
// decode and verify to the same hash, and that the three entry points agree.
func FuzzDecodeArtifact(f *testing.F) {
	seedFiles(f)
	f.Add([]byte(`{"protocol":"agentskit.chat.knowledge","version":1,"artifactId":"a","siteId":"s","contentHash":"sha256:0000000000000000000000000000000000000000000000000000000000000000","generatedAt":"2026-07-13T00:00Z","entries":[{"id":"e","kind":"command","label":" L ","match":{"type":"exact","values":["Ａ","b"]},"answer":{"markdown":"m","citations":[]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := DecodeArtifact(data)
		h, herr := ComputeContentHash(data)
		if err != nil {
			if AsDiagnostic(err).Message == "" {
				t.Fatal("diagnostic without message")
			}
			return
		}
		if herr != nil || h != a.Digest() {
			t.Fatalf("ComputeContentHash = %q, %v; Digest = %q", h, herr, a.Digest())
		}
		out, _ := a.MarshalJSON()
		b, err := DecodeArtifact(out)
		if err != nil {
			t.Fatalf("re-encoded artifact does not decode: %v", err)
		}
		if b.Digest() != a.Digest() {
			t.Fatal("digest changed across re-encoding")
		}
		trust := Trust{ContentHash: a.Digest(), SiteID: a.SiteID}
		a.ContentHash = trust.ContentHash
		if _, err := Reverify(a, trust); err != nil {
			t.Fatalf("sealed value does not verify: %v", err)
		}
	})
}

// FuzzDecodeEnvelope checks that decoded envelopes re-encode stably.
func FuzzDecodeEnvelope(f *testing.F) {
	seedFiles(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := DecodeEnvelope(data)
		if err != nil {
			return
		}
		out, _ := e.MarshalJSON()
		again, err := DecodeEnvelope(out)
		if err != nil {
			t.Fatalf("re-encoded envelope does not decode: %v\n%s", err, out)
		}
		out2, _ := again.MarshalJSON()
		if string(out) != string(out2) {
			t.Fatalf("unstable:\n%s\n%s", out, out2)
		}
	})
}

// FuzzNormalizeKey checks the shape of every normalized key and that the
// ASCII fast path agrees with the general path.
func FuzzNormalizeKey(f *testing.F) {
	for _, s := range []string{"  ＩＮＳＴＡＬＬ\n CLI  ", "ΑΣ.", "İ", "\ufdfa", "a\u3000\u3000b", "A  B\tC", "\u0085"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // keys come from JSON text, which is valid UTF-8
		}
		k := NormalizeKey(s)
		if !utf8.ValidString(k) {
			t.Fatal("invalid UTF-8")
		}
		if Trim(k) != k {
			t.Fatalf("%+q not trimmed", k)
		}
		for _, r := range k {
			if IsSpace(r) && r != ' ' {
				t.Fatalf("%+q keeps whitespace %U", k, r)
			}
		}
		if strings.Contains(k, "  ") {
			t.Fatalf("%+q has a whitespace run", k)
		}
		if want := lowerECMA(collapseSpace(Trim(norm.NFKC.String(s)))); k != want {
			t.Fatalf("NormalizeKey(%+q) = %+q; general path gives %+q", s, k, want)
		}
	})
}
