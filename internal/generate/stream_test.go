package generate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/contract"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/provider"
	"github.com/askplane/askplane/internal/provider/anthropic"
	"github.com/askplane/askplane/internal/provider/deepseek"
	"github.com/askplane/askplane/internal/provider/openai"
)

// streamProvider is a fake provider API over real HTTP (httptest): it
// answers a streaming call with an SSE stream carrying the model text in
// the given deltas, in its provider's wire format, each event flushed on
// its own. With hold >= 0 it writes the events for deltas[:hold], calls
// onHold, then blocks until release is closed (or the client goes)
// before writing the rest. cut drops the terminal events: the
// connection just ends.
type streamProvider struct {
	name    string
	deltas  []string
	hold    int
	release chan struct{}
	onHold  func()
	cut     bool
	stop    string // Anthropic stop_reason; "" is end_turn

	srv      *httptest.Server
	once     sync.Once
	requests atomic.Int32
	lastBody atomic.Value
	beforeTx func(i int) // called just before chunk i is written
}

func newStreamProvider(t testing.TB, name string, deltas ...string) *streamProvider {
	t.Helper()
	f := &streamProvider{name: name, deltas: deltas, hold: -1, release: make(chan struct{})}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	t.Cleanup(f.Release) // runs first: Close waits for a held handler
	return f
}

// Release lets a held stream go on.
func (f *streamProvider) Release() { f.once.Do(func() { close(f.release) }) }

