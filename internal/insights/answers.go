package insights

import (
	"slices"
	"time"

	"github.com/askplane/askplane/internal/limit"
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
type Answers struct{ r *limit.Recent[[]string] }

// NewAnswers returns an empty Answers on the clock now (nil: time.Now).
func NewAnswers(now func() time.Time) *Answers {
	return &Answers{limit.NewRecent[[]string](MaxAnswers, AnswerTTL, now)}
}

// Add remembers pages as the answer id cited.
func (a *Answers) Add(id string, pages []string) {
	if id != "" {
		a.r.Add(id, slices.Clone(pages))
	}
}

// Pages returns the pages the answer id cited, when it was added within
// AnswerTTL.
func (a *Answers) Pages(id string) ([]string, bool) {
	if a == nil {
		return nil, false
	}
	p, ok := a.r.Get(id)
	return slices.Clone(p), ok
}
