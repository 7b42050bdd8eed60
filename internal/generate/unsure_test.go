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

// A name the question gives that no record holds ("Vercel") is one the
// docs do not cover: the answer says so and lists the closest sections,
// rather than presenting the nearest passage about deploying.
func TestUnsureOfUnnamed(t *testing.T) {
	deploy := [3]string{"/docs/deployment/", "Deployment", `<p>Deployed sites with production builds can be indexed by search engines.</p>
<h2 id="netlify">Netlify</h2><p>Deploy your site to Netlify from your repository.</p>`}
	text := composeNow(t, "how do I deploy docsy to Vercel", deploy)
	if !strings.HasPrefix(text, "I found nothing about Vercel in these docs; the closest sections are:\n- Deployment") {
		t.Errorf("got\n%s", text)
	}
	text = composeNow(t, "how do I deploy to Netlify", deploy)
	if strings.HasPrefix(text, "I found nothing") {
		t.Errorf("a name the docs hold: %s", text)
	}
	text = composeNow(t, "which deployment option do you recommend if I’m new to Netlify", deploy)
	if strings.HasPrefix(text, "I found nothing about I") {
		t.Errorf("a pronoun taken for a name: %s", text)
	}
}

// The product a question names in passing ("after Docsy 0.15") is not a
// name the docs must hold: only one the task is taken to ("to Vercel")
// makes the answer say the docs do not cover it.
func TestUnnamedOnlyWhereTheTaskGoes(t *testing.T) {
	links := [3]string{"/blog/0.15/", "Release 0.15.0 upgrade guide", `<h2 id="actions">Actions</h2>
<p>Applies if your multilingual site configures community or footer links with site-local paths.</p>`}
	text := composeNow(t, "params.links.user paths on a multilingual site after Docsy 0.15", links)
	if strings.HasPrefix(text, "I found nothing") {
		t.Errorf("got\n%s", text)
	}
}
