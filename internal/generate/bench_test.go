package generate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/sitetest"
)

// benchPackages are the evidence packages of every labelled question of
// a benchmark site (testdata/retrieval), built once per process: the
// generators' work depends on the package, not on the corpus's size.
var (
	benchMu   sync.Mutex
	benchPkgs = map[string][]benchCase{}
)

type benchCase struct {
	q   string
	pkg evidence.Package
}

func benchPackages(b *testing.B, src, questions string) []benchCase {
	benchMu.Lock()
	defer benchMu.Unlock()
	if p, ok := benchPkgs[src]; ok {
		return p
	}
	bld, err := sitetest.BuildDir(b, filepath.Join(sitetest.Root(), src))
	if err != nil {
		b.Fatalf("hugo: %v\n%s", err, bld.Output)
	}
	c, err := corpus.LoadDir(os.DirFS(bld.Public), "en")
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(sitetest.Root(), questions))
	if err != nil {
		b.Fatal(err)
	}
	var f struct {
		Questions []struct {
			Q string `json:"q"`
		} `json:"questions"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		b.Fatal(err)
	}
	ix := engines.Current().Index(c)
	var out []benchCase
	for _, q := range f.Questions {
		out = append(out, benchCase{q: q.Q, pkg: ix.Search(q.Q, evidence.Budget{MaxRecords: 5})})
	}
	benchPkgs[src] = out
	return out
}

// benchGenerate answers every labelled question once per iteration and
// reports the time per question.
func benchGenerate(b *testing.B, g Generator, src, questions string) {
	cases := benchPackages(b, src, questions)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i := range cases {
			pkg := cases[i].pkg
			if _, err := Run(context.Background(), g, Question{Text: cases[i].q}, &pkg, nil); err != nil {
				b.Fatalf("%q: %v", cases[i].q, err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/question")
}

func BenchmarkExtractiveExampleSite(b *testing.B) {
	benchGenerate(b, Extractive{}, "exampleSite", "testdata/retrieval/examplesite-en.json")
}

func BenchmarkComposerExampleSite(b *testing.B) {
	benchGenerate(b, Composer{}, "exampleSite", "testdata/retrieval/examplesite-en.json")
}

func BenchmarkExtractiveDocsy(b *testing.B) {
	benchGenerate(b, Extractive{}, "testdata/retrieval/docsy", "testdata/retrieval/docsy-en.json")
}

func BenchmarkComposerDocsy(b *testing.B) {
	benchGenerate(b, Composer{}, "testdata/retrieval/docsy", "testdata/retrieval/docsy-en.json")
}