// client opens the provider's real adapter against the fake.
func (f *streamProvider) client(t testing.TB) provider.Client {
	t.Helper()
	cfg := provider.Config{Provider: f.name, Model: "fake-model", BaseURL: f.srv.URL + "/v1/", APIKeyEnv: "FAKE_KEY", Timeout: 10 * time.Second,
		Logger: slog.New(slog.DiscardHandler)}
	cfg, err := cfg.WithCredential(func(string) string { return "sk-test-" + strings.Repeat("7", 32) })
	if err != nil {
		t.Fatal(err)
	}
	var c provider.Client
	switch f.name {
	case "anthropic":
		c, err = anthropic.New(cfg)
	case "deepseek":
		c, err = deepseek.New(cfg)
	default:
		c, err = openai.New(cfg)
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// model is the Ask contract bound to the fake's adapter.
func (f *streamProvider) model(t testing.TB) *Model {
	t.Helper()
	return bindModel(t, f.client(t))
}

func (f *streamProvider) serve(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	body, _ := io.ReadAll(r.Body)
	f.lastBody.Store(string(body))
	full := strings.Join(f.deltas, "")
	if !strings.Contains(string(body), `"stream":true`) {
		// A unary call: the whole answer at once.
		w.Header().Set("Content-Type", "application/json")
		text, _ := json.Marshal(full)
		switch f.name {
		case "anthropic":
			fmt.Fprintf(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-fake","content":[{"type":"text","text":%s}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":120,"output_tokens":30}}`, text)
		case "deepseek":
			fmt.Fprintf(w, `{"id":"d1","object":"chat.completion","created":1,"model":"deepseek-fake","choices":[{"index":0,"message":{"role":"assistant","content":%s},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":120,"completion_tokens":30,"total_tokens":150}}`, text)
		default:
			fmt.Fprintf(w, `{"id":"resp_1","object":"response","status":"completed","model":"gpt-fake","output":[{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":%s,"annotations":[]}]}],"usage":{"input_tokens":120,"output_tokens":30,"total_tokens":150}}`, text)
		}
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	chunks := f.chunks(full)
	for i, c := range chunks {
		if i == f.hold {
			if f.onHold != nil {
				f.onHold()
			}
			select {
			case <-f.release:
			case <-r.Context().Done():
				return
			}
		}
		if i == len(chunks)-1 && f.cut {
			return
		}
		if f.beforeTx != nil {
			f.beforeTx(i)
		}
		if _, err := io.WriteString(w, c); err != nil || rc.Flush() != nil {
			return
		}
	}
}

// chunks renders the stream in len(deltas)+1 writes: chunk i carries
// delta i (the first also the start events), the last the terminal ones.
func (f *streamProvider) chunks(full string) []string {
	text, _ := json.Marshal(full)
	ev := func(name, data string) string { return "event: " + name + "\ndata: " + data + "\n\n" }
	seq := 0
	oa := func(e string) string { // an OpenAI event, numbered
		var head struct{ Type string }
		_ = json.Unmarshal([]byte(e), &head)
		s := ev(head.Type, fmt.Sprintf(`{"sequence_number":%d,%s`, seq, e[1:]))
		seq++
		return s
	}
	var start, end string
	delta := func(d string) string {
		q, _ := json.Marshal(d)
		if f.name == "anthropic" {
			return ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+string(q)+`}}`)
		}
		return oa(`{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":` + string(q) + `}`)
	}
	var out []string
	if f.name == "anthropic" {
		stop := f.stop
		if stop == "" {
			stop = "end_turn"
		}
		start = ev("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-fake","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":120,"output_tokens":1}}}`) +
			ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		for _, d := range f.deltas {
			out = append(out, delta(d))
		}
		end = ev("content_block_stop", `{"type":"content_block_stop","index":0}`) +
			ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"`+stop+`","stop_sequence":null},"usage":{"output_tokens":30}}`) +
			ev("message_stop", `{"type":"message_stop"}`)
	} else {
		start = oa(`{"type":"response.created","response":{"id":"resp_1","object":"response","status":"in_progress","model":"gpt-fake","output":[]}}`) +
			oa(`{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[]}}`) +
			oa(`{"type":"response.content_part.added","item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}`)
		for _, d := range f.deltas {
			out = append(out, delta(d))
		}
		final := `{"id":"resp_1","object":"response","status":"completed","model":"gpt-fake","output":[{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":` + string(text) + `,"annotations":[]}]}],"usage":{"input_tokens":120,"output_tokens":30,"total_tokens":150}}`
		end = oa(`{"type":"response.output_text.done","item_id":"msg_1","output_index":0,"content_index":0,"text":`+string(text)+`}`) +
			oa(`{"type":"response.completed","response":`+final+`}`)
	}
	if len(out) == 0 {
		out = []string{""}
	}
	out[0] = start + out[0]
	return append(out, end)
}

// runAsync runs the model on the package in the background, recording
// every text delta; released tells whether the fake was let go when each
// delta arrived.
type asyncRun struct {
	mu       sync.Mutex
	deltas   []string
	early    int // deltas that arrived before release
	first    chan string
	done     chan struct{}
	res      Result
	err      error
	released atomic.Bool
}

func runAsync(t *testing.T, m *Model, pkg *evidence.Package) *asyncRun {
	t.Helper()
	a := &asyncRun{first: make(chan string, 1), done: make(chan struct{})}
	go func() {
		defer close(a.done)
		a.res, a.err = Run(t.Context(), m, Question{Text: "How do I install it?"}, pkg, func(e Event) error {
			if e.Delta == "" {
				return nil
			}
			a.mu.Lock()
			defer a.mu.Unlock()
			if !a.released.Load() {
				a.early++
			}
			if len(a.deltas) == 0 {
				a.first <- e.Delta
			}
			a.deltas = append(a.deltas, e.Delta)
			return nil
		})
	}()
	return a
}

func (a *asyncRun) wait(t *testing.T) {
	t.Helper()
	select {
	case <-a.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the generation did not finish")
	}
}

func (a *asyncRun) emitted() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.deltas...)
}

var streamingProviders = []string{"anthropic", "openai"}

