package corpus

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func v3page(url, title, html string) map[string]any {
	return map[string]any{"url": url, "title": title, "kind": "page", "section": "docs", "lang": "en", "html": html}
}

func v3(t *testing.T, pages ...map[string]any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"protocol": "askplane.corpus", "version": 3, "siteId": "docs", "language": "en", "pages": pages})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestV3Records(t *testing.T) {
	c, err := load(t, v3(t, v3page("/docs/x/", "X ¶",
		`<p>Intro.</p><h2 id="install">Install<a class="anchor" href="#install">#</a></h2>`+
			`<p>Add it:</p><pre><code class="language-toml">[a]
b = 1
</code></pre><h3 id="linux">Linux</h3><dl><dt id="apt">apt</dt><dd>Use apt.</dd></dl><h2 id="empty">Empty</h2>`)))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"=X:Intro.", "install=X/Install:Add it:\n[a]\nb = 1", "apt=X/Install/Linux/apt:Use apt."}
	if got := paths(c); !reflect.DeepEqual(got, want) {
		t.Fatalf("records %q, want %q", got, want)
	}
	r := c.Records[1]
	if r.Title != "X" || r.ID != RecordID("/docs/x/", "install") || len(r.Blocks) != 2 ||
		r.Blocks[1] != (Block{Kind: "code", Lang: "toml", Text: "[a]\nb = 1"}) {
		t.Errorf("record %+v", r)
	}
}

func TestV3Errors(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  string
	}{
		{"no html", v3(t, map[string]any{"url": "/x/", "title": "X", "kind": "page", "section": "", "lang": "en"})},
		{"other lang", v3(t, map[string]any{"url": "/x/", "title": "X", "kind": "page", "section": "", "lang": "fr", "html": "<p>x</p>"})},
		{"duplicate anchor", v3(t, v3page("/x/", "X", `<h2 id="a">A</h2><p>x</p><h2 id="a">A</h2><p>y</p>`))},
		{"too deep", v3(t, v3page("/x/", "X", strings.Repeat("<div>", 300)+"x"))},
		{"unsafe url", v3(t, v3page("x/", "X", `<p>x</p>`))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := load(t, tc.doc); err == nil || err.(*Error).Code != CodeInvalid {
				t.Errorf("err = %v", err)
			}
		})
	}
}
