package insights

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/store"
)

// MaxReportRows bounds each list of a Report.
const MaxReportRows = 20

// Report is what insights shows a docs owner.
type Report struct {
	Site      string    `json:"site"`
	Days      int       `json:"days"`
	Since     time.Time `json:"since"`
	Questions int       `json:"questions"`
	// Readers counts distinct readers a day, summed over the days: the
	// readers' key rotates daily, so one reader on two days counts twice.
	Readers int `json:"readers"`
	// AnswerRate is the share of Questions answered, in the page by an
	// exact fact or by the backend with its citations.
	AnswerRate float64 `json:"answerRate"`
	// Exact counts the questions the widget answered in the page from the
	// site's exact facts, with no backend work (it reports them when the
	// site turns insights on); Deflection is their share of Questions.
	Exact      int     `json:"exact"`
	Deflection float64 `json:"deflection"`
	// Gaps are the clusters that ended without a good answer (low
	// confidence, refused, no sources), most readers first.
	Gaps []Cluster `json:"gaps"`
	// Top are the clusters asked most, with their answer rate.
	Top []Cluster `json:"top"`
	// Pages are the pages answers cited most; LeastPages those cited
	// least (at least once: a page no answer cited is not in the store),
	// fewest first.
	Pages      []PageCount `json:"pages"`
	LeastPages []PageCount `json:"leastPages"`
	// Uncited are the site's pages (as the corpus names them) that no
	// answer in the window cited, in the corpus's order, at most
	// MaxReportRows; Uncited and UncitedCount are empty when the report
	// was built without the corpus's pages (from the store alone).
	Uncited      []string `json:"uncited"`
	UncitedCount int      `json:"uncitedCount"`
	// Helpful and NotHelpful count the readers' verdicts on backend
	// answers (feedback); NotHelpfulPages are the pages the answers
	// judged not helpful cited, most often first.
	Helpful         int         `json:"helpful"`
	NotHelpful      int         `json:"notHelpful"`
	NotHelpfulPages []PageCount `json:"notHelpfulPages"`
	// RareTerms counts the distinct terms the corpus does not hold that
	// fewer than MinCrowd readers used: never shown.
	RareTerms int `json:"rareTerms"`
	// Weeks is the trend: one row a UTC week (Monday to Sunday) the
	// window touches, oldest first; the first and last may be partial.
	Weeks []Week `json:"weeks"`
}

// Week is one week's questions by how they ended.
type Week struct {
	Start     time.Time `json:"start"` // Monday 00:00 UTC
	Questions int       `json:"questions"`
	// Answered counts the backend's answers, Exact the widget's exact
	// answers; the rest ended without a good answer.
	Answered int `json:"answered"`
	Exact    int `json:"exact"`
}

// Cluster is the questions of one key.
type Cluster struct {
	// Terms are the key's shown terms; a rare one is left out and
	// counted in Rare.
	Terms      []string       `json:"terms"`
	Rare       int            `json:"rareTerms"`
	Questions  int            `json:"questions"`
	Readers    int            `json:"readers"`
	AnswerRate float64        `json:"answerRate"`
	Outcomes   map[string]int `json:"outcomes"`
	// Pages are, for a gap, the pages that came closest; else the pages
	// cited. Most often first, at most 3.
	Pages []string `json:"pages"`
}

// PageCount is a page and how many answers cited it.
type PageCount struct {
	Page  string `json:"page"`
	Cited int    `json:"cited"`
}

// Build reads site's rows of the last days days (1 to MaxRetentionDays)
// and builds its report.
//
// pages are the site's pages as its corpus names them (URL paths), for
// the pages no answer cited; nil leaves that part of the report out.
func Build(ctx context.Context, s store.Insights, site string, days int, now time.Time, pages []string) (*Report, error) {
	if days < 1 || days > MaxRetentionDays {
		return nil, &FieldError{"days", fmt.Sprintf("must be 1 to %d", MaxRetentionDays)}
	}
	since := now.Add(-time.Duration(days) * 24 * time.Hour)
	events, err := s.InsightEvents(ctx, site, since)
	if err != nil {
		return nil, err
	}
	revealed, err := s.InsightTerms(ctx, site)
	if err != nil {
		return nil, err
	}
	return build(site, days, since.UTC(), now.UTC(), events, revealed, pages), nil
}

// uncited fills Uncited: the pages no answer cited, by cited (a page
// counts cited with any fragment: "/a/#b" cites "/a/").
func (rep *Report) uncited(cited map[string]int, pages []string) {
	rep.Uncited = []string{}
	if len(pages) == 0 {
		return
	}
	paths := make(map[string]bool, len(cited))
	for p := range cited {
		path, _, _ := strings.Cut(p, "#")
		paths[path] = true
	}
	seen := make(map[string]bool, len(pages))
	for _, p := range pages {
		if seen[p] || paths[p] {
			continue
		}
		seen[p] = true
		rep.UncitedCount++
		if len(rep.Uncited) < MaxReportRows {
			rep.Uncited = append(rep.Uncited, p)
		}
	}
}

