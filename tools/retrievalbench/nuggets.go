package retrievalbench

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// A Nugget is one thing a useful answer to a question must say: short
// alternative strings taken from the docs (a command, a function, a
// setting, the defining words), any one of which is enough. An answer
// holds a nugget when it contains one of its alternatives, compared
// case-insensitively, with runs of white space as one space, Markdown
// backticks removed on both sides (so "hugo mod get" is held by
// "`hugo mod get -u`") and typographic quotes read as straight ones (Hugo
// renders "dark" as “dark” in prose).
type Nugget []string

// Nugget bounds: a question has 1 to MaxNuggets nuggets; an alternative
// is MinAlternative to MaxAlternative characters once normalized.
const (
	MaxNuggets     = 3
	MinAlternative = 2
	MaxAlternative = 80
)

// normalize is how nuggets and answers are compared: lower case, no
// backticks, straight quotes, white space collapsed to single spaces.
func normalize(s string) string {
	s = plainQuotes.Replace(s)
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

var plainQuotes = strings.NewReplacer("`", "", "“", `"`, "”", `"`, "„", `"`, "‘", "'", "’", "'")

// heldBy reports whether the normalized answer holds n.
func (n Nugget) heldBy(normalizedAnswer string) bool {
	for _, alt := range n {
		if a := normalize(alt); a != "" && strings.Contains(normalizedAnswer, a) {
			return true
		}
	}
	return false
}

// MissedNuggets returns the indexes of the nuggets answer does not hold,
// in order.
func MissedNuggets(answer string, nuggets []Nugget) []int {
	text := normalize(answer)
	var missed []int
	for i, n := range nuggets {
		if !n.heldBy(text) {
			missed = append(missed, i)
		}
	}
	return missed
}

// validateNuggets checks a question's nuggets: absent, or 1 to
// MaxNuggets of them, each with at least one alternative, every
// alternative trimmed, of bounded length, distinct within its nugget and
// not already said by the question (an answer that repeats the question
// must not hold a nugget).
func validateNuggets(q Question) []error {
	if q.Nuggets == nil {
		return nil
	}
	at := fmt.Sprintf("%q", q.Q)
	var errs []error
	if len(q.Nuggets) == 0 || len(q.Nuggets) > MaxNuggets {
		errs = append(errs, fmt.Errorf("%s: %d nuggets, want 1 to %d", at, len(q.Nuggets), MaxNuggets))
	}
	question := normalize(q.Q)
	for i, n := range q.Nuggets {
		if len(n) == 0 {
			errs = append(errs, fmt.Errorf("%s: nuggets[%d] has no alternatives", at, i))
		}
		for j, alt := range n {
			norm := normalize(alt)
			switch {
			case strings.TrimSpace(alt) != alt || norm == "":
				errs = append(errs, fmt.Errorf("%s: nuggets[%d][%d] %q must be non-empty and trimmed", at, i, j, alt))
			case utf8.RuneCountInString(norm) < MinAlternative || utf8.RuneCountInString(norm) > MaxAlternative:
				errs = append(errs, fmt.Errorf("%s: nuggets[%d][%d] %q must be %d to %d characters", at, i, j, alt, MinAlternative, MaxAlternative))
			case strings.Contains(question, norm):
				errs = append(errs, fmt.Errorf("%s: nuggets[%d][%d] %q is already in the question", at, i, j, alt))
			case slices.IndexFunc(n[:j], func(o string) bool { return normalize(o) == norm }) >= 0:
				errs = append(errs, fmt.Errorf("%s: nuggets[%d][%d] %q twice", at, i, j, alt))
			}
		}
	}
	return errs
}

// NuggetScore counts, over the questions that have nuggets, the answers
// holding every nugget and the nuggets held.
type NuggetScore struct {
	N          int // questions with nuggets
	All        int // answers holding every nugget of their question
	Parts      int // nuggets over those questions
	PartsHeld  int // nuggets held
	Answerless int // questions with nuggets the system did not answer
}

// Share is the fraction of questions whose answer holds every nugget.
func (s NuggetScore) Share() float64 {
	if s.N == 0 {
		return 0
	}
	return float64(s.All) / float64(s.N)
}

// PartShare is the fraction of nuggets held.
func (s NuggetScore) PartShare() float64 {
	if s.Parts == 0 {
		return 0
	}
	return float64(s.PartsHeld) / float64(s.Parts)
}

func (s *NuggetScore) add(nuggets, missed int, answered bool) {
	s.N++
	s.Parts += nuggets
	s.PartsHeld += nuggets - missed
	if missed == 0 {
		s.All++
	}
	if !answered {
		s.Answerless++
	}
}

// medianChars is the median length in characters of the answers given
// (refusals left out), 0 when there are none.
func medianChars(results []Outcome) int {
	var n []int
	for _, o := range results {
		if o.Error == "" && o.Answer != "" {
			n = append(n, utf8.RuneCountInString(o.Answer))
		}
	}
	if len(n) == 0 {
		return 0
	}
	slices.Sort(n)
	if len(n)%2 == 1 {
		return n[len(n)/2]
	}
	return (n[len(n)/2-1] + n[len(n)/2]) / 2
}
