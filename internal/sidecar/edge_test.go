package sidecar

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/access"
	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/corpus"
)

// The tests in this file are regression tests for the sidecar's edge
// hardening. Each one starts the real server with Serve on a loopback
// listener, so the http.Server settings HTTPServer makes (timeouts, header
// cap, connection cap) are the ones under test, and talks to it over TCP,
// raw where a well-behaved client could not show the attack.

// edgeEnv is the environment every config in these tests reads its
// secrets from.
var edgeEnv Env = func(name string) (string, bool) {
	v, ok := map[string]string{
		"ASKPLANE_TEST_SECRET":    testSecret,
		"ASKPLANE_TEST_TOKEN":     testToken,
		"ASKPLANE_TEST_OTHER":     otherToken,
		"ASKPLANE_TEST_MODEL_KEY": "sk-test-" + strings.Repeat("9", 32),
	}[name]
	return v, ok
}

// testToken and otherToken are two subjects' bearer tokens.
const (
	testToken  = testSecret + "-token"
	otherToken = testSecret + "-other"
)

// installText is the one chunk of the corpus edgePublic writes.
const installText = "Run go install to get the askplane command. It needs Go 1.26."

// askJSON is an Ask request body with one user question.
func askJSON(question string) string {
	q, _ := json.Marshal(question)
	return `{"protocol":"agentskit.chat.ask","version":1,"messages":[{"role":"user","content":` + string(q) + `}]}`
}

// edgePublic writes a built site for site id "docs": the install page's
// corpus and the files a Hugo build has besides.
func edgePublic(t *testing.T) string {
	t.Helper()
	return writeCorpus(t, "docs", "/docs/install/", "Install", "install", installText)
}

// siteJSON is one entry of a config's "sites", for corpus corpusID of
// site siteID served from public, with extra members appended.
func siteJSON(public, siteID, corpusID, extra string) string {
	return `{"site":` + testSite(siteID, corpusID) + `,"public":"` + public + `","language":"en",` +
		`"origins":["https://docs.example.com"],"cookieSecretEnv":"ASKPLANE_TEST_SECRET"` + extra + `}`
}

// edgeConfig decodes a config with the given top-level members, edge
// members and sites, as askplane serve would read it from a file.
func edgeConfig(t *testing.T, top, edge string, sites ...string) *Config {
	t.Helper()
	cfg, err := Decode([]byte(`{"sessions":"memory:"` + top + `,"edge":{` + edge + `},"sites":[` + strings.Join(sites, ",") + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// edgeServer is a Server running Serve on a loopback listener.
type edgeServer struct {
	*Server
	addr   string // 127.0.0.1:port
	url    string // http://127.0.0.1:port
	stop   context.CancelFunc
	served chan error // receives Serve's result
}

// startEdge provisions cfg and serves it on 127.0.0.1:0 until the test
// ends (or stop is called).
func startEdge(t *testing.T, cfg *Config) *edgeServer {
	t.Helper()
	e, _ := startRestartable(t, cfg, edgeEnv)
	return e
}

// newClient is an HTTP client that keeps enough connections for a load
// test and never follows redirects.
func newClient(t *testing.T) *http.Client {
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

type answer struct {
	status int
	header http.Header
	body   string
}

// fetch sends req and reads the whole response.
func fetch(t *testing.T, c *http.Client, req *http.Request) answer {
	t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		t.Error(err)
		return answer{}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Error(err)
	}
	return answer{resp.StatusCode, resp.Header, string(b)}
}

// askReq is POST /v1/ask with question, and the header pairs given.
func (e *edgeServer) askReq(query, question string, header ...string) *http.Request {
	req, _ := http.NewRequest("POST", e.url+"/v1/ask"+query, strings.NewReader(askJSON(question)))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	return req
}

// getReq is GET path with Host host (empty: the listener's address).
func (e *edgeServer) getReq(path, host string) *http.Request {
	req, _ := http.NewRequest("GET", e.url+path, nil)
	if host != "" {
		req.Host = host
	}
	return req
}

// answered reports whether a is a complete answer stream.
func (a answer) answered() bool {
	return a.status == 200 && strings.Contains(a.body, `"type":"done"`)
}

// rateLimited reports whether a is a 429 or 503 ASK_RATE_LIMITED with a
// Retry-After of whole seconds, at least one.
func (a answer) rateLimited(status int) bool {
	secs, err := strconv.Atoi(a.header.Get("Retry-After"))
	return a.status == status && err == nil && secs >= 1 &&
		strings.Contains(a.body, `"code":"ASK_RATE_LIMITED"`) && strings.Contains(a.body, `"retryable":true`)
}

// flood sends n requests from workers goroutines and returns every answer.
func flood(t *testing.T, n, workers int, req func() *http.Request) []answer {
	t.Helper()
	c := newClient(t)
	out := make([]answer, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				out[i] = fetch(t, c, req())
			}
		})
	}
	wg.Wait()
	return out
}

