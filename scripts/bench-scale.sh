#!/usr/bin/env bash
# Two askplane serve instances on one PostgreSQL, on loopback, under load:
# the deployment the README describes for several instances (sessions,
# retained sources, rate limits and generation caps shared in the
# database). askplane-load spreads its workers over both instances (each
# worker stays on one, as behind a sticky balancer) for DURATION (60 s),
# and the script prints throughput, p99 time to the first NDJSON event,
# errors, and each instance's RSS sampled every 5 s.
#
# Usage: bash scripts/bench-scale.sh
# Environment (all optional):
#   ASKPLANE_TEST_POSTGRES_URL   an existing database (default: a throwaway
#                                cluster from scripts/postgres.sh, removed on exit)
#   PUBLIC=DIR                   a built site folder (default: exampleSite,
#                                built with the pinned Hugo)
#   WORKERS=32 DURATION=60s WARMUP=5s RATE=0 (0: closed loop)
#   TURNS=4                      questions per conversation (sessions written)
# Not run in CI: it takes over a minute and measures the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
workers=${WORKERS:-32}
duration=${DURATION:-60s}
warmup=${WARMUP:-5s}
rate=${RATE:-0}
turns=${TURNS:-4}
work=$(mktemp -d)
pids=()
pg_dir=""
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
	if [ -n "$pg_dir" ]; then bash scripts/postgres.sh stop "$pg_dir"; fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== $(date -u +%FT%TZ) on $(nproc) CPUs; load: $(uptime | sed 's/.*load average: //')"
dsn=${ASKPLANE_TEST_POSTGRES_URL:-}
if [ -z "$dsn" ]; then
	pg_dir=$(mktemp -d /tmp/askplane-bench-pg.XXXXXX)
	rmdir "$pg_dir"
	dsn=$(bash scripts/postgres.sh start "$pg_dir" 2>/dev/null)
fi
# A schema of its own, so an existing database is not touched otherwise.
schema=askplane_bench_$$
base=$dsn
psql "$base" -qc "CREATE SCHEMA $schema" >/dev/null
case "$dsn" in *\?*) dsn="$dsn&search_path=$schema" ;; *) dsn="$dsn?search_path=$schema" ;; esac

echo "== building askplane and askplane-load"
go build -o "$work/askplane" ./sidecar/cmd/askplane
go build -o "$work/askplane-load" ./tools/cmd/askplane-load
public=${PUBLIC:-}
if [ -z "$public" ]; then
	echo "== building exampleSite with the pinned Hugo"
	public=$work/public
	HUGO_MODULE_REPLACEMENTS="github.com/askplane/askplane -> $root" \
		"$(go tool -n hugo)" --source "$root/exampleSite" --destination "$public" --cacheDir "$work/hugo-cache" --logLevel error >/dev/null
fi
site_id=$(jq -r .siteId "$public/askplane/en/manifest.json")

# Sessions in PostgreSQL through ASKPLANE_DB (never in the file); limits
# generous enough that the load measures the work, not the refusals —
# they are still decided in the database on every question.
cat >"$work/config.json" <<JSON
{
  "sessionsEnv": "ASKPLANE_DB",
  "edge": {"perAddress": {"requests": 1000000, "windowSeconds": 60}, "newSubjects": {"requests": 1000000, "windowSeconds": 60}, "maxConnectionsPerAddress": 1024},
  "sites": [{
    "site": {
      "protocol": "agentskit.chat.backend-site", "version": 1, "siteId": "$site_id",
      "assistant": {"id": "docs-guide", "name": "Docs guide"},
      "corpus": {"id": "docs-public", "mode": "local"},
      "limits": {"requestTimeoutMs": 30000, "retrievalTimeoutMs": 5000, "generationTimeoutMs": 20000, "maxSources": 5},
      "persistence": {"mode": "required"}
    },
    "public": "$public", "language": "en",
    "cookieSecretEnv": "ASKPLANE_BENCH_COOKIE_SECRET", "secureCookie": false,
    "rateLimit": {"requests": 1000000, "windowSeconds": 60},
    "generations": {"max": 256, "queue": 256, "waitMs": 2000}
  }]
}
JSON
secret=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
urls=()
for i in 1 2; do
	ASKPLANE_DB=$dsn ASKPLANE_BENCH_COOKIE_SECRET=$secret "$work/askplane" serve --config "$work/config.json" --addr 127.0.0.1:0 >"$work/server$i.log" 2>&1 &
	pids+=($!)
	addr=""
	for _ in $(seq 1 300); do
		addr=$(sed -n 's|^askplane serve: listening on http://\([^/]*\)/.*|\1|p' "$work/server$i.log")
		[ -n "$addr" ] && break
		kill -0 "${pids[-1]}" 2>/dev/null || { cat "$work/server$i.log" >&2; exit 1; }
		sleep 0.1
	done
	[ -n "$addr" ] || { echo "instance $i did not start" >&2; exit 1; }
	urls+=("http://$addr/v1/ask")
	echo "   instance $i: http://$addr, pid ${pids[-1]}"
done

# RSS of each instance every 5 s while the load runs.
rss_log=$work/rss.tsv
(
	start=$(date +%s)
	while :; do
		line="$(($(date +%s) - start))"
		for p in "${pids[@]}"; do line="$line	$(awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$p/status" 2>/dev/null || echo -)"; done
		echo "$line" >>"$rss_log"
		sleep 5
	done
) &
sampler=$!

echo "== $workers workers over both instances for $duration (+ $warmup warm-up), rate $rate (0: closed loop), $turns turns a conversation"
"$work/askplane-load" --urls "$(IFS=,; echo "${urls[*]}")" --public "$public" --workers "$workers" --rate "$rate" \
	--duration "$duration" --warmup "$warmup" --turns "$turns" --print-json=false --json "$work/report.json"
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true

echo
echo "== RSS MiB over time (s, instance 1, instance 2)"
column -t -s $'\t' "$rss_log"
echo
jq -r '"== summary: \(.requestsPerSecond | floor) req/s, \(.answeredPerSecond | floor) answered/s, p99 first event \(.firstEvent.p99Ms) ms (p50 \(.firstEvent.p50Ms) ms), p99 total \(.total.p99Ms) ms, errors \(.errorCount), 429 \(.rateLimited), 422 \(.noGroundedSources) (unexpected \(.noGroundedSourcesUnexpected))"' "$work/report.json"
for i in 1 2; do
	echo "   instance $i peak RSS: $(awk '/^VmHWM:/ { printf "%.1f MiB", $2 / 1024 }' "/proc/${pids[$((i - 1))]}/status")"
done
psql "$base" -qAtc "SELECT 'sessions stored: ' || count(*) || ', rate-limit keys: ' || (SELECT count(*) FROM $schema.limit_tats) FROM $schema.sessions" || true
psql "$base" -qc "DROP SCHEMA $schema CASCADE" >/dev/null 2>&1 || true
