package corpus

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/chunk"
	"github.com/askplane/askplane/internal/sitetest"
)

// themeDocs is a small docs site for sitetest.TailwindLayouts: a page
// without a front-matter title whose content opens with an h1, one whose
// first heading is an h2, headings of levels 2 to 4 (whose ids the theme
// puts on a span, on an anchor before them, and nowhere), inline code,
// a commented TOML block and a table of front matter keys.
const themeDocs = sitetest.TailwindLayouts + `
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Docs"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[params.askplane]
siteId = "tw"
corpus = true
-- content/_index.md --
---
title: Home
---
Welcome.
-- content/docs/_index.md --
---
title: Docs
---
All the docs.
-- content/docs/install.md --
---
weight: 1
---
# Install askplane

Start with ` + "`hugo mod init github.com/me/docs`" + `, then import the module.

## Import the module

Run ` + "`hugo mod get`" + ` to fetch it; a code span with a backtick: ` + "`` a`b ``" + `.

### Build the site

The site is written to ` + "`public/`" + `.

#### Troubleshooting

Delete the module cache when a build fails.
-- content/docs/config.md --
---
title: Configuration
weight: 2
---
Settings go in ` + "`hugo.toml`" + `.

## Search box

` + "```toml" + `
[params.askplane]
# Set to false to hide the search box
search = true
feedback = true # show the feedback buttons
` + "```" + `

## Front matter keys

| Key | What it does |
| --- | --- |
| ` + "`askplane.exclude`" + ` | Leaves the page out of the corpus. |
| ` + "`weight`" + ` | Orders pages in menus. |
-- content/docs/help.md --
---
weight: 3
---
Stuck?

## Getting help

Ask in the forum.
`

// show is "href | headings | title | text" for a record.
func showRecord(r Record) string {
	return r.Href() + " | " + strings.Join(r.Headings, " / ") + " | " + r.Title + " | " + r.Text
}

// TestTailwindTheme builds themeDocs with the pinned Hugo and reads its
// corpus as the current engine does (askplane.chunk/2): every heading is
// a record whatever element the theme put its id on, a heading with no id
// is cited by its page (under the id Hugo would have given it), untitled
// pages are titled by their first heading, inline code keeps its
// backticks, the TOML comment is a unit tied to its setting and the table
// keeps a row per line. askplane.chunk/1 reads the same bytes as one
// record per page, which is what answers on such themes were made of.
func TestTailwindTheme(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a site with Hugo")
	}
	b := sitetest.Build(t, themeDocs)
	// The theme's markup is what the corpus holds.
	b.AssertFileContent("docs/install/index.html", `<h2 class="group relative mt-12 scroll-mt-24 text-2xl font-bold text-slate-900"><span id="import-the-module" class="absolute -top-24"></span>Import the module<a class="ml-2 opacity-0 group-hover:opacity-100" href="#import-the-module" aria-label="Permalink">#</a></h2>`,
		`<a id="build-the-site"></a>`, `<h4 class="mt-6 font-semibold text-slate-900">Troubleshooting</h4>`)

	c, err := LoadDir(os.DirFS(b.Public), "en")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	byHref := map[string]Record{}
	for _, r := range c.Records {
		got = append(got, showRecord(r))
		byHref[r.Href()] = r
	}
	want := []string{
		"/ | Home | Home | Welcome.",
		"/docs/ | Docs | Docs | All the docs.",
		"/docs/config/ | Configuration | Configuration | Settings go in `hugo.toml`.",
		"/docs/config/#search-box | Configuration / Search box | Configuration | [params.askplane]\n# Set to false to hide the search box\nsearch = true\nfeedback = true # show the feedback buttons\n" +
			"`search` in `[params.askplane]`: Set to false to hide the search box\n`feedback` in `[params.askplane]`: show the feedback buttons",
		"/docs/config/#front-matter-keys | Configuration / Front matter keys | Configuration | | Key | What it does |\n| --- | --- |\n| `askplane.exclude` | Leaves the page out of the corpus. |\n| `weight` | Orders pages in menus. |",
		"/docs/help/ | Getting help | Getting help | Stuck?",
		"/docs/help/#getting-help | Getting help | Getting help | Ask in the forum.",
		"/docs/install/ | Install askplane | Install askplane | Start with `hugo mod init github.com/me/docs`, then import the module.",
		"/docs/install/#import-the-module | Install askplane / Import the module | Install askplane | Run `hugo mod get` to fetch it; a code span with a backtick: ``a`b``.",
		"/docs/install/#build-the-site | Install askplane / Import the module / Build the site | Install askplane | The site is written to `public/`.",
		"/docs/install/ | Install askplane / Import the module / Build the site / Troubleshooting | Install askplane | Delete the module cache when a build fails.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("records:\n%s\n\nwant:\n%s", strings.Join(got, "\n\n"), strings.Join(want, "\n\n"))
	}
	// Record ids are the ids Hugo gave the headings, whether the page
	// carries them or not; the h4 is cited by its page.
	for _, r := range c.Records {
		if strings.HasSuffix(r.Text, "when a build fails.") && (r.ID != RecordID("/docs/install/", "troubleshooting") || r.Anchor != "") {
			t.Errorf("the h4's record: %q anchor %q", r.ID, r.Anchor)
		}
	}
	if r := byHref["/docs/config/#search-box"]; len(r.Blocks) != 1 || r.Blocks[0].Kind != chunk.Code || r.Blocks[0].Lang != "toml" || !strings.HasPrefix(r.Blocks[0].Notes, "`search` in `[params.askplane]`: ") {
		t.Errorf("the search box's blocks: %+v", r.Blocks)
	}

	old, _, err := loadDirWith(t, b.Public, "en", Chunk1)
	if err != nil {
		t.Fatal(err)
	}
	if len(old.Records) != 5 {
		t.Errorf("askplane.chunk/1: %d records, want one per page (5)", len(old.Records))
	}
}

