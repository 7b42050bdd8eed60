package evidence

import "testing"

// askplane.bm25/4 beside askplane.bm25/3 (bm25/2's ranking: the same
// code over the same records) on the same corpora and questions, so the
// ratio of one run is the cost of the new rules.

func BenchmarkSearch3ExampleSite(b *testing.B)  { benchSearchWith(b, NewIndex3(exampleSite(b))) }
func BenchmarkSearch4ExampleSite(b *testing.B)  { benchSearchWith(b, NewIndex4(exampleSite(b))) }
func BenchmarkSearch3Generated10k(b *testing.B) { benchSearchWith(b, NewIndex3(generated(b))) }
func BenchmarkSearch4Generated10k(b *testing.B) { benchSearchWith(b, NewIndex4(generated(b))) }

// synonymQuestion's "set up" and "publish" expand to words in nearly
// every record of the generated corpus ("install", "deploy"): the
// synonyms' worst case, two long posting lists merged per word.
const synonymQuestion = "How do I set up the module and publish the site?"

func benchSearchQuestion(b *testing.B, ix Engine, q string) {
	b.ReportAllocs()
	for b.Loop() {
		ix.Search(q, Budget{})
	}
}

func BenchmarkSearch3Synonyms10k(b *testing.B) {
	benchSearchQuestion(b, NewIndex3(generated(b)), synonymQuestion)
}

func BenchmarkSearch4Synonyms10k(b *testing.B) {
	benchSearchQuestion(b, NewIndex4(generated(b)), synonymQuestion)
}

// BenchmarkSearch4Guide10k is BenchmarkSearchGuide10k for askplane.bm25/4
// (BenchmarkSearch2Guide10k is bm25/3's ranking).
func BenchmarkSearch4Guide10k(b *testing.B) {
	guideOnce.Do(func() { guide = guideCorpus(10_000) })
	benchGuide(b, NewIndex4(guide))
}

func BenchmarkIndex4Generated10k(b *testing.B) {
	c := generated(b)
	b.ReportAllocs()
	for b.Loop() {
		NewIndex4(c)
	}
	b.ReportMetric(float64(len(c.Records)), "records")
}
