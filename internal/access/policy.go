package access

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/askplane/askplane/internal/apierr"
	"github.com/askplane/askplane/internal/limit"
	"github.com/askplane/askplane/internal/protocol"
)

// Policy is the Authenticator for one site, public or private. In order it
// checks:
//
//  1. the Host header against Hosts (a DNS-rebinding guard: a page on a
//     name that resolves to this server cannot use it) → 403 ASK_FORBIDDEN;
//  2. the Origin header, when there is one, against Origins → 403
//     ASK_FORBIDDEN;
//  3. an Authorization: Bearer token against Tokens; a token it does not
//     know → 401 ASK_UNAUTHORIZED, never a fallback to anonymous;
//  4. without a token, the signed anonymous cookie of Anonymous (which
//     mints a new subject, if its BeforeMint allows, for a request without
//     a valid one), or 401 when Anonymous is nil (a private site).
//
// The subject comes from the token ("token:" + its Subject) or the cookie
// ("anon:" + a random id), never from the request body.
type Policy struct {
	// Hosts are the Host values the site is served under, host or
	// host:port, compared case-insensitively. Empty allows any Host.
	Hosts []string
	// Origins are the browser origins allowed to ask, e.g.
	// "https://docs.example.com", compared case-insensitively. A request
	// without Origin (not a browser's cross-origin fetch) is let through.
	Origins []string
	// SameOrigin lets a request whose Origin names the host it came to
	// ask, as the site's own pages do when this server serves them. It
	// applies only when Hosts is set: with any Host allowed, a page on a
	// rebinding name would be its own origin too.
	SameOrigin bool
	// Tokens are the bearer tokens that may ask, each for one subject.
	Tokens []Token
	// Anonymous, when set, lets a request without a token ask as the
	// browser its signed cookie names. Its own Origins are ignored: Policy
	// checks Origins itself.
	Anonymous *CookieAuth
	// FailedAuth, when set, limits refused bearer tokens per client
	// address: once an address has spent it, its requests with a token
	// get 429 before the token is even compared, so guessing is as slow
	// as the limit. A good token is never charged.
	FailedAuth PeekLimiter
	// ClientAddr names the client address for FailedAuth; nil means the
	// TCP peer's.
	ClientAddr ClientAddrFunc

	once    sync.Once
	digests [][sha256.Size]byte // SHA-256 of each token, computed once
}

// Token is one bearer token and the subject it asks as.
type Token struct {
	// Subject names the token's holder; the request's subject is
	// "token:" + Subject, so it must match [A-Za-z0-9._:@-]{1,200}.
	Subject string
	// Secret is the token itself, at least MinTokenBytes bytes. Policy
	// keeps only its SHA-256, so comparisons take the same time whatever
	// the presented token is.
	Secret []byte
}

// Bounds of a Policy.
const (
	MinTokenBytes = 32
	MaxTokens     = 256
	maxTokenLen   = 4096
	tokenPrefix   = "token:"
)

// Public messages of Policy refusals.
const (
	msgHostForbidden   = "The Ask request host is not allowed."
	msgOriginForbidden = "The Ask request origin is not allowed."
)

// ErrInvalid is wrapped by every Validate failure.
var ErrInvalid = errors.New("access: invalid access")

// Validate checks the configuration; New calls it.
func (a *Policy) Validate() error {
	if err := validateTokens(a.Tokens); err != nil {
		return err
	}
	if a.Anonymous == nil && len(a.Tokens) == 0 {
		return fmt.Errorf("%w: neither anonymous access nor tokens: nobody could ask", ErrInvalid)
	}
	if a.Anonymous != nil {
		return a.Anonymous.Validate()
	}
	return nil
}

