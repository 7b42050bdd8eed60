package generate

import (
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/evidence"
)

// A section written as captioned commands answers "steps to …" with
// every caption numbered and its code, in reading order; tabs of one
// setting in three formats are no steps.
func TestComposerCaptionedCommandsAreSteps(t *testing.T) {
	page := [3]string{"/install/", "Install", `<h2 id="linux-installation">Linux installation</h2>
<h3 id="linux-precompiled">Precompiled binary</h3>
<p>Fetch and unpack</p>
<pre><code class="language-console">curl -O https://downloads.rclone.org/rclone-current-linux-amd64.zip
unzip rclone-current-linux-amd64.zip</code></pre>
<p>Copy binary file</p>
<pre><code class="language-console">sudo cp rclone /usr/bin/</code></pre>
<p>Install manpage</p>
<pre><code class="language-console">sudo mkdir -p /usr/local/share/man/man1
sudo cp rclone.1 /usr/local/share/man/man1/
sudo mandb</code></pre>
<p>Run <code>rclone config</code> to setup. See rclone config docs for more details.</p>
<pre><code class="language-console">rclone config</code></pre>`}
	text, _ := composeOver(t, "steps to install the precompiled linux binary by hand, including the man page", page)
	for _, want := range []string{"1. Fetch and unpack", "rclone-current-linux-amd64.zip", "2. Copy binary file", "sudo cp rclone /usr/bin/", "3. Install manpage", "sudo mandb", "4. Run `rclone config` to setup."} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	tabs := [3]string{"/docs/look/", "Look and Feel", `<h2 id="prism">Code highlighting with Prism</h2>
<p>Enable Prism syntax highlighting in your site configuration:</p>
<p>hugo.toml</p>
<pre><code class="language-toml">[params]
prism_syntax_highlighting = true</code></pre>
<p>hugo.yaml</p>
<pre><code class="language-yaml">params:
  prism_syntax_highlighting: true</code></pre>
<p>hugo.json</p>
<pre><code class="language-json">{"params": {"prism_syntax_highlighting": true}}</code></pre>`}
	if text, _ := composeOver(t, "steps to set up prism code highlighting", tabs); strings.Contains(text, "1. hugo.toml") {
		t.Errorf("tabs as steps:\n%s", text)
	}
}

// Captioned commands under a heading that says nothing the question
// asks ("Configuration", for the steps to use an RC file) are another
// walk-through, not the steps asked for.
func TestCodeStepsOfAnotherTask(t *testing.T) {
	page := [3]string{"/swift/", "Swift", `<h2 id="configuration">Configuration</h2>
<p>Here is an example of making a swift configuration. First run</p>
<pre><code>tool config</code></pre>
<p>See all containers</p>
<pre><code>tool lsd remote:</code></pre>
<p>Make a new container</p>
<pre><code>tool mkdir remote:container</code></pre>`}
	for q, want := range map[string]bool{
		"steps to use my OpenStack RC file so I can see all containers": false,
		"steps for a swift configuration":                               true,
	} {
		pkg := v3(t, page).Search(q, evidence.Budget{})
		c := newComposer(q, &pkg, DefaultComposeBytes)
		if len(c.sents) == 0 {
			t.Fatalf("%q: no sentences", q)
		}
		if got := c.codeSteps(0); got != want {
			t.Errorf("%q: codeSteps = %v, want %v", q, got, want)
		}
	}
}
