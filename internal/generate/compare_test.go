package generate

import (
	"strings"
	"testing"
)

// Two things compared that two sibling sections are each named for are
// answered side by side, each with its section's first sentence the
// other does not share (modes' sections often open alike).
func TestComposerCompareSiblingSections(t *testing.T) {
	page := [3]string{"/commands/tool_mount/", "tool mount", `<h2 id="caching">File caching</h2>
<p>The cache has four modes, selected by <code>--cache-mode</code>, trading disk space for compatibility.</p>
<h3 id="cache-mode-writes">--cache-mode writes</h3>
<p>In this mode tool buffers data on disk.</p><p>Files opened for reading only are read from the remote; files opened for writing are buffered to disk first.</p>
<h3 id="cache-mode-full">--cache-mode full</h3>
<p>In this mode tool buffers data on disk.</p><p>All reads and writes are buffered to and from disk, as sparse files.</p>
<h3 id="cache-mode-off">--cache-mode off</h3>
<p>In this mode tool buffers nothing.</p>`}
	text, _ := composeOver(t, "cache mode writes or full, what's the difference", page)
	want := "- --cache-mode writes: Files opened for reading only are read from the remote; files opened for writing are buffered to disk first.\n- --cache-mode full: All reads and writes are buffered to and from disk, as sparse files."
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant it to start\n%s", text, want)
	}
}
