package hugomodule_test

import (
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
)

// bilingualSite is an English, French and German site. Its own i18n files
// override two English strings (with markup, quotes and a marker's shape
// in them) and one French string (with an apostrophe). German has no
// module strings, and the site's default language is English.
const bilingualSite = sitetest.Layouts + `
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Docs"
defaultContentLanguage = "en"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[languages.en]
weight = 1
languageCode = "en-GB"
[languages.fr]
weight = 2
[languages.de]
weight = 3
-- i18n/en.toml --
askplane_launcher = "Ask <us> \"now\""
askplane_close = "Close \"it\" <now> & [[askplane_title|x]]"
-- i18n/fr.toml --
askplane_close = "Fermer l'aide"
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
`

// TestWidgetSpeaksSiteLanguage builds an English, French and German site:
// each page's widget shows the module's strings in its language, a site's
// own i18n string wins over the module's (escaped as text, in an element
// and in an attribute), the shell's lang is the site language's code, and
// no lookup marker reaches the page.
func TestWidgetSpeaksSiteLanguage(t *testing.T) {
	b := sitetest.Build(t, bilingualSite)
	b.AssertFileContent("index.html",
		`<div class="askplane__shell" lang="en-GB" data-askplane-shell>`,
		`<span class="askplane__launcher-text">Ask &lt;us&gt; &#34;now&#34;</span>`,
		`! [[`,
	)
	b.AssertFileContent(panelFile(t, b, "index.html"),
		`<h2 id="askplane-title" class="askplane__title">Ask the docs</h2>`,
		`aria-label="Close &#34;it&#34; &lt;now&gt; &amp; &#91;&#91;askplane_title|x]]" data-askplane-close`,
		`<label class="askplane__label" for="askplane-q">Your question</label>`,
		`data-askplane-reason-text="offline" hidden>This site has no exact answer to that question.</p>`,
		`data-askplane-reason-text="stale" hidden>This site&#39;s answers are out of date.</p>`,
		`<span data-askplane-message="unreachable">The docs backend could not be reached.</span>`,
		`! [[`,
		`! Ask the docs</span>`,
	)
	b.AssertFileContent("fr/index.html",
		`<div class="askplane__shell" lang="fr" data-askplane-shell>`,
		`<span class="askplane__launcher-text">Interroger la doc</span>`,
		`! [[`,
	)
	b.AssertFileContent(panelFile(t, b, "fr/index.html"),
		`aria-label="Fermer l&#39;aide" data-askplane-close`,
		`<label class="askplane__label" for="askplane-q">Votre question</label>`,
		`<p id="askplane-hint" class="askplane__hint" data-askplane-hint>Par exemple : comment l&#39;installer ? Appuyez sur Entrée pour envoyer.</p>`,
		`<ul class="askplane__choice-list" aria-label="Réponses correspondantes" data-askplane-choice-list>`,
		`data-askplane-reason-text="offline" hidden>Ce site n&#39;a pas de réponse exacte à cette question.</p>`,
		`<span data-askplane-message="refused">Ce choix n&#39;est plus disponible. Posez à nouveau votre question.</span>`,
		`! [[`,
		`! Your question`,
	)
	// German: no module strings, so Hugo falls back to the default
	// language's (the site's English override included).
	b.AssertFileContent("de/index.html",
		`<div class="askplane__shell" lang="de" data-askplane-shell>`,
		`<span class="askplane__launcher-text">Ask &lt;us&gt; &#34;now&#34;</span>`,
		`! [[`,
	)
	b.AssertFileContent(panelFile(t, b, "de/index.html"),
		`<label class="askplane__label" for="askplane-q">Your question</label>`,
		`! [[`,
	)
}

// TestWidgetMissingStringsShowEnglish builds a site whose only language,
// Spanish, has no askplane strings at all, and whose own i18n/es.toml
// sets one key to an empty string: every string shows its English
// default embedded in the markup, never nothing.
func TestWidgetMissingStringsShowEnglish(t *testing.T) {
	b := sitetest.Build(t, sitetest.Layouts+`
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Docs"
defaultContentLanguage = "es"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
-- i18n/es.toml --
askplane_submit = "Preguntar"
askplane_close = ""
-- content/_index.md --
---
title: Inicio
---
`)
	b.AssertFileContent("index.html",
		`<div class="askplane__shell" lang="es" data-askplane-shell>`,
		`<span class="askplane__launcher-text">Ask the docs</span>`,
		`! [[`,
	)
	b.AssertFileContent(panelFile(t, b, "index.html"),
		`data-askplane-submit>Preguntar</button>`,
		`aria-label="Close" data-askplane-close`,
		`data-askplane-reason-text="stale" hidden>This site&#39;s answers are out of date.</p>`,
		`! [[`,
	)
	for _, n := range append(pageElements(t, b, "index.html"), pageElements(t, b, panelFile(t, b, "index.html"))...) {
		if (n.Data == "span" || n.Data == "p" || n.Data == "button" || n.Data == "label" || n.Data == "h2" || n.Data == "h3") && n.FirstChild == nil &&
			!hasAttr(n, "data-askplane-status") && !hasAttr(n, "data-askplane-question-text") && !hasAttr(n, "data-askplane-error-text") &&
			!hasAttr(n, "data-askplane-choice") && !strings.Contains(attr1(n, "class"), "spinner") {
			t.Errorf("<%s %v> is empty", n.Data, n.Attr)
		}
	}
}