// TestEdgeCookielessFloodIsLimited: a client that never keeps its cookie
// gets a fresh subject, and a fresh per-subject budget, every time, so
// the per-subject limit alone answered all 200 of its requests. Now the
// mint limit (edge.newSubjects) and the per-address limit (edge.perAddress)
// bind it: exactly the smaller budget is answered, every other request is
// 429 ASK_RATE_LIMITED with Retry-After. Both windows are 60 s, so no
// budget refills during the test and the counts are exact.
func TestEdgeCookielessFloodIsLimited(t *testing.T) {
	const requests, workers = 200, 16
	for _, tt := range []struct {
		name, edge string
		answered   int
	}{
		{"newSubjects binds", `"perAddress":{"requests":1000,"windowSeconds":60},"newSubjects":{"requests":5,"windowSeconds":60}`, 5},
		{"perAddress binds", `"perAddress":{"requests":7,"windowSeconds":60},"newSubjects":{"requests":1000,"windowSeconds":60}`, 7},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := startEdge(t, edgeConfig(t, "", tt.edge, siteJSON(edgePublic(t), "docs", "docs-public", `,"rateLimit":{"requests":5,"windowSeconds":60}`)))
			out := flood(t, requests, workers, func() *http.Request { return e.askReq("", "how do I install askplane?") })
			answered, limited := 0, 0
			var cookie string
			for _, a := range out {
				switch {
				case a.answered():
					answered++
					if cookie = a.header.Get("Set-Cookie"); !strings.HasPrefix(cookie, access.DefaultCookieName+"=v2.") {
						t.Errorf("answer without a minted cookie: %q", cookie)
					}
				case a.rateLimited(429):
					limited++
					if a.header.Get("Set-Cookie") != "" {
						t.Errorf("a refused request got a cookie")
					}
				default:
					t.Errorf("unexpected answer %d %v %s", a.status, a.header, a.body)
				}
			}
			t.Logf("%d cookie-less requests: %d answered, %d got 429", requests, answered, limited)
			if answered != tt.answered || limited != requests-tt.answered {
				t.Errorf("answered %d, 429 %d; want %d and %d", answered, limited, tt.answered, requests-tt.answered)
			}
			if tt.name == "newSubjects binds" {
				// The mint limit only limits minting: the address's budget
				// is left, so a client that keeps its cookie still asks.
				c, _, _ := strings.Cut(cookie, ";")
				if a := fetch(t, newClient(t), e.askReq("", "how do I install askplane?", "Cookie", c)); !a.answered() || a.header.Get("Set-Cookie") != "" {
					t.Errorf("with its cookie: %d %v %s", a.status, a.header, a.body)
				}
			}
		})
	}
}

// slowProvider is an OpenAI-compatible API on loopback that holds every
// response for hold (or until the request is cancelled) and records how
// many requests it had in flight at once.
type slowProvider struct {
	srv                *httptest.Server
	hold               time.Duration
	requests, inFlight atomic.Int64
	peak               atomic.Int64
	cancelled          atomic.Int64
}

