package generate

import (
	"strings"
	"testing"
)

func TestKindless(t *testing.T) {
	for name, want := range map[string]string{
		"chunker backend": "chunker",
		"alias remote":    "alias",
		"ref shortcode":   "ref",
		"front matter":    "front matter",
		"backend":         "backend",
	} {
		if got := kindless(name); got != want {
			t.Errorf("kindless(%q) = %q, want %q", name, got, want)
		}
	}
}

// "What is the sharder backend" is answered by the opening of the page
// titled "Sharder", not by a caveat of one of its sections that names
// the sharder and a backend, nor by a sentence about backends in general.
func TestComposerDefinesByTitleWithoutKind(t *testing.T) {
	page := [3]string{"/sharder/", "Sharder", `<p>The <code>sharder</code> overlay splits large files into smaller parts on upload to the wrapped remote and joins them again on download, so that size limits of a storage provider no longer apply.</p>
<h2 id="hashes">Hashes</h2>
<p>Many storage backends support MD5 and SHA1 hashes, and so does the sharder backend when its metadata is kept.</p>
<h2 id="parts">Parts</h2>
<p>When an upload starts, the sharder checks the size of the file and passes a small file to the wrapped backend as it is.</p>
<p>Caveat: the sharder backend always writes a temporary file in the backend and renames it afterwards, even below the part size, which costs API calls on some backends.</p>`}
	text := composeNow(t, "what is the sharder backend", page)
	if !strings.HasPrefix(text, "The `sharder` overlay splits large files") {
		t.Errorf("not defined by its page's opening:\n%s", text)
	}
}

func TestTitles(t *testing.T) {
	for _, c := range []struct {
		h, titled string
		want      bool
	}{
		{"chunker", "chunker backend", true},
		{"crypt", "rclone crypt remote", true},
		{"crypt", "rclone crypt", true},
		{"front matter", "front matter", true},
		{"remote", "rclone crypt remote", false}, // the kind is not the thing
		{"page bundles", "rclone page bundles", false},
		{"crypt", "", false},
	} {
		if got := titles(c.h, c.titled); got != c.want {
			t.Errorf("titles(%q, %q) = %v, want %v", c.h, c.titled, got, c.want)
		}
	}
}

// "What is the tool sealer remote and what does it use" asks what the
// page titled "Sealer" is: its opening answers, not a section's sentence
// that names the tool, a sealer remote and using it.
func TestComposerDefinesByTitleAfterProductName(t *testing.T) {
	page := [3]string{"/sealer/", "Sealer", `<p>Tool <code>sealer</code> remotes seal and unseal the files of other remotes.</p>
<p>A sealer remote wraps another remote, which in turn reaches the storage system.</p>
<h2 id="paths">Specifying the remote</h2>
<p>You may also point it at a local path. By creating a sealer remote on a local path, you can use the tool as a utility for pure local sealing on a removable drive.</p>`}
	text := composeNow(t, "what is the tool sealer remote and what does it use", page)
	if !strings.HasPrefix(text, "Tool `sealer` remotes seal and unseal") {
		t.Errorf("not defined by its page's opening:\n%s", text)
	}
}
