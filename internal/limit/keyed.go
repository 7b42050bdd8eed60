package limit

import (
	"hash/maphash"
	"sync/atomic"
	"time"
)

// Keyed limits each key (a client address, a subject) to a Rate. It is
// safe for concurrent use and never tracks more than MaxKeys keys.
//
// The algorithm is GCRA, the generic cell rate algorithm: a token bucket
// of Rate.Requests tokens refilled one every Window/Requests, kept as one
// number per key, the theoretical arrival time (TAT) at which the bucket
// would be full again. It was chosen over windows because a fixed window
// lets a client spend twice the budget across a boundary and resets
// every key at once (today's ask.WindowLimiter), and a sliding log keeps a
// time per request; GCRA is exact, spreads the refill evenly, needs eight
// bytes of state per key, and gives the exact Retry-After: the time until
// one more request fits.
//
// A key whose TAT has passed has a full bucket, exactly like a key never
// seen, so forgetting it loses nothing. Memory is bounded by forgetting:
// when the limiter is full, a new key evicts the least recently used one
// (per shard; see newShards). A key forgotten while it still owed time
// gets its whole burst back. So an attacker with many addresses can make
// the limiter forget, its own debts or anyone's, but never make it grow.
// And forgetting only gives budget back: no key is ever allowed fewer
// requests than if it had been remembered (TestKeyedEvictionOnlyForgets),
// so an honest client is never refused because of someone else's keys.
// The cost is on the other side: an attacker cycling through more than
// MaxKeys addresses (IPv4 addresses or IPv6 /64s, 65,536 by default) has
// each one forgotten before it comes back, and the per-address limit
// stops binding it; Forgotten counts these lossy evictions, so a metric
// can show it. What then still holds is the per-site Gate, which caps the
// work all keys together can cause at once.
type Keyed struct {
	rate     Rate
	interval int64 // ns per request
	window   int64 // ns
	now      func() time.Time
	epoch    time.Time
	seed     maphash.Seed
	shards   []shard
	mask     uint64
	forgot   atomic.Uint64
}

// KeyedConfig configures a Keyed.
type KeyedConfig struct {
	Rate Rate
	// MaxKeys bounds the keys tracked; 0 means DefaultMaxKeys.
	MaxKeys int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// DefaultMaxKeys is a Keyed's default bound: about 8 MiB with keys the
// size of an IPv6 /64's (124 bytes a key in TestKeyedMemoryPerKey), and
// more distinct clients in one window than a documentation site sees.
const DefaultMaxKeys = 65_536

// MaxMaxKeys is the largest MaxKeys accepted.
const MaxMaxKeys = 1 << 24

// NewKeyed validates c and returns its limiter, or an error that
// errors.Is ErrRate or ErrMaxKeys.
func NewKeyed(c KeyedConfig) (*Keyed, error) {
	if err := c.Rate.Validate(); err != nil {
		return nil, err
	}
	if c.MaxKeys < 0 || c.MaxKeys > MaxMaxKeys {
		return nil, ErrMaxKeys
	}
	if c.MaxKeys == 0 {
		c.MaxKeys = DefaultMaxKeys
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	k := &Keyed{
		rate:     c.Rate,
		interval: int64(c.Rate.interval()),
		window:   int64(c.Rate.Window),
		now:      c.Now,
		epoch:    c.Now(),
		seed:     maphash.MakeSeed(),
		shards:   newShards(c.MaxKeys),
	}
	k.mask = uint64(len(k.shards) - 1)
	return k, nil
}

// Rate returns the limiter's rate.
func (k *Keyed) Rate() Rate { return k.rate }

// Allow spends one request of key's budget. When the budget is spent it
// refuses, spending nothing, and retryAfter (> 0) is the time until one
// request fits again; when it allows, retryAfter is 0.
func (k *Keyed) Allow(key string) (ok bool, retryAfter time.Duration) {
	return k.do(key, true)
}

// Peek says what Allow would say now without spending anything. It is for
// limits charged only after the fact, like failed authentication: Peek
// before checking a token, Allow once it failed. Concurrent requests can
// all pass Peek before any is charged, so such a limit can be exceeded by
// the number of checks in flight.
func (k *Keyed) Peek(key string) (ok bool, retryAfter time.Duration) {
	return k.do(key, false)
}

func (k *Keyed) do(key string, spend bool) (bool, time.Duration) {
	now := int64(k.now().Sub(k.epoch))
	s := &k.shards[maphash.String(k.seed, key)&k.mask]
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.m[key]
	tat := now
	if e != nil {
		// A clock that went back (only an injected one can: time.Now is
		// monotonic) must not make a key owe more than one full window.
		tat = min(max(e.tat, now), now+k.window)
	}
	next := tat + k.interval
	if over := next - now - k.window; over > 0 {
		if spend && e != nil {
			s.touch(e)
		}
		return false, time.Duration(over)
	}
	if !spend {
		return true, 0
	}
	if e == nil {
		e = s.add(key, now, &k.forgot)
	} else {
		s.touch(e)
	}
	e.tat = next
	return true, 0
}

// Len returns the number of keys tracked, at most MaxKeys.
func (k *Keyed) Len() int {
	n := 0
	for i := range k.shards {
		s := &k.shards[i]
		s.mu.Lock()
		n += len(s.m)
		s.mu.Unlock()
	}
	return n
}

// Forgotten returns how many keys were evicted while they still owed
// time: each such key got its full burst back. A rising count means more
// distinct clients than MaxKeys, an attack or a bound set too low.
func (k *Keyed) Forgotten() uint64 { return k.forgot.Load() }
