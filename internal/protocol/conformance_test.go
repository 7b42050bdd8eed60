package protocol_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/conformance"
	"github.com/askplane/askplane/internal/protocol"
)

// fixtures is testdata/conformance/agentskit-v1-fixtures.json, the public
// AgentsKit v1 conformance fixtures.
type fixtures struct {
	ContentHash      string                     `json:"contentHash"`
	SiteConfig       json.RawMessage            `json:"siteConfig"`
	Artifact         json.RawMessage            `json:"artifact"`
	StaleArtifact    json.RawMessage            `json:"staleArtifact"`
	Answers          map[string]json.RawMessage `json:"answers"`
	InvalidArtifacts []struct {
		Name     string          `json:"name"`
		Artifact json.RawMessage `json:"artifact"`
		Code     protocol.Code   `json:"code"`
	} `json:"invalidArtifacts"`
}

func loadFixtures(t testing.TB) fixtures {
	var f fixtures
	conformance.Load(t, "agentskit-v1-fixtures.json", &f)
	return f
}

func TestFixtureHashesRecompute(t *testing.T) {
	f := loadFixtures(t)
	for _, tc := range []struct {
		name string
		data json.RawMessage
		want string
	}{
		{"artifact", f.Artifact, "sha256:d1b98e69dcb00985dc5fdad4a8475f926168e6485e85716758ad5e0f35cd4906"},
		{"staleArtifact", f.StaleArtifact, "sha256:c48a310e9497d1588e408bf7eb72ca64c04f25431ef8d17cd351b1d3bab3a3e9"},
	} {
		got, err := protocol.ComputeContentHash(tc.data)
		if err != nil || got != tc.want {
			t.Errorf("%s: ComputeContentHash = %q, %v; want %q", tc.name, got, err, tc.want)
		}
		a, err := protocol.DecodeArtifact(tc.data)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if a.Digest() != tc.want || a.ContentHash != tc.want {
			t.Errorf("%s: digest %s, declared %s", tc.name, a.Digest(), a.ContentHash)
		}
	}
}

func TestFixtureSiteConfigVerifiesArtifact(t *testing.T) {
	f := loadFixtures(t)
	site, err := protocol.DecodeSiteConfig(f.SiteConfig)
	if err != nil {
		t.Fatal(err)
	}
	if site.SiteID != "agentskit-docs" || site.Fallback != protocol.FallbackBackend || site.Artifact.ContentHash != f.ContentHash {
		t.Fatalf("site = %+v", site)
	}
	if _, err := protocol.VerifyArtifact(f.Artifact, site.Trust()); err != nil {
		t.Fatal(err)
	}
	out, _ := site.MarshalJSON()
	assertSameJSON(t, out, f.SiteConfig)
}

func TestFixtureAnswersRoundTrip(t *testing.T) {
	f := loadFixtures(t)
	for name, raw := range f.Answers {
		e, err := protocol.DecodeEnvelope(raw)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		out, _ := e.MarshalJSON()
		assertSameJSON(t, out, raw)
	}
}

func TestFixtureInvalidArtifacts(t *testing.T) {
	f := loadFixtures(t)
	site, _ := protocol.DecodeSiteConfig(f.SiteConfig)
	for _, tc := range f.InvalidArtifacts {
		trust := site.Trust()
		if tc.Name == "hash mismatch" {
			trust.ContentHash = "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
		}
		_, err := protocol.VerifyArtifact(tc.Artifact, trust)
		d := protocol.AsDiagnostic(err)
		if d == nil || d.Code != tc.Code {
			t.Errorf("%s: got %v, want %s", tc.Name, err, tc.Code)
			continue
		}
		assertNoEcho(t, d, "unexpected")
	}
}

// artifactVectors is testdata/conformance/artifacts.json.
type artifactVectors struct {
	Cases []struct {
		Name     string                `json:"name"`
		Artifact json.RawMessage       `json:"artifact"`
		Text     *string               `json:"text"`
		Generate *conformance.Generate `json:"generate"`
		Expect   struct {
			Decode      string `json:"decode"`
			ContentHash string `json:"contentHash"`
		} `json:"expect"`
	} `json:"cases"`
	Verify []struct {
		Name     string          `json:"name"`
		Artifact json.RawMessage `json:"artifact"`
		Trust    struct {
			ContentHash string `json:"contentHash"`
			SiteID      string `json:"siteId"`
		} `json:"trust"`
		Expect string `json:"expect"`
	} `json:"verify"`
}

func TestArtifactVectors(t *testing.T) {
	var v artifactVectors
	conformance.Load(t, "artifacts.json", &v)
	if len(v.Cases) < 50 {
		t.Fatalf("only %d cases", len(v.Cases))
	}
	for _, tc := range v.Cases {
		data := []byte(tc.Artifact)
		switch {
		case tc.Text != nil:
			data = []byte(*tc.Text)
		case tc.Generate != nil:
			data = tc.Generate.Bytes()
		}
		a, err := protocol.DecodeArtifact(data)
		if tc.Expect.Decode != "ok" {
			if got := protocol.CodeOf(err); string(got) != tc.Expect.Decode {
				t.Errorf("%s: code %q, want %s", tc.Name, got, tc.Expect.Decode)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.Name, err)
			continue
		}
		if a.Digest() != tc.Expect.ContentHash {
			t.Errorf("%s: digest %s, want %s", tc.Name, a.Digest(), tc.Expect.ContentHash)
		}
		if h, err := protocol.ComputeContentHash(data); h != tc.Expect.ContentHash {
			t.Errorf("%s: ComputeContentHash = %s, %v", tc.Name, h, err)
		}
		// The artifact re-encodes to bytes that decode to the same hash.
		out, _ := a.MarshalJSON()
		b, err := protocol.VerifyArtifact(out, protocol.Trust{ContentHash: a.ContentHash, SiteID: a.SiteID})
		if err != nil || b.Digest() != a.Digest() {
			t.Errorf("%s: re-encoded artifact does not verify: %v", tc.Name, err)
		}
	}
	for _, tc := range v.Verify {
		_, err := protocol.VerifyArtifact(tc.Artifact, protocol.Trust(tc.Trust))
		got := "ok"
		if err != nil {
			got = string(protocol.CodeOf(err))
		}
		if got != tc.Expect {
			t.Errorf("verify %s: %s, want %s", tc.Name, got, tc.Expect)
		}
	}
}

func TestNormalizeVectors(t *testing.T) {
	var v struct {
		Cases []struct{ Input, Output string } `json:"cases"`
	}
	conformance.Load(t, "normalize.json", &v)
	for _, tc := range v.Cases {
		if got := protocol.NormalizeKey(tc.Input); got != tc.Output {
			t.Errorf("NormalizeKey(%+q) = %+q, want %+q", tc.Input, got, tc.Output)
		}
	}
}

func assertSameJSON(t *testing.T, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	_ = json.Unmarshal(want, &w)
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Errorf("JSON differs:\n got %s\nwant %s", got, want)
	}
}

// assertNoEcho fails when a diagnostic repeats any part of the payload.
func assertNoEcho(t *testing.T, d *protocol.Diagnostic, payload ...string) {
	t.Helper()
	for _, p := range payload {
		if p != "" && (strings.Contains(d.Message, p) || strings.Contains(d.Error(), p)) {
			t.Errorf("diagnostic %s echoes %q", d.Code, p)
		}
	}
}
