package chunk

import (
	"strings"
	"testing"
)

// askplane.chunk/2 splits at every heading, whichever element carries its
// id, and makes a key for a heading the page gives none.
func TestHeadingIDsWhereverTheyAre(t *testing.T) {
	for _, tc := range []struct{ name, html, want string }{
		{"on the heading", `<h2 id="install">Install</h2><p>x</p>`, "[2#install Install]"},
		{"on a span inside", `<h2 class="text-2xl font-bold"><span id="install" class="scroll-mt-24"></span>Install</h2><p>x</p>`, "[2#install Install]"},
		{"on a permalink inside", `<h2 class="group"><a id="install" class="heading-link" href="#install">Install</a></h2><p>x</p>`, "[2#install Install]"},
		{"a link's name inside", `<h2><a name="install"></a>Install</h2><p>x</p>`, "[2#install Install]"},
		{"empty anchor before", `<a id="install"></a>
<h2>Install</h2><p>x</p>`, "[2#install Install]"},
		{"a name before, in its own p", `<p><a name="install"></a></p><h3>Install</h3><p>x</p>`, "[3#install Install]"},
		{"on the section it opens", `<section id="install"><h2>Install</h2><p>x</p></section>`, "[2#install Install]"},
		{"a link to an id the page has", `<div id="install"></div><p>Intro.</p><h2><a href="#install">Install</a></h2><p>x</p>`, "[2#install Install]"},
		{"a link to an id the page lacks", `<h2><a href="#install">Install</a></h2><p>x</p>`, "[2#~install Install]"},
		{"no id at all", `<h2>Install the <code>CLI</code>, v2!</h2><p>x</p>`, "[2#~install-the-cli-v2 Install the CLI, v2!]"},
		{"non-ASCII", `<h2>Démarrage   rapide</h2><p>x</p>`, "[2#~démarrage-rapide Démarrage rapide]"},
		{"only punctuation", `<h2>?!</h2><p>x</p>`, "[2#~heading ?!]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := split(t, tc.html)
			if !strings.Contains(got, tc.want+"\n") {
				t.Errorf("got\n%s\nwant a chunk %s", got, tc.want)
			}
		})
	}
}

