package sidecar

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/generate"
)

// fakeProvider answers one provider's API on a real loopback server with
// the model output given, in that provider's wire format (a stream of
// small text deltas when the call asks to stream), and records what it
// was sent.
type fakeProvider struct {
	srv      *httptest.Server
	requests atomic.Int64
	lastAuth atomic.Value // string
	lastBody atomic.Value // string
}

func newFakeProvider(t *testing.T, name, output string) *fakeProvider {
	t.Helper()
	f := &fakeProvider{}
	text, _ := json.Marshal(output)
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.requests.Add(1)
		body, _ := io.ReadAll(r.Body)
		f.lastBody.Store(string(body))
		f.lastAuth.Store(r.Header.Get("Authorization") + r.Header.Get("X-Api-Key"))
		if strings.Contains(string(body), `"stream":true`) {
			streamOutput(w, name, output, text)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch name {
		case "openai", "openai-compatible":
			w.Header().Set("X-Request-Id", "req_oa")
			io.WriteString(w, `{"id":"resp_1","object":"response","status":"completed","model":"gpt-fake","output":[`+
				`{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":`+string(text)+`,"annotations":[]}]}],`+
				`"usage":{"input_tokens":120,"output_tokens":30,"total_tokens":150}}`)
		case "anthropic":
			w.Header().Set("Request-Id", "req_ant")
			io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-fake","content":[{"type":"text","text":`+string(text)+`}],`+
				`"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":120,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":30}}`)
		case "deepseek":
			io.WriteString(w, `{"id":"d1","object":"chat.completion","created":1,"model":"deepseek-fake","choices":[{"index":0,"message":{"role":"assistant","content":`+string(text)+`},"logprobs":null,"finish_reason":"stop"}],`+
				`"usage":{"prompt_tokens":120,"completion_tokens":30,"total_tokens":150,"prompt_cache_hit_tokens":0,"prompt_cache_miss_tokens":120}}`)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// streamOutput writes output as the provider's SSE stream, 8 bytes of
// text per delta, each event flushed on its own.
func streamOutput(w http.ResponseWriter, name, output string, text []byte) {
	w.Header().Set("Content-Type", "text/event-stream")
	rc := http.NewResponseController(w)
	seq := 0
	send := func(ev, data string) {
		if name != "anthropic" {
			data = fmt.Sprintf(`{"sequence_number":%d,%s`, seq, data[1:])
			seq++
		}
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev, data)
		_ = rc.Flush()
	}
	var deltas []string
	for rest := []rune(output); len(rest) > 0; rest = rest[min(8, len(rest)):] {
		d, _ := json.Marshal(string(rest[:min(8, len(rest))]))
		deltas = append(deltas, string(d))
	}
	if name == "anthropic" {
		w.Header().Set("Request-Id", "req_ant")
		send("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-fake","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":120,"output_tokens":1}}}`)
		send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		for _, d := range deltas {
			send("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+d+`}}`)
		}
		send("content_block_stop", `{"type":"content_block_stop","index":0}`)
		send("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":30}}`)
		send("message_stop", `{"type":"message_stop"}`)
		return
	}
	w.Header().Set("X-Request-Id", "req_oa")
	send("response.created", `{"type":"response.created","response":{"id":"resp_1","object":"response","status":"in_progress","model":"gpt-fake","output":[]}}`)
	send("response.output_item.added", `{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[]}}`)
	send("response.content_part.added", `{"type":"response.content_part.added","item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}`)
	for _, d := range deltas {
		send("response.output_text.delta", `{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":`+d+`}`)
	}
	send("response.output_text.done", `{"type":"response.output_text.done","item_id":"msg_1","output_index":0,"content_index":0,"text":`+string(text)+`}`)
	send("response.completed", `{"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed","model":"gpt-fake","output":[{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":`+string(text)+`,"annotations":[]}]}],"usage":{"input_tokens":120,"output_tokens":30,"total_tokens":150}}}`)
}

// answerText joins the text deltas of an Ask NDJSON stream.
func answerText(t *testing.T, body string) string {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
		var ev struct{ Type, Delta string }
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("stream line %q: %v", line, err)
		}
		if ev.Type == "text" {
			b.WriteString(ev.Delta)
		}
	}
	return b.String()
}

