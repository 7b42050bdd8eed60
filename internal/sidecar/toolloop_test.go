package sidecar

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/fakesite"
	"github.com/askplane/askplane/internal/store/storetest"
)

// The tool loop's tests script a model on a real loopback server, in the
// OpenAI Responses shape (function_call output items) and the Anthropic
// Messages shape (tool_use content blocks), over a three-page site, on
// SQLite and (with ASKPLANE_TEST_POSTGRES_URL) PostgreSQL.

var (
	idInstall   = corpus.RecordID("/docs/install/", "install")
	idUpgrade   = corpus.RecordID("/docs/upgrade/", "upgrade")
	idConfigure = corpus.RecordID("/docs/configure/", "configure")
)

// writeToolCorpus is a built site of three pages with distinct words.
func writeToolCorpus(t *testing.T) string {
	t.Helper()
	public := t.TempDir()
	if _, err := fakesite.WriteCorpus(public, "en", "docs",
		fakesite.Page{URL: "/docs/install/", Title: "Install", Anchor: "install", Text: installText},
		fakesite.Page{URL: "/docs/upgrade/", Title: "Upgrade", Anchor: "upgrade", Text: "Upgrading replaces the binary; migrations run on first start after an upgrade."},
		fakesite.Page{URL: "/docs/configure/", Title: "Configure", Anchor: "configure", Text: "The listen port and the origins are configured in askplane.json under server."},
	); err != nil {
		t.Fatal(err)
	}
	return public
}

// toolStores are the stores the loop is tested on: a SQLite file, and a
// fresh PostgreSQL schema when the test database is configured.
func toolStores(t *testing.T) map[string]func(t *testing.T) string {
	stores := map[string]func(t *testing.T) string{
		"sqlite": func(t *testing.T) string { return `"sessions":"sqlite:` + filepath.Join(t.TempDir(), "s.db") + `"` },
	}
	if os.Getenv(storetest.PostgresEnv) != "" {
		stores["postgres"] = func(t *testing.T) string {
			dsn, _, _ := postgresSchemaURL(t)
			t.Setenv("ASKPLANE_TEST_DB", dsn)
			return `"sessionsEnv":"ASKPLANE_TEST_DB"`
		}
	}
	return stores
}

// toolServer serves the three-page site with a model of provider name
// at fakeURL, on the store sessions, with the runs block runs.
func toolServer(t *testing.T, name, fakeURL, sessions, runs string) (*Server, *httptest.Server) {
	t.Helper()
	return siteServer(t, name, fakeURL, sessions, writeToolCorpus(t), `,"runs":`+runs)
}

// scripted is a model on loopback that answers request i with script[i]
// (the last one again after the script ends) in its provider's shape,
// records every body, and holds request i while hold[i] is open.
type scripted struct {
	name   string
	srv    *httptest.Server
	mu     sync.Mutex
	bodies [][]byte
	script []string // the provider's output array (OpenAI) or content array (Anthropic)
	hold   map[int]chan struct{}
}

func newScripted(t *testing.T, name string, script ...string) *scripted {
	f := &scripted{name: name, script: script, hold: map[int]chan struct{}{}}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		i := len(f.bodies)
		f.bodies = append(f.bodies, body)
		out := f.script[min(i, len(f.script)-1)]
		hold := f.hold[i]
		f.mu.Unlock()
		if hold != nil {
			select {
			case <-hold:
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		calls := strings.Contains(out, `"function_call"`) || strings.Contains(out, `"tool_use"`)
		if f.name == "anthropic" {
			stop := "end_turn"
			if calls {
				stop = "tool_use"
			}
			io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-fake","content":`+out+
				`,"stop_reason":"`+stop+`","stop_sequence":null,"usage":{"input_tokens":100,"output_tokens":20}}`)
			return
		}
		io.WriteString(w, `{"id":"resp_1","object":"response","status":"completed","model":"gpt-fake","output":`+out+
			`,"usage":{"input_tokens":100,"output_tokens":20,"total_tokens":120}}`)
	}))
	t.Cleanup(func() {
		f.mu.Lock()
		for _, c := range f.hold {
			select {
			case <-c:
			default:
				close(c)
			}
		}
		f.mu.Unlock()
		f.srv.Close()
	})
	return f
}

