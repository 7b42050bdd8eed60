package limit

import (
	"sync"
	"time"
)

// Recent remembers a value for each of the newest keys added: at most n
// keys (a ring: adding a key past n forgets the oldest added), each for
// ttl after it was last added. Memory is bounded by n whatever is added.
// The sidecar keeps the context_ids its answers named with it, and the
// pages each cited. Safe for concurrent use.
type Recent[V any] struct {
	mu   sync.Mutex
	m    map[string]recentEntry[V]
	ring []string
	next int
	ttl  time.Duration
	now  func() time.Time
}

type recentEntry[V any] struct {
	v  V
	at time.Time
}

// NewRecent returns an empty Recent of at most n keys kept for ttl, on
// the clock now (nil: time.Now).
func NewRecent[V any](n int, ttl time.Duration, now func() time.Time) *Recent[V] {
	if now == nil {
		now = time.Now
	}
	return &Recent[V]{m: make(map[string]recentEntry[V]), ring: make([]string, max(n, 1)), ttl: ttl, now: now}
}

// Add remembers v for key, now.
func (r *Recent[V]) Add(key string, v V) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.m[key]; !ok {
		if old := r.ring[r.next]; old != "" {
			delete(r.m, old)
		}
		r.ring[r.next] = key
		r.next = (r.next + 1) % len(r.ring)
	}
	r.m[key] = recentEntry[V]{v, r.now()}
}

// Get returns key's value when it was added within the ttl; a nil Recent
// holds nothing.
func (r *Recent[V]) Get(key string) (V, bool) {
	var zero V
	if r == nil {
		return zero, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.m[key]
	if !ok || r.now().Sub(e.at) >= r.ttl {
		return zero, false
	}
	return e.v, true
}
