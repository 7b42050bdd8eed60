package browser

import (
	"os"
	"path/filepath"
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/askplane/askplane/internal/sitetest"
)

// TestCopyPageAsMarkdown (issue 27): an author places
// askplane/copy-page.html; under the widget's CSP its script shows the
// button, and a click puts the page's Markdown twin, byte for byte, on
// the clipboard and says so. A page without a twin gets no button.
func TestCopyPageAsMarkdown(t *testing.T) {
	browser := startBrowser(t)
	b := sitetest.Build(t, sitetest.Layouts+`
-- layouts/page.html --
{{ define "main" }}<h1>{{ .Title }}</h1>{{ partial "askplane/copy-page.html" . }}{{ .Content }}{{ end }}
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Docs"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[markup.highlight]
noClasses = false
[params.askplane]
siteId = "copy"
-- content/_index.md --
---
title: Home
---
Home.
-- content/install.md --
---
title: Install
---
## Steps

`+"```sh\ngo install example.com/x@latest\n```"+`
-- content/private.md --
---
title: Private
askplane:
  markdown: false
---
No twin here.
`)
	twin, err := os.ReadFile(filepath.Join(b.Public, "install", "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := newSite(t, b.Public, nil)
	tb := openTab(t, browser, s, "/install/")
	tb.wait(`!document.querySelector('[data-askplane-copy-page]').hidden`)
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.Call(tb.ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: name}, Setting: cdpbrowser.PermissionSettingGranted, Origin: s.URL,
		}); err != nil {
			t.Fatal(err)
		}
	}
	if got := tb.eval(`document.querySelector('[data-askplane-copy-page]').textContent`); got != "Copy page as Markdown" {
		t.Errorf("the button reads %q", got)
	}
	tb.do(chromedp.Click(chromedp.CSS("[data-askplane-copy-page]")))
	tb.wait(`document.querySelector('[data-askplane-copy-page]').textContent === 'Copied'`)
	if got := tb.eval(`navigator.clipboard.readText()`); got != string(twin) {
		t.Errorf("the clipboard holds %q; want the twin %q", got, twin)
	}
	tb.wait(`document.querySelector('[data-askplane-copy-page]').textContent === 'Copy page as Markdown'`)

	other := openTab(t, browser, s, "/private/")
	if n := other.eval(`String(document.querySelectorAll('[data-askplane-copy-page]').length)`); n != "0" {
		t.Errorf("a page without a twin has %s copy buttons", n)
	}
}
