package access_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/access"
)

// HostOrigin lets through only an allowed Host with at most one Origin,
// which must be the host's own or an allowed one except on the paths
// whose handlers check it themselves; a refusal is the protocol's 403,
// with a request id, closing a connection that has an unread body.
func TestHostOriginGuardsEveryRoute(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	h := access.HostOrigin([]string{"ask.example.com"}, []string{"https://docs.example.com"}, "/v1/ask")(ok)
	for _, c := range []struct {
		name, host, path string
		origins          []string
		body             string
		want             int
	}{
		{"allowed host, no origin", "ask.example.com", "/ready", nil, "", 418},
		{"host case", "ASK.example.com", "/ready", nil, "", 418},
		{"other host", "evil.example", "/ready", nil, "", 403},
		{"two origins", "ask.example.com", "/v1/ask", []string{"https://docs.example.com", "https://docs.example.com"}, "", 403},
		{"allowed origin", "ask.example.com", "/metrics", []string{"https://docs.example.com"}, "", 418},
		{"own origin", "ask.example.com", "/metrics", []string{"https://ask.example.com"}, "", 418},
		{"foreign origin", "ask.example.com", "/metrics", []string{"https://evil.example"}, "{}", 403},
		{"foreign origin, self-checked path", "ask.example.com", "/v1/ask", []string{"https://evil.example"}, "", 418},
	} {
		r := httptest.NewRequest(http.MethodPost, "http://"+c.host+c.path, strings.NewReader(c.body))
		for _, o := range c.origins {
			r.Header.Add("Origin", o)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.want {
			t.Errorf("%s: %d, want %d", c.name, w.Code, c.want)
			continue
		}
		if c.want == 403 {
			if !strings.Contains(w.Body.String(), `"ASK_FORBIDDEN"`) || w.Header().Get("X-Request-Id") == "" ||
				(w.Header().Get("Connection") == "close") != (c.body != "") {
				t.Errorf("%s: refusal %v %s", c.name, w.Header(), w.Body)
			}
		}
	}
	// No hosts configured allows any Host.
	open := access.HostOrigin(nil, nil)(ok)
	w := httptest.NewRecorder()
	open.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://anything.example/", nil))
	if w.Code != 418 {
		t.Errorf("no hosts: %d", w.Code)
	}
}

// WithCORS without origins is no wrapper at all; with some it answers a
// preflight from one of them.
func TestWithCORS(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	r := httptest.NewRequest(http.MethodOptions, "/v1/ask", nil)
	r.Header.Set("Origin", "https://docs.example.com")
	r.Header.Set("Access-Control-Request-Method", "POST")
	w := httptest.NewRecorder()
	access.WithCORS(nil)(ok).ServeHTTP(w, r)
	if w.Code != 418 || w.Header().Get("Vary") != "" {
		t.Fatalf("no origins: %d %v", w.Code, w.Header())
	}
	w = httptest.NewRecorder()
	access.WithCORS([]string{"https://docs.example.com"})(ok).ServeHTTP(w, r)
	if w.Code != 204 || w.Header().Get("Access-Control-Allow-Origin") != "https://docs.example.com" {
		t.Fatalf("preflight: %d %v", w.Code, w.Header())
	}
}
