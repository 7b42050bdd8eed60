package evidence

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
)

// Inline code reaches the engines as Markdown code spans (askplane.chunk/2):
// a backtick separates terms in both analyzers as a space does, so
// "`hugo mod init`" matches as the words inside it do, and it splits no
// sentence.
func TestBackticksSeparateTerms(t *testing.T) {
	for _, s := range []string{
		"Run `hugo mod init`, then open `public/`.",
		"Set `feedback = true` in `hugo.toml` (``a`b``).",
		"`resources.GetRemote` and `snake_case`",
	} {
		bare := strings.ReplaceAll(s, "`", " ")
		if got, want := Terms(s), Terms(bare); !slices.Equal(got, want) {
			t.Errorf("Terms(%q) = %q, want %q", s, got, want)
		}
		got, _ := analyze(nil, s, 0)
		want, _ := analyze(nil, bare, 0)
		if !slices.Equal(got, want) {
			t.Errorf("analyze(%q) = %v, want %v", s, got, want)
		}
	}
	if got := Sentences("Run `hugo mod init`. Then open `public/`.\n`search` in `[params]`: Hide it"); !slices.Equal(got, []string{"Run `hugo mod init`.", "Then open `public/`.", "`search` in `[params]`: Hide it"}) {
		t.Errorf("sentences %q", got)
	}
}

// themedV3 is a v3 corpus as a utility-class theme renders pages: ids on
// spans and anchors, a heading without one, an untitled page, a commented
// TOML block and a table of keys.
func themedV3(t *testing.T) *corpus.Corpus {
	t.Helper()
	page := func(url, title, html string) map[string]any {
		return map[string]any{"url": url, "title": title, "kind": "page", "section": "docs", "lang": "en", "html": html}
	}
	data, err := json.Marshal(map[string]any{"protocol": "askplane.corpus", "version": 3, "siteId": "docs", "language": "en", "pages": []any{
		page("/docs/install/", "", `<h1>Install askplane</h1><p>Start with <code>hugo mod init</code>.</p>`+
			`<h2><span id="module"></span>Import the module</h2><p>Run <code>hugo mod get</code> to fetch it.</p>`+
			`<a id="build"></a><h3>Build the site</h3><p>The site is written to <code>public/</code>.</p>`+
			`<h4>Troubleshooting</h4><p>Delete the module cache when a build fails.</p>`),
		page("/docs/config/", "Configuration", `<p>Settings go in <code>hugo.toml</code>.</p>`+
			`<h2><span id="search"></span>Search box</h2><pre><code class="language-toml">[params.askplane]
# Set to false to hide the search box
search = true</code></pre>`+
			`<h2><span id="keys"></span>Front matter keys</h2><table><tr><th>Key</th><th>What it does</th></tr>`+
			`<tr><td><code>askplane.exclude</code></td><td>Leaves the page out of the corpus.</td></tr></table>`),
	}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := corpus.Load(data, corpus.ContentHash(data))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// askplane.bm25/3 answers from the section, not the page: the setting's
// comment, the key's row, the untitled page's title; and it names itself.
func TestEngine3OverThemedPages(t *testing.T) {
	ix := NewIndex3(themedV3(t))
	for _, tc := range []struct{ q, href, excerpt string }{
		{"how do I hide the search box?", "/docs/config/#search", "`search` in `[params.askplane]`: Set to false to hide the search box"},
		{"how do I exclude a page from the corpus?", "/docs/config/#keys", "| `askplane.exclude` | Leaves the page out of the corpus. |"},
		{"where is the site written?", "/docs/install/#build", "The site is written to `public/`."},
		{"module cache build fails", "/docs/install/", "Delete the module cache when a build fails."},
	} {
		p := ix.Search(tc.q, Budget{})
		if p.Engine != EngineID3 || ix.ID() != EngineID3 || p.Recipe().EngineID != EngineID3 {
			t.Fatalf("engine %q / %q", p.Engine, ix.ID())
		}
		if len(p.Records) == 0 || p.Records[0].Href() != tc.href || !strings.Contains(p.Records[0].Excerpt, tc.excerpt) {
			t.Errorf("%q: %s", tc.q, p.JSON())
		}
	}
	if p := ix.Search("hugo mod init", Budget{}); len(p.Records) == 0 || p.Records[0].Title != "Install askplane" {
		t.Errorf("untitled page: %s", p.JSON())
	}
}

// The golden identities pin askplane.bm25/3 (and askplane.chunk/2, which
// made the records): if any changes, what the engine returns changed,
// and EngineID3 must change with it (keeping this engine for replay).
func TestEngine3GoldenContextIDs(t *testing.T) {
	ix := NewIndex3(themedV3(t))
	var got []string
	for _, q := range []string{"how do I hide the search box?", "askplane.exclude", "hugo mod init", "import the module", "troubleshooting"} {
		got = append(got, ix.Search(q, Budget{}).ContextID)
	}
	want := []string{
		"sha256:a13b4b2695efc4638a4761aa525e0c8171fdd8aaa42325951101aec5752bf9eb",
		"sha256:64a9e655b72002a63d8f6ac582ad69ac528a2c67a508eba68c98eeac0bd88633",
		"sha256:3a8fb2d46f7a51a6a9793ec080403d0db265c15a7a15efea9ae6bedf585d943b",
		"sha256:da7756e9af8ae0c56260d859f8de9db467a1599778b209bb943e965c79d5c378",
		"sha256:ca7622d98971be2961ab44ba1befd5283e2366d72c8f4dbb7aa2a42fc3e36a32",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("context ids:\n%s", strings.Join(got, "\n"))
	}
}
