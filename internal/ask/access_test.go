package ask_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/access"
)

// The access rules (internal/access) as the handler answers them.

// TestCookieAuthRejectsOtherOrigins: 403 ASK_FORBIDDEN with the JSON
// diagnostic, through the handler as the host's own response.
func TestCookieAuthRejectsOtherOrigins(t *testing.T) {
	f := newFixture(t, func(c *config) {
		c.Auth = &access.CookieAuth{Origins: []string{"https://docs.example.com"}, Secret: []byte(strings.Repeat("k", 32)), Secure: true}
	})
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL+"/v1/ask", strings.NewReader(askBody("", "How do I start?")))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://evil.example")
	resp, body := do(t, req)
	wantError(t, resp, body, 403, "ASK_FORBIDDEN")

	req, _ = http.NewRequest(http.MethodPost, f.srv.URL+"/v1/ask", strings.NewReader(askBody("", "How do I start?")))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://docs.example.com")
	resp, body = do(t, req)
	if resp.StatusCode != 200 || len(resp.Cookies()) != 1 || !strings.Contains(body, `"type":"done"`) {
		t.Fatalf("allowed origin: %d %v %s", resp.StatusCode, resp.Cookies(), body)
	}
}

// TestCORS: an allowed origin gets a credentialed preflight and exposed
// headers on the answer; another origin's preflight is refused and its
// POST carries no CORS headers (and Access refuses it).
func TestCORS(t *testing.T) {
	a := &access.Policy{
		Hosts:     []string{"ask.example.com"},
		Origins:   []string{"https://docs.example.com"},
		Anonymous: &access.CookieAuth{Secret: []byte(strings.Repeat("k", 32)), Secure: true, SameSite: http.SameSiteNoneMode},
	}
	f := newFixture(t, func(c *config) { c.Auth = a })
	h := &access.CORS{Origins: a.Origins, Next: f.srv.Config.Handler}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	preflight := func(origin, method string) *http.Response {
		req, _ := http.NewRequest(http.MethodOptions, srv.URL+"/v1/ask?corpus=docs-public", nil)
		req.Host = "ask.example.com"
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", method)
		req.Header.Set("Access-Control-Request-Headers", "content-type")
		resp, _ := do(t, req)
		return resp
	}
	resp := preflight("https://docs.example.com", "POST")
	for k, v := range map[string]string{
		"Access-Control-Allow-Origin":      "https://docs.example.com",
		"Access-Control-Allow-Credentials": "true",
		"Access-Control-Allow-Methods":     "POST",
		"Access-Control-Allow-Headers":     "Content-Type, Authorization, Idempotency-Key",
		"Access-Control-Max-Age":           "600",
	} {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("preflight %s = %q, want %q", k, got, v)
		}
	}
	if resp.StatusCode != 204 {
		t.Errorf("preflight status %d", resp.StatusCode)
	}
	for _, bad := range []*http.Response{preflight("https://evil.example", "POST"), preflight("https://docs.example.com", "DELETE")} {
		if bad.StatusCode != 403 || bad.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("refused preflight: %d %v", bad.StatusCode, bad.Header)
		}
	}

	post := func(origin string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/ask", strings.NewReader(askBody("", "How do I start?")))
		req.Host = "ask.example.com"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", origin)
		return do(t, req)
	}
	resp, body := post("https://docs.example.com")
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "https://docs.example.com" ||
		resp.Header.Get("Access-Control-Expose-Headers") != "X-Request-Id, Link, Retry-After, X-Askplane-Run" ||
		!strings.Contains(resp.Header.Get("Vary"), "Origin") {
		t.Fatalf("allowed POST: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	resp, body = post("https://evil.example")
	if resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("other origin got CORS headers: %v", resp.Header)
	}
	wantError(t, resp, body, 403, "ASK_FORBIDDEN")
}
