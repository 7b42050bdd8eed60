package hugomodule_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	modzip "golang.org/x/mod/zip"

	"github.com/askplane/askplane/internal/sitetest"
	"github.com/askplane/askplane/internal/verify"
)

// releaseVersion is the version the release test publishes the working
// tree's Hugo module at. Its tag in the repository is
// hugo-module/<version>, the Go convention for a module in a subfolder.
const releaseVersion = "v0.1.0"

// TestRelease adopts the Hugo module the way a docs author does, from a
// module proxy rather than a replacement: the working tree's hugo-module/
// is published at releaseVersion into a file-based proxy, and a fresh
// site runs hugo mod init, imports it, hugo mod get through
// HUGO_MODULE_PROXY, builds and verifies. It asserts what the site paid
// for: one module of a few hundred KB at most, no Go requirements, and a
// go.sum of two lines.
func TestRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a site through a module proxy")
	}
	modDir := sitetest.ModuleDir()

	gomod, err := os.ReadFile(filepath.Join(modDir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.Parse("go.mod", gomod, nil)
	if err != nil {
		t.Fatal(err)
	}
	if mf.Module.Mod.Path != sitetest.ModulePath {
		t.Fatalf("hugo-module/go.mod declares %q; sites import %q", mf.Module.Mod.Path, sitetest.ModulePath)
	}
	if len(mf.Require) != 0 || mf.Toolchain != nil {
		t.Errorf("hugo-module/go.mod has %d requirements and toolchain %v; a site would download them all", len(mf.Require), mf.Toolchain)
	}
	// A go line newer than the site's own go would make Hugo's go
	// commands fetch a toolchain; 1.21 is the oldest that knows about
	// toolchains at all.
	if mf.Go == nil {
		t.Error("hugo-module/go.mod has no go line")
	} else if semver.Compare("v"+mf.Go.Version, "v1.21") > 0 {
		t.Errorf("hugo-module/go.mod says go %s; want 1.21 or older", mf.Go.Version)
	}

	proxy := t.TempDir()
	zipSize := publish(t, proxy, modDir)
	if zipSize > 300<<10 {
		t.Errorf("the module zip is %d KB; a site should download a few hundred KB at most", zipSize>>10)
	}

	site := t.TempDir()
	cache := t.TempDir()
	hugo := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(sitetest.Hugo(t), args...)
		cmd.Dir = site
		cmd.Env = append(releaseEnv(proxy), "HUGO_CACHEDIR="+cache)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("hugo %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	hugo("mod", "init", "example.com/docs")
	sitetest.WriteArchive(t, site, sitetest.Layouts+`
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Docs"
[module]
  [[module.imports]]
    path = "`+sitetest.ModulePath+`"
[params.askplane]
  siteId = "docs"
-- content/install.md --
---
title: Install
askplane:
  facts:
    - id: install
      kind: command
      label: Install the site generator
      match: [install hugo]
      answer: Run go install github.com/gohugoio/hugo@latest.
---
Install Hugo first.
`)
	hugo("mod", "get", sitetest.ModulePath+"@"+releaseVersion)
	hugo("--destination", "public", "--logLevel", "warn")

	report, err := verify.Site(os.DirFS(filepath.Join(site, "public")))
	if err != nil {
		t.Fatal(err)
	}
	if !report.OK() {
		t.Fatalf("askplane verify of the released module's build: %+v", report)
	}

	sum, err := os.ReadFile(filepath.Join(site, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(string(sum)), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[0], sitetest.ModulePath+" "+releaseVersion+" ") {
		t.Errorf("the site's go.sum has %d lines; want the module's two:\n%s", len(lines), sum)
	}
	downloaded := downloads(t, cache)
	t.Logf("the site downloaded %v: a %d KB zip; go.sum %d bytes", downloaded, zipSize>>10, len(sum))
	if len(downloaded) != 1 || downloaded[0] != sitetest.ModulePath {
		t.Errorf("hugo mod get downloaded %v; want only %s", downloaded, sitetest.ModulePath)
	}
}

// publish writes modDir into proxy as the module at releaseVersion, in the
// layout GOPROXY=file:// reads (list, .info, .mod, .zip), and returns the
// zip's size.
func publish(t *testing.T, proxy, modDir string) int64 {
	t.Helper()
	v := module.Version{Path: sitetest.ModulePath, Version: releaseVersion}
	escaped, err := module.EscapePath(v.Path)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(proxy, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var zip bytes.Buffer
	if err := modzip.CreateFromDir(&zip, v, modDir); err != nil {
		t.Fatalf("module zip: %v", err)
	}
	gomod, err := os.ReadFile(filepath.Join(modDir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"list":                   []byte(releaseVersion + "\n"),
		releaseVersion + ".info": []byte(`{"Version":"` + releaseVersion + `","Time":"2026-12-01T00:00:00Z"}`),
		releaseVersion + ".mod":  gomod,
		releaseVersion + ".zip":  zip.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return int64(zip.Len())
}

// releaseEnv is the environment of a docs author's machine with no
// network: Hugo reads its proxy from HUGO_MODULE_PROXY (it ignores
// GOPROXY for modules), the checksum database is unreachable and so off,
// and no replacement points at the checkout.
func releaseEnv(proxy string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HUGO_MODULE_REPLACEMENTS", "GOPROXY", "GOFLAGS", "GONOSUMDB", "GOPRIVATE", "GOSUMDB", "GOTOOLCHAIN":
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"HUGO_MODULE_PROXY=file://"+filepath.ToSlash(proxy),
		"GOSUMDB=off",
		"GOFLAGS=-modcacherw",
		// A go line the local go cannot satisfy fails instead of
		// downloading a toolchain.
		"GOTOOLCHAIN=local",
	)
}

// downloads lists the module paths in the module download cache under
// Hugo's cache folder.
func downloads(t *testing.T, cache string) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() || d.Name() != "@v" {
			return nil
		}
		// …/pkg/mod/cache/download/<escaped path>/@v
		rel := filepath.ToSlash(filepath.Dir(p))
		if i := strings.Index(rel, "/cache/download/"); i >= 0 {
			escaped := rel[i+len("/cache/download/"):]
			if path, err := module.UnescapePath(escaped); err == nil {
				paths = append(paths, path)
			}
		}
		return filepath.SkipDir
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}
