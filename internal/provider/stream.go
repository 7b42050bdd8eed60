package provider

import (
	"context"
	"errors"
	"io"
)

// Accumulator turns one provider's SSE events into a completed Response.
// It must refuse anything that is not a proper stream for its provider:
// a missing or repeated start, reordered events, a repeated or replaced
// terminal event, and a terminal event whose final text or usage does not
// match what the deltas built. Once it has refused an event it refuses
// every later one (it is poisoned), so a partial result can never leak.
type Accumulator interface {
	// Add consumes one event and returns the text delta it carries ("" if
	// none). An error is always an *Error.
	Add(ev Event) (delta string, err error)
	// Done reports whether the terminal event was accepted.
	Done() bool
	// Response returns the checked response; an error unless Done.
	Response() (Response, error)
}

// StreamGuard keeps what every Accumulator must: once it refuses an event
// it refuses every later one (the first refusal is kept), nothing may
// follow the terminal event, and there is a response only after the
// terminal event was accepted. An adapter's Accumulator holds one and
// refuses through it, so a partial result can never leak.
type StreamGuard struct {
	// Terminal names the terminal event in messages ("message_stop").
	Terminal string
	err      error
	done     bool
	final    Response
}

// Check is what Add does first: the earlier refusal again, or a new one
// when the terminal event was already accepted.
func (g *StreamGuard) Check() error {
	if g.err != nil {
		return g.err
	}
	if g.done {
		return g.Fail(StreamInvalid("an event followed " + g.Terminal))
	}
	return nil
}

// Fail poisons the stream with err (an *Error) and returns it.
func (g *StreamGuard) Fail(err error) error {
	g.err = err
	return err
}

// Finish accepts the terminal event and the response it completes.
func (g *StreamGuard) Finish(r Response) { g.final, g.done = r, true }

// Done reports whether the terminal event was accepted.
func (g *StreamGuard) Done() bool { return g.done && g.err == nil }

// Response returns the checked response once Done.
func (g *StreamGuard) Response() (Response, error) {
	if g.err != nil {
		return Response{}, g.err
	}
	if !g.done {
		return Response{}, NewError(CodeStreamTruncated, "the stream has no "+g.Terminal)
	}
	return g.final, nil
}

// Stream makes one streaming call: it feeds every event through acc,
// passes text deltas to onDelta as they arrive, and returns the response
// only when the stream ended properly: the terminal event was accepted
// and nothing but comments followed it before EOF.
func (t *Transport) Stream(ctx context.Context, call Call, acc Accumulator, onDelta func(string) error) (Response, error) {
	call.Stream = true
	a := t.begin(ctx, call)
	defer a.cancel()
	resp, n, perr := a.stream(acc, onDelta)
	t.logCall(a, int(n), perr)
	if perr != nil {
		return Response{}, perr
	}
	return resp, nil
}

func (a *attempt) stream(acc Accumulator, onDelta func(string) error) (Response, int64, *Error) {
	resp, perr := a.send()
	if perr != nil {
		return Response{}, 0, perr
	}
	defer resp.Body.Close()
	status := resp.StatusCode
	if !mediaType(resp.Header.Get("Content-Type"), "text/event-stream") {
		return Response{}, 0, &Error{Code: CodeResponseMalformed, Message: "the response is not text/event-stream", Status: status}
	}
	sse := NewSSEReader(resp.Body, a.t.limits)
	var events int64
	for {
		ev, err := sse.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Response{}, sse.total, a.sseError(err, status)
		}
		events++
		if events > a.t.limits.MaxStreamEvents {
			return Response{}, sse.total, &Error{Code: CodeStreamTooLarge, Message: "the stream has more events than maxStreamEvents", Status: status}
		}
		if acc.Done() {
			return Response{}, sse.total, &Error{Code: CodeStreamInvalid, Message: "an event followed the terminal event", Status: status}
		}
		delta, err := acc.Add(ev)
		if err != nil {
			return Response{}, sse.total, a.fail(err, &Error{Code: CodeStreamInvalid, Message: "the stream was refused", Status: status})
		}
		if delta != "" && onDelta != nil {
			if err := onDelta(delta); err != nil {
				if s := a.stopped(); s != nil {
					return Response{}, sse.total, s
				}
				return Response{}, sse.total, (&Error{Code: CodeDeltaRejected, Message: "the delta callback stopped the stream"}).withCause(err)
			}
		}
		if s := a.stopped(); s != nil {
			return Response{}, sse.total, s
		}
	}
	if !acc.Done() {
		if s := a.stopped(); s != nil {
			return Response{}, sse.total, s
		}
		return Response{}, sse.total, &Error{Code: CodeStreamTruncated, Message: "the stream ended before its terminal event", Status: status}
	}
	out, err := acc.Response()
	if err != nil {
		return Response{}, sse.total, a.fail(err, &Error{Code: CodeStreamInvalid, Message: "the stream was refused", Status: status})
	}
	out.RequestID = a.reqID
	out.Model = a.t.scrub(out.Model)
	return out, sse.total, nil
}

func (a *attempt) sseError(err error, status int) *Error {
	if s := a.stopped(); s != nil {
		return s
	}
	e := &Error{Status: status}
	switch {
	case errors.Is(err, ErrSSELineTooLarge):
		e.Code, e.Message = CodeStreamTooLarge, "an SSE line is larger than maxSSELineBytes"
	case errors.Is(err, ErrSSEEventTooLarge):
		e.Code, e.Message = CodeStreamTooLarge, "an SSE event is larger than maxSSEEventBytes"
	case errors.Is(err, ErrSSEStreamTooLarge):
		e.Code, e.Message = CodeStreamTooLarge, "the stream is larger than maxStreamBytes"
	case errors.Is(err, ErrSSEInvalidUTF8):
		e.Code, e.Message = CodeResponseMalformed, "an SSE event is not valid UTF-8"
	default:
		// The connection broke mid-stream: the terminal event never came.
		e.Code, e.Message = CodeStreamTruncated, "the stream was interrupted before its terminal event"
		e.cause = err
	}
	return e
}
