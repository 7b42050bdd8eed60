package browser

import (
	"context"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
	"github.com/chromedp/chromedp"
)

// mobileWidth opens the widget at a phone's width (390 × 844, touch, a
// device scale of 3) on exampleSite and on the host theme switched dark:
// the panel stays inside the viewport and the page never scrolls
// sideways, with choices, an exact answer and a backend answer, each
// state screenshotted and audited.
func mobileWidth(t *testing.T, browser context.Context, public string) {
	axe := axeSource(t)
	phone := func(tb *tab, path string) {
		t.Helper()
		tb.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch),
			chromedp.Navigate(tb.site.URL+path), chromedp.WaitVisible(chromedp.CSS("[data-askplane-launcher]")))
	}
	fits := func(tb *tab, state string) {
		t.Helper()
		if got := tb.eval(`(() => { const r = document.querySelector('[data-askplane-panel]').getBoundingClientRect();
			return [r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight, document.documentElement.scrollWidth <= innerWidth].join(' ') })()`); got != "true true" {
			t.Errorf("%s: panel inside the viewport, no sideways scroll: %s", state, got)
		}
	}

	t.Run("ExampleSite", func(t *testing.T) {
		tb := openTab(t, browser, newSite(t, public, nil), "/")
		phone(tb, "/")
		tb.open()
		fits(tb, "open")
		tb.ask("install")
		tb.wait(`document.querySelectorAll('[data-askplane-log] [data-askplane-choice]').length >= 2`)
		fits(tb, "choices")
		tb.shot("34-mobile-choices")
		tb.audit(axe, "mobile choices")
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-log] [data-askplane-choice]")))
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]')`)
		tb.ask("how does the sidecar cite pages")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][data-askplane-state="done"]')`)
		fits(tb, "backend answer")
		tb.shot("35-mobile-backend-answer")
		tb.audit(axe, "mobile backend answer")
	})

	// Code at a phone's width: inline code in a declared fact's answer
	// and in a backend answer is <code>; a code block keeps its lines and
	// scrolls sideways (a tab stop), never wrapping mid-token, and the
	// page never scrolls sideways.
	t.Run("Code", func(t *testing.T) {
		b := sitetest.Build(t, miniSite("")+`
-- content/install.md --
---
title: Install
askplane:
  facts:
    - id: install-cli
      kind: command
      label: Install the CLI
      match: [install the cli]
      answer: |
        Run `+"`go install github.com/askplane/askplane/sidecar/cmd/askplane@latest`"+` once, then:
        `+"```sh"+`
        HUGO_MODULE_REPLACEMENTS="github.com/askplane/askplane/hugo-module -> $HOME/src/askplane/hugo-module" hugo
        `+"```"+`
---
Install.
`)
		s := newSite(t, b.Public, func(s *site) {
			s.deltas = []string{"Point the import at a checkout with `HUGO_MODULE_REPLACEMENTS`, as in `github.com/askplane/askplane/hugo-module -> ../hugo-module`",
				" (quote it: `` \"`a -> b`\" ``; a lone ` is text):\n\n",
				"```sh\nHUGO_MODULE_REPLACEMENTS=\"github.com/askplane/askplane/hugo-module -> $HOME/src/askplane/hugo-module\" hugo\n```\n", finalDelta}
		})
		tb := openTab(t, browser, s, "/")
		phone(tb, "/")
		tb.open()
		tb.ask("install the cli")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]:not([data-askplane-stream]) pre')`)
		tb.ask("how do I build against a checkout")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][data-askplane-state="done"]')`)
		for _, c := range []struct{ entry, inline string }{
			{"[data-askplane-answer]:not([data-askplane-stream])", "go install github.com/askplane/askplane/sidecar/cmd/askplane@latest"},
			{"[data-askplane-stream]", "HUGO_MODULE_REPLACEMENTS\ngithub.com/askplane/askplane/hugo-module -> ../hugo-module\n\"`a -> b`\""},
		} {
			if got := tb.text(c.entry + " [data-askplane-markdown] p > code"); got != c.inline {
				t.Errorf("%s: inline code %q; want %q", c.entry, got, c.inline)
			}
			// The block's one long line: not wrapped, scrolled.
			if got := tb.eval(`(() => { const pre = document.querySelector('[data-askplane-log] ` + c.entry + ` pre'), st = getComputedStyle(pre);
				return [st.whiteSpace, st.overflowX, pre.tabIndex, pre.scrollWidth > pre.clientWidth, pre.getClientRects().length].join(' ') })()`); got != "pre auto 0 true 1" {
				t.Errorf("%s: code block white-space, overflow-x, tabIndex, scrolls, boxes = %q; want pre auto 0 true 1", c.entry, got)
			}
		}
		if got := tb.text("[data-askplane-stream] [data-askplane-markdown] p"); !strings.Contains(got, "; a lone ` is text):") {
			t.Errorf("a lone backtick is not text: %q", got)
		}
		// Inline code breaks only between its parts (at a space, after a
		// slash): no part runs over two lines, none breaks after a hyphen.
		if got := tb.eval(`(() => { const h = Array.from(document.querySelectorAll('[data-askplane-log] p > code span'), (s) => s.getBoundingClientRect().height);
			return [h.length > 8, Math.max(...h) === Math.min(...h)].join(' ') })()`); got != "true true" {
			t.Errorf("inline code parts: several, each on one line = %q", got)
		}
		fits(tb, "code")
		tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-answer] [data-askplane-markdown]').scrollIntoView(); 0`)
		tb.shot("37-mobile-code")
		tb.audit(axe, "mobile code")
		tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-stream] pre').scrollIntoView(); 0`)
		tb.shot("38-mobile-code-backend")
	})

	t.Run("HostThemeDark", func(t *testing.T) {
		b := sitetest.Build(t, hostSite(`colorScheme = "html.dark"`))
		tb := openTab(t, browser, newSite(t, b.Public, nil), "/")
		phone(tb, "/")
		tb.eval(`document.documentElement.classList.add('dark'); 0`)
		tb.open()
		fits(tb, "host dark")
		if got := tb.eval(`getComputedStyle(document.querySelector('[data-askplane-panel]')).backgroundColor`); got != darkBg {
			t.Errorf("panel background %s on the host's dark page; want %s", got, darkBg)
		}
		tb.shot("36-mobile-host-dark")
		tb.audit(axe, "mobile host dark")
	})
}
