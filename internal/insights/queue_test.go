package insights_test

import (
	"testing"
	"time"

	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/insights"
)

// A Queue takes outcomes without touching the store, writes them in
// batches (Flush waits for what was added), writes what is still queued
// when closed, and takes nothing after.
func TestQueueWritesInBatchesAndOnClose(t *testing.T) {
	s := open(t)
	c := &clock{time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	rec, err := insights.NewRecorder(s, "docs", "en", noVocabulary{}, insights.Config{MinCrowd: 2}, c.now)
	if err != nil {
		t.Fatal(err)
	}
	var failed []error
	q := rec.Queue(func(err error) { failed = append(failed, err) })
	add := func(n int) {
		for i := range n {
			if !q.Add(grounding.Outcome{Kind: grounding.OutcomeAnswered, Question: "deploy", Subject: "anon:" + string(rune('a'+i%26))}) {
				t.Fatalf("outcome %d not taken", i)
			}
		}
	}
	add(insights.MaxBatch + 10)
	if err := q.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if evs, _ := s.InsightEvents(t.Context(), "docs", time.Time{}); len(evs) != insights.MaxBatch+10 {
		t.Fatalf("%d events after Flush, want %d", len(evs), insights.MaxBatch+10)
	}
	add(5)
	q.Close()
	if evs, _ := s.InsightEvents(t.Context(), "docs", time.Time{}); len(evs) != insights.MaxBatch+15 {
		t.Fatalf("%d events after Close, want %d", len(evs), insights.MaxBatch+15)
	}
	if q.Add(grounding.Outcome{Kind: grounding.OutcomeAnswered, Question: "deploy", Subject: "anon:z"}) || q.Dropped() != 1 {
		t.Errorf("a closed queue took an outcome (dropped %d)", q.Dropped())
	}
	if len(failed) != 0 {
		t.Errorf("writes failed: %v", failed)
	}
}
