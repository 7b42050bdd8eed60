package limit

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func newTestKeyed(t testing.TB, r Rate, maxKeys int, c *fakeClock) *Keyed {
	t.Helper()
	k, err := NewKeyed(KeyedConfig{Rate: r, MaxKeys: maxKeys, Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestKeyedBudgetAndRefill(t *testing.T) {
	c := newFakeClock()
	k := newTestKeyed(t, Rate{5, time.Minute}, 0, c)
	for i := range 5 {
		if ok, after := k.Allow("a"); !ok || after != 0 {
			t.Fatalf("request %d: ok=%v after=%v, want allowed", i, ok, after)
		}
	}
	// One request refills every 12 s.
	if ok, after := k.Allow("a"); ok || after != 12*time.Second {
		t.Fatalf("6th: ok=%v after=%v, want refused for 12s", ok, after)
	}
	c.Add(12*time.Second - time.Millisecond)
	if ok, after := k.Allow("a"); ok || after != time.Millisecond {
		t.Fatalf("just before refill: ok=%v after=%v, want refused for 1ms", ok, after)
	}
	c.Add(time.Millisecond)
	if ok, _ := k.Allow("a"); !ok {
		t.Fatal("after refill: refused")
	}
	if ok, _ := k.Allow("a"); ok {
		t.Fatal("one refill allowed two requests")
	}
	// Other keys have their own budget.
	if ok, _ := k.Allow("b"); !ok {
		t.Fatal("b refused because of a")
	}
	// A long idle time refills to the burst, never beyond it.
	c.Add(24 * time.Hour)
	n := 0
	for {
		if ok, _ := k.Allow("a"); !ok {
			break
		}
		n++
	}
	if n != 5 {
		t.Fatalf("after a day idle: %d allowed, want the burst of 5", n)
	}
}

// Waiting exactly retryAfter is always enough and never more than needed,
// also when Window/Requests is not a whole number of nanoseconds.
func TestKeyedRetryAfterExact(t *testing.T) {
	for _, r := range []Rate{{7, time.Minute}, {3, time.Second}, {1, time.Hour}, {1000, time.Millisecond}} {
		c := newFakeClock()
		k := newTestKeyed(t, r, 0, c)
		allowed := 0
		for range 10 * r.Requests {
			ok, after := k.Allow("k")
			if ok {
				allowed++
				continue
			}
			if after <= 0 || after > r.Window {
				t.Fatalf("%v: retryAfter %v, want in (0, window]", r, after)
			}
			if after > 1 {
				c.Add(after - 1)
				if ok, left := k.Allow("k"); ok || left != 1 {
					t.Fatalf("%v: 1ns early: ok=%v left=%v", r, ok, left)
				}
				c.Add(1)
			} else {
				c.Add(after)
			}
			if ok, _ := k.Allow("k"); !ok {
				t.Fatalf("%v: refused after waiting retryAfter %v", r, after)
			}
			allowed++
		}
		if allowed != 10*r.Requests {
			t.Fatalf("%v: %d allowed", r, allowed)
		}
	}
}

func TestKeyedPeekSpendsNothing(t *testing.T) {
	c := newFakeClock()
	k := newTestKeyed(t, Rate{2, time.Minute}, 0, c)
	for range 10 {
		if ok, after := k.Peek("a"); !ok || after != 0 {
			t.Fatal("Peek refused an unspent key")
		}
	}
	if k.Len() != 0 {
		t.Fatalf("Peek tracked a key: Len %d", k.Len())
	}
	k.Allow("a")
	k.Allow("a")
	ok, after := k.Peek("a")
	if ok || after != 30*time.Second {
		t.Fatalf("Peek after the budget: ok=%v after=%v", ok, after)
	}
	if ok2, after2 := k.Allow("a"); ok2 || after2 != after {
		t.Fatalf("Allow disagrees with Peek: %v %v", ok2, after2)
	}
}

func TestKeyedClockBackwards(t *testing.T) {
	c := newFakeClock()
	k := newTestKeyed(t, Rate{1, time.Minute}, 0, c)
	k.Allow("a")
	c.Add(-time.Hour)
	ok, after := k.Allow("a")
	if ok || after <= 0 || after > time.Minute {
		t.Fatalf("clock back an hour: ok=%v after=%v, want refused at most a window", ok, after)
	}
}

func TestKeyedEvictsLeastRecentlyUsed(t *testing.T) {
	c := newFakeClock()
	k := newTestKeyed(t, Rate{1, time.Minute}, 3, c)
	for _, key := range []string{"a", "b", "c"} {
		k.Allow(key)
	}
	if ok, _ := k.Allow("a"); ok { // refused, but used: a is now the newest
		t.Fatal("a allowed twice")
	}
	k.Allow("d") // evicts b, the least recently used
	if k.Len() != 3 || k.Forgotten() != 1 {
		t.Fatalf("Len %d Forgotten %d, want 3 and 1", k.Len(), k.Forgotten())
	}
	if ok, _ := k.Allow("a"); ok {
		t.Fatal("a was forgotten instead of b")
	}
	if ok, _ := k.Allow("b"); !ok {
		t.Fatal("b was not forgotten")
	}
	// A key whose bucket refilled is evicted without counting as lost.
	c.Add(time.Minute)
	k.Allow("e")
	if k.Forgotten() != 2 { // only b's eviction of c counted
		t.Fatalf("Forgotten %d after evicting a refilled key, want 2", k.Forgotten())
	}
}

func TestKeyedBoundedUnderManyKeys(t *testing.T) {
	c := newFakeClock()
	const max = 10_000
	k := newTestKeyed(t, Rate{5, time.Minute}, max, c)
	for i := range 100_000 {
		if ok, _ := k.Allow(fmt.Sprint("10.0.", i>>8, ".", i&255)); !ok {
			t.Fatalf("key %d refused on first use", i)
		}
		if i%10_000 == 0 && k.Len() > max {
			t.Fatalf("Len %d > %d after %d keys", k.Len(), max, i+1)
		}
	}
	if k.Len() != max {
		t.Fatalf("Len %d, want %d", k.Len(), max)
	}
	if got := k.Forgotten(); got != 100_000-max {
		t.Fatalf("Forgotten %d, want %d", got, 100_000-max)
	}
}

// Eviction only forgets: at every point, each key has been allowed at
// least as many requests by a bounded limiter as by an unbounded one (the
// reference model) given the same requests.
func TestKeyedEvictionOnlyForgets(t *testing.T) {
	c := newFakeClock()
	r := Rate{3, time.Second}
	k := newTestKeyed(t, r, 8, c)
	ref := map[string]time.Time{} // key -> TAT
	rng := rand.New(rand.NewPCG(1, 2))
	interval := r.interval()
	refAllow := func(key string) bool {
		now := c.Now()
		tat := ref[key]
		if tat.Before(now) {
			tat = now
		}
		next := tat.Add(interval)
		if next.Sub(now) > r.Window {
			return false
		}
		ref[key] = next
		return true
	}
	got, want := map[string]int{}, map[string]int{}
	for i := range 200_000 {
		key := fmt.Sprint(rng.IntN(20))
		if ok, _ := k.Allow(key); ok {
			got[key]++
		}
		if refAllow(key) {
			want[key]++
		}
		if got[key] < want[key] {
			t.Fatalf("op %d: key %s allowed %d times by the bounded limiter, %d by the unbounded", i, key, got[key], want[key])
		}
		c.Add(time.Duration(rng.IntN(int(50 * time.Millisecond))))
	}
	if k.Forgotten() == 0 {
		t.Fatal("the test never evicted a key in debt")
	}
}

func TestKeyedConcurrentExactBudget(t *testing.T) {
	c := newFakeClock()
	k := newTestKeyed(t, Rate{100, time.Hour}, 0, c)
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			for range 50 {
				if ok, after := k.Allow("shared"); ok {
					allowed.Add(1)
				} else if after <= 0 {
					t.Error("refused with retryAfter <= 0")
				}
			}
		})
	}
	wg.Wait()
	if allowed.Load() != 100 {
		t.Fatalf("%d allowed across goroutines, want 100", allowed.Load())
	}
}

