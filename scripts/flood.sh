#!/usr/bin/env bash
# Issue 25's floods, tried as an attacker would: `askplane serve` with the
# example config (sidecar/config/askplane.example.json: its limits and
# budgets, only the address, host, paths and secrets changed) on
# loopback, the example site built four times (one word changed each
# time), the first three versions loaded once each so the store retains
# them, the fourth served. Then, while another address (127.0.0.3) calls
# /health every 100 ms:
#   1. 30 concurrent anonymous replays of one retained, non-served version;
#   2. replays cycling the three retained versions: 40 from 127.0.0.1 and
#      from each of 127.0.0.4 to 127.0.0.8, 10 at a time from each;
#   3. 20 MCP requests each a JSON-RPC batch of 100 search_docs calls,
#      with no, an old and the current MCP-Protocol-Version;
#   4. 127.0.0.1 holds HOLD (200) idle keep-alive connections while
#      127.0.0.2 calls /health 20 times.
# It prints the server's RSS (baseline, peak, 10 s after), each flood's
# status counts and the slowest /health of the other addresses.
#
# Usage: bash scripts/flood.sh   (EXAMPLE_PUBLIC=DIR reuses a built
# exampleSite's public folder as the served version's source; HOLD=N)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
hold=${HOLD:-200}
work=$(mktemp -d)
pid=""
cleanup() {
	[ -z "$pid" ] || { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
	rm -rf "$work"
}
trap cleanup EXIT

echo "== building askplane"
go build -o "$work/askplane" ./sidecar/cmd/askplane
hugo=$(go tool -n hugo)
for v in 1 2 3 4; do
	cp -r exampleSite "$work/site$v"
	printf '\nFlood version %d.\n' "$v" >>"$(find "$work/site$v/content" -name '*.md' | sort | head -1)"
	HUGO_MODULE_REPLACEMENTS="github.com/askplane/askplane/hugo-module -> $root/hugo-module" \
		"$hugo" --source "$work/site$v" --destination "$work/pub$v" --cacheDir "$work/hugo-cache" --logLevel error >/dev/null
done

port=$((20000 + RANDOM % 20000))
host=127.0.0.1:$port
export ASKPLANE_COOKIE_SECRET ASKPLANE_TOKEN_CI
ASKPLANE_COOKIE_SECRET=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
ASKPLANE_TOKEN_CI=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
start() { # start VERSION: serve pubVERSION with the example config
	jq --arg addr "$host" --arg pub "$work/pub$1" \
		'.addr = $addr | .sites[0].public = $pub | .sites[0].hosts = [$addr] | .sites[0].secureCookie = false | .sites[0].crossSiteCookie = false' \
		sidecar/config/askplane.example.json >"$work/askplane.json"
	"$work/askplane" serve --config "$work/askplane.json" >>"$work/server.log" 2>&1 &
	pid=$!
	for _ in $(seq 100); do curl -fsS "http://$host/health" >/dev/null 2>&1 && return; sleep 0.1; done
	echo "askplane serve did not start" >&2; cat "$work/server.log" >&2; exit 1
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""; }
ask() { curl -sS -o /dev/null -D - -X POST -H 'Content-Type: application/json' "http://$host/v1/ask" \
	--data '{"messages":[{"role":"user","content":"How do I install askplane?"}]}'; }
rss() { awk -v k="$1:" '$1 == k { printf "%.0f", $2 / 1024 }' "/proc/$pid/status"; }

echo "== loading versions 1-3 once each (retained), serving version 4"
for v in 1 2 3; do
	start "$v"
	ask | sed -n 's|^[Ll]ink: <[^#]*#\([^>]*\)>.*|\1|p' | tr -d '\r' >"$work/frag$v"
	[ -s "$work/frag$v" ] || { echo "no evidence link from version $v" >&2; exit 1; }
	stop
done
start 4
for _ in 1 2 3; do ask >/dev/null; done
base=$(rss VmRSS)
echo "   RSS baseline ${base} MiB"

# RSS every 100 ms and /health from 127.0.0.3 every 100 ms, until stopped.
: >"$work/rss" && : >"$work/health3" && : >"$work/c1" && : >"$work/c2"
(while kill -0 "$pid" 2>/dev/null; do rss VmRSS >>"$work/rss"; echo >>"$work/rss"; sleep 0.1; done) &
rss_pid=$!
echo idle >"$work/phase"
(while :; do
	t=$(curl -s -o /dev/null -w '%{time_total}' --max-time 30 --interface 127.0.0.3 "http://$host/health")
	echo "$(cat "$work/phase") $t" >>"$work/health3"
	sleep 0.1
done) &
health_pid=$!

# The attacking clients run at the lowest priority: they share the
# server's CPUs here, where a real attacker's would not.
replay() { # replay FRAGMENT_FILE [SOURCE_ADDRESS]
	nice -n 19 curl -s -o /dev/null -w '%{http_code}\n' --max-time 60 --interface "${2:-127.0.0.1}" -X POST -H 'Content-Type: application/json' \
		"http://$host/v1/evidence/replay" --data "{\"fragment\":\"$(cat "$1")\"}"
}
codes() { sort | uniq -c | awk '{ printf "%s %s, ", $2, $1 }' | sed 's/, $//'; }

echo "== 1. 30 concurrent replays of retained version 1"
echo replay30 >"$work/phase"
pids=()
for _ in $(seq 30); do replay "$work/frag1" >>"$work/c1" & pids+=($!); done
wait "${pids[@]}"
echo "   $(codes <"$work/c1"); RSS now $(rss VmRSS) MiB"

echo cycle >"$work/phase"
echo "== 2. replays cycling versions 1-3: 40 from 127.0.0.1 and from each of 127.0.0.4-8, 10 at a time each"
pids=()
for a in 1 4 5 6 7 8; do
	(for i in $(seq 40); do
		replay "$work/frag$((i % 3 + 1))" "127.0.0.$a" >>"$work/c2" &
		[ $((i % 10)) != 0 ] || wait
	done; wait) &
	pids+=($!)
done
wait "${pids[@]}"
echo "   $(codes <"$work/c2"); RSS now $(rss VmRSS) MiB"

echo "== 3. 20 MCP requests from 127.0.0.9, each a batch of 100 search_docs calls"
echo mcp >"$work/phase"
batch=$(jq -nc '[range(100) | {jsonrpc: "2.0", id: ., method: "tools/call", params: {name: "search_docs", arguments: {query: "install"}}}]')
for i in $(seq 20); do
	version=(-H "MCP-Protocol-Version: 2025-06-18")
	[ $((i % 3)) != 1 ] || version=()
	[ $((i % 3)) != 2 ] || version=(-H "MCP-Protocol-Version: 2025-03-26")
	nice -n 19 curl -s -o /dev/null -w '%{http_code}\n' --interface 127.0.0.9 "${version[@]}" -X POST -H 'Content-Type: application/json' \
		-H 'Accept: application/json, text/event-stream' "http://$host/mcp" --data "$batch"
done >"$work/c3"
echo "   $(codes <"$work/c3"); RSS now $(rss VmRSS) MiB"

echo "== 4. 127.0.0.1 holds $hold idle keep-alive connections; 127.0.0.2 calls /health 20 times"
echo connections >"$work/phase"
fds=()
for _ in $(seq "$hold"); do
	exec {fd}<>"/dev/tcp/127.0.0.1/$port" 2>/dev/null || break
	printf 'GET /health HTTP/1.1\r\nHost: %s\r\n\r\n' "$host" >&"$fd" 2>/dev/null || true
	fds+=("$fd")
done
sleep 1
slowest2=0
for _ in $(seq 20); do
	t=$(curl -s -o /dev/null -w '%{time_total}' --max-time 30 --interface 127.0.0.2 "http://$host/health")
	slowest2=$(awk -v a="$slowest2" -v b="$t" 'BEGIN { print (b > a ? b : a) }')
done
open=$(ls -l "/proc/$pid/fd" 2>/dev/null | grep -c socket || true)
echo "   opened ${#fds[@]} from 127.0.0.1 (server has $open sockets open); slowest /health from 127.0.0.2 ${slowest2} s"
for fd in "${fds[@]}"; do exec {fd}>&-; done

kill "$health_pid" 2>/dev/null || true
sleep 10
after=$(rss VmRSS)
kill "$rss_pid" 2>/dev/null || true
peak=$(sort -n "$work/rss" | tail -1)
echo
echo "== summary"
echo "RSS baseline ${base} MiB, peak ${peak} MiB (+$((peak - base))), 10 s after ${after} MiB (+$((after - base)))"
echo "slowest /health from 127.0.0.3, by flood: $(awk '{ if ($2 > m[$1]) m[$1] = $2; n[$1]++ } END { for (p in m) printf "%s %.3f s (%d calls), ", p, m[p], n[p] }' "$work/health3" | sed 's/, $//')"
echo "slowest /health from 127.0.0.2 while 127.0.0.1 held its connections: ${slowest2} s"