func (f *scripted) requests() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([][]byte(nil), f.bodies...)
}

func (f *scripted) holdRequest(i int) chan struct{} {
	c := make(chan struct{})
	f.mu.Lock()
	f.hold[i] = c
	f.mu.Unlock()
	return c
}

// searchCall is a model output that calls search_docs (with a word
// before it, and in OpenAI a reasoning item: the replay keeps them).
func searchCall(name, id, query string) string {
	q, _ := json.Marshal(query)
	if name == "anthropic" {
		return `[ {"type":"text","text":"Searching <more> & more."},
  {"type":"tool_use","id":"` + id + `","name":"search_docs","input":{"query":` + string(q) + `}}]`
	}
	args, _ := json.Marshal(`{"query":` + string(q) + `}`)
	return `[ {"type":"reasoning","id":"rs_` + id + `","summary":[],"encrypted_content":"opaque<&>"},
  {"type":"function_call","id":"fc_` + id + `","call_id":"` + id + `","name":"search_docs","arguments":` + string(args) + `,"status":"completed"}]`
}

// finalAnswer is a model output with the answer JSON.
func finalAnswer(name string, cites ...string) string {
	c, _ := json.Marshal(cites)
	text, _ := json.Marshal(`{"cites":` + string(c) + `,"answer":"Upgrade, then set the port."}`)
	if name == "anthropic" {
		return `[{"type":"text","text":` + string(text) + `}]`
	}
	return `[{"type":"message","id":"msg_9","role":"assistant","content":[{"type":"output_text","text":` + string(text) + `,"annotations":[]}]}]`
}

func compactJSON(t *testing.T, s string) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// replayed is what of a turn's output a continuation must carry byte for
// byte: the content array (Anthropic) or its items (OpenAI).
func replayed(t *testing.T, name, output string) []byte {
	c := compactJSON(t, output)
	if name == "anthropic" {
		return c
	}
	return c[1 : len(c)-1]
}

