package limit

import "time"

// Error is a refusal or a bad config, with a stable Code to branch on;
// Message is for logs, not for clients.
type Error struct {
	Code    string
	Message string
	// RetryAfter, on a CodeBusy refusal, is how long the caller should
	// tell the client to wait (the Retry-After header).
	RetryAfter time.Duration

	cause error
}

func (e *Error) Error() string { return "limit: " + e.Code + ": " + e.Message }

// Unwrap returns the context's cause on a CodeCanceled error and the
// backend's failure on a CodeUnavailable one, else nil,
// so errors.Is(err, context.Canceled) and context.DeadlineExceeded work.
func (e *Error) Unwrap() error { return e.cause }

// Codes.
const (
	// CodeBusy: the Gate had no free slot within its wait, or its queue was
	// full. The caller answers 503 (or 429) with Retry-After.
	CodeBusy = "limit.busy"
	// CodeCanceled: the caller's context ended before a slot was free; the
	// client went away or a deadline fired, so there is nobody to answer.
	CodeCanceled = "limit.canceled"
	// CodeConfig: a config was rejected by Validate or a constructor.
	CodeConfig = "limit.config"
	// CodeUnavailable: a limit kept outside the process (in PostgreSQL)
	// could not be consulted in time. The request is refused, never let
	// through unlimited; the caller answers a retryable 503.
	CodeUnavailable = "limit.unavailable"
)

// BusyRetryAfter is the Retry-After a Gate refusal suggests: generations
// take seconds, so a second is the soonest a retry has a chance.
const BusyRetryAfter = time.Second

// Gate refusals, both CodeBusy.
var (
	ErrQueueFull   error = &Error{Code: CodeBusy, Message: "every slot is taken and the queue is full", RetryAfter: BusyRetryAfter}
	ErrWaitExpired error = &Error{Code: CodeBusy, Message: "no slot became free within the wait", RetryAfter: BusyRetryAfter}
)

// Config errors, all CodeConfig; constructors may wrap them with the
// field's name, so compare with errors.Is.
var (
	ErrRate      error = &Error{Code: CodeConfig, Message: "Rate needs Requests 1 to 1,000,000 and Window 1 ms to 24 h"}
	ErrMaxKeys   error = &Error{Code: CodeConfig, Message: "MaxKeys must be 0 (the default) to 16,777,216"}
	ErrGateSlots error = &Error{Code: CodeConfig, Message: "Gate Slots must be 1 to 65,536"}
	ErrGateQueue error = &Error{Code: CodeConfig, Message: "Gate Queue must be 0 to 65,536"}
	ErrGateWait  error = &Error{Code: CodeConfig, Message: "Gate MaxWait must be 0 to 1 minute, and positive when Queue is"}
	ErrHeader    error = &Error{Code: CodeConfig, Message: "ClientAddr Header must be empty or a header field name other than Forwarded"}
)
