package resolve

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
)

// fixtureFile is testdata/conformance/agentskit-v1-fixtures.json, the
// AgentsKit public fixtures as JSON data.
type fixtureFile struct {
	ContentHash   string                     `json:"contentHash"`
	SiteConfig    json.RawMessage            `json:"siteConfig"`
	Artifact      json.RawMessage            `json:"artifact"`
	StaleArtifact json.RawMessage            `json:"staleArtifact"`
	Answers       map[string]json.RawMessage `json:"answers"`
}

const fixturePath = "../../testdata/conformance/agentskit-v1-fixtures.json"

func loadFixtures(t testing.TB) *fixtureFile {
	t.Helper()
	raw, err := os.ReadFile(fixturePath)
	if err != nil {
		t.Fatal(err)
	}
	var f fixtureFile
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	return &f
}

// fixtureNow is the instant the AgentsKit chat tests pin:
// 2026-07-13T12:00:00.000Z.
func fixtureNow(t testing.TB) int64 { return mustTime(t, "2026-07-13T12:00:00.000Z") }

func mustTime(t testing.TB, s string) int64 {
	t.Helper()
	ms, ok := protocol.ParseDateTime(s)
	if !ok {
		t.Fatalf("bad time %q", s)
	}
	return ms
}

func at(ms int64) Option { return WithClock(func() int64 { return ms }) }

func decodeArtifact(t testing.TB, raw []byte) *protocol.Artifact {
	t.Helper()
	a, err := protocol.DecodeArtifact(raw)
	if err != nil {
		t.Fatalf("decode artifact: %v", err)
	}
	return a
}

func siteConfig(t testing.TB, f *fixtureFile) *protocol.SiteConfig {
	t.Helper()
	s, err := protocol.DecodeSiteConfig(f.SiteConfig)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fixtureResolver is the resolver of the AgentsKit chat tests: the fixture
// artifact, trusted by the fixture site config, at fixtureNow.
func fixtureResolver(t testing.TB) (*Resolver, *fixtureFile) {
	t.Helper()
	f := loadFixtures(t)
	r := New(decodeArtifact(t, f.Artifact), siteConfig(t, f).Trust(), at(fixtureNow(t)))
	if r.err != nil {
		t.Fatalf("fixture artifact rejected: %v", r.err)
	}
	return r, f
}

func marshal(t testing.TB, env *protocol.Envelope) []byte {
	t.Helper()
	if env == nil {
		t.Fatal("nil envelope")
	}
	b, err := env.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func compactJSON(t testing.TB, raw []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// assertEnvelope checks env byte for byte against a JSON envelope and that
// it is a valid envelope by the protocol's own decoder.
func assertEnvelope(t testing.TB, env *protocol.Envelope, want []byte) {
	t.Helper()
	got := marshal(t, env)
	if w := compactJSON(t, want); !bytes.Equal(got, w) {
		t.Fatalf("envelope mismatch\n got: %s\nwant: %s", got, w)
	}
	if _, err := protocol.DecodeEnvelope(got); err != nil {
		t.Fatalf("envelope does not decode: %v\n%s", err, got)
	}
}