// (1) With a streaming, order-keeping provider, the answer's first words
// reach the reader while the provider is still holding the rest: the
// fake sends the cites and the first words, then blocks until the test
// has seen them as a delta. The answer then completes, validated, citing
// the record named, with the provider's usage.
func TestStreamEmitsTextBeforeTheProviderFinishes(t *testing.T) {
	for _, name := range streamingProviders {
		t.Run(name, func(t *testing.T) {
			pkg := installPackage(t)
			id := pkg.Records[0].ID
			f := newStreamProvider(t, name,
				`{"cites":["`+id+`"],`, ` "answer":"Install with `, "`go install`", `.\n\nThen verify."}`)
			f.hold = 2
			m := f.model(t)
			if !m.Streams() {
				t.Fatalf("%s model does not stream", name)
			}
			a := runAsync(t, m, pkg)
			select {
			case d := <-a.first:
				if d != "Install with " {
					t.Fatalf("first delta %q", d)
				}
			case <-a.done:
				t.Fatalf("finished before the provider was released: %v", a.err)
			case <-time.After(10 * time.Second):
				t.Fatal("no delta while the provider holds the rest of the answer")
			}
			a.released.Store(true)
			f.Release()
			a.wait(t)
			if a.err != nil {
				t.Fatal(a.err)
			}
			want := "Install with `go install`.\n\nThen verify."
			if a.res.Text != want || strings.Join(a.emitted(), "") != want {
				t.Errorf("text %q, deltas %q", a.res.Text, a.emitted())
			}
			if got := a.emitted(); len(got) != 3 || a.early != 1 {
				t.Errorf("deltas %q, %d before release", got, a.early)
			}
			if len(a.res.Used) != 1 || a.res.Used[0] != id {
				t.Errorf("used %v", a.res.Used)
			}
			if u := a.res.Usage; u == nil || !strings.Contains(u.Model, "fake") || u.InputTokens != 120 {
				t.Errorf("usage %+v", a.res.Usage)
			}
			if body, _ := f.lastBody.Load().(string); !strings.Contains(body, `"stream":true`) ||
				!strings.Contains(body, `"properties":{"cites":`) {
				t.Errorf("request %s", body)
			}
		})
	}
}

// (2) Cites naming a record the evidence does not hold, or none, end the
// call as ungrounded as soon as the cites array closes: no text is
// emitted, and the provider is not waited for (it holds the rest of the
// answer until the test ends).
func TestStreamUngroundedCitesEmitNothing(t *testing.T) {
	pkg := installPackage(t)
	id := pkg.Records[0].ID
	for _, name := range streamingProviders {
		for _, c := range []struct {
			name, cites string
			want        error
		}{
			{"unknown cite", `"` + id + `","not-in-the-package-0123456789ab"`, ErrUnknownCite},
			{"only unknown", `"r-elsewhere"`, ErrUnknownCite},
			{"no cites", ``, ErrUncited},
		} {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				f := newStreamProvider(t, name, `{"cites":[`, c.cites+`],"answer":"Yes`, `, it is."}`)
				f.hold = 2
				a := runAsync(t, f.model(t), pkg)
				a.wait(t)
				if !errors.Is(a.err, c.want) {
					t.Fatalf("error %v, want %v", a.err, c.want)
				}
				var ge *Error
				if !errors.As(a.err, &ge) || ge.Code != CodeUngrounded {
					t.Fatalf("error %v is not %s", a.err, CodeUngrounded)
				}
				if got := a.emitted(); len(got) != 0 {
					t.Fatalf("emitted %q", got)
				}
			})
		}
	}
}

// (3) A model that writes the answer before its cites gets no streaming:
// nothing is emitted while the provider holds the rest, and the answer
// comes whole once the complete output was validated.
func TestStreamAnswerBeforeCitesWaitsForTheWholeOutput(t *testing.T) {
	pkg := installPackage(t)
	id := pkg.Records[0].ID
	for _, name := range streamingProviders {
		t.Run(name, func(t *testing.T) {
			f := newStreamProvider(t, name, `{"answer":"Install `, `with go install."`, `,"cites":["`+id+`"]}`)
			f.hold = 2
			held := make(chan struct{})
			f.onHold = func() { close(held) }
			a := runAsync(t, f.model(t), pkg)
			select {
			case <-held:
			case <-time.After(10 * time.Second):
				t.Fatal("the provider never reached its hold")
			}
			time.Sleep(50 * time.Millisecond) // room for a wrong early delta to show
			if got := a.emitted(); len(got) != 0 {
				t.Fatalf("emitted %q before the cites", got)
			}
			a.released.Store(true)
			f.Release()
			a.wait(t)
			if a.err != nil || a.res.Text != "Install with go install." || a.early != 0 || len(a.res.Used) != 1 {
				t.Fatalf("text %q used %v early %d: %v", a.res.Text, a.res.Used, a.early, a.err)
			}
		})
	}
}

