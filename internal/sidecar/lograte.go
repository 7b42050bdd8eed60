package sidecar

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// ERROR and WARN lines are rate-limited per message: a failure on every
// request (a store gone under load) logged ~14,000 lines in 10 s. Each message
// gets errorBurst lines in each errorWindow; past that its lines are
// counted, not written, and once its window is over one line says how
// many were left out ("askplane: error lines suppressed", with the
// message and the count), written before the message's next line or
// with the next line logged after the window, whichever comes first.
const (
	errorBurst    = 10
	errorWindow   = 10 * time.Second
	errorMessages = 1024 // messages tracked; past it the oldest windows are dropped
	msgSuppressed = "askplane: error lines suppressed"
)

// errorLimiter is the state every handler derived from one limitErrors
// shares.
type errorLimiter struct {
	mu    sync.Mutex
	now   func() time.Time
	slots map[string]*errorSlot
	next  time.Time // when windows may next have ended
}

type errorSlot struct {
	level      slog.Level
	start      time.Time
	written    int
	suppressed int
}

// limitErrors wraps h so WARN and ERROR records are rate-limited per
// message (INFO and DEBUG never are).
func limitErrors(h slog.Handler, now func() time.Time) slog.Handler {
	if now == nil {
		now = time.Now
	}
	return &errorLimitHandler{h: h, l: &errorLimiter{now: now, slots: map[string]*errorSlot{}}}
}

type errorLimitHandler struct {
	h slog.Handler
	l *errorLimiter
}

func (e *errorLimitHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return e.h.Enabled(ctx, level)
}

func (e *errorLimitHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &errorLimitHandler{h: e.h.WithAttrs(as), l: e.l}
}

func (e *errorLimitHandler) WithGroup(name string) slog.Handler {
	return &errorLimitHandler{h: e.h.WithGroup(name), l: e.l}
}

// summary is one message's count of lines left out.
type summary struct {
	level   slog.Level
	message string
	n       int
}

func (e *errorLimitHandler) Handle(ctx context.Context, r slog.Record) error {
	l := e.l
	l.mu.Lock()
	now := l.now()
	var due []summary
	if !now.Before(l.next) {
		// Windows that ended: report what they left out, forget them.
		for m, s := range l.slots {
			if now.Sub(s.start) >= errorWindow {
				if s.suppressed > 0 {
					due = append(due, summary{s.level, m, s.suppressed})
				}
				delete(l.slots, m)
			}
		}
		l.next = now.Add(errorWindow)
	}
	write := true
	if r.Level >= slog.LevelWarn {
		s := l.slots[r.Message]
		if s != nil && now.Sub(s.start) >= errorWindow {
			if s.suppressed > 0 {
				due = append(due, summary{s.level, r.Message, s.suppressed})
			}
			delete(l.slots, r.Message)
			s = nil
		}
		if s == nil {
			if len(l.slots) >= errorMessages {
				clear(l.slots) // bounded: a flood of distinct messages resets the windows
			}
			s = &errorSlot{level: r.Level, start: now}
			l.slots[r.Message] = s
		}
		if s.written < errorBurst {
			s.written++
		} else {
			s.suppressed++
			write = false
		}
	}
	l.mu.Unlock()
	for _, d := range due {
		sr := slog.NewRecord(now, d.level, msgSuppressed, 0)
		sr.AddAttrs(slog.String("message", d.message), slog.Int("suppressed", d.n), slog.Duration("window", errorWindow))
		if err := e.h.Handle(ctx, sr); err != nil {
			return err
		}
	}
	if !write {
		return nil
	}
	return e.h.Handle(ctx, r)
}
