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
