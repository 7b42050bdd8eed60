// Package runtest is the conformance suite of durable.Store: every backend
// runs the same behaviour tests against a real database (SQLite, and
// PostgreSQL when the test database is configured).
package runtest

import (
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/durable"
)

// Backend opens handles on one database: each call is another instance
// of the sidecar (its own pool) sharing the same rows.
type Backend struct {
	Open func(t *testing.T) durable.Store
	// FailInserts makes every INSERT into table fail (a trigger), until
	// the returned func is called: the failure injected at one step of a
	// transaction.
	FailInserts func(t *testing.T, table string) (undo func())
}

// Run runs every test of the suite.
func Run(t *testing.T, b Backend) {
	t.Run("AdmissionIsAtomic", func(t *testing.T) { testAtomicAdmission(t, b) })
	t.Run("IdempotencyKeyJoins", func(t *testing.T) { testIdempotency(t, b) })
	t.Run("RacingClaimsOneWinsStaleFenced", func(t *testing.T) { testClaimRace(t, b) })
	t.Run("LeaseExpiryTakeover", func(t *testing.T) { testTakeover(t, b) })
	t.Run("BudgetsAndCancel", func(t *testing.T) { testBudgets(t, b) })
	t.Run("CeilingsAcrossInstances", func(t *testing.T) { testCeilings(t, b) })
	t.Run("EventsAreBoundedAndOrdered", func(t *testing.T) { testEvents(t, b) })
	t.Run("PruneKeepsLiveRuns", func(t *testing.T) { testPrune(t, b) })
}

// Admission returns a valid admission with a fresh id.
func Admission(site string) durable.Admission {
	return durable.Admission{
		ID: "run-" + rand.Text(), Site: site, Subject: "subject-1", Session: "session-1",
		RequestDigest: durable.Digest([]byte("request")),
		Snapshot:      durable.Snapshot{Agent: "sha256:a", Schema: "sha256:s", Model: "sha256:m"},
		Budget: durable.Budget{MaxTokens: 10_000, MaxCostMicros: 1_000_000, MaxRounds: 3, MaxAttempts: 3,
			Deadline: time.Now().Add(time.Minute)},
		FirstEvent: []byte(`{"type":"tool","id":"run","name":"run","args":{}}`),
		Checkpoint: []byte(`{"step":0}`),
		Owner:      "worker-a", Lease: time.Minute,
	}
}

func admit(t *testing.T, s durable.Store, a durable.Admission) (durable.Run, durable.Lease) {
	t.Helper()
	r, l, joined, err := s.Admit(t.Context(), a)
	if err != nil || joined {
		t.Fatalf("Admit = joined %v, %v", joined, err)
	}
	return r, l
}

func wantCode(t *testing.T, what string, err error, code durable.Code) {
	t.Helper()
	if durable.CodeOf(err) != code {
		t.Fatalf("%s: err = %v, want %s", what, err, code)
	}
}

func testAtomicAdmission(t *testing.T, b Backend) {
	s := b.Open(t)
	for _, table := range []string{"runs", "run_events", "run_checkpoints"} {
		a := Admission("site-atomic")
		a.IdempotencyKey = "key-" + table
		undo := b.FailInserts(t, table)
		_, _, _, err := s.Admit(t.Context(), a)
		undo()
		wantCode(t, "admission failing at "+table, err, durable.CodeUnavailable)
		if _, err := s.Get(t.Context(), a.ID); durable.CodeOf(err) != durable.CodeNotFound {
			t.Fatalf("failing at %s left the run: %v", table, err)
		}
		if ev, err := s.Events(t.Context(), a.ID, 0, 10); err != nil || len(ev) != 0 {
			t.Fatalf("failing at %s left %d events (%v)", table, len(ev), err)
		}
		if _, err := s.Checkpoint(t.Context(), a.ID); durable.CodeOf(err) != durable.CodeNotFound {
			t.Fatalf("failing at %s left a checkpoint: %v", table, err)
		}
		// Nothing half-committed: the key is free, so the same
		// admission now starts the run rather than joining a ghost.
		r, _ := admit(t, s, a)
		if ev, _ := s.Events(t.Context(), r.ID, 0, 10); len(ev) != 1 {
			t.Fatalf("after retry: %d events, want 1", len(ev))
		}
		if c, err := s.Checkpoint(t.Context(), r.ID); err != nil || c.Step != 0 || string(c.Data) != `{"step":0}` {
			t.Fatalf("after retry: checkpoint %+v, %v", c, err)
		}
	}
}