func newSlowProvider(t *testing.T, hold time.Duration) *slowProvider {
	t.Helper()
	p := &slowProvider{hold: hold}
	text, _ := json.Marshal(`{"answer":"Install it with go install; it needs Go 1.26.","cites":["` + corpus.RecordID("/docs/install/", "install") + `"]}`)
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.requests.Add(1)
		n := p.inFlight.Add(1)
		defer p.inFlight.Add(-1)
		for {
			old := p.peak.Load()
			if n <= old || p.peak.CompareAndSwap(old, n) {
				break
			}
		}
		io.Copy(io.Discard, r.Body)
		select {
		case <-time.After(p.hold):
		case <-r.Context().Done():
			p.cancelled.Add(1)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"resp_1","object":"response","status":"completed","model":"gpt-fake","output":[`+
			`{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":`+string(text)+`,"annotations":[]}]}],`+
			`"usage":{"input_tokens":120,"output_tokens":30,"total_tokens":150}}`)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// generator is the site config member that writes answers through p.
func (p *slowProvider) generator() string {
	return `,"generator":{"provider":"openai-compatible","model":"fake-model","baseUrl":"` + p.srv.URL + `/v1","apiKeyEnv":"ASKPLANE_TEST_MODEL_KEY","timeout":"20s"}`
}

// TestEdgeGenerationGateBoundsProviderConcurrency: 50 questions at once,
// each from a fresh subject within generous address limits, to a site
// whose model takes 300 ms per answer and whose gate is 2 slots, a queue
// of 2 and a 200 ms wait. The provider never sees more than 2 requests at
// once; everything the gate turns away is 503 ASK_RATE_LIMITED with
// Retry-After, and never reaches the provider.
func TestEdgeGenerationGateBoundsProviderConcurrency(t *testing.T) {
	const requests = 50
	p := newSlowProvider(t, 300*time.Millisecond)
	e := startEdge(t, edgeConfig(t, "", `"perAddress":{"requests":1000,"windowSeconds":60},"newSubjects":{"requests":1000,"windowSeconds":60}`,
		siteJSON(edgePublic(t), "docs", "docs-public", p.generator()+`,"generations":{"max":2,"queue":2,"waitMs":200}`)))
	start := time.Now()
	out := flood(t, requests, requests, func() *http.Request { return e.askReq("", "how do I install askplane?") })
	took := time.Since(start)
	answered, busy := 0, 0
	for _, a := range out {
		switch {
		case a.answered():
			answered++
		case a.rateLimited(503):
			busy++
		default:
			t.Errorf("unexpected answer %d %v %s", a.status, a.header, a.body)
		}
	}
	t.Logf("%d concurrent questions in %v: %d answered, %d got 503; provider: %d requests, at most %d at once",
		requests, took.Round(time.Millisecond), answered, busy, p.requests.Load(), p.peak.Load())
	if peak := p.peak.Load(); peak != 2 {
		t.Errorf("provider had at most %d requests at once, want 2 (generations.max)", peak)
	}
	if int(p.requests.Load()) != answered {
		t.Errorf("provider got %d requests for %d answers", p.requests.Load(), answered)
	}
	// Two answer at once and take 300 ms; the queue's two wait 200 ms, so
	// only a question arriving after the first answers could get a slot.
	if answered < 2 || answered+busy != requests || busy < requests-6 {
		t.Errorf("answered %d, 503 %d of %d", answered, busy, requests)
	}
}

// dialRaw opens a raw TCP connection to the server.
func dialRaw(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// readResponse reads one response from c within d.
func readResponse(c net.Conn, br *bufio.Reader, d time.Duration) (*http.Response, string, error) {
	c.SetReadDeadline(time.Now().Add(d))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return nil, "", err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b), err
}

// TestEdgeStalledBodyTimesOut: a client that announces a 100-byte body,
// sends one byte and goes silent used to hold a handler (and its
// connection) for as long as it liked. With edge.bodyTimeout 1s it gets
// 408 ASK_TIMEOUT about a second after it stalled, and the connection is
// closed, since the rest of its body never came. (Before this test it got
// 499 ASK_CANCELLED, or its 408 only 35 s later, depending on a race.)
func TestEdgeStalledBodyTimesOut(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", `"bodyTimeout":"1s","readHeaderTimeout":"1s"`, siteJSON(edgePublic(t), "docs", "docs-public", "")))
	c := dialRaw(t, e.addr)
	start := time.Now()
	fmt.Fprintf(c, "POST /v1/ask HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", e.addr)
	br := bufio.NewReader(c)
	resp, body, err := readResponse(c, br, 5*time.Second)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("no response %v after the body stalled: %v", took, err)
	}
	t.Logf("stalled body: %d %s after %v", resp.StatusCode, body, took.Round(time.Millisecond))
	if resp.StatusCode != 408 || !strings.Contains(body, `"code":"ASK_TIMEOUT"`) {
		t.Errorf("stalled body: %d %s, want 408 ASK_TIMEOUT", resp.StatusCode, body)
	}
	if took < 900*time.Millisecond || took > 3*time.Second {
		t.Errorf("stalled body answered after %v, want about 1 s", took)
	}
	// The connection is not left half-read: the server closes it.
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	if n, err := br.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("connection still open after the stalled body's response (read %d, %v)", n, err)
	}
}

// TestEdgeSlowHeadersCutOff: a client that sends its headers a byte every
// 200 ms (slowloris) is cut off once edge.readHeaderTimeout (1s) has
// passed since the connection was accepted, while it is still sending
// (some five bytes in). (bodyTimeout is
// the default 10 s, so the server's whole-request ReadTimeout is 11 s: the
// cut must come from the header timeout.)
func TestEdgeSlowHeadersCutOff(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", `"readHeaderTimeout":"1s"`, siteJSON(edgePublic(t), "docs", "docs-public", "")))
	c := dialRaw(t, e.addr)
	closed := make(chan time.Duration, 1)
	start := time.Now()
	go func() {
		// Whatever the server does at the deadline, a 408 or a plain
		// close, the read ends.
		c.SetReadDeadline(time.Now().Add(6 * time.Second))
		io.Copy(io.Discard, c)
		closed <- time.Since(start)
	}()
	head := "GET /health HTTP/1.1\r\nHost: " + e.addr + "\r\nX-Slow: " + strings.Repeat("a", 30)
	sent := 0
	var took time.Duration
send:
	for ; sent < len(head); sent++ {
		if _, err := c.Write([]byte{head[sent]}); err != nil {
			break
		}
		select {
		case took = <-closed:
			break send
		case <-time.After(200 * time.Millisecond):
		}
	}
	if took == 0 {
		took = <-closed
	}
	t.Logf("slow headers: cut off after %v and %d bytes", took.Round(time.Millisecond), sent)
	if took < 900*time.Millisecond || took > 2500*time.Millisecond {
		t.Errorf("slow headers cut off after %v, want about 1 s (readHeaderTimeout)", took)
	}
}

// TestEdgeOversizedHeadersGet431: request headers over maxHeaderBytes (the
// default 16 KiB) get 431; net/http's own default would take 1 MiB. Go
// reads up to 4 KiB past the configured cap before it refuses (its bufio
// slack), so the test sends 20.5 KiB of header to be over both; 8 KiB is
// answered. The client reads the whole 431, up to the server's FIN: with
// netutil.LimitListener's connections (no CloseWrite) it got a reset
// instead, half a second later.
func TestEdgeOversizedHeadersGet431(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", "", siteJSON(edgePublic(t), "docs", "docs-public", "")))
	for _, tt := range []struct{ size, want int }{{8 << 10, 200}, {DefaultMaxHeaderBytes + 4<<10 + 512, 431}, {64 << 10, 431}} {
		c := dialRaw(t, e.addr)
		fmt.Fprintf(c, "GET /health HTTP/1.1\r\nHost: %s\r\nX-Big: %s\r\nConnection: close\r\n\r\n", e.addr, strings.Repeat("a", tt.size))
		c.SetReadDeadline(time.Now().Add(3 * time.Second))
		b, err := io.ReadAll(c)
		if err != nil {
			t.Errorf("%d-byte header: %v after %q", tt.size, err, b)
			continue
		}
		resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(b))), nil)
		if err != nil || resp.StatusCode != tt.want {
			t.Errorf("%d-byte header: %v %q, want %d", tt.size, err, b, tt.want)
		}
	}
}

