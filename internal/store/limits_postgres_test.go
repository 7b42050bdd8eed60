package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/limit"
	"github.com/askplane/askplane/internal/store"
)

// Two pools on one schema are two sidecar instances: a rate limit of N
// per window allows N in all, however the requests are spread and raced,
// and then refuses with a Retry-After. (Issue 16.)
func TestPostgresRateLimitHoldsAcrossInstances(t *testing.T) {
	dsn := postgresSchema(t)
	a, b := openPostgres(t, dsn), openPostgres(t, dsn)
	rate := limit.Rate{Requests: 5, Window: time.Minute}
	la, err := a.RateLimiter("edge.perAddress", rate, 0)
	if err != nil {
		t.Fatal(err)
	}
	lb, err := b.RateLimiter("edge.perAddress", rate, 0)
	if err != nil {
		t.Fatal(err)
	}
	var allowed, refused atomic.Int64
	var wg sync.WaitGroup
	for i := range 40 {
		l := la
		if i%2 == 1 {
			l = lb
		}
		wg.Go(func() {
			ok, after, err := l.Spend(t.Context(), "203.0.113.7")
			switch {
			case err != nil:
				t.Error(err)
			case ok:
				allowed.Add(1)
			case after <= 0 || after > time.Minute:
				t.Errorf("refused with retryAfter %v", after)
			default:
				refused.Add(1)
			}
		})
	}
	wg.Wait()
	if allowed.Load() != 5 || refused.Load() != 35 {
		t.Fatalf("allowed %d, refused %d; want 5 and 35", allowed.Load(), refused.Load())
	}
	// Another key, and the same key in another scope, have their own budgets.
	if ok, _, _ := lb.Spend(t.Context(), "203.0.113.8"); !ok {
		t.Fatal("another key was refused")
	}
	other, _ := a.RateLimiter("edge.newSubjects", rate, 0)
	if ok, _, _ := other.Spend(t.Context(), "203.0.113.7"); !ok {
		t.Fatal("the same key in another scope was refused")
	}
	// Check spends nothing and says what Spend would.
	if ok, after, err := la.Check(t.Context(), "203.0.113.7"); ok || after <= 0 || err != nil {
		t.Fatalf("Check of a spent key = %v %v %v", ok, after, err)
	}
	for range 3 {
		if ok, _, err := la.Check(t.Context(), "198.51.100.1"); !ok || err != nil {
			t.Fatalf("Check of a fresh key = %v %v", ok, err)
		}
	}
	if ok, _, _ := la.Spend(t.Context(), "198.51.100.1"); !ok {
		t.Fatal("Check spent budget")
	}
}

// The budget refills one request every Window/Requests, and a key whose
// bucket is full again is pruned like one never seen; addresses are
// stored only as 32-byte digests.
func TestPostgresRateLimitRefillsAndPrunes(t *testing.T) {
	dsn := postgresSchema(t)
	p := openPostgres(t, dsn)
	l, err := p.RateLimiter("site.subject", limit.Rate{Requests: 2, Window: 400 * time.Millisecond}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, true, false} {
		if ok, _, err := l.Spend(t.Context(), "anon:abc"); ok != want || err != nil {
			t.Fatalf("spend %d = %v %v, want %v", i, ok, err, want)
		}
	}
	time.Sleep(250 * time.Millisecond) // one interval (200 ms) refilled
	if ok, _, _ := l.Spend(t.Context(), "anon:abc"); !ok {
		t.Fatal("refused after an interval refilled")
	}
	raw := rawPostgres(t, dsn)
	var n, odd int
	if err := raw.QueryRow(t.Context(), `SELECT count(*), count(*) FILTER (WHERE octet_length(key) <> 32 OR position('anon'::bytea IN key) > 0) FROM limit_tats`).Scan(&n, &odd); err != nil {
		t.Fatal(err)
	}
	if n != 1 || odd != 0 {
		t.Fatalf("%d rows, %d not a digest", n, odd)
	}
	time.Sleep(450 * time.Millisecond) // full again
	if got, err := p.PruneLimits(t.Context()); got != 1 || err != nil {
		t.Fatalf("pruned %d, %v; want the one full key", got, err)
	}
}

// Past the bound, pruning forgets the keys nearest to full and keeps the
// ones that owe most: forgetting only ever gives budget back.
func TestPostgresRateLimitPruneKeepsTheDebtors(t *testing.T) {
	p := openPostgres(t, postgresSchema(t))
	l, _ := p.RateLimiter("edge.perAddress", limit.Rate{Requests: 10, Window: time.Hour}, 0)
	for i := range 5 {
		for range i + 1 { // key i spends i+1 requests
			l.Spend(t.Context(), fmt.Sprint("key", i))
		}
	}
	if got, err := p.PruneLimitsTo(t.Context(), 2); got != 3 || err != nil {
		t.Fatalf("pruned %d, %v; want 3", got, err)
	}
	for i, want := range []int{10, 10, 10, 6, 5} { // budget left
		n := 0
		for {
			if ok, _, _ := l.Spend(t.Context(), fmt.Sprint("key", i)); !ok {
				break
			}
			n++
		}
		if n != want {
			t.Errorf("key%d has %d left, want %d", i, n, want)
		}
	}
}