func testIdempotency(t *testing.T, b Backend) {
	s1, s2 := b.Open(t), b.Open(t)
	a := Admission("site-idem")
	a.IdempotencyKey = "question-1"
	r1, l1 := admit(t, s1, a)
	if l1.Fence != 1 || l1.Owner != "worker-a" || r1.State != durable.StateAdmitted {
		t.Fatalf("first admission: lease %+v, state %s", l1, r1.State)
	}
	again := Admission("site-idem")
	again.IdempotencyKey = "question-1"
	r2, l2, joined, err := s2.Admit(t.Context(), again)
	if err != nil || !joined || r2.ID != r1.ID || l2 != (durable.Lease{}) {
		t.Fatalf("second admission = %s joined %v lease %+v, %v; want to join %s", r2.ID, joined, l2, err, r1.ID)
	}
	if _, err := s2.Get(t.Context(), again.ID); durable.CodeOf(err) != durable.CodeNotFound {
		t.Fatalf("the joining admission created its own run: %v", err)
	}
	other := Admission("site-idem")
	other.IdempotencyKey = "question-1"
	other.RequestDigest = durable.Digest([]byte("another request"))
	_, _, _, err = s2.Admit(t.Context(), other)
	wantCode(t, "same key, another request", err, durable.CodeIdempotencyMismatch)
	// The key is the subject's: another subject's same key is its own run.
	mine := Admission("site-idem")
	mine.IdempotencyKey, mine.Subject = "question-1", "subject-2"
	if r, _ := admit(t, s2, mine); r.ID == r1.ID {
		t.Fatal("another subject joined the run")
	}
}

func testClaimRace(t *testing.T, b Backend) {
	s0 := b.Open(t)
	held := Admission("site-race")
	admit(t, s0, held) // a lease of a minute
	if _, err := s0.Claim(t.Context(), held.ID, "worker-x", time.Minute); durable.CodeOf(err) != durable.CodeLeaseHeld {
		t.Fatalf("claiming a live lease: %v", err)
	}
	a := Admission("site-race")
	a.Lease = 50 * time.Millisecond
	_, stale := admit(t, s0, a)
	time.Sleep(80 * time.Millisecond)
	stores := []durable.Store{b.Open(t), b.Open(t)}
	var wg sync.WaitGroup
	leases := make([]durable.Lease, 2)
	errs := make([]error, 2)
	start := make(chan struct{})
	for i := range stores {
		wg.Go(func() {
			<-start
			leases[i], errs[i] = stores[i].Claim(t.Context(), a.ID, fmt.Sprintf("worker-%d", i), time.Minute)
		})
	}
	close(start)
	wg.Wait()
	won := -1
	for i, err := range errs {
		switch {
		case err == nil && won == -1:
			won = i
		case err == nil:
			t.Fatalf("both claims won: %+v %+v", leases[0], leases[1])
		case durable.CodeOf(err) != durable.CodeLeaseHeld:
			t.Fatalf("losing claim: %v, want %s", err, durable.CodeLeaseHeld)
		}
	}
	if won == -1 {
		t.Fatalf("no claim won: %v %v", errs[0], errs[1])
	}
	if leases[won].Fence != stale.Fence+1 {
		t.Fatalf("fence %d, want %d", leases[won].Fence, stale.Fence+1)
	}
	// The stale holder's every write is refused, and changes nothing.
	ctx := t.Context()
	wantCode(t, "stale append", s0.Commit(ctx, stale, durable.Write{Events: [][]byte{[]byte(`{"x":1}`)}}), durable.CodeFenced)
	wantCode(t, "stale checkpoint", s0.Commit(ctx, stale, durable.Write{Checkpoint: &durable.Checkpoint{Step: 1, Data: []byte(`{}`)}}), durable.CodeFenced)
	wantCode(t, "stale terminal", s0.Commit(ctx, stale, durable.Write{Final: durable.StateCompleted}), durable.CodeFenced)
	_, err := s0.BeginAttempt(ctx, stale, durable.AttemptStart{Round: 1}, durable.Ceilings{})
	wantCode(t, "stale attempt", err, durable.CodeFenced)
	_, _, err = s0.Renew(ctx, stale, time.Minute)
	wantCode(t, "stale renew", err, durable.CodeFenced)
	if ev, _ := s0.Events(ctx, a.ID, 0, 10); len(ev) != 1 {
		t.Fatalf("stale writes landed: %d events", len(ev))
	}
	if c, _ := s0.Checkpoint(ctx, a.ID); c.Step != 0 {
		t.Fatalf("stale checkpoint landed: step %d", c.Step)
	}
	// The winner writes.
	w := stores[won]
	if err := w.Commit(ctx, leases[won], durable.Write{Events: [][]byte{[]byte(`{"x":2}`)}, Final: durable.StateCompleted}); err != nil {
		t.Fatal(err)
	}
	if r, _ := w.Get(ctx, a.ID); r.State != durable.StateCompleted || r.Events != 2 {
		t.Fatalf("after the winner: %s, %d events", r.State, r.Events)
	}
	_, err = w.Claim(ctx, a.ID, "worker-late", time.Minute)
	wantCode(t, "claiming a finished run", err, durable.CodeTerminal)
}

