#!/usr/bin/env bash
# Measures the provider adapters' streaming cost: SSE parsing plus the
# provider accumulator per streamed token, over a synthetic 20,000-token
# stream, as a ratio to a bare bufio.Scanner pass over the same bytes
# (internal/provider/providers/bench_test.go, BenchmarkStreamPerToken).
# Usage: bash scripts/bench-provider.sh [COUNT]  (default 3 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-3}
go test -run '^$' -bench 'StreamPerToken' -benchtime 20x -count "$count" ./internal/provider/providers |
	awk '/^BenchmarkStreamPerToken/ {
		name = $1; sub(/^BenchmarkStreamPerToken\//, "", name); sub(/-[0-9]+$/, "", name)
		for (i = 2; i < NF; i++) {
			if ($(i+1) == "ns/token") tok[name] = tok[name] " " $i
			if ($(i+1) == "x-scanner") ratio[name] = ratio[name] " " $i
		}
	}
	END {
		for (n in ratio) printf "%-10s ns/token:%s   ratio to bufio.Scanner:%s\n", n, tok[n], ratio[n]
	}'
