package generate

import (
	"context"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/evidence"
)

// An answer that lists the closest sections says so with Result.Unsure,
// a typed signal; a direct answer does not.
func TestComposerUnsureIsTyped(t *testing.T) {
	page := [3]string{"/docs/deploy/", "Deploy", `<p>To deploy the site, run hugo deploy with a target.</p>
<pre><code class="language-sh">hugo deploy --target production</code></pre>`}
	for _, tc := range []struct {
		q      string
		unsure bool
	}{
		{"how do I deploy the site", false},
		{"how do I bake sourdough bread with the site?", true},
	} {
		pkg := v3(t, page).Search(tc.q, evidence.Budget{})
		res, err := Run(context.Background(), Composer{}, Question{Text: tc.q}, &pkg, nil)
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		if res.Unsure != tc.unsure {
			t.Errorf("%q: Unsure %v, want %v:\n%s", tc.q, res.Unsure, tc.unsure, res.Text)
		}
		if got := strings.HasPrefix(res.Text, "I found no passage"); got != tc.unsure {
			t.Errorf("%q: text and signal disagree:\n%s", tc.q, res.Text)
		}
	}
}