// A provider without streaming (DeepSeek) or without a promise of key
// order (OpenAI-compatible servers) stays unary.
func TestModelStaysUnaryWithoutOrderedStreaming(t *testing.T) {
	pkg := installPackage(t)
	id := pkg.Records[0].ID
	for name, streams := range map[string]bool{"anthropic": true, "openai": true, "openai-compatible": false, "deepseek": false} {
		t.Run(name, func(t *testing.T) {
			f := newStreamProvider(t, name, `{"cites":["`+id+`"],"answer":"Install it."}`)
			m := f.model(t)
			if m.Streams() != streams {
				t.Fatalf("Streams() = %v", m.Streams())
			}
			res, err := Run(t.Context(), m, Question{Text: "install?"}, pkg, nil)
			if err != nil || res.Text != "Install it." {
				t.Fatalf("text %q: %v", res.Text, err)
			}
			body, _ := f.lastBody.Load().(string)
			if strings.Contains(body, `"stream":true`) == !streams {
				t.Errorf("stream flag in %s", body)
			}
		})
	}
}

// escapedAnswer is model text whose answer has every JSON escape, a
// surrogate pair written as two \u escapes, lone surrogates and raw
// multi-byte characters.
const escapedAnswer = `Tab\there, \"quoted\" back\\slash \/ line\nnext\r\b\f` +
	` \u00e9 é \u20AC \ud83d\ude00 😀 \uD83D\uDE00` +
	` lone \ud800 then \udc00x \ud83d\u0041 \ud83d\ud83d\ude00 \ud83d\n end`

func escapedOutput(id string) string {
	return `{"cites":["` + id + `"],"answer":"` + escapedAnswer + `"}`
}

// (4) Escapes split across provider deltas decode exactly as
// encoding/json decodes the whole text.
func TestStreamDecodesEscapesSplitAcrossChunks(t *testing.T) {
	pkg := installPackage(t)
	id := pkg.Records[0].ID
	doc := escapedOutput(id)
	var want contract.AskOutput
	if err := json.Unmarshal([]byte(doc), &want); err != nil {
		t.Fatal(err)
	}
	for _, name := range streamingProviders {
		for _, size := range []int{1, 2, 3, 5} {
			t.Run(fmt.Sprintf("%s/%d", name, size), func(t *testing.T) {
				f := newStreamProvider(t, name, splitRunes(doc, size)...)
				a := runAsync(t, f.model(t), pkg)
				a.wait(t)
				if a.err != nil {
					t.Fatal(a.err)
				}
				if a.res.Text != want.Answer || strings.Join(a.emitted(), "") != want.Answer {
					t.Fatalf("text %q\nwant %q", a.res.Text, want.Answer)
				}
				if len(a.emitted()) < 10 {
					t.Errorf("only %d deltas: the answer was not streamed", len(a.emitted()))
				}
			})
		}
	}
}

// splitRunes cuts s into pieces of n runes (provider deltas are strings
// of whole characters).
func splitRunes(s string, n int) []string {
	var out []string
	r := []rune(s)
	for i := 0; i < len(r); i += n {
		out = append(out, string(r[i:min(i+n, len(r))]))
	}
	return out
}

// The parser alone, at every split point and chunk size, bytes included.
func TestAnswerParserMatchesEncodingJSON(t *testing.T) {
	doc := escapedOutput("r1")
	var want contract.AskOutput
	if err := json.Unmarshal([]byte(doc), &want); err != nil {
		t.Fatal(err)
	}
	check := func(chunks []string) {
		t.Helper()
		got, cites, aside := parseChunks(chunks)
		if got != want.Answer || len(cites) != 1 || cites[0] != "r1" || aside {
			t.Fatalf("chunks %q: got %q cites %v aside %v", chunks, got, cites, aside)
		}
	}
	for i := range len(doc) + 1 {
		check([]string{doc[:i], doc[i:]})
	}
	for n := 1; n <= 13; n++ {
		var chunks []string
		for i := 0; i < len(doc); i += n {
			chunks = append(chunks, doc[i:min(i+n, len(doc))])
		}
		check(chunks)
	}
}

// parseChunks feeds chunks to a parser that accepts any cites and returns
// the text it emitted, the cites and whether it stood aside.
func parseChunks(chunks []string) (string, []string, bool) {
	var text strings.Builder
	var cites []string
	p := &answerParser{
		onCites: func(c []string) error { cites = c; return nil },
		onText:  func(s string) error { text.WriteString(s); return nil },
	}
	for _, c := range chunks {
		_ = p.Feed(c)
	}
	return text.String(), cites, p.state == pAside
}

