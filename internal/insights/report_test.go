package insights_test

import (
	"encoding/csv"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/insights"
)

// Exact answers the widget reported count as answered in the page: in
// the totals, the deflection share and the week's row, never in a
// cluster; the weeks run Monday to Sunday UTC, oldest first, one row a
// week the window touches, empty weeks included.
func TestReportExactAndWeeks(t *testing.T) {
	s := open(t)
	// Wednesday 2026-01-21; the 21-day window starts Wednesday
	// 2025-12-31, in the week of Monday 2025-12-29.
	now := time.Date(2026, 1, 21, 12, 0, 0, 0, time.UTC)
	c := &clock{}
	rec, err := insights.NewRecorder(s, "docs", "en", noVocabulary{}, insights.Config{MinCrowd: 2}, c.now)
	if err != nil {
		t.Fatal(err)
	}
	record := func(at time.Time, kind grounding.OutcomeKind, q string, pages ...string) {
		t.Helper()
		c.t = at
		if err := rec.Record(t.Context(), grounding.Outcome{Kind: kind, Question: q, Subject: "anon:one", Pages: pages}); err != nil {
			t.Fatal(err)
		}
	}
	wk1 := time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC) // Friday of the week of 2025-12-29
	record(wk1, insights.OutcomeExact, "")
	record(wk1, insights.OutcomeExact, "")
	record(wk1, grounding.OutcomeAnswered, "deploy", "=HYPERLINK(\"http://evil\")")
	// The week of 2026-01-05: nothing. The week of 2026-01-12:
	record(time.Date(2026, 1, 18, 23, 0, 0, 0, time.UTC), grounding.OutcomeNoSources, "kubernetes")
	record(time.Date(2026, 1, 19, 0, 0, 0, 0, time.UTC), insights.OutcomeExact, "") // Monday: the next week
	rep, err := insights.Build(t.Context(), s, "docs", 21, now, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Questions != 5 || rep.Exact != 3 || rep.Deflection != 0.6 || rep.AnswerRate != 0.8 {
		t.Errorf("questions %d exact %d deflection %v answer rate %v", rep.Questions, rep.Exact, rep.Deflection, rep.AnswerRate)
	}
	for _, cl := range append(rep.Top, rep.Gaps...) {
		if cl.Outcomes[string(insights.OutcomeExact)] > 0 {
			t.Errorf("an exact answer in a cluster: %+v", cl)
		}
	}
	want := []insights.Week{
		{Start: time.Date(2025, 12, 29, 0, 0, 0, 0, time.UTC), Questions: 3, Answered: 1, Exact: 2},
		{Start: time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)},
		{Start: time.Date(2026, 1, 12, 0, 0, 0, 0, time.UTC), Questions: 1},
		{Start: time.Date(2026, 1, 19, 0, 0, 0, 0, time.UTC), Questions: 1, Exact: 1},
	}
	if len(rep.Weeks) != len(want) {
		t.Fatalf("weeks %+v, want %+v", rep.Weeks, want)
	}
	for i := range want {
		if !rep.Weeks[i].Start.Equal(want[i].Start) || rep.Weeks[i].Questions != want[i].Questions ||
			rep.Weeks[i].Answered != want[i].Answered || rep.Weeks[i].Exact != want[i].Exact {
			t.Errorf("week %d: %+v, want %+v", i, rep.Weeks[i], want[i])
		}
	}
	var text strings.Builder
	rep.WriteText(&text)
	if !strings.Contains(text.String(), "3 answered in the page by exact facts, with no backend work (60%)") ||
		!strings.Contains(text.String(), "  2025-12-29      3      1      2") {
		t.Errorf("text report:\n%s", text.String())
	}

	// The CSV reads back as one table with a fixed header; a cell a
	// spreadsheet would evaluate is defused.
	var out strings.Builder
	if err := rep.WriteCSV(&out); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(out.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != strings.Join(insights.CSVHeader, ",") {
		t.Errorf("header %q", rows[0])
	}
	sections := map[string]int{}
	for _, r := range rows[1:] {
		sections[r[0]]++
		if r[0] == "page" && r[2] != `'=HYPERLINK("http://evil")` {
			t.Errorf("a formula cell was not defused: %q", r[2])
		}
	}
	if sections["total"] != 1 || sections["week"] != 4 || sections["gap"] != 1 || sections["top"] != 2 || sections["page"] != 1 {
		t.Errorf("sections %v", sections)
	}
	if rows[1][0] != "total" || rows[1][3] != "5" || rows[1][5] != "4" || rows[1][6] != "3" || rows[1][7] != "0.800" {
		t.Errorf("total row %q", rows[1])
	}
}

// Past the MaxReportRows pages cited most, the report lists the pages
// cited least, fewest first; with fewer pages it lists none (the most
// cited already shows them all).
func TestReportLeastCitedPages(t *testing.T) {
	s := open(t)
	c := &clock{time.Date(2026, 1, 21, 12, 0, 0, 0, time.UTC)}
	rec, err := insights.NewRecorder(s, "docs", "en", noVocabulary{}, insights.Config{MinCrowd: 2}, c.now)
	if err != nil {
		t.Fatal(err)
	}
	pages := insights.MaxReportRows + 5
	for p := range pages {
		for range p + 1 { // page p cited p+1 times
			if err := rec.Record(t.Context(), grounding.Outcome{Kind: grounding.OutcomeAnswered, Question: "deploy", Subject: "anon:a",
				Pages: []string{fmt.Sprintf("/p%02d/", p)}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	rep, err := insights.Build(t.Context(), s, "docs", 7, c.t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Pages) != insights.MaxReportRows || rep.Pages[0].Page != fmt.Sprintf("/p%02d/", pages-1) {
		t.Errorf("most cited %+v", rep.Pages)
	}
	var least []string
	for _, p := range rep.LeastPages {
		least = append(least, fmt.Sprintf("%s=%d", p.Page, p.Cited))
	}
	if strings.Join(least, " ") != "/p00/=1 /p01/=2 /p02/=3 /p03/=4 /p04/=5" {
		t.Errorf("least cited %q", least)
	}
}

// Given the site's pages, the report lists those no answer in the window
// cited: a citation of a section ("/a/#b") cites its page, and a
// verdict cites nothing.
func TestReportUncitedPages(t *testing.T) {
	s := open(t)
	c := &clock{time.Date(2026, 1, 21, 12, 0, 0, 0, time.UTC)}
	rec, err := insights.NewRecorder(s, "docs", "en", noVocabulary{}, insights.Config{MinCrowd: 2}, c.now)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/install/#linux", "/deploy/"} {
		if err := rec.Record(t.Context(), grounding.Outcome{Kind: grounding.OutcomeAnswered, Question: "deploy", Subject: "anon:a", Pages: []string{p}}); err != nil {
			t.Fatal(err)
		}
	}
	site := []string{"/", "/install/", "/deploy/", "/faq/", "/install/"}
	rep, err := insights.Build(t.Context(), s, "docs", 7, c.t, site)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rep.Uncited, " "); got != "/ /faq/" || rep.UncitedCount != 2 {
		t.Errorf("uncited %q (%d)", got, rep.UncitedCount)
	}
	var text strings.Builder
	rep.WriteText(&text)
	if !strings.Contains(text.String(), "Pages no answer cited (2):") {
		t.Errorf("text report:\n%s", text.String())
	}
	without, err := insights.Build(t.Context(), s, "docs", 7, c.t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(without.Uncited) != 0 || without.UncitedCount != 0 {
		t.Errorf("without the corpus's pages: %v", without.Uncited)
	}
}
