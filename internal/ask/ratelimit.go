package ask

import (
	"context"
	"sync"
	"time"
)

// RateLimiter decides whether a subject may ask now. It runs before the
// body is read. When it refuses, retryAfter (rounded up to whole seconds,
// at least one) goes in the retry-after header.
type RateLimiter interface {
	Allow(ctx context.Context, siteID, subject string) (ok bool, retryAfter time.Duration)
}

// WindowLimiter allows each (site, subject) at most Limit requests per
// fixed Window. It is in-process and safe for concurrent use.
type WindowLimiter struct {
	Limit  int
	Window time.Duration
	Now    func() time.Time // nil means time.Now

	mu     sync.Mutex
	start  time.Time
	counts map[[2]string]int
}

// Allow implements RateLimiter.
func (l *WindowLimiter) Allow(_ context.Context, siteID, subject string) (bool, time.Duration) {
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.counts == nil || now.Sub(l.start) >= l.Window || now.Before(l.start) {
		l.start, l.counts = now, make(map[[2]string]int)
	}
	k := [2]string{siteID, subject}
	if l.counts[k] >= l.Limit {
		return false, l.start.Add(l.Window).Sub(now)
	}
	l.counts[k]++
	return true, 0
}

var _ RateLimiter = (*WindowLimiter)(nil)
