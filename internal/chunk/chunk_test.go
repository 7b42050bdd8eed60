package chunk

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// show renders chunks compactly: "[level#anchor heading]" (with "~key"
// after the anchor when the key is another) then "kind(lang): text" per
// block.
func show(chunks []Chunk) string {
	var b strings.Builder
	for _, c := range chunks {
		key := ""
		if c.Key != c.Anchor {
			key = "~" + c.Key
		}
		fmt.Fprintf(&b, "[%d#%s%s %s]\n", c.Level, c.Anchor, key, c.Heading)
		for _, bl := range c.Blocks {
			fmt.Fprintf(&b, "%s(%s): %s\n", bl.Kind, bl.Lang, bl.Text)
			if bl.Notes != "" {
				fmt.Fprintf(&b, "notes: %s\n", bl.Notes)
			}
		}
	}
	return b.String()
}

func split(t *testing.T, src string) string {
	t.Helper()
	c, err := Split(src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return show(c)
}

func TestBlockKinds(t *testing.T) {
	for _, tc := range []struct{ name, html, want string }{
		{"paragraph", "<p>Hello\n  <em>world</em>.</p><p>Two</p>", "[0# ]\nparagraph(): Hello world.\nparagraph(): Two\n"},
		{"loose text and br", "Loose <b>text</b><br>more<div>in div</div>after", "[0# ]\nparagraph(): Loose text more\nparagraph(): in div\nparagraph(): after\n"},
		{"heading without id", "<h3>Plain</h3><p>x</p>", "[0# ]\n[3#~plain Plain]\nparagraph(): x\n"},
		{"code class", `<pre><code class="language-toml">[a]
  b = "c"
</code></pre>`, "[0# ]\ncode(toml): [a]\n  b = \"c\"\n"},
		{"hugo highlight", `<div class="highlight"><pre tabindex="0" style="color:#f8f8f2"><code class="language-sh" data-lang="sh"><span style="display:flex;"><span>hugo mod get x
</span></span></code></pre></div>`, "[0# ]\ncode(sh): hugo mod get x\n"},
		{"chroma line numbers inline", `<pre><code data-lang="go"><span class="line"><span class="ln">1</span><span class="cl">a := 1
</span></span><span class="line"><span class="ln">2</span><span class="cl">b := 2
</span></span></code></pre>`, "[0# ]\ncode(go): a := 1\nb := 2\n"},
		{"chroma line number table", `<div class="highlight"><div class="chroma"><table class="lntable"><tr><td class="lntd"><pre tabindex="0" class="chroma"><code><span class="lnt">1
</span><span class="lnt">2
</span></code></pre></td><td class="lntd"><pre tabindex="0" class="chroma"><code class="language-yaml" data-lang="yaml"><span class="line"><span class="cl">a: 1
</span></span><span class="line"><span class="cl">b: 2
</span></span></code></pre></td></tr></table></div></div>`, "[0# ]\ncode(yaml): a: 1\nb: 2\n"},
		{"code without language", "<pre>raw  text</pre>", "[0# ]\ncode(): raw  text\n"},
		{"list", "<ul><li>one</li><li><p>two</p><ul><li>nested <code>x</code></li></ul></li></ul><ol start=\"3\"><li>c</li><li>d</li></ol>",
			"[0# ]\nlist(): - one\n- two\n  - nested `x`\nlist(): 3. c\n4. d\n"},
		{"code inside a list item", "<ol><li>Add:<pre><code class=\"language-toml\">a = 1</code></pre></li><li>Run it</li></ol>",
			"[0# ]\nlist(): 1. Add:\ncode(toml): a = 1\nlist(): 2. Run it\n"},
		{"table", "<table><thead><tr><th>key</th><th>what</th></tr></thead><tbody><tr><td><code>a|b</code></td><td>the <em>A</em></td></tr><tr><td>c</td><td>C</td></tr></tbody></table>",
			"[0# ]\ntable(): | key | what |\n| --- | --- |\n| `a\\|b` | the A |\n| c | C |\n"},
		{"table without header", "<table><tr><td>a</td><td>b</td></tr></table>", "[0# ]\ntable(): | a | b |\n"},
		{"definition list", "<dl><dt>term</dt><dd><p>First.</p><p>Second.</p></dd><dt>other</dt><dd>Def.</dd></dl>",
			"[0# ]\nterm(): term\ndefinition(): First. Second.\nterm(): other\ndefinition(): Def.\n"},
		{"blockquote", "<blockquote><p>Quoted.</p><p>More.</p></blockquote><p>After.</p>", "[0# ]\nnote(): Quoted. More.\nparagraph(): After.\n"},
		{"admonition", `<div class="admonition warning"><p class="admonition-title">Warning</p><p>Careful.</p></div>`, "[0# ]\nnote(): Warning Careful.\n"},
		{"note with code", `<aside role="note"><p>Set:</p><pre><code class="language-json">{}</code></pre><p>Done.</p></aside>`, "[0# ]\nnote(): Set:\ncode(json): {}\nnote(): Done.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := split(t, tc.html); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestSplits(t *testing.T) {
	got := split(t, `<p>Intro.</p>
<h1 id="top">Top</h1><p>a</p>
<h2 id="sync">Sync is slow<a class="anchor" href="#sync">#</a></h2><p>b</p>
<h3 id="deep">Deep <a href="#deep" aria-hidden="true">🔗</a></h3>
<dl><dt id="opt-x">x</dt><dd>the x option</dd><dt>y</dt><dd>plain</dd></dl>
<h2 id="c-sharp">C# ¶</h2><p>c</p>`)
	want := `[0# ]
paragraph(): Intro.
[1#top Top]
paragraph(): a
[2#sync Sync is slow]
paragraph(): b
[3#deep Deep]
[7#opt-x x]
definition(): the x option
term(): y
definition(): plain
[2#c-sharp C#]
paragraph(): c
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDropped(t *testing.T) {
	for _, tc := range []struct{ name, html string }{
		{"nav", `<nav><a href="/">Home</a></nav>`},
		{"breadcrumb class", `<ol class="breadcrumb"><li><a href="/">Home</a></li></ol>`},
		{"breadcrumb label", `<div aria-label="Breadcrumb"><a href="/">Home</a></div>`},
		{"tablist", `<div role="tablist"><span>yaml</span><span>toml</span><span>json</span></div>`},
		{"tab buttons", `<div class="tabs"><button>yaml</button><button>toml</button><button>json</button></div>`},
		{"tab label spans", `<div class="code-tabs"><span class="tab-button button active" data-toggle-tab="yaml">yaml</span><span class="tab-button button">toml</span></div>`},
		{"radio tabs", `<input type="radio" id="t1"><label for="t1">yaml</label>`},
		{"script", `<script>var x = "secret";</script>`},
		{"style", `<style>.x{color:red}</style>`},
		{"template", `<template><p>later</p></template>`},
		{"noscript", `<noscript>Enable JS</noscript>`},
		{"svg", `<svg><title>icon</title></svg>`},
		{"askplane-ignore class", `<div class="note askplane-ignore"><p>Edit this page</p></div>`},
		{"data-askplane-ignore", `<section data-askplane-ignore><h2 id="x">X</h2><p>Ads</p></section>`},
		{"aria-hidden", `<span aria-hidden="true">★</span>`},
		{"see also", `<h2>See also</h2><ul><li><a href="/a/">A</a></li><li><a href="/b/">B</a>: the b page</li></ul>`},
		{"voir aussi", `<h2 id="voir-aussi">Voir aussi</h2><ul><li><a href="/a/">A</a></li></ul>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := split(t, "<p>Kept.</p>"+tc.html); got != "[0# ]\nparagraph(): Kept.\n" && got != "[0# ]\nparagraph(): Kept.\n[2#voir-aussi Voir aussi]\n" && got != "[0# ]\nparagraph(): Kept.\n[2#~see-also See also]\n" {
				t.Errorf("got\n%s", got)
			}
		})
	}
}

