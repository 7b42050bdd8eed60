package generate

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/sitetest"
)

// TestReadAnswers writes every labelled question's answer, by each
// extractive generator, to $ASKPLANE_READ_ANSWERS/<site>.txt, for reading
// them as a reader would. Skipped unless the variable names a folder.
func TestReadAnswers(t *testing.T) {
	dir := os.Getenv("ASKPLANE_READ_ANSWERS")
	if dir == "" {
		t.Skip("ASKPLANE_READ_ANSWERS names no folder")
	}
	for _, site := range []struct{ name, src, questions string }{
		{"examplesite", "exampleSite", "testdata/retrieval/examplesite-en.json"},
		{"lighthouse", "testdata/retrieval/lighthouse", "testdata/retrieval/lighthouse-en.json"},
	} {
		b, err := sitetest.BuildDir(t, filepath.Join(sitetest.Root(), site.src))
		if err != nil {
			t.Fatalf("hugo: %v\n%s", err, b.Output)
		}
		c, err := corpus.LoadDir(os.DirFS(b.Public), "en")
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(sitetest.Root(), site.questions))
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Questions []struct {
				Q     string   `json:"q"`
				Pages []string `json:"pages"`
				Kind  string   `json:"kind"`
			} `json:"questions"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatal(err)
		}
		ix := engines.Current().Index(c)
		var out strings.Builder
		var sizes [2][]int
		var leadHits [2]int
		for qi, q := range f.Questions {
			pkg := ix.Search(q.Q, evidence.Budget{MaxRecords: 5})
			fmt.Fprintf(&out, "#%d [%s] %s   want %v\n", qi, q.Kind, q.Q, q.Pages)
			for gi, g := range []Generator{Extractive{}, Composer{}} {
				p := pkg
				leadURL := ""
				res, err := Run(context.Background(), g, Question{Text: q.Q}, &p, func(ev Event) error {
					if leadURL == "" && len(ev.Sources) > 0 {
						for _, r := range pkg.Records {
							if r.ID == ev.Sources[0] {
								leadURL = r.URL
							}
						}
					}
					return nil
				})
				if slices.Contains(q.Pages, leadURL) {
					leadHits[gi]++
				}
				var cites []string
				for _, id := range res.Used {
					for _, r := range pkg.Records {
						if r.ID == id {
							cites = append(cites, r.Href())
						}
					}
				}
				sizes[gi] = append(sizes[gi], len(res.Text))
				fmt.Fprintf(&out, "--- v%d err=%v cites %v\n%s\n", gi+1, err, cites, res.Text)
			}
			out.WriteString("\n")
		}
		for gi := range sizes {
			sz := slices.Sorted(slices.Values(sizes[gi]))
			fmt.Fprintf(&out, "SUMMARY v%d: lead page labelled %d/%d, median %d bytes\n", gi+1, leadHits[gi], len(f.Questions), sz[len(sz)/2])
		}
		if err := os.WriteFile(filepath.Join(dir, site.name+".txt"), []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDebugLead prints the best-scored sentences for $ASKPLANE_DEBUG_Q
// over the example site.
func TestDebugLead(t *testing.T) {
	q := os.Getenv("ASKPLANE_DEBUG_Q")
	if q == "" {
		t.Skip("ASKPLANE_DEBUG_Q is empty")
	}
	src := os.Getenv("ASKPLANE_DEBUG_SITE")
	if src == "" {
		src = "exampleSite"
	}
	b, err := sitetest.BuildDir(t, filepath.Join(sitetest.Root(), src))
	if err != nil {
		t.Fatalf("hugo: %v\n%s", err, b.Output)
	}
	c, err := corpus.LoadDir(os.DirFS(b.Public), "en")
	if err != nil {
		t.Fatal(err)
	}
	pkg := engines.Current().Index(c).Search(q, evidence.Budget{MaxRecords: 5})
	cc := newComposer(q, &pkg, DefaultComposeBytes)
	for ri := range pkg.Records {
		t.Logf("rec %d %s heads %b own %b", ri, pkg.Records[ri].Href(), cc.heads[ri], cc.own[ri])
	}
	s := slices.Clone(cc.sents)
	slices.SortStableFunc(s, func(a, b sent) int { return b.score - a.score })
	t.Logf("terms %v shape %d subject %b", cc.terms, cc.sh, cc.subject)
	for _, x := range s[:min(8, len(s))] {
		t.Logf("%d rec%d b%d p%d %s mask %b: %.100s", x.score, x.rec, x.block, x.pos, x.kind, x.mask, x.text)
	}
	res, err := Run(context.Background(), Composer{}, Question{Text: q}, &pkg, nil)
	t.Logf("answer (%v):\n%s\ncites %v", err, res.Text, res.Used)
}
