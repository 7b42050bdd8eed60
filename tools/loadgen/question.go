package loadgen

import (
	"strings"

	"github.com/askplane/askplane/internal/corpus"
)

// Question is one question the load generator asks.
type Question struct {
	Text string
	// Unanswerable marks a question built to find no grounded source, so
	// its 422 ASK_NO_GROUNDED_SOURCES is the designed answer.
	Unanswerable bool
}

// Unanswerable questions are made of words no documentation contains, so
// the lexical evidence engine finds nothing and the handler answers 422.
var unanswerable = []string{
	"zyxwvq plorbt krandlewump",
	"qwxzjv frobnicated glimmerquux",
	"vexillary xqjzb wumpfrazzle",
	"snorgleplatz quuxberry zzyzxv",
}

// Bounds of a question list.
const (
	// MaxQuestions bounds FromCorpus's n.
	MaxQuestions = 10_000
	// maxQuestionBytes keeps a question well under the request's
	// 16,384-unit content limit and realistic for a search box.
	maxQuestionBytes = 200
)

// FromCorpus returns up to n questions (at most MaxQuestions) drawn from
// the corpus's headings, spread evenly over its records so a large corpus
// is exercised everywhere, in record order so a run is reproducible. Each
// is the page title followed by the chunk's deepest heading, which is
// what a reader types when they know the section they want; duplicates
// are dropped.
func FromCorpus(c *corpus.Corpus, n int) []Question {
	n = min(max(n, 0), MaxQuestions)
	if c == nil || n == 0 || len(c.Records) == 0 {
		return nil
	}
	step := max(len(c.Records)/n, 1)
	seen := make(map[string]bool, n)
	out := make([]Question, 0, n)
	for k := 0; k < n && k*step < len(c.Records); k++ {
		// The k-th question comes from the k-th slice of step records, at
		// offset k mod step inside it: a plain stride would keep hitting
		// the same chunk position of regularly shaped pages (every
		// introduction, say) and never ask about their sections.
		i := min(k*step+k%step, len(c.Records)-1)
		q := headingQuestion(&c.Records[i])
		if q == "" || seen[q] {
			continue
		}
		seen[q] = true
		out = append(out, Question{Text: q})
	}
	return out
}

// headingQuestion is "<title> <deepest heading>", or the title alone when
// the chunk has no heading of its own, cut to maxQuestionBytes on a word.
func headingQuestion(r *corpus.Record) string {
	q := strings.TrimSpace(r.Title)
	if n := len(r.Headings); n > 0 {
		if h := strings.TrimSpace(r.Headings[n-1]); h != "" && !strings.EqualFold(h, q) {
			q = strings.TrimSpace(q + " " + h)
		}
	}
	if len(q) > maxQuestionBytes {
		q = q[:maxQuestionBytes]
		if i := strings.LastIndexByte(q, ' '); i > 0 {
			q = q[:i]
		}
		q = strings.ToValidUTF8(q, "")
	}
	return q
}

// Mix returns answerable with one unanswerable question inserted after
// every `every` answerable ones (every ≤ 0 inserts none), cycling through
// the built-in unanswerable questions.
func Mix(answerable []Question, every int) []Question {
	if every <= 0 {
		return answerable
	}
	out := make([]Question, 0, len(answerable)+len(answerable)/every+1)
	for i, q := range answerable {
		out = append(out, q)
		if (i+1)%every == 0 {
			out = append(out, Question{Text: unanswerable[(i/every)%len(unanswerable)], Unanswerable: true})
		}
	}
	if len(answerable) < every {
		out = append(out, Question{Text: unanswerable[0], Unanswerable: true})
	}
	return out
}
