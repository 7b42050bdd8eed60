#!/usr/bin/env bash
# Runs every test askplane has. CI calls this through .ci/run; run it
# yourself the same way: bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' | grep -v '_templ.go$') 2>/dev/null || true)
if [ -n "$unformatted" ]; then
	echo "not gofmt-formatted:"; echo "$unformatted"; exit 1
fi

echo "== go vet"
go vet ./...

echo "== pinned Hugo (built once, then cached)"
go tool hugo version

echo "== npm ci (axe-core for the browser accessibility audit), when missing"
if [ ! -e node_modules/axe-core/axe.min.js ]; then
	npm ci --no-audit --no-fund
fi

echo "== go test -race (fuzz seed corpora run as tests)"
go test -race -count=1 -timeout 20m ./...

echo "== node --test (widget JavaScript against the shared vectors)"
node --test test/js/
