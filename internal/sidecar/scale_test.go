package sidecar

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/fakesite"
	"github.com/askplane/askplane/internal/store/storetest"
	"github.com/jackc/pgx/v5"
)

// The tests in this file run the askplane binary itself, twice, on one
// PostgreSQL: two instances behind one address must behave as one.
// They need ASKPLANE_TEST_POSTGRES_URL (skipped without it, failed in CI
// without it) and build the binary once per test.

// askplaneBin is the binary the tests in this file run, built once.
var askplaneBin struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// TestMain removes the binary once every test has run.
func TestMain(m *testing.M) {
	code := m.Run()
	if askplaneBin.dir != "" {
		os.RemoveAll(askplaneBin.dir)
	}
	os.Exit(code)
}

// buildAskplane builds sidecar/cmd/askplane, once per test binary, for a
// test on PostgreSQL.
func buildAskplane(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the askplane binary")
	}
	storetest.PostgresURL(t) // skip (or fail in CI) before building
	return askplaneBinary(t)
}

// askplaneBinary builds sidecar/cmd/askplane, once per test binary.
func askplaneBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the askplane binary")
	}
	b := &askplaneBin
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "askplane-scale-"); b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "askplane")
		out, err := exec.Command("go", "build", "-o", b.path, "github.com/askplane/askplane/sidecar/cmd/askplane").CombinedOutput()
		if err != nil {
			b.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// postgresSchemaURL is the test database's URL with search_path set to a
// new schema, dropped when the test ends; params are added to the URL
// (server settings such as statement_timeout).
func postgresSchemaURL(t *testing.T, params ...string) (dsn string, admin *pgx.Conn, schema string) {
	t.Helper()
	base := storetest.PostgresURL(t)
	admin, err := pgx.Connect(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	var b [8]byte
	rand.Read(b[:])
	schema = "askplane_scale_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(t.Context(), "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close(context.Background())
	})
	u, _ := url.Parse(base)
	q := u.Query()
	q.Set("search_path", schema)
	for i := 0; i+1 < len(params); i += 2 {
		q.Set(params[i], params[i+1])
	}
	u.RawQuery = q.Encode()
	return u.String(), admin, schema
}

// process is one askplane serve.
type process struct {
	t      *testing.T
	cmd    *exec.Cmd
	url    string
	out    *fakesite.Buffer
	exited chan error
}