func testTakeover(t *testing.T, b Backend) {
	ctx := t.Context()
	sa, sb := b.Open(t), b.Open(t)
	a := Admission("site-takeover")
	a.Lease = 400 * time.Millisecond
	_, la := admit(t, sa, a)
	reserve := durable.Usage{InputTokens: 100, OutputTokens: 50}
	n1, err := sa.BeginAttempt(ctx, la, durable.AttemptStart{Round: 1, Reserve: reserve}, durable.Ceilings{})
	if err != nil || n1 != 1 {
		t.Fatalf("BeginAttempt = %d, %v", n1, err)
	}
	if err := sa.Commit(ctx, la, durable.Write{
		End:        &durable.AttemptEnd{N: 1, State: durable.AttemptCompleted, Usage: durable.Usage{InputTokens: 80, OutputTokens: 20}, Outcome: []byte(`{"answer":1}`)},
		Checkpoint: &durable.Checkpoint{Step: 1, Data: []byte(`{"step":1}`)},
		Events:     [][]byte{[]byte(`{"round":1}`)},
	}); err != nil {
		t.Fatal(err)
	}
	// Attempt 2 starts and its worker dies before recording it.
	if _, err := sa.BeginAttempt(ctx, la, durable.AttemptStart{Round: 2, Reserve: reserve}, durable.Ceilings{}); err != nil {
		t.Fatal(err)
	}
	if l, ok, err := sb.ClaimExpired(ctx, "worker-b", time.Minute); (ok && l.RunID == a.ID) || err != nil {
		t.Fatalf("claimed a live lease: %v %v", ok, err)
	}
	time.Sleep(450 * time.Millisecond)
	var lb durable.Lease
	for {
		l, ok, err := sb.ClaimExpired(ctx, "worker-b", time.Minute)
		if err != nil || !ok {
			t.Fatalf("ClaimExpired = %v, %v", ok, err)
		}
		if l.RunID == a.ID {
			lb = l
			break
		}
	}
	atts, err := sb.Attempts(ctx, a.ID)
	if err != nil || len(atts) != 2 {
		t.Fatalf("attempts %+v, %v", atts, err)
	}
	if atts[0].State != durable.AttemptCompleted || string(atts[0].Outcome) != `{"answer":1}` || atts[1].State != durable.AttemptUnknown {
		t.Fatalf("after takeover: %s %q / %s; want completed with outcome, then unknown", atts[0].State, atts[0].Outcome, atts[1].State)
	}
	c, err := sb.Checkpoint(ctx, a.ID)
	if err != nil || c.Step != 1 || c.Digest != durable.Digest([]byte(`{"step":1}`)) {
		t.Fatalf("resumed checkpoint %+v, %v", c, err)
	}
	// Accounting: attempt 1 settled at 100, attempt 2 stays charged at
	// its reservation (150): its outcome is unknown.
	r, _ := sb.Get(ctx, a.ID)
	if r.Used.Tokens != 250 || r.Attempts != 2 || r.Rounds != 2 || r.State != durable.StateRunning {
		t.Fatalf("run after takeover: used %d, attempts %d, rounds %d, state %s", r.Used.Tokens, r.Attempts, r.Rounds, r.State)
	}
	if u, _ := sb.DayUsage(ctx, a.Site, time.Now()); u.Tokens != 250 {
		t.Fatalf("day usage %d, want 250", u.Tokens)
	}
	wantCode(t, "the dead worker's late end", sa.Commit(ctx, la, durable.Write{End: &durable.AttemptEnd{N: 2, State: durable.AttemptCompleted}}), durable.CodeFenced)
	// The unknown attempt cannot be ended again by the new holder.
	wantCode(t, "ending an unknown attempt", sb.Commit(ctx, lb, durable.Write{End: &durable.AttemptEnd{N: 2, State: durable.AttemptCompleted}}), durable.CodeInvalid)
	n3, err := sb.BeginAttempt(ctx, lb, durable.AttemptStart{Round: 2, Reserve: reserve}, durable.Ceilings{})
	if err != nil || n3 != 3 {
		t.Fatalf("retry = %d, %v", n3, err)
	}
	// The attempts budget (3) is spent, unknown attempt included.
	_, err = sb.BeginAttempt(ctx, lb, durable.AttemptStart{Round: 3}, durable.Ceilings{})
	var be *durable.BudgetError
	if durable.CodeOf(err) != durable.CodeBudget || !asBudget(err, &be) || be.Limit != durable.LimitAttempts {
		t.Fatalf("fourth attempt: %v, want the attempts budget", err)
	}
}