// A database that cannot answer refuses, typed and bounded: a closed
// pool at once, a table locked by another connection within the timeout.
func TestPostgresRateLimitFailsClosed(t *testing.T) {
	dsn := postgresSchema(t)
	p := openPostgres(t, dsn)
	l, _ := p.RateLimiter("edge.perAddress", limit.Rate{Requests: 100, Window: time.Minute}, 300*time.Millisecond)
	raw := rawPostgres(t, dsn)
	tx, err := raw.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(t.Context(), `LOCK TABLE limit_tats IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ok, _, err := l.Spend(t.Context(), "203.0.113.7")
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("a locked table held Spend for %v", took)
	}
	wantLimitUnavailable(t, ok, err)
	ok, _, err = l.Check(t.Context(), "203.0.113.7")
	wantLimitUnavailable(t, ok, err)
	tx.Rollback(t.Context())
	if ok, _, err := l.Spend(t.Context(), "203.0.113.7"); !ok || err != nil {
		t.Fatalf("after the lock: %v %v", ok, err)
	}
	long := string(make([]byte, limit.MaxKeyBytes+1))
	ok, _, err = l.Spend(t.Context(), long)
	wantLimitUnavailable(t, ok, err)
	p.Close()
	ok, _, err = l.Spend(t.Context(), "203.0.113.7")
	wantLimitUnavailable(t, ok, err)
}

func wantLimitUnavailable(t *testing.T, ok bool, err error) {
	t.Helper()
	var le *limit.Error
	if ok || !errors.As(err, &le) || le.Code != limit.CodeUnavailable || le.RetryAfter <= 0 {
		t.Fatalf("ok %v, err %v; want a refusal with %s", ok, err, limit.CodeUnavailable)
	}
}

func gate(t *testing.T, p *store.Postgres, slots, queue int, wait, lease time.Duration) limit.Acquirer {
	t.Helper()
	g, err := p.GenerationGate(t.Context(), store.SharedGateConfig{Site: "docs", GateConfig: limit.GateConfig{Slots: slots, Queue: queue, MaxWait: wait}, Lease: lease})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The generation cap is one cap across instances: Slots held in all,
// a waiter on another instance gets the slot one frees, and a release is
// idempotent. (Issue 16.)
func TestPostgresGateHoldsAcrossInstances(t *testing.T) {
	dsn := postgresSchema(t)
	a, b := openPostgres(t, dsn), openPostgres(t, dsn)
	ga, gb := gate(t, a, 3, 0, 0, 0), gate(t, b, 3, 4, 3*time.Second, 0)
	var mu sync.Mutex
	var held []func()
	var busy atomic.Int64
	var wg sync.WaitGroup
	for i := range 10 {
		g := ga
		if i%2 == 1 {
			g = gate(t, b, 3, 0, 0, 0)
		}
		wg.Go(func() {
			rel, err := g.Acquire(t.Context())
			if err != nil {
				if !errors.Is(err, limit.ErrQueueFull) {
					t.Error(err)
				}
				busy.Add(1)
				return
			}
			mu.Lock()
			held = append(held, rel)
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(held) != 3 || busy.Load() != 7 {
		t.Fatalf("held %d, busy %d; want 3 and 7", len(held), busy.Load())
	}
	got := make(chan error, 1)
	go func() {
		rel, err := gb.Acquire(t.Context())
		if err == nil {
			rel()
		}
		got <- err
	}()
	time.Sleep(100 * time.Millisecond)
	select {
	case err := <-got:
		t.Fatalf("a waiter got %v while every slot was held", err)
	default:
	}
	held[0]()
	held[0]() // again: nothing more is freed
	if err := <-got; err != nil {
		t.Fatalf("the waiter: %v", err)
	}
	// The waiter released on return; so 1 free of 3, and the second
	// release of held[0] freed nothing.
	rel, err := ga.Acquire(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ga.Acquire(t.Context()); !errors.Is(err, limit.ErrQueueFull) {
		t.Fatalf("a fourth holder: %v", err)
	}
	rel()
	for _, r := range held[1:] {
		r()
	}
}

// An instance that dies holding slots gives them back when their leases
// expire; one that lives renews them past the lease.
func TestPostgresGateLeasesExpireButAreRenewed(t *testing.T) {
	dsn := postgresSchema(t)
	a, b := openPostgres(t, dsn), openPostgres(t, dsn)
	const lease = 300 * time.Millisecond
	ga, gb := gate(t, a, 1, 0, 0, lease), gate(t, b, 1, 0, 0, lease)
	rel, err := gb.Acquire(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * lease / 2) // past the lease: renewed on the way
	if _, err := ga.Acquire(t.Context()); !errors.Is(err, limit.ErrQueueFull) {
		t.Fatalf("a renewed lease was taken: %v", err)
	}
	rel()
	// b takes the slot and "crashes": its pool goes, and renewals fail.
	if _, err := gb.Acquire(t.Context()); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if _, err := ga.Acquire(t.Context()); !errors.Is(err, limit.ErrQueueFull) {
		t.Fatalf("a live lease was taken: %v", err)
	}
	time.Sleep(lease + 100*time.Millisecond)
	rel, err = ga.Acquire(t.Context())
	if err != nil {
		t.Fatalf("the dead instance's slot never came back: %v", err)
	}
	rel()
}

// A gate whose database cannot answer refuses with CodeUnavailable
// within its timeout and holds nothing.
func TestPostgresGateFailsClosed(t *testing.T) {
	dsn := postgresSchema(t)
	p := openPostgres(t, dsn)
	g, err := p.GenerationGate(t.Context(), store.SharedGateConfig{Site: "docs", GateConfig: limit.GateConfig{Slots: 2}, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	raw := rawPostgres(t, dsn)
	tx, _ := raw.Begin(t.Context())
	if _, err := tx.Exec(t.Context(), `LOCK TABLE generation_slots IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = g.Acquire(t.Context())
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("a locked table held Acquire for %v", took)
	}
	wantLimitUnavailable(t, false, err)
	tx.Rollback(t.Context())
	for range 2 { // nothing was left held
		if _, err := g.Acquire(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := g.Acquire(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("a done context: %v", err)
	}
}