// TestServeAnswersThroughEachProvider runs askplane serve with a model
// generator for each provider against its fake API over real HTTP: the
// answer streams, its citation maps back to the evidence record the model
// named, the key reaches the provider and nothing else; a model citing a
// record the evidence does not hold ends in ASK_NO_GROUNDED_SOURCES with
// none of its text sent. OpenAI and Anthropic stream (cites first, then
// the answer as it arrives); DeepSeek and OpenAI-compatible servers are
// called unary.
func TestServeAnswersThroughEachProvider(t *testing.T) {
	t.Setenv("ASKPLANE_TEST_SECRET", testSecret)
	t.Setenv("ASKPLANE_TEST_MODEL_KEY", "sk-test-"+strings.Repeat("9", 32))
	public := writeCorpus(t, "docs", "/docs/install/", "Install", "install", "Run go install to get the askplane command. It needs Go 1.26.")
	id := corpus.RecordID("/docs/install/", "install")
	for _, name := range []string{"openai", "anthropic", "deepseek", "openai-compatible"} {
		t.Run(name, func(t *testing.T) {
			for _, c := range []struct {
				cite, want, never string
			}{
				{id, `"path":"/docs/install/#install"`, ""},
				{"r-not-in-the-evidence", `"code":"ASK_NO_GROUNDED_SOURCES"`, "Install it with go install"},
			} {
				fake := newFakeProvider(t, name, `{"cites":["`+c.cite+`"],"answer":"Install it with go install; it needs Go 1.26."}`)
				gen := `{"provider":"` + name + `","model":"fake-model","baseUrl":"` + fake.srv.URL + `/v1","apiKeyEnv":"ASKPLANE_TEST_MODEL_KEY","timeout":"5s"}`
				cfg, err := Decode([]byte(`{"sites":[` + testSiteConfig(testSite("docs", "docs-public"), `,"generator":`+gen) + `]}`))
				if err != nil {
					t.Fatal(err)
				}
				cfg.Sites[0].Public = public
				h, err := New(t.Context(), cfg, Options{})
				if err != nil {
					t.Fatal(err)
				}
				srv := httptest.NewServer(h)
				req, _ := http.NewRequest("POST", srv.URL+"/v1/ask", strings.NewReader(`{"protocol":"agentskit.chat.ask","version":1,"messages":[{"role":"user","content":"how do I install askplane?"}]}`))
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				srv.Close()
				h.Close()
				body := string(b)
				if resp.StatusCode != 200 || !strings.Contains(body, c.want) || (c.never != "" && strings.Contains(body, c.never)) {
					t.Fatalf("cite %s: %d\n%s", c.cite, resp.StatusCode, body)
				}
				if c.never == "" && (answerText(t, body) != "Install it with go install; it needs Go 1.26." || !strings.Contains(body, `"type":"done"`)) {
					t.Fatalf("answer not streamed:\n%s", body)
				}
				// The streaming providers' answers arrive in many deltas;
				// the unary ones' in one.
				if streams := name == "openai" || name == "anthropic"; c.never == "" && streams != (strings.Count(body, `"type":"text"`) > 1) {
					t.Errorf("streamed %v, but the answer came in %d deltas", streams, strings.Count(body, `"type":"text"`))
				}
				if n := fake.requests.Load(); n != 1 {
					t.Fatalf("%d provider requests", n)
				}
				if auth, _ := fake.lastAuth.Load().(string); !strings.Contains(auth, "sk-test-") {
					t.Errorf("provider got no key: %q", auth)
				}
				sent, _ := fake.lastBody.Load().(string)
				if !strings.Contains(sent, id) || !strings.Contains(sent, "Run go install to get the askplane command.") || strings.Contains(sent, "sk-test-") {
					t.Errorf("provider request lacks the evidence or leaks the key:\n%s", sent)
				}
				if strings.Contains(body, "sk-test-") {
					t.Errorf("stream leaks the key")
				}
			}
		})
	}
}

func TestGeneratorConfigRefuses(t *testing.T) {
	t.Setenv("ASKPLANE_TEST_SECRET", testSecret)
	t.Setenv("ASKPLANE_TEST_MODEL_KEY", "sk-test-"+strings.Repeat("9", 32))
	for gen, want := range map[string]string{
		`{"provider":"openai","model":"m","apiKeyEnv":"ASKPLANE_TEST_UNSET"}`:                                       "config: sites[0].generator: apiKeyEnv: environment variable ASKPLANE_TEST_UNSET is not set",
		`{"provider":"openai","model":"m","apiKeyEnv":"ASKPLANE_TEST_MODEL_KEY","baseUrl":"http://example.com/v1"}`: "config: sites[0].generator:",
		`{"provider":"gemini","model":"m","apiKeyEnv":"ASKPLANE_TEST_MODEL_KEY"}`:                                   "config: sites[0].generator:",
		`{"provider":"openai","model":"m","apiKeyEnv":"ASKPLANE_TEST_MODEL_KEY","timeout":"soon"}`:                  `config: sites[0].generator: timeout must be a duration such as "60s"`,
		`{"provider":"extractive","model":"m"}`:                                                                     "config: sites[0].generator: the extractive generator's model is askplane.extractive/2 (the default) or askplane.extractive/1",
		`{"provider":"extractive","apiKeyEnv":"ASKPLANE_TEST_MODEL_KEY"}`:                                           "config: sites[0].generator: the extractive generator takes no apiKeyEnv or baseUrl",
	} {
		err := checkConfig([]byte(`{"sites":[` + testSiteConfig(testSite("docs", "c"), `,"generator":`+gen) + `]}`))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: err = %v, want %s…", gen, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "sk-test-") {
			t.Errorf("error leaks the key: %v", err)
		}
	}
}

// checkConfig decodes a config and provisions its secrets, as New does
// before any I/O, and returns the first error.
func checkConfig(data []byte) error {
	c, err := Decode(data)
	if err == nil {
		_, _, err = checkAndProvision(c)
	}
	return err
}

// The extractive provider composes with generate.Composer by default; a
// site pinned to the first extractive generator keeps it.
func TestExtractiveGeneratorVersions(t *testing.T) {
	for model, want := range map[string]string{
		"":                       generate.ComposerModel,
		generate.ComposerModel:   generate.ComposerModel,
		generate.ExtractiveModel: generate.ExtractiveModel,
	} {
		g := &GeneratorConfig{Provider: "extractive", Model: model}
		if err := g.check(); err != nil {
			t.Fatalf("%q: %v", model, err)
		}
		gen, err := g.build(nil, nil)
		if err != nil {
			t.Fatalf("%q: %v", model, err)
		}
		got := generate.ComposerModel // nil: the handler's default
		switch gen.(type) {
		case nil:
		case generate.Extractive:
			got = generate.ExtractiveModel
		default:
			t.Fatalf("%q: %T", model, gen)
		}
		if got != want {
			t.Errorf("model %q builds %s, want %s", model, got, want)
		}
	}
}
