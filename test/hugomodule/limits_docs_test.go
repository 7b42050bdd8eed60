package hugomodule_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/sitetest"
)

// comma writes n with thousands separators, as the docs do (16,384).
func comma(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestDocumentedLimitsAreTheProtocols checks that the limits authors read
// (docs/authoring.md and the example site's limits page) are the
// protocol's and the corpus reader's, and that the templates enforce the
// same artifact limits, so no document goes stale when a bound moves.
func TestDocumentedLimitsAreTheProtocols(t *testing.T) {
	root := sitetest.Root()
	want := []string{
		comma(protocol.MaxEntries), comma(protocol.MaxArtifactBytes), comma(protocol.MaxSiteConfigBytes),
		"1–" + comma(protocol.MaxIdentifierLen), "1–" + comma(protocol.MaxLabelLen),
		"1–" + strconv.Itoa(protocol.MaxAliases) + " phrasings", "1–" + strconv.Itoa(protocol.MaxAliasLen),
		"1–" + comma(protocol.MaxMarkdownLen), "at most " + strconv.Itoa(protocol.MaxCitations),
		comma(protocol.MaxHrefLen),
		strconv.Itoa(corpus.MaxCorpusBytes>>20) + " MiB", strconv.Itoa(corpus.MaxManifestBytes>>20) + " MiB",
	}
	for _, doc := range []string{"docs/authoring.md", "exampleSite/content/en/facts/limits.md"} {
		data, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(string(data), w) {
				t.Errorf("%s does not state %q", doc, w)
			}
		}
	}
	templates := map[string][]string{
		"layouts/_partials/askplane/publish/site-config.html": {"gt (len $entries) " + strconv.Itoa(protocol.MaxEntries), "gt (len $artifactText) " + strconv.Itoa(protocol.MaxArtifactBytes)},
		"layouts/_partials/askplane/publish/generated.html":   {"sub 1024 (len $declared)", "lt (len $values) " + strconv.Itoa(protocol.MaxAliases)},
	}
	if protocol.MaxEntries != 1024 {
		t.Errorf("generated.html's room is computed from 1024, the protocol's limit is %d", protocol.MaxEntries)
	}
	for file, lines := range templates {
		data, err := os.ReadFile(filepath.Join(sitetest.ModuleDir(), file))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			if !strings.Contains(string(data), l) {
				t.Errorf("%s lacks %q", file, l)
			}
		}
	}
}
