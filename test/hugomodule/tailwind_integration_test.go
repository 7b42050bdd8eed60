package hugomodule_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/generate"
	"github.com/askplane/askplane/internal/sitetest"
	"github.com/askplane/askplane/internal/verify"
)

// tailwindDocs is a docs site on sitetest.TailwindLayouts whose pages
// have no front-matter titles.
const tailwindDocs = sitetest.TailwindLayouts + `
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Docs"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[params.askplane]
siteId = "tw"
corpus = true
-- content/_index.md --
Welcome to the docs.
-- content/start.md --
# Getting started

Create the site's module first with ` + "`hugo mod init github.com/me/docs`" + `, then add the import.

## Publish

Run ` + "`hugo`" + `: the site is written to ` + "`public/`" + `, which you upload as it is.

## Settings

The widget reads its settings from ` + "`params.askplane`" + `:

` + "```toml" + `
[params.askplane]
# Set to false to hide the search box
search = true
# Set to true to show the feedback buttons
feedback = false
` + "```" + `

### Page settings

| Key | What it does |
| --- | --- |
| ` + "`askplane.exclude`" + ` | Leaves the page out of the corpus. |
| ` + "`weight`" + ` | Orders the page in menus. |
`

// TestTailwindThemeAnswers builds a site on a theme that keeps heading
// ids off the headings, verifies it, and asks the current engine and the
// extractive generator (what the sidecar runs) questions whose answers
// sit in one section: each is cited by its section's anchor, keeps its
// inline code as code spans, and the page is titled by its first heading.
func TestTailwindThemeAnswers(t *testing.T) {
	b := sitetest.Build(t, tailwindDocs)
	rep, err := verify.Site(os.DirFS(b.Public))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Problems {
		if !p.Warning {
			t.Errorf("verify: %s", p)
		}
	}
	c, err := corpus.LoadDir(os.DirFS(b.Public), "en")
	if err != nil {
		t.Fatal(err)
	}
	ix := engines.Current().Index(c)
	for _, tc := range []struct{ q, cite, title, answer string }{
		{"how do I create the site's module?", "/start/", "Getting started", "`hugo mod init github.com/me/docs`"},
		{"where is the site written?", "/start/#publish", "Getting started", "`public/`"},
		{"how do I hide the search box?", "/start/#settings", "Getting started", "# Set to false to hide the search box"},
		{"how do I leave a page out of the corpus?", "/start/#page-settings", "Getting started", "`askplane.exclude`"},
	} {
		pkg := ix.Search(tc.q, evidence.Budget{})
		res, err := generate.Run(context.Background(), generate.Extractive{}, generate.Question{Text: tc.q}, &pkg, nil)
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		var cites []string
		for _, r := range pkg.Records {
			if slices.Contains(res.Used, r.ID) {
				cites = append(cites, r.Href())
			}
		}
		if len(cites) == 0 || cites[0] != tc.cite || pkg.Records[0].Title != tc.title || !strings.Contains(res.Text, tc.answer) {
			t.Errorf("%q: cites %v (title %q), answer %q; want %s first, %q in the answer", tc.q, cites, pkg.Records[0].Title, res.Text, tc.cite, tc.answer)
		}
	}
}