// TestEdgeConnectionCap: with edge.maxConnections 3 and three busy
// connections open (each a question whose body stalls in its handler), a
// fourth connection is not served (the server does not accept it): its
// request gets no response in 1.2 s, past the grace after which a silent
// new connection would count as idle. Once one of the three closes, it
// is. (Idle connections are closed to make room: see conns_test.go.)
func TestEdgeConnectionCap(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", `"maxConnections":3`, siteJSON(edgePublic(t), "docs", "docs-public", "")))
	get := "GET /health HTTP/1.1\r\nHost: " + e.addr + "\r\n\r\n"
	var busy []net.Conn
	for range 3 {
		c := dialRaw(t, e.addr)
		fmt.Fprintf(c, "POST /v1/ask HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", e.addr)
		busy = append(busy, c)
	}
	fourth := dialRaw(t, e.addr)
	io.WriteString(fourth, get)
	br := bufio.NewReader(fourth)
	if resp, _, err := readResponse(fourth, br, 1200*time.Millisecond); err == nil {
		t.Fatalf("a fourth connection was served while 3 were open: %d", resp.StatusCode)
	} else if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("fourth connection: %v, want no response yet", err)
	}
	busy[0].Close()
	start := time.Now()
	resp, _, err := readResponse(fourth, br, 3*time.Second)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("fourth connection after one closed: %v %v", resp, err)
	}
	t.Logf("fourth connection served %v after one of three closed", time.Since(start).Round(time.Millisecond))
}

