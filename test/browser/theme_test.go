package browser

import (
	"context"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// hostSite is a one-page site with a theme of its own, unlike
// exampleSite's: a serif body font and a dark mode its own switch turns on
// (html.dark or body[data-theme=dark]); params is added to
// params.askplane.
func hostSite(params string) string {
	return `
-- layouts/baseof.html --
<!doctype html><html lang="en"><head><title>Host</title>{{ with resources.Get "host.css" | fingerprint }}<link rel="stylesheet" href="{{ .RelPermalink }}">{{ end }}</head>
<body><main>{{ block "main" . }}{{ end }}</main>{{ partial "askplane/widget.html" . }}</body></html>
-- layouts/home.html --
{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}
-- assets/host.css --
body { font-family: Georgia, "DejaVu Serif", serif; background: #fff; color: #222; }
html.dark body, body[data-theme=dark] { background: #111418; color: #eee; }
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Host"
disableKinds = ["taxonomy", "term", "rss", "sitemap", "section", "page"]
[params.askplane]
siteId = "host"
fallback = "backend"
endpoint = "/v1/ask"
` + params + `
-- content/_index.md --
---
title: Home
---
A page of a site with its own theme.
`
}

const (
	lightBg = "rgb(255, 255, 255)" // --askplane-bg, light
	darkBg  = "rgb(24, 28, 36)"    // --askplane-bg, dark (widget-dark.css)
)

// theming opens the widget on host sites configured for each colour
// scheme and checks the panel's colours as the reader's system preference
// and the host's own switch change, with the accent and font params.
func theming(t *testing.T, browser context.Context) {
	axe := axeSource(t)
	panelBg := `getComputedStyle(document.querySelector('[data-askplane-panel]')).backgroundColor`
	prefer := func(tb *tab, scheme string) {
		t.Helper()
		p := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}
		if _, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, p); err != nil {
			t.Fatal(err)
		}
	}
	expect := func(tb *tab, state, want string) {
		t.Helper()
		if got := tb.eval(panelBg); got != want {
			t.Errorf("%s: panel background %s; want %s", state, got, want)
		}
	}
	open := func(t *testing.T, params string) *tab {
		b := sitetest.Build(t, hostSite(params))
		tb := openTab(t, browser, newSite(t, b.Public, nil), "/")
		tb.open()
		return tb
	}

	t.Run("AutoFollowsSystemAndInheritsFont", func(t *testing.T) {
		tb := open(t, "")
		prefer(tb, "light")
		expect(tb, "auto, system light", lightBg)
		prefer(tb, "dark")
		expect(tb, "auto, system dark", darkBg)
		for _, sel := range []string{"[data-askplane-panel]", "[data-askplane-launcher]", "[data-askplane-submit]", "#askplane-q"} {
			if got, want := tb.eval(`getComputedStyle(document.querySelector('`+sel+`')).fontFamily`), tb.eval(`getComputedStyle(document.body).fontFamily`); got != want {
				t.Errorf("%s font %q; want the page's %q", sel, got, want)
			}
		}
		tb.shot("30-theme-auto-dark-serif")
		tb.audit(axe, "auto, system dark")
	})

	t.Run("LightWithAccent", func(t *testing.T) {
		tb := open(t, `colorScheme = "light"
accent = "#6d28d9"`)
		prefer(tb, "dark")
		expect(tb, "light, system dark", lightBg)
		if got := tb.eval(`getComputedStyle(document.querySelector('[data-askplane-launcher]')).backgroundColor`); got != "rgb(109, 40, 217)" {
			t.Errorf("launcher background %s; want the accent rgb(109, 40, 217)", got)
		}
		tb.shot("31-theme-light-accent")
		tb.audit(axe, "light with accent")
	})

	t.Run("DarkWithSystemFont", func(t *testing.T) {
		tb := open(t, `colorScheme = "dark"
font = "system"`)
		prefer(tb, "light")
		expect(tb, "dark, system light", darkBg)
		if got := tb.eval(`getComputedStyle(document.querySelector('[data-askplane-panel]')).fontFamily`); !strings.HasPrefix(got, "system-ui") {
			t.Errorf("font %q; want the system stack", got)
		}
		tb.audit(axe, "dark")
	})

	// A selector follows the host's own switch, whatever the system
	// prefers, and changes with it at once.
	for _, c := range []struct{ name, scheme, on, off string }{
		{"HostClass", "html.dark", `document.documentElement.classList.add('dark')`, `document.documentElement.classList.remove('dark')`},
		{"HostAttribute", "[data-theme=dark]", `document.body.setAttribute('data-theme', 'dark')`, `document.body.setAttribute('data-theme', 'light')`},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := open(t, `colorScheme = "`+c.scheme+`"`)
			prefer(tb, "dark")
			expect(tb, c.scheme+", host light, system dark", lightBg)
			tb.shot("32-theme-" + strings.ToLower(c.name) + "-light")
			tb.eval(c.on + `; 0`)
			expect(tb, c.scheme+", host dark", darkBg)
			tb.shot("33-theme-" + strings.ToLower(c.name) + "-dark")
			tb.audit(axe, c.scheme+" dark")
			tb.eval(c.off + `; 0`)
			expect(tb, c.scheme+", host light again", lightBg)
		})
	}
}
