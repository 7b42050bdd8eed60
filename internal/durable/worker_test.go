package durable_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/durable/runtest"
	"github.com/askplane/askplane/internal/store"
)

func openStore(t *testing.T, path string) *store.SQLite {
	s, err := store.OpenSQLite(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// twoRounds is a program of two attempts, each checkpointed with its
// outcome; dispatched counts the calls per round. Round 2 waits for
// release (when not nil) as a slow provider would.
func twoRounds(dispatched *[3]atomic.Int32, release chan struct{}) durable.Program {
	return func(ctx context.Context, x *durable.Exec) error {
		var cp struct{ Round int }
		if err := json.Unmarshal(x.Checkpoint().Data, &cp); err != nil {
			return err
		}
		for round := cp.Round + 1; round <= 2; round++ {
			n, err := x.Begin(ctx, round, durable.Usage{InputTokens: 10, OutputTokens: 10})
			if err != nil {
				return err
			}
			dispatched[round].Add(1)
			if release != nil && round == 2 {
				select {
				case <-release:
				case <-ctx.Done():
					return context.Cause(ctx)
				}
			}
			w := durable.Write{
				End:        &durable.AttemptEnd{N: n, State: durable.AttemptCompleted, Usage: durable.Usage{InputTokens: 5, OutputTokens: 5}},
				Checkpoint: &durable.Checkpoint{Step: round, Data: fmt.Appendf(nil, `{"Round":%d}`, round)},
				Events:     [][]byte{fmt.Appendf(nil, `{"round":%d}`, round)},
			}
			if round == 2 {
				w.Final = durable.StateCompleted
			}
			if err := x.Commit(ctx, w); err != nil {
				return err
			}
		}
		return nil
	}
}

func worker(s durable.Store, owner string, prog durable.Program, lease time.Duration, seen *atomic.Int32) *durable.Worker {
	return &durable.Worker{
		Store: s, Owner: owner, Lease: lease,
		Program: func(durable.Run) (durable.Program, error) { return prog, nil },
		End: func(_ durable.Run, err error) durable.Ending {
			if err == durable.ErrCancelRequested {
				return durable.Ending{State: durable.StateCancelled, Code: "ASK_CANCELLED", Event: []byte(`{"cancelled":true}`)}
			}
			return durable.Ending{State: durable.StateFailed, Code: "ASK_GENERATION_FAILED", Event: []byte(`{"failed":true}`)}
		},
		Observe: func(site, name string) {
			if seen != nil && name == "run.resumed" {
				seen.Add(1)
			}
		},
	}
}

// A worker that dies mid-attempt (its instance is gone: its store handle
// closed, its lease unrenewed) is taken over by another instance's sweep,
// which resumes from the last checkpoint: the completed round is not
// dispatched again, the round whose outcome is unknown is retried once
// within the attempts budget, and the run completes.
func TestCrashMidAttemptResumesWithoutRedispatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	sa, sb := openStore(t, path), openStore(t, path)
	var calls [3]atomic.Int32
	release := make(chan struct{})
	a := runtest.Admission("site-crash")
	a.Lease = 300 * time.Millisecond
	_, l, _, err := sa.Admit(t.Context(), a)
	if err != nil {
		t.Fatal(err)
	}
	wa := worker(sa, "worker-a", twoRounds(&calls, release), a.Lease, nil)
	doneA := make(chan error, 1)
	go func() { doneA <- wa.Execute(t.Context(), l) }()
	for calls[2].Load() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	sa.Close() // the instance dies with round 2 in flight
	var resumed atomic.Int32
	wb := worker(sb, "worker-b", twoRounds(&calls, nil), time.Minute, &resumed)
	deadline := time.Now().Add(5 * time.Second)
	for {
		r, err := sb.Get(t.Context(), a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if r.State.Terminal() {
			if r.State != durable.StateCompleted {
				t.Fatalf("run ended %s %s", r.State, r.Code)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the run was never resumed")
		}
		if _, err := wb.Sweep(t.Context()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	close(release)
	<-doneA
	if calls[1].Load() != 1 || calls[2].Load() != 2 || resumed.Load() != 1 {
		t.Fatalf("dispatched round 1 ×%d, round 2 ×%d, resumed %d; want 1, 2 (one unknown, one retry), 1", calls[1].Load(), calls[2].Load(), resumed.Load())
	}
	atts, _ := sb.Attempts(t.Context(), a.ID)
	if len(atts) != 3 || atts[0].State != durable.AttemptCompleted || atts[1].State != durable.AttemptUnknown || atts[2].State != durable.AttemptCompleted {
		t.Fatalf("attempts %+v", atts)
	}
	ev, _ := sb.Events(t.Context(), a.ID, 0, 10)
	if len(ev) != 3 || string(ev[1].Data) != `{"round":1}` || string(ev[2].Data) != `{"round":2}` {
		t.Fatalf("events %+v", ev)
	}
}

// Stop mid-attempt cancels exactly: the attempt in flight is stopped and
// recorded unknown, no further attempt starts, and the run ends cancelled
// with its last event.
func TestCancelMidAttemptEndsExactly(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "runs.db"))
	var calls [3]atomic.Int32
	a := runtest.Admission("site-cancel")
	_, l, _, err := s.Admit(t.Context(), a)
	if err != nil {
		t.Fatal(err)
	}
	w := worker(s, "worker-a", twoRounds(&calls, make(chan struct{})), time.Minute, nil)
	done := make(chan error, 1)
	go func() { done <- w.Execute(t.Context(), l) }()
	for calls[2].Load() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := w.Cancel(t.Context(), a.ID, []byte(`{"cancelled":true}`)); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	r, _ := s.Get(t.Context(), a.ID)
	atts, _ := s.Attempts(t.Context(), a.ID)
	ev, _ := s.Events(t.Context(), a.ID, 0, 10)
	if r.State != durable.StateCancelled || len(atts) != 2 || atts[1].State != durable.AttemptUnknown || calls[2].Load() != 1 {
		t.Fatalf("after cancel: %s, attempts %+v, round 2 ×%d", r.State, atts, calls[2].Load())
	}
	if string(ev[len(ev)-1].Data) != `{"cancelled":true}` {
		t.Fatalf("last event %q", ev[len(ev)-1].Data)
	}
}

// An instance shutting down hands its runs on: Shutdown first lets an
// attempt in flight finish within its grace (run 1 completes, nothing is
// released); past the grace it stops the rest (run 2's round 2 in flight
// is recorded unknown), ends their leases at once and leaves them
// running, so another instance's sweep takes run 2 over at once — long
// before its one-minute lease would have run out — and completes it
// without dispatching round 1 again.
func TestShutdownFinishesWithinGraceThenHandsOn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	sa, sb := openStore(t, path), openStore(t, path)
	var calls1, calls2 [3]atomic.Int32
	quick, stuck := make(chan struct{}), make(chan struct{})
	a1, a2 := runtest.Admission("site-shutdown"), runtest.Admission("site-shutdown")
	_, l1, _, err := sa.Admit(t.Context(), a1)
	if err != nil {
		t.Fatal(err)
	}
	_, l2, _, err := sa.Admit(t.Context(), a2)
	if err != nil {
		t.Fatal(err)
	}
	wa := worker(sa, "worker-a", nil, time.Minute, nil)
	wa.Program = func(r durable.Run) (durable.Program, error) {
		if r.ID == a1.ID {
			return twoRounds(&calls1, quick), nil
		}
		return twoRounds(&calls2, stuck), nil
	}
	done := make(chan error, 2)
	go func() { done <- wa.Execute(t.Context(), l1) }()
	go func() { done <- wa.Execute(t.Context(), l2) }()
	for calls1[2].Load() == 0 || calls2[2].Load() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	time.AfterFunc(50*time.Millisecond, func() { close(quick) }) // run 1's call returns within the grace
	grace, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	wa.Shutdown(grace)
	if took := time.Since(start); took < 250*time.Millisecond || took > 5*time.Second {
		t.Fatalf("Shutdown took %v; want the grace, then the release", took)
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	r1, _ := sa.Get(t.Context(), a1.ID)
	r2, _ := sa.Get(t.Context(), a2.ID)
	if r1.State != durable.StateCompleted || r2.State.Terminal() {
		t.Fatalf("after shutdown: run 1 %s (want completed), run 2 %s (want still running)", r1.State, r2.State)
	}
	if atts, _ := sa.Attempts(t.Context(), a2.ID); len(atts) != 2 || atts[1].State != durable.AttemptUnknown {
		t.Fatalf("run 2's attempts after its release: %+v", atts)
	}
	var resumed atomic.Int32
	wb := worker(sb, "worker-b", twoRounds(&calls2, nil), time.Minute, &resumed)
	time.Sleep(20 * time.Millisecond) // past the released lease's few milliseconds
	if n, err := wb.Sweep(t.Context()); err != nil || n != 1 {
		t.Fatalf("the other instance's sweep resumed %d runs (%v); want run 2 at once", n, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for r2.State != durable.StateCompleted && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		r2, _ = sb.Get(t.Context(), a2.ID)
	}
	if r2.State != durable.StateCompleted || calls2[1].Load() != 1 || calls2[2].Load() != 2 {
		t.Fatalf("run 2 %s; round 1 ×%d, round 2 ×%d (want completed, 1, 2)", r2.State, calls2[1].Load(), calls2[2].Load())
	}
	close(stuck)
}
