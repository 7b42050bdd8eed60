package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/ecmajson"

	"github.com/askplane/askplane/internal/conformance"
)

// askEventVector is one case of testdata/conformance/ask-events.json.
type askEventVector struct {
	Name           string                `json:"name"`
	Input          *string               `json:"input"`
	Generate       *conformance.Generate `json:"generate"`
	Events         []json.RawMessage     `json:"events"`
	EventsGenerate *struct {
		Prefix []json.RawMessage `json:"prefix"`
		Repeat []json.RawMessage `json:"repeat"`
		Count  int               `json:"count"`
		Suffix []json.RawMessage `json:"suffix"`
	} `json:"eventsGenerate"`
	Rest             *string               `json:"rest"`
	RestGenerate     *conformance.Generate `json:"restGenerate"`
	DiscardedPartial bool                  `json:"discardedPartial"`
	Note             string                `json:"note"`
}

func (v askEventVector) input() []byte {
	if v.Generate != nil {
		return v.Generate.Bytes()
	}
	return []byte(*v.Input)
}

func (v askEventVector) rest() []byte {
	if v.RestGenerate != nil {
		return v.RestGenerate.Bytes()
	}
	return []byte(*v.Rest)
}

// events returns the expected events as compact JSON, which is what
// JSON.stringify writes for them.
func (v askEventVector) events(t testing.TB) []string {
	t.Helper()
	list := v.Events
	if g := v.EventsGenerate; g != nil {
		list = append([]json.RawMessage(nil), g.Prefix...)
		for range g.Count {
			list = append(list, g.Repeat...)
		}
		list = append(list, g.Suffix...)
	}
	out := make([]string, len(list))
	for i, raw := range list {
		var b bytes.Buffer
		if err := json.Compact(&b, raw); err != nil {
			t.Fatalf("%s: event %d: %v", v.Name, i, err)
		}
		out[i] = b.String()
	}
	return out
}

func loadAskEventVectors(t testing.TB) []askEventVector {
	t.Helper()
	var f struct {
		Cases []askEventVector `json:"cases"`
	}
	conformance.Load(t, "ask-events.json", &f)
	if len(f.Cases) < 25 {
		t.Fatalf("ask-events.json: %d cases, want at least 25", len(f.Cases))
	}
	for _, c := range f.Cases {
		if (c.Input == nil) == (c.Generate == nil) || (c.Rest == nil) == (c.RestGenerate == nil) ||
			(c.Events == nil) == (c.EventsGenerate == nil) {
			t.Fatalf("%s: want exactly one of input/generate, rest/restGenerate and events/eventsGenerate", c.Name)
		}
	}
	return f.Cases
}

func encodeAll(events []AskEvent) []string {
	out := make([]string, len(events))
	for i, ev := range events {
		out[i] = string(ev.AppendJSON(nil))
	}
	return out
}

func TestAskEventVectors(t *testing.T) {
	for _, c := range loadAskEventVectors(t) {
		t.Run(c.Name, func(t *testing.T) {
			events, rest, discarded := DecodeAskEvents(c.input())
			got, want := encodeAll(events), c.events(t)
			if len(got) != len(want) {
				t.Fatalf("%d events, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("event %d:\ngot  %s\nwant %s", i, got[i], want[i])
				}
				checkAskEventRoundTrip(t, events[i])
			}
			if !bytes.Equal(rest, c.rest()) {
				t.Errorf("rest = %.80q (%d bytes), want %.80q", rest, len(rest), c.rest())
			}
			if discarded != c.DiscardedPartial {
				t.Errorf("discardedPartial = %v, want %v", discarded, c.DiscardedPartial)
			}
		})
	}
}

// checkAskEventRoundTrip asserts that ev encodes to one line that decodes
// back to ev.
func checkAskEventRoundTrip(t testing.TB, ev AskEvent) {
	t.Helper()
	line := ev.AppendJSON(nil)
	if bytes.IndexByte(line, '\n') >= 0 {
		t.Fatalf("encoding spans lines: %q", line)
	}
	again, ok := decodeAskEventJSON(new(ecmajson.Parser), line)
	if !ok {
		t.Fatalf("re-decode failed: %s", line)
	}
	if !reflect.DeepEqual(ev, again) {
		t.Fatalf("round trip changed the event:\n%#v\n%#v", ev, again)
	}
	if nd := AppendNDJSON(nil, ev); !bytes.Equal(nd, append(line, '\n')) {
		t.Fatalf("AppendNDJSON = %q", nd)
	}
}

