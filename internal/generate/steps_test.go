package generate

import (
	"fmt"
	"strings"
	"testing"
)

// A reader who asks for the steps gets the whole guide; a guide cut
// short says where the page goes on.
func TestComposerGuideWhole(t *testing.T) {
	var items strings.Builder
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&items, "<li>Click the button named Register app number %d on the console page, then wait for the confirmation to show. It does not matter which account you use for this, and the confirmation can take a minute to arrive.</li>\n", i)
	}
	page := [3]string{"/docs/app/", "App", `<h2 id="own-app">Registering your own app</h2>
<p>By default the tool uses its own shared app key, which is rate limited.</p>
<ol>` + items.String() + `</ol>`}
	text := composeNow(t, "steps to register my own app", page)
	if !strings.Contains(text, "9. Click the button named Register app number 9") || strings.Contains(text, "on the page.") {
		t.Errorf("asked for the steps, the answer is not the whole guide:\n%s", text)
	}
	text = composeNow(t, "how do I register my own app", page)
	if !strings.Contains(text, "6. Click the button named Register app number 6") || strings.Contains(text, "7. ") {
		t.Errorf("a how-to quotes six steps:\n%s", text)
	}
	if !strings.HasSuffix(text, "Steps 7 to 9 are on the page.") {
		t.Errorf("a cut guide does not say where it goes on:\n%s", text)
	}
}

func TestMoreSteps(t *testing.T) {
	for _, c := range []struct {
		n, left int
		want    string
	}{
		{5, 1, "Step 6 is on the page."},
		{5, 2, "Steps 6 and 7 are on the page."},
		{6, 8, "Steps 7 to 14 are on the page."},
	} {
		if got := moreSteps(c.n, c.left); got != c.want {
			t.Errorf("moreSteps(%d, %d) = %q, want %q", c.n, c.left, got, c.want)
		}
	}
}

// A note inside a numbered guide ("NOTE: If you're porting …") does not
// end it when the numbering goes on after the note.
func TestComposerGuideGoesOnPastANote(t *testing.T) {
	page := [3]string{"/commands/tool_gitannex/", "tool gitannex", `<h2 id="linux">Installation on Linux</h2>
<ol><li>Skip this step if your git-annex is new enough. Otherwise, create a symlink on your PATH.
<pre><code>ln -s "$(realpath tool)" "$HOME/bin/git-annex-remote-tool"</code></pre></li>
<li>Add a new remote to your git-annex repo.
<pre><code>git annex initremote MyRemote type=tool --whatelse</code></pre></li></ol>
<div class="alert"><p>NOTE: If you're porting an existing remote, you can reuse its configuration parameters.</p></div>
<ol start="3"><li>Before you trust this command with your data, test the remote.
<pre><code>git annex testremote MyRemote</code></pre></li></ol>`}
	text, _ := composeOver(t, "steps to use a tool remote as a git-annex special remote", page)
	for _, want := range []string{"1. Skip this step", "2. Add a new remote", "git annex initremote", "3. Before you trust this command", "git annex testremote MyRemote"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}
