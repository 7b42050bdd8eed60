package browser

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/sidecar"
	"github.com/chromedp/chromedp"
	_ "modernc.org/sqlite"
)

// runAnswer is what the fake model answers: three paragraphs, so the
// run's log holds three text events and a connection cut after the first
// leaves two to read again.
var runParagraphs = []string{"Durable answers are runs.", "A dropped stream is read again from the run's log.", "Nothing is written twice."}

// fakeModel is an OpenAI-compatible provider on loopback that cites the
// first record it is shown. hold makes it wait (until the call is
// abandoned) before answering; slow makes it answer after a pause.
type fakeModel struct {
	srv   *httptest.Server
	calls atomic.Int32
	hold  atomic.Bool
	slow  atomic.Int64 // nanoseconds
}

var recordID = regexp.MustCompile(`\\"id\\":\\"([^"\\]+)\\"`)

func newFakeModel(t *testing.T) *fakeModel {
	f := &fakeModel{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.calls.Add(1)
		body, _ := io.ReadAll(r.Body)
		if f.hold.Load() {
			<-r.Context().Done()
			return
		}
		if d := time.Duration(f.slow.Load()); d > 0 {
			select {
			case <-time.After(d):
			case <-r.Context().Done():
				return
			}
		}
		m := recordID.FindSubmatch(body)
		if m == nil {
			http.Error(w, "no record in the request", http.StatusBadRequest)
			return
		}
		out, _ := json.Marshal(map[string]any{"cites": []string{string(m[1])}, "answer": strings.Join(runParagraphs, "\n\n")})
		text, _ := json.Marshal(string(out))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"resp_1","object":"response","status":"completed","model":"fake-model","output":[`+
			`{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":`+string(text)+`,"annotations":[]}]}],`+
			`"usage":{"input_tokens":120,"output_tokens":30,"total_tokens":150}}`)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// runsProxy stands between chromium and the sidecar, as a CDN would: it
// passes everything through, adds data-askplane-feedback to the pages'
// widget root (exampleSite does not take feedback), records what the
// widget posts to /v1/feedback and the run routes it calls, and cuts the
// connection of the next cut NDJSON streams after their first text event.
type runsProxy struct {
	cut      atomic.Int32
	mu       sync.Mutex
	feedback []string // bodies
	routes   []string // method and path?query of /v1/runs/ requests
}

var errCut = errors.New("the test cut the stream")

// cutReader passes a stream through line by line and fails after the
// first text event, a moment after it.
type cutReader struct {
	br      *bufio.Reader
	pending []byte
	done    bool
	body    io.Closer
}

func (c *cutReader) Read(p []byte) (int, error) {
	if len(c.pending) == 0 {
		if c.done {
			// Long enough for the browser to take the text in.
			time.Sleep(500 * time.Millisecond)
			return 0, errCut
		}
		line, err := c.br.ReadBytes('\n')
		c.pending = line
		c.done = bytes.Contains(line, []byte(`"type":"text"`))
		if len(line) == 0 {
			return 0, err
		}
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

func (c *cutReader) Close() error { return c.body.Close() }

func (p *runsProxy) handler(upstream *url.URL) http.Handler {
	rp := httputil.NewSingleHostReverseProxy(upstream)
	director := rp.Director
	rp.Director = func(r *http.Request) {
		director(r)
		r.Header.Del("Accept-Encoding") // so pages can be rewritten
	}
	rp.ModifyResponse = func(res *http.Response) error {
		ct := res.Header.Get("Content-Type")
		switch {
		case strings.HasPrefix(ct, "text/html") && !strings.HasPrefix(res.Request.URL.Path, "/askplane/"):
			b, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil {
				return err
			}
			b = bytes.Replace(b, []byte("data-askplane-root"), []byte("data-askplane-root data-askplane-feedback"), 1)
			res.Body = io.NopCloser(bytes.NewReader(b))
			res.ContentLength = int64(len(b))
			res.Header.Del("Content-Length")
		case strings.HasPrefix(ct, "application/x-ndjson") && p.cut.Add(-1) >= 0:
			res.Body = &cutReader{br: bufio.NewReader(res.Body), body: res.Body}
		}
		return nil
	}
	rp.ErrorLog = nil
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/v1/feedback":
			b, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(b))
			p.mu.Lock()
			p.feedback = append(p.feedback, string(b))
			p.mu.Unlock()
		case strings.HasPrefix(r.URL.Path, "/v1/runs/"), strings.HasPrefix(r.URL.Path, "/v1/sessions/"):
			p.mu.Lock()
			p.routes = append(p.routes, r.Method+" "+r.URL.RequestURI())
			p.mu.Unlock()
		}
		rp.ServeHTTP(w, r)
	})
}

func (p *runsProxy) seen() (feedback, routes []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.feedback...), append([]string(nil), p.routes...)
}

