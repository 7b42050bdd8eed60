package access

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/askplane/askplane/internal/apierr"
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
// request has none, or one that does not verify: a bad signature, another
// site's, an expired or future issue time, or an old (v1) format.
//
// The cookie value is "v2.<id>.<issued>.<sig>": id is 128 random bits in
// lowercase hex, issued the Unix second it was minted, and sig the
// unpadded base64url HMAC-SHA256 under Secret of a domain-separation label,
// SiteID, id and issued, so a cookie is good for one site and one lifetime
// only. The subject is "anon:" + id.
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
	// SiteID is signed into every cookie, so one site's cookie is refused
	// by another. Set it whenever two sites could share a Secret (or a
	// cookie could travel between them); "" is a site of its own, distinct
	// from every named one. At most 256 bytes.
	SiteID string
	// CookieName defaults to DefaultCookieName.
	CookieName string
	// Secure marks the cookie Secure; set it whenever the site is served
	// over https. SameSite defaults to http.SameSiteLaxMode; a widget on
	// another origin than the sidecar needs http.SameSiteNoneMode and Secure.
	Secure   bool
	SameSite http.SameSite
	// MaxAge is how long a subject lives from the moment it was minted,
	// enforced on the signed issue time (the cookie's own Max-Age is only
	// advice to the browser); it defaults to DefaultCookieMaxAge. An older
	// cookie is treated as absent and a new subject is minted.
	MaxAge time.Duration
	// BeforeMint, when set, runs before a new subject is minted for a
	// request without a valid cookie; that is the only way a client gets
	// a fresh subject, and with it fresh per-subject rate limits. It
	// returns true to let the subject be minted. To refuse, it writes the
	// host's own response (e.g. 429 with retry-after, for a client address
	// that has minted too many) and returns false: no cookie is set and
	// the request gets no subject. Requests with a valid cookie never
	// reach it.
	BeforeMint func(w http.ResponseWriter, r *http.Request) bool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// DefaultCookieName is the anonymous subject cookie's name.
const DefaultCookieName = "askplane_subject"

// DefaultCookieMaxAge is the default subject lifetime. An anonymous
// subject only keys a browser's sessions and rate limits, and a copied
// cookie is good for as long as it lives; a month keeps a returning
// reader's conversations without a year-long replayable identifier.
const DefaultCookieMaxAge = 30 * 24 * time.Hour

// CookieClockSkew is how far in the future a cookie's issue time may be
// (another replica's clock running ahead) and still verify.
const CookieClockSkew = 5 * time.Minute

// subjectPrefix marks anonymous subjects, so they never collide with the
// subject of a token.
const subjectPrefix = "anon:"

// cookieVersion prefixes every cookie value; cookieLabel separates the
// subject MAC from any other use of Secret.
const (
	cookieVersion = "v2"
	cookieLabel   = "askplane anonymous subject v2"
	maxSiteIDLen  = 256
)

// ErrWeakSecret is returned by Validate for a secret under 32 bytes.
var ErrWeakSecret = errors.New("ask: cookie secret must be at least 32 bytes")

// Validate checks the configuration.
func (a *CookieAuth) Validate() error {
	if len(a.Secret) < 32 {
		return ErrWeakSecret
	}
	if len(a.SiteID) > maxSiteIDLen {
		return errors.New("ask: cookie site id must be at most 256 bytes")
	}
	if a.MaxAge < 0 {
		return errors.New("ask: cookie max age must not be negative")
	}
	return nil
}

// Authenticate implements Authenticator.
func (a *CookieAuth) Authenticate(w http.ResponseWriter, r *http.Request) (string, bool) {
	if origin := r.Header.Get("Origin"); origin != "" && !containsFold(a.Origins, origin) {
		apierr.Write(w, &apierr.Error{Status: http.StatusForbidden, Code: protocol.CodeAskForbidden, Message: msgOriginForbidden})
		return "", false
	}
	subject, _ := a.Subject(w, r)
	return subject, subject != ""
}

// Subject returns the subject the request's cookie names and minted false,
// or, when the request has no valid cookie, mints a new subject, sets its
// cookie on w and returns it with minted true. When BeforeMint refuses,
// subject is "" (and minted false): BeforeMint has written the response.
// Subject checks no Origin; Authenticate and Policy do that first.
func (a *CookieAuth) Subject(w http.ResponseWriter, r *http.Request) (subject string, minted bool) {
	if subject, ok := a.Known(r); ok {
		return subject, false
	}
	name := a.CookieName
	if name == "" {
		name = DefaultCookieName
	}
	now := time.Now()
	if a.Now != nil {
		now = a.Now()
	}
	if a.BeforeMint != nil && !a.BeforeMint(w, r) {
		return "", false
	}
	id := newHexID()
	sameSite := a.SameSite
	if sameSite == 0 {
		sameSite = http.SameSiteLaxMode
	}
	issued := strconv.FormatInt(now.Unix(), 10)
	http.SetCookie(w, &http.Cookie{
		Name:     name,
		Value:    cookieVersion + "." + id + "." + issued + "." + a.sign(id, issued),
		Path:     "/",
		MaxAge:   int(a.maxAge() / time.Second),
		HttpOnly: true,
		Secure:   a.Secure,
		SameSite: sameSite,
	})
	return subjectPrefix + id, true
}

// Known returns the subject the request's cookie names when it verifies,
// minting none: for a route that counts a reader it already knows and
// has no business giving a new one a cookie.
func (a *CookieAuth) Known(r *http.Request) (string, bool) {
	name := a.CookieName
	if name == "" {
		name = DefaultCookieName
	}
	now := time.Now()
	if a.Now != nil {
		now = a.Now()
	}
	if c, err := r.Cookie(name); err == nil {
		if id, ok := a.verify(c.Value, now); ok {
			return subjectPrefix + id, true
		}
	}
	return "", false
}

func (a *CookieAuth) maxAge() time.Duration {
	if a.MaxAge > 0 {
		return a.MaxAge
	}
	return DefaultCookieMaxAge
}

// sign MACs the label, the site, the id and the issue time, each
// length-prefixed so no two tuples share an encoding.
func (a *CookieAuth) sign(id, issued string) string {
	mac := hmac.New(sha256.New, a.Secret)
	for _, f := range []string{cookieLabel, a.SiteID, id, issued} {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(f)))
		mac.Write(n[:])
		mac.Write([]byte(f))
	}
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// verify returns the id of a well-formed v2 cookie value with a good
// signature for this site, issued no longer than MaxAge before now and no
// more than CookieClockSkew after it.
func (a *CookieAuth) verify(v string, now time.Time) (string, bool) {
	parts := strings.Split(v, ".")
	if len(parts) != 4 || parts[0] != cookieVersion {
		return "", false
	}
	id, issued, sig := parts[1], parts[2], parts[3]
	if len(id) != 32 || !isLowerHex(id) {
		return "", false
	}
	secs, err := strconv.ParseInt(issued, 10, 64)
	if err != nil || secs < 0 || strconv.FormatInt(secs, 10) != issued {
		return "", false
	}
	if !hmac.Equal([]byte(sig), []byte(a.sign(id, issued))) {
		return "", false
	}
	at := time.Unix(secs, 0)
	if at.After(now.Add(CookieClockSkew)) || now.Sub(at) > a.maxAge() {
		return "", false
	}
	return id, true
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

// ValidSubject reports whether s matches ^[A-Za-z0-9][A-Za-z0-9._:@-]{0,255}$.
func ValidSubject(s string) bool {
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
