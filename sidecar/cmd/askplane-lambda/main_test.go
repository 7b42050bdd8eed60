package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/fakesite"
	"github.com/askplane/askplane/internal/lambdaemu"
	"github.com/askplane/askplane/internal/sidecar"
	"github.com/aws/aws-lambda-go/events"
)

// runtimeAPI is the Lambda Runtime API on loopback (lambdaemu, which
// askplane-lambda-local serves too): the function polls it for the
// queued events and posts each one's response or error, as it does on the
// platform.
type runtimeAPI struct {
	rt  *lambdaemu.Runtime
	srv *httptest.Server
}

func newRuntimeAPI(t *testing.T) *runtimeAPI {
	rt := lambdaemu.NewRuntime()
	api := &runtimeAPI{rt: rt, srv: httptest.NewServer(rt.Handler())}
	t.Cleanup(api.srv.Close)
	go func() {
		if msg, ok := <-rt.InitErrors(); ok {
			t.Errorf("the function failed to start: %s", msg)
		}
	}()
	return api
}

// invoke queues one API Gateway v2 event and waits for the function's
// response.
func (api *runtimeAPI) invoke(t *testing.T, ev events.APIGatewayV2HTTPRequest) events.APIGatewayV2HTTPResponse {
	t.Helper()
	b, _ := json.Marshal(ev)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	body, err := api.rt.Invoke(ctx, b)
	if err != nil {
		t.Fatalf("invoke: %v %s", err, body)
	}
	var out events.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatalf("response %s: %v", body, err)
	}
	return out
}

// writeSite writes a built site folder with one page's corpus.
func writeSite(t *testing.T) string {
	public := t.TempDir()
	if _, err := fakesite.WriteCorpus(public, "en", "docs", fakesite.Page{URL: "/docs/install/", Title: "Install", Anchor: "install",
		Text: "Run go install to get the askplane command. It needs Go 1.26."}); err != nil {
		t.Fatal(err)
	}
	return public
}

func event(method, path, body string, cookies []string, header ...string) events.APIGatewayV2HTTPRequest {
	ev := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: "$default", RawPath: path, RawQueryString: "corpus=docs-en", Body: body, Cookies: cookies,
		Headers: map[string]string{"host": "ask.example.com", "content-type": "application/json"},
	}
	for i := 0; i+1 < len(header); i += 2 {
		ev.Headers[header[i]] = header[i+1]
	}
	ev.RequestContext.HTTP.Method = method
	ev.RequestContext.HTTP.Path = path
	ev.RequestContext.HTTP.SourceIP = "198.51.100.7"
	ev.RequestContext.DomainName = "ask.example.com"
	return ev
}

const question = `{"protocol":"agentskit.chat.ask","version":1,"messages":[{"role":"user","content":"how do I install askplane?"}]}`

