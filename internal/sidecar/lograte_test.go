package sidecar

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a log sink safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Issue 25: once the SQLite file was deleted under load, every answer's
// failed save logged an ERROR line, ~14,000 in 10 s. ERROR lines are now
// rate-limited per message: 100 answers in a row that fail on the store
// log at most errorBurst lines of each message.
func TestErrorLinesAreRateLimitedPerMessage(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "sessions.db")
	site := strings.Replace(siteJSON(edgePublic(t), "docs", "docs-public", ""), `"language":"en"`,
		`"language":"en","rateLimit":{"requests":100000,"windowSeconds":60}`, 1)
	cfg, err := Decode([]byte(`{"sessions":"sqlite:` + db + `","edge":{"perAddress":{"requests":100000,"windowSeconds":60},` +
		`"newSubjects":{"requests":100000,"windowSeconds":60}},"sites":[` + site + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	var logs lockedBuffer
	srv, err := New(t.Context(), cfg, Options{Env: edgeEnv, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if err := os.Remove(db); err != nil {
		t.Fatal(err)
	}
	body := `{"protocol":"agentskit.chat.ask","version":1,"sessionId":"s1","messages":[{"role":"user","content":"how do I install askplane?"}]}`
	for range 100 {
		req := httptest.NewRequest("POST", "/v1/ask", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if !strings.Contains(w.Body.String(), "ASK_INTERNAL") {
			t.Fatalf("an answer whose save fails: %d %s\n%s", w.Code, w.Body, logs.String())
		}
	}
	out := logs.String()
	for _, line := range strings.Split(out, "\n") {
		if !strings.Contains(line, "level=ERROR") {
			continue
		}
		msg := line[strings.Index(line, "msg="):]
		msg = msg[:strings.Index(msg, " requestId=")+1]
		if n := strings.Count(out, msg); n > errorBurst {
			t.Fatalf("100 failed answers logged %d ERROR lines %s; want at most %d", n, msg, errorBurst)
		}
	}
	if !strings.Contains(out, "level=ERROR") {
		t.Fatalf("no ERROR line at all:\n%s", out)
	}
}

// The lines left out are counted, and the count is logged once the
// message's window is over: before its next line, or with the next line
// of any message.
func TestSuppressedErrorLinesAreCounted(t *testing.T) {
	var logs bytes.Buffer
	now := time.Unix(1_700_000_000, 0)
	log := slog.New(limitErrors(slog.NewTextHandler(&logs, nil), func() time.Time { return now }))
	for range 25 {
		log.Error("store gone")
	}
	log.Error("other failure")
	for range 12 {
		log.Warn("warned")
		log.Info("info is never limited")
	}
	if got := strings.Count(logs.String(), "msg=warned"); got != errorBurst {
		t.Fatalf("%d WARN lines of one message in a window; want %d", got, errorBurst)
	}
	if got := strings.Count(logs.String(), "info is never limited"); got != 12 {
		t.Fatalf("%d INFO lines; want all 12", got)
	}
	if got := strings.Count(logs.String(), "msg=\"store gone\""); got != errorBurst {
		t.Fatalf("%d lines of one message in a window; want %d", got, errorBurst)
	}
	now = now.Add(errorWindow)
	log.Info("a later line")
	out := logs.String()
	if !strings.Contains(out, `level=ERROR msg="askplane: error lines suppressed" message="store gone" suppressed=15`) ||
		!strings.Contains(out, `level=WARN msg="askplane: error lines suppressed" message=warned suppressed=2`) || strings.Count(out, "suppressed=") != 2 {
		t.Fatalf("no count of the left-out lines:\n%s", out)
	}
	log.Error("store gone")
	if got := strings.Count(logs.String(), "msg=\"store gone\""); got != errorBurst+1 {
		t.Fatalf("a new window writes again: %d lines", got)
	}
}
