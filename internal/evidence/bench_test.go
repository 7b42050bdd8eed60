package evidence

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/sitetest"
)

// exampleCorpus builds the example site once per process and keeps its
// English corpus in memory (the build's folder is gone after the first
// benchmark run).
var (
	exampleOnce sync.Once
	example     *corpus.Corpus
)

func exampleSite(b *testing.B) *corpus.Corpus {
	exampleOnce.Do(func() {
		bld, err := sitetest.BuildDir(b, filepath.Join(sitetest.Root(), "exampleSite"))
		if err != nil {
			b.Fatalf("hugo: %v\n%s", err, bld.Output)
		}
		c, err := corpus.LoadDir(os.DirFS(bld.Public), "en")
		if err != nil {
			b.Fatal(err)
		}
		example = c
	})
	if example == nil {
		b.Skip("example site did not build")
	}
	return example
}

var (
	genOnce sync.Once
	gen     *corpus.Corpus
)

// generated is a 10,000-page corpus (40,000 sections), like the
// bench-hugo.sh site the README measures.
func generated(b *testing.B) *corpus.Corpus {
	genOnce.Do(func() { gen = bigCorpus(b, 10_000) })
	return gen
}

const benchQuestion = "How do I verify the artifact hash after a Hugo build?"

func benchIndex(b *testing.B, c *corpus.Corpus) {
	b.ReportAllocs()
	for b.Loop() {
		NewIndex(c)
	}
	b.ReportMetric(float64(len(c.Records)), "records")
}

func benchSearch(b *testing.B, c *corpus.Corpus) { benchSearchWith(b, NewIndex(c)) }

func benchSearchWith(b *testing.B, ix Engine) {
	b.ReportAllocs()
	for b.Loop() {
		ix.Search(benchQuestion, Budget{})
	}
}

func benchIndex2(b *testing.B, c *corpus.Corpus) {
	b.ReportAllocs()
	for b.Loop() {
		NewIndex2(c)
	}
	b.ReportMetric(float64(len(c.Records)), "records")
}

func BenchmarkIndex2ExampleSite(b *testing.B)   { benchIndex2(b, exampleSite(b)) }
func BenchmarkSearch2ExampleSite(b *testing.B)  { benchSearchWith(b, NewIndex2(exampleSite(b))) }
func BenchmarkIndex2Generated10k(b *testing.B)  { benchIndex2(b, generated(b)) }
func BenchmarkSearch2Generated10k(b *testing.B) { benchSearchWith(b, NewIndex2(generated(b))) }
func BenchmarkIndexExampleSite(b *testing.B)    { benchIndex(b, exampleSite(b)) }
func BenchmarkSearchExampleSite(b *testing.B)   { benchSearch(b, exampleSite(b)) }
func BenchmarkIndexGenerated10k(b *testing.B)   { benchIndex(b, generated(b)) }
func BenchmarkSearchGenerated10k(b *testing.B)  { benchSearch(b, generated(b)) }
