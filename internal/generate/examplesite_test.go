package generate

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/sitetest"
)

// Questions no fact covers, asked of askplane's own docs, get an answer
// from the page that explains them.
func TestExampleSite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example site with Hugo")
	}
	b, err := sitetest.BuildDir(t, filepath.Join(sitetest.Root(), "exampleSite"))
	if err != nil {
		t.Fatalf("hugo: %v\n%s", err, b.Output)
	}
	c, err := corpus.LoadDir(os.DirFS(b.Public), "en")
	if err != nil {
		t.Fatal(err)
	}
	// The sidecar's default engine, which a reader's question meets.
	ix := engines.Current().Index(c)
	for _, tc := range []struct{ q, want string }{
		{"How long should browsers cache the artifact?", "Cache-Control"},
		{"What happens when the artifact has expired?", "expire"},
	} {
		pkg := ix.Search(tc.q, evidence.Budget{})
		res, err := Run(context.Background(), Extractive{}, Question{Text: tc.q}, &pkg, nil)
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		t.Logf("%q → %q cites %v", tc.q, res.Text, res.Used)
		if !strings.Contains(strings.ToLower(res.Text), strings.ToLower(tc.want)) {
			t.Errorf("%q: answer %q lacks %q", tc.q, res.Text, tc.want)
		}
	}

	// Answers a reader would keep: the command or configuration in a
	// fence with its language, from the page that explains it, cited
	// first (that page, or a section of it), and the sections used all
	// cited.
	for _, tc := range []struct {
		q, fence, cite string
		alsoCited      []string
	}{
		{"How do I add askplane to my Hugo site?",
			"```toml\n# hugo.toml\n[module]\n  [[module.imports]]\n    path = \"github.com/askplane/askplane/hugo-module\"\n```",
			"/getting-started/quickstart/", []string{"/getting-started/quickstart/#import-the-module"}},
		{"How do I serve the widget from another origin?",
			"```text\nconnect-src 'self' https://ask.example.com\n```",
			"/widget/csp/", []string{"/widget/csp/#connect-src", "/sidecar/configuration/#authentication-and-hints"}},
	} {
		pkg := ix.Search(tc.q, evidence.Budget{})
		res, err := Run(context.Background(), Extractive{}, Question{Text: tc.q}, &pkg, nil)
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		var cites []string
		for _, id := range res.Used {
			for _, r := range pkg.Records {
				if r.ID == id {
					cites = append(cites, r.Href())
				}
			}
		}
		t.Logf("%q →\n%s\ncites %v", tc.q, res.Text, cites)
		if !strings.Contains(res.Text, tc.fence) {
			t.Errorf("%q: the answer lacks\n%s", tc.q, tc.fence)
		}
		if len(cites) == 0 || cites[0] != tc.cite && !strings.HasPrefix(cites[0], tc.cite+"#") {
			t.Errorf("%q: cites %v, want %s first", tc.q, cites, tc.cite)
		}
		for _, c := range tc.alsoCited {
			if !slices.Contains(cites, c) {
				t.Errorf("%q: cites %v, not %s", tc.q, cites, c)
			}
		}
		if strings.Contains(res.Text, "---") || strings.Count(res.Text, "{{") != strings.Count(res.Text, "}}") || strings.Count(res.Text, "```")%2 != 0 {
			t.Errorf("%q: front matter, a cut template tag or an open fence", tc.q)
		}
	}
}
