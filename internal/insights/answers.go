package insights

import (
	"slices"
	"sync"
	"time"
)

// Bounds of Answers: the newest MaxAnswers answers, each for AnswerTTL
// (about 300 bytes an answer: 2.5 MiB at most).
const (
	MaxAnswers = 8192
	AnswerTTL  = 24 * time.Hour
)

// Answers remembers the pages each recent answer cited, by the
// context_id its review link names, so that a reader's verdict on it
// (which names only the context_id) can be recorded against those
// pages. It is one instance's memory: a verdict on another instance's
// answer finds nothing. Safe for concurrent use.
type Answers struct {
	mu   sync.Mutex
	m    map[string]answered
	ring []string
	next int
	now  func() time.Time
}

type answered struct {
	pages []string
	at    time.Time
}

// NewAnswers returns an empty Answers on the clock now (nil: time.Now).
func NewAnswers(now func() time.Time) *Answers {
	if now == nil {
		now = time.Now
	}
	return &Answers{m: map[string]answered{}, ring: make([]string, MaxAnswers), now: now}
}

// Add remembers pages as the answer id cited.
func (a *Answers) Add(id string, pages []string) {
	if id == "" {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.m[id]; !ok {
		if old := a.ring[a.next]; old != "" {
			delete(a.m, old)
		}
		a.ring[a.next] = id
		a.next = (a.next + 1) % len(a.ring)
	}
	a.m[id] = answered{slices.Clone(pages), a.now()}
}

// Pages returns the pages the answer id cited, when it was added within
// AnswerTTL.
func (a *Answers) Pages(id string) ([]string, bool) {
	if a == nil {
		return nil, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	e, ok := a.m[id]
	if !ok || a.now().Sub(e.at) >= AnswerTTL {
		return nil, false
	}
	return slices.Clone(e.pages), true
}