// serveRuns serves public through the real sidecar, configured as
// askplane dev configures it but with the English site answering from
// fakeModel as durable runs on a SQLite store and taking feedback, behind
// a runsProxy. It returns the page origin (the proxy), the sidecar's and
// the SQLite file.
func serveRuns(t *testing.T, public string, model *fakeModel) (base, direct, db string, proxy *runsProxy) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	pln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr, paddr := ln.Addr().String(), pln.Addr().String()
	db = filepath.Join(t.TempDir(), "sessions.db")
	cfg, env, err := sidecar.Dev(public, []string{addr, paddr}, []string{"http://" + paddr}, "sqlite:"+db)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cfg.Sites {
		if cfg.Sites[i].Language != "en" {
			continue
		}
		cfg.Sites[i].Generator = &sidecar.GeneratorConfig{Provider: "openai-compatible", Model: "fake-model", BaseURL: model.srv.URL + "/v1", APIKeyEnv: "ASKPLANE_TEST_MODEL_KEY", Timeout: "10s"}
		cfg.Sites[i].Runs = &sidecar.RunsConfig{}
		cfg.Sites[i].Feedback = true
	}
	key := "sk-test-" + strings.Repeat("7", 32)
	envWith := func(name string) (string, bool) {
		if name == "ASKPLANE_TEST_MODEL_KEY" {
			return key, true
		}
		return env(name)
	}
	ctx, cancel := context.WithCancel(context.Background())
	logger := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := sidecar.New(ctx, cfg, sidecar.Options{Env: envWith, Logger: logger})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	proxy = &runsProxy{}
	up, _ := url.Parse("http://" + addr)
	ps := &http.Server{Handler: proxy.handler(up), ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelDebug)}
	go ps.Serve(pln)
	t.Cleanup(func() {
		ps.Close()
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
		srv.Close()
	})
	return "http://" + paddr, "http://" + addr, db, proxy
}

