package limit

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func newTestGate(t testing.TB, c GateConfig) *Gate {
	t.Helper()
	g, err := NewGate(c)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mustAcquire(t *testing.T, g *Gate) func() {
	t.Helper()
	release, err := g.Acquire(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return release
}

// waitFor polls cond, failing the test after a few seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func assertBusy(t *testing.T, err, want error) {
	t.Helper()
	var e *Error
	if !errors.Is(err, want) || !errors.As(err, &e) || e.Code != CodeBusy || e.RetryAfter != BusyRetryAfter {
		t.Fatalf("err %v, want %v with code %s and RetryAfter %v", err, want, CodeBusy, BusyRetryAfter)
	}
}

func TestGateNoQueueRefusesAtOnce(t *testing.T) {
	g := newTestGate(t, GateConfig{Slots: 2})
	r1, r2 := mustAcquire(t, g), mustAcquire(t, g)
	release, err := g.Acquire(t.Context())
	if release != nil {
		t.Fatal("refusal returned a release")
	}
	assertBusy(t, err, ErrQueueFull)
	r1()
	r3 := mustAcquire(t, g)
	r2()
	r3()
	if g.InUse() != 0 {
		t.Fatalf("InUse %d after releasing all", g.InUse())
	}
}

func TestGateReleaseIsIdempotent(t *testing.T) {
	g := newTestGate(t, GateConfig{Slots: 2})
	r1, r2 := mustAcquire(t, g), mustAcquire(t, g)
	for range 3 {
		r1() // must not free r2's slot
	}
	if g.InUse() != 1 {
		t.Fatalf("InUse %d after releasing one of two thrice, want 1", g.InUse())
	}
	r3 := mustAcquire(t, g)
	if _, err := g.Acquire(t.Context()); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("a third holder got in: %v", err)
	}
	r2()
	r3()
	r3()
	if g.InUse() != 0 {
		t.Fatalf("InUse %d", g.InUse())
	}
}

func TestGateWaitExpires(t *testing.T) {
	const wait = 30 * time.Millisecond
	g := newTestGate(t, GateConfig{Slots: 1, Queue: 1, MaxWait: wait})
	defer mustAcquire(t, g)()
	start := time.Now()
	_, err := g.Acquire(t.Context())
	assertBusy(t, err, ErrWaitExpired)
	if d := time.Since(start); d < wait {
		t.Fatalf("refused after %v, before MaxWait %v", d, wait)
	}
	if g.Waiting() != 0 || g.InUse() != 1 {
		t.Fatalf("Waiting %d InUse %d after the wait expired", g.Waiting(), g.InUse())
	}
}

func TestGateQueueServesWaiterAndBoundsQueue(t *testing.T) {
	g := newTestGate(t, GateConfig{Slots: 1, Queue: 1, MaxWait: time.Minute})
	hold := mustAcquire(t, g)
	got := make(chan error, 1)
	go func() {
		release, err := g.Acquire(context.Background())
		if err == nil {
			release()
		}
		got <- err
	}()
	waitFor(t, "the waiter to queue", func() bool { return g.Waiting() == 1 })
	start := time.Now()
	_, err := g.Acquire(t.Context())
	assertBusy(t, err, ErrQueueFull)
	if d := time.Since(start); d > time.Second {
		t.Fatalf("a full queue refused after %v, not at once", d)
	}
	hold()
	if err := <-got; err != nil {
		t.Fatalf("waiter: %v", err)
	}
	if g.InUse() != 0 || g.Waiting() != 0 {
		t.Fatalf("InUse %d Waiting %d", g.InUse(), g.Waiting())
	}
}

func TestGateCancelWhileQueued(t *testing.T) {
	g := newTestGate(t, GateConfig{Slots: 1, Queue: 4, MaxWait: time.Minute})
	hold := mustAcquire(t, g)
	cause := errors.New("client went away")
	ctx, cancel := context.WithCancelCause(context.Background())
	got := make(chan error, 1)
	go func() {
		release, err := g.Acquire(ctx)
		if release != nil {
			t.Error("canceled Acquire returned a release")
		}
		got <- err
	}()
	waitFor(t, "the waiter to queue", func() bool { return g.Waiting() == 1 })
	cancel(cause)
	err := <-got
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeCanceled || !errors.Is(err, cause) {
		t.Fatalf("err %v, want code %s wrapping the cause", err, CodeCanceled)
	}
	if g.Waiting() != 0 || g.InUse() != 1 {
		t.Fatalf("Waiting %d InUse %d after cancel, want 0 and 1", g.Waiting(), g.InUse())
	}
	hold()
	if g.InUse() != 0 {
		t.Fatalf("a canceled waiter leaked a slot: InUse %d", g.InUse())
	}
	mustAcquire(t, g)()
}

