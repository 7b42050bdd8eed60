package protocol_test

import (
	"encoding/json"
	"testing"

	"github.com/askplane/askplane/internal/conformance"
	"github.com/askplane/askplane/internal/protocol"
)

type decodeCase struct {
	Name     string                `json:"name"`
	Text     *string               `json:"text"`
	Generate *conformance.Generate `json:"generate"`
	Site     json.RawMessage       `json:"site"`
	Envelope json.RawMessage       `json:"envelope"`
	Expect   string                `json:"expect"`
}

func (c decodeCase) input() []byte {
	switch {
	case c.Text != nil:
		return []byte(*c.Text)
	case c.Generate != nil:
		return c.Generate.Bytes()
	case c.Site != nil:
		return c.Site
	}
	return c.Envelope
}

func codeOrOK(err error) string {
	if err == nil {
		return "ok"
	}
	return string(protocol.CodeOf(err))
}

func TestSiteConfigVectors(t *testing.T) {
	var v struct{ Cases []decodeCase }
	conformance.Load(t, "sites.json", &v)
	for _, tc := range v.Cases {
		s, err := protocol.DecodeSiteConfig(tc.input())
		if got := codeOrOK(err); got != tc.Expect {
			t.Errorf("%s: %s, want %s", tc.Name, got, tc.Expect)
			continue
		}
		if err == nil {
			out, _ := s.MarshalJSON()
			again, err := protocol.DecodeSiteConfig(out)
			if err != nil || *again != *s {
				t.Errorf("%s: does not round-trip: %s", tc.Name, out)
			}
		}
	}
}

func TestAnswerEnvelopeVectors(t *testing.T) {
	var v struct{ Cases []decodeCase }
	conformance.Load(t, "answers.json", &v)
	for _, tc := range v.Cases {
		e, err := protocol.DecodeEnvelope(tc.input())
		if got := codeOrOK(err); got != tc.Expect {
			t.Errorf("%s: %s, want %s", tc.Name, got, tc.Expect)
			continue
		}
		if err != nil {
			continue
		}
		out, _ := e.MarshalJSON()
		again, err := protocol.DecodeEnvelope(out)
		if err != nil {
			t.Errorf("%s: re-encoded envelope does not decode: %v", tc.Name, err)
			continue
		}
		out2, _ := again.MarshalJSON()
		if string(out) != string(out2) {
			t.Errorf("%s: not stable:\n%s\n%s", tc.Name, out, out2)
		}
	}
}

// TestEnvelopeMarshalRefusesMissingParts checks that MarshalJSON reports an
// envelope missing a part its outcome requires, instead of writing a
// document such as "answer":{} that no peer decodes.
func TestEnvelopeMarshalRefusesMissingParts(t *testing.T) {
	q, n := protocol.QueryFields("install")
	prov := &protocol.Provenance{Source: protocol.SourceBackend}
	answer := func() *protocol.Envelope {
		return &protocol.Envelope{
			Outcome: protocol.OutcomeAnswer, Query: q, NormalizedQuery: n,
			Answer:     &protocol.Answer{Markdown: "Run it.", Citations: []protocol.Citation{}},
			Provenance: prov,
			Confidence: protocol.Confidence{Level: protocol.LevelHigh, Basis: protocol.BasisBackend},
		}
	}
	out, err := answer().MarshalJSON()
	if err != nil {
		t.Fatalf("complete answer: %v", err)
	}
	if _, err := protocol.DecodeEnvelope(out); err != nil {
		t.Fatalf("complete answer does not decode: %v\n%s", err, out)
	}
	noAnswer := answer()
	noAnswer.Answer = nil
	noProvenance := answer()
	noProvenance.Provenance = nil
	choices := &protocol.Envelope{
		Outcome: protocol.OutcomeChoices, Query: q, NormalizedQuery: n, Message: protocol.MessageChoices,
		Suggestions: []protocol.Suggestion{{ID: "a", Label: "A", Value: "a"}, {ID: "b", Label: "B", Value: "b"}},
		Confidence:  protocol.Confidence{Level: protocol.LevelMedium, Basis: protocol.BasisAmbiguous},
	}
	for name, e := range map[string]*protocol.Envelope{
		"answer without Answer": noAnswer, "answer without Provenance": noProvenance, "choices without Provenance": choices,
	} {
		if out, err := e.MarshalJSON(); err == nil || out != nil {
			t.Errorf("%s: MarshalJSON = %s, %v; want an error", name, out, err)
		}
		req := protocol.AskRequest{Messages: []protocol.AskMessage{{Role: protocol.RoleUser, Content: "x"}}, Deterministic: e}
		if _, err := req.MarshalJSON(); err == nil {
			t.Errorf("%s: AskRequest.MarshalJSON passed the error over", name)
		}
	}
	if _, err := protocol.Escalate("install", protocol.ReasonMiss).MarshalJSON(); err != nil {
		t.Errorf("escalation needs no provenance: %v", err)
	}
}
