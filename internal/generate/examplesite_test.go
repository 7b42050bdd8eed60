package generate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askplane/askplane/hugo-module/sitetest"
	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/evidence"
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
	ix := evidence.NewIndex(c)
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
}
