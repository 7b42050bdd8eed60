package generate

import (
	"strings"
	"testing"
)

// A short section is quoted whole, in reading order, whatever sentence
// of it was found: the part the question did not name (the app
// password, the command to run after the fix) is often what the reader
// needs next. Nothing is stitched in from the page's other sections.
func TestComposerQuotesShortSectionWhole(t *testing.T) {
	webdav := [3]string{"/webdav/", "WebDAV", `<h2 id="configuration">Configuration</h2>
<p>Here is an example of how to make a remote called <code>remote</code>. If you know what kind of system you are connecting to then rclone can enable extra features.</p>
<pre><code class="language-console">rclone config</code></pre>
<p>List all the files in your WebDAV</p>
<pre><code class="language-console">rclone ls remote:</code></pre>
<h3 id="fastmail-files">Fastmail Files</h3>
<p>Use <code>https://webdav.fastmail.com/</code> or a subdirectory as the URL, and your Fastmail email <code>username@domain.tld</code> as the username. Follow this documentation to create an app password with access to <code>Files (WebDAV)</code> and use this as the password.</p>
<p>Fastmail supports modified times using the <code>X-OC-Mtime</code> header.</p>`}
	icloud := [3]string{"/iclouddrive/", "iCloud Drive", `<h2 id="advanced-data-protection">Advanced Data Protection</h2>
<p>Accounts with Advanced Data Protection need web access turned on before rclone can list anything.</p>
<h3 id="pcs-cookie-errors-with-adp">PCS cookie errors with ADP</h3>
<p>If you see <code>Missing PCS cookies from the request</code> or a <code>requestPCS:</code> error, the ADP approval flow did not complete successfully.</p>
<p>Check that 'Access iCloud Data on the Web' is enabled and approve any prompt on your trusted device.</p>
<p>Then run <code>rclone reconnect remote:</code>.</p>
<p>If the remote still has stale auth state, clear the <code>cookies</code> and <code>trust_token</code> fields in the config, or delete and recreate the remote.</p>`}
	for _, tc := range []struct {
		q     string
		page  [3]string
		order []string
		not   string
	}{
		{"connect rclone to my Fastmail file storage", webdav,
			[]string{"webdav.fastmail.com", "create an app password", "X-OC-Mtime"}, "kind of system"},
		{"icloud error Missing PCS cookies from the request", icloud,
			[]string{"did not complete successfully", "Access iCloud Data on the Web", "rclone reconnect remote:", "trust_token"}, "need web access"},
	} {
		text, _ := composeOver(t, tc.q, tc.page)
		at := 0
		for _, want := range tc.order {
			i := strings.Index(text[at:], want)
			if i < 0 {
				t.Errorf("%q: no %q (in order) in\n%s", tc.q, want, text)
				break
			}
			at += i
		}
		if strings.Contains(text, tc.not) {
			t.Errorf("%q: another section's %q in\n%s", tc.q, tc.not, text)
		}
	}
}

// A section too long to quote whole, or one whose code is tabs of one
// setting in several formats, is answered by its sentences as before.
func TestComposerLongSectionNotWhole(t *testing.T) {
	long := strings.Repeat("<p>Rclone keeps a cache of directory listings in memory for a while, so repeated listings are quick and cheap on every remote.</p>\n", 6)
	page := [3]string{"/mount/", "rclone mount", `<h2 id="vfs-directory-cache">VFS directory cache</h2>
<p>Use <code>--dir-cache-time</code> to control how long the directory cache is kept.</p>
` + long}
	text, _ := composeOver(t, "how long does rclone mount keep the directory cache", page)
	if !strings.Contains(text, "--dir-cache-time") {
		t.Errorf("no lead in\n%s", text)
	}
	if strings.Count(text, "Rclone keeps a cache") > 1 {
		t.Errorf("a long section quoted whole:\n%s", text)
	}
	tabs := [3]string{"/docs/chrome/", "Chrome", `<h2 id="setting-the-build-mode">Setting the build mode</h2>
<p>hugo.toml</p>
<pre><code class="language-toml">[params.td]
chrome = "shared"</code></pre>
<p>hugo.yaml</p>
<pre><code class="language-yaml">params:
  td:
    chrome: shared</code></pre>`}
	if text, _ := composeOver(t, "td.chrome shared", tabs); strings.Count(text, "```") > 2 {
		t.Errorf("every tab quoted:\n%s", text)
	}
}

// A short answer from a long section reads on in it, in order, while
// the paragraphs speak of the question: what a :writeback upstream does
// follows the example of how to tag one.
func TestComposerReadsOnInItsSection(t *testing.T) {
	page := [3]string{"/union/", "Union", `<p>The <code>union</code> backend joins several remotes together to make a single unified view of them.</p>
<h2 id="writeback">Writeback</h2>
<p>The tag <code>:writeback</code> on an upstream remote can be used to make a simple cache system like this:</p>
<pre><code class="language-ini">[union]
type = union
upstreams = /local:writeback remote:dir</code></pre>
<p>When files are opened for read, if the file is in <code>remote:dir</code> but not <code>/local</code> then rclone will copy the file entirely into <code>/local</code> before returning a reference to the file in <code>/local</code>. The copy will be done with the equivalent of <code>rclone copy</code> so will use <code>--multi-thread-streams</code> if configured. Any copies will be logged with an INFO log.</p>
<p>When files are written, they will be written to both <code>remote:dir</code> and <code>/local</code>.</p>
<p>As many remotes as desired can be added to <code>upstreams</code> but there should only be one <code>:writeback</code> tag.</p>
<p>Rclone does not manage the <code>:writeback</code> remote in any way other than writing files back to it. So if you need to expire old files or manage the size then you will have to do this yourself.</p>`}
	text, _ := composeOver(t, "what does :writeback after an upstream do in a union remote?", page)
	if !strings.Contains(text, "When files are opened for read") || !strings.Contains(text, "written to both") {
		t.Errorf("got\n%s", text)
	}
}
