package resolve

import (
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
