package hugomodule_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/modulegen/bundle"
	"github.com/askplane/askplane/internal/modulegen/partials"
	"github.com/askplane/askplane/internal/sitetest"
)

var updateMarkup = flag.Bool("update", false, "rewrite the generated partials in layouts/_partials/askplane/generated and the bundles in assets/askplane/dist")

// TestGeneratedPartialsFresh re-renders the templ components and compares
// the bytes with the committed partials, which are the golden files of the
// shipped markup. Refresh them with go generate ./internal/web, or with
// go test ./test/hugomodule -run TestGeneratedPartialsFresh -update.
func TestGeneratedPartialsFresh(t *testing.T) {
	files, err := partials.Files()
	if err != nil {
		t.Fatal(err)
	}
	var gen []generated
	for _, f := range files {
		gen = append(gen, generated{f.Name, f.Data})
	}
	checkGenerated(t, partials.Dir, partials.Header, gen)
}

// TestGeneratedBundlesFresh re-bundles the widget's JavaScript
// (assets/askplane/js) with esbuild and compares the bytes with the
// committed bundles in assets/askplane/dist, which Hugo only fingerprints.
// Refresh them with go generate ./internal/web, or with
// go test ./test/hugomodule -run TestGeneratedBundlesFresh -update.
func TestGeneratedBundlesFresh(t *testing.T) {
	files, err := bundle.Files(sitetest.Root())
	if err != nil {
		t.Fatal(err)
	}
	var gen []generated
	for _, f := range files {
		gen = append(gen, generated{f.Name, f.Data})
	}
	checkGenerated(t, bundle.Dir, bundle.Header, gen)
}

// generated is one file a generator writes into its folder.
type generated struct {
	name string
	data []byte
}

// checkGenerated compares what a generator writes with the committed
// files in dir (a slash path from the module root): each must be there,
// byte for byte, with the generated-file header, and nothing else may be.
// With -update it writes them instead.
func checkGenerated(t *testing.T, dir, header string, files []generated) {
	t.Helper()
	abs := filepath.Join(sitetest.Root(), filepath.FromSlash(dir))
	want := map[string]bool{}
	for _, f := range files {
		want[f.name] = true
		path := filepath.Join(abs, f.name)
		if *updateMarkup {
			if err := os.MkdirAll(abs, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, f.data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s/%s is not committed: run go generate ./internal/web", dir, f.name)
			continue
		}
		if !bytes.Equal(got, f.data) {
			t.Errorf("%s/%s is stale: run go generate ./internal/web\n%s", dir, f.name, firstDiff(got, f.data))
		}
		if !bytes.HasPrefix(got, []byte(header)) {
			t.Errorf("%s/%s lacks the generated-file header", dir, f.name)
		}
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !want[e.Name()] {
			t.Errorf("%s/%s is not generated any more: delete it", dir, e.Name())
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
