package sidecar

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/store"
)

// A model site's answers are durable runs, and insights records them as
// it records live answers: once a run, when the worker ends it, with the
// pages the answer cited (answered) or the pages shown to a model whose
// answer cited none of them (refused), under the run's subject; a
// reader who joins the run again (the same Idempotency-Key) records
// nothing more.
func TestDurableAnswersRecordedInInsights(t *testing.T) {
	id := corpus.RecordID("/docs/install/", "install")
	for _, tc := range []struct {
		name, reply, outcome string
		pages                []string
	}{
		{"answered", `{"cites":["` + id + `"],"answer":"Install it with go install."}`, "answered", []string{"/docs/install/#install"}},
		{"refused", `{"cites":["not-a-record"],"answer":"Who knows."}`, "refused", []string{"/docs/install/#install"}},
		{"error", `this is not the answer's JSON`, "error", []string{"/docs/install/#install"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := newFakeProvider(t, "openai-compatible", tc.reply)
			s, srv := durableServer(t, fake.srv.URL, filepath.Join(t.TempDir(), "s.db"), `,"runs":{},"insights":{"minCrowd":2}`)
			c := reader(t)
			a := post(t, c, srv.URL+"/v1/ask", askJSON("how do I install askplane?"), "Idempotency-Key", "q-1")
			if a.header.Get("X-Askplane-Run") == "" {
				t.Fatalf("not a run: %d %s", a.status, a.body)
			}
			post(t, c, srv.URL+"/v1/ask", askJSON("how do I install askplane?"), "Idempotency-Key", "q-1")
			// The run ended before its last event was written; its outcome
			// is queued by then.
			if err := s.flushInsights(t.Context()); err != nil {
				t.Fatal(err)
			}
			evs, err := s.sessions.(store.Insights).InsightEvents(t.Context(), "docs", time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != 1 {
				t.Fatalf("%d events, want the run's one: %+v", len(evs), evs)
			}
			e := evs[0]
			if e.Outcome != tc.outcome || e.Key != "askplan instal" || !slices.Equal(e.Pages, tc.pages) || len(e.Reader) != 32 {
				t.Errorf("event %+v, want %s with %q", e, tc.outcome, tc.pages)
			}
		})
	}
}
