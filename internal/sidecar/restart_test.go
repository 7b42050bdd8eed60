package sidecar

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/protocol"
)

// heldModel is a model on OpenAI's Responses wire whose first call is
// never answered (it waits until its connection is gone, as a call in
// flight does when its instance dies) and whose later calls answer at
// once.
type heldModel struct {
	srv   *httptest.Server
	calls atomic.Int32
	held  chan struct{} // closed when the first call is in flight
}

func newHeldModel(t *testing.T) *heldModel {
	m := &heldModel{held: make(chan struct{})}
	text, _ := json.Marshal(`{"answer":"Install it with go install.\n\nIt needs Go 1.26.","cites":["` + corpus.RecordID("/docs/install/", "install") + `"]}`)
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if m.calls.Add(1) == 1 {
			close(m.held)
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"resp_2","object":"response","status":"completed","model":"gpt-fake","output":[`+
			`{"type":"message","id":"msg_2","role":"assistant","content":[{"type":"output_text","text":`+string(text)+`,"annotations":[]}]}],`+
			`"usage":{"input_tokens":120,"output_tokens":30,"total_tokens":150}}`)
	}))
	t.Cleanup(m.srv.Close)
	return m
}

func (m *heldModel) generator() string {
	return `,"generator":{"provider":"openai-compatible","model":"fake-model","baseUrl":"` + m.srv.URL + `/v1","apiKeyEnv":"ASKPLANE_TEST_MODEL_KEY","timeout":"20s"},"runs":{}`
}

// waitHeld waits until the model's first call is in flight.
func (m *heldModel) waitHeld(t *testing.T) {
	t.Helper()
	select {
	case <-m.held:
	case <-time.After(10 * time.Second):
		t.Fatal("the model was never called")
	}
}

// stream is an NDJSON response read line by line as it arrives.
type stream struct {
	header http.Header
	mu     sync.Mutex
	lines  []string
	ended  chan struct{}
}

func openStream(t *testing.T, c *http.Client, req *http.Request) *stream {
	t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("stream: %d %s", resp.StatusCode, b)
	}
	s := &stream{header: resp.Header, ended: make(chan struct{})}
	go func() {
		defer close(s.ended)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			s.mu.Lock()
			s.lines = append(s.lines, sc.Text())
			s.mu.Unlock()
		}
	}()
	return s
}

// wait returns the lines once the stream ended, or fails after d.
func (s *stream) wait(t *testing.T, d time.Duration) []string {
	t.Helper()
	select {
	case <-s.ended:
	case <-time.After(d):
		t.Fatalf("the stream did not end within %v", d)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...)
}

func (s *stream) snapshot() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...)
}

func (s *stream) seen() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.lines)
}

func askRequest(t *testing.T, base, question, key string) *http.Request {
	req, err := http.NewRequest("POST", base+"/v1/ask", strings.NewReader(askJSON(question)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", key)
	return req
}

// rest reads a run's events after the first after of them from base,
// within d, following the run until it ends.
func rest(t *testing.T, c *http.Client, base, runID string, after int, d time.Duration) []string {
	t.Helper()
	req := runEventsRequest(t, base+"/v1/runs/"+runID+"/events?after="+strconv.Itoa(after))
	return openStream(t, c, req).wait(t, d)
}

// A process killed mid-attempt (SIGKILL: no shutdown, its lease left to
// run out) and started again on the same SQLite file: the restarted
// instance's sweep takes the run over once the lease expired, records the
// call that was in flight unknown, makes one more, and completes the run;
// the reader, whose connection died with the process, reconnects with the
// run id and the count of events it saw and reads exactly the rest of the
// same answer. The model saw two calls in all, and the run's attempts are
// [unknown, completed].
func TestKilledInstanceResumesItsRunAfterRestart(t *testing.T) {
	bin := askplaneBinary(t)
	db := filepath.Join(t.TempDir(), "sessions.db")
	model := newHeldModel(t)
	cfg := `{"sessions":"sqlite:` + db + `","runLease":"300ms","metrics":true,"sites":[` + siteJSON(edgePublic(t), "docs", "docs-public", model.generator()) + `]}`
	a := startProcess(t, bin, cfg, "")
	c := reader(t)
	first := openStream(t, c, askRequest(t, a.url, "how do I install askplane?", "q-killed"))
	runID := first.header.Get(protocol.RunHeader)
	model.waitHeld(t)
	for first.seen() < 1 {
		time.Sleep(5 * time.Millisecond)
	}
	a.cmd.Process.Signal(syscall.SIGKILL)
	<-a.exited
	saw := first.wait(t, 5*time.Second)
	if runID == "" || len(saw) != 1 || !strings.Contains(saw[0], `"name":"run"`) {
		t.Fatalf("before the kill: run %q, events %q", runID, saw)
	}

	b := startProcess(t, bin, cfg, "")
	got := rest(t, c, b.url, runID, len(saw), 30*time.Second)
	body := strings.Join(got, "\n") + "\n"
	if terminal(body) != "done" || answerText(t, body) != "Install it with go install.\n\nIt needs Go 1.26." || !strings.Contains(body, `"name":"cite"`) {
		t.Fatalf("the rest of the answer after the restart:\n%s", body)
	}
	if strings.Contains(body, `"name":"run"`) {
		t.Fatalf("the rest repeated an event the reader saw:\n%s", body)
	}
	if n := model.calls.Load(); n != 2 {
		t.Fatalf("the model saw %d calls; want 2 (the one lost with the process, one retry)", n)
	}
	metrics := get(t, b.url+"/metrics")
	for _, want := range []string{
		`askplane_ask_run_resumed_total{outcome="ok",site="docs"} 1`,
		`askplane_ask_attempt_unknown_total{outcome="ok",site="docs"} 1`,
		`askplane_ask_run_ended_total{outcome="completed",site="docs"} 1`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if t.Failed() {
		t.Logf("metrics:\n%s", grepLines(metrics, "askplane_ask_"))
	}
}

// withDeadlines sets a site's requestTimeoutMs and generationTimeoutMs
// in its config (testSite's are 30,000 and 20,000).
func withDeadlines(site string, request, generation int) string {
	site = strings.Replace(site, `"requestTimeoutMs":30000`, `"requestTimeoutMs":`+strconv.Itoa(request), 1)
	return strings.Replace(site, `"generationTimeoutMs":20000`, `"generationTimeoutMs":`+strconv.Itoa(generation), 1)
}

// Issue 25: under the default runLease (30 s then, as long as the
// example's requestTimeoutMs and longer than its generationTimeoutMs), a
// run whose process was SIGKILLed was still "running" when its deadline
// passed and ended ASK_TIMEOUT, never resumed. With no runLease in the
// config, the lease now defaults to a third of the site's shortest
// deadline (2 s of 6 s; 6.7 s of the example's 20 s), the restarted
// process sweeps at once and then every quarter lease, and the reader
// gets the rest of the answer.
func TestKilledInstanceResumesUnderTheDefaultLease(t *testing.T) {
	bin := askplaneBinary(t)
	for _, c := range []struct {
		name                string
		request, generation int
	}{
		{"short deadlines (lease 2 s)", 8000, 6000},
		{"the example config's deadlines (lease 6.7 s)", 30_000, 20_000},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "sessions.db")
			model := newHeldModel(t)
			site := withDeadlines(siteJSON(edgePublic(t), "docs", "docs-public", model.generator()), c.request, c.generation)
			cfg := `{"sessions":"sqlite:` + db + `","sites":[` + site + `]}`
			a := startProcess(t, bin, cfg, "")
			rd := reader(t)
			first := openStream(t, rd, askRequest(t, a.url, "how do I install askplane?", "q-default-lease"))
			runID := first.header.Get(protocol.RunHeader)
			model.waitHeld(t)
			for first.seen() < 1 {
				time.Sleep(5 * time.Millisecond)
			}
			killed := time.Now()
			a.cmd.Process.Signal(syscall.SIGKILL)
			<-a.exited
			saw := first.wait(t, 5*time.Second)

			b := startProcess(t, bin, cfg, "")
			deadline := time.Duration(c.generation) * time.Millisecond
			got := rest(t, rd, b.url, runID, len(saw), deadline+5*time.Second)
			body := strings.Join(got, "\n") + "\n"
			if terminal(body) != "done" || answerText(t, body) != "Install it with go install.\n\nIt needs Go 1.26." {
				t.Fatalf("the rest of the answer after a SIGKILL under the default lease:\n%s", body)
			}
			if took := time.Since(killed); took > deadline {
				t.Errorf("the run was resumed %v after the kill; its deadline is %v", took, deadline)
			}
			t.Logf("answered %v after the kill", time.Since(killed).Round(100*time.Millisecond))
		})
	}
}

// SIGTERM with a durable answer in flight on a PostgreSQL pair: the
// stopping instance ends its reader's stream with the retryable
// "restarting; reconnect" event (exactly one terminal event), gives the
// run half its shutdownTimeout, then hands it on and exits; the other
// instance's sweep takes it over within seconds (the lease was ended, not
// left to run out) and the reader, reconnecting there, reads the rest.
func TestSIGTERMHandsARunToTheOtherInstance(t *testing.T) {
	bin := buildAskplane(t)
	dsn, _, _ := postgresSchemaURL(t)
	model := newHeldModel(t)
	// Deadlines of two minutes, so a one-minute lease is allowed, and
	// one that ran out could not be what hands the run on.
	site := withDeadlines(siteJSON(edgePublic(t), "docs", "docs-public", model.generator()), 120_000, 120_000)
	cfg := `{"sessionsEnv":"ASKPLANE_TEST_DB","runLease":"1m","metrics":true,"edge":{"shutdownTimeout":"2s"},"sites":[` + site + `]}`
	a, b := startProcess(t, bin, cfg, dsn), startProcess(t, bin, cfg, dsn)
	c := reader(t)
	first := openStream(t, c, askRequest(t, a.url, "how do I install askplane?", "q-term"))
	runID := first.header.Get(protocol.RunHeader)
	model.waitHeld(t)
	start := time.Now()
	a.stop()
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("exit took %v with a 2 s shutdownTimeout", took)
	}
	saw := first.wait(t, 5*time.Second)
	if n := len(saw); n == 0 || !strings.Contains(saw[n-1], `"retryable":true`) || !strings.Contains(saw[n-1], "Reconnect") || terminal(strings.Join(saw, "\n")) != "ASK_INTERNAL" {
		t.Fatalf("the stopping instance's stream: %q", saw)
	}
	logged := saw[:len(saw)-1] // the notice is not one of the run's events
	got := rest(t, c, b.url, runID, len(logged), 20*time.Second)
	body := strings.Join(append(logged, got...), "\n") + "\n"
	if terminal(body) != "done" || answerText(t, body) != "Install it with go install.\n\nIt needs Go 1.26." || strings.Count(body, `"name":"run"`) != 1 {
		t.Fatalf("the answer, read on both instances:\n%s", body)
	}
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("the answer took %v after SIGTERM: the lease (1 m) was left to run out", took)
	}
	if n := model.calls.Load(); n != 2 {
		t.Fatalf("the model saw %d calls; want 2", n)
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

// A process killed while its model was writing the answer into the log
// (a streaming model): the restarted instance takes the run over, sees in
// its checkpoint that text began, and ends it with the retryable "cut
// off; ask again" error rather than writing another answer under the
// text the reader saw. The model saw one call.
func TestKilledMidTextEndsCutOffAfterRestart(t *testing.T) {
	bin := askplaneBinary(t)
	db := filepath.Join(t.TempDir(), "sessions.db")
	fake, calls := heldStream(t, make(chan struct{}), false)
	gen := `,"generator":{"provider":"openai","model":"fake-model","baseUrl":"` + fake.URL + `/v1","apiKeyEnv":"ASKPLANE_TEST_MODEL_KEY","timeout":"20s"},"runs":{}`
	cfg := `{"sessions":"sqlite:` + db + `","runLease":"300ms","sites":[` + siteJSON(edgePublic(t), "docs", "docs-public", gen) + `]}`
	a := startProcess(t, bin, cfg, "")
	c := reader(t)
	first := openStream(t, c, askRequest(t, a.url, "how do I install askplane?", "q-mid-text"))
	runID := first.header.Get(protocol.RunHeader)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(strings.Join(first.snapshot(), ""), "with go install.") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	a.cmd.Process.Signal(syscall.SIGKILL)
	<-a.exited
	saw := first.wait(t, 5*time.Second)
	if answerText(t, strings.Join(saw, "\n")) != "Install it with go install." {
		t.Fatalf("before the kill: %q", saw)
	}
	b := startProcess(t, bin, cfg, "")
	body := strings.Join(rest(t, c, b.url, runID, len(saw), 30*time.Second), "\n") + "\n"
	if terminal(body) != "ASK_GENERATION_FAILED" || !strings.Contains(body, "cut off") || strings.Contains(body, `"type":"text"`) {
		t.Fatalf("after the restart:\n%s", body)
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d model calls; want 1", n)
	}
}

// The tool loop across a SIGKILL: a real process runs round 1 (a search),
// commits it, and dies with round 2 in flight; started again on the same
// SQLite file, it takes the run over and sends round 2 once more,
// continuing round 1's output byte for byte, never round 1 itself; the
// reader reads the rest of the same answer, with the search's event once
// and citations from the search.
func TestKilledMidToolLoopResumesWithoutResendingARound(t *testing.T) {
	bin := askplaneBinary(t)
	db := filepath.Join(t.TempDir(), "sessions.db")
	r1 := searchCall("openai", "call_1", "upgrade migrations binary")
	model := newScripted(t, "openai", r1, finalAnswer("openai", idUpgrade))
	model.holdRequest(1) // round 2 of the first process never returns
	gen := `,"generator":{"provider":"openai","model":"fake-model","baseUrl":"` + model.srv.URL + `/v1","apiKeyEnv":"ASKPLANE_TEST_MODEL_KEY","timeout":"20s"},"runs":{"maxRounds":3}`
	cfg := `{"sessions":"sqlite:` + db + `","runLease":"300ms","sites":[` + siteJSON(writeToolCorpus(t), "docs", "docs-public", gen) + `]}`
	a := startProcess(t, bin, cfg, "")
	c := reader(t)
	first := openStream(t, c, askRequest(t, a.url, "how do I upgrade askplane?", "q-loop"))
	runID := first.header.Get(protocol.RunHeader)
	deadline := time.Now().Add(10 * time.Second)
	for len(model.requests()) < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	for first.seen() < 2 && time.Now().Before(deadline) { // the run event and round 1's search
		time.Sleep(5 * time.Millisecond)
	}
	a.cmd.Process.Signal(syscall.SIGKILL)
	<-a.exited
	saw := first.wait(t, 5*time.Second)
	b := startProcess(t, bin, cfg, "")
	got := rest(t, c, b.url, runID, len(saw), 30*time.Second)
	body := strings.Join(append(saw, got...), "\n") + "\n"
	if terminal(body) != "done" || len(toolEvents(body, "search")) != 1 || !strings.Contains(body, `"path":"/docs/upgrade/#upgrade"`) {
		t.Fatalf("the answer across the restart:\n%s", body)
	}
	reqs := model.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model calls; want 3 (round 1, round 2 lost with the process, round 2 again)", len(reqs))
	}
	one := replayed(t, "openai", r1)
	for i, req := range reqs[1:] {
		if !bytes.Contains(req, one) {
			t.Fatalf("call %d does not continue round 1 (was round 1 sent again?)", i+2)
		}
	}
}