// storedSessions counts the sessions of id in the sidecar's SQLite file.
func storedSessions(t *testing.T, db, id string) int {
	t.Helper()
	raw, err := sql.Open("sqlite", db+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var n int
	if err := raw.QueryRow(`SELECT count(*) FROM sessions WHERE session_id = ?`, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// metric returns the sidecar's /metrics lines that match re.
func metric(t *testing.T, direct, re string) []string {
	t.Helper()
	res, err := http.Get(direct + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	rx := regexp.MustCompile(re)
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if rx.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

// streamText is the markdown text of the log's nth streamed answer.
func streamText(tb *tab, n int) string {
	tb.t.Helper()
	return tb.eval(`(document.querySelectorAll('[data-askplane-log] [data-askplane-stream] [data-askplane-markdown]')[` + itoa(n) + `] || {}).textContent || ''`)
}

// TestSidecarRuns is the widget on a model site whose answers are durable
// runs, through the real sidecar (a fake model on loopback, SQLite):
// every question carries an Idempotency-Key; a connection cut mid-answer
// is read again from the run's log and the answer shows whole, once;
// helpful feedback reaches the sidecar's metrics with only the context
// id and the verdict; a page left mid-run resumes the run on the next
// page; Stop cancels the run; "New conversation" deletes the sidecar's
// session.
func TestSidecarRuns(t *testing.T) {
	browser := startBrowser(t)
	public := examplePublic(t)
	axe := axeSource(t)
	model := newFakeModel(t)
	base, direct, db, proxy := serveRuns(t, public, model)
	const question = "which session store do several sidecar instances behind a load balancer need"

	t.Run("CutMidAnswer", func(t *testing.T) {
		tb := openTab(t, browser, &site{URL: base}, "/")
		tb.open()
		proxy.cut.Store(1)
		tb.ask(question)
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		tb.allow(`ERR_INCOMPLETE_CHUNKED_ENCODING|ERR_CONNECTION|network error`)
		if n := tb.count("[data-askplane-error]"); n != 0 {
			t.Fatalf("the answer failed: %s", tb.text("[data-askplane-error-text]"))
		}
		if got := tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-stream]').getAttribute('data-askplane-state')`); got != "done" {
			t.Errorf("stream state %q; want done", got)
		}
		text := streamText(tb, 0)
		for _, p := range runParagraphs {
			if strings.Count(text, p) != 1 {
				t.Errorf("%q shows %d times in the answer; want once:\n%s", p, strings.Count(text, p), text)
			}
		}
		_, routes := proxy.seen()
		if len(routes) != 1 || !regexp.MustCompile(`^GET /v1/runs/run-[A-Z0-9]+/events\?corpus=docs-en&after=2$`).MatchString(routes[0]) {
			t.Errorf("run routes called %q; want one GET of the events after the 2 seen", routes)
		}
		if n := model.calls.Load(); n != 1 {
			t.Errorf("%d model calls; want 1, the run", n)
		}
		if n := tb.count("[data-askplane-stream] [data-askplane-source-link]"); n == 0 {
			t.Errorf("the resumed answer cites nothing")
		}
		tb.shot("26-run-resumed")
		tb.audit(axe, "run resumed")

		// Helpful: only {context_id, verdict} goes, and the sidecar
		// counts it.
		tb.do(chromedp.Click(chromedp.CSS(`[data-askplane-stream] [data-askplane-verdict="helpful"]`)))
		tb.wait(`document.querySelector('[data-askplane-stream] [data-askplane-feedback]').textContent === 'Thanks for the feedback.'`)
		var got []string
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if got = metric(t, direct, `^askplane_feedback_total\{site="[^"]+",verdict="helpful"\} 1$`); len(got) == 1 {
				break
			}
		}
		if len(got) != 1 {
			t.Errorf("the sidecar's metrics do not count one helpful verdict: %q", metric(t, direct, `feedback`))
		}
		fb, _ := proxy.seen()
		if len(fb) != 1 || !regexp.MustCompile(`^\{"context_id":"sha256:[0-9a-f]{64}","verdict":"helpful"\}$`).MatchString(fb[0]) {
			t.Errorf("feedback bodies %q; want one {context_id, verdict}", fb)
		}
		tb.shot("27-run-feedback")
		tb.audit(axe, "run feedback")
	})

	t.Run("ResumeOnNextPage", func(t *testing.T) {
		calls := model.calls.Load()
		model.slow.Store(int64(1500 * time.Millisecond))
		defer model.slow.Store(0)
		tb := openTab(t, browser, &site{URL: base}, "/")
		tb.open()
		tb.ask(question)
		// The run is kept as answering before it answers.
		tb.wait(`(() => { const k = Object.keys(sessionStorage).find((k) => k.startsWith('askplane:')); return k && JSON.parse(sessionStorage.getItem(k)).turns.at(-1)?.r; })()`)
		tb.do(chromedp.Navigate(base+"/widget/"), chromedp.WaitReady(`[data-askplane-root][data-askplane-ready]`))
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		tb.allow(`ERR_ABORTED|ERR_INCOMPLETE_CHUNKED_ENCODING|network error`) // the page left mid-stream
		tb.open()
		if got := tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-stream]').getAttribute('data-askplane-state')`); got != "done" {
			t.Errorf("the resumed run's state %q; want done", got)
		}
		if got := streamText(tb, 0); got != strings.Join(runParagraphs, "") && strings.Count(got, runParagraphs[2]) != 1 {
			t.Errorf("the resumed answer %q", got)
		}
		for _, p := range runParagraphs {
			if n := strings.Count(streamText(tb, 0), p); n != 1 {
				t.Errorf("%q shows %d times in the resumed answer", p, n)
			}
		}
		if n := model.calls.Load() - calls; n != 1 {
			t.Errorf("%d model calls; want 1: the next page read the run, not asked again", n)
		}
		if got := tb.text("[data-askplane-question-text]"); got != question {
			t.Errorf("the questions on the next page: %q", got)
		}
		if _, routes := proxy.seen(); !regexp.MustCompile(`^GET /v1/runs/run-[A-Z0-9]+/events\?corpus=docs-en&after=0$`).MatchString(routes[len(routes)-1]) {
			t.Errorf("the next page's run route %q; want the run's events from the first", routes[len(routes)-1])
		}
		kept := tb.eval(`(() => { const k = Object.keys(sessionStorage).find((k) => k.startsWith('askplane:')); const t = JSON.parse(sessionStorage.getItem(k)).turns.at(-1); return String(t.r) + ' ' + (t.a.length > 0); })()`)
		if kept != "undefined true" {
			t.Errorf("the kept turn after the run ended (run, has text): %q", kept)
		}
		tb.shot("28-run-next-page")
		tb.audit(axe, "run on the next page")
	})

	t.Run("StopCancels", func(t *testing.T) {
		calls := model.calls.Load()
		model.hold.Store(true)
		defer model.hold.Store(false)
		tb := openTab(t, browser, &site{URL: base}, "/")
		tb.open()
		tb.ask(question)
		for deadline := time.Now().Add(10 * time.Second); model.calls.Load() == calls && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="true"]')`)
		tb.shot("29-run-answering")
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-log] [data-askplane-stream] [data-askplane-stop]")))
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		if got := tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-stream]').getAttribute('data-askplane-state') + ' ' + document.querySelector('[data-askplane-status]').textContent`); got != "stopped Stopped." {
			t.Errorf("after Stop (state, status): %q", got)
		}
		var got []string
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if got = metric(t, direct, `^askplane_ask_run_ended_total\{outcome="cancelled",site="[^"]+"\} 1$`); len(got) == 1 {
				break
			}
		}
		if len(got) != 1 {
			t.Errorf("the run did not end cancelled: %q", metric(t, direct, `run_ended`))
		}
		_, routes := proxy.seen()
		if last := routes[len(routes)-1]; !regexp.MustCompile(`^POST /v1/runs/run-[A-Z0-9]+/cancel\?corpus=docs-en$`).MatchString(last) {
			t.Errorf("the last run route %q; want the cancel", last)
		}
		tb.allow(`ERR_ABORTED|ERR_INCOMPLETE_CHUNKED_ENCODING`) // the stream Stop cut
		tb.shot("30-run-stopped")
		tb.audit(axe, "run stopped")
	})

	t.Run("NewConversationForgets", func(t *testing.T) {
		tb := openTab(t, browser, &site{URL: base}, "/")
		tb.open()
		tb.ask(question)
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][data-askplane-state="done"]')`)
		id := tb.eval(`JSON.parse(sessionStorage.getItem(Object.keys(sessionStorage).find((k) => k.startsWith('askplane:')))).session`)
		if n := storedSessions(t, db, id); n != 1 {
			t.Fatalf("%d sessions %s stored after the answer; want 1", n, id)
		}
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-new]")))
		var n int
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if n = storedSessions(t, db, id); n == 0 {
				break
			}
		}
		if n != 0 {
			t.Errorf("the sidecar still keeps session %s after New conversation", id)
		}
		if _, routes := proxy.seen(); routes[len(routes)-1] != "POST /v1/sessions/"+id+"/forget?corpus=docs-en" {
			t.Errorf("the last route %q; want the session's forget", routes[len(routes)-1])
		}
		tb.shot("31-new-conversation-forgotten")
		tb.audit(axe, "new conversation, forgotten")
	})
}