// A "See also" section keeps what is not a link list, and ends at the
// next heading of its level.
func TestSeeAlsoScope(t *testing.T) {
	got := split(t, `<h2 id="related">Related</h2><p>Read these first.</p><ul><li><a href="/a/">A</a></li></ul>
<h3 id="sub">Sub</h3><ul><li><a href="/b/">B</a></li></ul>
<h2 id="next">Next</h2><ul><li><a href="/c/">C</a></li></ul>`)
	want := "[0# ]\n[2#related Related]\nparagraph(): Read these first.\n[3#sub Sub]\n[2#next Next]\nlist(): - C\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestBounds(t *testing.T) {
	code := func(err error) string {
		var e *Error
		if errors.As(err, &e) {
			return e.Code
		}
		return fmt.Sprint(err)
	}
	if _, err := Split(strings.Repeat("a", MaxPageBytes+1)); code(err) != CodeTooLarge {
		t.Errorf("too large: %v", err)
	}
	if _, err := Split(strings.Repeat("<div>", MaxDepth+10) + "x"); code(err) != CodeTooDeep {
		t.Errorf("too deep: %v", err)
	}
	if _, err := Split(strings.Repeat("<blockquote>", MaxDepth+10) + "x"); code(err) != CodeTooDeep {
		t.Errorf("too deep (notes): %v", err)
	}
	if _, err := Split(strings.Repeat("<h2 id=a>a</h2>", MaxChunks+1)); code(err) != CodeTooManyParts {
		t.Errorf("too many chunks: %v", err)
	}
	if _, err := Split(strings.Repeat("<p>a</p>", MaxBlocksPerChunk+1)); code(err) != CodeTooManyParts {
		t.Errorf("too many blocks: %v", err)
	}
	if c, err := Split(strings.Repeat("<p>a</p>", MaxBlocksPerChunk)); err != nil || len(c[0].Blocks) != MaxBlocksPerChunk {
		t.Errorf("at the bound: %v", err)
	}
}

