package chunk

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
)

// The chunker on real Hugo output: the example site's corpus, both
// languages. Code keeps its language and lines, headings lose their
// anchor glyphs, and no block carries page chrome.
func TestExampleSite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example site with Hugo")
	}
	b, err := sitetest.BuildDir(t, filepath.Join(sitetest.Root(), "exampleSite"))
	if err != nil {
		t.Fatalf("hugo: %v\n%s", err, b.Output)
	}
	for _, lang := range []string{"en", "fr"} {
		var m struct{ Corpus struct{ Href string } }
		if err := json.Unmarshal(b.ReadFile("askplane/"+lang+"/manifest.json"), &m); err != nil {
			t.Fatal(err)
		}
		var c struct {
			Pages []struct{ URL, Title, Kind, HTML string }
		}
		if err := json.Unmarshal(b.ReadFile(m.Corpus.Href), &c); err != nil {
			t.Fatal(err)
		}
		kinds := map[Kind]int{}
		for _, p := range c.Pages {
			chunks, err := Split(p.HTML)
			if err != nil {
				t.Fatalf("%s: %v", p.URL, err)
			}
			for _, ch := range chunks {
				if strings.HasSuffix(ch.Heading, "#") || strings.Contains(ch.Heading, "¶") {
					t.Errorf("%s#%s: heading %q keeps a glyph", p.URL, ch.Anchor, ch.Heading)
				}
				for _, bl := range ch.Blocks {
					kinds[bl.Kind]++
					if bl.Kind != Code && (strings.Contains(bl.Text, "<span") || strings.Contains(bl.Text, "style=")) {
						t.Errorf("%s: markup leaked: %q", p.URL, bl.Text)
					}
				}
			}
			if p.URL == "/getting-started/quickstart/" || p.URL == "/fr/getting-started/quickstart/" {
				var imp *Block
				for _, ch := range chunks {
					if ch.Anchor == "import-the-module" || strings.Contains(ch.Anchor, "module") && imp == nil {
						for i := range ch.Blocks {
							if ch.Blocks[i].Kind == Code && ch.Blocks[i].Lang == "toml" {
								imp = &ch.Blocks[i]
								break
							}
						}
					}
				}
				if imp == nil || !strings.Contains(imp.Text, "[[module.imports]]\n    path = \"github.com/askplane/askplane/hugo-module\"") {
					t.Errorf("%s: the import block is %+v", p.URL, imp)
				}
			}
		}
		for _, k := range []Kind{Paragraph, Code, List, Table} {
			if kinds[k] == 0 {
				t.Errorf("%s: no %s block in the whole site (%v)", lang, k, kinds)
			}
		}
		t.Logf("%s: %d pages, blocks %v", lang, len(c.Pages), kinds)
	}
}
