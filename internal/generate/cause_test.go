package generate

import (
	"strings"
	"testing"
)

// A why answered by the paragraph describing the symptom goes on with
// the paragraph after it that gives the cause.
func TestComposerWhyGoesOnToTheCause(t *testing.T) {
	page := [3]string{"/docs/drive/", "Drive", `<h2 id="limits">Limits of shared documents</h2>
<p>Shared documents show a size of -1 in <code>tool ls</code> and in <code>tool tree</code>, and a size of 0 in anything that goes through the file cache layer. Directory totals count them as empty files.</p>
<p>This is because the tool cannot learn the size of a shared document without downloading it first.</p>
<p>Shared documents still copy correctly, as the tool ignores their size during a transfer.</p>`}
	text := composeNow(t, "why do shared documents show size -1 in tool ls", page)
	if !strings.Contains(text, "This is because the tool cannot learn the size") {
		t.Errorf("the cause is missing:\n%s", text)
	}
}

func TestCausal(t *testing.T) {
	for s, want := range map[string]bool{
		"This is because the size is unknown.":  true,
		"The reason is that the API is slow.":   true,
		"This allows the site to build faster.": false,
		"Because of this, builds are slower.":   false,
		"Because the cache is cold, it waits.":  true,
	} {
		if got := causal(s); got != want {
			t.Errorf("causal(%q) = %v, want %v", s, got, want)
		}
	}
}

// A why answered by the paragraph describing what happens goes on, while
// the answer is short, with the paragraph after it that says how to
// avoid it.
func TestComposerWhyGoesOnToTheRemedy(t *testing.T) {
	page := [3]string{"/putio/", "put.io", `<h2 id="limitations">Limitations</h2>
<p>put.io has rate limiting. When you hit a limit, the tool automatically retries after waiting the amount of time requested by the server.</p>
<p>If you want to avoid ever hitting these limits, you may use the <code>--tpslimit</code> flag with a low number. Note that the imposed limits may be different for different operations.</p>`}
	text := composeNow(t, "why does the tool keep pausing against put.io? looks like it's waiting on the server a lot", page)
	if !strings.Contains(text, "put.io has rate limiting.") || !strings.Contains(text, "you may use the `--tpslimit` flag") {
		t.Errorf("got\n%s", text)
	}
}

func TestRemedy(t *testing.T) {
	for s, want := range map[string]bool{
		"If you want to avoid ever hitting these limits, use --tpslimit.": true,
		"To work around this, set the flag.":                              true,
		"The fix is to upgrade.":                                          true,
		"To list the files, run ls.":                                      false,
		"This is because the size is unknown.":                            false,
	} {
		if got := remedy(s); got != want {
			t.Errorf("remedy(%q) = %v, want %v", s, got, want)
		}
	}
}
