package resolve

import (
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
)

func TestProjectFixtures(t *testing.T) {
	r, _ := fixtureResolver(t)
	tests := []struct {
		name string
		env  *protocol.Envelope
		want string
	}{
		{
			"answer", r.Resolve("install cli"),
			ContentPrefix + `{"kind":"text","text":"Run ` + "`npm install agentskit`" + `."}` + "\n" +
				`{"kind":"component","frame":{"protocol":"agentskit.chat.component","version":1,"type":"render","componentKey":"source-list","instanceId":"sources-user-1",` +
				`"props":{"label":"Sources","sources":[{"id":"quickstart","title":"Quickstart","url":"/docs/quickstart"}]},"fallback":{"kind":"source-list","summary":"Sources: Quickstart."}}}` + "\n",
		},
		{
			"choices", r.Resolve("docs"),
			ContentPrefix + `{"kind":"text","text":"More than one exact local answer matches. Choose one to continue."}` + "\n" +
				`{"kind":"component","frame":{"protocol":"agentskit.chat.component","version":1,"type":"render","componentKey":"choice-list","instanceId":"deterministic-choices-user-1",` +
				`"props":{"prompt":"More than one exact local answer matches. Choose one to continue.","choices":[` +
				`{"id":"docs-agentskit","label":"AgentsKit documentation","description":"agentskit docs"},` +
				`{"id":"docs-registry","label":"Registry documentation","description":"registry docs"}]},` +
				`"fallback":{"kind":"choice-list","summary":"More than one exact local answer matches. Choose one to continue. AgentsKit documentation, Registry documentation."}}}` + "\n",
		},
		{
			"escalation", r.Resolve("why"),
			ContentPrefix + `{"kind":"text","text":"No exact local answer was found. A backend answer is required."}` + "\n",
		},
		{
			"answer without citations", &protocol.Envelope{Outcome: protocol.OutcomeAnswer, Answer: &protocol.Answer{Markdown: "Hi"}},
			ContentPrefix + `{"kind":"text","text":"Hi"}` + "\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Project(tc.env, "user-1")
			if got != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", got, tc.want)
			}
			parts, complete, err := DecodeContent(got)
			if err != nil || !complete || len(parts) == 0 || parts[0].Kind != PartText {
				t.Fatalf("does not decode: %v", err)
			}
		})
	}
}

func TestProjectChoiceFrameMatchesReservationKey(t *testing.T) {
	r, _ := fixtureResolver(t)
	env := r.Resolve("docs")
	id, props, ok := ChoiceFrame(env, "user-1")
	if !ok || id != "deterministic-choices-user-1" {
		t.Fatal(id, ok)
	}
	content := Project(env, "user-1")
	if !strings.Contains(content, `"instanceId":"`+id+`","props":`+string(props)+`,"fallback"`) {
		t.Fatalf("frame props differ from ChoiceFrame:\n%s\n%s", content, props)
	}
	if _, _, ok := ChoiceFrame(r.Resolve("install cli"), "user-1"); ok {
		t.Fatal("ChoiceFrame for an answer")
	}
}

func TestProjectInvalid(t *testing.T) {
	for name, env := range map[string]*protocol.Envelope{
		"nil":           nil,
		"no answer":     {Outcome: protocol.OutcomeAnswer},
		"empty answer":  {Outcome: protocol.OutcomeAnswer, Answer: &protocol.Answer{}},
		"empty message": {Outcome: protocol.OutcomeEscalation},
		"no choices":    {Outcome: protocol.OutcomeChoices, Message: "m"},
		"unknown":       {Outcome: "other", Message: "m"},
	} {
		if got := Project(env, "m"); got != "" {
			t.Errorf("%s: %q", name, got)
		}
	}
}

func TestSanitize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"deterministic-choices-user-1", "deterministic-choices-user-1"},
		{"sources-a b/c", "sources-a-b-c"},
		{"sources-é😀x", "sources----x"},
		{"sources-\xffx", "sources--x"},
		{"deterministic-choices-" + strings.Repeat("m", 200), "deterministic-choices-" + strings.Repeat("m", 106)},
		{"x" + strings.Repeat("😀", 100), "x" + strings.Repeat("-", 127)},
		{"", "fallback"},
		{"-abc", "fallback"},
		{"_abc", "fallback"},
		{"😀", "fallback"},
		{"a:b.c_d", "a:b.c_d"},
	} {
		got := sanitize(tc.in, "fallback")
		if got != tc.want {
			t.Errorf("sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if !protocol.ValidIdentifier(got) {
			t.Errorf("sanitize(%q) = %q is not an identifier", tc.in, got)
		}
	}
}
