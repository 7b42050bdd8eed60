package loadgen

import (
	"strconv"
	"time"
)

// Outcome classifies one request.
type Outcome string

// Outcomes. Answered, RateLimited and NoSources are designed answers; the
// rest are errors.
const (
	// Answered is a 200 stream that ended with done.
	Answered Outcome = "answered"
	// RateLimited is 429 ASK_RATE_LIMITED.
	RateLimited Outcome = "rate_limited"
	// NoSources is 422 ASK_NO_GROUNDED_SOURCES.
	NoSources Outcome = "no_grounded_sources"
	// HTTPStatus is any other non-200 status.
	HTTPStatus Outcome = "http_status"
	// StreamError is a 200 stream that ended with an error event.
	StreamError Outcome = "stream_error"
	// Incomplete is a 200 stream that ended without done or error.
	Incomplete Outcome = "stream_incomplete"
	// Transport is a failure to connect, send or read.
	Transport Outcome = "transport"
)

// Sample is the measurement of one request.
type Sample struct {
	Outcome Outcome
	Status  int    // HTTP status, 0 on a transport failure
	Code    string // the diagnostic code of an error body or error event
	// FirstEvent is the time to the first NDJSON line of a 200 stream;
	// Total is the time to the end of the body. In an open loop both count
	// from the scheduled arrival, so client-side queueing is included.
	FirstEvent, Total time.Duration
	// Lag is how late the request started after its scheduled arrival
	// (open loop only).
	Lag time.Duration
	// Unanswerable is the question's mark: a 422 for it was designed.
	Unanswerable bool
}

// errorKey names an error sample for the error table: the outcome plus
// the status or code that distinguishes it.
func (s *Sample) errorKey() string {
	switch s.Outcome {
	case HTTPStatus:
		k := "http_" + strconv.Itoa(s.Status)
		if s.Code != "" {
			k += ":" + s.Code
		}
		return k
	case StreamError:
		if s.Code != "" {
			return string(s.Outcome) + ":" + s.Code
		}
	}
	return string(s.Outcome)
}
