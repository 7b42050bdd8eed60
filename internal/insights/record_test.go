package insights_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/insights"
	"github.com/askplane/askplane/internal/store"
)

// noVocabulary is an engine that keeps no vocabulary: every term is
// one the corpus does not hold.
type noVocabulary struct{}

func (noVocabulary) ID() string                                          { return "test" }
func (noVocabulary) SourceVersion() string                               { return "sha256:0" }
func (noVocabulary) Search(string, evidence.Budget) (p evidence.Package) { return p }

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func open(t testing.TB) *store.SQLite {
	s, err := store.OpenSQLite(t.Context(), filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Rows past the window are deleted as the recorder goes on recording,
// and the report never counts them; the readers' key rotates each UTC
// day, so one reader on two days is two hashes, and the old day's key
// is gone from the store.
func TestRetentionAndRotation(t *testing.T) {
	s := open(t)
	c := &clock{time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	rec, err := insights.NewRecorder(s, "docs", "en", noVocabulary{}, insights.Config{RetentionDays: 7, MinCrowd: 2}, c.now)
	if err != nil {
		t.Fatal(err)
	}
	ask1 := func() {
		t.Helper()
		if err := rec.Record(t.Context(), grounding.Outcome{Kind: grounding.OutcomeNoSources, Question: "kubernetes?", Subject: "anon:reader-1"}); err != nil {
			t.Fatal(err)
		}
	}
	ask1()
	ask1()
	c.t = c.t.Add(24 * time.Hour)
	ask1()
	evs, err := s.InsightEvents(t.Context(), "docs", time.Time{})
	if err != nil || len(evs) != 3 {
		t.Fatalf("%d events (%v), want 3", len(evs), err)
	}
	if evs[0].Reader == evs[2].Reader || evs[1].Reader != evs[2].Reader {
		t.Errorf("readers %q %q %q: one hash a day", evs[0].Reader, evs[1].Reader, evs[2].Reader)
	}
	// The first day's key was discarded at rotation: asking the store for
	// it gives back the fresh key offered, not the old one.
	if k, err := s.InsightKey(t.Context(), "reader/2026-01-01", []byte("fresh"), ""); err != nil || string(k) != "fresh" {
		t.Errorf("the rotated key is still stored: %q %v", k, err)
	}
	// Two "readers" (one reader on two days) used the hidden term: the
	// crowd of 2 shows it.
	rep, err := insights.Build(t.Context(), s, "docs", 7, c.t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Gaps) != 1 || strings.Join(rep.Gaps[0].Terms, " ") != "kubernetes" || rep.Gaps[0].Readers != 2 || rep.Questions != 3 {
		t.Errorf("report %+v", rep)
	}
	// Eight days on, a new question prunes the old rows.
	c.t = c.t.Add(8 * 24 * time.Hour)
	if err := rec.Record(t.Context(), grounding.Outcome{Kind: grounding.OutcomeAnswered, Question: "deploy", Subject: "anon:reader-2", Pages: []string{"/docs/deploy/"}}); err != nil {
		t.Fatal(err)
	}
	evs, err = s.InsightEvents(t.Context(), "docs", time.Time{})
	if err != nil || len(evs) != 1 || evs[0].Outcome != "answered" {
		t.Fatalf("after the window: %d events (%v), want the new one only", len(evs), err)
	}
	if terms, _ := s.InsightTerms(t.Context(), "docs"); len(terms) != 0 {
		t.Errorf("a revealed term outlived its window: %v", terms)
	}
}

// A term the corpus does not hold stays hidden below the crowd: the
// report counts it as rare and shows no word of it.
func TestRareTermsHidden(t *testing.T) {
	s := open(t)
	c := &clock{time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	rec, err := insights.NewRecorder(s, "docs", "en", noVocabulary{}, insights.Config{MinCrowd: 3}, c.now)
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range []string{"alice@example.com login", "login", "login"} {
		if err := rec.Record(t.Context(), grounding.Outcome{Kind: grounding.OutcomeLowConfidence, Question: q, Subject: "anon:" + string(rune('a'+i))}); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := insights.Build(t.Context(), s, "docs", 30, c.t, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	rep.WriteText(&out)
	if strings.Contains(out.String(), "alice") || strings.Contains(out.String(), "example") || rep.RareTerms != 3 {
		t.Errorf("rare terms shown or miscounted (%d):\n%s", rep.RareTerms, out.String())
	}
	if !strings.Contains(out.String(), "login: 2 readers") {
		t.Errorf("the crowd's term is not shown:\n%s", out.String())
	}
}

// The setting is checked, each error naming its field.
func TestConfigCheck(t *testing.T) {
	for _, c := range []struct {
		cfg   insights.Config
		field string
	}{
		{insights.Config{RetentionDays: 366}, "retentionDays"},
		{insights.Config{MinCrowd: 1}, "minCrowd"},
	} {
		err := c.cfg.Check()
		fe, ok := err.(*insights.FieldError)
		if !ok || fe.Field != c.field {
			t.Errorf("%+v: %v, want a FieldError on %s", c.cfg, err, c.field)
		}
	}
	if got := (insights.Config{}).Or(); got.RetentionDays != 30 || got.MinCrowd != 5 {
		t.Errorf("defaults %+v", got)
	}
}

// Two instances on one store share the day's key and the term key: the
// same reader is one reader, and a hidden term is one hash, whichever
// instance recorded it.
func TestInstancesShareKeys(t *testing.T) {
	s := open(t)
	c := &clock{time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	var recs []*insights.Recorder
	for range 2 {
		r, err := insights.NewRecorder(s, "docs", "en", noVocabulary{}, insights.Config{MinCrowd: 2}, c.now)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	for _, r := range recs {
		if err := r.Record(t.Context(), grounding.Outcome{Kind: grounding.OutcomeNoSources, Question: "kubernetes", Subject: "anon:one"}); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := insights.Build(t.Context(), s, "docs", 30, c.t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Top) != 1 || rep.Readers != 1 || rep.Top[0].Questions != 2 || rep.Top[0].Rare != 1 {
		t.Errorf("two instances split one reader or one term: %+v", rep)
	}
}
