package access

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/askplane/askplane/internal/apierr"
	"github.com/askplane/askplane/internal/limit"
)

// Limiter spends one request of a key's budget, or says how long until
// it may. internal/limit's Keyed (one instance) and the PostgreSQL store's
// shared limiter (several) are the ones the sidecar uses; see
// limit.Limiter for what an error means.
type Limiter interface {
	Spend(ctx context.Context, key string) (ok bool, retryAfter time.Duration, err error)
}

// PeekLimiter is a Limiter that can also tell, spending nothing, whether
// a key has budget left: what limiting failed attempts needs, since only
// a failure is charged but every attempt is checked first.
type PeekLimiter interface {
	Limiter
	Check(ctx context.Context, key string) (ok bool, retryAfter time.Duration, err error)
}

// ClientAddrFunc names the client address a request came from, as the
// key of the limits kept per address (internal/limit's ClientAddr.Key).
type ClientAddrFunc func(*http.Request) string

// LimitMints returns a CookieAuth.BeforeMint that lets each client
// address mint subjects within l's budget and answers 429
// ASK_RATE_LIMITED past it: a client that never keeps its cookie gets a
// new subject, and a fresh per-subject budget, only as often as l allows.
// A limit that fails answers 503 (see limit.Limiter); log may be nil.
func LimitMints(l Limiter, addr ClientAddrFunc, log *slog.Logger) func(http.ResponseWriter, *http.Request) bool {
	if addr == nil {
		addr = limit.ClientAddr{}.Key
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return func(w http.ResponseWriter, r *http.Request) bool {
		if e, cause := spend(r.Context(), l, addr(r)); e != nil {
			if cause != nil {
				log.Error("ask: a rate limit could not be consulted; refusing", "err", cause)
			}
			apierr.Write(w, e)
			return false
		}
		return true
	}
}
