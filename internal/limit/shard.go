package limit

import (
	"sync"
	"sync/atomic"
)

// A shard is one lock's worth of a Keyed: a map of keys and a list of
// them from most to least recently used, never longer than max. Keys are
// spread over shards by a seeded hash, so a client cannot aim its keys at
// one shard, and parallel requests rarely wait for each other's lock.
type shard struct {
	mu   sync.Mutex
	m    map[string]*entry
	root entry // root.next is the most recently used, root.prev the least
	max  int
	_    [64]byte // keep neighbouring shards' locks off one cache line
}

type entry struct {
	key        string
	tat        int64 // ns after Keyed.epoch at which the bucket is full
	prev, next *entry
}

// newShards splits maxKeys over a power of two of shards, up to 32, each
// holding at least 256 keys, so the total is exactly maxKeys. Eviction is
// least-recently-used within a shard, which over many keys is close to
// least-recently-used overall; small limiters get one shard and exact LRU.
func newShards(maxKeys int) []shard {
	n := 1
	for n < 32 && maxKeys/(n*2) >= 256 {
		n *= 2
	}
	shards := make([]shard, n)
	for i := range shards {
		s := &shards[i]
		s.max = maxKeys / n
		if i < maxKeys%n {
			s.max++
		}
		s.m = make(map[string]*entry)
		s.root.next, s.root.prev = &s.root, &s.root
	}
	return shards
}

// add tracks key as the most recently used, evicting the least recently
// used key when the shard is full (counting it in forgot if its bucket,
// as of now, was not yet full) and reusing its entry.
func (s *shard) add(key string, now int64, forgot *atomic.Uint64) *entry {
	var e *entry
	if len(s.m) >= s.max {
		e = s.root.prev
		s.unlink(e)
		delete(s.m, e.key)
		if e.tat > now {
			forgot.Add(1)
		}
		*e = entry{}
	} else {
		e = new(entry)
	}
	e.key = key
	s.m[key] = e
	s.pushFront(e)
	return e
}

// touch marks e the most recently used.
func (s *shard) touch(e *entry) {
	if s.root.next != e {
		s.unlink(e)
		s.pushFront(e)
	}
}

func (s *shard) unlink(e *entry) {
	e.prev.next, e.next.prev = e.next, e.prev
}

func (s *shard) pushFront(e *entry) {
	e.prev, e.next = &s.root, s.root.next
	s.root.next.prev = e
	s.root.next = e
}
