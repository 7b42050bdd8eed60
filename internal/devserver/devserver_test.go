package devserver

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFingerprintSeesEditsAdditionsAndRemovals(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fp := func() string {
		t.Helper()
		s, err := Fingerprint(dir, filepath.Join(dir, "missing"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	write("content/a.md", "a")
	first := fp()
	if fp() != first {
		t.Fatal("fingerprint changed with nothing edited")
	}
	write("public/index.html", "built")
	write("resources/_gen/x", "cache")
	if fp() != first {
		t.Error("a file under public/ or resources/ (Hugo's own output) changed the fingerprint")
	}
	write("content/a.md", "ab")
	edited := fp()
	if edited == first {
		t.Error("an edit did not change the fingerprint")
	}
	write("data/askplane/facts.yaml", "x")
	added := fp()
	if added == edited {
		t.Error("a new file did not change the fingerprint")
	}
	os.Remove(filepath.Join(dir, "data", "askplane", "facts.yaml"))
	if fp() == added {
		t.Error("a removal did not change the fingerprint")
	}
}

func TestSwapServesTheLatestHandler(t *testing.T) {
	var s Swap
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("before Set: %d", rec.Code)
	}
	for _, body := range []string{"one", "two"} {
		s.Set(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) }))
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		if rec.Body.String() != body {
			t.Errorf("served %q; want %q", rec.Body.String(), body)
		}
	}
}

func TestReloaderInjectsOnlyIntoHTMLPages(t *testing.T) {
	site := http.NewServeMux()
	site.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept-Encoding") != "" {
			t.Error("the page was asked for compressed; the script could not be added")
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Length", "31")
		io.WriteString(w, "<html><body><p>hi</body></html>")
	})
	site.HandleFunc("/app.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		io.WriteString(w, "</body>")
	})
	site.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, "<body>404</body>")
	})
	h := NewReloader().Wrap(site)
	get := func(path string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	page := get("/")
	want := `<html><body><p>hi<script src="/_askplane/dev/reload.js" defer></script></body></html>`
	if page.Body.String() != want || page.Header().Get("Content-Length") != "85" {
		t.Errorf("page %q (Content-Length %s); want %q", page.Body.String(), page.Header().Get("Content-Length"), want)
	}
	if js := get("/app.js"); js.Body.String() != "</body>" {
		t.Errorf("a script was rewritten: %q", js.Body.String())
	}
	if nf := get("/gone"); nf.Code != 404 || strings.Contains(nf.Body.String(), "reload.js") {
		t.Errorf("an error page got the script: %d %q", nf.Code, nf.Body.String())
	}
	if s := get(ScriptPath); !strings.Contains(s.Body.String(), EventsPath) || !strings.HasPrefix(s.Header().Get("Content-Type"), "text/javascript") {
		t.Errorf("reload script: %q %s", s.Body.String(), s.Header().Get("Content-Type"))
	}
}

func TestReloaderTellsOpenTabs(t *testing.T) {
	rl := NewReloader()
	srv := httptest.NewServer(rl.Wrap(http.NotFoundHandler()))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+EventsPath, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	lines.Scan() // the opening comment: the stream is registered
	rl.Rebuilt()
	for lines.Scan() {
		if lines.Text() == "event: rebuilt" {
			return
		}
	}
	t.Fatalf("no rebuilt event: %v", lines.Err())
}
