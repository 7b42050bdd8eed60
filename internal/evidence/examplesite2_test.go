package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/sitetest"
)

// TestExampleSiteEngines asks askplane's own docs, built from exampleSite,
// with both engines: engine 2 must find each question's page in its top
// three, including the questions engine 1 cannot answer (a word it drops
// as a stopword, an inflection, a typo, an identifier in parts), and both
// must be deterministic over a real corpus.
func TestExampleSiteEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example site with Hugo")
	}
	b, err := sitetest.BuildDir(t, filepath.Join(sitetest.Root(), "exampleSite"))
	if err != nil {
		t.Fatalf("hugo: %v\n%s", err, b.Output)
	}
	for _, lang := range []string{"en", "fr"} {
		c, err := corpus.LoadDir(os.DirFS(b.Public), lang)
		if err != nil {
			t.Fatal(err)
		}
		e1, e2 := NewIndex(c), NewIndex2(c)
		for _, q := range exampleQuestions[lang] {
			p1, p2 := e1.Search(q.q, Budget{}), e2.Search(q.q, Budget{})
			h1, h2 := hrefs(p1), hrefs(p2)
			t.Logf("%s %q\n  bm25/1 %v\n  bm25/2 %v", lang, q.q, h1[:min(3, len(h1))], h2[:min(3, len(h2))])
			found := false
			for _, h := range h2[:min(3, len(h2))] {
				found = found || strings.Contains(h, q.want)
			}
			if !found {
				t.Errorf("%s %q: bm25/2 top three %v lack %s", lang, q.q, h2[:min(3, len(h2))], q.want)
			}
			again := e2.Search(q.q, Budget{})
			if string(again.JSON()) != string(p2.JSON()) || Check(&p2) != nil {
				t.Errorf("%q: not deterministic", q.q)
			}
		}
	}
}

// exampleQuestions are each asked of one language's corpus; want is part
// of an href that must be in engine 2's top three.
var exampleQuestions = map[string][]struct{ q, want string }{
	"en": {
		{"expiresAt", "knowledge-artifact"},
		{"expires at", "knowledge-artifact"},
		{"partialCached", "widget/install"},
		{"partial cached", "widget/install"},
		{"cookieSecretEnv", "configuration"},
		{"cookie secret env", "configuration"},
		{"where", "what-travels-where"},
		{"caching headers", "caching"},
		{"How long should browsers cache the artifact?", "caching"},
		{"hashing the artifact", "hashing"},
		{"artefact hashing", "hashing"},
		{"sesions limits", "sidecar/limits"},
		{"theming the widget", "theming"},
		{"deploy on netlify", "netlify"},
		{"normalizeKnowledgeKey", "normalization"},
		{"content security policy", "csp"},
		{"rate limits", "limits"},
	},
	"fr": {
		{"installer le widget", "widget/install"},
		{"installation", "widget/install"},
		{"réponse exacte", "getting-started/concepts/#réponse"},
		{"identifiant", "front-matter/#liens"},
	},
}
