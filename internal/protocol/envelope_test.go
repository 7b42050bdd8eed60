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
