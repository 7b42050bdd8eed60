package insights

import (
	"bytes"
	"context"
	"crypto/subtle"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/askplane/askplane/internal/store"
	"github.com/askplane/askplane/internal/web"
)

// PageCSP is the insights page's policy: no script, no style, no
// requests, no frames; the page is its own markup only.
const PageCSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// pageTimeout bounds building a page's report.
const pageTimeout = 15 * time.Second

// Page serves site's report as HTML to its owner: GET with
// "Authorization: Bearer <token>" (compared in constant time), ?days=N
// (1 to MaxRetentionDays, default days). Anything else is 401, 400 or
// 405; a store failure is 503. The response is never cached.
// pages are the site's pages, as its corpus names them, for the pages no
// answer cited (nil: that section is left out).
func Page(s store.Insights, site string, days int, token []byte, pages []string, now func() time.Time) http.Handler {
	if now == nil {
		now = time.Now
	}
	want := []byte("Bearer " + string(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Cache-Control", "no-store")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			hd.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if len(token) == 0 || subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			hd.Set("WWW-Authenticate", `Bearer realm="askplane insights"`)
			http.Error(w, "the site owner's bearer token is required", http.StatusUnauthorized)
			return
		}
		n := days
		if v := r.URL.Query().Get("days"); v != "" {
			d, err := strconv.Atoi(v)
			if err != nil || d < 1 || d > MaxRetentionDays {
				http.Error(w, fmt.Sprintf("days: must be 1 to %d", MaxRetentionDays), http.StatusBadRequest)
				return
			}
			n = d
		}
		format := r.URL.Query().Get("format")
		if format != "" && format != "html" && format != "csv" {
			http.Error(w, "format: must be html or csv", http.StatusBadRequest)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), pageTimeout)
		defer cancel()
		rep, err := Build(ctx, s, site, n, now(), pages)
		if err != nil {
			http.Error(w, "the insights could not be read", http.StatusServiceUnavailable)
			return
		}
		var buf bytes.Buffer
		if format == "csv" {
			rep.WriteCSV(&buf)
			hd.Set("Content-Type", "text/csv; charset=utf-8")
			hd.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="insights-%s-%dd.csv"`, fileSafe(site), n))
			hd.Set("Content-Security-Policy", PageCSP)
			w.Write(buf.Bytes())
			return
		}
		if err := web.Insights(View(rep)).Render(ctx, &buf); err != nil {
			http.Error(w, "the insights could not be shown", http.StatusInternalServerError)
			return
		}
		hd.Set("Content-Type", "text/html; charset=utf-8")
		hd.Set("Content-Security-Policy", PageCSP)
		w.Write(buf.Bytes())
	})
}

// fileSafe is s with every byte but letters, digits, '.', '_' and '-'
// replaced by '_', for a file name in a header.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return r
		}
		return '_'
	}, s)
}

// windows are the report's other windows the page links to.
var windows = []int{7, 30, 90}

// View is rep as the page's view-model.
func View(rep *Report) web.InsightsView {
	vm := web.InsightsView{Site: rep.Site, Days: rep.Days, Since: rep.Since.Format(time.RFC3339), Questions: rep.Questions,
		Readers: rep.Readers, AnswerRate: percent(rep.AnswerRate), Exact: rep.Exact, Deflection: percent(rep.Deflection),
		RareTerms: rep.RareTerms, CSV: fmt.Sprintf("?days=%d&format=csv", rep.Days), Trend: trend(rep.Weeks)}
	ws := windows
	if !slices.Contains(ws, rep.Days) {
		ws = append(slices.Clone(ws), rep.Days)
		slices.Sort(ws)
	}
	for _, d := range ws {
		vm.Windows = append(vm.Windows, web.InsightsWindow{Days: d, Href: fmt.Sprintf("?days=%d", d), Current: d == rep.Days})
	}
	cl := func(cs []Cluster) []web.InsightsCluster {
		out := make([]web.InsightsCluster, 0, len(cs))
		for _, c := range cs {
			out = append(out, web.InsightsCluster{Terms: terms(c), Readers: c.Readers, Questions: c.Questions,
				Outcomes: strings.ReplaceAll(outcomes(c.Outcomes), "_", " "), Rate: percent(c.AnswerRate), Pages: c.Pages})
		}
		return out
	}
	vm.Gaps, vm.Top = cl(rep.Gaps), cl(rep.Top)
	for _, p := range rep.Pages {
		vm.Pages = append(vm.Pages, web.InsightsPage{Page: p.Page, Cited: p.Cited})
	}
	for _, p := range rep.LeastPages {
		vm.LeastPages = append(vm.LeastPages, web.InsightsPage{Page: p.Page, Cited: p.Cited})
	}
	vm.Uncited, vm.UncitedCount = rep.Uncited, rep.UncitedCount
	vm.Helpful, vm.NotHelpful = rep.Helpful, rep.NotHelpful
	for _, p := range rep.NotHelpfulPages {
		vm.NotHelpfulPages = append(vm.NotHelpfulPages, web.InsightsPage{Page: p.Page, Cited: p.Cited})
	}
	return vm
}

func percent(f float64) string { return strings.TrimSpace(fmt.Sprintf("%3.0f%%", 100*f)) }

// The trend chart's layout, in SVG user units: a bar and its gap a
// week, bars scaled to the busiest week.
const (
	trendBar    = 24
	trendGap    = 12
	trendHeight = 120
	trendLabels = 16 // below the bars
	trendPad    = 8
)

// Fills of a bar's segments: in the page, by the backend, the rest.
const (
	fillExact    = "#1d4e89"
	fillAnswered = "#7fb2e5"
	fillOther    = "#e07b39"
)

// trend lays out ws as stacked bars, bottom to top: exact, answered,
// the rest.
func trend(ws []Week) web.InsightsTrend {
	t := web.InsightsTrend{Width: max(2*trendPad+len(ws)*(trendBar+trendGap), 160), Height: trendHeight + trendLabels + trendPad}
	most := 1
	for _, w := range ws {
		most = max(most, w.Questions)
	}
	base := trendPad + trendHeight
	for i, w := range ws {
		x := trendPad + i*(trendBar+trendGap) + trendGap/2
		other := w.Questions - w.Answered - w.Exact
		week := web.InsightsWeek{Label: w.Start.Format(time.DateOnly), Questions: w.Questions, Answered: w.Answered, Exact: w.Exact,
			Other: other, X: x, LabelX: x + trendBar/2, LabelY: base + trendLabels - 4}
		y := base
		for _, seg := range []struct {
			n     int
			fill  string
			label string
		}{{w.Exact, fillExact, "in the page"}, {w.Answered, fillAnswered, "by the backend"}, {other, fillOther, "not answered well"}} {
			if seg.n == 0 {
				continue
			}
			h := max(1, seg.n*trendHeight/most)
			y -= h
			week.Bars = append(week.Bars, web.InsightsBar{X: x, Y: y, Width: trendBar, Height: h, Fill: seg.fill,
				Title: fmt.Sprintf("week of %s: %d %s", week.Label, seg.n, seg.label)})
		}
		t.Weeks = append(t.Weeks, week)
	}
	return t
}
