package evidence

import "testing"

// askplane.bm25/5 beside askplane.bm25/4 (the same code but the synonym
// table) on the same corpora and questions: the cost of the larger table
// when building an index and when asking.

func BenchmarkSearch5ExampleSite(b *testing.B)  { benchSearchWith(b, NewIndex5(exampleSite(b))) }
func BenchmarkSearch5Generated10k(b *testing.B) { benchSearchWith(b, NewIndex5(generated(b))) }

func BenchmarkIndex5Generated10k(b *testing.B) {
	c := generated(b)
	b.ReportAllocs()
	for b.Loop() {
		NewIndex5(c)
	}
	b.ReportMetric(float64(len(c.Records)), "records")
}
