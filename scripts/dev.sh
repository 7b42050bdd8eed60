#!/usr/bin/env bash
# askplane dev, as the README's main command runs it: bash scripts/dev.sh
# [--site DIR] [--addr HOST:PORT] …
#
# `go run` says nothing while it compiles, which on a machine with an empty
# Go build cache is minutes. This launcher speaks first: it says what it is
# doing at once, compiles the askplane command into .askplane/bin with a
# progress line every few seconds, then hands over to `askplane dev`
# (which reports its own steps until the first page is served). Every flag
# is passed through.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bin="$root/.askplane/bin/askplane"
mkdir -p "$root/.askplane/bin"

echo "askplane: compiling the askplane command (the first run on a machine takes a few minutes)…"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
started=$SECONDS
# -v names each package as it is compiled; cached ones are not named, so a
# warm cache prints nothing and finishes in seconds.
go build -v -o "$bin" ./sidecar/cmd/askplane 2>"$log" &
build=$!
while kill -0 "$build" 2>/dev/null; do
	for _ in 1 2 3 4 5 6; do
		sleep 1
		kill -0 "$build" 2>/dev/null || break 2
	done
	echo "askplane: still compiling: $(grep -c . "$log" || true) packages so far, $((SECONDS - started)) s…"
done
if ! wait "$build"; then
	grep -v '^[a-zA-Z0-9._/-]*$' "$log" >&2 || cat "$log" >&2
	echo "askplane: compiling failed (see above)" >&2
	exit 1
fi
if [ $((SECONDS - started)) -ge 2 ]; then
	echo "askplane: compiled in $((SECONDS - started)) s"
fi
exec "$bin" dev "$@"
