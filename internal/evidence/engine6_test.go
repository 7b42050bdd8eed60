package evidence

import "testing"

// The everyday words for files and what commands do with them find the
// words a reference page uses: "skip a folder" finds the page that
// excludes a directory, "pipe" the command reading standard input;
// bm25/5 leads with a page that only shares the typed words.
func TestEngine6FileWords(t *testing.T) {
	// Each pair shares the typed words, so bm25/5 ties them and keeps
	// the shorter first; the page that also says what the docs call the
	// thing wins with bm25/6.
	skip := v3Pages(t, "en",
		[3]string{"/sync/", "Sync", `<p>Sync may skip a folder.</p>`},
		[3]string{"/filtering/", "Filtering", `<p>Sync may skip a folder: exclude the directory with <code>--exclude</code>.</p>`})
	pipe := v3Pages(t, "en",
		[3]string{"/commands/rclone_cat/", "Cat", `<p>Pipe a program's output.</p>`},
		[3]string{"/commands/rclone_rcat/", "Rcat", `<p>Pipe a program's output to a remote: it reads stdin.</p>`})
	checkLeads(t, NewIndex5, NewIndex6, EngineID6, []leadCase{
		{skip, "skip a folder", "/sync/", "/filtering/", "exclude"},
		{pipe, "pipe the output of a program", "/commands/rclone_cat/", "/commands/rclone_rcat/", "stdin"},
	})
}

// Where a question has none of the words bm25/6 added, its package is
// bm25/5's record for record: bm25/6 is bm25/5 with more synonyms, and
// nothing else.
func TestEngine6IsEngine5ButTheTable(t *testing.T) {
	c := themedV3(t)
	checkSamePackages(t, NewIndex5(c), NewIndex6(c), EngineID6, "turn off the search box", "how do I set up the module", "front matter keys", "build the site")
}

// bm25/6's table holds bm25/5's whole, and no two of its keys share a
// stem.
func TestSynonymTable6(t *testing.T) { checkSynonymTable(t, synonymTable6, synonymTable5) }

// A question asking what a page's subject is ("what is rclone bisync",
// "what does rclone obscure do?") is answered by that page's opening,
// put first above whatever BM25 ranked first (a longer section elsewhere
// that repeats the name). Titles that open with the product's name (most
// of the site's do) are found without it too ("what is bisync"), and a
// home page, titled with the site's name, is never the page asked about.
func TestEngine6DefinedPage(t *testing.T) {
	pages := [][3]string{
		{"/", "rclone", `<p>rclone syncs your files to cloud storage.</p>`},
		{"/bisync/", "Guide", `<p>Guide.</p><h2 id="errors">Error handling</h2><p>When bisync fails, bisync stops; rerun bisync with --resync after a bisync error.</p>`},
		{"/commands/rclone_bisync/", "rclone bisync", `<p>Perform bidirectional synchronization between two paths.</p>`},
		{"/commands/rclone_copy/", "rclone copy", `<p>Copy files from source to dest.</p>`},
		{"/commands/rclone_sync/", "rclone sync", `<p>Make source and dest identical.</p>`},
		{"/commands/rclone_move/", "rclone move", `<p>Move files from source to dest.</p>`},
		{"/commands/rclone_ls/", "rclone ls", `<p>List the objects in the path.</p>`},
	}
	ix := NewIndex6(v3Pages(t, "en", pages...))
	opening := int32(3) // the command page's only record, after the guide's two
	for q, want := range map[string]int32{
		"what is rclone bisync":        opening,
		"What is bisync?":              opening,
		"what does rclone bisync do":   opening,
		"what is rclone bisync for":    opening,
		"what is rclone":               -1, // the home page
		"how do I run rclone bisync":   -1, // no definition asked
		"what is the bisync error for": -1,
	} {
		if got := ix.definedPage(q); got != want {
			t.Errorf("definedPage(%q) = %d, want %d", q, got, want)
		}
	}
	// Ranked below the error section, the opening is put first, with the
	// question terms it holds as its reasons.
	q := "what is rclone bisync"
	parsed := ix.parse(q)
	ix.expand(&parsed, q)
	ranked := []hit2{{rec: 2, score: 3_000_000, mask: 1}, {rec: 4, score: 1_000_000, mask: 1}}
	got := ix.pinDefined(q, &parsed, ranked, 2)
	if len(got) != 2 || got[0].rec != opening || got[0].score <= 3_000_000 || got[0].mask == 0 || got[1].rec != 2 {
		t.Errorf("pinDefined: %+v", got)
	}
}
