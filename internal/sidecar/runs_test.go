package sidecar

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/protocol"
)

// durableServer serves one model site (OpenAI's wire, from fake) on a
// SQLite store, so its answers are durable runs, on a real loopback
// listener.
func durableServer(t *testing.T, fakeURL, dbPath, extra string) (*Server, *httptest.Server) {
	t.Helper()
	return modelServer(t, "openai-compatible", fakeURL, dbPath, extra)
}

// modelServer is durableServer on the given provider's wire.
func modelServer(t *testing.T, provider, fakeURL, dbPath, extra string) (*Server, *httptest.Server) {
	t.Helper()
	public := writeCorpus(t, "docs", "/docs/install/", "Install", "install", installText)
	return siteServer(t, provider, fakeURL, `"sessions":"sqlite:`+dbPath+`"`, public, extra)
}

// siteServer serves the site "docs" from the built folder public with a
// model of the given provider at fakeURL, on the store sessions (the
// config's sessions member), extra added to the site's config, on a real
// loopback listener.
func siteServer(t *testing.T, provider, fakeURL, sessions, public, extra string) (*Server, *httptest.Server) {
	t.Helper()
	t.Setenv("ASKPLANE_TEST_SECRET", testSecret)
	t.Setenv("ASKPLANE_TEST_MODEL_KEY", "sk-test-"+strings.Repeat("9", 32))
	gen := `{"provider":"` + provider + `","model":"fake-model","baseUrl":"` + fakeURL + `/v1","apiKeyEnv":"ASKPLANE_TEST_MODEL_KEY","timeout":"5s"}`
	cfg, err := Decode([]byte(`{` + sessions + `,"metrics":true,"sites":[` + testSiteConfig(testSite("docs", "docs-public"), `,"generator":`+gen+extra) + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Sites[0].Public = public
	s, err := New(t.Context(), cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(func() { srv.Close(); s.Close() })
	return s, srv
}

// reader is one browser: a cookie jar, so it stays one subject.
func reader(t *testing.T) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar}
}

func post(t *testing.T, c *http.Client, url, body string, header ...string) answer {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return fetch(t, c, req)
}

func lines(body string) []string { return strings.Split(strings.TrimSuffix(body, "\n"), "\n") }

// A model site's answer is a run: X-Askplane-Run names it, its stream is
// the run's log (a run event, the text, the cite, done); the same
// Idempotency-Key again joins it (one provider call, the same events);
// GET /v1/runs/{id}/events?after=N gives exactly the events after the N
// seen; and another reader (another subject) cannot see it.
func TestDurableAnswerJoinsAndResumes(t *testing.T) {
	id := corpus.RecordID("/docs/install/", "install")
	fake := newFakeProvider(t, "openai-compatible", `{"cites":["`+id+`"],"answer":"Install it with go install.\n\nIt needs Go 1.26."}`)
	_, srv := durableServer(t, fake.srv.URL, filepath.Join(t.TempDir(), "s.db"), `,"runs":{}`)
	c := reader(t)
	first := post(t, c, srv.URL+"/v1/ask", askJSON("how do I install askplane?"), "Idempotency-Key", "q-1")
	runID := first.header.Get("X-Askplane-Run")
	if !first.answered() || runID == "" || !strings.Contains(first.body, `"name":"run"`) || !strings.Contains(first.body, `"path":"/docs/install/#install"`) {
		t.Fatalf("first answer: %d %s run %q\n%s", first.status, first.header, runID, first.body)
	}
	if answerText(t, first.body) != "Install it with go install.\n\nIt needs Go 1.26." {
		t.Fatalf("answer text %q", answerText(t, first.body))
	}
	again := post(t, c, srv.URL+"/v1/ask", askJSON("how do I install askplane?"), "Idempotency-Key", "q-1")
	if again.header.Get("X-Askplane-Run") != runID || again.body != first.body {
		t.Fatalf("the same key did not join the run: %s\n%s", again.header.Get("X-Askplane-Run"), again.body)
	}
	if n := fake.requests.Load(); n != 1 {
		t.Fatalf("%d provider calls for one run", n)
	}
	all := lines(first.body)
	rest := fetch(t, c, runEventsRequest(t, srv.URL+"/v1/runs/"+runID+"/events?after=2"))
	if rest.status != 200 || rest.body != strings.Join(all[2:], "\n")+"\n" {
		t.Fatalf("resume after 2 of %d events: %d\n%s", len(all), rest.status, rest.body)
	}
	if other := fetch(t, reader(t), runEventsRequest(t, srv.URL+"/v1/runs/"+runID+"/events")); other.status != 404 {
		t.Fatalf("another subject read the run: %d %s", other.status, other.body)
	}
	if bad := post(t, c, srv.URL+"/v1/ask", askJSON("another question"), "Idempotency-Key", "q-1"); bad.status != 422 {
		t.Fatalf("a reused key for another question: %d %s", bad.status, bad.body)
	}
}

func runEventsRequest(t *testing.T, url string) *http.Request {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// Stop mid-answer cancels exactly: the provider call in flight is
// abandoned, no further attempt starts, the stream ends with
// ASK_CANCELLED, the run is cancelled and the metrics count it.
func TestDurableStopCancelsExactly(t *testing.T) {
	var calls atomic.Int64
	release := make(chan struct{})
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		io.Copy(io.Discard, r.Body)
		select {
		case <-release:
		case <-r.Context().Done():
		}
		w.WriteHeader(500)
	}))
	t.Cleanup(func() { close(release); fake.Close() })
	s, srv := durableServer(t, fake.URL, filepath.Join(t.TempDir(), "s.db"), `,"runs":{"maxAttempts":3}`)
	c := reader(t)
	// The first request mints the reader's cookie.
	post(t, c, srv.URL+"/v1/runs/none/cancel", "")
	req, _ := http.NewRequest("POST", srv.URL+"/v1/ask", strings.NewReader(askJSON("how do I install askplane?")))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req) // returns with the headers: the stream is open
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	runID := resp.Header.Get("X-Askplane-Run")
	for calls.Load() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	cancel := post(t, c, srv.URL+"/v1/runs/"+runID+"/cancel", "")
	if cancel.status != 200 || !strings.Contains(cancel.body, `"cancelRequested":true`) {
		t.Fatalf("cancel: %d %s", cancel.status, cancel.body)
	}
	b, _ := io.ReadAll(resp.Body)
	a := answer{resp.StatusCode, resp.Header, string(b)}
	if !strings.Contains(a.body, `"code":"ASK_CANCELLED"`) || strings.Contains(a.body, `"type":"done"`) {
		t.Fatalf("stream after Stop:\n%s", a.body)
	}
	r, err := s.worker.Store.Get(t.Context(), runID)
	if err != nil || r.State != durable.StateCancelled || r.Attempts != 1 {
		t.Fatalf("run after Stop: %s, %d attempts, %v", r.State, r.Attempts, err)
	}
	time.Sleep(100 * time.Millisecond)
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d provider calls after Stop, want 1", n)
	}
	m := fetch(t, http.DefaultClient, runEventsRequest(t, srv.URL+"/metrics"))
	if !strings.Contains(m.body, `askplane_ask_run_ended_total{outcome="cancelled",site="docs"} 1`) {
		t.Fatalf("metrics do not count the cancelled run:\n%s", grepLines(m.body, "run_"))
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// The site's ceiling on runs in flight holds across instances: with one
// run answering on instance A, instance B (another process on the same
// store) refuses a second question as busy (503 ASK_RATE_LIMITED, a
// Retry-After, never "the budget is spent"), counted as a budget refusal;
// once A's run ends, B admits.
func TestDurableCeilingHoldsAcrossInstances(t *testing.T) {
	id := corpus.RecordID("/docs/install/", "install")
	text, _ := json.Marshal(`{"cites":["` + id + `"],"answer":"Install it with go install."}`)
	release := make(chan struct{})
	var calls atomic.Int64
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			<-release
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"resp_1","object":"response","status":"completed","model":"gpt-fake","output":[`+
			`{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":`+string(text)+`,"annotations":[]}]}],`+
			`"usage":{"input_tokens":120,"output_tokens":30,"total_tokens":150}}`)
	}))
	t.Cleanup(fake.Close)
	db := filepath.Join(t.TempDir(), "s.db")
	limits := `,"runs":{"maxConcurrent":1,"inputUsdPerMTok":1,"outputUsdPerMTok":2}`
	_, a := durableServer(t, fake.URL, db, limits)
	sb, b := durableServer(t, fake.URL, db, limits)
	first := make(chan answer, 1)
	go func() { first <- post(t, reader(t), a.URL+"/v1/ask", askJSON("how do I install askplane?")) }()
	for calls.Load() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	refused := post(t, reader(t), b.URL+"/v1/ask", askJSON("how do I install askplane?"))
	if !refused.rateLimited(503) || !strings.Contains(refused.body, "busy") {
		t.Fatalf("a second run on instance B: %d %s %s", refused.status, refused.header.Get("Retry-After"), refused.body)
	}
	close(release)
	if f := <-first; !f.answered() {
		t.Fatalf("the first run: %d %s", f.status, f.body)
	}
	if ok := post(t, reader(t), b.URL+"/v1/ask", askJSON("how do I install askplane?")); !ok.answered() {
		t.Fatalf("after the first run ended: %d %s", ok.status, ok.body)
	}
	// Both runs' usage is the site's day, settled per attempt from the
	// provider's report: 150 tokens each, and at $1 and $2 per million
	// tokens, 120 + 60 micro-USD each.
	u, err := sb.worker.Store.DayUsage(t.Context(), "docs", time.Now())
	if err != nil || u.Tokens != 300 || u.CostMicros != 360 {
		t.Fatalf("day usage %+v, %v; want 300 tokens, 360 micro-USD", u, err)
	}
	m := fetch(t, http.DefaultClient, runEventsRequest(t, b.URL+"/metrics"))
	if !strings.Contains(m.body, `askplane_ask_budget_refused_total{outcome="rejected",site="docs"} 1`) {
		t.Fatalf("the refusal is not counted:\n%s", grepLines(m.body, "budget"))
	}
}

