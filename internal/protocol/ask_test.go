package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/conformance"
)

// askRequestVector is one case of testdata/conformance/ask-requests.json.
type askRequestVector struct {
	Name     string                `json:"name"`
	JSON     *string               `json:"json"`
	Generate *conformance.Generate `json:"generate"`
	Valid    bool                  `json:"valid"`
	Note     string                `json:"note"`
}

func (v askRequestVector) body() []byte {
	if v.Generate != nil {
		return v.Generate.Bytes()
	}
	return []byte(*v.JSON)
}

func loadAskRequestVectors(t testing.TB) []askRequestVector {
	t.Helper()
	var f struct {
		Cases []askRequestVector `json:"cases"`
	}
	conformance.Load(t, "ask-requests.json", &f)
	if len(f.Cases) < 30 {
		t.Fatalf("ask-requests.json: %d cases, want at least 30", len(f.Cases))
	}
	for _, c := range f.Cases {
		if (c.JSON == nil) == (c.Generate == nil) {
			t.Fatalf("%s: want exactly one of json and generate", c.Name)
		}
	}
	return f.Cases
}

func TestAskRequestVectors(t *testing.T) {
	for _, c := range loadAskRequestVectors(t) {
		t.Run(c.Name, func(t *testing.T) {
			req, err := DecodeAskRequest(c.body())
			if c.Valid != (err == nil) {
				t.Fatalf("valid = %v, want %v (err %v)", err == nil, c.Valid, err)
			}
			if err != nil {
				var d *Diagnostic
				if !errors.As(err, &d) || d.Code != CodeAskInvalidRequest || d.Retryable {
					t.Fatalf("err = %#v, want a non-retryable ASK_INVALID_REQUEST diagnostic", err)
				}
				return
			}
			checkAskRequestRoundTrip(t, req)
		})
	}
}

// checkAskRequestRoundTrip asserts that req re-encodes to a body that
// decodes to an equal request and re-encodes to the same bytes.
func checkAskRequestRoundTrip(t *testing.T, req *AskRequest) {
	t.Helper()
	data, err := req.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	again, err := DecodeAskRequest(data)
	if err != nil {
		t.Fatalf("re-decode %s: %v", data, err)
	}
	if !reflect.DeepEqual(req, again) {
		t.Fatalf("round trip changed the request:\n%#v\n%#v", req, again)
	}
	data2, _ := again.MarshalJSON()
	if !bytes.Equal(data, data2) {
		t.Fatalf("re-encoding is not stable:\n%s\n%s", data, data2)
	}
}

func TestDecodeAskRequestDiagnosticsArePayloadFree(t *testing.T) {
	for _, tc := range []struct {
		name, body, msg string
	}{
		{"bad JSON", `{"messages": password-123`, msgAskInvalidJSON},
		{"schema", `{"messages":[{"role":"password-123","content":"x"}]}`, msgAskInvalid},
		{"unknown key", `{"password-123":1,"messages":[{"role":"user","content":"x"}]}`, msgAskInvalid},
		{"too large", `{"messages":[{"role":"user","content":"password-123` + strings.Repeat("a", MaxAskBodyBytes) + `"}]}`, msgAskTooLarge},
	} {
		_, err := DecodeAskRequest([]byte(tc.body))
		d := AsDiagnostic(err)
		if d == nil || d.Code != CodeAskInvalidRequest || d.Message != tc.msg {
			t.Errorf("%s: err = %v, want %s %q", tc.name, err, CodeAskInvalidRequest, tc.msg)
			continue
		}
		if strings.Contains(err.Error(), "password") {
			t.Errorf("%s: diagnostic echoes the payload: %v", tc.name, err)
		}
	}
}

func TestDecodeAskRequestFields(t *testing.T) {
	body := `{"protocol":"agentskit.chat.ask","version":1,"sessionId":"s-1","messages":[` +
		`{"role":"user","content":"  How do I start?  "},{"role":"assistant","content":""}],` +
		`"deterministic":{"protocol":"agentskit.chat.answer","version":1,"outcome":"escalation",` +
		`"query":"How do I start?","normalizedQuery":"how do i start?","message":"m","reason":"stale",` +
		`"confidence":{"level":"low","basis":"stale"},"future":1}}`
	req, err := DecodeAskRequest([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := &AskRequest{
		SessionID: "s-1",
		Messages:  []AskMessage{{RoleUser, "  How do I start?  "}, {RoleAssistant, ""}},
		Deterministic: &Envelope{
			Outcome: OutcomeEscalation, Query: "How do I start?", NormalizedQuery: "how do i start?",
			Message: "m", Reason: ReasonStale, Confidence: Confidence{LevelLow, "stale"},
		},
	}
	if !reflect.DeepEqual(req, want) {
		t.Fatalf("got %#v\nwant %#v", req, want)
	}
}

func TestAskRequestMarshalJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  *AskRequest
		want string
	}{
		{
			"minimal",
			&AskRequest{Messages: []AskMessage{{RoleUser, "hi"}}},
			`{"protocol":"agentskit.chat.ask","version":1,"messages":[{"role":"user","content":"hi"}]}`,
		},
		{
			"ECMAScript escaping",
			&AskRequest{SessionID: "s", Messages: []AskMessage{{RoleUser, "</script>&\u2028\x00\n\"\\é😀"}}},
			`{"protocol":"agentskit.chat.ask","version":1,"sessionId":"s","messages":[{"role":"user","content":"</script>&` + "\u2028" + `\u0000\n\"\\é😀"}]}`,
		},
		{
			"deterministic last",
			&AskRequest{SessionID: "s", Messages: []AskMessage{{RoleUser, "Q"}}, Deterministic: Escalate("Q", ReasonMiss)},
			`{"protocol":"agentskit.chat.ask","version":1,"sessionId":"s","messages":[{"role":"user","content":"Q"}],` +
				`"deterministic":{"protocol":"agentskit.chat.answer","version":1,"outcome":"escalation","query":"Q","normalizedQuery":"q",` +
				`"message":"` + MessageMiss + `","reason":"miss","confidence":{"level":"low","basis":"miss"}}}`,
		},
	} {
		got, err := tc.req.MarshalJSON()
		if err != nil || string(got) != tc.want {
			t.Errorf("%s:\ngot  %s (%v)\nwant %s", tc.name, got, err, tc.want)
		}
		var generic any
		if err := json.Unmarshal(got, &generic); err != nil {
			t.Errorf("%s: not JSON: %v", tc.name, err)
		}
	}
}

// FuzzDecodeAskRequest checks that decoding never panics and that a valid
// request re-encodes to a body that decodes to an equal request.
func FuzzDecodeAskRequest(f *testing.F) {
	for _, c := range loadAskRequestVectors(f) {
		if b := c.body(); len(b) <= 4096 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := DecodeAskRequest(data)
		if err != nil {
			if CodeOf(err) != CodeAskInvalidRequest {
				t.Fatalf("code %s", CodeOf(err))
			}
			return
		}
		if len(req.Messages) == 0 || len(req.Messages) > MaxAskMessages {
			t.Fatalf("%d messages", len(req.Messages))
		}
		if req.Deterministic != nil && req.Deterministic.Outcome != OutcomeEscalation {
			t.Fatalf("deterministic outcome %s", req.Deterministic.Outcome)
		}
		// Invalid UTF-8 decodes to U+FFFD, which is longer, so a body near
		// the limit may re-encode over it.
		if data, _ := req.MarshalJSON(); len(data) <= MaxAskBodyBytes {
			checkAskRequestRoundTrip(t, req)
		}
	})
}
