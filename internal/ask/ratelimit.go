package ask

import (
	"context"
	"net/http"
	"time"

	"github.com/askplane/askplane/internal/limit"
	"github.com/askplane/askplane/internal/protocol"
)

// Limiter spends one request of a key's budget, or says how long until
// it may. internal/limit's Keyed is the one the sidecar uses.
type Limiter interface {
	Allow(key string) (ok bool, retryAfter time.Duration)
}

// PeekLimiter is a Limiter that can also tell, spending nothing, whether
// a key has budget left: what limiting failed attempts needs, since only
// a failure is charged but every attempt is checked first.
type PeekLimiter interface {
	Limiter
	Peek(key string) (ok bool, retryAfter time.Duration)
}

// Gate caps work done at once. Acquire returns a release func, or an
// error once the wait it allows is over (or ctx is done). internal/limit's
// Gate is the one the sidecar uses.
type Gate interface {
	Acquire(ctx context.Context) (release func(), err error)
}

// ClientAddrFunc names the client address a request came from, as the
// key of the limits kept per address (internal/limit's ClientAddr.Key).
type ClientAddrFunc func(*http.Request) string

// rateLimited is the 429 of a spent budget.
func rateLimited(after time.Duration) *Error {
	return &Error{Status: http.StatusTooManyRequests, Code: protocol.CodeAskRateLimited,
		Message: msgRateLimited, Retryable: true, RetryAfter: max(after, time.Second)}
}

// LimitMints returns a CookieAuth.BeforeMint that lets each client
// address mint subjects within l's budget and answers 429
// ASK_RATE_LIMITED past it: a client that never keeps its cookie gets a
// new subject, and a fresh per-subject budget, only as often as l allows.
func LimitMints(l Limiter, addr ClientAddrFunc) func(http.ResponseWriter, *http.Request) bool {
	if addr == nil {
		addr = limit.ClientAddr{}.Key
	}
	return func(w http.ResponseWriter, r *http.Request) bool {
		if ok, after := l.Allow(addr(r)); !ok {
			writeError(w, rateLimited(after))
			return false
		}
		return true
	}
}
