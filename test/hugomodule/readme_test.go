package hugomodule_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
	"github.com/askplane/askplane/internal/verify"
)

// TestReadmeQuickstart follows the README's "Add askplane to your Hugo
// site" steps as written (its hugo.toml, its fact, a base template calling
// the partial) and checks that askplane verify prints the line the README
// shows, so the sample cannot drift from the command.
func TestReadmeQuickstart(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(sitetest.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "## Add askplane to your Hugo site")
	if start < 0 {
		t.Fatal("README has no \"Add askplane to your Hugo site\" section")
	}
	steps := text[start:]
	block := func(lang string) string {
		t.Helper()
		m := regexp.MustCompile("(?s)\n   ```" + lang + "\n(.*?)\n   ```").FindStringSubmatch(steps)
		if m == nil {
			t.Fatalf("README's steps have no %s block", lang)
		}
		return regexp.MustCompile("(?m)^   ").ReplaceAllString(m[1], "")
	}
	config, fact, shell := block("toml"), block("yaml"), block("sh")
	want := ""
	for _, line := range strings.Split(shell, "\n") {
		if s, ok := strings.CutPrefix(line, "# askplane: "); ok {
			want = "askplane: " + s
		}
	}
	if want == "" {
		t.Fatalf("README's verify step shows no output:\n%s", shell)
	}

	b := sitetest.Build(t, sitetest.Layouts+`
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Docs"
`+config+`
-- config/_default/module.toml --
-- content/install.md --
`+fact+"\n")
	report, err := verify.Site(os.DirFS(b.Public))
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Languages) != 1 || len(report.Problems) != 0 {
		t.Fatalf("verify: %+v", report)
	}
	if got := report.Languages[0].Summary(); got != want {
		t.Errorf("askplane verify prints\n\t%s\nthe README shows\n\t%s", got, want)
	}
}