func TestDeterministic(t *testing.T) {
	src := `<h2 id="a">A</h2><table><tr><th>x</th></tr><tr><td>1</td></tr></table><ul><li>i</li></ul>`
	one, _ := Split(src)
	two, _ := Split(src)
	if !reflect.DeepEqual(one, two) {
		t.Error("two splits differ")
	}
}

func TestPlainText(t *testing.T) {
	got := PlainText([]Block{{Kind: Paragraph, Text: "Add it:"}, {Kind: Code, Lang: "toml", Text: "a = 1\nb = 2"}, {Kind: List, Text: "- x"}})
	if got != "Add it:\na = 1\nb = 2\n- x" {
		t.Errorf("%q", got)
	}
	if TrimGlyphs("Sync ¶") != "Sync" || TrimGlyphs("C#") != "C#" {
		t.Error("TrimGlyphs")
	}
}

func FuzzSplit(f *testing.F) {
	f.Add(`<h2 id="a">A<a class="anchor">#</a></h2><pre><code class="language-go">x</code></pre><ul><li>a<ul><li>b</li></ul></li></ul>`)
	f.Add(`<dl><dt id="t">t</dt><dd><table><tr><td>|</td></tr></table></dd></dl>`)
	f.Add("<a id=x></a><h2>A <code>`b`</code></h2><pre><code class=\"language-toml\">[t]\n# c\nk = 1 # d\n'q' = \"#\"</code></pre><pre data-lang=yaml>a:\n  # c\n  b: 1\n- x # y</pre>")
	f.Fuzz(func(t *testing.T, src string) {
		chunks, err := Split(src)
		if err != nil {
			return
		}
		if len(chunks) == 0 || chunks[0].Level != 0 {
			t.Fatal("no level-0 chunk first")
		}
		for _, c := range chunks {
			if c.Level > 0 && c.Key == "" || c.Anchor != "" && c.Key != c.Anchor {
				t.Fatalf("chunk %+v: no key, or a key that is not its anchor", c)
			}
			for _, b := range c.Blocks {
				if b.Notes != "" && (b.Kind != Code || b.Notes != strings.TrimSpace(b.Notes)) {
					t.Fatalf("notes on %+v", b)
				}
				if b.Text == "" || (b.Kind != Code && b.Kind != List && b.Text != strings.TrimSpace(b.Text)) {
					t.Fatalf("block %+v", b)
				}
			}
		}
	})
}
