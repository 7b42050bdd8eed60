package evidence

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
)

// v3Pages is a v3 corpus of pages, each {url, title, html}, in language
// lang.
func v3Pages(t *testing.T, lang string, pages ...[3]string) *corpus.Corpus {
	t.Helper()
	var list []any
	for _, p := range pages {
		list = append(list, map[string]any{"url": p[0], "title": p[1], "kind": "page", "section": "docs", "lang": lang, "html": p[2]})
	}
	data, err := json.Marshal(map[string]any{"protocol": "askplane.corpus", "version": 3, "siteId": "docs", "language": lang, "pages": list})
	if err != nil {
		t.Fatal(err)
	}
	c, err := corpus.Load(data, corpus.ContentHash(data))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// firstHref is the href of a package's first record, "" when it has none.
func firstHref(p Package) string {
	if len(p.Records) == 0 {
		return ""
	}
	return p.Records[0].Href()
}

// The section whose own heading names what is asked outranks a short
// one that only uses its words: askplane.bm25/3 leads with
// "Troubleshooting", bm25/4 with "Hide feedback on a single page"; and a
// page's intro (whose own heading is the title) answers the title's
// words before a section that repeats them.
func TestEngine4OwnHeadingWins(t *testing.T) {
	feedback := v3Pages(t, "en", [3]string{"/docs/feedback/", "Analytics", `<p>Collect analytics from readers.</p>` +
		`<h2 id="single-page">Hide feedback on a single page</h2><p>Set <code>hide_feedback: true</code> in its front matter. ` +
		`The widget then stays out of that one document, while every other document keeps its buttons. ` +
		`Readers who reach it from search see the same layout without the question at the bottom.</p>` +
		`<h2 id="troubleshooting">Troubleshooting</h2><p>The feedback widget does not hide on a page? Check its front matter.</p>`})
	artifact := v3Pages(t, "en", [3]string{"/docs/artifact/", "Knowledge artifact", `<p>The knowledge artifact is the file the widget downloads once per language. ` +
		`It holds every declared fact with its phrasings, and the widget answers from it without a server.</p>` +
		`<h2 id="caching">Caching</h2><p>Cache the knowledge artifact for a year: a knowledge artifact never changes.</p>`})
	for _, tc := range []struct {
		c            *corpus.Corpus
		q, old, want string
	}{
		{feedback, "hide feedback on a page", "/docs/feedback/#troubleshooting", "/docs/feedback/#single-page"},
		{artifact, "knowledge artifact", "/docs/artifact/#caching", "/docs/artifact/"},
	} {
		if got := firstHref(NewIndex3(tc.c).Search(tc.q, Budget{})); got != tc.old {
			t.Fatalf("%q: bm25/3 leads with %s; the test no longer shows the difference", tc.q, got)
		}
		p := NewIndex4(tc.c).Search(tc.q, Budget{})
		if got := firstHref(p); got != tc.want {
			t.Errorf("%q: bm25/4 leads with %s: %s", tc.q, got, p.JSON())
		}
		if p.Engine != EngineID4 || p.Recipe().EngineID != EngineID4 {
			t.Errorf("engine %q", p.Engine)
		}
	}
}

// A page's intro gains from its title only when the title names more
// than half of what is asked: "knowledge artifact" is the intro's
// question, "the steps of the quickstart" the sections'.
func TestEngine4IntroBonusNeedsTheTitle(t *testing.T) {
	c := v3Pages(t, "en", [3]string{"/docs/quickstart/", "Quickstart", `<p>Add the module and build the site in three steps.</p>` +
		`<h2 id="import">Import the module</h2><p>Add the import to your configuration.</p>` +
		`<h2 id="build">Build and check</h2><p>Run the build.</p>`})
	ix := NewIndex4(c)
	bonus := func(question string, rec int32) int64 {
		q := ix.parse(question)
		ix.expand(&q, question)
		return ix.ownBonus(&q, rec)
	}
	if c.Records[0].Anchor != "" || c.Records[1].Anchor != "import" {
		t.Fatalf("records %+v", c.Records)
	}
	for _, tc := range []struct {
		q     string
		rec   int32
		gains bool
	}{
		{"quickstart", 0, true},
		{"what is the quickstart?", 0, true},
		{"what are the steps of the quickstart?", 0, false},
		{"quickstart import module", 0, false},
		{"quickstart import module", 1, true},
		{"how do I build the site", 0, false},
	} {
		if got := bonus(tc.q, tc.rec); (got > 0) != tc.gains {
			t.Errorf("%q, record %d: bonus %d", tc.q, tc.rec, got)
		}
	}
}

// How-to verbs are found in the words the documentation uses for them:
// "turn off" finds "disable" (and "hide"), "change" finds "override";
// a synonym weighs half the word, so a record that has the asked word
// still wins, and the package says which word matched.
func TestEngine4Synonyms(t *testing.T) {
	search := v3Pages(t, "en",
		[3]string{"/docs/search/", "Search", `<p>The search box looks up pages as you type.</p>` +
			`<h2 id="disable">Disabling search</h2><p>Set <code>search = false</code> to disable the search box.</p>` +
			`<h2 id="index">The search index</h2><p>The index is built with the site; turn the page to read how.</p>`})
	styles := v3Pages(t, "en",
		[3]string{"/docs/styles/", "Styles", `<p>The theme's styles come from one stylesheet.</p>` +
			`<h2 id="override">Overriding styles</h2><p>Put a file at <code>assets/scss/_custom.scss</code> to override the theme's styles.</p>` +
			`<h2 id="fonts">Fonts</h2><p>The theme loads two fonts.</p>`})
	for _, tc := range []struct {
		c                    *corpus.Corpus
		q, old, href, reason string
	}{
		{search, "turn off the search box", "/docs/search/#index", "/docs/search/#disable", "disable"},
		{styles, "change the theme styles", "/docs/styles/", "/docs/styles/#override", "override"},
	} {
		if got := firstHref(NewIndex3(tc.c).Search(tc.q, Budget{})); got != tc.old {
			t.Fatalf("%q: bm25/3 leads with %s; the test no longer shows the difference", tc.q, got)
		}
		p := NewIndex4(tc.c).Search(tc.q, Budget{})
		if got := firstHref(p); got != tc.href {
			t.Errorf("%q: bm25/4 leads with %s: %s", tc.q, got, p.JSON())
			continue
		}
		if !strings.Contains(strings.Join(p.Records[0].Reasons, " "), tc.reason) {
			t.Errorf("%q: reasons %q", tc.q, p.Records[0].Reasons)
		}
	}
	// The word itself outranks its synonym.
	c := v3Pages(t, "en",
		[3]string{"/docs/a/", "Hiding pages", `<p>Pages can be left out of menus.</p>`},
		[3]string{"/docs/b/", "Disabling pages", `<p>Pages can be left out of menus.</p>`},
	)
	if got := firstHref(NewIndex4(c).Search("disable pages", Budget{})); got != "/docs/b/" {
		t.Errorf("the asked word lost to its synonym: %s", got)
	}
	// The table is English: another language's questions are not expanded.
	c = v3Pages(t, "fr", [3]string{"/docs/a/", "Disable", `<p>Disable it.</p>`})
	if p := NewIndex4(c).Search("turn off", Budget{}); len(p.Records) != 0 {
		t.Errorf("a French corpus expanded an English synonym: %s", p.JSON())
	}
}

// A dated or news page that repeats the documentation's words ranks
// after the documentation page; bm25/3 ties them and keeps corpus order.
func TestEngine4DatedPagesWeighLess(t *testing.T) {
	text := `<p>Set <code>hide_feedback: true</code> in front matter to hide the feedback widget on a page.</p>`
	c := v3Pages(t, "en",
		[3]string{"/blog/2024/feedback-widget/", "Feedback widget", text},
		[3]string{"/docs/guide/feedback-widget/", "Feedback widget", text},
	)
	q := "hide the feedback widget"
	if got := firstHref(NewIndex3(c).Search(q, Budget{})); got != "/blog/2024/feedback-widget/" {
		t.Fatalf("bm25/3 leads with %s; the test no longer shows the difference", got)
	}
	if got := firstHref(NewIndex4(c).Search(q, Budget{})); got != "/docs/guide/feedback-widget/" {
		t.Errorf("bm25/4 leads with %s", got)
	}
	for u, want := range map[string]bool{
		"https://example.com/blog/x/": true, "/news/x/": true, "/project/changelog/": true, "/docs/release-notes/": true,
		"/posts/2023/x/": true, "/docs/2fa/": false, "/docs/v2024/": false, "/docs/blogging/": false, "/docs/20xx/": false, "/": false,
	} {
		if isDatedPath(u) != want {
			t.Errorf("isDatedPath(%q) = %v", u, !want)
		}
	}
}

// The golden identities pin askplane.bm25/4: if any changes, what the
// engine returns changed, and EngineID4 must change with it (keeping this
// engine for replay).
func TestEngine4GoldenContextIDs(t *testing.T) {
	ix := NewIndex4(themedV3(t))
	var got []string
	for _, q := range []string{"how do I hide the search box?", "askplane.exclude", "hugo mod init", "import the module", "troubleshooting", "turn off search"} {
		got = append(got, ix.Search(q, Budget{}).ContextID)
	}
	want := []string{
		"sha256:b13ffdb1c49a9abfa0b0e0d1d334047bb74132529dc7845e6c5809fbc76419b9",
		"sha256:474ae091dec6881f5689004b7762cf83c5cca6efcfbe5aca55e49c7d05f4f73e",
		"sha256:8b93e157aa2a7fc15a94a734233bbd094b7dd07f28db6f51342e6dcfca713419",
		"sha256:1b8e8768755033d34db950ba249e46f6311aa2fabc30c4a315294f1c7e074c55",
		"sha256:cbe4db03b9b81f5988cac6ab0daf4d0fda5a47fcc4c50a673c71294493f97411",
		"sha256:263ee73d29e5a2af691a74e253da696928e8f7d653c9b92c7087709eb96a5476",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("context ids:\n%s", strings.Join(got, "\n"))
	}
}
