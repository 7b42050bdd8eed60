package access

import (
	"context"
	"errors"
	"net/http"

	"github.com/askplane/askplane/internal/apierr"
	"github.com/askplane/askplane/internal/limit"
)

// The per-site rules of /v1/ask and the routes beside it that read no
// body (forget, the run routes), as func(http.Handler) http.Handler
// wrappers, one rule each. Site.Wrap composes them in the one order that
// decides which refusal a request breaking several rules gets: the client
// address's budget, then who asks (Host, Origin, token, cookie: the
// Authenticator), then the ?corpus= and ?persona= hints, then the
// subject's budget. None reads the body: a request is authenticated and
// its site resolved before anything reads it.
//
// A wrapper that refuses hands the refusal to the route's Refuse, which
// answers it as the route answers its own failures (request id, metrics,
// the connection closed when a body is left unread); only the
// Authenticator writes its own refusals.

// Refuse answers a request a wrapper refused. err is an *apierr.Error, or
// ErrInvalidSubject (the route's internal error); cause, when not nil, is
// why a limit could not be consulted, for the route's log.
type Refuse func(w http.ResponseWriter, r *http.Request, err error, cause error)

// ErrInvalidSubject is refused when an Authenticator returns a subject
// outside the subject pattern: the server's fault, never the client's.
var ErrInvalidSubject = errors.New("access: the authenticator returned an invalid subject")

type subjectKey struct{}

// SubjectOf is the subject Authenticate established for the request
// whose context ctx is, or "" before it.
func SubjectOf(ctx context.Context) string {
	s, _ := ctx.Value(subjectKey{}).(string)
	return s
}

// Site is one site's per-site rules. The zero value of a limiter skips
// its rule; Auth is required.
type Site struct {
	// AddressLimiter limits the requests from one client address, keyed
	// by ClientAddr, before anyone is authenticated: a client that drops
	// its cookie gets a new subject each time, never a new address.
	AddressLimiter Limiter
	// ClientAddr names a request's client address; nil means the TCP
	// peer's (limit.ClientAddr{}.Key).
	ClientAddr ClientAddrFunc
	// Auth says who asks (a Policy for a configured site).
	Auth Authenticator
	// Corpus and Persona are the trusted ids the ?corpus= and ?persona=
	// hints must name, when present.
	Corpus, Persona string
	// SubjectLimiter limits each subject's requests to this site.
	SubjectLimiter Limiter
	// Refuse answers the wrappers' refusals.
	Refuse Refuse
}

// Wrap puts next behind the site's rules, in their order.
func (s Site) Wrap(next http.Handler) http.Handler {
	next = LimitSubject(s.SubjectLimiter, s.Refuse)(next)
	next = MatchHints(s.Corpus, s.Persona, s.Refuse)(next)
	next = Authenticate(s.Auth, s.Refuse)(next)
	return LimitAddress(s.AddressLimiter, s.ClientAddr, s.Refuse)(next)
}

// LimitAddress spends the client address's budget with l (nil: no
// limit): 429 ASK_RATE_LIMITED past it, 503 when l cannot be consulted.
func LimitAddress(l Limiter, addr ClientAddrFunc, refuse Refuse) func(http.Handler) http.Handler {
	if addr == nil {
		addr = limit.ClientAddr{}.Key
	}
	return func(next http.Handler) http.Handler {
		if l == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if e, cause := spend(r.Context(), l, addr(r)); e != nil {
				refuse(w, r, e, cause)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// Authenticate asks a who the request's subject is and hands next the
// request with it (SubjectOf). a writes its own refusals, and those close
// the connection as the route's own do; a subject outside the pattern is
// refused with ErrInvalidSubject.
func Authenticate(a Authenticator, refuse Refuse) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			subject, ok := a.Authenticate(refusalCloser{w, r}, r)
			switch {
			case !ok:
				return
			case !ValidSubject(subject):
				refuse(w, r, ErrInvalidSubject, nil)
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), subjectKey{}, subject)))
		})
	}
}

// MatchHints fails closed: the ?corpus= and ?persona= hints, when
// present, must all name the site's trusted ids, or 403 ASK_FORBIDDEN.
func MatchHints(corpus, persona string, refuse Refuse) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			q := r.URL.Query()
			if !allAre(q["corpus"], corpus) || !allAre(q["persona"], persona) {
				refuse(w, r, apierr.Forbidden, nil)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// LimitSubject spends the authenticated subject's budget with l (nil: no
// limit), as LimitAddress does the address's.
func LimitSubject(l Limiter, refuse Refuse) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if l == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if e, cause := spend(r.Context(), l, SubjectOf(r.Context())); e != nil {
				refuse(w, r, e, cause)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// spend spends key's budget with l: nil to go on, the 429 of a spent
// budget, or the 503 of a limit that failed, with the cause for the
// route's log (see limit.Limiter for what an error means).
func spend(ctx context.Context, l Limiter, key string) (*apierr.Error, error) {
	ok, after, err := l.Spend(ctx, key)
	switch {
	case err != nil:
		return apierr.LimitUnavailable, err
	case !ok:
		return apierr.RateLimited(after), nil
	}
	return nil, nil
}

func allAre(values []string, want string) bool {
	for _, v := range values {
		if v != want {
			return false
		}
	}
	return true
}

// refusalCloser is the ResponseWriter an Authenticator gets: the refusals
// it writes itself close the connection as the route's own do.
type refusalCloser struct {
	http.ResponseWriter
	r *http.Request
}

func (w refusalCloser) WriteHeader(status int) {
	if status >= 400 {
		apierr.CloseUnread(w.ResponseWriter, w.r)
	}
	w.ResponseWriter.WriteHeader(status)
}

// Unwrap lets http.ResponseController reach the connection.
func (w refusalCloser) Unwrap() http.ResponseWriter { return w.ResponseWriter }