func TestKeyedConcurrentManyKeys(t *testing.T) {
	c := newFakeClock()
	k := newTestKeyed(t, Rate{2, time.Minute}, 1000, c)
	var wg sync.WaitGroup
	for g := range 32 {
		wg.Go(func() {
			for i := range 2000 {
				k.Allow(fmt.Sprint(g, "-", i%300))
				k.Peek(fmt.Sprint(g, "-", i%7))
				if i%100 == 0 {
					c.Add(time.Second)
					if n := k.Len(); n > 1000 {
						t.Errorf("Len %d > 1000", n)
					}
				}
			}
		})
	}
	wg.Wait()
	if n := k.Len(); n != 1000 {
		t.Fatalf("Len %d, want 1000", n)
	}
}

func TestKeyedConfig(t *testing.T) {
	for _, r := range []Rate{
		{}, {0, time.Minute}, {-1, time.Minute}, {5, 0}, {5, -time.Second},
		{5, time.Microsecond}, {5, 25 * time.Hour}, {MaxRateRequests + 1, time.Hour},
	} {
		if _, err := NewKeyed(KeyedConfig{Rate: r}); !errors.Is(err, ErrRate) {
			t.Errorf("%v: err %v, want ErrRate", r, err)
		}
	}
	for _, m := range []int{-1, MaxMaxKeys + 1} {
		if _, err := NewKeyed(KeyedConfig{Rate: Rate{1, time.Second}, MaxKeys: m}); !errors.Is(err, ErrMaxKeys) {
			t.Errorf("MaxKeys %d: err %v, want ErrMaxKeys", m, err)
		}
	}
	var e *Error
	if _, err := NewKeyed(KeyedConfig{}); !errors.As(err, &e) || e.Code != CodeConfig {
		t.Errorf("err %v, want code %s", err, CodeConfig)
	}
	for _, r := range []Rate{{1, MinRateWindow}, {MaxRateRequests, MinRateWindow}, {1, MaxRateWindow}} {
		if _, err := NewKeyed(KeyedConfig{Rate: r}); err != nil {
			t.Errorf("%v: %v", r, err)
		}
	}
	k, err := NewKeyed(KeyedConfig{Rate: Rate{1, time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for i := range k.shards {
		total += k.shards[i].max
	}
	if total != DefaultMaxKeys || k.Rate() != (Rate{1, time.Second}) {
		t.Fatalf("MaxKeys 0 gave %d keys, rate %v", total, k.Rate())
	}
}

func TestShardsSumToMaxKeys(t *testing.T) {
	for _, m := range []int{1, 2, 255, 511, 512, 513, 10_000, 65_536, 65_537, MaxMaxKeys} {
		s := newShards(m)
		total := 0
		for i := range s {
			total += s[i].max
			if s[i].max < 1 {
				t.Fatalf("%d: empty shard", m)
			}
		}
		if total != m || len(s)&(len(s)-1) != 0 {
			t.Fatalf("%d: %d shards hold %d", m, len(s), total)
		}
	}
}

// The memory DefaultMaxKeys costs, key strings included, for its doc
// comment.
func TestKeyedMemoryPerKey(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates")
	}
	c := newFakeClock()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	k := newTestKeyed(t, Rate{60, time.Minute}, 0, c)
	for i := range DefaultMaxKeys {
		k.Allow(fmt.Sprintf("2001:db8:%x:%x::/64", i>>16, i&0xffff))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / DefaultMaxKeys
	t.Logf("%.0f bytes per key, %.1f MiB at DefaultMaxKeys", per, per*DefaultMaxKeys/(1<<20))
	if per > 250 {
		t.Fatalf("%.0f bytes per key", per)
	}
	runtime.KeepAlive(k)
}
