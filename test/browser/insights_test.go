package browser

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/insights"
	"github.com/askplane/askplane/internal/sidecar"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// insightsOwner is the owner token of the insights page in these tests.
const insightsOwner = "owner-token-0123456789abcdef0123456789abcdef"

// serveInsights serves exampleSite's English site with insights on (a
// crowd of 3) and the owner page, on a SQLite store of its own, and
// returns its base URL and a function that waits until what was
// recorded is written.
func serveInsights(t *testing.T, public string) (base string, flush func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	cfg, env, err := sidecar.Dev(public, []string{addr}, []string{"http://" + addr}, "sqlite:"+filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	// 24 readers from one address: more subjects and questions than an
	// address gets by default.
	cfg.Edge.NewSubjects = &sidecar.RateLimit{Requests: 1000, WindowSeconds: 60}
	cfg.Edge.PerAddress = &sidecar.RateLimit{Requests: 1000, WindowSeconds: 60}
	for i := range cfg.Sites {
		if cfg.Sites[i].Language == "en" {
			cfg.Sites[i].Insights = &insights.Config{MinCrowd: 3, OwnerTokenEnv: "ASKPLANE_TEST_OWNER"}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	logger := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := sidecar.New(ctx, cfg, sidecar.Options{Logger: logger, Env: func(name string) (string, bool) {
		if name == "ASKPLANE_TEST_OWNER" {
			return insightsOwner, true
		}
		return env(name)
	}})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		<-served
		srv.Close()
	})
	// The page reads the store: a report is complete once the queue is
	// written, which Close does; here a short wait stands in (the
	// writer gathers for at most insights.BatchDelay).
	return "http://" + addr, func() { time.Sleep(insights.BatchDelay + 500*time.Millisecond) }
}

// busyWindow asks the sidecar what 24 readers would, 50 questions in
// all: questions the docs answer, gaps 8 and 5 readers share, a secret
// one reader typed, and exact answers the widget reported.
func busyWindow(t *testing.T, base string) {
	t.Helper()
	post := func(c *http.Client, path, body string) int {
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body) // a stream left unread is cancelled, and not recorded
		resp.Body.Close()
		return resp.StatusCode
	}
	answerable := []string{"how do I install askplane?", "how do I theme the widget?", "how does the sidecar cite pages?"}
	for r := range 24 {
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar}
		qs := []string{answerable[r%3]}
		if r < 8 {
			qs = append(qs, "kubernetes helm chart for the sidecar")
		}
		if r >= 10 && r < 15 {
			qs = append(qs, "graphql subscriptions")
		}
		if r == 9 {
			qs = append(qs, "my email is zelda.quuxington@example.org")
		}
		for _, q := range qs {
			if st := post(c, "/v1/ask?corpus=docs-en", fmt.Sprintf(`{"protocol":"agentskit.chat.ask","version":1,"messages":[{"role":"user","content":%q}]}`, q)); st != 200 && st != 422 {
				t.Fatalf("%q: %d", q, st)
			}
		}
		if r%2 == 0 {
			if st := post(c, "/v1/feedback?corpus=docs-en", `{"outcome":"exact"}`); st != 204 {
				t.Fatalf("exact report: %d", st)
			}
		}
	}
}

// openInsights opens the owner page of base in a new tab at the given
// width, with the owner's bearer token on every request when owner is
// set, and waits for ready.
func openInsights(t *testing.T, browser context.Context, base, path string, owner bool, width int64, ready string) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	tb := &tab{t: t, ctx: ctx, site: &site{URL: base}}
	if err := chromedp.Listen(ctx, tb.record); err != nil {
		t.Fatal(err)
	}
	steps := []chromedp.Action[chromedp.Void]{chromedp.EmulateViewport(width, 900)}
	if width < 600 {
		steps = []chromedp.Action[chromedp.Void]{chromedp.EmulateViewport(width, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch)}
	}
	tb.do(steps...)
	if owner {
		if _, err := chromedp.Call(ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Authorization": "Bearer " + insightsOwner}}); err != nil {
			t.Fatal(err)
		}
	}
	tb.do(chromedp.Navigate(base+path), chromedp.WaitVisible(chromedp.CSS(ready)))
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](cspProbe)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		tb.assertClean()
		cancelTimeout()
		cancel()
	})
	return tb
}

// TestInsightsPage opens the owner's insights page (issue 28) in
// Chromium: refused without the owner's token; with it, an empty window
// and a busy one (a planted gap shown, a secret one reader typed not),
// at a desktop width and a phone's (no sideways scroll), each
// screenshotted and clean under axe-core, with no CSP violation (the
// page's policy allows nothing but its own markup, inline SVG included).
func TestInsightsPage(t *testing.T) {
	browser := startBrowser(t)
	public := examplePublic(t)
	axe := axeSource(t)
	const path = "/insights/askplane-docs-en/"

	empty, _ := serveInsights(t, public)
	refused := openInsights(t, browser, empty, path, false, 1280, "body")
	refused.expect(`401`)
	if got := refused.eval(`document.body.textContent`); !strings.Contains(got, "bearer token") || strings.Contains(got, "questions") {
		t.Errorf("without the token: %q", got)
	}

	tb := openInsights(t, browser, empty, path, true, 1280, "main[data-insights]")
	if got := tb.eval(`document.querySelector('main').textContent.replace(/\s+/g, ' ')`); !strings.Contains(got, "0 questions from 0 readers") {
		t.Errorf("empty window: %q", got)
	}
	tb.shot("40-insights-empty")
	tb.auditAt(axe, "insights, empty window", "html")

	busy, flush := serveInsights(t, public)
	busyWindow(t, busy)
	flush()
	tb = openInsights(t, browser, busy, path, true, 1280, "main[data-insights]")
	text := tb.eval(`document.body.textContent.replace(/\s+/g, ' ')`)
	for _, want := range []string{"50 questions from 24 readers", "helm kubernet", "graphql subscript", "12 (24%) were answered in the page", "were answered in the page by exact facts", "Download as CSV", "of the site's pages were cited by no answer in this window"} {
		if !strings.Contains(text, want) {
			t.Errorf("busy window: no %q in\n%s", want, text)
		}
	}
	for _, secret := range []string{"zelda", "quuxington", "example.org"} {
		if strings.Contains(strings.ToLower(text), secret) {
			t.Errorf("the page shows %q, which one reader typed", secret)
		}
	}
	if got := tb.eval(`document.querySelectorAll('[data-insights-trend] svg rect').length > 0 && document.querySelectorAll('[data-insights-weeks] tbody tr').length`); got == "false" || got == "0" {
		t.Errorf("no weekly trend: %s", got)
	}
	tb.shot("41-insights-busy")
	tb.auditAt(axe, "insights, busy window", "html")

	phone := openInsights(t, browser, busy, path+"?days=7", true, 390, "main[data-insights]")
	wide := `Array.from(document.querySelectorAll('main *')).filter((e) => e.getBoundingClientRect().right > 391).map((e) => e.tagName + ' ' + e.textContent.slice(0, 40))`
	if got := phone.eval(wide + `.length`); got != "0" {
		t.Errorf("parts of the page are wider than a phone: %s", phone.eval(wide+`.join(' | ')`))
	}
	phone.shot("42-insights-phone")
	phone.auditAt(axe, "insights, phone", "html")
}
