package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/sitetest"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axeSource is node_modules/axe-core/axe.min.js (package.json pins the
// version; scripts/test.sh runs npm ci when it is missing).
func axeSource(t *testing.T) string {
	t.Helper()
	p := filepath.Join(sitetest.Root(), "node_modules", "axe-core", "axe.min.js")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("axe-core is missing (run npm ci): %v", err)
	}
	return string(b)
}

type axeViolation struct {
	ID, Impact, Help string
	Nodes            []struct {
		Target         []any
		FailureSummary string
	}
}

// audit injects axe-core into the page and runs it on the widget's root.
// chromedp's Evaluate is CDP Runtime.evaluate, which the page's CSP does
// not apply to, so the audited page keeps the strict policy.
func (tb *tab) audit(axe, state string) {
	tb.t.Helper()
	tb.auditAt(axe, state, "[data-askplane-root]")
}

// auditAt runs axe-core on the element root selects.
func (tb *tab) auditAt(axe, state, root string) {
	tb.t.Helper()
	tb.settle()
	if _, err := chromedp.Run(tb.ctx, chromedp.Evaluate[any](axe+"\n;undefined")); err != nil {
		tb.t.Fatalf("inject axe-core: %v", err)
	}
	raw := tb.eval(`axe.run(document.querySelector(` + strconv.Quote(root) + `), {resultTypes: ['violations']}).then((r) => JSON.stringify(r.violations))`)
	var vs []axeViolation
	if err := json.Unmarshal([]byte(raw), &vs); err != nil {
		tb.t.Fatalf("%s: axe result %q: %v", state, raw, err)
	}
	for _, v := range vs {
		var nodes []string
		for _, n := range v.Nodes {
			nodes = append(nodes, fmt.Sprintf("    %v: %s", n.Target, strings.ReplaceAll(n.FailureSummary, "\n", " ")))
		}
		tb.t.Errorf("%s: axe %s (%s): %s\n%s", state, v.ID, v.Impact, v.Help, strings.Join(nodes, "\n"))
	}
	if len(vs) == 0 {
		tb.t.Logf("%s: axe-core reports no violations", state)
	}
}

// accessibility audits the widget with axe-core in every state a reader
// reaches: closed, open, an answer, choices, a running stream, offline,
// and in French (/fr/) open and after an escalated answer.
func accessibility(t *testing.T, browser context.Context, public string) {
	axe := axeSource(t)
	t.Run("ClosedOpen", func(t *testing.T) {
		tb := openTab(t, browser, newSite(t, public, nil), "/")
		tb.audit(axe, "closed")
		tb.open()
		tb.audit(axe, "open")
	})
	t.Run("Answer", func(t *testing.T) {
		tb := openTab(t, browser, newSite(t, public, nil), "/")
		tb.open()
		tb.ask("upgrade askplane")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]')`)
		tb.audit(axe, "answer")
	})
	t.Run("Choices", func(t *testing.T) {
		tb := openTab(t, browser, newSite(t, public, nil), "/")
		tb.open()
		tb.ask("install")
		tb.wait(`document.querySelectorAll('[data-askplane-log] [data-askplane-choice]').length >= 2`)
		tb.audit(axe, "choices")
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-log] [data-askplane-choice]")))
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]')`)
		tb.audit(axe, "choice answered")
	})
	t.Run("Stream", func(t *testing.T) {
		s := newSite(t, public, func(s *site) {
			s.deltas = nil
			for i := 0; i < 80; i++ {
				s.deltas = append(s.deltas, "word ")
			}
			s.delay = 100 * time.Millisecond
		})
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("how does the sidecar cite pages")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream] [data-askplane-markdown]')?.textContent.length >= 10`)
		tb.audit(axe, "streaming")
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-log] [data-askplane-stream] [data-askplane-stop]")))
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		tb.audit(axe, "stopped")
	})
	t.Run("StreamDone", func(t *testing.T) {
		tb := openTab(t, browser, newSite(t, public, nil), "/")
		tb.open()
		tb.ask("how does the sidecar cite pages")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		tb.audit(axe, "stream done")
	})
	t.Run("DarkScheme", func(t *testing.T) {
		tb := openTab(t, browser, newSite(t, public, nil), "/")
		dark := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}
		if _, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, dark); err != nil {
			t.Fatal(err)
		}
		tb.open()
		tb.ask("install")
		tb.wait(`document.querySelectorAll('[data-askplane-log] [data-askplane-choice]').length >= 2`)
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-log] [data-askplane-choice]")))
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]')`)
		if got := tb.eval(`matchMedia('(prefers-color-scheme: dark)').matches`); got != "true" {
			t.Fatalf("dark scheme not emulated: %s", got)
		}
		tb.audit(axe, "dark choice answered")
	})
	t.Run("French", func(t *testing.T) {
		tb := openTab(t, browser, newSite(t, public, nil), "/fr/")
		tb.open()
		tb.audit(axe, "fr open")
		tb.ask("quelle est la vitesse d'une hirondelle à vide")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		tb.audit(axe, "fr stream done")
	})
	t.Run("Offline", func(t *testing.T) {
		s := newSite(t, public, func(s *site) {
			s.rewriteSite = func(b []byte) []byte {
				return []byte(strings.Replace(string(b), `"fallback":{"mode":"backend"}`, `"fallback":{"mode":"disabled"}`, 1))
			}
		})
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("what is the airspeed of an unladen swallow")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-offline]')`)
		tb.audit(axe, "offline")
	})
	t.Run("Error", func(t *testing.T) {
		s := newSite(t, public, func(s *site) { s.askStatus.Store(503) })
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("how does the sidecar cite pages")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-error]')`)
		tb.allow(`503`)
		tb.audit(axe, "error")
	})
}
