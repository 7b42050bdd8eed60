package hugomodule_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
)

// TestBuildCodesAreRegistered checks that every build-time problem code the
// module's templates raise is in the registry: the code list in the verify
// package's documentation, which docs and authors read. A template that
// raises an unlisted code, or a listed code nothing raises, fails here.
func TestBuildCodesAreRegistered(t *testing.T) {
	root := sitetest.Root()
	doc, err := os.ReadFile(filepath.Join(root, "internal", "verify", "verify.go"))
	if err != nil {
		t.Fatal(err)
	}
	codeRE := regexp.MustCompile(`\b(?:outputs|manifest|file|site|artifact|facts|fact|corpus|config|widget)(?:\.[a-z-]+)+\b`)
	registry := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "//\t") {
			for _, c := range codeRE.FindAllString(line, -1) {
				registry[c] = true
			}
		}
	}
	if len(registry) < 40 {
		t.Fatalf("registry has only %d codes; is the list in verify.go's package doc?", len(registry))
	}

	// Codes raised by the templates: "askplane: [code]" literals and the
	// code argument of errorf $fail "code" ….
	raisedRE := regexp.MustCompile(`\[((?:fact|facts|artifact|config|widget)(?:\.[a-z-]+)+)\]|errorf \$fail "([a-z.-]+)"`)
	raised := map[string]bool{}
	err = filepath.WalkDir(filepath.Join(sitetest.ModuleDir(), "layouts"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range raisedRE.FindAllStringSubmatch(string(data), -1) {
			raised[m[1]+m[2]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for c := range raised {
		if !registry[c] {
			missing = append(missing, c)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("templates raise codes missing from the registry in internal/verify/verify.go: %v", missing)
	}
	if len(raised) < 15 {
		t.Errorf("found only %d codes in layouts; is the pattern still right?", len(raised))
	}
}
