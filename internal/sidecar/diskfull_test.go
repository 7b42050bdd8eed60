package sidecar

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 25: with SQLite on a full disk, 3,920 of 4,000 answers streamed
// their text and then ended ASK_INTERNAL, and /ready stayed 200. On a real
// full disk (a 1 MiB tmpfs; as root, skipped where it cannot be mounted):
// once a save fails for lack of space, /ready answers 503
// "STORE_WRITE_FAILED", and a site whose persistence is "required"
// refuses the next questions before any text (503, retryable); with the
// space back, /ready is 200 again within a probe and answers are saved.
func TestDiskFullIsVisibleAndRefusedBeforeText(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	site := strings.Replace(siteJSON(edgePublic(t), "docs", "docs-public", ""), `"persistence":{"mode":"disabled"}`, `"persistence":{"mode":"required"}`, 1)
	cfg, err := Decode([]byte(`{"sessions":"sqlite:` + filepath.Join(dir, "sessions.db") + `","sites":[` + site + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(t.Context(), cfg, Options{Env: edgeEnv, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ask := func(session string, long int) (int, string) {
		q, _ := json.Marshal("how do I install askplane? " + strings.Repeat("please ", long))
		body := `{"protocol":"agentskit.chat.ask","version":1,"sessionId":"` + session + `","messages":[{"role":"user","content":` + string(q) + `}]}`
		req := httptest.NewRequest("POST", "/v1/ask", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	ready := func() (int, string) {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest("GET", "/ready", nil))
		return w.Code, w.Body.String()
	}
	if code, body := ask("s0", 0); code != 200 || !strings.Contains(body, `"type":"done"`) {
		t.Fatalf("before the disk filled: %d %s", code, body)
	}
	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	for chunk := make([]byte, 4096); ; {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	f.Close()
	// Answers until one cannot be saved (the WAL may still have room for
	// the first few).
	failed := false
	for i := range 40 {
		code, body := ask(fmt.Sprint("s", i+1), 2000)
		if code != 200 || strings.Contains(body, `"type":"error"`) {
			failed = true
			break
		}
	}
	if !failed {
		t.Fatal("no save failed on a full disk")
	}
	if code, body := ready(); code != 503 || !strings.Contains(body, `"sessions":"STORE_WRITE_FAILED"`) {
		t.Fatalf("/ready after a save failed on a full disk: %d %s", code, body)
	}
	if code, body := ask("s99", 0); code != 503 || strings.Contains(body, `"type":"text"`) || !strings.Contains(body, `"retryable":true`) {
		t.Fatalf("a required-persistence question while the disk is full: %d %s; want 503 before any text", code, body)
	}
	os.Remove(filler)
	deadline := time.Now().Add(5 * time.Second)
	for code, body := ready(); code != 200; code, body = ready() {
		if time.Now().After(deadline) {
			t.Fatalf("/ready with the space back: %d %s", code, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code, body := ask("s100", 0); code != 200 || !strings.Contains(body, `"type":"done"`) {
		t.Fatalf("with the space back: %d %s", code, body)
	}
}
