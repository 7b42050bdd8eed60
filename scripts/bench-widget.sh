#!/usr/bin/env bash
# Measures the widget in headless chromium (/usr/bin/chromium): verify +
# index of a maximum-size artifact as a ratio to JSON.parse of the same
# bytes in the same page, and resolve time per query over a mixed query
# set (test/browser/bench_test.go); then the gzipped size of the
# widget's JavaScript and CSS as the built exampleSite ships them.
# Usage: bash scripts/bench-widget.sh [COUNT]  (default 3 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-3}
go test -run '^$' -bench 'WidgetCore' -benchtime 1x -count "$count" ./test/browser

public=$(mktemp -d)
trap 'rm -rf "$public"' EXIT
HUGO_MODULE_REPLACEMENTS="github.com/askplane/askplane/hugo-module -> $PWD/hugo-module" \
	go tool hugo --source exampleSite --destination "$public/public" --cacheDir "$public/cache" --logLevel warn >/dev/null
# The initial load is what every page fetches (main + CSS); core is the
# protocol core, fetched on the reader's first intent.
initial=0 total=0
for f in "$public"/public/askplane/dist/main.*.js "$public"/public/askplane/widget.min.*.css "$public"/public/askplane/dist/core.*.js; do
	raw=$(wc -c <"$f")
	gz=$(gzip -9c "$f" | wc -c)
	total=$((total + gz))
	case "$(basename "$f")" in core.*) ;; *) initial=$((initial + gz)) ;; esac
	printf '%-10s %6d B raw  %6d B gzip -9\n' "$(basename "$f" | cut -d. -f1)" "$raw" "$gz"
done
awk -v i="$initial" -v t="$total" 'BEGIN { printf "initial    %.2f KiB gzip -9 (every page)\ntotal      %.2f KiB gzip -9 (after first intent)\n", i / 1024, t / 1024 }'
