package hugomodule_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
)

// TestExampleSiteBuildsVerifiesAndIsStable builds exampleSite, the docs
// site for askplane itself, which imports the module by path with a
// module replacement pointing at this checkout, twice, and checks every language's
// outputs with the Go protocol code and byte for byte across builds.
func TestExampleSiteBuildsVerifiesAndIsStable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole example site twice")
	}
	dir := filepath.Join(sitetest.Root(), "exampleSite")
	one, err := sitetest.BuildDir(t, dir)
	if err != nil {
		t.Fatalf("exampleSite: %v\n%s", err, one.Output)
	}
	two, err := sitetest.BuildDir(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "fr"} {
		a, b := outputs(t, one, lang), outputs(t, two, lang)
		art := a.verified(t)
		if len(art.Entries) < 20 {
			t.Errorf("%s: only %d facts", lang, len(art.Entries))
		}
		kinds := map[string]bool{}
		for _, e := range art.Entries {
			kinds[string(e.Kind)] = true
		}
		if lang == "en" && len(kinds) != 7 {
			t.Errorf("en declares kinds %v; want all seven", kinds)
		}
		if !bytes.Equal(a.artifact, b.artifact) || !bytes.Equal(a.corpus, b.corpus) || !bytes.Equal(a.siteConfig, b.siteConfig) {
			t.Errorf("%s: outputs differ between two builds", lang)
		}
	}
}
