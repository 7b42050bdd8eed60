// Package loadgen drives an askplane Ask endpoint (POST /v1/ask) over real
// HTTP and measures what a reader of the widget would feel: the time to the
// first NDJSON event, the time to the end of the stream, and whether the
// stream ended with done.
//
// It exists so the sidecar's throughput and latency targets are measured
// the same way on every machine: by tools/cmd/askplane-load against a
// running `askplane serve` (scripts/bench-ask.sh), and in-process by
// BenchmarkAskHandler for a quick `go test -bench` figure.
//
// Each worker is one browser: it keeps one keep-alive connection, one
// subject cookie (the one the server set on its first answer) and one
// conversation at a time, so sessions and per-subject rate limits behave
// as they do in production. Designed outcomes — 429 ASK_RATE_LIMITED and
// 422 ASK_NO_GROUNDED_SOURCES — are counted apart from errors.
package loadgen
