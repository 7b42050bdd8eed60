package web_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTemplGeneratedFresh regenerates every .templ file in a temporary
// folder with the pinned templ (the tool line in go.mod) and compares the
// result with the committed _templ.go: templ's CI check (generate, then
// git diff --exit-code) as a test. Fix a failure with
// go generate ./internal/web.
func TestTemplGeneratedFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go tool templ")
	}
	sources, err := filepath.Glob("*.templ")
	if err != nil || len(sources) == 0 {
		t.Fatalf("no .templ files: %v", err)
	}
	tmp := t.TempDir()
	for _, src := range sources {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, src), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "tool", "templ", "generate", "-path", tmp)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("templ generate: %v\n%s", err, out)
	}
	for _, src := range sources {
		gen := strings.TrimSuffix(src, ".templ") + "_templ.go"
		want, err := os.ReadFile(filepath.Join(tmp, gen))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(gen)
		if err != nil {
			t.Errorf("%s is not committed: run go generate ./internal/web", gen)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./internal/web", gen)
		}
	}
	// No generated file without its source.
	generated, _ := filepath.Glob("*_templ.go")
	for _, gen := range generated {
		if _, err := os.Stat(strings.TrimSuffix(gen, "_templ.go") + ".templ"); err != nil {
			t.Errorf("%s has no .templ source", gen)
		}
	}
}
