package browser

import (
	"context"
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
