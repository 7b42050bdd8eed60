package hugomodule_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/askplane/askplane/hugo-module/generate/bundle"
	"github.com/askplane/askplane/hugo-module/sitetest"
)

// TestGeneratedBundlesFresh re-bundles the widget's JavaScript
// (assets/askplane/js) with esbuild and compares the bytes with the
// committed bundles in assets/askplane/dist, which Hugo only fingerprints.
// Refresh them with go generate ./internal/web, or with
// go test ./hugo-module -run TestGeneratedBundlesFresh -update.
func TestGeneratedBundlesFresh(t *testing.T) {
	files, err := bundle.Files(sitetest.Root())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(sitetest.Root(), filepath.FromSlash(bundle.Dir))
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
			t.Errorf("%s/%s is not committed: run go generate ./internal/web", bundle.Dir, f.Name)
			continue
		}
		if !bytes.Equal(got, f.Data) {
			t.Errorf("%s/%s is stale: run go generate ./internal/web\n%s", bundle.Dir, f.Name, firstDiff(got, f.Data))
		}
		if !bytes.HasPrefix(got, []byte(bundle.Header)) {
			t.Errorf("%s/%s lacks the generated-file header", bundle.Dir, f.Name)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !want[e.Name()] {
			t.Errorf("%s/%s is not generated any more: delete it", bundle.Dir, e.Name())
		}
	}
}
