package generate

import (
	"slices"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/evidence"
)

// A list the answer quotes goes on into the paragraph after it when that
// paragraph adds one more item ("It also provides …").
func TestComposerListGoesOn(t *testing.T) {
	page := [3]string{"/docs/sections/", "Sections", `<h2 id="templates">Section templates</h2>
<p>The theme comes with the following templates for top-level site sections:</p>
<ul><li><code>docs</code> is for the documentation pages.</li>
<li><code>blog</code> is for the blog posts.</li></ul>
<p>It also provides a plain landing template with a header and footer but no side navigation, for any other section. The home page uses it.</p>
<p>Each section is a folder of the content directory.</p>`}
	text := composeNow(t, "which templates does the theme have for top-level sections", page)
	if !strings.Contains(text, "- `blog` is for the blog posts.\n\nIt also provides a plain landing template") {
		t.Errorf("the list does not go on:\n%s", text)
	}
	if strings.Contains(text, "The home page uses it.") || strings.Contains(text, "Each section is a folder") {
		t.Errorf("more than the added item was quoted:\n%s", text)
	}
}

// Items that only head their sub-items ("Runtime configuration …:") are
// quoted with the sub-items, one level deep, each to its first sentence.
func TestComposerHeadedItems(t *testing.T) {
	page := [3]string{"/store/", "Store", `<h2 id="authentication">Authentication</h2>
<p>There are a number of ways to give the tool a set of store credentials.</p>
<p>The authentication methods are tried in this order:</p>
<ul><li>Directly in the configuration file (<code>env_auth = false</code>):
<ul><li><code>access_key_id</code> and <code>secret_access_key</code> are required. Both come from the console.</li>
<li><code>session_token</code> can be set when using temporary tokens.</li></ul></li>
<li>Runtime configuration (<code>env_auth = true</code>):
<ul><li>Export the key variables before running the tool:
<ul><li>Key: <code>STORE_KEY</code></li></ul></li>
<li>Or, use a named profile from <code>~/.store/credentials</code>.</li>
<li>Or, run the tool on a cloud instance with a role.</li></ul></li></ul>
<p>If none of these provide credentials, requests are anonymous.</p>`}
	text := composeNow(t, "what are the ways to give the tool my store credentials", page)
	for _, want := range []string{
		"- Directly in the configuration file (`env_auth = false`):\n   - `access_key_id` and `secret_access_key` are required.\n   - `session_token` can be set",
		"- Runtime configuration (`env_auth = true`):\n   - Export the key variables before running the tool:\n   - Or, use a named profile from `~/.store/credentials`.\n   - Or, run the tool on a cloud instance with a role.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Both come from the console") || strings.Contains(text, "STORE_KEY") {
		t.Errorf("a sub-item was quoted past its first sentence, or a deeper one was quoted:\n%s", text)
	}
}

// A short question naming a deprecated setting, found in the sentence
// that closes a list item ("Parameter `…` is deprecated."), is answered
// by the item from its start (what replaces the setting), and a list
// whose last quoted item introduces code is followed by that code.
func TestComposerListItemFromItsStart(t *testing.T) {
	page := [3]string{"/blog/2024/0.9.0/", "Docsy 0.9.0 release report", `<h2 id="footer">Footer streamlined</h2>
<ul><li>The About-page footer link is now hidden by default. To enable this link, set <code>.params.ui.footer_about_enable</code> to true in your project’s configuration file. Parameter <code>.params.ui.footer_about_disable</code> is deprecated.</li>
<li>The All-rights-reserved text is hidden by default. To make it visible, add the following to your <code>_styles_project.scss</code> project style file:</li></ul>
<pre><code class="language-scss">.td-footer__all_rights_reserved {
  display: inline;
}</code></pre>`}
	text, _ := composeOver(t, "ui.footer_about_disable deprecated", page)
	for _, want := range []string{"set `.params.ui.footer_about_enable` to true", "is deprecated.", "project style file:\n\n```scss\n.td-footer__all_rights_reserved"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}

// A quoted list whose last item introduces code is followed by that
// code, not left on its colon.
func TestQuoteListThenItsCode(t *testing.T) {
	page := [3]string{"/docs/contributing/", "Contribution guidelines", `<h2 id="docker">Preview your changes using a Docker container</h2>
<p>The repository comes with a <code>Dockerfile</code> to run the server locally.</p>
<ul><li>Using Docker:<ol><li>Build the Docker container:</li></ol></li></ul>
<pre><code class="language-bash">docker build -t docsy/user-guide .</code></pre>
<p>Open http://localhost:1313 in your web browser.</p>`}
	q := "preview the docs in a docker container"
	pkg := v3(t, page).Search(q, evidence.Budget{})
	c := newComposer(q, &pkg, DefaultComposeBytes)
	size := 0
	if !c.quoteList(0, 1, &size) {
		t.Fatalf("the list was not quoted")
	}
	var text strings.Builder
	for _, ev := range c.out.deltas {
		text.WriteString(ev.Delta)
	}
	if !strings.HasSuffix(text.String(), "Build the Docker container:\n\n```bash\ndocker build -t docsy/user-guide .\n```") {
		t.Errorf("got\n%s", text.String())
	}
}

// Sub-items quoted under the item that heads them keep their numbers
// when they are ordered, and their bullets when not.
func TestHeadedItemsKeepTheirMarkers(t *testing.T) {
	lines, _ := headedItems("- Using Docker:\n  1. Build the container.\n  2. Run it.\n- Using Compose:\n  - Run compose up.")
	want := []string{"Using Docker:", subItem + "1. Build the container.", subItem + "2. Run it.", "Using Compose:", subItem + "- Run compose up."}
	if !slices.Equal(lines, want) {
		t.Errorf("got %q, want %q", lines, want)
	}
}
