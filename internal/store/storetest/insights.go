package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/store"
)

// RunInsights checks the insight tables' contract (store.Insights):
// keys stored once and rotated, events read back newest first within
// the window, a hidden term revealed only at the crowd, values bounded,
// and pruning by age.
func RunInsights(t *testing.T, open func(t *testing.T) store.Insights) {
	t.Run("key", func(t *testing.T) {
		s := open(t)
		a, err := s.InsightKey(t.Context(), "reader/2026-01-01", []byte("aaaa"), "reader/")
		if err != nil || string(a) != "aaaa" {
			t.Fatalf("first key: %q %v", a, err)
		}
		b, err := s.InsightKey(t.Context(), "reader/2026-01-01", []byte("bbbb"), "reader/")
		if err != nil || string(b) != "aaaa" {
			t.Fatalf("the stored key must win: %q %v", b, err)
		}
		if _, err := s.InsightKey(t.Context(), "reader/2026-01-02", []byte("cccc"), "reader/"); err != nil {
			t.Fatal(err)
		}
		// The old day's key is gone: asking for it again stores the fresh one.
		c, err := s.InsightKey(t.Context(), "reader/2026-01-01", []byte("dddd"), "")
		if err != nil || string(c) != "dddd" {
			t.Fatalf("a rotated key must be discarded: %q %v", c, err)
		}
	})
	t.Run("crowd", func(t *testing.T) {
		s := open(t)
		now := time.Now().UTC().Truncate(time.Millisecond)
		since := now.Add(-time.Hour)
		put := func(reader int, at time.Time) {
			t.Helper()
			err := s.PutInsight(t.Context(), store.InsightPut{
				Event: store.InsightEvent{Site: "s", At: at, Outcome: "no_sources", Lang: "en", Key: "#00aa deploy",
					Reader: fmt.Sprintf("%032x", reader), Pages: []string{"/a/", "/b/"}},
				Hidden: []store.HiddenTerm{{Hash: "#00aa", Stem: "kubernet"}}, MinCrowd: 3, Since: since,
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		put(1, now)
		put(1, now) // the same reader twice is one
		put(2, now.Add(-2*time.Hour))
		put(3, now) // reader 2 is outside the window: 2 of 3
		if m, err := s.InsightTerms(t.Context(), "s"); err != nil || len(m) != 0 {
			t.Fatalf("revealed below the crowd: %v %v", m, err)
		}
		put(4, now)
		if m, err := s.InsightTerms(t.Context(), "s"); err != nil || m["#00aa"] != "kubernet" || len(m) != 1 {
			t.Fatalf("not revealed at the crowd: %v %v", m, err)
		}
		evs, err := s.InsightEvents(t.Context(), "s", since)
		if err != nil || len(evs) != 4 {
			t.Fatalf("events in the window: %d %v", len(evs), err)
		}
		if e := evs[0]; !e.At.Equal(now) || e.Key != "#00aa deploy" || len(e.Pages) != 2 || e.Pages[1] != "/b/" || e.Lang != "en" {
			t.Fatalf("event read back: %+v", e)
		}
		if evs, _ := s.InsightEvents(t.Context(), "other", since); len(evs) != 0 {
			t.Fatalf("sites must not mix: %d", len(evs))
		}
		if err := s.PruneInsights(t.Context(), "s", now.Add(time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if evs, _ := s.InsightEvents(t.Context(), "s", time.Time{}); len(evs) != 0 {
			t.Fatalf("pruned events remain: %d", len(evs))
		}
		if m, _ := s.InsightTerms(t.Context(), "s"); len(m) != 0 {
			t.Fatalf("a revealed term outlived its sightings: %v", m)
		}
	})
	t.Run("bounds", func(t *testing.T) {
		s := open(t)
		ok := store.InsightPut{Event: store.InsightEvent{Site: "s", At: time.Now(), Outcome: "answered", Lang: "en",
			Reader: fmt.Sprintf("%032x", 1)}, MinCrowd: 2}
		for name, mut := range map[string]func(p *store.InsightPut){
			"reader":    func(p *store.InsightPut) { p.Event.Reader = "subject:alice" },
			"key":       func(p *store.InsightPut) { p.Event.Key = string(make([]byte, store.MaxInsightKeyBytes+1)) },
			"pages":     func(p *store.InsightPut) { p.Event.Pages = []string{"/a", "/b", "/c", "/d"} },
			"page line": func(p *store.InsightPut) { p.Event.Pages = []string{"/a\n/b"} },
			"crowd":     func(p *store.InsightPut) { p.MinCrowd = 0 },
			"stem":      func(p *store.InsightPut) { p.Hidden = []store.HiddenTerm{{Hash: "#1", Stem: string(make([]byte, 65))}} },
		} {
			p := ok
			mut(&p)
			var se *store.Error
			if err := s.PutInsight(t.Context(), p); !errors.As(err, &se) || se.Code != store.CodeInvalidRecord {
				t.Errorf("%s: %v, want %s", name, err, store.CodeInvalidRecord)
			}
		}
		if err := s.PutInsight(t.Context(), ok); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("batch", func(t *testing.T) {
		s := open(t)
		now := time.Now().UTC().Truncate(time.Millisecond)
		batch := make([]store.InsightPut, 0, 4)
		for i := range 4 {
			batch = append(batch, store.InsightPut{Event: store.InsightEvent{Site: "s", At: now.Add(time.Duration(i) * time.Millisecond),
				Outcome: "no_sources", Lang: "en", Key: "#00aa", Reader: fmt.Sprintf("%032x", i)},
				Hidden: []store.HiddenTerm{{Hash: "#00aa", Stem: "kubernet"}}, MinCrowd: 3, Since: now.Add(-time.Hour)})
		}
		// One bad put refuses the whole batch: nothing is written.
		bad := append(append([]store.InsightPut(nil), batch...), store.InsightPut{Event: store.InsightEvent{Site: "s", Reader: "x"}, MinCrowd: 2})
		var se *store.Error
		if err := s.PutInsights(t.Context(), bad); !errors.As(err, &se) || se.Code != store.CodeInvalidRecord {
			t.Fatalf("a batch with a bad put: %v, want %s", err, store.CodeInvalidRecord)
		}
		if evs, _ := s.InsightEvents(t.Context(), "s", time.Time{}); len(evs) != 0 {
			t.Fatalf("a refused batch wrote %d events", len(evs))
		}
		if err := s.PutInsights(t.Context(), make([]store.InsightPut, store.MaxInsightBatch+1)); !errors.As(err, &se) {
			t.Fatalf("a batch over MaxInsightBatch: %v", err)
		}
		// A batch reveals within itself: the third reader of the batch
		// makes the crowd.
		if err := s.PutInsights(t.Context(), batch); err != nil {
			t.Fatal(err)
		}
		if evs, _ := s.InsightEvents(t.Context(), "s", time.Time{}); len(evs) != 4 {
			t.Fatalf("%d events, want 4", len(evs))
		}
		if m, _ := s.InsightTerms(t.Context(), "s"); m["#00aa"] != "kubernet" {
			t.Fatalf("the batch's crowd did not reveal its term: %v", m)
		}
	})
}
