package generate

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/evidence"
)

// v3 builds a version 3 corpus of pages {url, title, html}.
func v3(t testing.TB, pages ...[3]string) *evidence.Index {
	t.Helper()
	return evidence.NewIndex(corpusOf(t, pages...))
}

// corpusOf is a v3 corpus of pages (URL, title, HTML).
func corpusOf(t testing.TB, pages ...[3]string) *corpus.Corpus {
	t.Helper()
	var ps []map[string]any
	for _, p := range pages {
		ps = append(ps, map[string]any{"url": p[0], "title": p[1], "kind": "page", "section": "docs", "lang": "en", "html": p[2]})
	}
	data, _ := json.Marshal(map[string]any{"protocol": "askplane.corpus", "version": 3, "siteId": "docs", "language": "en", "pages": ps})
	c, err := corpus.Load(data, corpus.ContentHash(data))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var install = [3]string{"/docs/install/", "Install", `<p>This page installs it.</p>
<h2 id="import">Import the module<a class="anchor" href="#import">#</a></h2>
<p>Add the module import to your site configuration:</p>
<div class="highlight"><pre><code class="language-toml" data-lang="toml"><span>[module]
</span><span>  [[module.imports]]
</span><span>    path = "github.com/askplane/askplane"
</span></code></pre></div>
<p>Then fetch the module import with hugo mod get. The module ships templates only.</p>
<h2 id="widget">Add the widget</h2>
<p>Put the partial in your base template, then build the site with hugo. Call {{ partial "askplane/widget.html" . }} once.</p>`}

var origins = [3]string{"/docs/origins/", "Origins", `<h2 id="cors">Another origin</h2>
<p>A widget on another origin needs CORS from the sidecar: list the site origin in origins.</p>
<pre><code class="language-json">{"origins": ["https://docs.example.com"]}</code></pre>`}

func TestStructuredAnswer(t *testing.T) {
	ix := v3(t, install, origins)
	res, events := answer(t, ix, "How do I add the module import to my site configuration?")
	want := "Add the module import to your site configuration:\n\n```toml\n[module]\n  [[module.imports]]\n    path = \"github.com/askplane/askplane\"\n```\n\nThen fetch the module import with hugo mod get."
	if res.Text != want {
		t.Errorf("text\n%s\nwant\n%s", res.Text, want)
	}
	if len(res.Used) != 1 || res.Used[0] != corpus.RecordID("/docs/install/", "import") {
		t.Errorf("used %v", res.Used)
	}
	for _, e := range events {
		if e.Delta != "" && len(e.Sources) != 1 {
			t.Errorf("delta %q sources %v", e.Delta, e.Sources)
		}
	}
	if last := events[len(events)-1]; last.Usage == nil || last.Usage.Model != ExtractiveModel {
		t.Errorf("last event %+v", last)
	}
}

// More than one record helps: each is cited, best first, and every
// piece of text is verbatim from the record its delta names.
func TestStructuredCitesEveryRecordUsed(t *testing.T) {
	ix := v3(t, install, origins)
	q := "How does a widget on another origin get CORS, and how do I add the module import?"
	pkg := ix.Search(q, evidence.Budget{})
	res, events := answer(t, ix, q)
	t.Logf("%s\ncites %v", res.Text, res.Used)
	if len(res.Used) < 2 {
		t.Fatalf("used %v: %q", res.Used, res.Text)
	}
	rank := map[string]int{}
	blocks := map[string]string{}
	for i, r := range pkg.Records {
		rank[r.ID] = i
		var all []string
		for _, b := range r.Blocks {
			all = append(all, b.Text)
		}
		blocks[r.ID] = strings.Join(all, "\n")
	}
	if !slices.IsSortedFunc(res.Used, func(a, b string) int { return rank[a] - rank[b] }) {
		t.Errorf("citations not best first: %v", res.Used)
	}
	if !strings.HasPrefix(res.Text, "A widget on another origin needs CORS") {
		t.Errorf("the best record does not lead: %q", res.Text)
	}
	for _, e := range events {
		if e.Delta == "" {
			continue
		}
		d := strings.TrimSpace(e.Delta)
		if strings.HasPrefix(d, "```") {
			lines := strings.Split(d, "\n")
			d = strings.Join(lines[1:len(lines)-1], "\n")
		}
		if !strings.Contains(blocks[e.Sources[0]], d) {
			t.Errorf("%q is not in record %s", d, e.Sources[0])
		}
	}
}

// Never a fragment of a template tag, never a sentence that only
// introduces something left out, never a cut code block.
func TestStructuredNeverQuotesFragments(t *testing.T) {
	long := strings.Repeat("x = 1\n", DefaultMaxCodeBytes/6+1)
	ix := v3(t, [3]string{"/docs/t/", "Template", `<h2 id="t">Template</h2>
<p>Call the partial template like this: {{ partial "askplane/widget.html" . }} in the base template.</p>
<p>The template partial options are:</p><ul><li>none</li></ul>
<p>A long template example:</p><pre><code class="language-toml">` + long + `</code></pre>`})
	res, _ := answer(t, ix, "partial template options example")
	t.Logf("%s", res.Text)
	if strings.Count(res.Text, "{{") != strings.Count(res.Text, "}}") {
		t.Errorf("a template tag was cut: %q", res.Text)
	}
	if strings.Contains(res.Text, "x = 1") || strings.Contains(res.Text, "options are:") || strings.Contains(res.Text, "example:") {
		t.Errorf("quoted a dangling introduction or a cut code block: %q", res.Text)
	}
}

func TestFence(t *testing.T) {
	got := fence(corpus.Block{Kind: "code", Lang: "md", Text: "```go\nx\n```"})
	if got != "````md\n```go\nx\n```\n````" {
		t.Errorf("%q", got)
	}
}

func TestStructuredDeterministic(t *testing.T) {
	ix := v3(t, install, origins)
	q := "add the widget to another origin site"
	first, _ := answer(t, ix, q)
	for range 20 {
		if got, _ := answer(t, ix, q); got.Text != first.Text || !slices.Equal(got.Used, first.Used) {
			t.Fatalf("%q vs %q", got.Text, first.Text)
		}
	}
}

var parts = [3]string{"/docs/overview/", "Overview", `<p>askplane answers questions on a docs site.</p>
<h2 id="parts">The moving parts</h2>
<table><thead><tr><th>part</th><th>runs</th><th>does</th></tr></thead><tbody>
<tr><td>Hugo module</td><td>at build time</td><td>emits the artifact and the corpus</td></tr>
<tr><td>widget</td><td>in the page</td><td>answers exact questions</td></tr>
<tr><td>sidecar</td><td>on a server</td><td>answers the rest, with citations</td></tr>
</tbody></table>
<h2 id="options">Options</h2>
<p>Every option has a default.</p>
<table><thead><tr><th>option</th><th>meaning</th></tr></thead><tbody>
<tr><td><code>baseURL</code></td><td>the site's absolute URL, with a | in it</td></tr>
<tr><td><code>timeout</code></td><td>how long a build may take; a baseURL is not needed</td></tr>
</tbody></table>`}

// A section that is a table answers with its rows when it matched on its
// heading; a row of a reference table answers a question about its first
// cell, and a question word in another cell does not make the row one.
func TestTableRowsAnswer(t *testing.T) {
	ix := v3(t, parts)
	res, _ := answer(t, ix, "what are the moving parts")
	want := "- Hugo module: at build time; emits the artifact and the corpus\n- widget: in the page; answers exact questions\n- sidecar: on a server; answers the rest, with citations"
	if res.Text != want {
		t.Errorf("parts:\n%s\nwant\n%s", res.Text, want)
	}
	res, _ = answer(t, ix, "what does the baseURL option mean")
	// The first cell is inline code, and stays code in the answer.
	if !strings.HasPrefix(res.Text, "`baseURL`: the site's absolute URL, with a | in it") {
		t.Errorf("baseURL:\n%s", res.Text)
	}
	if strings.Contains(res.Text, "how long a build may take") {
		t.Errorf("the timeout row answered a question about baseURL:\n%s", res.Text)
	}
}
