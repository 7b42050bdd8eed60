package access_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/access"
)

func cookieAuth() *access.CookieAuth {
	return &access.CookieAuth{Origins: []string{"https://docs.example.com"}, Secret: []byte(strings.Repeat("k", 32)), Secure: true}
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
	if len(cookies) != 1 || cookies[0].Name != access.DefaultCookieName || !cookies[0].HttpOnly || !cookies[0].Secure || cookies[0].SameSite != http.SameSiteLaxMode {
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
	forged.Value = "v2." + strings.Repeat("0", 32) + forged.Value[len("v2.")+32:]
	w3 := httptest.NewRecorder()
	r3 := httptest.NewRequest(http.MethodPost, "/v1/ask", nil)
	r3.AddCookie(&forged)
	other, ok := a.Authenticate(w3, r3)
	if !ok || other == subject || other == "anon:"+strings.Repeat("0", 32) || len(w3.Result().Cookies()) != 1 {
		t.Fatalf("forged cookie accepted: %q", other)
	}
}

// mint returns the cookie a first request gets from a at now.
func mint(t *testing.T, a *access.CookieAuth, now time.Time) *http.Cookie {
	t.Helper()
	a.Now = func() time.Time { return now }
	w := httptest.NewRecorder()
	subject, minted := a.Subject(w, httptest.NewRequest(http.MethodPost, "/v1/ask", nil))
	cookies := w.Result().Cookies()
	if !minted || !strings.HasPrefix(subject, "anon:") || len(cookies) != 1 {
		t.Fatalf("subject %q minted %v cookies %v", subject, minted, cookies)
	}
	parts := strings.Split(cookies[0].Value, ".")
	if len(parts) != 4 || parts[0] != "v2" || "anon:"+parts[1] != subject || parts[2] != strconv.FormatInt(now.Unix(), 10) {
		t.Fatalf("cookie value %q for %q", cookies[0].Value, subject)
	}
	return cookies[0]
}

// present asks with c at now and returns the subject and whether it was
// minted afresh (a new cookie set) rather than the one c names.
func present(t *testing.T, a *access.CookieAuth, c *http.Cookie, now time.Time) (string, bool) {
	t.Helper()
	a.Now = func() time.Time { return now }
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "/v1/ask", nil)
	r.AddCookie(c)
	subject, minted := a.Subject(w, r)
	if set := len(w.Result().Cookies()) == 1; set != minted {
		t.Fatalf("minted %v but cookie set %v", minted, set)
	}
	return subject, minted
}