// TestEdgeStaticFiles: the static site cannot be used to read outside its
// folder or its hidden files, lists no directory, answers a NUL byte with
// 404 rather than 500, and sends the security and cache headers.
func TestEdgeStaticFiles(t *testing.T) {
	public := edgePublic(t)
	outside := t.TempDir()
	write := func(dir, name, data string) {
		t.Helper()
		path := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(outside, "secret.txt", "outside-secret")
	write(public, "index.html", "<h1>home</h1>")
	write(public, ".git/config", "[core]")
	write(public, ".env", "KEY=outside-secret")
	write(public, "docs/empty/page.txt", "a file in a folder with no index.html")
	write(public, "askplane/en/site.json", `{"site":true}`)
	write(public, "askplane/en/knowledge.0123456789ab.json", `{"knowledge":true}`)
	for link, target := range map[string]string{"leak.txt": filepath.Join(outside, "secret.txt"), "leakdir": outside} {
		if err := os.Symlink(target, filepath.Join(public, link)); err != nil {
			t.Fatal(err)
		}
	}
	e := startEdge(t, edgeConfig(t, "", "", siteJSON(public, "docs", "docs-public", `,"static":true`)))
	c := newClient(t)
	for _, path := range []string{"/leak.txt", "/leakdir/secret.txt", "/.git/config", "/.env", "/docs/empty/", "/askplane/en/", "/index.html%00.txt", "/docs/%2e%2e/.env"} {
		a := fetch(t, c, e.getReq(path, ""))
		if a.status != 404 || strings.Contains(a.body, "outside-secret") || strings.Contains(a.body, "[core]") || strings.Contains(a.body, "page.txt") {
			t.Errorf("GET %s = %d %q, want 404", path, a.status, a.body)
		}
	}
	home := fetch(t, c, e.getReq("/", ""))
	if home.status != 200 || home.body != "<h1>home</h1>" {
		t.Fatalf("GET / = %d %q", home.status, home.body)
	}
	if csp := home.header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self'") || !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("GET /: Content-Security-Policy %q", csp)
	}
	for path, cache := range map[string]string{
		"/":                      "public, max-age=0, must-revalidate",
		"/askplane/en/site.json": "public, no-cache",
		"/askplane/en/knowledge.0123456789ab.json": "public, max-age=31536000, immutable",
	} {
		a := fetch(t, c, e.getReq(path, ""))
		if a.status != 200 || a.header.Get("Cache-Control") != cache || a.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s = %d, Cache-Control %q, X-Content-Type-Options %q; want 200, %q, nosniff",
				path, a.status, a.header.Get("Cache-Control"), a.header.Get("X-Content-Type-Options"), cache)
		}
	}
}

