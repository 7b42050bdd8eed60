package apierr

import (
	"net/http"
	"time"

	"github.com/askplane/askplane/internal/limit"
	"github.com/askplane/askplane/internal/protocol"
)

// Public messages of the shared refusals.
const (
	msgForbidden         = "The Ask request is not allowed for this site."
	msgRateLimited       = "Too many Ask requests; try again later."
	msgLimitsUnavailable = "The Ask service cannot check its limits now; try again shortly."
	msgUnauthorized      = "The Ask request needs a valid bearer token."
)

// Forbidden is 403 ASK_FORBIDDEN: no site can be trusted for the request
// (a hint naming another corpus, a router that finds none).
var Forbidden = &Error{Status: http.StatusForbidden, Code: protocol.CodeAskForbidden, Message: msgForbidden}

// RateLimited is the 429 ASK_RATE_LIMITED of a spent budget, retried
// after at least a second.
func RateLimited(after time.Duration) *Error {
	return &Error{Status: http.StatusTooManyRequests, Code: protocol.CodeAskRateLimited,
		Message: msgRateLimited, Retryable: true, RetryAfter: max(after, time.Second)}
}

// LimitUnavailable is the 503 of a limit that could not be consulted (a
// shared limit's database is down or slow): the request is refused, not
// let through unlimited, and the client, who spent nothing, may retry.
var LimitUnavailable = &Error{Status: http.StatusServiceUnavailable, Code: protocol.CodeAskInternal,
	Message: msgLimitsUnavailable, Retryable: true, RetryAfter: limit.UnavailableRetryAfter}

// WriteLimit answers a refusal of a limit's Spend or Check: 503 when err
// is set (the limit failed), else 429 with Retry-After.
func WriteLimit(w http.ResponseWriter, after time.Duration, err error) {
	if err != nil {
		Write(w, LimitUnavailable)
		return
	}
	Write(w, RateLimited(after))
}

// WriteUnauthorized writes 401 ASK_UNAUTHORIZED with a Bearer challenge.
func WriteUnauthorized(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="askplane"`)
	Write(w, &Error{Status: http.StatusUnauthorized, Code: protocol.CodeAskUnauthorized, Message: msgUnauthorized})
}
