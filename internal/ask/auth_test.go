package ask_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/ask"
)

func cookieAuth() *ask.CookieAuth {
	return &ask.CookieAuth{Origins: []string{"https://docs.example.com"}, Secret: []byte(strings.Repeat("k", 32)), Secure: true}
}

// TestCookieAuthSetsAndReusesSubject: a first request gets a signed cookie
// and a subject; the cookie brings the same subject back without a new one.
func TestCookieAuthSetsAndReusesSubject(t *testing.T) {
	a := cookieAuth()
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "/v1/ask", nil)
	r.Header.Set("Origin", "https://DOCS.example.com")
	subject, ok := a.Authenticate(w, r)
	if !ok || !strings.HasPrefix(subject, "anon:") {
		t.Fatalf("subject %q ok %v", subject, ok)
	}
	cookies := w.Result().Cookies()
	if len(cookies) != 1 || cookies[0].Name != ask.DefaultCookieName || !cookies[0].HttpOnly || !cookies[0].Secure || cookies[0].SameSite != http.SameSiteLaxMode {
		t.Fatalf("cookies %+v", cookies)
	}

	w2 := httptest.NewRecorder()
	r2 := httptest.NewRequest(http.MethodPost, "/v1/ask", nil)
	r2.AddCookie(cookies[0])
	again, ok := a.Authenticate(w2, r2)
	if !ok || again != subject || len(w2.Result().Cookies()) != 0 {
		t.Fatalf("second subject %q (first %q), cookies %v", again, subject, w2.Result().Cookies())
	}

	// A tampered cookie is replaced by a fresh subject.
	forged := *cookies[0]
	forged.Value = strings.Repeat("0", 32) + forged.Value[32:]
	w3 := httptest.NewRecorder()
	r3 := httptest.NewRequest(http.MethodPost, "/v1/ask", nil)
	r3.AddCookie(&forged)
	other, ok := a.Authenticate(w3, r3)
	if !ok || other == subject || other == "anon:"+strings.Repeat("0", 32) || len(w3.Result().Cookies()) != 1 {
		t.Fatalf("forged cookie accepted: %q", other)
	}
}

// TestCookieAuthRejectsOtherOrigins: 403 ASK_FORBIDDEN with the JSON
// diagnostic, through the handler as the host's own response.
func TestCookieAuthRejectsOtherOrigins(t *testing.T) {
	f := newFixture(t, func(c *ask.Config) { c.Auth = cookieAuth() })
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
