#!/usr/bin/env bash
# Measures the protocol core and prints ratios against baselines measured in
# the same run: decode + verify + index of a maximum artifact against plain
# encoding/json unmarshalling of the same bytes, and resolve latency.
# Usage: bash scripts/bench.sh [COUNT]  (default 5 runs of each benchmark)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-5}
out=$(mktemp)
go test -run '^$' -bench 'MaxArtifact' -benchmem -count "$count" ./internal/protocol | tee "$out"
go test -run '^$' -bench 'Resolve' -benchmem -count "$count" ./internal/resolve | tee -a "$out"
awk '
/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name)
	for (i = 2; i <= NF; i++) if ($(i+1) == "ns/op") { sum[name] += $i; n[name]++ }
}
END {
	v = sum["BenchmarkVerifyMaxArtifact"] / n["BenchmarkVerifyMaxArtifact"]
	j = sum["BenchmarkJSONUnmarshalMaxArtifact"] / n["BenchmarkJSONUnmarshalMaxArtifact"]
	s = sum["BenchmarkJSONUnmarshalStructMaxArtifact"] / n["BenchmarkJSONUnmarshalStructMaxArtifact"]
	printf "\nmax artifact: decode+verify+index %.2f ms; encoding/json into any %.2f ms (ratio %.2fx); into structs %.2f ms (ratio %.2fx)\n", v/1e6, j/1e6, v/j, s/1e6, v/s
	for (k in sum) if (k ~ /Resolve/) printf "%s: %.0f ns/op\n", k, sum[k]/n[k]
}' "$out"
rm -f "$out"