// runState reads a run's state and checkpoint.
func runCheckpoint(t *testing.T, s *Server, id string) (durable.Run, map[string]json.RawMessage) {
	t.Helper()
	r, err := s.worker.Store.Get(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := s.worker.Store.Checkpoint(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]json.RawMessage
	if err := json.Unmarshal(cp.Data, &st); err != nil {
		t.Fatal(err)
	}
	return r, st
}

// resumeAs admits a run id on s with done's subject, snapshot and budget
// (its deadline a minute away), starting from the checkpoint cp, and
// executes it there.
func resumeAs(t *testing.T, s *Server, done durable.Run, id string, cp []byte) {
	t.Helper()
	b := done.Budget
	b.Deadline = time.Now().Add(time.Minute)
	_, lease, _, err := s.worker.Store.Admit(t.Context(), durable.Admission{
		ID: id, Site: "docs", Subject: done.Subject, RequestDigest: durable.Digest([]byte(id)),
		Snapshot: done.Snapshot, Budget: b, FirstEvent: []byte(`{"type":"tool","id":"x","name":"run","args":{}}`), Checkpoint: cp,
		Owner: s.worker.Owner, Lease: time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.worker.Execute(t.Context(), lease); err != nil {
		t.Fatal(err)
	}
}

type toolEventLine struct {
	Type string            `json:"type"`
	ID   string            `json:"id"`
	Name string            `json:"name"`
	Args map[string]string `json:"args"`
}

func toolEvents(body, name string) []toolEventLine {
	var out []toolEventLine
	for _, l := range lines(body) {
		var e toolEventLine
		if json.Unmarshal([]byte(l), &e) == nil && e.Type == "tool" && e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// A three-round loop, in both provider shapes and on both stores:
// search, search, answer. The answer cites a record of each search and
// the cite event carries both; round 2's request carries round 1's
// output byte for byte, round 3's both, and round 3 forbids calls; each
// search is a "search" event whose evidence link replays its package;
// the checkpoint holds both turns and both recipes.
func TestToolLoopThreeRounds(t *testing.T) {
	for store, sessions := range toolStores(t) {
		for _, name := range []string{"openai", "anthropic"} {
			t.Run(store+"/"+name, func(t *testing.T) {
				r1, r2 := searchCall(name, "call_1", "upgrade migrations binary"), searchCall(name, "call_2", "listen port origins server")
				fake := newScripted(t, name, r1, r2, finalAnswer(name, idConfigure, idUpgrade))
				s, srv := toolServer(t, name, fake.srv.URL, sessions(t), `{"maxRounds":3}`)
				c := reader(t)
				a := post(t, c, srv.URL+"/v1/ask", askJSON("how do I install askplane?"))
				if !a.answered() {
					t.Fatalf("%d %s", a.status, a.body)
				}
				cite := grepLines(a.body, `"name":"cite"`)
				if !strings.Contains(cite, idUpgrade) || !strings.Contains(cite, idConfigure) ||
					!strings.Contains(cite, `/docs/upgrade/#upgrade`) || !strings.Contains(cite, `/docs/configure/#configure`) {
					t.Fatalf("the cite event does not carry both searches' records: %s", cite)
				}
				reqs := fake.requests()
				if len(reqs) != 3 {
					t.Fatalf("%d provider calls, want 3", len(reqs))
				}
				one, two := replayed(t, name, r1), replayed(t, name, r2)
				if bytes.Contains(reqs[0], []byte("call_1")) || !bytes.Contains(reqs[1], one) || !bytes.Contains(reqs[2], one) || !bytes.Contains(reqs[2], two) ||
					bytes.Index(reqs[2], one) > bytes.Index(reqs[2], two) {
					t.Fatalf("the continuations do not carry the earlier output byte for byte:\n%s\n%s", reqs[1], reqs[2])
				}
				if !bytes.Contains(reqs[1], []byte(`call_1`)) || !bytes.Contains(reqs[1], []byte(idUpgrade)) {
					t.Fatalf("round 2 does not answer round 1's call with its records:\n%s", reqs[1])
				}
				none := `"tool_choice":"none"`
				if name == "anthropic" {
					none = `"tool_choice":{"type":"none"}`
				}
				if bytes.Contains(reqs[0], []byte(none)) || bytes.Contains(reqs[1], []byte(none)) || !bytes.Contains(reqs[2], []byte(none)) {
					t.Fatal("only the last round must forbid calls")
				}
				searches := toolEvents(a.body, "search")
				if len(searches) != 2 || searches[0].Args["query"] != "upgrade migrations binary" || searches[1].Args["query"] != "listen port origins server" {
					t.Fatalf("search events %+v", searches)
				}
				for _, ev := range searches {
					frag, ok := strings.CutPrefix(ev.Args["evidence"], "/review/?corpus=docs-public#")
					rec, err := evidence.DecodeFragment(frag)
					if !ok || err != nil || rec.ContextID != ev.Args["context_id"] || rec.Question != ev.Args["query"] {
						t.Fatalf("search event %+v: %+v %v", ev, rec, err)
					}
					rp := post(t, c, srv.URL+"/v1/evidence/replay", `{"fragment":"`+frag+`"}`)
					if rp.status != 200 || !strings.Contains(rp.body, ev.Args["context_id"]) {
						t.Fatalf("the search's evidence does not replay: %d %s", rp.status, rp.body)
					}
				}
				r, st := runCheckpoint(t, s, a.header.Get("X-Askplane-Run"))
				var rounds []struct {
					Turn struct {
						Replay struct {
							Payload json.RawMessage `json:"payload"`
						} `json:"replay"`
						Outcomes []json.RawMessage `json:"outcomes"`
					} `json:"turn"`
					Searches []struct {
						Fragment string `json:"fragment"`
					} `json:"searches"`
				}
				json.Unmarshal(st["rounds"], &rounds)
				if r.State != durable.StateCompleted || r.Attempts != 3 || len(rounds) != 2 || len(rounds[0].Searches) != 1 || len(rounds[1].Searches) != 1 ||
					!bytes.Equal(rounds[0].Turn.Replay.Payload, compactJSON(t, r1)) || len(rounds[1].Turn.Outcomes) != 1 ||
					"/review/?corpus=docs-public#"+rounds[1].Searches[0].Fragment != searches[1].Args["evidence"] {
					t.Fatalf("run %s, %d attempts; checkpoint rounds %s", r.State, r.Attempts, st["rounds"])
				}
				m := fetch(t, http.DefaultClient, runEventsRequest(t, srv.URL+"/metrics"))
				if !strings.Contains(m.body, `askplane_ask_round_started_total{outcome="ok",site="docs"} 3`) {
					t.Fatalf("the metrics do not count 3 rounds:\n%s", grepLines(m.body, "round"))
				}
			})
		}
	}
}

// The loop stops at maxRounds: a model that keeps calling tools is
// forbidden to in the last round, and a call there fails the run; no
// third call is made.
func TestToolLoopStopsAtMaxRounds(t *testing.T) {
	for _, name := range []string{"openai", "anthropic"} {
		t.Run(name, func(t *testing.T) {
			fake := newScripted(t, name, searchCall(name, "call_1", "upgrade"), searchCall(name, "call_2", "port"), searchCall(name, "call_3", "again"))
			s, srv := toolServer(t, name, fake.srv.URL, `"sessions":"sqlite:`+filepath.Join(t.TempDir(), "s.db")+`"`, `{"maxRounds":2}`)
			a := post(t, reader(t), srv.URL+"/v1/ask", askJSON("how do I install askplane?"))
			if a.answered() || !strings.Contains(a.body, `"code":"ASK_GENERATION_FAILED"`) {
				t.Fatalf("%d %s", a.status, a.body)
			}
			r, _ := runCheckpoint(t, s, a.header.Get("X-Askplane-Run"))
			if n := len(fake.requests()); n != 2 || r.State != durable.StateFailed || r.Attempts != 2 {
				t.Fatalf("%d calls; run %s, %d attempts", n, r.State, r.Attempts)
			}
		})
	}
}

// A checkpoint whose transcript was tampered with (a replay changed
// under its digest) or substituted (a call id swapped beside an
// untouched replay) is refused before any I/O: the model sees no
// request, and the run fails.
func TestToolLoopRefusesATamperedTranscript(t *testing.T) {
	for store, sessions := range toolStores(t) {
		t.Run(store, func(t *testing.T) {
			name := "openai"
			r1 := searchCall(name, "call_1", "upgrade migrations binary")
			fake := newScripted(t, name, r1, finalAnswer(name, idUpgrade))
			s, srv := toolServer(t, name, fake.srv.URL, sessions(t), `{"maxRounds":3}`)
			a := post(t, reader(t), srv.URL+"/v1/ask", askJSON("how do I install askplane?"))
			if !a.answered() {
				t.Fatalf("%d %s", a.status, a.body)
			}
			done, st := runCheckpoint(t, s, a.header.Get("X-Askplane-Run"))
			delete(st, "answer")
			good, _ := json.Marshal(st)
			// The control: the untouched checkpoint resumes at round 2,
			// with one call, and answers.
			for _, what := range []string{"control", "tampered", "substituted"} {
				cp := good
				switch what {
				case "tampered":
					cp = bytes.ReplaceAll(good, []byte(`upgrade migrations binary`), []byte(`secret other query`))
				case "substituted":
					cp = bytes.ReplaceAll(good, []byte(`"callId":"call_1"`), []byte(`"callId":"call_X"`))
					cp = bytes.Replace(cp, []byte(`"calls":[{"id":"call_1"`), []byte(`"calls":[{"id":"call_X"`), 1)
				}
				if what != "control" && bytes.Equal(cp, good) {
					t.Fatalf("%s: the change did not apply", what)
				}
				before := len(fake.requests())
				id := "run-" + what
				resumeAs(t, s, done, id, cp)
				r, _ := runCheckpoint(t, s, id)
				if what == "control" {
					if n := len(fake.requests()) - before; n != 1 || r.State != durable.StateCompleted || r.Attempts != 1 {
						t.Fatalf("control: %d provider calls; run %s with %d attempts", n, r.State, r.Attempts)
					}
					continue
				}
				if n := len(fake.requests()) - before; n != 0 || r.State != durable.StateFailed || r.Attempts != 0 {
					t.Fatalf("%s: %d provider calls; run %s with %d attempts", what, n, r.State, r.Attempts)
				}
			}
		})
	}
}

// Stop mid-round ends the run cancelled: the call in flight is
// abandoned and no further attempt starts.
func TestToolLoopStopMidRound(t *testing.T) {
	name := "anthropic"
	fake := newScripted(t, name, searchCall(name, "toolu_1", "upgrade"), finalAnswer(name, idUpgrade))
	fake.holdRequest(1)
	s, srv := toolServer(t, name, fake.srv.URL, `"sessions":"sqlite:`+filepath.Join(t.TempDir(), "s.db")+`"`, `{"maxRounds":3}`)
	c := reader(t)
	post(t, c, srv.URL+"/v1/runs/none/cancel", "") // mints the reader's cookie
	req, _ := http.NewRequest("POST", srv.URL+"/v1/ask", strings.NewReader(askJSON("how do I install askplane?")))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	id := resp.Header.Get("X-Askplane-Run")
	for len(fake.requests()) < 2 {
		time.Sleep(5 * time.Millisecond)
	}
	if cancel := post(t, c, srv.URL+"/v1/runs/"+id+"/cancel", ""); cancel.status != 200 {
		t.Fatalf("cancel: %d %s", cancel.status, cancel.body)
	}
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), `"code":"ASK_CANCELLED"`) || strings.Contains(string(b), `"type":"done"`) || len(toolEvents(string(b), "search")) != 1 {
		t.Fatalf("stream after Stop:\n%s", b)
	}
	r, st := runCheckpoint(t, s, id)
	if r.State != durable.StateCancelled || r.Attempts != 2 || !strings.Contains(string(st["rounds"]), "toolu_1") {
		t.Fatalf("run %s, %d attempts", r.State, r.Attempts)
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(fake.requests()); n != 2 {
		t.Fatalf("%d provider calls after Stop, want 2", n)
	}
}

// A run whose instance died mid-round (its lease expired) is resumed by
// another from its checkpoint: the completed round is not sent again;
// the round in flight is (it was never committed), with the completed
// round's output replayed; the run answers.
func TestToolLoopResumeDoesNotResendACompletedRound(t *testing.T) {
	for store, sessions := range toolStores(t) {
		t.Run(store, func(t *testing.T) {
			name := "openai"
			r1 := searchCall(name, "call_1", "upgrade migrations binary")
			fake := newScripted(t, name, r1, finalAnswer(name, idUpgrade))
			fake.holdRequest(1) // instance A's round 2 never returns
			sess := sessions(t)
			sa, a := toolServer(t, name, fake.srv.URL, sess+`,"runLease":"600ms"`, `{"maxRounds":3}`)
			sb, _ := toolServer(t, name, fake.srv.URL, sess, `{"maxRounds":3}`)
			req, _ := http.NewRequest("POST", a.URL+"/v1/ask", strings.NewReader(askJSON("how do I install askplane?")))
			req.Header.Set("Content-Type", "application/json")
			resp, err := reader(t).Do(req) // returns with the headers
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			id := resp.Header.Get("X-Askplane-Run")
			for len(fake.requests()) < 2 {
				time.Sleep(5 * time.Millisecond)
			}
			// Instance A dies: its store goes away, so it renews nothing
			// and commits nothing more.
			sa.sessions.Close()
			deadline := time.Now().Add(15 * time.Second)
			for {
				// B's own sweeper (at start, then every quarter lease)
				// may be the one that claims it.
				if n, err := sb.worker.Sweep(t.Context()); err == nil && n == 1 {
					break
				}
				if r, err := sb.worker.Store.Get(t.Context(), id); err == nil && (r.LeaseOwner == sb.worker.Owner || r.State.Terminal()) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("instance B never claimed the expired run")
				}
				time.Sleep(50 * time.Millisecond)
			}
			var r durable.Run
			for {
				r, err = sb.worker.Store.Get(t.Context(), id)
				if err == nil && r.State.Terminal() {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the resumed run did not end: %+v %v", r, err)
				}
				time.Sleep(20 * time.Millisecond)
			}
			reqs := fake.requests()
			if r.State != durable.StateCompleted || len(reqs) != 3 {
				t.Fatalf("run %s; %d provider calls, want 3 (round 1, A's round 2, B's round 2)", r.State, len(reqs))
			}
			one := replayed(t, name, r1)
			for i, body := range reqs[1:] {
				if !bytes.Contains(body, one) {
					t.Fatalf("call %d does not continue round 1 (was round 1 sent again?):\n%s", i+2, body)
				}
			}
			if !bytes.Contains(reqs[2], []byte(`"tool_choice":"auto"`)) {
				t.Fatalf("B's call is not round 2:\n%s", reqs[2])
			}
			evs, err := sb.worker.Store.Events(t.Context(), id, 0, durable.MaxEventsPerRead)
			var log []string
			for _, e := range evs {
				log = append(log, string(e.Data))
			}
			if err != nil || !strings.Contains(strings.Join(log, "\n"), `"name":"cite"`) || len(toolEvents(strings.Join(log, "\n"), "search")) != 1 {
				t.Fatalf("the resumed run's log: %v\n%s", err, strings.Join(log, "\n"))
			}
		})
	}
}

// A run admitted under one tool set is not resumed under another: an
// instance whose maxRounds differs refuses it (the snapshot's tool
// digest), before any call, and the run fails asking for a new question.
func TestToolLoopChangedToolSetRefusesToResume(t *testing.T) {
	name := "openai"
	fake := newScripted(t, name, searchCall(name, "call_1", "upgrade migrations binary"), finalAnswer(name, idUpgrade))
	sess := `"sessions":"sqlite:` + filepath.Join(t.TempDir(), "s.db") + `"`
	sa, a := toolServer(t, name, fake.srv.URL, sess, `{"maxRounds":3}`)
	sb, _ := toolServer(t, name, fake.srv.URL, sess, `{"maxRounds":2}`)
	ans := post(t, reader(t), a.URL+"/v1/ask", askJSON("how do I install askplane?"))
	if !ans.answered() {
		t.Fatalf("%d %s", ans.status, ans.body)
	}
	done, st := runCheckpoint(t, sa, ans.header.Get("X-Askplane-Run"))
	delete(st, "answer")
	cp, _ := json.Marshal(st)
	before := len(fake.requests())
	resumeAs(t, sb, done, "run-moved", cp)
	r, _ := runCheckpoint(t, sb, "run-moved")
	evs, _ := sb.worker.Store.Events(t.Context(), "run-moved", 0, durable.MaxEventsPerRead)
	last := string(evs[len(evs)-1].Data)
	if n := len(fake.requests()) - before; n != 0 || r.State != durable.StateFailed || !strings.Contains(last, "changed since this answer began") {
		t.Fatalf("%d calls; run %s; last event %s", n, r.State, last)
	}
}

// A tool loop needs a binding that offers tools: maxRounds above 1 on
// DeepSeek is refused when the server starts.
func TestToolLoopNeedsABindingWithTools(t *testing.T) {
	t.Setenv("ASKPLANE_TEST_SECRET", testSecret)
	t.Setenv("ASKPLANE_TEST_MODEL_KEY", "sk-test-"+strings.Repeat("9", 32))
	gen := `{"provider":"deepseek","model":"deepseek-chat","baseUrl":"http://127.0.0.1:9/v1","apiKeyEnv":"ASKPLANE_TEST_MODEL_KEY"}`
	cfg, err := Decode([]byte(`{"sessions":"sqlite:` + filepath.Join(t.TempDir(), "s.db") + `","sites":[` + testSiteConfig(testSite("docs", "docs-public"), `,"generator":`+gen+`,"runs":{"maxRounds":3}`) + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Sites[0].Public = writeToolCorpus(t)
	s, err := New(t.Context(), cfg, Options{})
	if err == nil {
		s.Close()
		t.Fatal("a tool loop on DeepSeek was accepted")
	}
	if !strings.Contains(err.Error(), "tool loop") {
		t.Fatalf("error %v", err)
	}
}

// read_record returns a record a search returned, at full length; an id
// no round returned, or arguments off the schema, are outcomes the model
// reads (fixed text), answered in the calls' order within one turn.
func TestToolLoopReadRecord(t *testing.T) {
	name := "openai"
	read := func(id, args string) string {
		a, _ := json.Marshal(args)
		return `{"type":"function_call","id":"fc_` + id + `","call_id":"` + id + `","name":"read_record","arguments":` + string(a) + `,"status":"completed"}`
	}
	r2 := `[` + read("call_r1", `{"id":"`+idUpgrade+`"}`) + `,` + read("call_r2", `{"id":"docs.nope:nope"}`) + `,` +
		`{"type":"function_call","id":"fc_q","call_id":"call_q","name":"search_docs","arguments":"{\"query\":\"\",\"limit\":3}","status":"completed"}]`
	fake := newScripted(t, name, searchCall(name, "call_1", "upgrade migrations binary"), r2, finalAnswer(name, idUpgrade))
	_, srv := toolServer(t, name, fake.srv.URL, `"sessions":"sqlite:`+filepath.Join(t.TempDir(), "s.db")+`"`, `{"maxRounds":3}`)
	a := post(t, reader(t), srv.URL+"/v1/ask", askJSON("how do I install askplane?"))
	if !a.answered() {
		t.Fatalf("%d %s", a.status, a.body)
	}
	reqs := fake.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d calls", len(reqs))
	}
	third := string(reqs[2])
	full := `{"type":"function_call_output","call_id":"call_r1","output":"{\"id\":\"` + idUpgrade + `\",\"text\":\"Upgrading replaces the binary; migrations run on first start after an upgrade.\",\"title\":\"Upgrade\"}"}`
	missing := `{"type":"function_call_output","call_id":"call_r2","output":"{\"error\":\"no record with that id was returned\"}"}`
	bad := `{"type":"function_call_output","call_id":"call_q","output":"{\"error\":\"the arguments do not match the tool's schema\"}"}`
	i, j, k := strings.Index(third, full), strings.Index(third, missing), strings.Index(third, bad)
	if i < 0 || j < i || k < j {
		t.Fatalf("round 3's outcomes (%d %d %d):\n%s", i, j, k, third)
	}
	if reads := toolEvents(a.body, "read"); len(reads) != 1 || reads[0].Args["id"] != idUpgrade {
		t.Fatalf("read events %+v", reads)
	}
}
