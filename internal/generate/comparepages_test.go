package generate

import (
	"strings"
	"testing"
)

// Two commands with a page each, compared by a question that opens with
// them ("rmdir or rmdirs …"), are answered a line each, in the order the
// question names them, from each page's opening: not by one page's
// sentence about the other.
func TestComposerComparesTwoPages(t *testing.T) {
	rmdir := [3]string{"/commands/rclone_rmdir/", "rclone rmdir", `<h2 id="synopsis">Synopsis</h2>
<p>This removes empty directory given by path. Will not remove the path if it has any objects in it, not even empty subdirectories. Use command rmdirs (or delete with option <code>--rmdirs</code>) to do that.</p>
<pre><code>rclone rmdir remote:path [flags]</code></pre>`}
	rmdirs := [3]string{"/commands/rclone_rmdirs/", "rclone rmdirs", `<h2 id="synopsis">Synopsis</h2>
<p>This recursively removes any empty directories (including directories that only contain empty directories), that it finds under the path. The root path itself will also be removed if it is empty, unless you supply the <code>--leave-root</code> flag.</p>
<p>Use command rmdir to delete just the empty directory given by path, not recurse.</p>
<p>This is useful for tidying up remotes that rclone has left a lot of empty directories in.</p>
<pre><code>rclone rmdirs remote:path [flags]</code></pre>`}
	text, used := composeOver(t, "rmdir or rmdirs to clean up the empty folders left after a delete?", rmdirs, rmdir)
	a, b := strings.Index(text, "- rclone rmdir: This removes empty directory"), strings.Index(text, "- rclone rmdirs: This recursively removes")
	if a < 0 || b < a || !strings.Contains(text, "--leave-root") || len(used) != 2 {
		t.Errorf("used %v, got\n%s", used, text)
	}
	// "vs" between them too, and the product's name may be said.
	text, _ = composeOver(t, "rclone rmdirs vs rclone rmdir", rmdirs, rmdir)
	if a, b := strings.Index(text, "- rclone rmdirs:"), strings.Index(text, "- rclone rmdir:"); a != 0 || b < a {
		t.Errorf("got\n%s", text)
	}
	// A question naming one of them only is no comparison of pages.
	text, _ = composeOver(t, "rmdirs or purge to clean up empty folders?", rmdirs, rmdir)
	if strings.HasPrefix(text, "- ") {
		t.Errorf("got\n%s", text)
	}
}

// Two options with a section each, compared by a question that ends
// naming them, are answered a line each: the flag, then what its
// section opens with. A flag the heading gives beside others
// ("--local-links, --links, -l") names its section too.
func TestComposerComparesTwoOptions(t *testing.T) {
	page := [3]string{"/local/", "Local Filesystem", `<h3 id="copy-links-l">--copy-links / -L</h3>
<p>Follow symlinks and copy the pointed to item.</p>
<h3 id="local-links-links-l">--local-links, --links, -l</h3>
<p>Normally the tool will ignore symlinks. If you supply this flag then it will copy symbolic links from the local storage, and store them as text files, with a <code>.rclonelink</code> suffix in the remote storage.</p>
<pre><code>tool copy -l /tmp/a/ remote:/tmp/a/</code></pre>`}
	text, used := composeOver(t, "local backend symlinks: --copy-links or --links?", page)
	a, b := strings.Index(text, "- `--copy-links`: Follow symlinks"), strings.Index(text, "\n- `--links`: Normally the tool will ignore symlinks.")
	if a != 0 || b < a || !strings.Contains(text, ".rclonelink") || len(used) != 2 {
		t.Errorf("used %v, got\n%s", used, text)
	}
}

// Three options compared, each with a section, get a line each, in the
// question's order; short flags name their section as long ones do.
func TestComposerComparesThreeOptions(t *testing.T) {
	page := [3]string{"/docs/", "Documentation", `<h3 id="v">-v, -vv, --verbose</h3>
<p>With -v the tool will tell you about each file that is transferred and a small number of significant events.</p>
<h3 id="q">-q, --quiet</h3>
<p>This flag will limit the output to error messages only.</p>
<h3 id="log-level">--log-level LEVEL</h3>
<p>This sets the log level: DEBUG, INFO, NOTICE or ERROR.</p>`}
	text, _ := composeOver(t, "-v vs -q vs --log-level", page)
	a, b, c := strings.Index(text, "- `-v`: With -v the tool"), strings.Index(text, "\n- `-q`: This flag will limit"), strings.Index(text, "\n- `--log-level`: This sets the log level")
	if a != 0 || b < a || c < b {
		t.Errorf("got\n%s", text)
	}
}

// Two pages compared keep their line each, then the sentence one of
// them sets against the other, which is the docs' own comparison.
func TestComparePagesQuotesTheContrast(t *testing.T) {
	unset := [3]string{"/commands/tool_config_unset/", "tool config unset", `<h2 id="synopsis">Synopsis</h2>
<p>Remove one or more options from an existing remote. The options to remove should be passed in as a list of key names.</p>
<p>For example, to remove the <code>key1</code> and <code>key2</code> options from the remote <code>myremote</code>:</p>
<pre><code>tool config unset myremote key1 key2</code></pre>
<p>This removes the keys from the config file entirely, which is different from setting them to an empty string with <code>config update</code>. Removing a key restores the default behaviour for that option, whereas setting it to an empty string overrides the default with an empty value.</p>`}
	update := [3]string{"/commands/tool_config_update/", "tool config update", `<h2 id="synopsis">Synopsis</h2>
<p>Update an existing remote's options.</p>`}
	text := composeRanked(t, "tool config unset vs config update with an empty value: aren't they the same thing?", []string{"/commands/tool_config_unset/", "/commands/tool_config_update/"}, unset, update)
	if !strings.Contains(text, "- tool config unset: Remove one or more options") || !strings.Contains(text, "different from setting them to an empty string") || !strings.Contains(text, "restores the default behaviour") {
		t.Errorf("got\n%s", text)
	}
}

// Commands named by verbs ("move or moveto …") are compared all the
// same, and a side whose page opens with a one-line summary goes on
// with its synopsis, which says what sets it apart; each piece cites
// its own section.
func TestComparePagesNamedByVerbs(t *testing.T) {
	moveto := [3]string{"/commands/tool_moveto/", "tool moveto", `<h2 id="tool-moveto">tool moveto</h2>
<p>Move file or directory from source to dest.</p>
<h2 id="synopsis">Synopsis</h2>
<p>If source:path is a file or directory then it moves it to a file or directory named dest:path. This can be used to rename files or upload single files to other than their existing name.</p>`}
	move := [3]string{"/commands/tool_move/", "tool move", `<h2 id="synopsis">Synopsis</h2>
<p>Moves the contents of the source directory to the destination directory. To move single files, use the moveto command instead.</p>`}
	q := "move or moveto if I just want report.txt on the remote to be called report-2023.txt?"
	text, used := composeOver(t, q, moveto, move)
	if !strings.HasPrefix(text, "- tool move: Moves the contents") || !strings.Contains(text, "- tool moveto: Move file or directory from source to dest. If source:path") || !strings.Contains(text, "rename files") {
		t.Errorf("got\n%s", text)
	}
	if len(used) != 3 {
		t.Errorf("cites %v, want both of moveto's sections and move's", used)
	}
}
