package store

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// CodeWriteFailed: the store's last write failed for a reason of the
// backend's (a full disk, an I/O error) and no write has succeeded since.
// Check (so /ready) and Writable report it until one does; a probe write
// tries again at most once every probeEvery.
const CodeWriteFailed Code = "STORE_WRITE_FAILED"

// probeEvery bounds the probe writes a faulted store makes.
const probeEvery = time.Second

const reasonWriteFailed = "the last write failed (disk full or an I/O error) and none has succeeded since"

// writeHealth remembers whether a backend's writes fail. Every write
// reports its result (note); a success clears the fault, a failure that is
// not the caller's own deadline or cancellation sets it.
type writeHealth struct {
	faulted  atomic.Bool
	mu       sync.Mutex // serialises probes
	probedAt time.Time
	// inject, for tests, fails the writes and probes it returns an error
	// for, as a full disk would.
	inject func(op string) error
}

// injected is the test fault for op, or nil.
func (h *writeHealth) injected(op string) error {
	if h.inject == nil {
		return nil
	}
	return h.inject(op)
}

// note records a write's result.
func (h *writeHealth) note(ctx context.Context, err error) {
	switch {
	case err == nil:
		h.faulted.Store(false)
	case ctx.Err() != nil, errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		// the caller's deadline, not the backend's fault
	default:
		h.faulted.Store(true)
	}
}

// writable is nil unless the last write failed; then it probes (at most
// once every probeEvery, others waiting for that probe's answer) and is
// nil only if the probe wrote.
func (h *writeHealth) writable(ctx context.Context, op string, probe func(ctx context.Context) error) error {
	if !h.faulted.Load() {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.faulted.Load() && time.Since(h.probedAt) >= probeEvery {
		h.probedAt = time.Now()
		pctx, cancel := context.WithTimeout(ctx, CheckTimeout)
		err := h.injected("probe")
		if err == nil {
			err = probe(pctx)
		}
		h.note(pctx, err)
		cancel()
	}
	if h.faulted.Load() {
		return &Error{Code: CodeWriteFailed, Op: op, Reason: reasonWriteFailed}
	}
	return nil
}

// runWrites are the run operations that write: their backend failures
// count as write faults (a read's do not).
var runWrites = map[string]bool{"admit": true, "claim": true, "renew": true, "begin attempt": true, "commit": true, "cancel": true, "prune runs": true}