// TestCookieBindsSiteAndTime: a v2 cookie verifies for its own site within
// MaxAge; tampering with any part, another site, expiry, an issue time
// beyond the clock skew and a validly signed v1 value all mint a new one.
func TestCookieBindsSiteAndTime(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	a := &access.CookieAuth{Secret: []byte(strings.Repeat("k", 32)), SiteID: "docs-site"}
	c := mint(t, a, t0)
	parts := strings.Split(c.Value, ".")
	id := parts[1]

	if s, minted := present(t, a, c, t0.Add(access.DefaultCookieMaxAge-time.Second)); minted || s != "anon:"+id {
		t.Fatalf("own cookie within MaxAge: %q minted %v", s, minted)
	}
	if s, minted := present(t, a, c, t0.Add(-access.CookieClockSkew)); minted || s != "anon:"+id {
		t.Fatalf("cookie from a clock just within the skew: %q minted %v", s, minted)
	}

	with := func(v string) *http.Cookie { d := *c; d.Value = v; return &d }
	flip := func(s string) string {
		b := []byte(s)
		if b[0] == 'a' {
			b[0] = 'b'
		} else {
			b[0] = 'a'
		}
		return string(b)
	}
	join := func(p ...string) string { return strings.Join(p, ".") }
	later := strconv.FormatInt(t0.Add(time.Hour).Unix(), 10)
	bad := map[string]*http.Cookie{
		"id tampered":       with(join("v2", flip(id), parts[2], parts[3])),
		"time tampered":     with(join("v2", id, later, parts[3])),
		"time reformatted":  with(join("v2", id, "0"+parts[2], parts[3])),
		"signature changed": with(join("v2", id, parts[2], flip(parts[3]))),
		"version changed":   with(join("v3", id, parts[2], parts[3])),
		"extra field":       with(c.Value + ".x"),
		"v1 value":          with(id + "." + v1Sign(a.Secret, id)),
	}
	for name, bc := range bad {
		if s, minted := present(t, a, bc, t0); !minted || s == "anon:"+id {
			t.Errorf("%s: accepted as %q", name, s)
		}
	}

	// Expiry, from the default and from a configured MaxAge.
	if s, minted := present(t, a, c, t0.Add(access.DefaultCookieMaxAge+time.Second)); !minted || s == "anon:"+id {
		t.Errorf("expired cookie accepted as %q", s)
	}
	short := &access.CookieAuth{Secret: a.Secret, SiteID: a.SiteID, MaxAge: time.Hour}
	if _, minted := present(t, short, c, t0.Add(30*time.Minute)); minted {
		t.Error("cookie within a configured MaxAge refused")
	}
	if _, minted := present(t, short, c, t0.Add(2*time.Hour)); !minted {
		t.Error("cookie past a configured MaxAge accepted")
	}
	if nc := mint(t, short, t0); nc.MaxAge != 3600 {
		t.Errorf("cookie Max-Age %d, want 3600", nc.MaxAge)
	}

	// From the future beyond the skew: minted by a clock far ahead.
	future := mint(t, a, t0.Add(access.CookieClockSkew+time.Minute))
	if _, minted := present(t, a, future, t0); !minted {
		t.Error("cookie issued beyond the clock skew accepted")
	}

	// Cross-site replay: same secret, another site (or none).
	for _, site := range []string{"other-site", ""} {
		other := &access.CookieAuth{Secret: a.Secret, SiteID: site}
		if s, minted := present(t, other, c, t0); !minted || s == "anon:"+id {
			t.Errorf("site %q accepted docs-site's cookie as %q", site, s)
		}
	}
}

// v1Sign is how the v1 cookie ("<id>.<sig>") was signed.
func v1Sign(secret []byte, id string) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("askplane subject v1\x00"))
	mac.Write([]byte(id))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// TestBeforeMintGatesOnlyNewSubjects: BeforeMint runs only when a subject
// would be minted; refusing writes the host's response, sets no cookie and
// fails authentication, through CookieAuth and through Access.
func TestBeforeMintGatesOnlyNewSubjects(t *testing.T) {
	calls, allow := 0, true
	a := &access.CookieAuth{Secret: []byte(strings.Repeat("k", 32)), SiteID: "docs-site",
		BeforeMint: func(w http.ResponseWriter, r *http.Request) bool {
			calls++
			if !allow {
				http.Error(w, "too many new subjects", http.StatusTooManyRequests)
			}
			return allow
		}}
	c := mint(t, a, time.Now())
	if calls != 1 {
		t.Fatalf("BeforeMint ran %d times for one mint", calls)
	}
	allow = false
	if s, minted := present(t, a, c, time.Now()); minted || s == "" || calls != 1 {
		t.Fatalf("a valid cookie reached BeforeMint (%d) or was refused: %q", calls, s)
	}
	for _, auth := range []access.Authenticator{a, &access.Policy{Anonymous: a}} {
		w := httptest.NewRecorder()
		subject, ok := auth.Authenticate(w, httptest.NewRequest(http.MethodPost, "/v1/ask", nil))
		if ok || subject != "" || w.Code != http.StatusTooManyRequests || len(w.Result().Cookies()) != 0 {
			t.Fatalf("%T: refused mint gave %q %v, status %d, cookies %v", auth, subject, ok, w.Code, w.Result().Cookies())
		}
	}
}
