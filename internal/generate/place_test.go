package generate

import (
	"strings"
	"testing"
)

func TestPlaceAsked(t *testing.T) {
	for q, want := range map[string]bool{
		"where does the tool keep its config file on windows": true,
		"bisync left a lock file, where is it?":               true,
		"where in the repo is the minimum version declared":   true,
		"which folder holds the layouts":                      true,
		"where can I host my site":                            false, // a service, not a place on disk
		"filter pages with where .Pages \"Section\" \"blog\"": false,
		"how do I change the cache size":                      false,
	} {
		if got := placeAsked(strings.ToLower(q)); got != want {
			t.Errorf("placeAsked(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestNamesPlace(t *testing.T) {
	for s, want := range map[string]bool{
		"Cache location: `~/.cache/photos/<album>/`":  true,
		"Open https://example.com/folder/123 to see.": true,
		"`%APPDATA%\\tool\\tool.conf` on Windows":     true,
		"Use `--bwlimit 10M` to cap it.":              false,
		"Set `a / b` in the expression.":              false, // code, but not a path
		"The cache is kept on disk.":                  false,
	} {
		if got := namesPlace(s); got != want {
			t.Errorf("namesPlace(%q) = %v, want %v", s, got, want)
		}
	}
}

// A question asking where something is gets the sentence naming the
// path, leading when it speaks to the question as well as the others,
// and added to the section's opening when it is a bare label line.
func TestComposerWhereNamesThePlace(t *testing.T) {
	lock := [3]string{"/docs/sync/", "Sync", `<h2 id="lock-file">Lock file</h2>
<p>If a sync crashes or hangs, the lock file stays in place and blocks every further run for the same two paths. Delete the lock file while you debug the situation.</p>
<p>While a sync runs, it holds a lock file in its working directory, usually at <code>~/.cache/tool/sync/PATH1..PATH2.lck</code> on Linux.</p>
<p>Lock files expire after a while when you set the <code>--max-lock</code> flag.</p>`}
	text := composeNow(t, "the sync left a lock file after a crash, where is it?", lock)
	if !strings.Contains(text, "~/.cache/tool/sync/PATH1..PATH2.lck") {
		t.Errorf("the lock file's path is missing:\n%s", text)
	}

	cache := [3]string{"/docs/photos/", "Photos", `<h2 id="caching">Caching</h2>
<p>The photos backend caches album listings on disk so that later listings come back fast. The first listing of a large album fetches its pages in parallel, and after that a light check of about two hundred milliseconds decides whether the cached album listing is still valid or must be fetched again.</p>
<p>Cache location: <code>~/.cache/tool/photos/&lt;remote&gt;/</code></p>
<p>To empty it, delete that directory.</p>
<h2 id="mounting">Mounting photos</h2>
<p>For mounting the photos backend with the mount command, these flags are recommended:</p>
<pre><code>tool mount remote: /mnt/photos --photos-service photos --dir-cache-time 1h --read-only</code></pre>`}
	text = composeNow(t, "where does the photos backend keep its cache of album listings", cache)
	if !strings.Contains(text, "~/.cache/tool/photos/<remote>/") {
		t.Errorf("the cache's path is missing:\n%s", text)
	}
}
