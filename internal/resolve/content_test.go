package resolve

import (
	"errors"
	"strings"
	"testing"
)

const validFrame = `{"protocol":"agentskit.chat.component","version":1,"type":"render","componentKey":"choice-list","instanceId":"destination-choice","props":{"prompt":"Where?","choices":[{"id":"docs","label":"Docs"}]},"fallback":{"kind":"choice-list","summary":"Where? Docs."}}`

func contentCode(err error) ContentCode {
	var ce *ContentError
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}

func TestDecodeContent(t *testing.T) {
	text := func(s string) string { return `{"kind":"text","text":"` + s + `"}` + "\n" }
	comp := func(frame string) string { return `{"kind":"component","frame":` + frame + "}\n" }
	withFrame := func(old, new string) string {
		if !strings.Contains(validFrame, old) {
			t.Fatalf("%q not in frame", old)
		}
		return ContentPrefix + comp(strings.Replace(validFrame, old, new, 1))
	}

	tests := []struct {
		name     string
		content  string
		parts    int
		complete bool
		code     ContentCode // "" when it decodes
	}{
		{"text and component", ContentPrefix + text(`Hello\n\u001eagentskit.chat.content/1\n{\"kind\":\"component\"}`) + comp(validFrame), 2, true, ""},
		{"prefix only", ContentPrefix, 0, true, ""},
		{"marker", "\x1e", 0, false, ""},
		{"partial header", "\x1eagentskit.chat.con", 0, false, ""},
		{"header without newline", "\x1eagentskit.chat.content/1", 0, false, ""},
		{"trailing partial record", ContentPrefix + text("Grounded ") + text("answer.") + `{"kind":"component"`, 2, false, ""},
		{"trailing partial garbage", ContentPrefix + text("a") + `{bad`, 1, false, ""},
		{"not ordered", "plain", 0, false, ContentInvalidRecord},
		{"version 2", "\x1eagentskit.chat.content/2\n", 0, false, ContentUnsupportedVersion},
		{"version 10", "\x1eagentskit.chat.content/10\n" + text("a"), 0, false, ContentUnsupportedVersion},
		{"other header", "\x1eagentskit.chat.contents/1\n", 0, false, ContentInvalidRecord},
		{"bad json", ContentPrefix + "{bad}\n", 0, false, ContentInvalidRecord},
		{"empty line", ContentPrefix + text("a") + "\n", 0, false, ContentInvalidRecord},
		{"two values", ContentPrefix + `{"kind":"text","text":"a"} {}` + "\n", 0, false, ContentInvalidRecord},
		{"array record", ContentPrefix + `["text"]` + "\n", 0, false, ContentInvalidRecord},
		{"unknown kind", ContentPrefix + `{"kind":"image","text":"a"}` + "\n", 0, false, ContentInvalidRecord},
		{"case-insensitive kind key", ContentPrefix + `{"Kind":"text","text":"a"}` + "\n", 0, false, ContentInvalidRecord},
		{"case-insensitive text key", ContentPrefix + `{"kind":"text","TEXT":"a"}` + "\n", 0, false, ContentInvalidRecord},
		{"case-insensitive kind value", ContentPrefix + `{"kind":"Text","text":"a"}` + "\n", 0, false, ContentInvalidRecord},
		{"empty text", ContentPrefix + text(""), 0, false, ContentInvalidRecord},
		{"text not string", ContentPrefix + `{"kind":"text","text":1}` + "\n", 0, false, ContentInvalidRecord},
		{"max text", ContentPrefix + text(strings.Repeat("a", 16_384)), 1, true, ""},
		{"text too long", ContentPrefix + text(strings.Repeat("a", 16_385)), 0, false, ContentInvalidRecord},
		{"text astral too long", ContentPrefix + text(strings.Repeat("😀", 8193)), 0, false, ContentInvalidRecord},
		{"unknown keys stripped", ContentPrefix + `{"kind":"text","text":"a","extra":{"x":[1]}}` + "\n", 1, true, ""},
		{"duplicate key last wins", ContentPrefix + `{"kind":"component","kind":"text","text":"a"}` + "\n", 1, true, ""},
		{"whitespace around record", ContentPrefix + " \t{\"kind\":\"text\",\"text\":\"a\"}\r\n", 1, true, ""},
		{"frame missing", ContentPrefix + `{"kind":"component"}` + "\n", 0, false, ContentInvalidRecord},
		{"frame version 2", withFrame(`"version":1`, `"version":2`), 0, false, ContentInvalidRecord},
		{"frame version string", withFrame(`"version":1`, `"version":"1"`), 0, false, ContentInvalidRecord},
		{"frame version 1.0", withFrame(`"version":1`, `"version":1.0`), 1, true, ""},
		{"frame other protocol", withFrame(`agentskit.chat.component`, `agentskit.chat.turn`), 0, false, ContentInvalidRecord},
		{"frame select type", withFrame(`"render"`, `"select"`), 0, false, ContentInvalidRecord},
		{"frame upper key", withFrame(`"choice-list"`, `"Choice-list"`), 0, false, ContentInvalidRecord},
		{"frame digit key", withFrame(`"componentKey":"choice-list"`, `"componentKey":"1list"`), 0, false, ContentInvalidRecord},
		{"frame key 64", withFrame(`"componentKey":"choice-list"`, `"componentKey":"a`+strings.Repeat("b", 63)+`"`), 1, true, ""},
		{"frame key 65", withFrame(`"componentKey":"choice-list"`, `"componentKey":"a`+strings.Repeat("b", 64)+`"`), 0, false, ContentInvalidRecord},
		{"frame bad instance", withFrame(`"destination-choice"`, `"-x"`), 0, false, ContentInvalidRecord},
		{"frame props array", withFrame(`"props":{"prompt":"Where?","choices":[{"id":"docs","label":"Docs"}]}`, `"props":[]`), 0, false, ContentInvalidRecord},
		{"frame props null", withFrame(`"props":{"prompt":"Where?","choices":[{"id":"docs","label":"Docs"}]}`, `"props":null`), 0, false, ContentInvalidRecord},
		{"frame props missing", withFrame(`"props":{"prompt":"Where?","choices":[{"id":"docs","label":"Docs"}]},`, ``), 0, false, ContentInvalidRecord},
		{"frame props depth 20", withFrame(`"props":{"prompt":"Where?","choices":[{"id":"docs","label":"Docs"}]}`, `"props":`+nest(20)), 1, true, ""},
		{"frame props depth 21", withFrame(`"props":{"prompt":"Where?","choices":[{"id":"docs","label":"Docs"}]}`, `"props":`+nest(21)), 0, false, ContentInvalidRecord},
		{"frame props too many nodes", withFrame(`"props":{"prompt":"Where?","choices":[{"id":"docs","label":"Docs"}]}`, `"props":{"a":[`+strings.Repeat("0,", 998)+`0]}`), 0, false, ContentInvalidRecord},
		{"frame props 1000 nodes", withFrame(`"props":{"prompt":"Where?","choices":[{"id":"docs","label":"Docs"}]}`, `"props":{"a":[`+strings.Repeat("0,", 997)+`0]}`), 1, true, ""},
		{"frame props huge number", withFrame(`"props":{"prompt":"Where?","choices":[{"id":"docs","label":"Docs"}]}`, `"props":{"n":1e400}`), 0, false, ContentInvalidRecord},
		{"frame props long key", withFrame(`"props":{"prompt":"Where?","choices":[{"id":"docs","label":"Docs"}]}`, `"props":{"`+strings.Repeat("k", 257)+`":1}`), 0, false, ContentInvalidRecord},
		{"frame props long string", withFrame(`"props":{"prompt":"Where?","choices":[{"id":"docs","label":"Docs"}]}`, `"props":{"s":"`+strings.Repeat("s", 16_385)+`"}`), 0, false, ContentInvalidRecord},
		{"frame fallback empty kind", withFrame(`"kind":"choice-list"`, `"kind":""`), 0, false, ContentInvalidRecord},
		{"frame fallback long summary", withFrame(`"summary":"Where? Docs."`, `"summary":"`+strings.Repeat("s", 4097)+`"`), 0, false, ContentInvalidRecord},
		{"frame fallback missing", withFrame(`,"fallback":{"kind":"choice-list","summary":"Where? Docs."}`, ``), 0, false, ContentInvalidRecord},
		{"frame case-insensitive key", withFrame(`"instanceId"`, `"instanceID"`), 0, false, ContentInvalidRecord},
		{"frame extra member", withFrame(`"type":"render"`, `"type":"render","future":true`), 1, true, ""},
		{"byte limit", ContentPrefix + strings.Repeat("x", 262_145), 0, false, ContentLimitExceeded},
		{"byte limit utf8", ContentPrefix + strings.Repeat(text(strings.Repeat("😀", 8192)), 9), 0, false, ContentLimitExceeded},
		{"512 records", ContentPrefix + strings.Repeat(text("a"), 512), 512, true, ""},
		{"513 records", ContentPrefix + strings.Repeat(text("a"), 513), 0, false, ContentLimitExceeded},
		{"deep nesting", ContentPrefix + `{"kind":"text","text":"a","x":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "}\n", 0, false, ContentInvalidRecord},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parts, complete, err := DecodeContent(tc.content)
			if code := contentCode(err); code != tc.code || (err != nil && code == "") {
				t.Fatalf("err = %v, want %q", err, tc.code)
			}
			if err != nil {
				if parts != nil || complete {
					t.Fatal("parts with an error")
				}
				if strings.Contains(err.Error(), "bad") || strings.Contains(err.Error(), "xxxx") {
					t.Fatal("error echoes content")
				}
				return
			}
			if len(parts) != tc.parts || complete != tc.complete {
				t.Fatalf("parts=%d complete=%v", len(parts), complete)
			}
		})
	}
}

func nest(depth int) string {
	// depth levels below the props object itself.
	return strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
}

func TestDecodeContentValues(t *testing.T) {
	content := ContentPrefix + `{"kind":"text","text":"Hi \u2028 <b>&\ud83d\ude00\ud800"}` + "\n" + `{"kind":"component","frame":` + validFrame + "}\n"
	parts, complete, err := DecodeContent(content)
	if err != nil || !complete || len(parts) != 2 {
		t.Fatalf("%v %v %d", err, complete, len(parts))
	}
	if parts[0].Kind != PartText || parts[0].Text != "Hi \u2028 <b>&😀\uFFFD" {
		t.Fatalf("text %q", parts[0].Text)
	}
	f := parts[1].Frame
	if parts[1].Kind != PartComponent || f.ComponentKey != "choice-list" || f.InstanceID != "destination-choice" ||
		f.FallbackKind != "choice-list" || f.FallbackSummary != "Where? Docs." {
		t.Fatalf("frame %+v", f)
	}
}

func TestContentWriterRoundTrip(t *testing.T) {
	var w contentWriter
	texts := []string{"plain", "quote \" backslash \\ newline \n tab \t", "\x00\x1f\x7f <>& \u2028\u2029 😀", "\x1eagentskit.chat.content/1\n{\"kind\":\"text\"}", "bad \xff utf8"}
	for _, s := range texts {
		w.text(s)
	}
	w.frame("source-list", "sources-1", []byte(`{"label":"Sources","sources":[{"id":"a","title":"A","url":"/a"}]}`), "source-list", "Sources: A.")
	out := w.String()
	if !strings.HasPrefix(out, ContentPrefix) || strings.Count(out, "\n") != len(texts)+2 {
		t.Fatalf("%q", out)
	}
	if !strings.Contains(out, `"\u0000\u001f`+"\x7f <>& \u2028\u2029 😀") {
		t.Fatalf("escaping: %q", out)
	}
	parts, complete, err := DecodeContent(out)
	if err != nil || !complete || len(parts) != len(texts)+1 {
		t.Fatalf("%v %v %d", err, complete, len(parts))
	}
	for i, s := range texts[:4] {
		if parts[i].Text != s {
			t.Errorf("text %d = %q", i, parts[i].Text)
		}
	}
	if parts[4].Text != "bad \uFFFD utf8" {
		t.Errorf("invalid UTF-8 = %q", parts[4].Text)
	}

	for name, bad := range map[string]func(*contentWriter){
		"empty text":   func(w *contentWriter) { w.text("") },
		"long text":    func(w *contentWriter) { w.text(strings.Repeat("a", 16_385)) },
		"bad key":      func(w *contentWriter) { w.frame("Source", "s", []byte(`{}`), "k", "s") },
		"bad instance": func(w *contentWriter) { w.frame("source-list", "-s", []byte(`{}`), "k", "s") },
		"no summary":   func(w *contentWriter) { w.frame("source-list", "s", []byte(`{}`), "k", "") },
	} {
		var w contentWriter
		w.text("ok")
		bad(&w)
		if w.String() != "" {
			t.Errorf("%s: written", name)
		}
	}
}
