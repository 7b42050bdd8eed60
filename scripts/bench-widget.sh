#!/usr/bin/env bash
# Measures the widget in headless chromium (/usr/bin/chromium): verify +
# index of a maximum-size artifact as a ratio to JSON.parse of the same
# bytes in the same page, and resolve time per query over a mixed query
# set (hugo-module/browser/bench_test.go); then the gzipped size of the
# widget's JavaScript and CSS as the built exampleSite ships them.
# Usage: bash scripts/bench-widget.sh [COUNT]  (default 3 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-3}
go test -run '^$' -bench 'WidgetCore' -benchtime 1x -count "$count" ./hugo-module/browser

public=$(mktemp -d)
trap 'rm -rf "$public"' EXIT
HUGO_MODULE_REPLACEMENTS="github.com/askplane/askplane -> $PWD" \
	go tool hugo --source exampleSite --destination "$public/public" --cacheDir "$public/cache" --logLevel warn >/dev/null
total=0
for f in "$public"/public/askplane/js/main.*.js "$public"/public/askplane/widget.min.*.css; do
	raw=$(wc -c <"$f")
	gz=$(gzip -9c "$f" | wc -c)
	total=$((total + gz))
	printf '%-10s %6d B raw  %6d B gzip -9\n' "$(basename "$f" | cut -d. -f1)" "$raw" "$gz"
done
awk -v t="$total" 'BEGIN { printf "JS + CSS   %.2f KiB gzip -9\n", t / 1024 }'
