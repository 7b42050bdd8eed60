package limit

import (
	"context"
	"sync/atomic"
	"time"
)

// Gate caps concurrent work, such as one site's model generations: at most
// Slots holders at once, and at most Queue callers waiting, each for at
// most MaxWait, for a slot to free. Keyed limits bound each client; a Gate
// bounds what all clients together, however many keys they have, can make
// the provider do at once. It is safe for concurrent use.
//
// Waiting is short because a queued request holds a connection and its
// client is watching a spinner: past a couple of seconds a prompt "busy,
// retry" is the better answer. Waiters are served roughly in order, but a
// caller arriving just as a slot frees may take it first.
type Gate struct {
	slots   chan struct{} // one element per holder
	queue   int64
	maxWait time.Duration
	waiting atomic.Int64
}

// GateConfig configures a Gate.
type GateConfig struct {
	Slots int // 1 to 65,536
	Queue int // 0 (no waiting) to 65,536
	// MaxWait bounds one caller's wait in the queue: 0 to a minute,
	// positive when Queue is.
	MaxWait time.Duration
}

// Validate returns ErrGateSlots, ErrGateQueue or ErrGateWait for a config
// out of bounds.
func (c GateConfig) Validate() error {
	switch {
	case c.Slots < 1 || c.Slots > 1<<16:
		return ErrGateSlots
	case c.Queue < 0 || c.Queue > 1<<16:
		return ErrGateQueue
	case c.MaxWait < 0 || c.MaxWait > time.Minute || (c.Queue > 0) != (c.MaxWait > 0):
		return ErrGateWait
	}
	return nil
}

// NewGate validates c and returns its Gate.
func NewGate(c GateConfig) (*Gate, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Gate{slots: make(chan struct{}, c.Slots), queue: int64(c.Queue), maxWait: c.MaxWait}, nil
}

// Acquire takes a slot, waiting in the queue if every slot is taken. On
// success the caller must call release once the work is done; calling it
// again does nothing, so it is safe to defer it and also call it early.
//
// It fails with ErrQueueFull at once when the queue is full, with
// ErrWaitExpired after MaxWait (both CodeBusy, with RetryAfter), or, when
// ctx ends first or was already done, with a CodeCanceled *Error that
// wraps context.Cause(ctx). A failed Acquire holds nothing.
func (g *Gate) Acquire(ctx context.Context) (release func(), err error) {
	if ctx.Err() != nil {
		return nil, canceled(ctx)
	}
	select {
	case g.slots <- struct{}{}:
		return g.releaser(), nil
	default:
	}
	if g.waiting.Add(1) > g.queue {
		g.waiting.Add(-1)
		return nil, ErrQueueFull
	}
	defer g.waiting.Add(-1)
	t := time.NewTimer(g.maxWait)
	defer t.Stop()
	// Exactly one case runs, so a slot is either taken and handed back as
	// release, or not taken at all.
	select {
	case g.slots <- struct{}{}:
		return g.releaser(), nil
	case <-ctx.Done():
		return nil, canceled(ctx)
	case <-t.C:
		return nil, ErrWaitExpired
	}
}

func (g *Gate) releaser() func() {
	var done atomic.Bool
	return func() {
		if done.CompareAndSwap(false, true) {
			<-g.slots
		}
	}
}

func canceled(ctx context.Context) error {
	return &Error{Code: CodeCanceled, Message: "the request ended while waiting for a slot", cause: context.Cause(ctx)}
}

// InUse returns the number of slots held now.
func (g *Gate) InUse() int { return len(g.slots) }

// Waiting returns the number of callers queued now. (A caller refused for
// a full queue counts itself for an instant; that is not reported.)
func (g *Gate) Waiting() int { return int(min(g.waiting.Load(), g.queue)) }