func TestAskEventEncoding(t *testing.T) {
	retry, model := true, ""
	for _, tc := range []struct {
		ev   AskEvent
		want string
	}{
		{AskTextEvent{}, `{"type":"text","delta":""}`},
		{AskTextEvent{Delta: "</script>&\u2028\u2029\x00\x1f\x7f\"\\\n\té😀"}, `{"type":"text","delta":"</script>&` + "\u2028\u2029" + `\u0000\u001f` + "\x7f" + `\"\\\n\té😀"}`},
		{AskToolEvent{ID: "sources-r1", Name: "cite", Args: []byte(`{"sources":[{"id":"a","title":"A","path":"/a"}]}`)}, `{"type":"tool","id":"sources-r1","name":"cite","args":{"sources":[{"id":"a","title":"A","path":"/a"}]}}`},
		{AskToolEvent{ID: "t", Name: "n"}, `{"type":"tool","id":"t","name":"n","args":{}}`},
		{AskToolEvent{ID: "t", Name: "n", Args: []byte("{\n  \"b\": 1e21,\n  \"a\": \"\\u00e9\\/\",\n  \"1\": [ ]\n}")}, `{"type":"tool","id":"t","name":"n","args":{"1":[],"b":1e+21,"a":"é/"}}`},
		{AskToolEvent{ID: "t", Name: "n", Args: []byte(`[1]`)}, `{"type":"tool","id":"t","name":"n","args":{}}`},
		{AskDoneEvent{}, `{"type":"done"}`},
		{AskDoneEvent{Model: &model}, `{"type":"done","model":""}`},
		{AskDoneEvent{Model: new("fixture-model")}, `{"type":"done","model":"fixture-model"}`},
		{AskErrorEvent{Message: "m"}, `{"type":"error","message":"m"}`},
		{AskErrorEvent{Message: "The Ask request timed out.", Code: string(CodeAskTimeout), Retryable: &retry}, `{"type":"error","message":"The Ask request timed out.","code":"ASK_TIMEOUT","retryable":true}`},
		{AskErrorEvent{Message: "m", Retryable: new(false)}, `{"type":"error","message":"m","retryable":false}`},
	} {
		if got := string(tc.ev.AppendJSON([]byte("prefix:"))); got != "prefix:"+tc.want {
			t.Errorf("AppendJSON:\ngot  %s\nwant prefix:%s", got, tc.want)
		}
		if got := string(AppendNDJSON(nil, tc.ev)); got != tc.want+"\n" {
			t.Errorf("AppendNDJSON = %q", got)
		}
		if !json.Valid([]byte(tc.want)) {
			t.Errorf("not JSON: %s", tc.want)
		}
	}
	if _, err := (AskToolEvent{Args: []byte(`[]`)}).MarshalJSON(); err == nil {
		t.Error("MarshalJSON accepted array args")
	}
	if b, err := json.Marshal([]AskEvent{AskTextEvent{Delta: "<"}, AskDoneEvent{}}); err != nil || string(b) != `[{"type":"text","delta":"\u003c"},{"type":"done"}]` {
		// encoding/json re-escapes HTML in MarshalJSON output; the NDJSON
		// path (AppendJSON) does not.
		t.Errorf("json.Marshal = %s, %v", b, err)
	}
}

