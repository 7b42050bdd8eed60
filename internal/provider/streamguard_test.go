package provider

import (
	"errors"
	"testing"
)

// TestStreamGuard pins the rules every adapter's Accumulator gets from
// StreamGuard: no response before the terminal event, nothing after it,
// and a first refusal that every later call repeats.
func TestStreamGuard(t *testing.T) {
	code := func(err error) string {
		var e *Error
		if errors.As(err, &e) {
			return e.Code + ": " + e.Message
		}
		return "not an *Error"
	}
	g := StreamGuard{Terminal: "message_stop"}
	if err := g.Check(); err != nil {
		t.Fatalf("fresh guard refused: %v", err)
	}
	if _, err := g.Response(); code(err) != CodeStreamTruncated+": the stream has no message_stop" {
		t.Errorf("response before the terminal event: %s", code(err))
	}
	g.Finish(Response{Text: "done"})
	if r, err := g.Response(); !g.Done() || err != nil || r.Text != "done" {
		t.Fatalf("after Finish: done %v, %+v, %v", g.Done(), r, err)
	}
	err := g.Check()
	if code(err) != CodeStreamInvalid+": an event followed message_stop" {
		t.Fatalf("event after the terminal one: %s", code(err))
	}
	if g.Done() || g.Check() != err {
		t.Error("a refused stream reports Done or forgets its refusal")
	}
	if _, rerr := g.Response(); rerr != err {
		t.Errorf("Response after a refusal: %v", rerr)
	}
}