func TestGateDoneContextTakesNothing(t *testing.T) {
	g := newTestGate(t, GateConfig{Slots: 1})
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-ctx.Done()
	_, err := g.Acquire(ctx)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeCanceled || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want code %s wrapping DeadlineExceeded", err, CodeCanceled)
	}
	if g.InUse() != 0 {
		t.Fatalf("InUse %d", g.InUse())
	}
}

// holders counts concurrent holders and remembers the most seen at once.
type holders struct{ now, peak atomic.Int64 }

func (h *holders) enter() {
	n := h.now.Add(1)
	for p := h.peak.Load(); n > p && !h.peak.CompareAndSwap(p, n); p = h.peak.Load() {
	}
}

func (h *holders) leave() { h.now.Add(-1) }

func TestGateNeverExceedsSlots(t *testing.T) {
	const slots, callers = 5, 200
	g := newTestGate(t, GateConfig{Slots: slots, Queue: callers, MaxWait: time.Minute})
	var h holders
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			release, err := g.Acquire(context.Background())
			if err != nil {
				t.Error(err)
				return
			}
			h.enter()
			time.Sleep(100 * time.Microsecond)
			h.leave()
			release()
			release()
		})
	}
	wg.Wait()
	if p := h.peak.Load(); p > slots || p < 1 {
		t.Fatalf("peak %d concurrent holders with %d slots", p, slots)
	}
	if g.InUse() != 0 || g.Waiting() != 0 {
		t.Fatalf("InUse %d Waiting %d after all released", g.InUse(), g.Waiting())
	}
}

// Under a mix of refusals, expiries and cancellations, the count of
// holders still never exceeds the slots and nothing leaks.
func TestGateChurnLeaksNothing(t *testing.T) {
	const slots = 4
	g := newTestGate(t, GateConfig{Slots: slots, Queue: 8, MaxWait: 2 * time.Millisecond})
	var h holders
	var ok, busy, canceled atomic.Int64
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Go(func() {
			for j := range 20 {
				ctx, cancel := context.WithCancel(context.Background())
				if (i+j)%3 == 0 {
					time.AfterFunc(time.Duration(j%3)*time.Millisecond, cancel)
				}
				release, err := g.Acquire(ctx)
				var e *Error
				switch {
				case err == nil:
					ok.Add(1)
					h.enter()
					time.Sleep(50 * time.Microsecond)
					h.leave()
					release()
				case errors.As(err, &e) && e.Code == CodeBusy:
					busy.Add(1)
				case errors.As(err, &e) && e.Code == CodeCanceled:
					canceled.Add(1)
				default:
					t.Errorf("unexpected error %v", err)
				}
				cancel()
				if j%2 == 0 && release != nil {
					release() // again, after others may hold the slot
				}
			}
		})
	}
	wg.Wait()
	t.Logf("ok %d busy %d canceled %d peak %d", ok.Load(), busy.Load(), canceled.Load(), h.peak.Load())
	if p := h.peak.Load(); p > slots {
		t.Fatalf("peak %d concurrent holders with %d slots", p, slots)
	}
	if ok.Load() == 0 || busy.Load() == 0 {
		t.Fatal("the churn did not exercise both admission and refusal")
	}
	if g.InUse() != 0 || g.Waiting() != 0 {
		t.Fatalf("InUse %d Waiting %d after the churn", g.InUse(), g.Waiting())
	}
	for range slots {
		mustAcquire(t, g)
	}
}

func TestGateConfig(t *testing.T) {
	for _, c := range []struct {
		cfg  GateConfig
		want error
	}{
		{GateConfig{}, ErrGateSlots},
		{GateConfig{Slots: 1<<16 + 1}, ErrGateSlots},
		{GateConfig{Slots: 1, Queue: -1}, ErrGateQueue},
		{GateConfig{Slots: 1, Queue: 1<<16 + 1, MaxWait: time.Second}, ErrGateQueue},
		{GateConfig{Slots: 1, Queue: 1}, ErrGateWait},
		{GateConfig{Slots: 1, MaxWait: time.Second}, ErrGateWait},
		{GateConfig{Slots: 1, Queue: 1, MaxWait: -time.Second}, ErrGateWait},
		{GateConfig{Slots: 1, Queue: 1, MaxWait: time.Minute + 1}, ErrGateWait},
	} {
		if _, err := NewGate(c.cfg); !errors.Is(err, c.want) {
			t.Errorf("%+v: err %v, want %v", c.cfg, err, c.want)
		}
	}
	if err := (GateConfig{Slots: 1}).Validate(); err != nil {
		t.Fatalf("no queue: %v", err)
	}
}
