package generate

import (
	"strings"
	"testing"
)

var aboutPage = [3]string{"/commands/rclone_about/", "rclone about", `<h2 id="synopsis">Synopsis</h2>
<p>Prints quota information about a remote to standard output. The output is typically used, free, quota and trash contents.</p>
<p>E.g. Typical output from <code>rclone about remote:</code> is:</p>
<pre><code>Total:   17 GiB
Used:    7.444 GiB
Trashed: 100.000 MiB
Other:   8.241 GiB</code></pre>
<p>Where the fields are:</p>
<ul><li>Total: Total size available.</li><li>Used: Total size used.</li><li>Free: Total space available to this user.</li>
<li>Trashed: Total space used by trash.</li><li>Other: Total amount in other storage (e.g. Gmail, Google Photos).</li>
<li>Objects: Total number of objects in the storage.</li></ul>`}

// A question naming two entries of a list, one after the other, gets
// those entries after the sentence introducing the list: not the sample
// output, nor one entry alone.
func TestComposerNamedListItems(t *testing.T) {
	text, _ := composeOver(t, "rclone about output: what are Trashed and Other?", aboutPage)
	want := "Where the fields are:\n\n- Trashed: Total space used by trash.\n- Other: Total amount in other storage (e.g. Gmail, Google Photos)."
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant it to open with\n%s", text, want)
	}
	// The entries asked about are the last run the question names: "s and
	// !" after the prompt it quotes.
	page := [3]string{"/docs/", "Documentation", `<h3 id="interactive">--interactive / -i</h3>
<p>This flag can be used to tell rclone that you wish a manual confirmation before destructive operations.</p>
<ul><li><code>y</code>: Yes, this operation should go ahead.</li><li><code>n</code>: No, do not do this operation.</li>
<li><code>s</code>: Skip all the following operations of this type with no more questions.</li>
<li><code>!</code>: Do all the following operations with no more questions.</li><li><code>q</code>: Quit rclone now, just in case!</li></ul>`}
	text, _ = composeOver(t, "rclone -i asks y/n/s/!/q, what do s and ! mean", page)
	if !strings.Contains(text, "- `s`: Skip all the following operations of this type with no more questions.\n- `!`: Do all") || strings.Contains(text, "`q`") || strings.Contains(text, "`y`") {
		t.Errorf("got\n%s", text)
	}
}

// Entries the question sets aside are no entries asked about.
func TestComposerNamedListItemsNot(t *testing.T) {
	q := "rclone about: what is in the output if it isn't Trashed or Other"
	if text, _ := composeOver(t, q, aboutPage); strings.HasPrefix(text, "Where the fields are:\n\n- Trashed") {
		t.Errorf("%q: got\n%s", q, text)
	}
}

// Naming every entry of a list asks about the list (which of them to
// use), not about some of its entries.
func TestItemsNamed(t *testing.T) {
	list := "- Total: Total size available.\n- Used: Total size used.\n- Trashed: Total space used by trash."
	for q, want := range map[string]int{
		"what are trashed and used":                    2,
		"total, used or trashed, which should i watch": 0,
		"what is trashed":                              0,
		"which is used by trash, what does total say":  0,
	} {
		c := &composer{plain: plain(q)}
		if got := c.itemsNamed(list); len(got) != want {
			t.Errorf("%q: %q, want %d entries", q, got, want)
		}
	}
}
