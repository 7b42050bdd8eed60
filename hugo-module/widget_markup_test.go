package hugomodule_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/askplane/askplane/hugo-module/generate/partials"
	"github.com/askplane/askplane/hugo-module/sitetest"
)

var updateMarkup = flag.Bool("update", false, "rewrite the generated partials in layouts/_partials/askplane/generated and the bundles in assets/askplane/dist")

// TestGeneratedPartialsFresh re-renders the templ components and compares
// the bytes with the committed partials, which are the golden files of the
// shipped markup. Refresh them with go generate ./internal/web, or with
// go test ./hugo-module -run TestGeneratedPartialsFresh -update.
func TestGeneratedPartialsFresh(t *testing.T) {
	files, err := partials.Files()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(sitetest.Root(), filepath.FromSlash(partials.Dir))
	want := map[string]bool{}
	for _, f := range files {
		want[f.Name] = true
		path := filepath.Join(dir, f.Name)
		if *updateMarkup {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s is not committed: run go generate ./internal/web", f.Name)
			continue
		}
		if !bytes.Equal(got, f.Data) {
			t.Errorf("%s is stale: run go generate ./internal/web\n%s", f.Name, firstDiff(got, f.Data))
		}
		if !bytes.HasPrefix(got, []byte(partials.Header)) {
			t.Errorf("%s lacks the generated-file header", f.Name)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !want[e.Name()] {
			t.Errorf("%s/%s is not generated any more: delete it", partials.Dir, e.Name())
		}
	}
}

// firstDiff shows where two byte strings first differ.
func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	clip := func(b []byte) string {
		lo, hi := max(0, i-40), min(len(b), i+40)
		return strings.ReplaceAll(string(b[lo:hi]), "\n", `\n`)
	}
	return "at byte " + strconv.Itoa(i) + ":\n  committed: …" + clip(got) + "…\n  rendered:  …" + clip(want) + "…"
}