// freeAddr is a loopback address nothing listens on (for a moment).
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startProcess runs bin serve with config (JSON) and the database URL
// in ASKPLANE_TEST_DB, and waits until it listens.
func startProcess(t *testing.T, bin, config, dsn string) *process {
	t.Helper()
	p, err := tryProcess(t, bin, config, dsn)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func tryProcess(t *testing.T, bin, config, dsn string) (*process, error) {
	addr := freeAddr(t)
	p := &process{t: t, url: "http://" + addr, out: &fakesite.Buffer{}, exited: make(chan error, 1)}
	p.cmd = exec.Command(bin, "serve", "--addr", addr)
	p.cmd.Env = []string{"ASKPLANE_CONFIG_JSON=" + config, "ASKPLANE_TEST_DB=" + dsn,
		"ASKPLANE_TEST_SECRET=" + testSecret, "ASKPLANE_TEST_TOKEN=" + testToken, "ASKPLANE_TEST_MODEL_KEY=sk-test-" + strings.Repeat("9", 32)}
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { p.exited <- p.cmd.Wait() }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		if t.Failed() {
			t.Logf("%s:\n%s", p.url, p.out.String())
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		select {
		case err := <-p.exited:
			p.exited <- err
			return nil, fmt.Errorf("askplane serve exited (%v):\n%s", err, p.out.String())
		default:
		}
		if res, err := http.Get(p.url + "/health"); err == nil {
			res.Body.Close()
			return p, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("askplane serve never listened:\n%s", p.out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop sends SIGTERM and waits for the exit, which must be clean.
func (p *process) stop() {
	p.t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.exited:
		if err != nil {
			p.t.Errorf("exit after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		p.t.Errorf("no exit 20 s after SIGTERM")
	}
}

// scaleConfig is a config on the database in ASKPLANE_TEST_DB.
func scaleConfig(edge string, sites ...string) string {
	return `{"sessionsEnv":"ASKPLANE_TEST_DB","edge":{` + edge + `},"sites":[` + strings.Join(sites, ",") + `]}`
}

// asker sends Ask requests to whichever instance it is given.
type asker struct {
	c *http.Client
}

func (a asker) ask(t *testing.T, base, body string, header ...string) answer {
	req, _ := http.NewRequest("POST", base+"/v1/ask", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return fetch(t, a.c, req)
}

// terminal is the last event of an NDJSON stream: "done", or the error's
// code.
func terminal(body string) string {
	var last map[string]any
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev map[string]any
		if json.Unmarshal(sc.Bytes(), &ev) == nil {
			last = ev
		}
	}
	switch last["type"] {
	case "done":
		return "done"
	case "error":
		if e, ok := last["error"].(map[string]any); ok {
			return fmt.Sprint(e["code"])
		}
		return fmt.Sprint(last["code"])
	}
	return ""
}

// TestTwoInstancesShareOneSession: turns of one session sent to both
// instances at once, each round. Every revision is won exactly once; the
// loser's stream ends with the typed, retryable ASK_PERSISTENCE_CONFLICT;
// the stored conversation is exactly the winners' turns, in order.
// (Issue 16.)
func TestTwoInstancesShareOneSession(t *testing.T) {
	t.Run("live", func(t *testing.T) { twoInstancesShareOneSession(t, "") })
	// A durable answer is delivered whole, but a turn that lost the
	// session race ends as the live stream's does.
	t.Run("durable", func(t *testing.T) { twoInstancesShareOneSession(t, `,"runs":{}`) })
}

func twoInstancesShareOneSession(t *testing.T, runs string) {
	bin := buildAskplane(t)
	dsn, admin, schema := postgresSchemaURL(t)
	p := newSlowProvider(t, 150*time.Millisecond)
	site := strings.Replace(siteJSON(edgePublic(t), "docs", "docs-public", p.generator()+runs+`,"anonymous":false,"tokens":[{"subject":"ci-bot","env":"ASKPLANE_TEST_TOKEN"}]`), `"disabled"`, `"required"`, 1)
	cfg := scaleConfig(`"perAddress":{"requests":1000,"windowSeconds":60}`, site)
	a, b := startProcess(t, bin, cfg, dsn), startProcess(t, bin, cfg, dsn)
	c := asker{newClient(t)}
	const rounds = 6
	var winners []string
	for round := range rounds {
		outs := make([]answer, 2)
		qs := []string{fmt.Sprintf("round %d via a: how do I install askplane?", round), fmt.Sprintf("round %d via b: how do I install askplane?", round)}
		var wg sync.WaitGroup
		for i, base := range []string{a.url, b.url} {
			wg.Go(func() {
				body, _ := json.Marshal(map[string]any{"protocol": "agentskit.chat.ask", "version": 1, "sessionId": "shared-1",
					"messages": []map[string]string{{"role": "user", "content": qs[i]}}})
				outs[i] = c.ask(t, base, string(body), "Authorization", "Bearer "+testToken)
			})
		}
		wg.Wait()
		got := []string{terminal(outs[0].body), terminal(outs[1].body)}
		switch {
		case got[0] == "done" && got[1] == "ASK_PERSISTENCE_CONFLICT":
			winners = append(winners, qs[0])
		case got[1] == "done" && got[0] == "ASK_PERSISTENCE_CONFLICT":
			winners = append(winners, qs[1])
		default:
			t.Fatalf("round %d: terminal events %q (want one done, one conflict):\n%s\n%s", round, got, outs[0].body, outs[1].body)
		}
	}
	var rev int
	var raw string
	if err := admin.QueryRow(t.Context(), `SELECT revision, messages FROM `+schema+`.sessions WHERE session_id = 'shared-1'`).Scan(&rev, &raw); err != nil {
		t.Fatal(err)
	}
	var msgs []struct{ Role, Content string }
	if err := json.Unmarshal([]byte(raw), &msgs); err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, m := range msgs {
		if m.Role == "user" {
			users = append(users, m.Content)
		}
	}
	if rev != rounds || len(msgs) != 2*rounds || strings.Join(users, "|") != strings.Join(winners, "|") {
		t.Fatalf("stored revision %d, %d messages, users %q; want %d, %d, %q", rev, len(msgs), users, rounds, 2*rounds, winners)
	}
}

// TestTwoInstancesShareRateLimits: a per-address limit of 5 a minute and a
// per-subject limit of 3 a minute, each asked 20 times through two
// instances alternately: 5 and 3 answered in all, every other request 429
// ASK_RATE_LIMITED with Retry-After. In-process limits would answer twice
// as many. (Issue 16.)
func TestTwoInstancesShareRateLimits(t *testing.T) {
	bin := buildAskplane(t)
	dsn, _, _ := postgresSchemaURL(t)
	site := siteJSON(edgePublic(t), "docs", "docs-public", `,"tokens":[{"subject":"ci-bot","env":"ASKPLANE_TEST_TOKEN"}],"rateLimit":{"requests":3,"windowSeconds":60}`)
	cfg := scaleConfig(`"trustedProxyHeader":"X-Forwarded-For","perAddress":{"requests":5,"windowSeconds":60}`, site)
	a, b := startProcess(t, bin, cfg, dsn), startProcess(t, bin, cfg, dsn)
	c := asker{newClient(t)}
	count := func(header func(i int) []string) (answered, limited int) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := range 20 {
			base := a.url
			if i%2 == 1 {
				base = b.url
			}
			wg.Go(func() {
				out := c.ask(t, base, askJSON("how do I install askplane?"), header(i)...)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case out.answered():
					answered++
				case out.rateLimited(429):
					limited++
				default:
					t.Errorf("unexpected %d %s", out.status, out.body)
				}
			})
		}
		wg.Wait()
		return answered, limited
	}
	// Fresh anonymous subjects from one address: the address's budget binds.
	if n, l := count(func(int) []string { return []string{"X-Forwarded-For", "203.0.113.9"} }); n != 5 || l != 15 {
		t.Errorf("one address through both: %d answered, %d limited; want 5 and 15", n, l)
	}
	// One subject from twenty addresses: the subject's budget binds.
	if n, l := count(func(i int) []string {
		return []string{"X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i+1), "Authorization", "Bearer " + testToken}
	}); n != 3 || l != 17 {
		t.Errorf("one subject through both: %d answered, %d limited; want 3 and 17", n, l)
	}
}

// TestTwoInstancesShareTheGenerationCap: 12 questions at once through two
// instances whose site allows 2 generations at once: the model never has
// more than 2 calls in flight, and the rest get 503 ASK_RATE_LIMITED.
// In-process caps would let 4 through. (Issue 16.)
func TestTwoInstancesShareTheGenerationCap(t *testing.T) {
	bin := buildAskplane(t)
	dsn, _, _ := postgresSchemaURL(t)
	p := newSlowProvider(t, 800*time.Millisecond)
	site := siteJSON(edgePublic(t), "docs", "docs-public", p.generator()+`,"generations":{"max":2,"queue":0}`)
	cfg := scaleConfig(`"perAddress":{"requests":1000,"windowSeconds":60},"newSubjects":{"requests":1000,"windowSeconds":60}`, site)
	a, b := startProcess(t, bin, cfg, dsn), startProcess(t, bin, cfg, dsn)
	c := asker{newClient(t)}
	var answered, busy atomic.Int64
	var wg sync.WaitGroup
	for i := range 12 {
		base := a.url
		if i%2 == 1 {
			base = b.url
		}
		wg.Go(func() {
			out := c.ask(t, base, askJSON("how do I install askplane?"))
			switch {
			case out.answered():
				answered.Add(1)
			case out.rateLimited(503):
				busy.Add(1)
			default:
				t.Errorf("unexpected %d %s", out.status, out.body)
			}
		})
	}
	wg.Wait()
	t.Logf("answered %d, busy %d; provider peak %d", answered.Load(), busy.Load(), p.peak.Load())
	if p.peak.Load() != 2 || answered.Load() < 2 || answered.Load()+busy.Load() != 12 {
		t.Fatalf("provider peak %d, answered %d, busy %d; want a peak of 2", p.peak.Load(), answered.Load(), busy.Load())
	}
	// The slots were released: the next two answer.
	for _, base := range []string{a.url, b.url} {
		if out := c.ask(t, base, askJSON("how do I install askplane?")); !out.answered() {
			t.Fatalf("after the flood: %d %s", out.status, out.body)
		}
	}
}

// TestEvidenceLinkReplaysOnTheOtherInstanceAfterARedeploy: a link made on
// one instance replays, byte for byte, on the other once both were
// redeployed with changed content: the source version is retained in the
// database they share, not in either process. (Issue 16.)
func TestEvidenceLinkReplaysOnTheOtherInstanceAfterARedeploy(t *testing.T) {
	bin := buildAskplane(t)
	dsn, _, _ := postgresSchemaURL(t)
	const question = "how do I install the askplane command?"
	cfg := func(public string) string { return scaleConfig("", siteJSON(public, "docs", "docs-public", "")) }
	old := cfg(edgePublic(t))
	a, b := startProcess(t, bin, old, dsn), startProcess(t, bin, old, dsn)
	frag := reviewFragment(t, &edgeServer{url: a.url}, question)
	code, before := (&edgeServer{url: a.url}).postJSON(t, "/v1/evidence/replay", `{"fragment":"`+frag+`"}`)
	if code != 200 {
		t.Fatalf("replay on a = %d %s", code, before["error"])
	}
	a.stop()
	b.stop()
	upgraded := cfg(writeCorpus(t, "docs", "/docs/install/", "Install", "install", "Install askplane with the new installer script. It needs Go 1.27."))
	startProcess(t, bin, upgraded, dsn)
	b = startProcess(t, bin, upgraded, dsn)
	if fresh := reviewFragment(t, &edgeServer{url: b.url}, question); fresh == frag {
		t.Fatal("the redeployed instance answered from the old corpus")
	}
	code, after := (&edgeServer{url: b.url}).postJSON(t, "/v1/evidence/replay", `{"fragment":"`+frag+`"}`)
	if code != 200 || string(after["evidence"]) != string(before["evidence"]) || string(after["replay_identity"]) != string(before["replay_identity"]) {
		t.Fatalf("replay on b after the redeploy = %d %s\nwant %s", code, after["evidence"], before["evidence"])
	}
}

// proxy is a TCP relay to PostgreSQL that a test can cut and restore: to
// the sidecar, the database stopped (every connection reset, the port
// refusing) and started again on the same address.
type proxy struct {
	addr, target string
	mu           sync.Mutex
	ln           net.Listener
	conns        map[net.Conn]struct{}
}

func newProxy(t *testing.T, target string) *proxy {
	p := &proxy{target: target, conns: map[net.Conn]struct{}{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(p.cut)
	return p
}

func (p *proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns[c], p.conns[up] = struct{}{}, struct{}{}
			p.mu.Unlock()
			go func() { io.Copy(up, c); up.Close() }()
			go func() { io.Copy(c, up); c.Close() }()
		}
	}()
}

// cut stops accepting and resets every connection.
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

// restore listens on the same address again.
func (p *proxy) restore(t *testing.T) {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	p.serve(ln)
}

// through points dsn at the proxy.
func (p *proxy) through(t *testing.T, dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = p.addr
	return u.String()
}

// TestDatabaseOutageFailsClosedAndRecovers: PostgreSQL goes away while
// answers are being written and questions keep coming. The answer in
// flight ends with a terminal, retryable error event (its save failed);
// new questions get 503 ASK_INTERNAL with Retry-After within the limit
// timeout, never an unlimited answer; /ready says unavailable. When the
// database is back, the same processes answer again, and the session
// kept its last good revision. (Issue 16.) The site's answers are live
// ("runs": false): a durable answer would outlive the outage and be
// saved after it.
func TestDatabaseOutageFailsClosedAndRecovers(t *testing.T) {
	bin := buildAskplane(t)
	dsn, admin, schema := postgresSchemaURL(t)
	u, _ := url.Parse(dsn)
	px := newProxy(t, u.Host)
	model := newSlowProvider(t, 1500*time.Millisecond)
	site := strings.Replace(siteJSON(edgePublic(t), "docs", "docs-public", model.generator()+`,"runs":false,"tokens":[{"subject":"ci-bot","env":"ASKPLANE_TEST_TOKEN"}]`), `"disabled"`, `"required"`, 1)
	cfg := scaleConfig(`"perAddress":{"requests":1000,"windowSeconds":60},"limitTimeout":"500ms"`, site)
	a := startProcess(t, bin, cfg, px.through(t, dsn))
	c := asker{newClient(t)}
	turn := func(q string) answer {
		body, _ := json.Marshal(map[string]any{"protocol": "agentskit.chat.ask", "version": 1, "sessionId": "s-outage",
			"messages": []map[string]string{{"role": "user", "content": q}}})
		return c.ask(t, a.url, string(body), "Authorization", "Bearer "+testToken)
	}
	if out := turn("how do I install askplane?"); terminal(out.body) != "done" {
		t.Fatalf("before the outage: %d %s", out.status, out.body)
	}
	inflight := make(chan answer, 1)
	go func() { inflight <- turn("and which Go does it need?") }()
	for model.inFlight.Load() == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	px.cut()
	out := <-inflight
	if got := terminal(out.body); got != "ASK_INTERNAL" || !strings.Contains(out.body, `"retryable":true`) {
		t.Fatalf("the answer in flight ended with %q: %s", got, out.body)
	}
	for range 3 {
		start := time.Now()
		out := turn("is the database back?")
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("a refusal during the outage took %v", took)
		}
		if out.status != 503 || out.header.Get("Retry-After") == "" || !strings.Contains(out.body, `"code":"ASK_INTERNAL"`) || !strings.Contains(out.body, `"retryable":true`) {
			t.Fatalf("during the outage: %d %v %s", out.status, out.header, out.body)
		}
	}
	if r := fetch(t, c.c, mustGet(a.url+"/ready")); r.status != 503 {
		t.Errorf("/ready during the outage: %d %s", r.status, r.body)
	}
	px.restore(t)
	deadline := time.Now().Add(10 * time.Second)
	for {
		out := turn("and which Go does it need?")
		if terminal(out.body) == "done" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no recovery 10 s after the database came back: %d %s", out.status, out.body)
		}
		time.Sleep(200 * time.Millisecond)
	}
	var rev int
	if err := admin.QueryRow(t.Context(), `SELECT revision FROM `+schema+`.sessions WHERE session_id = 's-outage'`).Scan(&rev); err != nil || rev != 2 {
		t.Fatalf("the session's revision is %d (%v), want 2: the first turn and the one after recovery", rev, err)
	}
	if r := fetch(t, c.c, mustGet(a.url+"/ready")); r.status != 200 {
		t.Errorf("/ready after recovery: %d %s", r.status, r.body)
	}
}

func mustGet(u string) *http.Request {
	req, _ := http.NewRequest("GET", u, nil)
	return req
}

// TestSlowDatabaseHitsTheConfiguredDeadlines: another connection holds a
// lock the sidecar's statements need. A rate-limit decision gives up
// within edge.limitTimeout (a retryable 503), a session load within the
// DSN's statement_timeout (a retryable 500), and neither waits for the
// lock to go. (Issue 16.)
func TestSlowDatabaseHitsTheConfiguredDeadlines(t *testing.T) {
	bin := buildAskplane(t)
	dsn, admin, schema := postgresSchemaURL(t, "statement_timeout", "700", "lock_timeout", "700")
	site := strings.Replace(siteJSON(edgePublic(t), "docs", "docs-public", `,"tokens":[{"subject":"ci-bot","env":"ASKPLANE_TEST_TOKEN"}]`), `"disabled"`, `"required"`, 1)
	a := startProcess(t, bin, scaleConfig(`"limitTimeout":"400ms"`, site), dsn)
	c := asker{newClient(t)}
	body := `{"protocol":"agentskit.chat.ask","version":1,"sessionId":"s-slow","messages":[{"role":"user","content":"how do I install askplane?"}]}`
	hold := func(table string) func() {
		tx, err := admin.Begin(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(t.Context(), `LOCK TABLE `+schema+`.`+table+` IN ACCESS EXCLUSIVE MODE`); err != nil {
			t.Fatal(err)
		}
		return func() { tx.Rollback(context.Background()) }
	}
	release := hold("limit_tats")
	start := time.Now()
	out := c.ask(t, a.url, body, "Authorization", "Bearer "+testToken)
	took := time.Since(start)
	release()
	if out.status != 503 || out.header.Get("Retry-After") != "2" || !strings.Contains(out.body, `"code":"ASK_INTERNAL"`) || took > 2*time.Second {
		t.Fatalf("limits locked: %d %v %s after %v", out.status, out.header, out.body, took)
	}
	release = hold("sessions")
	start = time.Now()
	out = c.ask(t, a.url, body, "Authorization", "Bearer "+testToken)
	took = time.Since(start)
	release()
	if out.status != 500 || !strings.Contains(out.body, `"code":"ASK_INTERNAL"`) || !strings.Contains(out.body, `"retryable":true`) || took > 3*time.Second {
		t.Fatalf("sessions locked: %d %s after %v", out.status, out.body, took)
	}
	t.Logf("sessions locked: refused after %v", took.Round(time.Millisecond))
	if out := c.ask(t, a.url, body, "Authorization", "Bearer "+testToken); terminal(out.body) != "done" {
		t.Fatalf("after the locks: %d %s", out.status, out.body)
	}
}

// TestTamperedCorpusIsRefusedAndThePreviousKept: corpusUrl is read at
// start-up only (there is no refresh of a running instance). A redeploy
// whose published corpus no longer matches its manifest's hash does not
// start, saying why, and the instance already running keeps answering
// from the version it verified. (Issue 16.)
func TestTamperedCorpusIsRefusedAndThePreviousKept(t *testing.T) {
	bin := buildAskplane(t)
	dsn, _, _ := postgresSchemaURL(t)
	public := edgePublic(t)
	published := httptest.NewServer(http.FileServerFS(os.DirFS(public)))
	t.Cleanup(published.Close)
	site := `{"site":` + testSite("docs", "docs-public") + `,"corpusUrl":"` + published.URL + `/","language":"en","origins":["https://docs.example.com"],"cookieSecretEnv":"ASKPLANE_TEST_SECRET"}`
	cfg := scaleConfig("", site)
	a := startProcess(t, bin, cfg, dsn)
	files, _ := filepath.Glob(filepath.Join(public, "askplane", "en", "corpus.*.json"))
	if len(files) != 1 {
		t.Fatalf("corpus files %v", files)
	}
	data, _ := os.ReadFile(files[0])
	os.WriteFile(files[0], bytes.Replace(data, []byte("Go 1.26"), []byte("Go 0.01"), 1), 0o644)
	_, err := tryProcess(t, bin, cfg, dsn)
	if err == nil || !strings.Contains(err.Error(), "exited") || !strings.Contains(err.Error(), "corpus.hash.mismatch") {
		t.Fatalf("a tampered corpus: %v", err)
	}
	c := asker{newClient(t)}
	if out := c.ask(t, a.url, askJSON("how do I install askplane?")); !out.answered() {
		t.Fatalf("the running instance after the tampering: %d %s", out.status, out.body)
	}
	cat := fetch(t, c.c, mustGet(a.url+"/v1/evidence/engines"))
	if want := `"serving":"` + corpus.ContentHash(data) + `"`; !strings.Contains(cat.body, want) {
		t.Fatalf("the running instance no longer serves the verified version: %s", cat.body)
	}
}

// TestSIGTERMDuringLoadEndsEveryStream: twenty answers streaming through
// one of two instances when it gets SIGTERM: every stream ends with a
// terminal event (done, or a retryable error), the process exits 0 within
// its shutdown timeout, and the other instance keeps answering; the
// slots the stopped one held are given back. (Issue 16.) The answers are
// live ("runs": false); TestSIGTERMHandsARunToTheOtherInstance is the
// durable case.
func TestSIGTERMDuringLoadEndsEveryStream(t *testing.T) {
	bin := buildAskplane(t)
	dsn, _, _ := postgresSchemaURL(t)
	model := newSlowProvider(t, 5*time.Second)
	site := siteJSON(edgePublic(t), "docs", "docs-public", model.generator()+`,"runs":false,"generations":{"max":24,"queue":0}`)
	cfg := scaleConfig(`"perAddress":{"requests":1000,"windowSeconds":60},"newSubjects":{"requests":1000,"windowSeconds":60},"shutdownTimeout":"3s"`, site)
	a, b := startProcess(t, bin, cfg, dsn), startProcess(t, bin, cfg, dsn)
	c := asker{newClient(t)}
	const streams = 20
	outs := make([]answer, streams)
	var wg sync.WaitGroup
	for i := range streams {
		wg.Go(func() { outs[i] = c.ask(t, a.url, askJSON("how do I install askplane?")) })
	}
	deadline := time.Now().Add(10 * time.Second)
	for model.inFlight.Load() < streams && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := model.inFlight.Load(); n != streams {
		t.Fatalf("%d model calls in flight, want %d", n, streams)
	}
	start := time.Now()
	a.stop()
	took := time.Since(start)
	wg.Wait()
	for i, out := range outs {
		if got := terminal(out.body); out.status != 200 || (got != "done" && !strings.Contains(out.body, `"retryable":true`)) || got == "" {
			t.Errorf("stream %d ended without a terminal event: %d %q %s", i, out.status, got, out.body)
		}
	}
	if took > 5*time.Second {
		t.Errorf("exit took %v", took)
	}
	// b can take all 24 slots the moment a is gone: a released its leases.
	var answered atomic.Int64
	var wg2 sync.WaitGroup
	for range 24 {
		wg2.Go(func() {
			if c.ask(t, b.url, askJSON("how do I install askplane?")).answered() {
				answered.Add(1)
			}
		})
	}
	wg2.Wait()
	if answered.Load() != 24 {
		t.Errorf("b answered %d of 24 after a stopped: a's slots were not given back", answered.Load())
	}
}
