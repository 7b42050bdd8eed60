package evidence

import (
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"
)

// BenchmarkScale measures how one instance's cost grows with the site:
// for guide-shaped corpora of 10,000 and 100,000 pages (four chunks a
// page), the time to build the default engine's index, the heap it keeps,
// and the p50 and p99 of a search, reported as custom metrics:
//
//	go test -run '^$' -bench Scale -benchtime 1x ./internal/evidence
func BenchmarkScale(b *testing.B) {
	for _, pages := range []int{10_000, 100_000} {
		b.Run(strconv.Itoa(pages)+"pages", func(b *testing.B) {
			c := guideCorpus(pages)
			var qs []string
			for i := 0; i < len(c.Records); i += len(c.Records) / 2000 {
				r := c.Records[i]
				qs = append(qs, "How do I "+r.Headings[len(r.Headings)-1]+" in the "+r.Title+"?")
			}
			for b.Loop() {
				runtime.GC()
				var before runtime.MemStats
				runtime.ReadMemStats(&before)
				start := time.Now()
				ix := NewIndex2(c)
				build := time.Since(start)
				runtime.GC()
				var after runtime.MemStats
				runtime.ReadMemStats(&after)
				took := make([]time.Duration, 0, len(qs))
				for _, q := range qs {
					t := time.Now()
					ix.Search(q, Budget{})
					took = append(took, time.Since(t))
				}
				slices.Sort(took)
				b.ReportMetric(build.Seconds(), "build-s")
				b.ReportMetric(float64(after.HeapAlloc-min(before.HeapAlloc, after.HeapAlloc))/(1<<20), "index-MiB")
				b.ReportMetric(float64(took[len(took)/2].Microseconds()), "p50-µs")
				b.ReportMetric(float64(took[len(took)*99/100].Microseconds()), "p99-µs")
				runtime.KeepAlive(ix)
			}
		})
	}
}