// loadDirWith loads a built site's English corpus with the given rules.
func loadDirWith(t *testing.T, public, lang string, rules Rules) (*Corpus, []byte, error) {
	t.Helper()
	_, raw, err := LoadDirRaw(os.DirFS(public), lang)
	if err != nil {
		return nil, nil, err
	}
	c, err := LoadWith(raw, ContentHash(raw), rules)
	return c, raw, err
}

// TestExampleContentOnTailwindTheme builds the example site's English
// and French content twice, with its own layouts and with
// sitetest.TailwindLayouts, and reads both corpora by the current rules:
// the records are the same sections with the same ids, headings and
// text; only the citations of sections whose heading has no id on the
// page (h4 to h6 in that theme) point at the page instead. (askplane.chunk/1
// read each of the theme's pages as a single record.)
func TestExampleContentOnTailwindTheme(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example site twice with Hugo")
	}
	own, err := sitetest.BuildDir(t, filepath.Join(sitetest.Root(), "exampleSite"))
	if err != nil {
		t.Fatalf("hugo: %v\n%s", err, own.Output)
	}
	dir := t.TempDir()
	src := filepath.Join(sitetest.Root(), "exampleSite")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "layouts")); err != nil {
		t.Fatal(err)
	}
	cfg, err := os.ReadFile(filepath.Join(dir, "hugo.toml"))
	if err != nil {
		t.Fatal(err)
	}
	// The checkout replacement comes from HUGO_MODULE_REPLACEMENTS.
	cfg = regexp.MustCompile(`(?m)^\s*replacements = .*$`).ReplaceAll(cfg, nil)
	if err := os.WriteFile(filepath.Join(dir, "hugo.toml"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	sitetest.WriteArchive(t, dir, sitetest.TailwindLayouts)
	tw, err := sitetest.BuildDir(t, dir)
	if err != nil {
		t.Fatalf("hugo: %v\n%s", err, tw.Output)
	}
	for _, lang := range []string{"en", "fr"} {
		a, err := LoadDir(os.DirFS(own.Public), lang)
		if err != nil {
			t.Fatal(err)
		}
		z, err := LoadDir(os.DirFS(tw.Public), lang)
		if err != nil {
			t.Fatal(err)
		}
		pages := map[string]bool{}
		for _, r := range z.Records {
			pages[r.URL] = true
		}
		if len(z.Records) < 2*len(pages) {
			t.Errorf("%s: %d records for %d pages: the theme's pages are not split", lang, len(z.Records), len(pages))
		}
		if len(a.Records) != len(z.Records) {
			t.Errorf("%s: %d records with the example's layouts, %d with the Tailwind theme", lang, len(a.Records), len(z.Records))
		}
		anchored := 0
		for i := range min(len(a.Records), len(z.Records)) {
			x, y := a.Records[i], z.Records[i]
			if y.Anchor != "" {
				anchored++
			}
			if x.ID != y.ID || x.Title != y.Title || !slices.Equal(x.Headings, y.Headings) || x.Text != y.Text ||
				(x.Anchor != y.Anchor && !(y.Anchor == "" && x.Anchor != "")) {
				t.Errorf("%s: record %d differs:\n%s\n%s", lang, i, showRecord(x), showRecord(y))
			}
		}
		if old, _, err := loadDirWith(t, tw.Public, lang, Chunk1); err != nil || len(old.Records) != len(pages) {
			t.Errorf("%s: askplane.chunk/1 reads the theme's pages as %d records (%v), want one per page", lang, len(old.Records), err)
		}
		if anchored < len(z.Records)/2 {
			t.Errorf("%s: only %d of %d records are cited by anchor", lang, anchored, len(z.Records))
		}
		t.Logf("%s: %d pages, %d records, %d with an anchor", lang, len(pages), len(z.Records), anchored)
	}
}
