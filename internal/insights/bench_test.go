package insights_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/insights"
)

// BenchmarkRecord is the store's cost of one recorded outcome on SQLite,
// the worst case: every term of the question hidden (a corpus that holds
// none of them: a sighting and a crowd count each). "each" records
// one outcome a transaction, as the recorder did before the queue;
// "queued" goes through a Queue, batched as the sidecar records;
// "queued-event-only" is a question with no content term: the event
// row alone, what a question whose terms the corpus holds costs.
func BenchmarkRecord(b *testing.B) {
	question := func(i int) string { return fmt.Sprintf("how do I deploy term%d with helm chart", i%50) }
	out := func(i int) grounding.Outcome {
		return grounding.Outcome{Kind: grounding.OutcomeAnswered, Question: question(i),
			Subject: fmt.Sprintf("anon:%d", i%300), Pages: []string{"/docs/deploy/#deploy"}}
	}
	b.Run("each", func(b *testing.B) {
		rec, err := insights.NewRecorder(open(b), "docs", "en", noVocabulary{}, insights.Config{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; b.Loop(); i++ {
			if err := rec.Record(b.Context(), out(i)); err != nil {
				b.Fatal(err)
			}
		}
	})
	queued := func(b *testing.B) {
		rec, err := insights.NewRecorder(open(b), "docs", "en", noVocabulary{}, insights.Config{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		q := rec.Queue(func(err error) { b.Error(err) })
		defer q.Close()
		start := time.Now()
		for i := 0; b.Loop(); i++ {
			for !q.Add(out(i)) {
				time.Sleep(time.Millisecond) // full: the writer catches up
			}
		}
		if err := q.Flush(b.Context()); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N), "µs-written/op")
	}
	b.Run("queued", queued)
	// The event alone: a question with no content term.
	question = func(int) string { return "how do I" }
	b.Run("queued-event-only", queued)
}
