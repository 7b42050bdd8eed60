package ask

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/askplane/askplane/internal/protocol"
)

// Authenticator says who is asking. It returns the subject, or writes the
// host's own response and returns ok false; the handler then sends
// nothing more. The subject must match ^[A-Za-z0-9][A-Za-z0-9._:@-]{0,255}$
// or the request fails with 500 ASK_INTERNAL. The x-request-id header is
// already set when it runs.
type Authenticator interface {
	Authenticate(w http.ResponseWriter, r *http.Request) (subject string, ok bool)
}

// CookieAuth is the Authenticator for a public docs site: anyone may ask,
// from an allowed origin, and each browser is a subject of its own,
// identified by a signed anonymous cookie that CookieAuth sets when the
// request has none (or one whose signature fails).
//
// A request with an Origin header not in Origins gets 403 ASK_FORBIDDEN.
// A request without Origin (not a browser's fetch) is let through: Origin
// checks defend browsers, and this backend holds no privileged action.
type CookieAuth struct {
	// Origins are the allowed Origin values, e.g. "https://docs.example.com",
	// compared case-insensitively.
	Origins []string
	// Secret signs the cookie: at least 32 bytes, kept server-side.
	Secret []byte
	// CookieName defaults to DefaultCookieName.
	CookieName string
	// Secure marks the cookie Secure; set it whenever the site is served
	// over https. SameSite defaults to http.SameSiteLaxMode; a widget on
	// another origin than the sidecar needs http.SameSiteNoneMode and Secure.
	Secure   bool
	SameSite http.SameSite
	// MaxAge defaults to one year.
	MaxAge time.Duration
}

// DefaultCookieName is the anonymous subject cookie's name.
const DefaultCookieName = "askplane_subject"

// subjectPrefix marks anonymous subjects, so they never collide with the
// subject of a token.
const subjectPrefix = "anon:"

// ErrWeakSecret is returned by Validate for a secret under 32 bytes.
var ErrWeakSecret = errors.New("ask: cookie secret must be at least 32 bytes")

// Validate checks the configuration.
func (a *CookieAuth) Validate() error {
	if len(a.Secret) < 32 {
		return ErrWeakSecret
	}
	return nil
}

// Authenticate implements Authenticator.
func (a *CookieAuth) Authenticate(w http.ResponseWriter, r *http.Request) (string, bool) {
	if origin := r.Header.Get("Origin"); origin != "" && !containsFold(a.Origins, origin) {
		writeError(w, &Error{Status: http.StatusForbidden, Code: protocol.CodeAskForbidden, Message: msgOriginForbidden})
		return "", false
	}
	return a.subject(w, r), true
}

// subject returns the subject the request's cookie names, or sets a
// cookie for a new one when it has none (or one whose signature fails).
func (a *CookieAuth) subject(w http.ResponseWriter, r *http.Request) string {
	name := a.CookieName
	if name == "" {
		name = DefaultCookieName
	}
	if c, err := r.Cookie(name); err == nil {
		if id, ok := a.verify(c.Value); ok {
			return subjectPrefix + id
		}
	}
	id := newHexID()
	maxAge := a.MaxAge
	if maxAge <= 0 {
		maxAge = 365 * 24 * time.Hour
	}
	sameSite := a.SameSite
	if sameSite == 0 {
		sameSite = http.SameSiteLaxMode
	}
	http.SetCookie(w, &http.Cookie{
		Name:     name,
		Value:    id + "." + a.sign(id),
		Path:     "/",
		MaxAge:   int(maxAge / time.Second),
		HttpOnly: true,
		Secure:   a.Secure,
		SameSite: sameSite,
	})
	return subjectPrefix + id
}

func (a *CookieAuth) sign(id string) string {
	mac := hmac.New(sha256.New, a.Secret)
	mac.Write([]byte("askplane subject v1\x00"))
	mac.Write([]byte(id))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// verify returns the id of a well-formed cookie value with a good signature.
func (a *CookieAuth) verify(v string) (string, bool) {
	id, sig, ok := strings.Cut(v, ".")
	if !ok || len(id) != 32 || !isLowerHex(id) {
		return "", false
	}
	return id, hmac.Equal([]byte(sig), []byte(a.sign(id)))
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// newHexID returns 128 random bits as 32 lowercase hex digits.
func newHexID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// validSubject reports whether s matches ^[A-Za-z0-9][A-Za-z0-9._:@-]{0,255}$.
func validSubject(s string) bool {
	if len(s) == 0 || len(s) > 256 || !isAlnum(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) && c != '.' && c != '_' && c != ':' && c != '@' && c != '-' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

var _ Authenticator = (*CookieAuth)(nil)

// AuthFunc adapts a function to Authenticator.
type AuthFunc func(w http.ResponseWriter, r *http.Request) (string, bool)

// Authenticate implements Authenticator.
func (f AuthFunc) Authenticate(w http.ResponseWriter, r *http.Request) (string, bool) { return f(w, r) }
