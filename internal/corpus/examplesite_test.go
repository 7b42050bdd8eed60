package corpus

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/sitetest"
)

// The example site is the corpus users first ask questions of; it must
// load in both its languages with every citation link safe.
func TestExampleSite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example site with Hugo")
	}
	b, err := sitetest.BuildDir(t, filepath.Join(sitetest.Root(), "exampleSite"))
	if err != nil {
		t.Fatalf("hugo: %v\n%s", err, b.Output)
	}
	for _, lang := range []string{"en", "fr"} {
		c, err := LoadDir(os.DirFS(b.Public), lang)
		if err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		if len(c.Records) < 10 || c.Language != lang || !protocol.ValidContentHash(c.Version) {
			t.Fatalf("%s: %d records, language %q, version %q", lang, len(c.Records), c.Language, c.Version)
		}
		for _, r := range c.Records {
			if !protocol.ValidIdentifier(r.ID) || !protocol.ValidHref(r.Href()) {
				t.Errorf("%s: record %q href %q", lang, r.ID, r.Href())
			}
		}
	}
}
