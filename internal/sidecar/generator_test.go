package sidecar

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
)

// fakeProvider answers one provider's API on a real loopback server with
// the model output given, in that provider's wire format, and records
// what it was sent.
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

// TestServeAnswersThroughEachProvider runs askplane serve with a model
// generator for each provider against its fake API over real HTTP: the
// answer streams, its citation maps back to the evidence record the model
// named, the key reaches the provider and nothing else; a model citing a
// record the evidence does not hold ends in ASK_NO_GROUNDED_SOURCES with
// none of its text sent.
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
				fake := newFakeProvider(t, name, `{"answer":"Install it with go install; it needs Go 1.26.","cites":["`+c.cite+`"]}`)
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
				if c.never == "" && (!strings.Contains(body, `"delta":"Install it with go install; it needs Go 1.26."`) || !strings.Contains(body, `"type":"done"`)) {
					t.Fatalf("answer not streamed:\n%s", body)
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
		`{"provider":"extractive","model":"m"}`:                                                                     "config: sites[0].generator: the extractive generator takes no model, apiKeyEnv or baseUrl",
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
		_, _, err = provisionSecrets(c, nil, nil)
	}
	return err
}