func good(outcome string) bool {
	return outcome == string(grounding.OutcomeAnswered) || outcome == string(OutcomeExact)
}

// weekStart is the Monday 00:00 UTC starting t's week.
func weekStart(t time.Time) time.Time {
	t = t.UTC()
	d := (int(t.Weekday()) + 6) % 7 // days since Monday
	return time.Date(t.Year(), t.Month(), t.Day()-d, 0, 0, 0, 0, time.UTC)
}

// weeks are the empty rows of the weeks from since's to now's.
func weeks(since, now time.Time) []Week {
	var out []Week
	for w := weekStart(since); !w.After(now); w = w.AddDate(0, 0, 7) {
		out = append(out, Week{Start: w})
	}
	return out
}

type acc struct {
	key       string
	c         Cluster
	readers   map[string]bool
	pages     map[string]int
	answered  int
	firstSeen int
}

func build(site string, days int, since, now time.Time, events []store.InsightEvent, revealed map[string]string, pages []string) *Report {
	rep := &Report{Site: site, Days: days, Since: since, Gaps: []Cluster{}, Top: []Cluster{}, Pages: []PageCount{}, LeastPages: []PageCount{},
		NotHelpfulPages: []PageCount{}, Weeks: weeks(since, now)}
	unhelpful := map[string]int{}
	clusters := map[string]*acc{}
	readers := map[string]bool{}
	rare := map[string]bool{}
	cited := map[string]int{}
	answered := 0
	for i, e := range events {
		if verdict(e.Outcome) {
			if e.Outcome == string(OutcomeHelpful) {
				rep.Helpful++
				continue
			}
			rep.NotHelpful++
			for _, p := range e.Pages {
				unhelpful[p]++
			}
			continue
		}
		rep.Questions++
		day := e.At.UTC().Format(time.DateOnly)
		readers[day+e.Reader] = true
		var wk *Week
		if n := len(rep.Weeks); n > 0 {
			j := int(e.At.Sub(rep.Weeks[0].Start) / (7 * 24 * time.Hour))
			wk = &rep.Weeks[max(0, min(j, n-1))]
			wk.Questions++
		}
		if e.Outcome == string(OutcomeExact) {
			// Answered in the page: no key, no pages, no cluster.
			rep.Exact++
			answered++
			if wk != nil {
				wk.Exact++
			}
			continue
		}
		if wk != nil && good(e.Outcome) {
			wk.Answered++
		}
		a := clusters[e.Key]
		if a == nil {
			a = &acc{key: e.Key, readers: map[string]bool{}, pages: map[string]int{}, firstSeen: i,
				c: Cluster{Terms: []string{}, Outcomes: map[string]int{}}}
			for _, t := range strings.Fields(e.Key) {
				if !strings.HasPrefix(t, HiddenPrefix) {
					a.c.Terms = append(a.c.Terms, t)
				} else if st, ok := revealed[t]; ok {
					a.c.Terms = append(a.c.Terms, st)
				} else {
					a.c.Rare++
					rare[t] = true
				}
			}
			slices.Sort(a.c.Terms)
			clusters[e.Key] = a
		}
		a.c.Questions++
		a.readers[day+e.Reader] = true
		a.c.Outcomes[e.Outcome]++
		if good(e.Outcome) {
			a.answered++
			answered++
		}
		for _, p := range e.Pages {
			a.pages[p]++
			if e.Outcome == string(grounding.OutcomeAnswered) || e.Outcome == string(grounding.OutcomeLowConfidence) {
				cited[p]++
			}
		}
	}
	rep.Readers = len(readers)
	rep.RareTerms = len(rare)
	if rep.Questions > 0 {
		rep.AnswerRate = float64(answered) / float64(rep.Questions)
		rep.Deflection = float64(rep.Exact) / float64(rep.Questions)
	}
	all := make([]*acc, 0, len(clusters))
	for _, a := range clusters {
		a.c.Readers = len(a.readers)
		a.c.AnswerRate = float64(a.answered) / float64(a.c.Questions)
		a.c.Pages = topPages(a.pages, 3)
		all = append(all, a)
	}
	// Gaps: the questions of a cluster that did not end well, most
	// readers first.
	gaps := make([]*acc, 0)
	for _, a := range all {
		if a.answered < a.c.Questions {
			gaps = append(gaps, a)
		}
	}
	slices.SortFunc(gaps, func(x, y *acc) int {
		return cmp.Or(cmp.Compare(y.c.Readers, x.c.Readers), cmp.Compare(y.c.Questions-y.answered, x.c.Questions-x.answered), strings.Compare(x.key, y.key))
	})
	for _, a := range gaps[:min(len(gaps), MaxReportRows)] {
		rep.Gaps = append(rep.Gaps, a.c)
	}
	slices.SortFunc(all, func(x, y *acc) int {
		return cmp.Or(cmp.Compare(y.c.Questions, x.c.Questions), cmp.Compare(y.c.Readers, x.c.Readers), strings.Compare(x.key, y.key))
	})
	for _, a := range all[:min(len(all), MaxReportRows)] {
		rep.Top = append(rep.Top, a.c)
	}
	for _, p := range topPages(cited, MaxReportRows) {
		rep.Pages = append(rep.Pages, PageCount{Page: p, Cited: cited[p]})
	}
	if len(cited) > MaxReportRows {
		// The rest, fewest citations first: the pages readers' questions
		// reach least. (With few pages, "most" already lists them all.)
		all := topPages(cited, len(cited))
		rest := all[MaxReportRows:]
		for i := len(rest) - 1; i >= max(0, len(rest)-MaxReportRows); i-- {
			rep.LeastPages = append(rep.LeastPages, PageCount{Page: rest[i], Cited: cited[rest[i]]})
		}
	}
	rep.uncited(cited, pages)
	for _, p := range topPages(unhelpful, MaxReportRows) {
		rep.NotHelpfulPages = append(rep.NotHelpfulPages, PageCount{Page: p, Cited: unhelpful[p]})
	}
	return rep
}