// TestEdgeHostAndOriginGuard: with hosts ["ask.example.com"], every route,
// not only /v1/ask, refuses another Host (a DNS-rebinding page could read
// /metrics or /ready otherwise); two Origin headers are refused; and a
// foreign Origin may not read /metrics, while the server's own may.
func TestEdgeHostAndOriginGuard(t *testing.T) {
	public := edgePublic(t)
	os.WriteFile(filepath.Join(public, "index.html"), []byte("<h1>home</h1>"), 0o644)
	e := startEdge(t, edgeConfig(t, `,"metrics":true,"hosts":["ask.example.com"]`, "", siteJSON(public, "docs", "docs-public", `,"static":true`)))
	c := newClient(t)
	for _, path := range []string{"/metrics", "/ready", "/health", "/", "/askplane/en/manifest.json"} {
		if a := fetch(t, c, e.getReq(path, "evil.example")); a.status != 403 || a.body != forbiddenBody {
			t.Errorf("GET %s with Host evil.example = %d %s, want 403", path, a.status, a.body)
		}
		if a := fetch(t, c, e.getReq(path, "ask.example.com")); a.status != 200 {
			t.Errorf("GET %s with Host ask.example.com = %d, want 200", path, a.status)
		}
	}
	req := e.askReq("", "how do I install askplane?")
	req.Host = "evil.example"
	if a := fetch(t, c, req); a.status != 403 {
		t.Errorf("POST /v1/ask with Host evil.example = %d, want 403", a.status)
	}

	req = e.askReq("", "how do I install askplane?")
	req.Host = "ask.example.com"
	req.Header["Origin"] = []string{"https://docs.example.com", "https://evil.example"}
	if a := fetch(t, c, req); a.status != 403 || a.body != forbiddenBody {
		t.Errorf("POST /v1/ask with two Origin headers = %d %s, want 403", a.status, a.body)
	}
	req = e.askReq("", "how do I install askplane?", "Origin", "https://docs.example.com")
	req.Host = "ask.example.com"
	if a := fetch(t, c, req); !a.answered() {
		t.Errorf("POST /v1/ask from the site's origin = %d %s", a.status, a.body)
	}

	for origin, want := range map[string]int{
		"https://evil.example":     403,
		"http://ask.example.com":   200, // same origin (the scheme is not compared)
		"https://docs.example.com": 200, // a site's own origin
	} {
		req := e.getReq("/metrics", "ask.example.com")
		req.Header.Set("Origin", origin)
		if a := fetch(t, c, req); a.status != want {
			t.Errorf("GET /metrics with Origin %s = %d, want %d", origin, a.status, want)
		}
	}
	req = e.getReq("/metrics", "ask.example.com")
	req.Header["Origin"] = []string{"http://ask.example.com", "http://ask.example.com"}
	if a := fetch(t, c, req); a.status != 403 {
		t.Errorf("GET /metrics with two Origin headers = %d, want 403", a.status)
	}
}

// TestEdgeFailedAuthLimit: once an address has spent edge.failedAuth (3
// refused tokens per 6 s) its requests with any token, the right one too,
// get 429 before the token is compared, until the budget refills; a right
// token before then is answered and charged nothing.
func TestEdgeFailedAuthLimit(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", `"failedAuth":{"requests":3,"windowSeconds":6}`,
		siteJSON(edgePublic(t), "docs", "docs-public", `,"anonymous":false,"tokens":[{"subject":"ci-bot","env":"ASKPLANE_TEST_TOKEN"}]`)))
	c := newClient(t)
	bearer := func(tok string) answer {
		return fetch(t, c, e.askReq("", "how do I install askplane?", "Authorization", "Bearer "+tok))
	}
	wrong := strings.Repeat("x", 48)
	check := func(step string, a answer, ok bool) {
		t.Helper()
		if !ok {
			t.Fatalf("%s: %d %v %s", step, a.status, a.header, a.body)
		}
	}
	a := bearer(testToken)
	check("right token first", a, a.answered())
	for i := range 2 {
		a = bearer(wrong)
		check(fmt.Sprintf("wrong token %d", i+1), a, a.status == 401)
	}
	for i := range 3 {
		a = bearer(testToken)
		check(fmt.Sprintf("right token after 2 failures (%d)", i+1), a, a.answered())
	}
	// Had the right tokens been charged, this would already be 429.
	a = bearer(wrong)
	check("wrong token 3 (the budget's last)", a, a.status == 401)
	a = bearer(wrong)
	check("wrong token 4", a, a.rateLimited(429))
	a = bearer(testToken)
	check("right token once the budget is spent", a, a.rateLimited(429))
	retry, _ := strconv.Atoi(a.header.Get("Retry-After"))
	t.Logf("right token refused with Retry-After %d s", retry)
	if retry < 1 || retry > 2 {
		t.Fatalf("Retry-After %d, want 1 to 2 s (one failure refills every 2 s)", retry)
	}
	time.Sleep(time.Duration(retry) * time.Second)
	a = bearer(testToken)
	check("right token after Retry-After", a, a.answered())
}

// headerBlock sends a raw request and returns the response's status line
// and headers as sent, and its body.
func headerBlock(t *testing.T, addr, request string) (head, body string) {
	t.Helper()
	c := dialRaw(t, addr)
	io.WriteString(c, request)
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	head, body, ok := strings.Cut(string(b), "\r\n\r\n")
	if !ok {
		t.Fatalf("no header block in %q", b)
	}
	return head, body
}