func testBudgets(t *testing.T, b Backend) {
	ctx := t.Context()
	s := b.Open(t)
	a := Admission("site-budget")
	a.Budget.MaxTokens = 1000
	_, l := admit(t, s, a)
	limitOf := func(err error) string {
		var be *durable.BudgetError
		if asBudget(err, &be) {
			return be.Limit
		}
		return fmt.Sprint(err)
	}
	_, err := s.BeginAttempt(ctx, l, durable.AttemptStart{Round: 1, Reserve: durable.Usage{InputTokens: 900, OutputTokens: 200}}, durable.Ceilings{})
	if limitOf(err) != durable.LimitTokens {
		t.Fatalf("over the token budget: %v", err)
	}
	_, err = s.BeginAttempt(ctx, l, durable.AttemptStart{Round: 4}, durable.Ceilings{})
	if limitOf(err) != durable.LimitRounds {
		t.Fatalf("over the rounds budget: %v", err)
	}
	if r, _ := s.Get(ctx, a.ID); r.Attempts != 0 || r.Used.Tokens != 0 {
		t.Fatalf("a refused start was recorded: %d attempts, %d tokens", r.Attempts, r.Used.Tokens)
	}
	// Cancel while held: the run goes on until its worker stops it, but
	// no attempt starts any more.
	r, err := s.Cancel(ctx, a.ID, []byte(`{"type":"error"}`))
	if err != nil || !r.CancelRequested || r.State.Terminal() {
		t.Fatalf("Cancel of a held run = %+v, %v", r, err)
	}
	_, err = s.BeginAttempt(ctx, l, durable.AttemptStart{Round: 1}, durable.Ceilings{})
	wantCode(t, "attempt after cancel", err, durable.CodeCancelled)
	if _, rr, err := s.Renew(ctx, l, time.Minute); err != nil || !rr.CancelRequested {
		t.Fatalf("Renew does not report the cancel: %v", err)
	}
	if err := s.Commit(ctx, l, durable.Write{Final: durable.StateCancelled, Code: "ASK_CANCELLED", Events: [][]byte{[]byte(`{"cancelled":1}`)}}); err != nil {
		t.Fatal(err)
	}
	// Cancel of a run nobody holds ends it at once, fenced.
	a2 := Admission("site-budget")
	a2.Lease = 20 * time.Millisecond
	_, l2 := admit(t, s, a2)
	time.Sleep(40 * time.Millisecond)
	r2, err := s.Cancel(ctx, a2.ID, []byte(`{"type":"error","code":"ASK_CANCELLED"}`))
	if err != nil || r2.State != durable.StateCancelled || r2.Events != 2 {
		t.Fatalf("Cancel of an unheld run = %s %d events, %v", r2.State, r2.Events, err)
	}
	wantCode(t, "write after cancel", s.Commit(ctx, l2, durable.Write{Events: [][]byte{[]byte(`{}`)}}), durable.CodeFenced)
	// Deadline.
	a3 := Admission("site-budget")
	a3.Budget.Deadline = time.Now().Add(30 * time.Millisecond)
	_, l3 := admit(t, s, a3)
	time.Sleep(50 * time.Millisecond)
	_, err = s.BeginAttempt(ctx, l3, durable.AttemptStart{Round: 1}, durable.Ceilings{})
	if limitOf(err) != durable.LimitDeadline {
		t.Fatalf("attempt past the deadline: %v", err)
	}
	// Invalid admissions write nothing.
	bad := Admission("site-budget")
	bad.Budget.MaxRounds = durable.HardMaxRounds + 1
	_, _, _, err = s.Admit(ctx, bad)
	wantCode(t, "rounds over the hard bound", err, durable.CodeInvalid)
}

