// Package sitetest builds small Hugo sites with the pinned Hugo and the
// askplane module from this checkout, for integration tests. A site is a
// txtar archive, as in Hugo's own integration tests: every file of the site
// in one string that reads top to bottom.
//
//	b := sitetest.Build(t, sitetest.Layouts+`
//	-- hugo.toml --
//	title = "Docs"
//	-- content/p.md --
//	…`)
//	b.AssertFileContent("askplane/en/site.json", `"siteId":"docs"`)
package sitetest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/txtar"
)

// Layouts is a minimal base template that calls the askplane partial, for
// sites that do not test their own layouts.
const Layouts = `
-- layouts/baseof.html --
<!doctype html><html><body>{{ block "main" . }}{{ end }}{{ partial "askplane/widget.html" . }}</body></html>
-- layouts/home.html --
{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}
-- layouts/section.html --
{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}
-- layouts/page.html --
{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}
`

// moduleConfig imports the module; HUGO_MODULE_REPLACEMENTS points the
// import at this checkout, as a user's go.mod replace would.
const moduleConfig = `[[imports]]
path = "` + ModulePath + `"
`

// ModulePath is the Hugo module's path, the one sites import.
const ModulePath = "github.com/askplane/askplane/hugo-module"

// Root returns the repository root (the Go module's directory, where
// go tool hugo resolves the pinned Hugo).
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// ModuleDir returns the Hugo module's folder in this checkout.
func ModuleDir() string { return filepath.Join(Root(), "hugo-module") }

// Replacement is the HUGO_MODULE_REPLACEMENTS entry that points a site's
// import of the Hugo module at this checkout.
func Replacement() string { return ModulePath + " -> " + ModuleDir() }

var hugoPath = sync.OnceValues(func() (string, error) {
	cmd := exec.Command("go", "tool", "-n", "hugo")
	cmd.Dir = Root()
	out, err := cmd.Output()
	if err != nil {
		return "", errors.New("sitetest: go tool -n hugo: " + err.Error())
	}
	return strings.TrimSpace(string(out)), nil
})

// Hugo returns the path of the pinned Hugo binary (the tool line in go.mod),
// building it on first use.
func Hugo(t testing.TB) string {
	t.Helper()
	p, err := hugoPath()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Builder is one built site.
type Builder struct {
	t      testing.TB
	Dir    string // the site's source folder
	Public string // its publish folder
	Output string // what hugo printed
}

// Build writes the archive to a temporary folder, builds it and fails the
// test if the build fails.
func Build(t testing.TB, archive string) *Builder {
	t.Helper()
	b, err := BuildE(t, archive)
	if err != nil {
		t.Fatalf("hugo failed: %v\n%s", err, b.Output)
	}
	return b
}

// BuildE is Build returning the build error, with Hugo's output in
// Builder.Output, so tests can assert on error codes.
func BuildE(t testing.TB, archive string) (*Builder, error) {
	t.Helper()
	dir := t.TempDir()
	WriteArchive(t, dir, archive)
	if _, err := os.Stat(filepath.Join(dir, "config", "_default", "module.toml")); errors.Is(err, os.ErrNotExist) {
		writeFile(t, filepath.Join(dir, "config", "_default", "module.toml"), []byte(moduleConfig))
	}
	return BuildDir(t, dir)
}

// BuildDir builds an existing site folder into a fresh publish folder.
func BuildDir(t testing.TB, dir string, args ...string) (*Builder, error) {
	t.Helper()
	b := &Builder{t: t, Dir: dir, Public: filepath.Join(t.TempDir(), "public")}
	cmd := exec.Command(Hugo(t), append([]string{"--source", dir, "--destination", b.Public, "--cacheDir", filepath.Join(t.TempDir(), "cache"), "--logLevel", "warn"}, args...)...)
	cmd.Env = append(os.Environ(), "HUGO_MODULE_REPLACEMENTS="+Replacement())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	b.Output = out.String()
	return b, err
}

// WriteArchive writes every file of a txtar archive under dir.
func WriteArchive(t testing.TB, dir, archive string) {
	t.Helper()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data)
	}
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ReadFile returns a published file.
func (b *Builder) ReadFile(path string) []byte {
	b.t.Helper()
	data, err := os.ReadFile(filepath.Join(b.Public, filepath.FromSlash(path)))
	if err != nil {
		b.t.Fatalf("published file: %v", err)
	}
	return data
}

// AssertFileContent checks a published file line by line in Hugo's
// vocabulary: each line must be a substring of the file, a line starting
// with "! " must not be, and lines starting with "#" are comments.
func (b *Builder) AssertFileContent(path string, lines ...string) {
	b.t.Helper()
	content := string(b.ReadFile(path))
	for _, block := range lines {
		for _, line := range strings.Split(block, "\n") {
			line = strings.TrimSpace(line)
			switch {
			case line == "" || strings.HasPrefix(line, "#"):
			case strings.HasPrefix(line, "! "):
				if strings.Contains(content, line[2:]) {
					b.t.Errorf("%s contains %q", path, line[2:])
				}
			default:
				if !strings.Contains(content, line) {
					b.t.Errorf("%s lacks %q", path, line)
				}
			}
		}
	}
}

// AssertFileExists checks that a file was published.
func (b *Builder) AssertFileExists(path string) {
	b.t.Helper()
	if _, err := os.Stat(filepath.Join(b.Public, filepath.FromSlash(path))); err != nil {
		b.t.Errorf("not published: %s", path)
	}
}
