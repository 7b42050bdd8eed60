package replay

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
)

// themedCorpus is an askplane.corpus v3 file as a theme unlike the
// module's own renders it: heading ids on spans inside the headings or
// on anchors before them, a heading with no id, an untitled page, inline
// code, a table of settings and a commented TOML block.
func themedCorpus() []byte {
	page := func(url, title, html string) map[string]any {
		return map[string]any{"url": url, "title": title, "kind": "page", "section": "docs", "lang": "en", "html": html}
	}
	doc := map[string]any{"protocol": "askplane.corpus", "version": 3, "siteId": "docs", "language": "en", "pages": []any{
		page("/docs/install/", "", `<h1 class="text-3xl">Install askplane</h1><p>Start with <code>hugo mod init</code>.</p>`+
			`<h2 class="group"><span id="module" class="scroll-mt-20"></span>Import the module</h2><p>Run <code>hugo mod get</code> to fetch it.</p>`+
			`<a id="build"></a><h2>Build the site</h2><p>The site is written to <code>public/</code>.</p>`+
			`<h2>Troubleshooting</h2><p>Delete the module cache when a build fails.</p>`),
		page("/docs/config/", "Configuration", `<p>Settings go in <code>hugo.toml</code>.</p>`+
			`<h2><a id="search" href="#search">The search box</a></h2><div class="highlight"><pre class="chroma"><code class="language-toml" data-lang="toml">[params.askplane]
# Set to false to hide the search box
search = true
feedback = true # show the feedback buttons</code></pre></div>`+
			`<h2 id="keys">Front matter keys</h2><table><thead><tr><th>Key</th><th>What it does</th></tr></thead><tbody>`+
			`<tr><td><code>askplane.exclude</code></td><td>Leaves the page out of the corpus.</td></tr>`+
			`<tr><td><code>weight</code></td><td>Orders pages in menus.</td></tr></tbody></table>`),
	}}
	b, _ := json.Marshal(doc)
	return b
}

var themedQuestions = []string{"how do I hide the search box?", "how do I exclude a page from the corpus?", "where is the site written after a build?", "hugo mod init"}

// askplane.bm25/1 and /2 read v3 with the frozen askplane.chunk/1: their
// packages over these bytes are the ones they made before
// askplane.chunk/2 existed (digests taken at 9f1c96f), and replay
// rebuilds them byte for byte. askplane.bm25/3's are the ones it made
// before askplane.bm25/4 existed (taken at ae8be16).
func TestOldEnginesStillReplayV3Evidence(t *testing.T) {
	raw := themedCorpus()
	golden := map[string][]string{
		evidence.EngineID: {
			"sha256:7cb544537c40540cc2e1773689f64fbce1a7b374541ec19034265d3be81a40e5",
			"sha256:3dee8bf4230fb42e5692fe969af4161cb5567eed44a94437676c62ca2df86333",
			"sha256:76d99774c1a6c36f0064e203565391532174612ea77a28d879ddf203984680bb",
			"sha256:6f954b329a4bd8fd96f717848569f3a620fa56fb99dbd9d48dfb98c1c3d76bc8",
		},
		evidence.EngineID2: {
			"sha256:9f8bdba2309efb5672b9be36fea3e96ff9f8fd339de987f6976043e4393e5519",
			"sha256:d6282b90b07a94852a296c03df63eb97d7ef0d19fd1d09cf1f6597889a3330e4",
			"sha256:183bdd460f2d76b0b4e16e4a034daae82f1ff8205d764117dc3871c2a28a8d32",
			"sha256:baa1e2ee9ccaff6a57691e3225da8cfb652e10aaafca073168f8330498002237",
		},
		evidence.EngineID3: {
			"sha256:798ff4740e1cd57345df1e0113152c3581de84c30ec67ab8fc2c3967bddbe6c5",
			"sha256:a607d312ff83966c0693852f2bc9447e5b95715c60f38cd15c8fbe028eef2b4c",
			"sha256:647b0490e83ff68b83e5cd91c2625e65f2ac15a5b7dd153da393ca121f0606f1",
			"sha256:d1654cacfd90c87e7552ba406b79e03e1a9ab63ef5450c40cb8e75709d7226d4",
		},
	}
	for _, id := range []string{evidence.EngineID, evidence.EngineID2, evidence.EngineID3} {
		e, ok := engines.Lookup(id)
		if !ok {
			t.Fatalf("%s is not retained", id)
		}
		s := newFakeStore()
		v := s.put(raw, id)
		ix, err := e.Open(raw, v)
		if err != nil {
			t.Fatal(err)
		}
		r := mustNew(t, Config{Sources: s})
		var got []string
		for _, q := range themedQuestions {
			p := ix.Search(q, evidence.Budget{MaxRecords: 5})
			got = append(got, p.Digest)
			res, err := r.Replay(t.Context(), p.Recipe())
			if err != nil {
				t.Fatalf("%s %q: %v", id, q, err)
			}
			if string(res.Package.JSON()) != string(p.JSON()) || res.Identity.Engine != id {
				t.Fatalf("%s %q: replayed %s, want %s", id, q, res.Package.JSON(), p.JSON())
			}
		}
		if want := golden[id]; strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: digests\n%s\nwant\n%s", id, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// askplane.bm25/3, /4, /5 and askplane.bm25/6, the current engine, read the same
// bytes with askplane.chunk/2: every heading is a record (cited by the id
// the page has, or by the page), the untitled page has its h1 as title,
// inline code and the TOML comment are text, and their packages replay
// too.
func TestCurrentEngineSplitsThemedPages(t *testing.T) {
	if id := engines.Current().ID; id != evidence.EngineID6 {
		t.Fatalf("current engine %s", id)
	}
	for _, id := range []string{evidence.EngineID6, evidence.EngineID5, evidence.EngineID4, evidence.EngineID3} {
		e, ok := engines.Lookup(id)
		if !ok {
			t.Fatalf("%s is not retained", id)
		}
		t.Run(id, func(t *testing.T) { splitsThemedPages(t, e) })
	}
}

func splitsThemedPages(t *testing.T, e *engines.Engine) {
	raw := themedCorpus()
	s := newFakeStore()
	v := s.put(raw, e.ID)
	ix, err := e.Open(raw, v)
	if err != nil {
		t.Fatal(err)
	}
	r := mustNew(t, Config{Sources: s})
	want := []string{"/docs/config/#search", "/docs/config/#keys", "/docs/install/#build", "/docs/install/"}
	for i, q := range themedQuestions {
		p := ix.Search(q, evidence.Budget{MaxRecords: 5})
		if len(p.Records) == 0 || p.Records[0].Href() != want[i] {
			t.Errorf("%q: %s", q, p.JSON())
			continue
		}
		top := p.Records[0]
		switch i {
		case 0:
			if !strings.Contains(top.Excerpt, "`search` in `[params.askplane]`: Set to false to hide the search box") {
				t.Errorf("%q: excerpt %q", q, top.Excerpt)
			}
		case 1:
			if !strings.Contains(top.Excerpt, "| `askplane.exclude` | Leaves the page out of the corpus. |") {
				t.Errorf("%q: excerpt %q", q, top.Excerpt)
			}
		case 3:
			if top.Title != "Install askplane" || top.Excerpt != "Start with `hugo mod init`." {
				t.Errorf("%q: %+v", q, top)
			}
		}
		res, err := r.Replay(t.Context(), p.Recipe())
		if err != nil || string(res.Package.JSON()) != string(p.JSON()) || res.Identity.Engine != e.ID {
			t.Fatalf("%q: replay %v", q, err)
		}
	}
}
