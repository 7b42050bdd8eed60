// Package apierr is how every JSON route of the sidecar refuses a
// request: an Error (a status and the public diagnostic {code, message,
// retryable}, with an optional Retry-After) and Write, which sends it as
// {"error":{"code","message","retryable"}}. /v1/ask and its run routes,
// feedback, MCP and the guard in front of them all write through it, so a
// client reads one shape whatever route refused it; the bytes are the
// protocol's (testdata/conformance pins them).
//
// The refusals several routes share (Forbidden, RateLimited,
// LimitUnavailable, the 401 of WriteUnauthorized) are here too; a route's
// own refusals stay with the route.
package apierr

import (
	"net/http"
	"strconv"
	"time"

	"github.com/askplane/askplane/internal/ecmajson"
	"github.com/askplane/askplane/internal/protocol"
)

// Error is a refusal sent before any answer starts: a status and the
// public diagnostic. Messages are fixed strings that never echo the
// request or an internal cause.
type Error struct {
	Status     int
	Code       protocol.Code
	Message    string
	Retryable  bool
	RetryAfter time.Duration // > 0 adds a retry-after header (whole seconds, rounded up)
}

func (e *Error) Error() string { return "ask: " + string(e.Code) + ": " + e.Message }

// Write sends e as {"error":{"code","message","retryable"}} with
// content-type application/json; charset=utf-8, cache-control no-store,
// nosniff and (when set) retry-after. x-request-id, when the route has
// one, is set beforehand.
func Write(w http.ResponseWriter, e *Error) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if e.RetryAfter > 0 {
		secs := (e.RetryAfter + time.Second - 1) / time.Second
		h.Set("Retry-After", strconv.FormatInt(int64(secs), 10))
	}
	body := Body(e)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(e.Status)
	w.Write(body)
}

// Body is e's response body.
func Body(e *Error) []byte {
	var w ecmajson.Writer
	w.BeginObject()
	w.Key("error")
	w.BeginObject()
	w.StringMember("code", string(e.Code))
	w.StringMember("message", e.Message)
	w.Key("retryable")
	w.Bool(e.Retryable)
	w.EndObject()
	w.EndObject()
	return w.Bytes()
}

// CloseUnread marks a refusal written before the body was read
// "Connection: close". Without it net/http reads what is left of the body
// before it sends the refusal (so that the connection can be reused), and
// a client that announced a body and never sends it holds the refusal
// until the read deadline. Refused, it has no connection to reuse.
func CloseUnread(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength != 0 {
		w.Header().Set("Connection", "close")
	}
}
