package access_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/access"
)

var (
	ciToken     = strings.Repeat("c", 40)
	readerToken = strings.Repeat("r", 40)
)

func testAccess(anonymous bool) *access.Policy {
	a := &access.Policy{
		Hosts:   []string{"ask.example.com", "127.0.0.1:8080"},
		Origins: []string{"https://docs.example.com"},
		Tokens: []access.Token{
			{Subject: "ci-bot", Secret: []byte(ciToken)},
			{Subject: "reader@example.com", Secret: []byte(readerToken)},
		},
	}
	if anonymous {
		a.Anonymous = &access.CookieAuth{Secret: []byte(strings.Repeat("k", 32)), Secure: true, SameSite: http.SameSiteNoneMode}
	}
	return a
}

// TestAccess walks the order Access checks in: host, origin, token,
// anonymous cookie, with the status and code of each refusal.
func TestAccess(t *testing.T) {
	type tc struct {
		name       string
		anonymous  bool
		sameOrigin bool // the site's pages are served here
		anyHost    bool // no Hosts configured
		host       string
		origin     string
		auth       []string
		status     int    // 0: allowed
		code       string // refusal code
		subject    string // allowed: the subject, or "anon:" for a cookie subject
	}
	for _, c := range []tc{
		{name: "token", host: "ask.example.com", auth: []string{"Bearer " + ciToken}, subject: "token:ci-bot"},
		{name: "token scheme case", host: "ASK.example.com", auth: []string{"bearer " + readerToken}, subject: "token:reader@example.com"},
		{name: "token from allowed origin", host: "127.0.0.1:8080", origin: "https://docs.example.com", auth: []string{"Bearer " + ciToken}, subject: "token:ci-bot"},
		{name: "anonymous cookie", anonymous: true, host: "ask.example.com", origin: "https://docs.example.com", subject: "anon:"},
		{name: "other host", anonymous: true, host: "rebound.example", status: 403, code: "ASK_FORBIDDEN"},
		{name: "other origin", anonymous: true, host: "ask.example.com", origin: "https://evil.example", status: 403, code: "ASK_FORBIDDEN"},
		{name: "origin checked before token", host: "ask.example.com", origin: "https://evil.example", auth: []string{"Bearer " + ciToken}, status: 403, code: "ASK_FORBIDDEN"},
		{name: "private without token", host: "ask.example.com", status: 401, code: "ASK_UNAUTHORIZED"},
		{name: "unknown token is not anonymous", anonymous: true, host: "ask.example.com", auth: []string{"Bearer " + strings.Repeat("x", 40)}, status: 401, code: "ASK_UNAUTHORIZED"},
		{name: "token prefix", host: "ask.example.com", auth: []string{"Bearer " + ciToken[:39]}, status: 401, code: "ASK_UNAUTHORIZED"},
		{name: "basic scheme", host: "ask.example.com", auth: []string{"Basic " + ciToken}, status: 401, code: "ASK_UNAUTHORIZED"},
		{name: "two headers", host: "ask.example.com", auth: []string{"Bearer " + ciToken, "Bearer " + readerToken}, status: 401, code: "ASK_UNAUTHORIZED"},
		{name: "empty bearer", anonymous: true, host: "ask.example.com", auth: []string{"Bearer "}, status: 401, code: "ASK_UNAUTHORIZED"},
		{name: "own origin, pages served here", anonymous: true, sameOrigin: true, host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080", subject: "anon:"},
		{name: "own origin, pages served elsewhere", anonymous: true, host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080", status: 403, code: "ASK_FORBIDDEN"},
		{name: "own origin on any host is a rebinding page", anonymous: true, sameOrigin: true, anyHost: true, host: "rebound.example", origin: "http://rebound.example", status: 403, code: "ASK_FORBIDDEN"},
		{name: "another allowed host's origin", anonymous: true, sameOrigin: true, host: "127.0.0.1:8080", origin: "http://ask.example.com", status: 403, code: "ASK_FORBIDDEN"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := testAccess(c.anonymous)
			a.SameOrigin = c.sameOrigin
			if c.anyHost {
				a.Hosts = nil
			}
			if err := a.Validate(); err != nil {
				t.Fatal(err)
			}
			r := httptest.NewRequest(http.MethodPost, "http://"+c.host+"/v1/ask", nil)
			if c.origin != "" {
				r.Header.Set("Origin", c.origin)
			}
			for _, v := range c.auth {
				r.Header.Add("Authorization", v)
			}
			w := httptest.NewRecorder()
			subject, ok := a.Authenticate(w, r)
			body := w.Body.String()
			if c.status == 0 {
				if !ok || !strings.HasPrefix(subject, c.subject) || (c.subject == "anon:" && len(subject) != len("anon:")+32) {
					t.Fatalf("subject %q ok %v body %s", subject, ok, body)
				}
				return
			}
			if ok || w.Code != c.status || !strings.Contains(body, `"code":"`+c.code+`"`) {
				t.Fatalf("ok %v status %d body %s", ok, w.Code, body)
			}
			if c.status == 401 && w.Header().Get("WWW-Authenticate") != `Bearer realm="askplane"` {
				t.Errorf("challenge %q", w.Header().Get("WWW-Authenticate"))
			}
			for _, secret := range []string{ciToken, readerToken, "x" + strings.Repeat("x", 39)} {
				if strings.Contains(body, secret[:20]) {
					t.Errorf("body echoes a token: %s", body)
				}
			}
		})
	}
}

// TestAccessCrossSiteCookie: an anonymous subject for a widget on another
// origin gets a SameSite=None, Secure, HttpOnly cookie.
func TestAccessCrossSiteCookie(t *testing.T) {
	a := testAccess(true)
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "http://ask.example.com/v1/ask", nil)
	r.Header.Set("Origin", "https://docs.example.com")
	if _, ok := a.Authenticate(w, r); !ok {
		t.Fatal(w.Body.String())
	}
	c := w.Result().Cookies()
	if len(c) != 1 || c[0].SameSite != http.SameSiteNoneMode || !c[0].Secure || !c[0].HttpOnly {
		t.Fatalf("cookie %+v", c)
	}
}

func TestAccessValidate(t *testing.T) {
	for name, edit := range map[string]func(*access.Policy){
		"nobody can ask":  func(a *access.Policy) { a.Tokens, a.Anonymous = nil, nil },
		"short token":     func(a *access.Policy) { a.Tokens[0].Secret = []byte("short") },
		"bad subject":     func(a *access.Policy) { a.Tokens[0].Subject = "ci bot" },
		"empty subject":   func(a *access.Policy) { a.Tokens[0].Subject = "" },
		"same subject":    func(a *access.Policy) { a.Tokens[1].Subject = "ci-bot" },
		"weak cookie key": func(a *access.Policy) { a.Anonymous.Secret = []byte("k") },
	} {
		a := testAccess(true)
		edit(a)
		err := a.Validate()
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if !errors.Is(err, access.ErrInvalid) && !errors.Is(err, access.ErrWeakSecret) {
			t.Errorf("%s: %v", name, err)
		}
		if strings.Contains(err.Error(), ciToken[:10]) {
			t.Errorf("%s: error echoes a token: %v", name, err)
		}
	}
}
