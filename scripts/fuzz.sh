#!/usr/bin/env bash
# Runs each fuzz target for longer than the test suite does (the suite runs
# only the seed corpora). Usage: bash scripts/fuzz.sh [DURATION]  (default 60s)
# New failing inputs land in the package's testdata/fuzz/ folder: commit them
# with the fix so they run as regression tests.
set -euo pipefail
cd "$(dirname "$0")/.."
time=${1:-60s}
status=0
for pkg in $(grep -l '^func Fuzz' $(git ls-files '*_test.go') | xargs -n1 dirname | sort -u | sed 's|^|./|'); do
	for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
		echo "== $pkg $target ($time)"
		if ! go test -run '^$' -fuzz "^${target}\$" -fuzztime "$time" "$pkg" 2>&1 | tail -4; then
			status=1
		fi
	done
done
exit $status