func topPages(m map[string]int, n int) []string {
	out := make([]string, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b string) int { return cmp.Or(cmp.Compare(m[b], m[a]), strings.Compare(a, b)) })
	return out[:min(len(out), n)]
}

// WriteJSON writes rep as one JSON object.
func (rep *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteText writes rep for a person to read.
func (rep *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Insights for site %s: the last %d days (since %s)\n", rep.Site, rep.Days, rep.Since.Format(time.RFC3339))
	fmt.Fprintf(&b, "%d questions from %d readers (distinct a day), %.0f%% answered\n", rep.Questions, rep.Readers, 100*rep.AnswerRate)
	fmt.Fprintf(&b, "%d answered in the page by exact facts, with no backend work (%.0f%%)\n\n", rep.Exact, 100*rep.Deflection)
	b.WriteString("Coverage gaps (questions that ended without a good answer), most readers first:\n")
	if len(rep.Gaps) == 0 {
		b.WriteString("  none\n")
	}
	for i, c := range rep.Gaps {
		fmt.Fprintf(&b, "  %2d. %s: %s, %s (%s)", i+1, terms(c), count(c.Readers, "reader"), count(c.Questions, "question"), outcomes(c.Outcomes))
		if len(c.Pages) > 0 {
			fmt.Fprintf(&b, "; closest: %s", strings.Join(c.Pages, ", "))
		}
		b.WriteString("\n")
	}
	b.WriteString("\nQuestions asked most:\n")
	if len(rep.Top) == 0 {
		b.WriteString("  none\n")
	}
	for i, c := range rep.Top {
		fmt.Fprintf(&b, "  %2d. %s: %s, %s, %.0f%% answered\n", i+1, terms(c), count(c.Questions, "question"), count(c.Readers, "reader"), 100*c.AnswerRate)
	}
	b.WriteString("\nPages cited most:\n")
	if len(rep.Pages) == 0 {
		b.WriteString("  none\n")
	}
	for _, p := range rep.Pages {
		fmt.Fprintf(&b, "  %5d  %s\n", p.Cited, p.Page)
	}
	if len(rep.LeastPages) > 0 {
		b.WriteString("\nPages cited least (cited at least once):\n")
		for _, p := range rep.LeastPages {
			fmt.Fprintf(&b, "  %5d  %s\n", p.Cited, p.Page)
		}
	}
	if rep.UncitedCount > 0 {
		fmt.Fprintf(&b, "\nPages no answer cited (%d):\n", rep.UncitedCount)
		for _, p := range rep.Uncited {
			fmt.Fprintf(&b, "         %s\n", p)
		}
	}
	fmt.Fprintf(&b, "\nReaders' verdicts: %d helpful, %d not helpful. Pages the answers judged not helpful cited:\n", rep.Helpful, rep.NotHelpful)
	if len(rep.NotHelpfulPages) == 0 {
		b.WriteString("  none\n")
	}
	for _, p := range rep.NotHelpfulPages {
		fmt.Fprintf(&b, "  %5d  %s\n", p.Cited, p.Page)
	}
	b.WriteString("\nBy week (questions, answered by the backend, answered in the page):\n")
	for _, w := range rep.Weeks {
		fmt.Fprintf(&b, "  %s  %5d  %5d  %5d\n", w.Start.Format(time.DateOnly), w.Questions, w.Answered, w.Exact)
	}
	fmt.Fprintf(&b, "\nRare terms: %d (terms the docs do not hold, used by too few readers to be shown)\n", rep.RareTerms)
	_, err := io.WriteString(w, b.String())
	return err
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func terms(c Cluster) string {
	s := strings.Join(c.Terms, " ")
	if c.Rare > 0 {
		if s != "" {
			s += " "
		}
		s += fmt.Sprintf("(+%d rare)", c.Rare)
	}
	if s == "" {
		return "(no terms)"
	}
	return s
}

func outcomes(m map[string]int) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
