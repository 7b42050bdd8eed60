package hugomodule_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
)

// themeSite is a one-page site whose params.askplane holds params.
func themeSite(params string) string {
	return sitetest.Layouts + `
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Docs"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[params.askplane]
siteId = "theme"
` + params + `
-- content/_index.md --
---
title: Home
---
Home.
`
}

// TestThemeParamsWriteTheStylesheet builds a site per params.askplane
// theme setting and reads the one stylesheet the page links: the dark
// values go where colorScheme says, the accent and font follow.
func TestThemeParamsWriteTheStylesheet(t *testing.T) {
	for _, tc := range []struct {
		name, params string
		want, not    []string
	}{
		{"default", ``,
			[]string{"@media(prefers-color-scheme:dark){.askplane{--askplane-accent:#8aa8ff"},
			[]string{"--askplane-font:"}},
		{"light", `colorScheme = "light"`, nil, []string{"#181c24", "prefers-color-scheme"}},
		{"dark", `colorScheme = "dark"`, []string{"}.askplane{--askplane-accent:#8aa8ff"}, []string{"prefers-color-scheme"}},
		{"selector", `colorScheme = "html.dark, [data-theme=dark]"`, []string{":where(html.dark,[data-theme=dark]) .askplane{--askplane-accent:#8aa8ff"}, []string{"prefers-color-scheme"}},
		{"accent", "accent = \"oklch(55% 0.2 290)\"\naccentDark = \"#c4b5fd\"\nfont = \"system\"",
			[]string{"--askplane-accent:oklch(55% 0.2 290)", "--askplane-accent:#c4b5fd", "--askplane-font:system-ui,"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := sitetest.Build(t, themeSite(tc.params))
			files, _ := filepath.Glob(filepath.Join(b.Public, "askplane", "widget.min.*.css"))
			if len(files) != 1 {
				t.Fatalf("stylesheets %v; want one", files)
			}
			b.AssertFileContent("index.html", `<link rel="stylesheet" href="/askplane/`+filepath.Base(files[0])+`"`)
			css, _ := os.ReadFile(files[0])
			for _, w := range tc.want {
				if !strings.Contains(string(css), w) {
					t.Errorf("the stylesheet lacks %q; its end: %s", w, css[max(0, len(css)-700):])
				}
			}
			for _, n := range tc.not {
				if strings.Contains(string(css), n) {
					t.Errorf("the stylesheet holds %q", n)
				}
			}
		})
	}
}

// TestThemeParamsRefused: a value that could break out of the rule it is
// written into fails the build with its code.
func TestThemeParamsRefused(t *testing.T) {
	for _, tc := range []struct{ params, code string }{
		{`colorScheme = "html.dark{}body"`, "[theme.colorScheme]"},
		{`accent = "red;background:url(x)"`, "[theme.accent]"},
		{`accentDark = "}"`, "[theme.accent]"},
		{`font = "x;}body{color:red"`, "[theme.font]"},
	} {
		b, err := sitetest.BuildE(t, themeSite(tc.params))
		if err == nil || !strings.Contains(b.Output, "askplane: "+tc.code) {
			t.Errorf("%s: build error %v, output:\n%s\nwant askplane: %s", tc.params, err, b.Output, tc.code)
		}
	}
}

// TestSuggestionsPerLanguage: params.askplane.suggestions, set per
// language under [languages.<lang>.params.askplane], are each
// language's panel buttons, escaped; blank ones and any past the sixth
// are left out; a language without any has an empty, hidden list.
func TestSuggestionsPerLanguage(t *testing.T) {
	b := sitetest.Build(t, sitetest.Layouts+`
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Docs"
defaultContentLanguage = "en"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[params.askplane]
siteId = "sugg"
fallback = "backend"
endpoint = "/v1/ask"
[languages.en]
weight = 1
[languages.en.params.askplane]
suggestions = ["How do I install it?", "What is a \"fact\" <kind>?", " ", "3", "4", "5", "6", "7"]
[languages.fr]
weight = 2
[languages.fr.params.askplane]
suggestions = ["Comment l'installer ?"]
[languages.de]
weight = 3
-- content/_index.md --
---
title: Home
---
-- content/_index.fr.md --
---
title: Accueil
---
-- content/_index.de.md --
---
title: Start
---
`)
	// The panel's file carries them, on its list; the pages do not.
	for _, page := range []string{"index.html", "fr/index.html", "de/index.html"} {
		b.AssertFileContent(page, `data-askplane-endpoint="/v1/ask"`, `! data-askplane-suggestions="`)
	}
	button := func(q string) string {
		return `<li><button type="button" class="askplane__button">` + q + `</button></li>`
	}
	b.AssertFileContent(panelFile(t, b, "index.html"), `data-askplane-suggestion-list>`+
		button("How do I install it?")+button("What is a &#34;fact&#34; &lt;kind&gt;?")+button("3")+button("4")+button("5")+button("6")+`</ul>`)
	b.AssertFileContent(panelFile(t, b, "fr/index.html"), `data-askplane-suggestion-list>`+button("Comment l&#39;installer ?")+`</ul>`)
	b.AssertFileContent(panelFile(t, b, "de/index.html"), `data-askplane-suggestion-list hidden></ul>`)
}
