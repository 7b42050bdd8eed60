package browser

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
	"github.com/askplane/askplane/internal/static"
	"github.com/chromedp/chromedp"
)

// originSite is a one-page site whose one fact (phrase → answer) is its
// own, under its own siteId, asking /v1/ask when the artifact has no
// answer.
func originSite(siteID, phrase, answer string) string {
	return sitetest.Layouts + `
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Docs"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[params.askplane]
siteId = "` + siteID + `"
fallback = "backend"
endpoint = "/v1/ask"
-- content/_index.md --
---
title: Home
askplane:
  facts:
    - id: probe
      kind: command
      label: Probe
      match: [` + phrase + `]
      answer: ` + answer + `
---
Home.
`
}

// TestTwoSitesOneOrigin serves one site, then another, at the same
// address, with the static handler askplane serve uses (its cache
// headers), in one chromium whose HTTP cache keeps what the first site
// served: the second site's page names its own site config, so its fact
// answers from its own artifact. The second site is built first, so its
// files are older than the first's: what tells them apart is what they
// hold, not their times. A site.json that does not match its page (a
// cache that ignores the query would serve one) is fetched again past the
// cache, and one that still does not match is not trusted.
func TestTwoSitesOneOrigin(t *testing.T) {
	browser := startBrowser(t)
	beta := sitetest.Build(t, originSite("beta", "beta probe", "Beta answer."))
	alpha := sitetest.Build(t, originSite("alpha", "alpha probe", "Alpha answer."))
	handler := func(dir string) *static.Handler {
		h, err := static.New(dir, static.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		return h
	}
	var (
		current  atomic.Pointer[static.Handler]
		asks     atomic.Int32
		mu       sync.Mutex
		siteGets int
		// swap, when set, answers the nth request for site.json (from 1)
		// with other bytes, or returns nil to serve the file.
		swap func(n int) []byte
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/ask" {
			asks.Add(1)
			http.NotFound(w, r)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/site.json") {
			mu.Lock()
			siteGets++
			var body []byte
			if swap != nil {
				body = swap(siteGets)
			}
			mu.Unlock()
			if body != nil {
				w.Header().Set("Content-Type", "application/json")
				w.Write(body)
				return
			}
		}
		current.Load().ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	s := &site{URL: srv.URL}
	answer := func(tb *tab, question, want string) {
		t.Helper()
		tb.open()
		tb.ask(question)
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]:not([data-askplane-stream]), [data-askplane-log] [data-askplane-error]')`)
		if got := tb.text("[data-askplane-answer]:not([data-askplane-stream]) [data-askplane-markdown]"); got != want {
			t.Errorf("%q answered %q; want %q from the site's own artifact", question, got, want)
		}
	}
	reset := func(f func(int) []byte) {
		mu.Lock()
		siteGets, swap = 0, f
		mu.Unlock()
	}
	gets := func() int {
		mu.Lock()
		defer mu.Unlock()
		return siteGets
	}

	t.Run("OneThenTheOther", func(t *testing.T) {
		current.Store(handler(alpha.Public))
		tb := openTab(t, browser, s, "/")
		answer(tb, "alpha probe", "Alpha answer.")
		// The other site, at the same address, in the same tab.
		current.Store(handler(beta.Public))
		tb.do(chromedp.Navigate(srv.URL+"/"), chromedp.WaitReady(`[data-askplane-root][data-askplane-ready]`))
		if got := tb.eval(`document.querySelector('[data-askplane-root]').getAttribute('data-askplane-site')`); !strings.HasPrefix(got, "/askplane/en/site.json?v=") {
			t.Errorf("the page names its site config %q; want it keyed by its hash", got)
		}
		// Not the first site's conversation either: it is kept under the
		// site config's URL.
		if n := tb.count("[data-askplane-question-text]"); n != 0 {
			t.Errorf("the second site shows %d questions asked on the first", n)
		}
		answer(tb, "beta probe", "Beta answer.")
		if n := asks.Load(); n != 0 {
			t.Errorf("%d Ask requests; want none: each fact answers locally", n)
		}
		tb.shot("40-second-site-same-origin")
	})

	t.Run("MismatchFetchedAgain", func(t *testing.T) {
		current.Store(handler(alpha.Public))
		other := beta.ReadFile("askplane/en/site.json")
		reset(func(n int) []byte {
			if n == 1 {
				return other
			}
			return nil
		})
		tb := openTab(t, browser, s, "/")
		answer(tb, "alpha probe", "Alpha answer.")
		if n := gets(); n != 2 {
			t.Errorf("%d requests for site.json; want 2, the second past the cache", n)
		}
	})

	t.Run("MismatchDistrusted", func(t *testing.T) {
		asks.Store(0)
		current.Store(handler(alpha.Public))
		other := beta.ReadFile("askplane/en/site.json")
		reset(func(int) []byte { return other })
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("alpha probe")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-error]')`)
		if n := tb.count("[data-askplane-answer]:not([data-askplane-stream])"); n != 0 {
			t.Errorf("a site config that does not match its page answered")
		}
		if n := asks.Load(); n != 1 {
			t.Errorf("%d Ask requests; want the question escalated", n)
		}
		if n := gets(); n != 2 {
			t.Errorf("%d requests for site.json; want 2", n)
		}
		tb.allow(`404|/v1/ask`)
	})
}
