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

echo "== npm ci (axe-core for the browser accessibility audit, TypeScript for the widget's types), when missing"
if [ ! -e node_modules/axe-core/axe.min.js ] || [ ! -e node_modules/typescript/package.json ]; then
	npm ci --no-audit --no-fund
fi

echo "== PostgreSQL for the session store tests, when none is given"
# internal/store tests PostgreSQL for real: they read
# ASKPLANE_TEST_POSTGRES_URL, skip without it on a developer's machine and
# fail without it in CI. When it is unset and PostgreSQL is installed, a
# throwaway cluster (scripts/postgres.sh) serves this run and is stopped on
# exit.
if [ -z "${ASKPLANE_TEST_POSTGRES_URL:-}" ] && bash scripts/postgres.sh available; then
	pgdir=$(mktemp -d /tmp/askplane-pg.XXXXXX)
	trap 'bash scripts/postgres.sh stop "$pgdir"' EXIT
	ASKPLANE_TEST_POSTGRES_URL=$(bash scripts/postgres.sh start "$pgdir")
	export ASKPLANE_TEST_POSTGRES_URL
	echo "PostgreSQL at $ASKPLANE_TEST_POSTGRES_URL"
fi

echo "== go test -race (fuzz seed corpora run as tests)"
go test -race -count=1 -timeout 20m ./...

echo "== tsc --noEmit --checkJs (the widget's JSDoc types; tsconfig.json)"
npx --no-install tsc -p tsconfig.json

echo "== node --test (widget JavaScript against the shared vectors)"
node --test test/js/
