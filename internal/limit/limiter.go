package limit

import (
	"context"
	"time"
)

// Limiter is a keyed rate limit as the handlers consume it: Keyed in this
// process, or one several instances share (the PostgreSQL store's), so
// that N instances together allow what one would.
//
// Spend spends one request of key's budget, as Keyed.Allow does; Check
// says what Spend would say without spending, as Keyed.Peek does. A limit
// kept outside the process can fail to answer: err is then a CodeUnavailable
// *Error and ok is false. Callers refuse on any error — a limit that cannot
// be read is not lifted — and answer with a retryable 503, not a 429,
// because the client spent nothing.
type Limiter interface {
	Spend(ctx context.Context, key string) (ok bool, retryAfter time.Duration, err error)
	Check(ctx context.Context, key string) (ok bool, retryAfter time.Duration, err error)
}

// Acquirer caps work done at once: Gate in this process, or a cap several
// instances share. Acquire returns the release func, or an *Error: CodeBusy
// (no slot within the wait), CodeCanceled (ctx ended) or, for a shared
// cap, CodeUnavailable (its database did not answer; nothing is held).
type Acquirer interface {
	Acquire(ctx context.Context) (release func(), err error)
}

// UnavailableRetryAfter is the Retry-After a CodeUnavailable refusal
// suggests: long enough for a database failover or a pool to free a
// connection, short enough that a reader retrying by hand is not kept out.
const UnavailableRetryAfter = 2 * time.Second

// Unavailable wraps the failure of a shared limit's backend: a
// CodeUnavailable *Error whose Unwrap returns cause (so
// errors.Is(err, context.DeadlineExceeded) works). Its message names no key.
func Unavailable(cause error) error {
	return &Error{Code: CodeUnavailable, Message: "the shared limit could not be consulted", RetryAfter: UnavailableRetryAfter, cause: cause}
}

// Spend is Allow as a Limiter; an in-process limit never fails.
func (k *Keyed) Spend(_ context.Context, key string) (bool, time.Duration, error) {
	ok, after := k.Allow(key)
	return ok, after, nil
}

// Check is Peek as a Limiter.
func (k *Keyed) Check(_ context.Context, key string) (bool, time.Duration, error) {
	ok, after := k.Peek(key)
	return ok, after, nil
}

var (
	_ Limiter  = (*Keyed)(nil)
	_ Acquirer = (*Gate)(nil)
)

// Canceled is the CodeCanceled refusal of an Acquirer whose ctx ended
// before a slot was free; it wraps context.Cause(ctx), as Gate's does.
func Canceled(ctx context.Context) error { return canceled(ctx) }

// ErrKeyTooLong: a key longer than MaxKeyBytes was given to a shared
// limit; it is refused (CodeUnavailable) rather than stored.
var ErrKeyTooLong error = &Error{Code: CodeUnavailable, Message: "the key is longer than MaxKeyBytes", RetryAfter: UnavailableRetryAfter}

// MaxKeyBytes bounds a key a shared limit accepts. The keys the sidecar
// uses (client addresses, subjects) are far shorter; a shared limit hashes
// each key, so what it stores is 32 bytes whatever the bound.
const MaxKeyBytes = 1024
