package generate

import "sync"

// textCacheSize bounds each generation of a textCache, in texts.
const textCacheSize = 8192

// textCache maps a text to a value computed from it alone, in two
// generations of at most textCacheSize texts each: the older is dropped
// whole when the newer fills, so memory stays flat under any load and a
// text in use survives one turnover.
type textCache[T any] struct {
	mu       sync.RWMutex
	new, old map[string]T
}

func newTextCache[T any]() *textCache[T] {
	return &textCache[T]{new: make(map[string]T, textCacheSize)}
}

// of returns the value of s, computing it with f when it is not held.
func (c *textCache[T]) of(s string, f func(string) T) T {
	c.mu.RLock()
	v, ok := c.new[s]
	if !ok {
		v, ok = c.old[s]
	}
	c.mu.RUnlock()
	if ok {
		return v
	}
	v = f(s)
	c.mu.Lock()
	if len(c.new) >= textCacheSize {
		c.old, c.new = c.new, make(map[string]T, textCacheSize)
	}
	c.new[s] = v
	c.mu.Unlock()
	return v
}

// len is how many texts the cache holds.
func (c *textCache[T]) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.new) + len(c.old)
}
