package provider

import (
	"strconv"
	"strings"
	"time"
)

// Stable error codes. Callers branch on Code (never on Message); the codes
// are part of the contract with internal/contract and the sidecar's logs.
const (
	CodeConfigInvalid         = "PROVIDER_CONFIG_INVALID"
	CodeCredentialMissing     = "PROVIDER_CREDENTIAL_MISSING"
	CodeEndpointRefused       = "PROVIDER_ENDPOINT_REFUSED"
	CodeRequestInvalid        = "PROVIDER_REQUEST_INVALID"
	CodeRequestTooLarge       = "PROVIDER_REQUEST_TOO_LARGE"
	CodeStreamingUnsupported  = "PROVIDER_STREAMING_UNSUPPORTED"
	CodeTransport             = "PROVIDER_TRANSPORT"
	CodeRedirectRefused       = "PROVIDER_REDIRECT_REFUSED"
	CodeBadRequest            = "PROVIDER_BAD_REQUEST"
	CodeUnauthenticated       = "PROVIDER_UNAUTHENTICATED"
	CodePermissionDenied      = "PROVIDER_PERMISSION_DENIED"
	CodeNotFound              = "PROVIDER_NOT_FOUND"
	CodeRateLimited           = "PROVIDER_RATE_LIMITED"
	CodeUnavailable           = "PROVIDER_UNAVAILABLE"
	CodeUnexpectedStatus      = "PROVIDER_UNEXPECTED_STATUS"
	CodeResponseTooLarge      = "PROVIDER_RESPONSE_TOO_LARGE"
	CodeResponseMalformed     = "PROVIDER_RESPONSE_MALFORMED"
	CodeRefused               = "PROVIDER_REFUSED"
	CodeFailed                = "PROVIDER_FAILED"
	CodeStreamTooLarge        = "PROVIDER_STREAM_TOO_LARGE"
	CodeStreamTruncated       = "PROVIDER_STREAM_TRUNCATED"
	CodeStreamInvalid         = "PROVIDER_STREAM_INVALID"
	CodeStreamMismatch        = "PROVIDER_STREAM_MISMATCH"
	CodeDeltaRejected         = "PROVIDER_DELTA_REJECTED"
	CodeCancelled             = "PROVIDER_CANCELLED"
	CodeDeadlineExceeded      = "PROVIDER_DEADLINE_EXCEEDED"
	CodeUnsupportedStopReason = "PROVIDER_UNSUPPORTED_STOP"
)

// Error builds a public-safe message: the code, the fixed message, the
// status and any retry advice. It never includes a payload, a key or the
// wrapped cause's text, because none of those are public-safe.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("provider: ")
	b.WriteString(e.Code)
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Status != 0 {
		b.WriteString(" (HTTP ")
		b.WriteString(strconv.Itoa(e.Status))
		b.WriteString(")")
	}
	if e.RetryAfter > 0 {
		b.WriteString("; retry after ")
		b.WriteString(e.RetryAfter.String())
	}
	return b.String()
}

// Unwrap returns the cause kept for errors.Is (context.Canceled, the
// caller's own onDelta error). The cause is never part of Error().
func (e *Error) Unwrap() error { return e.cause }

// NewError returns an *Error with a fixed, public-safe message. There is
// no Errorf on purpose: messages are fixed strings, so no payload can be
// formatted into one by accident.
func NewError(code, message string) *Error { return &Error{Code: code, Message: message} }

// withCause returns e with cause attached for errors.Is/As only.
func (e *Error) withCause(cause error) *Error { e.cause = cause; return e }

// statusError maps a non-2xx HTTP status to a stable code. It never reads
// the body: provider error bodies can echo prompts.
func statusError(status int, retryAfter time.Duration) *Error {
	e := &Error{Status: status}
	switch {
	case status >= 300 && status < 400:
		e.Code, e.Message = CodeRedirectRefused, "the provider answered with a redirect, which is never followed"
	case status == 400 || status == 413 || status == 422:
		e.Code, e.Message = CodeBadRequest, "the provider rejected the request"
	case status == 401:
		e.Code, e.Message = CodeUnauthenticated, "the provider rejected the credential"
	case status == 403:
		e.Code, e.Message = CodePermissionDenied, "the credential may not use this model or endpoint"
	case status == 404:
		e.Code, e.Message = CodeNotFound, "the provider does not know this endpoint or model"
	case status == 429:
		e.Code, e.Message = CodeRateLimited, "the provider is rate limiting this credential; the call was not retried"
		e.RetryAfter = retryAfter
	case status >= 500:
		e.Code, e.Message = CodeUnavailable, "the provider is unavailable; the call was not retried"
		e.RetryAfter = retryAfter
	default:
		e.Code, e.Message = CodeUnexpectedStatus, "the provider answered with an unexpected status"
	}
	return e
}