// Shapes the parser follows, and those it stands aside from.
func TestAnswerParserShapes(t *testing.T) {
	for _, c := range []struct {
		doc, text string
		checked   bool
		aside     bool
	}{
		{" \n{ \"cites\" : [ \"a\" , \"b\" ] ,\r\n\t\"answer\" : \"x y\" }\n", "x y", true, false},
		{`{"cites":["a"],"answer":"  \n  hello"}`, "  \n  hello", true, false}, // leading space waits for a word
		{`{"cites":["a"],"answer":"  \n  "}`, "", true, false},                 // a blank answer emits nothing
		{`{"answer":"x","cites":["a"]}`, "", false, true},
		{`{"cites":["a"],"note":"x","answer":"y"}`, "", true, true},
		{`{"cites":["a"]}`, "", true, true},
		{`{"cites":"a","answer":"y"}`, "", false, true},
		{`{"cites":["a"],"answer":"ok` + "\x01" + `"}`, "ok", true, true}, // a raw control character
		{`{"cites":["a"],"answer":"bad \q"}`, "bad ", true, true},
		{`{"cites":["a"],"answer":"bad \u12G4"}`, "bad ", true, true},
		{`{"cites":["a\u0062"],"answer":"done"} trailing`, "done", true, false}, // the schema judges the rest
	} {
		text, _, aside := parseChunks(splitRunes(c.doc, 1))
		p := &answerParser{onCites: func([]string) error { return nil }, onText: func(string) error { return nil }}
		_ = p.Feed(c.doc)
		if text != c.text || p.Checked() != c.checked || aside != c.aside {
			t.Errorf("%q: text %q checked %v aside %v", c.doc, text, p.Checked(), aside)
		}
	}
	p := &answerParser{onCites: func([]string) error { return nil }, onText: func(string) error { return nil }}
	_ = p.Feed(`{"cites":["a\u0062", "c"],"answer":""}`)
	if c := p.Cites(); len(c) != 2 || c[0] != "ab" || c[1] != "c" {
		t.Errorf("cites %q", c)
	}
}

// The parser's answer text is encoding/json's, for any valid document
// and any chunk size.
func FuzzAnswerParser(f *testing.F) {
	f.Add(escapedAnswer, uint8(1))
	f.Add(`plain`, uint8(3))
	f.Add(`\ud83d\ude00\ud800`, uint8(2))
	f.Add(`\\\"\u0000`, uint8(5))
	f.Fuzz(func(t *testing.T, answer string, size uint8) {
		doc := `{"cites":["a"],"answer":"` + answer + `"}`
		var want contract.AskOutput
		if !utf8.ValidString(doc) || json.Unmarshal([]byte(doc), &want) != nil {
			return
		}
		n := 1 + int(size%16)
		var chunks []string
		for i := 0; i < len(doc); i += n {
			chunks = append(chunks, doc[i:min(i+n, len(doc))])
		}
		got, _, aside := parseChunks(chunks)
		if strings.TrimSpace(want.Answer) == "" {
			want.Answer = ""
		}
		if aside || got != want.Answer {
			t.Fatalf("%q in chunks of %d: got %q, want %q (aside %v)", doc, n, got, want.Answer, aside)
		}
	})
}

