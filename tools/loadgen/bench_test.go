package loadgen

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"
)

// BenchmarkAskHandler asks heading questions of the real handler stack
// (askServer: the wiring of askplane serve) over loopback TCP from
// 4×GOMAXPROCS keep-alive clients, each one subject, through the same
// client code as askplane-load. ns/op is wall time per answered request
// across all clients; answers/s, and p50/p99 time to the first NDJSON
// event and to done are reported too. Client and server share the CPUs,
// as they do in scripts/bench-ask.sh.
//
//	go test -run '^$' -bench AskHandler -benchtime 3s ./tools/loadgen
func BenchmarkAskHandler(b *testing.B) {
	for _, pages := range []int{100, 10_000} {
		// Built once per size, outside the timed rounds, so a CPU
		// profile shows the request path and not corpus loading.
		c := loadCorpus(b, pages)
		srv, _ := askServer(b, c, 0)
		qs := FromCorpus(c, 500)
		b.Run("pages="+strconv.Itoa(pages), func(b *testing.B) {
			tr := &http.Transport{MaxIdleConnsPerHost: 256, DisableCompression: true}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			var (
				mu    sync.Mutex
				all   tally
				ids   int
				start = time.Now()
			)
			b.SetParallelism(4)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				mu.Lock()
				ids++
				w := &worker{id: ids, url: srv.URL + "/v1/ask", origin: testOrigin, client: client, turns: 4, timeout: DefaultTimeout}
				mu.Unlock()
				var t tally
				for i := 0; pb.Next(); i++ {
					s := w.ask(context.Background(), qs[(w.id*131+i)%len(qs)], time.Now())
					t.add(&s)
				}
				mu.Lock()
				all.merge(&t)
				mu.Unlock()
			})
			b.StopTimer()
			r := all.report(time.Since(start))
			if r.ErrorCount != 0 || r.NoSourcesUnexpected != 0 {
				b.Fatalf("errors %v, unexpected 422s %d", r.Errors, r.NoSourcesUnexpected)
			}
			b.ReportMetric(r.AnswerRate, "answers/s")
			b.ReportMetric(r.FirstEvent.P50, "first-p50-ms")
			b.ReportMetric(r.FirstEvent.P99, "first-p99-ms")
			b.ReportMetric(r.Total.P99, "total-p99-ms")
		})
	}
}