// TestEdgeEvidenceLinkBounded: the evidence Link header carries the
// question, so a long question used to make the header block outgrow a
// proxy's 8 KiB buffer. A 1,900-character question is answered with no
// Link (or one within ask.MaxEvidenceLinkBytes) and a header block under
// 8 KiB; a short one still gets its Link.
func TestEdgeEvidenceLinkBounded(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", "", siteJSON(edgePublic(t), "docs", "docs-public", "")))
	long := "how do I install the askplane command?"
	for len(long) < 1900 {
		long += " please explain how to install the askplane command with go install"
	}
	long = long[:1900]
	for _, tt := range []struct {
		question string
		wantLink bool
	}{{"how do I install askplane?", true}, {long, false}} {
		body := askJSON(tt.question)
		head, stream := headerBlock(t, e.addr, "POST /v1/ask HTTP/1.1\r\nHost: "+e.addr+"\r\nContent-Type: application/json\r\nConnection: close\r\n"+
			"Content-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body)
		var link string
		for _, line := range strings.Split(head, "\r\n") {
			if v, ok := strings.CutPrefix(line, "Link: "); ok {
				link = v
			}
		}
		t.Logf("%d-character question: header block %d bytes, Link %d bytes", len(tt.question), len(head)+4, len(link))
		if !strings.HasPrefix(head, "HTTP/1.1 200 ") || !strings.Contains(stream, `"type":"done"`) {
			t.Errorf("%d-character question not answered:\n%s\n%s", len(tt.question), head, stream)
		}
		if len(head)+4 >= 8<<10 || len(link) > ask.MaxEvidenceLinkBytes || (link != "") != tt.wantLink {
			t.Errorf("%d-character question: header block %d bytes, Link %d bytes (want it: %v)", len(tt.question), len(head)+4, len(link), tt.wantLink)
		}
	}
}

// TestEdgeReady: /ready is 200 {"status":"ok"} while serving, and 503
// {"status":"draining"} once Drain has been called, when questions get
// 503 ASK_INTERNAL with Retry-After too.
func TestEdgeReady(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", "", siteJSON(edgePublic(t), "docs", "docs-public", "")))
	c := newClient(t)
	type report struct {
		Status   string `json:"status"`
		Sessions string `json:"sessions"`
		Sites    int    `json:"sites"`
		Engines  []struct {
			Engine string `json:"engine"`
			Digest string `json:"manifest_digest"`
		} `json:"engines"`
	}
	ready := func() (int, report) {
		a := fetch(t, c, e.getReq("/ready", ""))
		var r report
		if err := json.Unmarshal([]byte(a.body), &r); err != nil || a.header.Get("Content-Type") != "application/json" || a.header.Get("Cache-Control") != "no-store" {
			t.Errorf("GET /ready: %v %v %q", err, a.header, a.body)
		}
		return a.status, r
	}
	if code, r := ready(); code != 200 || r.Status != "ok" || r.Sessions != "ok" || r.Sites != 1 ||
		len(r.Engines) != 6 || r.Engines[0].Engine != "askplane.bm25/6" || r.Engines[1].Engine != "askplane.bm25/5" || r.Engines[2].Engine != "askplane.bm25/4" || r.Engines[3].Engine != "askplane.bm25/3" || r.Engines[4].Engine != "askplane.bm25/2" || r.Engines[5].Engine != "askplane.bm25/1" || !strings.HasPrefix(r.Engines[0].Digest, "sha256:") {
		t.Errorf("GET /ready = %d %+v, want 200 ok with the retained engines, current first", code, r)
	}
	e.Drain()
	if code, r := ready(); code != 503 || r.Status != "draining" {
		t.Errorf("GET /ready after Drain = %d %+v, want 503 draining", code, r)
	}
	a := fetch(t, c, e.askReq("", "how do I install askplane?"))
	if a.status != 503 || !strings.Contains(a.body, `"code":"ASK_INTERNAL"`) || !strings.Contains(a.body, `"retryable":true`) || a.header.Get("Retry-After") == "" {
		t.Errorf("POST /v1/ask after Drain = %d %v %s, want 503 ASK_INTERNAL", a.status, a.header, a.body)
	}
}

// TestEdgeCookieBoundToSite: with two sites sharing one cookie secret, a
// subject cookie minted by one is not a subject of the other: replayed
// there, it is refused and a new subject minted (Set-Cookie again), while
// its own site takes it.
func TestEdgeCookieBoundToSite(t *testing.T) {
	pub := edgePublic(t)
	internal := writeCorpus(t, "ops", "/runbooks/deploy/", "Deploy", "deploy", "Deploy the sidecar with the release pipeline.")
	e := startEdge(t, edgeConfig(t, "", "", siteJSON(pub, "docs", "docs-public", ""), siteJSON(internal, "ops", "docs-internal", "")))
	c := newClient(t)
	a := fetch(t, c, e.askReq("?corpus=docs-public", "how do I install askplane?"))
	cookie, _, _ := strings.Cut(a.header.Get("Set-Cookie"), ";")
	if !a.answered() || !strings.HasPrefix(cookie, access.DefaultCookieName+"=v2.") {
		t.Fatalf("site A: %d %v %s", a.status, a.header, a.body)
	}
	if a := fetch(t, c, e.askReq("?corpus=docs-public", "how do I install askplane?", "Cookie", cookie)); !a.answered() || a.header.Get("Set-Cookie") != "" {
		t.Errorf("site A's cookie replayed to site A: %d Set-Cookie %q, want its subject kept", a.status, a.header.Get("Set-Cookie"))
	}
	a = fetch(t, c, e.askReq("?corpus=docs-internal", "how do I deploy the sidecar?", "Cookie", cookie))
	minted, _, _ := strings.Cut(a.header.Get("Set-Cookie"), ";")
	if !a.answered() || !strings.HasPrefix(minted, access.DefaultCookieName+"=v2.") || minted == cookie {
		t.Errorf("site A's cookie replayed to site B: %d Set-Cookie %q, want a new subject", a.status, minted)
	}
}

// TestEdgeEarlyRefusalDoesNotWaitForTheBody: a question refused before its
// body is read (wrong Host, wrong content type, an unknown token, a spent
// budget) by a client that announced a body and never sends it is
// answered at once and the connection closed, instead of net/http holding
// the refusal until the read deadline while it waits to drain the body.
func TestEdgeEarlyRefusalDoesNotWaitForTheBody(t *testing.T) {
	t.Setenv("ASKPLANE_TEST_TOKEN", testSecret+"-token")
	e := startEdge(t, edgeConfig(t, `,"hosts":["ask.example.com"]`, `"bodyTimeout":"3s","readHeaderTimeout":"3s"`,
		siteJSON(edgePublic(t), "docs", "docs-public", `,"tokens":[{"subject":"ci-bot","env":"ASKPLANE_TEST_TOKEN"}]`)))
	for _, c := range []struct {
		name, host, header string
		status             int
	}{
		{"foreign host", "evil.example", "Content-Type: application/json\r\n", 403},
		{"wrong content type", "ask.example.com", "Content-Type: text/plain\r\n", 415},
		{"unknown token", "ask.example.com", "Content-Type: application/json\r\nAuthorization: Bearer " + strings.Repeat("x", 40) + "\r\n", 401},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn := dialRaw(t, e.addr)
			start := time.Now()
			fmt.Fprintf(conn, "POST /v1/ask HTTP/1.1\r\nHost: %s\r\n%sContent-Length: 100\r\n\r\n{", c.host, c.header)
			br := bufio.NewReader(conn)
			resp, _, err := readResponse(conn, br, 5*time.Second)
			took := time.Since(start)
			if err != nil {
				t.Fatalf("no response after %v: %v", took, err)
			}
			if resp.StatusCode != c.status || took > time.Second {
				t.Errorf("%d after %v, want %d at once", resp.StatusCode, took.Round(time.Millisecond), c.status)
			}
			if !resp.Close {
				t.Error("the refusal keeps the connection, whose body was never read")
			}
		})
	}
}

// A static site whose theme loads from other hosts or runs inline sets
// its own csp: its pages are sent with it, not the widget's.
func TestEdgeStaticOwnCSP(t *testing.T) {
	public := edgePublic(t)
	if err := os.WriteFile(filepath.Join(public, "index.html"), []byte("<h1>home</h1>"), 0o644); err != nil {
		t.Fatal(err)
	}
	const own = "default-src 'self'; img-src 'self' https:; script-src 'self' https://stats.example.org"
	e := startEdge(t, edgeConfig(t, "", "", siteJSON(public, "docs", "docs-public", `,"static":true,"csp":"`+own+`"`)))
	home := fetch(t, newClient(t), e.getReq("/", ""))
	if home.status != 200 || home.header.Get("Content-Security-Policy") != own {
		t.Errorf("GET / = %d, Content-Security-Policy %q; want the site's %q", home.status, home.header.Get("Content-Security-Policy"), own)
	}
}
