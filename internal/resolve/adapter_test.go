package resolve

import (
	"strconv"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
)

func TestDecide(t *testing.T) {
	r, f := fixtureResolver(t)
	stale := New(decodeArtifact(t, f.Artifact), siteConfig(t, f).Trust(), at(mustTime(t, "2026-07-14T00:00:00Z")))
	corrupt := New(nil, siteConfig(t, f).Trust())

	type env = *protocol.Envelope
	tests := []struct {
		name      string
		in        env
		mode      protocol.FallbackMode
		available bool
		action    Action
		reason    protocol.Reason
		outcome   protocol.Outcome
		message   string
	}{
		{"answer with backend", r.Resolve("install cli"), protocol.FallbackBackend, true, Local, "", protocol.OutcomeAnswer, ""},
		{"answer disabled", r.Resolve("install cli"), protocol.FallbackDisabled, false, Local, "", protocol.OutcomeAnswer, ""},
		{"choices with backend", r.Resolve("docs"), protocol.FallbackBackend, true, Local, "", protocol.OutcomeChoices, protocol.MessageChoices},
		{"miss with backend", r.Resolve("why"), protocol.FallbackBackend, true, Escalate, protocol.ReasonMiss, protocol.OutcomeEscalation, protocol.MessageMiss},
		{"miss disabled", r.Resolve("why"), protocol.FallbackDisabled, true, Local, protocol.ReasonOffline, protocol.OutcomeEscalation, protocol.MessageOffline},
		{"miss no backend", r.Resolve("why"), protocol.FallbackBackend, false, Local, protocol.ReasonOffline, protocol.OutcomeEscalation, protocol.MessageOffline},
		{"miss unknown mode", r.Resolve("why"), protocol.FallbackMode("other"), true, Local, protocol.ReasonOffline, protocol.OutcomeEscalation, protocol.MessageOffline},
		{"choice miss disabled", r.ResolveChoice("x", "docs"), protocol.FallbackDisabled, false, Local, protocol.ReasonOffline, protocol.OutcomeEscalation, protocol.MessageOffline},
		{"choice miss with backend", r.ResolveChoice("x", "docs"), protocol.FallbackBackend, true, Escalate, protocol.ReasonMiss, protocol.OutcomeEscalation, protocol.MessageChoiceMissing},
		{"stale with backend", stale.Resolve("install cli"), protocol.FallbackBackend, true, Escalate, protocol.ReasonStale, protocol.OutcomeEscalation, protocol.MessageStale},
		{"stale disabled", stale.Resolve("install cli"), protocol.FallbackDisabled, false, Local, protocol.ReasonStale, protocol.OutcomeEscalation, protocol.MessageStale},
		{"corrupt with backend", corrupt.Resolve("install cli"), protocol.FallbackBackend, true, Escalate, protocol.ReasonCorrupt, protocol.OutcomeEscalation, protocol.MessageCorrupt},
		{"corrupt disabled", corrupt.Resolve("install cli"), protocol.FallbackDisabled, true, Local, protocol.ReasonCorrupt, protocol.OutcomeEscalation, protocol.MessageCorrupt},
		{"nil envelope", nil, protocol.FallbackDisabled, false, Local, protocol.ReasonCorrupt, protocol.OutcomeEscalation, protocol.MessageCorrupt},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before string
			if tc.in != nil {
				before = string(marshal(t, tc.in))
			}
			d := Decide(tc.in, tc.mode, tc.available)
			e := d.Envelope
			if d.Action != tc.action || e.Outcome != tc.outcome || e.Reason != tc.reason || e.Message != tc.message {
				t.Fatalf("%v %s", d.Action, marshal(t, e))
			}
			if tc.in != nil {
				if string(marshal(t, tc.in)) != before {
					t.Fatal("input envelope modified")
				}
				if e.Query != tc.in.Query || e.NormalizedQuery != tc.in.NormalizedQuery {
					t.Fatal("query fields changed")
				}
				if e.Reason != protocol.ReasonOffline && e != tc.in {
					t.Fatal("envelope replaced without need")
				}
			}
			if _, err := protocol.DecodeEnvelope(marshal(t, e)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestBackendEnvelopeFixture(t *testing.T) {
	f := loadFixtures(t)
	env, ok := BackendEnvelope("Compare runtimes", "The backend can answer open-ended comparisons.\n", false,
		BackendInfo{Provider: " ask ", Model: "configured-by-host"})
	if !ok {
		t.Fatal("no envelope")
	}
	assertEnvelope(t, env, f.Answers["backend"])
}

func TestBackendEnvelope(t *testing.T) {
	enc := func(records ...string) string { return ContentPrefix + strings.Join(records, "\n") + "\n" }
	text := func(s string) string { return `{"kind":"text","text":"` + s + `"}` }
	frame := func(key, props string) string {
		return `{"kind":"component","frame":{"protocol":"agentskit.chat.component","version":1,"type":"render","componentKey":"` + key +
			`","instanceId":"sources-1","props":` + props + `,"fallback":{"kind":"` + key + `","summary":"s"}}}`
	}
	sources := func(items ...string) string {
		return `{"label":"Sources","sources":[` + strings.Join(items, ",") + `]}`
	}

	tests := []struct {
		name      string
		content   string
		overflow  bool
		ok        bool
		reason    protocol.Reason
		message   string
		markdown  string
		citations []protocol.Citation
	}{
		{name: "plain text", content: "  Hello world.  ", ok: true, markdown: "Hello world."},
		{name: "empty", content: "", ok: false},
		{name: "blank", content: " \n\t\u3000", ok: false},
		{name: "empty ordered", content: ContentPrefix, ok: false},
		{name: "ordered text parts", content: enc(text("Hello "), text("world."), text("\\n")), ok: true, markdown: "Hello world."},
		{name: "20000 chars", content: strings.Repeat("a", 20_000), ok: true, reason: protocol.ReasonCorrupt, message: MessageBackendTooLong},
		{name: "16384 chars", content: strings.Repeat("a", 16_384), ok: true, markdown: strings.Repeat("a", 16_384)},
		{name: "16384 chars padded", content: " " + strings.Repeat("a", 16_384) + " ", ok: true, markdown: strings.Repeat("a", 16_384)},
		{name: "16384 astral units", content: strings.Repeat("😀", 8193), ok: true, reason: protocol.ReasonCorrupt, message: MessageBackendTooLong},
		{name: "ordered too long", content: enc(text(strings.Repeat("a", 16_384)), text("b")), ok: true, reason: protocol.ReasonCorrupt, message: MessageBackendTooLong},
		{name: "overflow flag", content: "short", overflow: true, ok: true, reason: protocol.ReasonCorrupt, message: MessageBackendOverflow},
		{name: "262145 chars", content: strings.Repeat("a", 262_145), ok: true, reason: protocol.ReasonCorrupt, message: MessageBackendOverflow},
		{name: "262144 chars", content: strings.Repeat("a", 262_144), ok: true, reason: protocol.ReasonCorrupt, message: MessageBackendTooLong},
		{name: "malformed", content: ContentPrefix + "{bad}\n", ok: true, reason: protocol.ReasonCorrupt, message: MessageBackendInvalidContent},
		{name: "unsupported version", content: "\x1eagentskit.chat.content/2\n" + text("x") + "\n", ok: true, reason: protocol.ReasonCorrupt, message: MessageBackendInvalidContent},
		{name: "marker only", content: "\x1e", ok: true, reason: protocol.ReasonCorrupt, message: MessageBackendIncompleteContent},
		{name: "marker and junk", content: "\x1eHello", ok: true, reason: protocol.ReasonCorrupt, message: MessageBackendInvalidContent},
		{name: "incomplete", content: ContentPrefix + text("Grounded answer.") + "\n" + `{"kind":"text"`, ok: true, reason: protocol.ReasonCorrupt, message: MessageBackendIncompleteContent},
		{name: "no trailing newline", content: ContentPrefix + text("Grounded answer."), ok: true, reason: protocol.ReasonCorrupt, message: MessageBackendIncompleteContent},
		{name: "marker inside text is inert", content: "See \x1e" + "agentskit", ok: true, markdown: "See \x1eagentskit"},
		{
			name: "citations",
			content: enc(text("Answer."), frame("source-list", sources(
				`{"id":"a","title":" Guide ","url":"/docs/a"}`,
				`{"id":"b","title":"No url"}`,
				`{"id":"c","title":"Remote","url":"https://example.com/c","snippet":"x"}`,
			))),
			ok: true, markdown: "Answer.",
			citations: []protocol.Citation{{ID: "a", Title: "Guide", Href: "/docs/a"}, {ID: "c", Title: "Remote", Href: "https://example.com/c"}},
		},
		{
			name: "invalid citations dropped",
			content: enc(text("Answer."), frame("source-list", sources(
				`{"id":"a","title":"   ","url":"/docs/a"}`,
				`{"id":"b","title":"Backslash","url":"/\\evil"}`,
				`{"id":"c","title":"Ok","url":"/ok"}`,
			))),
			ok: true, markdown: "Answer.",
			citations: []protocol.Citation{{ID: "c", Title: "Ok", Href: "/ok"}},
		},
		{
			name: "invalid source lists contribute nothing",
			content: enc(text("Answer."),
				frame("source-list", sources(`{"id":"a","title":"A","url":"javascript:alert(1)"}`, `{"id":"b","title":"B","url":"/b"}`)),
				frame("source-list", sources(`{"id":"a","title":"A","url":"/a","score":1}`)),
				frame("source-list", sources(`{"id":"a","title":"A","url":"/a"}`, `{"id":"a","title":"A2","url":"/a2"}`)),
				frame("source-list", `{"label":"Sources","sources":[],"x":1}`),
				frame("link-card", sources(`{"id":"z","title":"Z","url":"/z"}`)),
				frame("source-list", sources(`{"id":"d","title":"D","url":"/d"}`)),
			),
			ok: true, markdown: "Answer.",
			citations: []protocol.Citation{{ID: "d", Title: "D", Href: "/d"}},
		},
		{
			name: "at most 8 citations",
			content: enc(text("Answer."),
				frame("source-list", sources(`{"id":"s1","title":"1","url":"/1"}`, `{"id":"s2","title":"2","url":"/2"}`, `{"id":"s3","title":"3","url":"/3"}`,
					`{"id":"s4","title":"4","url":"/4"}`, `{"id":"s5","title":"5","url":"/5"}`)),
				frame("source-list", sources(`{"id":"s6","title":"6","url":"/6"}`, `{"id":"s7","title":"7","url":"/7"}`, `{"id":"s8","title":"8","url":"/8"}`,
					`{"id":"s9","title":"9","url":"/9"}`)),
			),
			ok: true, markdown: "Answer.",
			citations: numbered(8),
		},
		{name: "components only", content: enc(frame("source-list", sources(`{"id":"a","title":"A","url":"/a"}`))), ok: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env, ok := BackendEnvelope("Compare runtimes", tc.content, tc.overflow, BackendInfo{})
			if ok != tc.ok {
				t.Fatalf("ok = %v", ok)
			}
			if !ok {
				if env != nil {
					t.Fatal("envelope without ok")
				}
				return
			}
			if _, err := protocol.DecodeEnvelope(marshal(t, env)); err != nil {
				t.Fatalf("invalid envelope: %v\n%s", err, marshal(t, env))
			}
			if env.Query != "Compare runtimes" || env.NormalizedQuery != "compare runtimes" {
				t.Fatalf("query fields: %s", marshal(t, env))
			}
			if tc.reason != "" {
				if env.Reason != tc.reason || env.Message != tc.message {
					t.Fatalf("got %s", marshal(t, env))
				}
				return
			}
			if env.Outcome != protocol.OutcomeAnswer || env.Answer.Markdown != tc.markdown {
				t.Fatalf("got %s", marshal(t, env))
			}
			if env.Provenance.Source != protocol.SourceBackend || env.Provenance.Provider != "" || env.Provenance.Model != "" {
				t.Fatalf("provenance %+v", env.Provenance)
			}
			if len(env.Answer.Citations) != len(tc.citations) {
				t.Fatalf("citations %+v", env.Answer.Citations)
			}
			for i := range tc.citations {
				if env.Answer.Citations[i] != tc.citations[i] {
					t.Fatalf("citation %d: %+v", i, env.Answer.Citations[i])
				}
			}
		})
	}
}

func TestBackendEnvelopeProvenance(t *testing.T) {
	long := strings.Repeat("m", 129)
	for _, tc := range []struct {
		in              BackendInfo
		provider, model string
	}{
		{BackendInfo{}, "", ""},
		{BackendInfo{Provider: "  ", Model: "\u3000"}, "", ""},
		{BackendInfo{Provider: " ask\n", Model: strings.Repeat("m", 128)}, "ask", strings.Repeat("m", 128)},
		{BackendInfo{Provider: long, Model: "x"}, "", "x"},
	} {
		env, _ := BackendEnvelope("q", "answer", false, tc.in)
		if env.Provenance.Provider != tc.provider || env.Provenance.Model != tc.model {
			t.Errorf("%+v: got %+v", tc.in, env.Provenance)
		}
		if _, err := protocol.DecodeEnvelope(marshal(t, env)); err != nil {
			t.Errorf("%+v: %v", tc.in, err)
		}
	}
}

func TestBackendEnvelopeLongQuery(t *testing.T) {
	q := strings.Repeat("q", 600)
	for _, content := range []string{"answer", "\x1e", strings.Repeat("a", 20_000)} {
		env, ok := BackendEnvelope(q, content, false, BackendInfo{})
		if !ok || len(env.Query) != 512 || len(env.NormalizedQuery) != 512 {
			t.Fatalf("got %s", marshal(t, env))
		}
	}
}

// numbered returns citations s1…sn titled 1…n at /1…/n.
func numbered(n int) []protocol.Citation {
	out := make([]protocol.Citation, n)
	for i := range out {
		k := strconv.Itoa(i + 1)
		out[i] = protocol.Citation{ID: "s" + k, Title: k, Href: "/" + k}
	}
	return out
}
