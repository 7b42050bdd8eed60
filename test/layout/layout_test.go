package layout_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
)

// packageRoots are the folders whose every Go package the layout table
// must name, itself or through a listed folder above it (a subpackage
// such as internal/provider/openai is covered by internal/provider).
// The roots themselves cover nothing.
var packageRoots = []string{"internal", "sidecar/cmd", "tools", "tools/cmd"}

// layoutPaths returns the paths named in the first column of the table
// under ARCHITECTURE.md's "## Layout" heading, as written (a trailing /
// dropped).
func layoutPaths(t *testing.T, root string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "\n## Layout\n")
	if start < 0 {
		t.Fatal(`ARCHITECTURE.md has no "## Layout" section`)
	}
	code := regexp.MustCompile("`([^`]+)`")
	var paths []string
	rows := 0
	inTable := false
	for _, line := range strings.Split(text[start+1:], "\n")[1:] {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		first := strings.TrimSpace(cells[1])
		if first == "path" || strings.Trim(first, "-: ") == "" {
			continue // the header and its rule
		}
		rows++
		for _, m := range code.FindAllStringSubmatch(first, -1) {
			paths = append(paths, strings.TrimSuffix(m[1], "/"))
		}
	}
	if rows == 0 {
		t.Fatal("ARCHITECTURE.md's layout table has no rows")
	}
	return paths
}

// goPackages returns every folder under the package roots holding a Go
// file, slash-separated from the checkout.
func goPackages(t *testing.T, root string) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, top := range []string{"internal", "sidecar/cmd", "tools"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".go") {
				rel, _ := filepath.Rel(root, filepath.Dir(path))
				seen[filepath.ToSlash(rel)] = true
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// TestLayoutTableMatchesTree fails when a Go package folder under
// internal/, sidecar/cmd/ or tools/ is missing from ARCHITECTURE.md's
// layout table, or when the table names a path that does not exist.
func TestLayoutTableMatchesTree(t *testing.T) {
	root := sitetest.Root()
	listed := layoutPaths(t, root)
	for _, p := range listed {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			t.Errorf("ARCHITECTURE.md's layout table names %s, which does not exist", p)
		}
	}
	for _, pkg := range goPackages(t, root) {
		covered := false
		for dir := pkg; !covered && dir != "." && !slices.Contains(packageRoots, dir); dir = filepath.ToSlash(filepath.Dir(dir)) {
			covered = slices.Contains(listed, dir)
		}
		if !covered {
			t.Errorf("ARCHITECTURE.md's layout table does not name %s (or a folder above it)", pkg)
		}
	}
}

// importRules are the import edges the layout table promises never to
// see in non-test code: from (a folder, and everything under it) must not
// import a package under forbidden.
var importRules = []struct{ from, forbidden, why string }{
	// The benchmarks and load tools live in tools/ so that nothing the
	// server builds depends on them.
	{"internal", "tools", "server code must not depend on tools/"},
	{"sidecar", "tools", "server code must not depend on tools/"},
	{"test", "tools", "tests of the server do not need tools/"},
	// Generators know nothing of durable runs (a model's Identity is
	// assignable to durable.Snapshot without the import).
	{"internal/generate", "internal/durable", "generators must not depend on durable runs"},
	// The live endpoint knows durable answers only as ask.Durable, an
	// interface internal/askrun implements: askrun imports ask, never
	// the other way round, and ask needs nothing of the run machinery.
	{"internal/ask", "internal/askrun", "internal/ask knows durable answers only as ask.Durable"},
	{"internal/ask", "internal/durable", "the live endpoint does not depend on durable runs"},
	// Refusals are one level below every route that writes them.
	{"internal/apierr", "internal/ask", "apierr is below the routes that use it"},
	{"internal/apierr", "internal/askrun", "apierr is below the routes that use it"},
	{"internal/apierr", "internal/sidecar", "apierr is below the routes that use it"},
	// The answer contract is below both endpoints.
	{"internal/grounding", "internal/ask", "grounding is below the endpoints"},
	{"internal/grounding", "internal/askrun", "grounding is below the endpoints"},
	// Access rules know nothing of the endpoints they guard.
	{"internal/access", "internal/ask", "access is below the routes it guards"},
	{"internal/access", "internal/askrun", "access is below the routes it guards"},
	{"internal/access", "internal/sidecar", "access is below the routes it guards"},
	// The metrics sink names no observation and knows no emitter.
	{"internal/metrics", "internal/ask", "the metrics sink is below its emitters"},
	{"internal/metrics", "internal/askrun", "the metrics sink is below its emitters"},
	{"internal/metrics", "internal/sidecar", "the metrics sink is below its emitters"},
	// askplane dev's loop is the command's; the server never runs it.
	{"internal", "internal/devloop", "only sidecar/cmd/askplane runs the dev loop"},
	// A built site faked without Hugo is for tests only.
	{"internal", "internal/fakesite", "fakesite is for tests; no server code imports it"},
	{"sidecar", "internal/fakesite", "fakesite is for tests; no server code imports it"},
	// The one rule for outbound base URLs stands on the standard library
	// alone, so every package that reaches out may import it.
	{"internal/baseurl", "internal", "baseurl imports nothing of askplane's"},
}

// TestImportRules checks importRules on every non-test Go file.
func TestImportRules(t *testing.T) {
	root := sitetest.Root()
	const module = "github.com/askplane/askplane/"
	fset := token.NewFileSet()
	for _, rule := range importRules {
		err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(rule.from)), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if p == module+rule.forbidden || strings.HasPrefix(p, module+rule.forbidden+"/") {
					rel, _ := filepath.Rel(root, path)
					t.Errorf("%s imports %s: %s", filepath.ToSlash(rel), p, rule.why)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
