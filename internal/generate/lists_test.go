package generate

import (
	"strings"
	"testing"
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