func testCeilings(t *testing.T, b Backend) {
	ctx := t.Context()
	s1, s2 := b.Open(t), b.Open(t)
	site := "site-ceil-" + rand.Text()[:6]
	ceil := durable.Ceilings{MaxConcurrent: 1, TokensPerDay: 500}
	a := Admission(site)
	a.Ceilings = ceil
	_, l := admit(t, s1, a)
	b2 := Admission(site)
	b2.Ceilings = ceil
	_, _, _, err := s2.Admit(ctx, b2)
	var be *durable.BudgetError
	if !asBudget(err, &be) || be.Limit != durable.LimitConcurrent || be.RetryAfter <= 0 {
		t.Fatalf("a second concurrent run on another instance: %v", err)
	}
	// The reservation is held against the day across instances.
	if _, err := s1.BeginAttempt(ctx, l, durable.AttemptStart{Round: 1, Reserve: durable.Usage{InputTokens: 300, OutputTokens: 100}}, ceil); err != nil {
		t.Fatal(err)
	}
	if err := s1.Commit(ctx, l, durable.Write{End: &durable.AttemptEnd{N: 1, State: durable.AttemptCompleted, Usage: durable.Usage{InputTokens: 400, OutputTokens: 150}}, Final: durable.StateCompleted}); err != nil {
		t.Fatal(err)
	}
	if u, _ := s2.DayUsage(ctx, site, time.Now()); u.Tokens != 550 {
		t.Fatalf("day usage %d, want 550", u.Tokens)
	}
	_, _, _, err = s2.Admit(ctx, b2)
	if !asBudget(err, &be) || be.Limit != durable.LimitTokensPerDay || be.RetryAfter <= 0 || be.RetryAfter > 24*time.Hour {
		t.Fatalf("admission past the day's tokens on another instance: %v", err)
	}
}

func testEvents(t *testing.T, b Backend) {
	ctx := t.Context()
	s := b.Open(t)
	a := Admission("site-events")
	_, l := admit(t, s, a)
	var evs [][]byte
	for i := range 5 {
		evs = append(evs, fmt.Appendf(nil, `{"n":%d}`, i))
	}
	if err := s.Commit(ctx, l, durable.Write{Events: evs}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Events(ctx, a.ID, 3, 2)
	if err != nil || len(got) != 2 || got[0].Seq != 4 || string(got[0].Data) != `{"n":2}` || got[1].Seq != 5 {
		t.Fatalf("Events(after 3, max 2) = %+v, %v", got, err)
	}
	big := make([]byte, durable.MaxEventBytes+1)
	for i := range big {
		big[i] = 'a'
	}
	wantCode(t, "an event over its bound", s.Commit(ctx, l, durable.Write{Events: [][]byte{big}}), durable.CodeLimit)
	_, err = s.Events(ctx, a.ID, 0, durable.MaxEventsPerRead+1)
	wantCode(t, "a read over its bound", err, durable.CodeInvalid)
	if err := s.Commit(ctx, l, durable.Write{Checkpoint: &durable.Checkpoint{Step: 2, Data: []byte(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "a checkpoint step that goes back", s.Commit(ctx, l, durable.Write{Checkpoint: &durable.Checkpoint{Step: 1, Data: []byte(`{}`)}}), durable.CodeInvalid)
}

func testPrune(t *testing.T, b Backend) {
	ctx := t.Context()
	s := b.Open(t)
	done := Admission("site-prune")
	_, l := admit(t, s, done)
	if err := s.Commit(ctx, l, durable.Write{Final: durable.StateCompleted}); err != nil {
		t.Fatal(err)
	}
	live := Admission("site-prune")
	admit(t, s, live)
	n, err := s.PruneRuns(ctx, time.Now().Add(time.Second))
	if err != nil || n < 1 {
		t.Fatalf("PruneRuns = %d, %v", n, err)
	}
	if _, err := s.Get(ctx, done.ID); durable.CodeOf(err) != durable.CodeNotFound {
		t.Fatalf("the finished run is still there: %v", err)
	}
	if ev, _ := s.Events(ctx, done.ID, 0, 10); len(ev) != 0 {
		t.Fatal("its events are still there")
	}
	if _, err := s.Get(ctx, live.ID); err != nil {
		t.Fatalf("the live run was pruned: %v", err)
	}
}

func asBudget(err error, be **durable.BudgetError) bool {
	return errors.As(err, be)
}
