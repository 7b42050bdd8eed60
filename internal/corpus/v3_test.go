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

// A page whose author gave two headings the same id (Hugo builds it, and
// real sites have it: rclone's install page) loads: the later heading's
// record is keyed id-1 as Hugo would number it, its link goes where a
// browser's does (the first), and nothing else on the site is lost.
func TestV3RepeatedHeadingID(t *testing.T) {
	c, err := load(t, v3(t,
		v3page("/x/", "X", `<h2 id="a">A</h2><p>x</p><h2 id="a-1">B</h2><p>y</p><h2 id="a">C</h2><p>z</p><h2 id="a">D</h2><p>w</p>`),
		v3page("/y/", "Y", `<h2 id="a">A</h2><p>v</p>`)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	ids := map[string]bool{}
	for _, r := range c.Records {
		got = append(got, r.Href()+" "+r.Headings[len(r.Headings)-1]+":"+r.Text)
		ids[r.ID] = true
	}
	want := []string{"/x/#a A:x", "/x/#a-1 B:y", "/x/#a C:z", "/x/#a D:w", "/y/#a A:v"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("records %q, want %q", got, want)
	}
	if len(ids) != len(want) || !ids[RecordID("/x/", "a-2")] || !ids[RecordID("/x/", "a-3")] {
		t.Errorf("record ids are not the page's keys a, a-1, a-2, a-3: %v", c.Records)
	}
}

func TestV3Errors(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  string
	}{
		{"no html", v3(t, map[string]any{"url": "/x/", "title": "X", "kind": "page", "section": "", "lang": "en"})},
		{"other lang", v3(t, map[string]any{"url": "/x/", "title": "X", "kind": "page", "section": "", "lang": "fr", "html": "<p>x</p>"})},
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

// askplane.chunk/2 (the Current rules): an untitled page takes its first
// h1's text (else its first heading's) as its title; a heading the page
// gives no id splits all the same, is cited without an anchor and keeps a
// record id of its own (the id Hugo would give it); inline code is kept.
// Chunk1 reads the same bytes as askplane.bm25/1 and /2 always did.
func TestV3HeadingTitleAndKeys(t *testing.T) {
	doc := v3(t,
		v3page("/a/", "", `<p>Intro.</p><h2>Setup</h2><p>Run <code>hugo mod init</code>.</p><h1 id="guide">Guide</h1><p>Read it.</p><h2><span id="use"></span>Use</h2><p>Use it.</p>`),
		v3page("/b/", "", `<h3 class="x">First</h3><p>b text</p><h2>Second</h2><p>more</p>`),
		v3page("/c/", "C", `<p>c</p>`))
	c, err := load(t, doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"=Guide:Intro.",
		"=Guide/Setup:Run `hugo mod init`.",
		"guide=Guide:Read it.",
		"use=Guide/Use:Use it.",
		"=First:b text",
		"=First/Second:more",
		"=C:c",
	}
	if got := paths(c); !reflect.DeepEqual(got, want) {
		t.Fatalf("records %q, want %q", got, want)
	}
	ids := map[string]bool{}
	for _, r := range c.Records {
		ids[r.ID] = true
	}
	if len(ids) != len(c.Records) || c.Records[1].ID != RecordID("/a/", "setup") || c.Records[1].Href() != "/a/" || c.Records[3].Href() != "/a/#use" || c.Records[0].Title != "Guide" {
		t.Errorf("ids or hrefs: %+v", c.Records)
	}

	old, err := LoadWith([]byte(doc), ContentHash([]byte(doc)), Chunk1)
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"=:Intro.\nSetup\nRun hugo mod init.", "guide=/Guide:Read it.\nUse\nUse it.", "=:First\nb text\nSecond\nmore", "=C:c"}
	if got := paths(old); !reflect.DeepEqual(got, want) {
		t.Fatalf("askplane.chunk/1 records %q, want %q", got, want)
	}
}