// validateTokens checks a list of tokens as Validate does: at most
// MaxTokens, each subject well formed and used once, each secret
// MinTokenBytes to 4,096 bytes. Errors never contain a secret.
func validateTokens(tokens []Token) error {
	if len(tokens) > MaxTokens {
		return fmt.Errorf("%w: at most %d tokens", ErrInvalid, MaxTokens)
	}
	seen := make(map[string]bool, len(tokens))
	for i, t := range tokens {
		if t.Subject == "" || len(t.Subject) > 200 || !ValidSubject(tokenPrefix+t.Subject) {
			return fmt.Errorf("%w: tokens[%d].subject must match [A-Za-z0-9._:@-]{1,200}", ErrInvalid, i)
		}
		if len(t.Secret) < MinTokenBytes || len(t.Secret) > maxTokenLen {
			return fmt.Errorf("%w: tokens[%d] must be %d to %d bytes", ErrInvalid, i, MinTokenBytes, maxTokenLen)
		}
		if seen[t.Subject] {
			return fmt.Errorf("%w: tokens[%d].subject is used twice", ErrInvalid, i)
		}
		seen[t.Subject] = true
	}
	return nil
}

// sameOrigin reports whether origin is the page's own, on a host Hosts
// allows. The scheme is not compared: behind a TLS-terminating proxy the
// server sees http while the browser says https.
func (a *Policy) sameOrigin(origin string, r *http.Request) bool {
	_, host, ok := strings.Cut(origin, "://")
	return a.SameOrigin && len(a.Hosts) > 0 && ok && strings.EqualFold(host, r.Host)
}

// Authenticate implements Authenticator.
func (a *Policy) Authenticate(w http.ResponseWriter, r *http.Request) (string, bool) {
	if len(a.Hosts) > 0 && !containsFold(a.Hosts, r.Host) {
		apierr.Write(w, &apierr.Error{Status: http.StatusForbidden, Code: protocol.CodeAskForbidden, Message: msgHostForbidden})
		return "", false
	}
	// Two Origin headers are no browser's: refuse rather than trust
	// whichever one a proxy or this check happens to read.
	if origins := r.Header.Values("Origin"); len(origins) > 1 {
		apierr.Write(w, &apierr.Error{Status: http.StatusForbidden, Code: protocol.CodeAskForbidden, Message: msgOriginForbidden})
		return "", false
	}
	if origin := r.Header.Get("Origin"); origin != "" && !containsFold(a.Origins, origin) && !a.sameOrigin(origin, r) {
		apierr.Write(w, &apierr.Error{Status: http.StatusForbidden, Code: protocol.CodeAskForbidden, Message: msgOriginForbidden})
		return "", false
	}
	if auth, ok := r.Header["Authorization"]; ok {
		var addr string
		if a.FailedAuth != nil {
			addr = a.clientAddr(r)
			// A limit that fails refuses (503): checking tokens unlimited
			// while it is down is what the limit exists to prevent.
			if ok, after, err := a.FailedAuth.Check(r.Context(), addr); !ok {
				apierr.WriteLimit(w, after, err)
				return "", false
			}
		}
		if subject, ok := a.token(auth); ok {
			return subject, true
		}
		if a.FailedAuth != nil {
			// The token is refused whether or not the charge lands.
			a.FailedAuth.Spend(r.Context(), addr)
		}
		apierr.WriteUnauthorized(w)
		return "", false
	}
	if a.Anonymous == nil {
		apierr.WriteUnauthorized(w)
		return "", false
	}
	subject, _ := a.Anonymous.Subject(w, r)
	return subject, subject != ""
}

// token returns the subject of the one well-formed bearer token among the
// Authorization values. Every known token is compared, in constant time
// over SHA-256 digests, so timing says nothing about which one is near.
func (a *Policy) token(values []string) (string, bool) {
	if len(values) != 1 || len(values[0]) > maxTokenLen+len("Bearer ") {
		return "", false
	}
	scheme, tok, ok := strings.Cut(values[0], " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" {
		return "", false
	}
	a.once.Do(func() {
		for _, t := range a.Tokens {
			a.digests = append(a.digests, sha256.Sum256(t.Secret))
		}
	})
	got := sha256.Sum256([]byte(tok))
	match := -1
	for i := range a.digests {
		if subtle.ConstantTimeCompare(got[:], a.digests[i][:]) == 1 {
			match = i
		}
	}
	if match < 0 {
		return "", false
	}
	return tokenPrefix + a.Tokens[match].Subject, true
}

func (a *Policy) clientAddr(r *http.Request) string {
	if a.ClientAddr != nil {
		return a.ClientAddr(r)
	}
	return limit.ClientAddr{}.Key(r)
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

var _ Authenticator = (*Policy)(nil)