// TestLambdaEntry builds the function as the platform runs it and drives
// it through a fake Runtime API with API Gateway v2 events: an answered
// question (the whole NDJSON stream in one response), a 403, a 413, an
// answer that fails mid-stream (its terminal error event delivered), and
// the anonymous cookie set and read back.
func TestLambdaEntry(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the function")
	}
	bin := filepath.Join(t.TempDir(), "bootstrap")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// A model that cites a record the evidence does not hold ends the
	// answer mid-stream with ASK_NO_GROUNDED_SOURCES.
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"d1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"{\"cites\":[\"nope\"],\"answer\":\"Install it.\"}"},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2,"prompt_cache_hit_tokens":0,"prompt_cache_miss_tokens":1}}`)
	}))
	defer model.Close()
	public := writeSite(t)
	site := func(corpusID, extra string) string {
		return `{"site":{"protocol":"agentskit.chat.backend-site","version":1,"siteId":"docs","assistant":{"id":"guide","name":"Guide"},` +
			`"corpus":{"id":"` + corpusID + `","mode":"local"},"limits":{"requestTimeoutMs":90000,"retrievalTimeoutMs":5000,"generationTimeoutMs":90000,"maxSources":5},` +
			`"persistence":{"mode":"disabled"}},"public":"` + public + `","language":"en","hosts":["ask.example.com"],"origins":["https://docs.example.com"],` +
			`"cookieSecretEnv":"ASKPLANE_COOKIE_SECRET","secureCookie":true` + extra + `}`
	}
	config := `{"sites":[` + site("docs-en", "") + `,` + site("docs-model", `,"generator":{"provider":"deepseek","model":"m","baseUrl":"`+model.URL+`","apiKeyEnv":"ASKPLANE_MODEL_KEY"}`) + `]}`

	api := newRuntimeAPI(t)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(),
		"AWS_LAMBDA_RUNTIME_API="+strings.TrimPrefix(api.srv.URL, "http://"),
		"ASKPLANE_CONFIG_JSON="+config,
		"ASKPLANE_COOKIE_SECRET="+strings.Repeat("s", 40),
		"ASKPLANE_MODEL_KEY=sk-test-key",
		"ASKPLANE_MAX_REQUEST_TIME=20s",
	)
	var stderr fakesite.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })

	res := api.invoke(t, event("POST", "/v1/ask", question, nil))
	if res.StatusCode != 200 || !strings.HasPrefix(res.Headers["Content-Type"], "application/x-ndjson") ||
		!strings.Contains(res.Body, `"type":"cite"`) && !strings.Contains(res.Body, `"name":"cite"`) || !strings.HasSuffix(strings.TrimSpace(res.Body), `"type":"done","model":"askplane.extractive/2"}`) {
		t.Fatalf("answer: %d %v\n%s", res.StatusCode, res.Headers, res.Body)
	}
	if len(res.Cookies) != 1 || !strings.HasPrefix(res.Cookies[0], "askplane_subject=v2.") || !strings.Contains(res.Cookies[0], "Secure") {
		t.Fatalf("cookies: %q", res.Cookies)
	}
	if !strings.Contains(res.Headers["Link"], `rel="evidence"`) {
		t.Errorf("no evidence link: %v", res.Headers)
	}
	// The cookie goes back as the event's cookies: no new subject.
	cookie := strings.SplitN(res.Cookies[0], ";", 2)[0]
	if again := api.invoke(t, event("POST", "/v1/ask", question, []string{cookie})); again.StatusCode != 200 || len(again.Cookies) != 0 {
		t.Errorf("with its cookie: %d, cookies %q", again.StatusCode, again.Cookies)
	}

	if res := api.invoke(t, event("POST", "/v1/ask", question, nil, "origin", "https://evil.example")); res.StatusCode != 403 || !strings.Contains(res.Body, "ASK_FORBIDDEN") {
		t.Errorf("foreign origin: %d %s", res.StatusCode, res.Body)
	}
	big := `{"protocol":"agentskit.chat.ask","version":1,"messages":[{"role":"user","content":"` + strings.Repeat("a", 70_000) + `"}]}`
	if res := api.invoke(t, event("POST", "/v1/ask", big, nil)); res.StatusCode != 413 {
		t.Errorf("a 70 KB body: %d %s", res.StatusCode, res.Body)
	}
	mid := event("POST", "/v1/ask", question, nil)
	mid.RawQueryString = "corpus=docs-model"
	res = api.invoke(t, mid)
	lines := strings.Split(strings.TrimSpace(res.Body), "\n")
	if res.StatusCode != 200 || !strings.Contains(lines[len(lines)-1], `"code":"ASK_NO_GROUNDED_SOURCES"`) || strings.Contains(res.Body, "Install it.") {
		t.Errorf("mid-stream failure: %d\n%s", res.StatusCode, res.Body)
	}
	if res := api.invoke(t, event("GET", "/health", "", nil)); res.StatusCode != 200 || res.Body != "ok\n" {
		t.Errorf("/health: %d %q", res.StatusCode, res.Body)
	}
	// Plain HTTP through the same bridge askplane-lambda-local serves: the
	// cookie the function sets comes back on the next request.
	front := httptest.NewServer(api.rt.HTTP())
	defer front.Close()
	client := &http.Client{Timeout: 20 * time.Second}
	post := func() *http.Response {
		t.Helper()
		req, _ := http.NewRequest("POST", front.URL+"/v1/ask?corpus=docs-en", strings.NewReader(question))
		req.Host = "ask.example.com"
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	first := post()
	firstBody, _ := io.ReadAll(first.Body)
	first.Body.Close()
	if first.StatusCode != 200 || !strings.Contains(string(firstBody), `"type":"done"`) || len(first.Header.Values("Set-Cookie")) != 1 {
		t.Fatalf("over HTTP: %d %v\n%s", first.StatusCode, first.Header, firstBody)
	}
	// The cookie is Secure (the function is configured for https), so a
	// browser would send it only over https: send it by hand.
	req, _ := http.NewRequest("POST", front.URL+"/v1/ask?corpus=docs-en", strings.NewReader(question))
	req.Host = "ask.example.com"
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(first.Cookies()[0])
	second, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	second.Body.Close()
	if second.StatusCode != 200 || len(second.Header.Values("Set-Cookie")) != 0 {
		t.Errorf("over HTTP with the cookie: %d, Set-Cookie %q", second.StatusCode, second.Header.Values("Set-Cookie"))
	}
	if !strings.Contains(stderr.String(), "sessions are kept in memory") || !strings.Contains(stderr.String(), "capped below the platform") {
		t.Errorf("the function did not say it keeps sessions in memory and caps the deadlines:\n%s", stderr.String())
	}
}

// TestConfigOrder: the function reads its config in sidecar.LoadEnv's
// order, as askplane serve does: with both variables set it refuses
// rather than preferring the inline one (what it once did, while serve
// preferred the file), and with neither it reads askplane.json beside its
// binary.
func TestConfigOrder(t *testing.T) {
	public := writeSite(t)
	config := func(corpusID string) string {
		return `{"sites":[{"site":{"protocol":"agentskit.chat.backend-site","version":1,"siteId":"docs","assistant":{"id":"guide","name":"Guide"},` +
			`"corpus":{"id":"` + corpusID + `","mode":"local"},"limits":{"requestTimeoutMs":30000,"retrievalTimeoutMs":5000,"generationTimeoutMs":20000,"maxSources":5},` +
			`"persistence":{"mode":"disabled"}},"public":"` + public + `","language":"en","cookieSecretEnv":"ASKPLANE_COOKIE_SECRET"}]}`
	}
	file := filepath.Join(t.TempDir(), "askplane.json")
	if err := os.WriteFile(file, []byte(config("from-file")), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(vars ...string) func(string) (string, bool) {
		return func(name string) (string, bool) {
			for i := 0; i+1 < len(vars); i += 2 {
				if vars[i] == name {
					return vars[i+1], true
				}
			}
			return "", false
		}
	}
	corpusOf := func(c *sidecar.Config) string {
		var rec struct {
			Corpus struct{ ID string } `json:"corpus"`
		}
		json.Unmarshal(c.Sites[0].Site, &rec)
		return rec.Corpus.ID
	}
	if c, err := loadConfig(env("ASKPLANE_CONFIG", file)); err != nil || corpusOf(c) != "from-file" {
		t.Errorf("ASKPLANE_CONFIG: %v", err)
	}
	if c, err := loadConfig(env("ASKPLANE_CONFIG_JSON", config("from-json"))); err != nil || corpusOf(c) != "from-json" {
		t.Errorf("ASKPLANE_CONFIG_JSON: %v", err)
	}
	_, err := loadConfig(env("ASKPLANE_CONFIG", file, "ASKPLANE_CONFIG_JSON", config("from-json")))
	if !errors.Is(err, sidecar.ErrConfigEnvBoth) {
		t.Errorf("both set: %v, want ErrConfigEnvBoth", err)
	}
	// Neither: askplane.json beside the binary (the test binary here,
	// which has none beside it).
	exe, _ := os.Executable()
	if _, err := loadConfig(env()); err == nil || !strings.Contains(err.Error(), "cannot open "+filepath.Join(filepath.Dir(exe), "askplane.json")) {
		t.Errorf("neither set: %v, want the default beside the binary", err)
	}
	// The built function refuses to start on both, before it serves.
	if testing.Short() {
		return
	}
	srv, err := build(context.Background(), env("ASKPLANE_CONFIG", file, "ASKPLANE_CONFIG_JSON", config("from-json"), "ASKPLANE_COOKIE_SECRET", strings.Repeat("s", 40)), slog.New(slog.DiscardHandler))
	if srv != nil || !errors.Is(err, sidecar.ErrConfigEnvBoth) {
		t.Errorf("build with both set: %v", err)
	}
}
