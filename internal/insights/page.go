package insights

import (
	"bytes"
	"context"
	"crypto/subtle"
	"fmt"
	"net/http"
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
func Page(s store.Insights, site string, days int, token []byte, now func() time.Time) http.Handler {
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
		ctx, cancel := context.WithTimeout(r.Context(), pageTimeout)
		defer cancel()
		rep, err := Build(ctx, s, site, n, now())
		if err != nil {
			http.Error(w, "the insights could not be read", http.StatusServiceUnavailable)
			return
		}
		var buf bytes.Buffer
		if err := web.Insights(View(rep)).Render(ctx, &buf); err != nil {
			http.Error(w, "the insights could not be shown", http.StatusInternalServerError)
			return
		}
		hd.Set("Content-Type", "text/html; charset=utf-8")
		hd.Set("Content-Security-Policy", PageCSP)
		w.Write(buf.Bytes())
	})
}

// View is rep as the page's view-model.
func View(rep *Report) web.InsightsView {
	vm := web.InsightsView{Site: rep.Site, Days: rep.Days, Since: rep.Since.Format(time.RFC3339), Questions: rep.Questions,
		Readers: rep.Readers, AnswerRate: percent(rep.AnswerRate), RareTerms: rep.RareTerms}
	cl := func(cs []Cluster) []web.InsightsCluster {
		out := make([]web.InsightsCluster, 0, len(cs))
		for _, c := range cs {
			out = append(out, web.InsightsCluster{Terms: terms(c), Readers: c.Readers, Questions: c.Questions,
				Outcomes: outcomes(c.Outcomes), Rate: percent(c.AnswerRate), Pages: c.Pages})
		}
		return out
	}
	vm.Gaps, vm.Top = cl(rep.Gaps), cl(rep.Top)
	for _, p := range rep.Pages {
		vm.Pages = append(vm.Pages, web.InsightsPage{Page: p.Page, Cited: p.Cited})
	}
	return vm
}

func percent(f float64) string { return strings.TrimSpace(fmt.Sprintf("%3.0f%%", 100*f)) }
