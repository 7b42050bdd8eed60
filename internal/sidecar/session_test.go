package sidecar

import (
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// sessionServer serves one private site whose sessions live in the SQLite
// file db, asked by the token subject "token:ci-bot" (testSecret-token);
// "token:other-bot" (testSecret-other) is another subject.
func sessionServer(t *testing.T, db string) (*httptest.Server, *Server) {
	t.Helper()
	t.Setenv("ASKPLANE_TEST_TOKEN", testSecret+"-token")
	t.Setenv("ASKPLANE_TEST_OTHER", testSecret+"-other")
	public := writeCorpus(t, "docs", "/docs/install/", "Install", "install", "Run go install to get the askplane command. It needs Go 1.26.")
	cfg, err := Decode([]byte(`{"sessions":"sqlite:` + db + `","sites":[{"site":` + testSite("docs", "docs-public") + `,` +
		`"public":"` + public + `","language":"en","anonymous":false,"tokens":[{"subject":"ci-bot","env":"ASKPLANE_TEST_TOKEN"},{"subject":"other-bot","env":"ASKPLANE_TEST_OTHER"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(t.Context(), cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { hs.Close(); srv.Close() })
	return hs, srv
}

func askSession(t *testing.T, url string, messages []protocol.AskMessage) (int, string) {
	t.Helper()
	type message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	var list []message
	for _, m := range messages {
		list = append(list, message{m.Role, m.Content})
	}
	body, _ := json.Marshal(map[string]any{"protocol": "agentskit.chat.ask", "version": 1, "sessionId": "s-1", "messages": list})
	req, _ := http.NewRequest("POST", url+"/v1/ask", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+testSecret+"-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestCorruptSessionStartsAgain: a stored row that fails strict decoding
// used to answer 500 ASK_INTERNAL on every question of that session,
// forever. Now the question is answered as a new conversation and its
// save replaces the unreadable row.
func TestCorruptSessionStartsAgain(t *testing.T) {
	db := filepath.Join(t.TempDir(), "sessions.db")
	hs, srv := sessionServer(t, db)
	raw, err := sql.Open("sqlite", db+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`INSERT INTO sessions (site_id, subject, session_id, revision, bytes, updated_at, messages) VALUES ('docs', 'token:ci-bot', 's-1', 4, 100, ?, '[{"role":"user","content":"half')`, time.Now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	q := []protocol.AskMessage{{Role: protocol.RoleUser, Content: "how do I install askplane?"}}
	for i := range 2 {
		code, body := askSession(t, hs.URL, q)
		if code != 200 || !strings.Contains(body, `"type":"done"`) {
			t.Fatalf("question %d over a corrupt session: %d\n%s", i, code, body)
		}
	}
	rec, err := srv.sessions.Load(t.Context(), askKey("docs", "token:ci-bot", "s-1"))
	if err != nil {
		t.Fatalf("the corrupt row was not replaced: %v", err)
	}
	if rec.Revision != 6 || len(rec.Messages) != 4 || rec.Messages[0].Content != q[0].Content || rec.Messages[2].Content != q[0].Content {
		t.Fatalf("stored session: revision %d, %d messages", rec.Revision, len(rec.Messages))
	}
}

// TestLongConversationKeepsItsNewestTurns: a conversation past the
// store's byte bound is shortened from its oldest turns when saved, so
// the reader's next question still has the latest history, instead of
// the save failing.
func TestLongConversationKeepsItsNewestTurns(t *testing.T) {
	db := filepath.Join(t.TempDir(), "sessions.db")
	hs, srv := sessionServer(t, db)
	k := askKey("docs", "token:ci-bot", "s-1")
	// A stored conversation within 40 bytes of the bound: any answer
	// saved whole on top of it would be over.
	bound := srv.sessions.Limits().MaxSessionBytes
	var history []protocol.AskMessage
	for i := 0; ; i++ {
		role := protocol.RoleUser
		if i%2 == 1 {
			role = protocol.RoleAssistant
		}
		history = append(history, protocol.AskMessage{Role: role, Content: strings.Repeat("y", 16_000)})
		if over := session.Size(session.Record{Messages: history}) - (bound - 40); over >= 0 {
			last := &history[len(history)-1]
			last.Content = last.Content[:16_000-over]
			break
		}
	}
	if ok, err := srv.sessions.Save(t.Context(), k, session.Record{Revision: 1, Messages: history}, 0); err != nil || !ok {
		t.Fatalf("seed: %v %v", ok, err)
	}
	q := []protocol.AskMessage{{Role: protocol.RoleUser, Content: "how do I install askplane?"}}
	code, body := askSession(t, hs.URL, q)
	if code != 200 || !strings.Contains(body, `"type":"done"`) {
		t.Fatalf("question on a full session: %d\n%s", code, body)
	}
	rec, err := srv.sessions.Load(t.Context(), k)
	if err != nil {
		t.Fatal(err)
	}
	n := len(rec.Messages)
	if rec.Revision != 2 || n < 2 || rec.Messages[n-2].Content != q[0].Content || rec.Messages[n-1].Role != protocol.RoleAssistant {
		t.Fatalf("stored: revision %d, %d messages, last user %q", rec.Revision, n, rec.Messages[max(n-2, 0)].Content)
	}
	if size := session.Size(rec); size > bound {
		t.Fatalf("stored %d bytes over the bound", size)
	}
}

// "New conversation" forgets the sidecar session: POST
// /v1/sessions/{id}/forget deletes the subject's own session now, not
// at its TTL. Another subject's forget of the same id deletes nothing
// (and is told 204 all the same, so ids cannot be probed); a request
// without a token is refused before anything is looked up.
func TestForgetDeletesOnlyTheSubjectsSession(t *testing.T) {
	hs, srv := sessionServer(t, filepath.Join(t.TempDir(), "s.db"))
	if code, body := askSession(t, hs.URL, []protocol.AskMessage{{Role: protocol.RoleUser, Content: "how do I install askplane?"}}); code != 200 {
		t.Fatalf("ask: %d %s", code, body)
	}
	key := askKey("docs", "token:ci-bot", "s-1")
	stored := func() int {
		r, err := srv.sessions.Load(t.Context(), key)
		if err != nil {
			t.Fatal(err)
		}
		return r.Revision
	}
	if stored() != 1 {
		t.Fatalf("the session was not saved")
	}
	forget := func(token string) int {
		req, _ := http.NewRequest("POST", hs.URL+"/v1/sessions/s-1/forget?corpus=docs-public", nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := forget(""); code != 401 || stored() != 1 {
		t.Errorf("no token: %d, revision %d; want 401 and the session kept", code, stored())
	}
	if code := forget(testSecret + "-other"); code != 204 || stored() != 1 {
		t.Errorf("another subject: %d, revision %d; want 204 and the session kept", code, stored())
	}
	if code := forget(testSecret + "-token"); code != 204 || stored() != 0 {
		t.Errorf("its subject: %d, revision %d; want 204 and the session gone", code, stored())
	}
	req, _ := http.NewRequest("GET", hs.URL+"/v1/sessions/s-1/forget", nil)
	req.Header.Set("Authorization", "Bearer "+testSecret+"-token")
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Error(err)
	} else if resp.Body.Close(); resp.StatusCode != 405 {
		t.Errorf("GET: %d; want 405", resp.StatusCode)
	}
}