// TestToolArgsCanonical checks the form AskToolEvent writes its args in,
// the bytes JSON.stringify writes for the value zod returns.
func TestToolArgsCanonical(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{}`, `{}`},
		{` { "a" : 1 } `, `{"a":1}`},
		{`{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{`{"b":0,"2":1,"10":2,"01":3,"-1":4,"4294967294":5,"4294967295":6,"0":7}`, `{"0":7,"2":1,"10":2,"4294967294":5,"b":0,"01":3,"-1":4,"4294967295":6}`},
		{`{"__proto__":1,"x":{"__proto__":2,"1":3}}`, `{"x":{"1":3,"__proto__":2}}`},
		{`{"n":[0,-0,1E400,-1e400,1e-400,0.1,1e21,1e-7,123e-20]}`, `{"n":[0,0,null,null,0,0.1,1e+21,1e-7,1.23e-18]}`},
		{`{"s":"\u2028\/\ud83d\ude00\u0007"}`, `{"s":"` + "\u2028" + `/😀\u0007"}`},
		{`{"k":{"z":1,"y":2,"z":3}}`, `{"k":{"z":3,"y":2}}`},
	} {
		got, err := AskToolEvent{ID: "t", Name: "n", Args: []byte(tc.in)}.MarshalJSON()
		if want := `{"type":"tool","id":"t","name":"n","args":` + tc.want + `}`; err != nil || string(got) != want {
			t.Errorf("args %s: %s, %v; want %s", tc.in, got, err, want)
		}
	}
	for _, in := range []string{`[]`, `null`, `"x"`, `{`} {
		if _, err := (AskToolEvent{Args: []byte(in)}).MarshalJSON(); err == nil {
			t.Errorf("args %.40s accepted", in)
		}
	}
	// A large object with duplicates takes the map path.
	var b strings.Builder
	b.WriteString("{")
	for i := range 20 {
		fmt.Fprintf(&b, `"k%d":%d,`, i%10, i)
	}
	b.WriteString(`"k0":"last"}`)
	got := AskToolEvent{ID: "t", Name: "n", Args: []byte(b.String())}.AppendJSON(nil)
	if want := `{"type":"tool","id":"t","name":"n","args":{"k0":"last","k1":11,"k2":12,"k3":13,"k4":14,"k5":15,"k6":16,"k7":17,"k8":18,"k9":19}}`; string(got) != want {
		t.Errorf("duplicates: %s", got)
	}
}

func TestAskEventTypes(t *testing.T) {
	for ev, want := range map[AskEvent]string{
		AskTextEvent{}: AskEventText, AskDoneEvent{}: AskEventDone, AskErrorEvent{}: AskEventError,
	} {
		if ev.Type() != want {
			t.Errorf("%T.Type() = %s", ev, ev.Type())
		}
	}
	if (AskToolEvent{}).Type() != AskEventTool {
		t.Error("tool type")
	}
}

// FuzzDecodeAskEvents checks the decoder's invariants: no panic, rest never
// holds a newline and stays bounded, and every event re-encodes to one line
// that decodes back to it.
func FuzzDecodeAskEvents(f *testing.F) {
	for _, c := range loadAskEventVectors(f) {
		if in := c.input(); len(in) <= 4096 {
			f.Add(in)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		events, rest, discarded := DecodeAskEvents(data)
		if bytes.IndexByte(rest, '\n') >= 0 {
			t.Fatalf("rest holds a newline: %q", rest)
		}
		if len(rest) > MaxAskEventBytes || (discarded && rest != nil) {
			t.Fatalf("rest %d bytes, discarded %v", len(rest), discarded)
		}
		if len(events) > MaxAskEventLines || len(events) > bytes.Count(data, []byte{'\n'}) {
			t.Fatalf("%d events", len(events))
		}
		for _, ev := range events {
			checkAskEventRoundTrip(t, ev)
		}
	})
}

func BenchmarkDecodeAskEvents(b *testing.B) {
	var buf []byte
	for i := range 1000 {
		buf = AppendNDJSON(buf, AskTextEvent{Delta: fmt.Sprintf("token %d of a streamed answer, ", i)})
	}
	buf = AppendNDJSON(buf, AskToolEvent{ID: "sources-r1", Name: "cite", Args: []byte(`{"sources":[{"id":"a","title":"A","path":"/docs/a"}]}`)})
	buf = AppendNDJSON(buf, AskDoneEvent{Model: new("bench-model")})
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		events, _, _ := DecodeAskEvents(buf)
		if len(events) != 1002 {
			b.Fatalf("%d events", len(events))
		}
	}
}
