package hugomodule_test

import (
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
)

// TestOneArtifactPerLanguage checks that a multilingual site gets one
// artifact, site config, corpus and manifest per language, each with its
// own siteId and only its own facts, and that data-file facts limited to a
// language stay in it.
func TestOneArtifactPerLanguage(t *testing.T) {
	b := sitetest.Build(t, sitetest.Layouts+`
-- hugo.toml --
title = "Docs"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
defaultContentLanguage = "en"
[params.askplane]
siteId = "docs"
[languages.en]
weight = 1
contentDir = "content/en"
[languages.fr]
weight = 2
contentDir = "content/fr"
-- content/en/install.md --
---
title: Install
date: 2026-07-01
askplane:
  facts:
    - {id: install, kind: command, label: Install, match: [install], answer: Run the installer.}
---
English.
-- content/fr/installer.md --
---
title: Installer
date: 2026-07-03
askplane:
  facts:
    - {id: fr-installer, kind: command, label: Installer, match: [installer], answer: Lancez l'installateur.}
---
Français.
-- data/askplane/shared.yaml --
facts:
  - {id: license, kind: ecosystem, label: License, match: [license], answer: MIT., cite: [{title: License, href: /license/}]}
  - {id: licence-fr, kind: ecosystem, label: Licence, match: [licence], answer: MIT., cite: [{title: Licence, href: /fr/licence/}], lang: fr}
`)
	en := outputs(t, b, "en")
	fr := outputs(t, b, "fr")
	ea, fa := en.verified(t), fr.verified(t)
	if ea.SiteID != "docs-en" || fa.SiteID != "docs-fr" {
		t.Errorf("siteIds = %s, %s", ea.SiteID, fa.SiteID)
	}
	var enIDs, frIDs []string
	for _, e := range ea.Entries {
		enIDs = append(enIDs, e.ID)
	}
	for _, e := range fa.Entries {
		frIDs = append(frIDs, e.ID)
	}
	if strings.Join(enIDs, ",") != "install,license" || strings.Join(frIDs, ",") != "fr-installer,licence-fr,license" {
		t.Errorf("en = %v, fr = %v", enIDs, frIDs)
	}
	if fa.GeneratedAt != "2026-07-03T00:00:00.000Z" {
		t.Errorf("fr generatedAt = %s", fa.GeneratedAt)
	}
	b.AssertFileContent("fr/index.html", `data-askplane-site="`+pinned(b, "fr")+`"`)
}
