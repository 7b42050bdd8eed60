package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

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

// chunkReader returns at most n bytes per Read.
type chunkReader struct {
	r io.Reader
	n int
}

func (c chunkReader) Read(p []byte) (int, error) {
	if len(p) > c.n {
		p = p[:c.n]
	}
	return c.r.Read(p)
}

func readAllEvents(t testing.TB, r io.Reader) ([]AskEvent, error) {
	t.Helper()
	ar := NewAskEventReader(r)
	var out []AskEvent
	for {
		ev, err := ar.Next()
		if err != nil {
			if err == io.EOF {
				if _, err2 := ar.Next(); err2 != io.EOF {
					t.Fatalf("Next after EOF = %v", err2)
				}
			}
			return out, err
		}
		out = append(out, ev)
	}
}

// lineStats returns the number of lines DecodeAskEvents(data + "\n") looks
// at and the longest raw line.
func lineStats(data []byte) (lines, longest int) {
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return lines + 1, max(longest, len(data))
		}
		lines++
		longest = max(longest, i)
		data = data[i+1:]
	}
}

// readerAgrees reports whether AskEventReader is specified to yield what
// DecodeAskEvents(data + "\n") yields: no line budget is hit and no raw
// line is over the size limit.
func readerAgrees(data []byte) bool {
	lines, longest := lineStats(data)
	return lines <= MaxAskEventLines && longest <= MaxAskEventBytes
}

func TestAskEventReaderMatchesDecoderOnVectors(t *testing.T) {
	for _, c := range loadAskEventVectors(t) {
		in := c.input()
		if !readerAgrees(in) {
			continue
		}
		want, _, _ := DecodeAskEvents(append(bytes.Clone(in), '\n'))
		sizes := []int{askReadChunk, 4096, 7}
		if len(in) < 64<<10 {
			sizes = append(sizes, 1)
		}
		for _, n := range sizes {
			got, err := readAllEvents(t, chunkReader{bytes.NewReader(in), n})
			if err != io.EOF {
				t.Fatalf("%s/%d: err %v", c.Name, n, err)
			}
			if !reflect.DeepEqual(encodeAll(got), encodeAll(want)) {
				t.Errorf("%s/%d: reader events\n%s\nwant\n%s", c.Name, n, strings.Join(encodeAll(got), "\n"), strings.Join(encodeAll(want), "\n"))
			}
		}
	}
}

func TestAskEventReaderDiscardsTheTailOfAnOversizedLine(t *testing.T) {
	// The tail of an oversized line is itself a valid event. Decoding each
	// read separately would surface it once the head is discarded.
	head := strings.Repeat("x", MaxAskEventBytes+1)
	tail := `{"type":"done","model":"smuggled"}` + "\n" + `{"type":"text","delta":"ok"}` + "\n"
	_, _, discarded := DecodeAskEvents([]byte(head))
	if !discarded {
		t.Fatal("DecodeAskEvents kept an oversized partial")
	}
	if evs, _, _ := DecodeAskEvents([]byte(tail)); len(evs) != 2 {
		t.Fatal("the tail alone should decode to two events")
	}
	for name, r := range map[string]io.Reader{
		"tail in its own read":         io.MultiReader(strings.NewReader(head), strings.NewReader(tail)),
		"tail shares a read":           strings.NewReader(head + tail),
		"tail one byte at a time":      io.MultiReader(strings.NewReader(head), iotest.OneByteReader(strings.NewReader(tail))),
		"head and tail in 1000s":       chunkReader{strings.NewReader(head + tail), 1000},
		"head over a read, then bytes": io.MultiReader(strings.NewReader(head[:MaxAskEventBytes-3]), iotest.OneByteReader(strings.NewReader(head[MaxAskEventBytes-3:]+tail))),
	} {
		got, err := readAllEvents(t, r)
		if err != io.EOF || len(got) != 1 || got[0] != (AskTextEvent{Delta: "ok"}) {
			t.Errorf("%s: got %v, %v; want only the text event", name, encodeAll(got), err)
		}
	}
}

func TestAskEventReaderDropsRawLinesOverTheLimit(t *testing.T) {
	// DecodeAskEvents measures the trimmed line; the reader measures the raw
	// line so its result does not depend on chunking (see AskEventReader).
	padded := strings.Repeat(" ", MaxAskEventBytes) + `{"type":"done"}` + "\n"
	if evs, _, _ := DecodeAskEvents([]byte(padded)); len(evs) != 1 {
		t.Fatal("DecodeAskEvents should accept a padded line in one buffer")
	}
	got, err := readAllEvents(t, strings.NewReader(padded+`{"type":"text","delta":"next"}`+"\n"))
	if err != io.EOF || len(got) != 1 || got[0] != (AskTextEvent{Delta: "next"}) {
		t.Errorf("got %v, %v", encodeAll(got), err)
	}
}

