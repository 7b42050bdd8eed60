package generate

import (
	"sync"

	"github.com/askplane/askplane/internal/evidence"
)

// The Composer reads the same records' sentences for question after
// question (a site's popular sections), and splitting, normalizing and
// stemming a sentence cost more than matching its stems against a
// question's terms. stemCache keeps a text's stems, bounded: two
// generations of at most stemCacheSize texts each, the older dropped
// whole when the newer fills, so memory stays flat under any load and
// a text in use survives one turnover.
const stemCacheSize = 8192

type stemCache struct {
	mu       sync.RWMutex
	new, old map[string][]string
}

var stems = &stemCache{new: make(map[string][]string, stemCacheSize)}

// of returns s's stemmed terms (camelCase parts included), in order.
// Callers must not modify the slice.
func (c *stemCache) of(s string) []string {
	c.mu.RLock()
	t, ok := c.new[s]
	if !ok {
		t, ok = c.old[s]
	}
	c.mu.RUnlock()
	if ok {
		return t
	}
	t = evidence.Terms(camelParts(s))
	for i := range t {
		t[i] = stem(t[i])
	}
	c.mu.Lock()
	if len(c.new) >= stemCacheSize {
		c.old, c.new = c.new, make(map[string][]string, stemCacheSize)
	}
	c.new[s] = t
	c.mu.Unlock()
	return t
}