// An empty anchor marks the heading right after it only: text or a block
// in between ends it.
func TestAnchorBeforeContentIsNotTheHeadings(t *testing.T) {
	got := split(t, `<a id="top"></a><p>Intro.</p><h2>Install</h2><a id="x"></a><pre>code</pre><h2>Use</h2>`)
	want := "[0# ]\nparagraph(): Intro.\n[2#~install Install]\ncode(): code\n[2#~use Use]\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Keys are unique: a made one steps aside for every id the page has and
// every key before it ("-1", "-2", as Hugo numbers), and a found id that a
// chunk has already is not used twice, not even by a heading or term that
// carries it itself (so the corpus reader never refuses a page for it).
func TestKeysAreUnique(t *testing.T) {
	got := split(t, `<h2>Example</h2><p>a</p><h2>Example</h2><p>b</p><h2 id="example-2">Other</h2><p>c</p><h2>Example</h2><p>d</p>
<h2><span id="dup"></span>One</h2><p>e</p><h2><span id="dup"></span>Two</h2><p>f</p><h2 id="dup">Three</h2><p>g</p><dl><dt id="dup">four</dt><dd>h</dd></dl>`)
	want := `[0# ]
[2#~example Example]
paragraph(): a
[2#~example-1 Example]
paragraph(): b
[2#example-2 Other]
paragraph(): c
[2#~example-3 Example]
paragraph(): d
[2#dup One]
paragraph(): e
[2#~two Two]
paragraph(): f
[2#~three Three]
paragraph(): g
term(): four
definition(): h
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A heading made only of a permalink (a theme's class "heading-link")
// keeps its words.
func TestHeadingThatIsAPermalink(t *testing.T) {
	got := split(t, `<h2 id="opts"><a class="heading-link" href="#opts">Options</a></h2><p>x</p><h3 id="g"><a class="anchor" href="#g">#</a></h3><p>y</p>`)
	want := "[0# ]\n[2#opts Options]\nparagraph(): x\n[3#g ]\nparagraph(): y\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Inline code is a Markdown code span wherever prose is: paragraphs, list
// items, table cells, terms, definitions, notes; headings keep the words.
func TestCodeSpans(t *testing.T) {
	got := split(t, `<h2 id="run">Run <code>hugo</code></h2>
<p>Run <code>hugo mod init</code>, then open <code>public/</code>. Set <code>feedback = true</code>.</p>
<p>Backticks: <code>a`+"`"+`b</code> and <code>`+"``"+`x</code> and <code>  </code>end.</p>
<ul><li>Use <a href="/x/"><code>askplane.widget</code></a></li></ul>
<table><tr><th>Key</th><th>Does</th></tr><tr><td><code>search</code></td><td>Shows the <code>|</code> box</td></tr></table>
<dl><dt><code>baseURL</code></dt><dd>The <code>https://</code> root.</dd></dl>
<div class="note"><p>Needs <code>go</code>.</p></div>`)
	want := "[0# ]\n[2#run Run hugo]\n" +
		"paragraph(): Run `hugo mod init`, then open `public/`. Set `feedback = true`.\n" +
		"paragraph(): Backticks: ``a`b`` and ``` ``x ``` and end.\n" +
		"list(): - Use `askplane.widget`\n" +
		"table(): | Key | Does |\n| --- | --- |\n| `search` | Shows the `\\|` box |\n" +
		"term(): `baseURL`\n" +
		"definition(): The `https://` root.\n" +
		"note(): Needs `go`.\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// The comments of a TOML or YAML block that annotate settings become the
// block's Notes; the code stays verbatim, and comments that annotate
// nothing give no note.
func TestAnnotations(t *testing.T) {
	toml := `# Site-wide settings.

[params.askplane]
# Set to false to hide the search box
search = true
feedback = true # show the feedback buttons
url = "https://x.example/#top" # the sidecar
# Themes: light or dark.
# Default is light.
theme = "light"

# A lone remark.
[[menu.main]]
name = "Docs"`
	yaml := `# Site settings
params:
  askplane:
    # Set to false to hide the search box
    search: true
    link: http://x#y
  other: 1 # the other one
list:
  - a # not a setting`
	got := split(t, `<pre><code class="language-toml">`+toml+`</code></pre><pre><code class="language-yaml">`+yaml+`</code></pre><pre><code class="language-sh"># a shell comment
hugo</code></pre>`)
	want := "[0# ]\ncode(toml): " + toml + "\n" +
		"notes: `search` in `[params.askplane]`: Set to false to hide the search box\n" +
		"`feedback` in `[params.askplane]`: show the feedback buttons\n" +
		"`url` in `[params.askplane]`: the sidecar\n" +
		"`theme` in `[params.askplane]`: Themes: light or dark. Default is light.\n" +
		"`[[menu.main]]`: A lone remark.\n" +
		"code(yaml): " + yaml + "\n" +
		"notes: `params`: Site settings\n" +
		"`search` in `params.askplane`: Set to false to hide the search box\n" +
		"`other` in `params`: the other one\n" +
		"code(sh): # a shell comment\nhugo\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A callout's title heading is the callout's text, not a section.
func TestHeadingInsideANote(t *testing.T) {
	got := split(t, `<h2 id="a">A</h2><div class="alert alert-info"><h4 class="alert-heading">Note</h4><p>Needs <code>go</code>.</p></div><blockquote><h5>Tip</h5><p>Quote.</p></blockquote>`)
	want := "[0# ]\n[2#a A]\nnote(): Note Needs `go`.\nnote(): Tip Quote.\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