// (5) A stream that breaks off, or that the provider cut at max tokens,
// ends in a generation error. Text sent before the break stays sent:
// its cites were checked, and the handler ends the reader's stream with
// an error event.
func TestStreamTruncatedEndsInAnError(t *testing.T) {
	pkg := installPackage(t)
	id := pkg.Records[0].ID
	for _, name := range streamingProviders {
		t.Run(name+"/connection", func(t *testing.T) {
			f := newStreamProvider(t, name, `{"cites":["`+id+`"],"answer":"Install with `, `go install.`)
			f.cut = true
			a := runAsync(t, f.model(t), pkg)
			a.wait(t)
			var pe *provider.Error
			if !errors.As(a.err, &pe) || pe.Code != provider.CodeStreamTruncated {
				t.Fatalf("error %v", a.err)
			}
			if got := strings.Join(a.emitted(), ""); got != "Install with go install." {
				t.Errorf("emitted %q", got)
			}
		})
	}
	t.Run("anthropic/max_tokens", func(t *testing.T) {
		f := newStreamProvider(t, "anthropic", `{"cites":["`+id+`"],"answer":"Install with `, `go inst`)
		f.stop = "max_tokens"
		a := runAsync(t, f.model(t), pkg)
		a.wait(t)
		var ae *contract.Error
		if !errors.As(a.err, &ae) || ae.Code != contract.CodeOutputTruncated {
			t.Fatalf("error %v", a.err)
		}
	})
	t.Run("anthropic/unclosed", func(t *testing.T) {
		f := newStreamProvider(t, "anthropic", `{"cites":["`+id+`"],"answer":"Install with `, `go inst`)
		a := runAsync(t, f.model(t), pkg)
		a.wait(t)
		var ae *contract.Error
		if !errors.As(a.err, &ae) || ae.Code != contract.CodeOutputMalformed {
			t.Fatalf("error %v", a.err)
		}
	})
}

// The answer's length bound is enforced while streaming, so an
// over-long answer stops at the bound instead of at the end; and the
// emit callback's error comes back unchanged.
func TestStreamBoundsAndEmitErrors(t *testing.T) {
	pkg := installPackage(t)
	id := pkg.Records[0].ID
	long := strings.Repeat("é", 1000)
	deltas := []string{`{"cites":["` + id + `"],"answer":"`}
	for range 9 {
		deltas = append(deltas, long)
	}
	f := newStreamProvider(t, "anthropic", append(deltas, `"}`)...)
	a := runAsync(t, f.model(t), pkg)
	a.wait(t)
	var ae *contract.Error
	if !errors.As(a.err, &ae) || ae.Code != contract.CodeOutputInvalid || ae.Path != "/properties/answer/maxLength" {
		t.Fatalf("error %v", a.err)
	}
	if n := utf8.RuneCountInString(strings.Join(a.emitted(), "")); n > contract.AskMaxAnswerLen {
		t.Errorf("%d characters emitted", n)
	}

	boom := errors.New("client gone")
	f = newStreamProvider(t, "openai", `{"cites":["`+id+`"],"answer":"One`, ` two"}`)
	err := f.model(t).Generate(t.Context(), Question{Text: "install?"}, pkg, func(Event) error { return boom })
	if err != boom {
		t.Fatalf("error %v, want emit's own", err)
	}
}

// BenchmarkStreamFirstDelta measures, over real HTTP on loopback, the time
// from the fake provider writing the SSE event with the answer's first
// words (the cites already sent) to the generator emitting them: the
// transport, the adapter's accumulator and the incremental parse.
func BenchmarkStreamFirstDelta(b *testing.B) {
	_, ix := setup(b)
	pkg := ix.Search("install verify cache", evidence.Budget{})
	id := pkg.Records[0].ID
	for _, name := range streamingProviders {
		b.Run(name, func(b *testing.B) {
			f := newStreamProvider(b, name, `{"cites":["`+id+`"],`, `"answer":"Install with `, "`go install`", `."}`)
			var t0 atomic.Int64
			f.beforeTx = func(i int) {
				if i == 1 {
					t0.Store(time.Now().UnixNano())
				}
			}
			m := f.model(b)
			var total time.Duration
			b.ResetTimer()
			for range b.N {
				first := true
				err := m.Generate(context.Background(), Question{Text: "install?"}, &pkg, func(e Event) error {
					if first && e.Delta != "" {
						first = false
						total += time.Duration(time.Now().UnixNano() - t0.Load())
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "ns-to-first-delta")
		})
	}
}

// BenchmarkAnswerParser is the parse cost per streamed answer (cites and
// a 2 KB answer in 8-byte deltas).
func BenchmarkAnswerParser(b *testing.B) {
	doc := `{"cites":["r1","r2"],"answer":"` + strings.Repeat(`Install with go install, then run \"askplane verify\".\n`, 36) + `"}`
	chunks := splitRunes(doc, 8)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for range b.N {
		p := &answerParser{onCites: func([]string) error { return nil }, onText: func(string) error { return nil }}
		for _, c := range chunks {
			_ = p.Feed(c)
		}
	}
}