// heldStream is OpenAI's streaming wire with a model whose answer stops
// halfway until release is closed; then it finishes, or (drop) ends the
// stream there, as a connection lost mid-answer does.
func heldStream(t *testing.T, release <-chan struct{}, drop bool) (*httptest.Server, *atomic.Int32) {
	id := corpus.RecordID("/docs/install/", "install")
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		seq := 0
		send := func(ev, data string) {
			fmt.Fprintf(w, "event: %s\ndata: {\"sequence_number\":%d,%s\n\n", ev, seq, data[1:])
			seq++
			rc.Flush()
		}
		delta := func(s string) {
			d, _ := json.Marshal(s)
			send("response.output_text.delta", `{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":`+string(d)+`}`)
		}
		send("response.created", `{"type":"response.created","response":{"id":"resp_1","object":"response","status":"in_progress","model":"gpt-fake","output":[]}}`)
		send("response.output_item.added", `{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_1","role":"assistant","content":[]}}`)
		send("response.content_part.added", `{"type":"response.content_part.added","item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}`)
		delta(`{"cites":["` + id + `"],"answer":"Install it `)
		delta(`with go install.`)
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		if drop {
			return
		}
		delta(`\n\nIt needs Go 1.26."}`)
		full, _ := json.Marshal(`{"cites":["` + id + `"],"answer":"Install it with go install.\n\nIt needs Go 1.26."}`)
		send("response.output_text.done", `{"type":"response.output_text.done","item_id":"msg_1","output_index":0,"content_index":0,"text":`+string(full)+`}`)
		send("response.completed", `{"type":"response.completed","response":{"id":"resp_1","object":"response","status":"completed","model":"gpt-fake","output":[{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":`+string(full)+`,"annotations":[]}]}],"usage":{"input_tokens":120,"output_tokens":30,"total_tokens":150}}}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// A durable answer streams: with a model that streams (OpenAI's wire),
// the reader following the run sees the first half of the text while the
// model is still writing the second, and then the whole answer, once. A
// call that fails after its first text is not retried (a retry would
// write another answer under the text already read): the run ends with
// the retryable "cut off; ask again" error, after one provider call.
func TestDurableAnswerStreamsAsItIsWritten(t *testing.T) {
	for _, drop := range []bool{false, true} {
		t.Run(map[bool]string{false: "finishes", true: "cut off"}[drop], func(t *testing.T) {
			release := make(chan struct{})
			fake, calls := heldStream(t, release, drop)
			_, srv := modelServer(t, "openai", fake.URL, filepath.Join(t.TempDir(), "s.db"), `,"runs":{}`)

			st := openStream(t, reader(t), askRequest(t, srv.URL, "how do I install askplane?", "q-stream"))
			deadline := time.Now().Add(5 * time.Second)
			for !strings.Contains(strings.Join(st.snapshot(), ""), "with go install.") && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			half := st.snapshot()
			if got := answerText(t, strings.Join(half, "\n")); got != "Install it with go install." {
				t.Fatalf("while the model writes: text %q in %q", got, half)
			}
			close(release)
			body := strings.Join(st.wait(t, 10*time.Second), "\n") + "\n"
			if !drop {
				if terminal(body) != "done" || answerText(t, body) != "Install it with go install.\n\nIt needs Go 1.26." || !strings.Contains(body, `"name":"cite"`) {
					t.Fatalf("the whole answer:\n%s", body)
				}
			} else if terminal(body) != "ASK_GENERATION_FAILED" || !strings.Contains(body, "cut off") || !strings.Contains(body, `"retryable":true`) {
				t.Fatalf("cut off mid-answer:\n%s", body)
			}
			if n := calls.Load(); n != 1 {
				t.Fatalf("%d provider calls; want 1", n)
			}
		})
	}
}

// A model site's answers are durable runs by default on a store that
// keeps runs; "runs": false keeps them live; the block is read strictly.
func TestRunsAreTheDefaultForAModelSite(t *testing.T) {
	fake := newFakeProvider(t, "openai-compatible", `{"cites":["`+corpus.RecordID("/docs/install/", "install")+`"],"answer":"Install it with go install."}`)
	for extra, durable := range map[string]bool{"": true, `,"runs":{}`: true, `,"runs":false`: false} {
		_, srv := durableServer(t, fake.srv.URL, filepath.Join(t.TempDir(), "s.db"), extra)
		a := post(t, reader(t), srv.URL+"/v1/ask", askJSON("how do I install askplane?"))
		if !a.answered() || (a.header.Get(protocol.RunHeader) != "") != durable {
			t.Errorf("runs %q: %d, run %q, want durable %v\n%s", extra, a.status, a.header.Get(protocol.RunHeader), durable, a.body)
		}
	}
	for _, bad := range []string{`true`, `{"maxRound":3}`, `"yes"`} {
		_, err := decodeChecked([]byte(`{"sites":[` + testSiteConfig(testSite("docs", "docs-public"), `,"runs":`+bad) + `]}`))
		if err == nil || !strings.Contains(err.Error(), "runs") || strings.Contains(err.Error(), "yes") {
			t.Errorf("runs %s: %v", bad, err)
		}
	}
}