func TestAskEventReaderBoundsMemory(t *testing.T) {
	// 5 MiB without a newline, then a valid line.
	r := io.MultiReader(
		io.LimitReader(repeatReader('x'), 5<<20),
		strings.NewReader("\n"+`{"type":"done"}`+"\n"),
	)
	ar := NewAskEventReader(r)
	ev, err := ar.Next()
	if err != nil || ev.Type() != AskEventDone {
		t.Fatalf("Next = %v, %v", ev, err)
	}
	if cap(ar.line) > MaxAskEventBytes || cap(ar.chunk) > askReadChunk {
		t.Errorf("buffers grew to %d + %d bytes", cap(ar.line), cap(ar.chunk))
	}
	if _, err := ar.Next(); err != io.EOF {
		t.Errorf("Next = %v, want EOF", err)
	}
}

type repeatReader byte

func (b repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

func TestAskEventReaderEndOfStream(t *testing.T) {
	got, err := readAllEvents(t, strings.NewReader(`{"type":"text","delta":"a"}`+"\n"+`  {"type":"done"}  `))
	if err != io.EOF || !reflect.DeepEqual(encodeAll(got), []string{`{"type":"text","delta":"a"}`, `{"type":"done"}`}) {
		t.Errorf("got %v, %v; want the final partial decoded as a line", encodeAll(got), err)
	}
	got, err = readAllEvents(t, strings.NewReader(""))
	if err != io.EOF || len(got) != 0 {
		t.Errorf("empty stream: %v, %v", got, err)
	}
	// Data and EOF in the same Read.
	got, err = readAllEvents(t, iotest.DataErrReader(strings.NewReader(`{"type":"done"}`)))
	if err != io.EOF || len(got) != 1 {
		t.Errorf("DataErrReader: %v, %v", encodeAll(got), err)
	}
}

func TestAskEventReaderReadError(t *testing.T) {
	boom := errors.New("connection reset")
	r := io.MultiReader(strings.NewReader(`{"type":"text","delta":"a"}`+"\n"+`{"type":"done"}`), iotest.ErrReader(boom))
	got, err := readAllEvents(t, r)
	if !errors.Is(err, boom) || len(got) != 1 || got[0] != (AskTextEvent{Delta: "a"}) {
		t.Errorf("got %v, %v; want the complete line, then the error with the partial dropped", encodeAll(got), err)
	}
	if _, err := readAllEvents(t, zeroReader{}); !errors.Is(err, io.ErrNoProgress) {
		t.Errorf("zero reads: err = %v, want io.ErrNoProgress", err)
	}
}

type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

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

func TestCanonicalToolArgs(t *testing.T) {
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
		got, err := CanonicalToolArgs([]byte(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("CanonicalToolArgs(%s) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{``, `[]`, `null`, `"x"`, `{`, `{"` + strings.Repeat("k", 129) + `":1}`} {
		if _, err := CanonicalToolArgs([]byte(in)); err == nil {
			t.Errorf("CanonicalToolArgs(%.40s) accepted", in)
		}
	}
	// A large object with duplicates takes the map path.
	var b strings.Builder
	b.WriteString("{")
	for i := range 20 {
		fmt.Fprintf(&b, `"k%d":%d,`, i%10, i)
	}
	b.WriteString(`"k0":"last"}`)
	got, _ := CanonicalToolArgs([]byte(b.String()))
	if want := `{"k0":"last","k1":11,"k2":12,"k3":13,"k4":14,"k5":15,"k6":16,"k7":17,"k8":18,"k9":19}`; string(got) != want {
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
// holds a newline and stays bounded, every event re-encodes to one line that
// decodes back to it, and the streaming reader agrees with the decoder.
func FuzzDecodeAskEvents(f *testing.F) {
	for _, c := range loadAskEventVectors(f) {
		if in := c.input(); len(in) <= 4096 {
			f.Add(in, uint16(7))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, chunk uint16) {
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
		if readerAgrees(data) {
			want, _, _ := DecodeAskEvents(append(bytes.Clone(data), '\n'))
			got, err := readAllEvents(t, chunkReader{bytes.NewReader(data), int(chunk%512) + 1})
			if err != io.EOF || !reflect.DeepEqual(encodeAll(got), encodeAll(want)) {
				t.Fatalf("reader %v, %v; decoder %v", encodeAll(got), err, encodeAll(want))
			}
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

func BenchmarkAskEventReader(b *testing.B) {
	var buf []byte
	for i := range 1000 {
		buf = AppendNDJSON(buf, AskTextEvent{Delta: fmt.Sprintf("token %d of a streamed answer, ", i)})
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewAskEventReader(bytes.NewReader(buf))
		n := 0
		for {
			if _, err := r.Next(); err != nil {
				break
			}
			n++
		}
		if n != 1000 {
			b.Fatalf("%d events", n)
		}
	}
}
