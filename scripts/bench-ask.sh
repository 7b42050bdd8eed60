#!/usr/bin/env bash
# Load benchmark of the Ask sidecar: `askplane serve` on a free loopback
# port, driven over real HTTP by askplane-load (tools/loadgen), for two
# corpora: the example site's and a generated site (default 10,000 pages)
# built with the pinned Hugo. For each corpus it runs
#   (a) a closed loop (every worker asks again as soon as it has its
#       answer): the maximum throughput, and
#   (b) an open loop at a constant 500 requests/s, half the 1,000
#       requests/s target (OPEN_RATE overrides it): the latency a reader
#       sees at a realistic load, and
#   (c) an open loop at half the measured maximum: latency under stress,
# records the server's peak RSS (VmHWM) and prints a summary against the
# targets: ≥ 1,000 answered requests/s on 2 cores, p99 time to the first
# NDJSON event ≤ 25 ms at half load, no errors except designed 429s (the
# designed 422s of unanswerable questions are counted apart).
#
# With BASE=<commit>, that commit's askplane is built too (from
# `git archive`, into the temporary folder) and the closed loop (a) runs
# ROUNDS times against each binary, interleaved (base, this tree, base,
# …), so the printed ratio of answered requests/s is a same-run figure.
# The base answers from the corpora its own tree's module builds (a
# corpus is part of the workload; an old base cannot read a newer corpus
# version), and its config leaves out the edge section when it predates
# it, so any commit since the load bench existed (31901b4) can be a base.
# With INSIGHTS=compare this tree's askplane runs the closed loop (a)
# ROUNDS times with the site's "insights" setting off and on, interleaved
# (off, on, off, …), so the printed ratio (on / off) is the cost of
# recording every question's outcome, measured in the same run. Each
# closed loop also prints the server's CPU time an answer (user + system,
# from /proc, over the measured window), and the summary the ratio of
# their medians: on a shared machine that figure moves less than
# answers a second.
# With PROFILE=1 both binaries are built with -tags askplane_pprof and a
# CPU profile of the server is taken during each binary's first closed
# loop; the top of each is printed and the profiles kept in OUT.
#
# The load generator is one client address, so the config raises exactly
# the edge budgets that are not what this bench measures: questions per
# address (edge.perAddress), subjects minted per address
# (edge.newSubjects: every worker is a browser with its own cookie) and
# connections per address (edge.maxConnectionsPerAddress); each subject's
# own rateLimit too, unless RATE_LIMIT asks for 429s. Sessions are written
# to the default SQLite store, as in a default deployment.
#
# Usage: bash scripts/bench-ask.sh
# Environment (all optional):
#   PAGES=2000             size of the generated site
#   CORPORA="example big"  which corpora to run
#   WORKERS=32             load generator workers (each one browser)
#   DURATION=5s WARMUP=1s  measured window and unmeasured warm-up per run
#   BASE=<commit>          also build and run that commit's askplane
#   INSIGHTS=compare       run this tree with insights off and on instead
#   ROUNDS=3               closed loops per binary when BASE is set
#   PROFILE=1              CPU profiles of the server under the closed loop
#   EXAMPLE_PUBLIC=DIR     reuse a built exampleSite public folder
#   BIG_PUBLIC=DIR         reuse a built generated-site public folder
#   OPEN_RATE=500          the arrival rate of run (b)
#   SESSIONS=memory:       the servers' session store (default: their own
#                          default, SQLite beside the config): memory: takes
#                          the store out of the figures, so a run with it
#                          and one without split a request's cost between
#                          answering and persisting
#   RATE_LIMIT=N           allow each subject (worker) N requests per minute,
#                          to see designed 429s (default: a limit no run
#                          reaches)
#   SERVER_CPUS=0 CLIENT_CPUS=1
#                          pin server and load generator with taskset
#                          (default: both share every CPU)
#   OUT=DIR                keep reports and server logs there (default: a
#                          temporary folder, removed on exit)
# The client shares the machine with the server, so absolute figures are
# a lower bound of the server's own capacity; the load average is printed
# with the results because other work on the machine skews them.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
pages=${PAGES:-2000}
corpora=${CORPORA:-example big}
workers=${WORKERS:-32}
duration=${DURATION:-5s}
warmup=${WARMUP:-1s}
base=${BASE:-}
insights=${INSIGHTS:-}
rounds=${ROUNDS:-3}
[ -n "$base" ] || [ "$insights" = compare ] || rounds=1
[ -z "$base" ] || [ "$insights" != compare ] || { echo "BASE and INSIGHTS=compare: one comparison a run" >&2; exit 2; }
work=$(mktemp -d)
out=${OUT:-$work/out}
mkdir -p "$out"
server_pid=""
cleanup() {
	if [ -n "$server_pid" ]; then
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

pin() { # pin CPUS CMD... : run CMD under taskset when CPUS is set
	local cpus=$1; shift
	if [ -n "$cpus" ]; then taskset -c "$cpus" "$@"; else "$@"; fi
}

echo "== $(date -u +%FT%TZ) on $(nproc) CPUs; load: $(uptime | sed 's/.*load average: //')"

tags=()
if [ -n "${PROFILE:-}" ]; then tags=(-tags askplane_pprof); fi
echo "== building askplane and askplane-load"
go build "${tags[@]}" -o "$work/askplane" ./sidecar/cmd/askplane
go build -o "$work/askplane-load" ./tools/cmd/askplane-load
bins=(head)
if [ -n "$base" ]; then
	echo "== building askplane at $base (BASE)"
	mkdir -p "$work/base-src"
	git archive "$base" | tar -x -C "$work/base-src"
	# The base may predate the profiling hook: it is one file of its own.
	if [ -n "${PROFILE:-}" ]; then cp sidecar/cmd/askplane/pprof.go "$work/base-src/sidecar/cmd/askplane/"; fi
	(cd "$work/base-src" && go build "${tags[@]}" -o "$work/askplane-base" ./sidecar/cmd/askplane)
	bins=(base head)
fi
# INSIGHTS=compare: the same binary, the site's insights off then on.
if [ "$insights" = compare ]; then bins=(off on); fi
hugo=$(go tool -n hugo)

# module_path TREE: the Hugo module's import path in TREE (a source tree
# of this repository): hugo-module/ since it became a module of its own,
# the repository's root before.
module_path() {
	if [ -f "$1/hugo-module/go.mod" ]; then echo github.com/askplane/askplane/hugo-module; else echo github.com/askplane/askplane; fi
}
module_dir() {
	if [ -f "$1/hugo-module/go.mod" ]; then echo "$1/hugo-module"; else echo "$1"; fi
}

hugo_build() { # hugo_build SOURCE DEST [TREE]: with TREE's module (default this tree's)
	local tree=${3:-$root}
	HUGO_MODULE_REPLACEMENTS="$(module_path "$tree") -> $(module_dir "$tree")" \
		"$hugo" --source "$1" --destination "$2" --cacheDir "$work/hugo-cache" --logLevel error >/dev/null
}

# gen_site DIR N [MODULE]: a docs site of N pages using the askplane module with the
# backend fallback, so the build emits the corpus. As in
# scripts/bench-hugo.sh the pages come from awk, but their words are drawn
# from a 6,000-word pseudo-vocabulary with a skewed (roughly Zipfian)
# frequency, so postings are as uneven as real documentation's; identical
# pages would make every query term touch the whole corpus.
gen_site() {
	local dir=$1 n=$2 module=${3:-github.com/askplane/askplane/hugo-module}
	mkdir -p "$dir/content/docs" "$dir/layouts"
	cat >"$dir/hugo.toml" <<TOML
baseURL = "https://bench.example/"
title = "Bench"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[module]
[[module.imports]]
path = "$module"
[params.askplane]
siteId = "bench-docs"
fallback = "backend"
endpoint = "/v1/ask"
TOML
	printf '<!doctype html><html><body>{{ block "main" . }}{{ end }}{{ partial "askplane/widget.html" . }}</body></html>\n' >"$dir/layouts/baseof.html"
	printf '{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}\n' >"$dir/layouts/page.html"
	cp "$dir/layouts/page.html" "$dir/layouts/section.html"
	cp "$dir/layouts/page.html" "$dir/layouts/home.html"
	awk -v n="$n" -v dir="$dir/content/docs" '
	function word(   u, i, w, k) {
		u = rand(); i = int(u * u * 6000); w = ""
		for (k = 0; k < 2 || i > 0; k++) { w = w syl[i % 24]; i = int(i / 24) }
		return w
	}
	function sentence(len,   s, k) {
		s = word()
		for (k = 1; k < len; k++) s = s " " word()
		return s "."
	}
	BEGIN {
		srand(1)
		split("ka lo mi ven tor sa rel di pon qua bri nex ul fa zer gi mo tas pe rin cor dal sen vi", s, " ")
		for (k = 1; k <= 24; k++) syl[k - 1] = s[k]
		for (p = 0; p < n; p++) {
			f = sprintf("%s/page-%05d.md", dir, p)
			printf "---\ntitle: Guide %s %s %d\ndate: 2026-07-01\n---\n%s %s\n", word(), word(), p, sentence(12), sentence(10) > f
			for (h = 0; h < 3; h++) {
				w = word()
				printf "\n## %s%s %s\n\n%s %s %s\n", toupper(substr(w, 1, 1)), substr(w, 2), word(), sentence(15), sentence(15), sentence(8) > f
			}
			close(f)
		}
	}'
}

example=${EXAMPLE_PUBLIC:-}
if [ -z "$example" ] && [[ " $corpora " == *" example "* ]]; then
	echo "== building exampleSite with the pinned Hugo"
	example=$work/example-public
	hugo_build "$root/exampleSite" "$example"
fi
big=${BIG_PUBLIC:-}
if [ -z "$big" ] && [[ " $corpora " == *" big "* ]]; then
	echo "== generating and building a $pages-page site with the pinned Hugo"
	gen_site "$work/big" "$pages"
	start=$(date +%s)
	hugo_build "$work/big" "$work/big/public"
	echo "   built in $(($(date +%s) - start)) s"
	big=$work/big/public
fi
# A base answers from the corpora its own tree's module builds: a corpus
# is part of the workload, and a base from before a corpus version change
# cannot read this tree's (the records of each are printed).
base_example="" base_big=""
if [ -n "$base" ]; then
	if [[ " $corpora " == *" example "* ]]; then
		echo "== building exampleSite at $base with its own module"
		base_example=$work/base-example-public
		hugo_build "$work/base-src/exampleSite" "$base_example" "$work/base-src"
	fi
	if [[ " $corpora " == *" big "* ]]; then
		echo "== building the $pages-page site with the module at $base"
		gen_site "$work/base-big" "$pages" "$(module_path "$work/base-src")"
		hugo_build "$work/base-big" "$work/base-big/public" "$work/base-src"
		base_big=$work/base-big/public
	fi
fi

# A random cookie secret for this run only, passed to the server through
# its environment, never written to a file or printed.
secret=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')

# write_config PUBLIC FILE [INSIGHTS] [EDGE]: one site answering from
# PUBLIC's English corpus, with a rate limit no run reaches unless
# RATE_LIMIT asks for 429s. EDGE "no" leaves out the edge section, for a
# base that predates it (its config decoder refuses unknown fields, and it
# had no per-address budgets to raise).
rate_limit='{"requests": 1000000, "windowSeconds": 1}'
if [ -n "${RATE_LIMIT:-}" ]; then rate_limit="{\"requests\": $((RATE_LIMIT)), \"windowSeconds\": 60}"; fi
write_config() {
	local public=$1 file=$2 site_insights=${3:-} edge=${4:-yes} site_id edge_json=""
	site_id=$(jq -r .siteId "$public/askplane/en/manifest.json")
	if [ "$edge" = yes ]; then
		edge_json='
  "edge": {
    "perAddress": {"requests": 1000000, "windowSeconds": 1},
    "newSubjects": {"requests": 1000000, "windowSeconds": 1},
    "maxConnectionsPerAddress": 1024
  },'
	fi
	cat >"$file" <<JSON
{
  "addr": "127.0.0.1:0",
  "metrics": true,${SESSIONS:+
  \"sessions\": \"$SESSIONS\",}$edge_json
  "sites": [{
    "site": {
      "protocol": "agentskit.chat.backend-site",
      "version": 1,
      "siteId": "$site_id",
      "assistant": {"id": "docs-guide", "name": "Docs guide"},
      "corpus": {"id": "docs-public", "mode": "local"},
      "limits": {"requestTimeoutMs": 30000, "retrievalTimeoutMs": 5000, "generationTimeoutMs": 20000, "maxSources": 5},
      "persistence": {"mode": "disabled"}
    },
    "public": "$public",
    "language": "en",
    "origins": ["http://127.0.0.1"],
    "cookieSecretEnv": "ASKPLANE_BENCH_COOKIE_SECRET",
    "secureCookie": false,
    "rateLimit": $rate_limit$site_insights
  }]
}
JSON
}

# start_server CONFIG LOG [BIN]: starts askplane serve (BIN base: the
# BASE build) on a free port (the kernel picks it: --addr 127.0.0.1:0),
# sets server_pid and server_url (and pprof_url with PROFILE), and waits
# for GET /health. Each start gets a fresh sessions database.
start_server() {
	local config=$1 log=$2 bin=${3:-head} addr=""
	local exe=$work/askplane
	if [ "$bin" = base ]; then exe=$work/askplane-base; fi
	if [ "$bin" = on ]; then config=${config%.json}-insights.json; fi
	if [ "$bin" = base ]; then config=${config%.json}-base.json; fi
	rm -rf "$(dirname "$config")/askplane-data"
	local cmd=("$exe" serve --config "$config")
	if [ -n "${SERVER_CPUS:-}" ]; then cmd=(taskset -c "$SERVER_CPUS" "${cmd[@]}"); fi
	# A plain command, not a function, so $! is the server's own pid
	# (taskset execs it), whose /proc status holds its peak RSS.
	# The log exists before the server does: the loop below reads it at
	# once, and under set -e a sed that finds no file ended the script.
	: >"$log"
	ASKPLANE_PPROF_ADDR=${PROFILE:+127.0.0.1:0} ASKPLANE_BENCH_COOKIE_SECRET=$secret "${cmd[@]}" >"$log" 2>&1 &
	server_pid=$!
	for _ in $(seq 1 300); do
		addr=$(sed -n 's|^askplane serve: listening on http://\([^/]*\)/.*|\1|p' "$log")
		[ -n "$addr" ] && break
		kill -0 "$server_pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
		sleep 0.1
	done
	[ -n "$addr" ] || { echo "askplane serve did not start" >&2; cat "$log" >&2; exit 1; }
	server_url=http://$addr
	pprof_url=""
	if [ -n "${PROFILE:-}" ]; then pprof_url=$(sed -n 's|^askplane: pprof on \(http://[^/]*\)/.*|\1|p' "$log"); fi
	for _ in $(seq 1 300); do
		curl -fsS --max-time 5 "$server_url/health" >/dev/null 2>&1 && return
		sleep 0.1
	done
	echo "askplane serve: /health never answered" >&2
	curl -sS -v --max-time 5 "$server_url/health" >&2 || true
	tail -20 "$log" >&2
	exit 1
}

# cpu_ticks prints the server's user + system CPU time, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$server_pid/stat"; }

stop_server() {
	kill "$server_pid" 2>/dev/null || true
	wait "$server_pid" 2>/dev/null || true
	server_pid=""
}

load() { # load NAME PUBLIC RATE
	pin "${CLIENT_CPUS:-}" "$work/askplane-load" --url "$server_url/v1/ask" --public "$2" \
		--workers "$workers" --rate "$3" --duration "$duration" --warmup "$warmup" \
		--print-json=false --json "$out/$1.json"
}

summary=$out/summary.tsv
printf 'corpus\trecords\tclosed req/s\tclosed answered/s\topen rate\topen answered/s\topen p50 first ms\topen p99 first ms\topen p99 first from send ms\topen p99 total ms\tclosed p99 first ms\terrors\t429\t422 (designed)\t422 unexpected\tmissed\tpeak RSS MiB\tp99 first ms at half max\n' >"$summary"

# profile NAME: a CPU profile of the server over the measured window of
# the closed loop that starts now (PROFILE=1), in the background.
profile_pid=""
profile() {
	[ -n "${PROFILE:-}" ] && [ -n "$pprof_url" ] || return 0
	local w=${warmup%s} d=${duration%s}
	(sleep "$w" && curl -fsS -o "$out/$1.pprof" "$pprof_url/debug/pprof/profile?seconds=$((d > 1 ? d - 1 : 1))") &
	profile_pid=$!
}

ratios=$out/ratios.tsv
: >"$ratios"
for name in $corpora; do
	if [ "$name" = example ]; then public=$example; else public=$big; fi
	records=$("$work/askplane-load" --public "$public" --records)
	write_config "$public" "$work/$name.json"
	write_config "$public" "$work/$name-insights.json" ',
    "insights": {"retentionDays": 30, "minCrowd": 5}'
	base_public=""
	if [ -n "$base" ]; then
		if [ "$name" = example ]; then base_public=$base_example; else base_public=$base_big; fi
		base_edge=no
		if grep -rqs maxConnectionsPerAddress "$work/base-src/internal" "$work/base-src/sidecar"; then base_edge=yes; fi
		write_config "$base_public" "$work/$name-base.json" "" "$base_edge"
		echo "== $name corpus at $base: $("$work/askplane-load" --public "$base_public" --records) records (its config's edge section: $base_edge)"
	fi
	echo "== $name corpus ($records records)"
	for round in $(seq 1 "$rounds"); do
		for bin in "${bins[@]}"; do
			start_server "$work/$name.json" "$out/$name-$bin-server.log" "$bin"
			echo "-- (a) $bin: closed loop, $workers workers, round $round/$rounds, on $server_url, pid $server_pid, load: $(uptime | sed 's/.*load average: //')"
			[ "$round" = 1 ] && profile "$name-$bin"
			# The server's CPU time over the measured window (from the end
			# of the warm-up to the end of the loop), per answer: less
			# swayed by other work on the machine than answers a second.
			(sleep "${warmup%s}"; cpu_ticks >"$work/cpu0") &
			cpu_pid=$!
			bin_public=$public
			if [ "$bin" = base ]; then bin_public=$base_public; fi
			load "$name-closed-$bin-$round" "$bin_public" 0
			cpu1=$(cpu_ticks)
			wait "$cpu_pid" || true
			if [ -n "$profile_pid" ]; then wait "$profile_pid" || true; profile_pid=""; fi
			cpu_us=$(jq -r --arg t "$((cpu1 - $(cat "$work/cpu0")))" --arg hz "$(getconf CLK_TCK)" '($t | tonumber) * 1000000 / ($hz | tonumber) / ([.answered, 1] | max) | floor' "$out/$name-closed-$bin-$round.json")
			echo "$cpu_us" >"$out/$name-cpu-$bin-$round.txt"
			jq -r --arg bin "$bin" --arg cpu "$cpu_us" '"   \($bin) answered/s \(.answeredPerSecond | floor), p99 first event \(.firstEvent.p99Ms) ms, server CPU \($cpu) us an answer"' "$out/$name-closed-$bin-$round.json"
			if [ "$bin" = "${bins[-1]}" ] && [ "$round" = "$rounds" ]; then
				cp "$out/$name-closed-$bin-$round.json" "$out/$name-closed.json"
				echo "-- (b) open loop at ${OPEN_RATE:-500} requests/s (half the target), load: $(uptime | sed 's/.*load average: //')"
				load "$name-open" "$public" "${OPEN_RATE:-500}"
				half=$(jq '(.requestsPerSecond / 2) | floor' "$out/$name-closed.json")
				[ "$half" -ge 1 ] || half=1
				echo "-- (c) open loop at $half requests/s (half the maximum), load: $(uptime | sed 's/.*load average: //')"
				load "$name-stress" "$public" "$half"
				stress_p99=$(jq '.firstEvent.p99Ms' "$out/$name-stress.json")
				rss=$(awk '/^VmHWM:/ { printf "%.1f", $2 / 1024 }' "/proc/$server_pid/status")
			fi
			stop_server
		done
	done
	for bin in "${bins[@]}"; do
		if [ -f "$out/$name-$bin.pprof" ]; then
			echo "-- CPU profile of the $bin server, $name corpus ($out/$name-$bin.pprof)"
			go tool pprof -top -nodecount=25 "$out/$name-$bin.pprof" 2>/dev/null | sed -n '1,32p'
			go tool pprof -top -cum -nodecount=40 "$out/$name-$bin.pprof" 2>/dev/null | sed -n '6,46p' >"$out/$name-$bin.cum.txt"
		fi
	done
	if [ "${#bins[@]}" = 2 ]; then
		# The median of each variant's rounds, and their ratio.
		med() { jq -s 'map(.answeredPerSecond) | sort | .[(length / 2 | floor)] | floor' "$@"; }
		b=$(med "$out/$name-closed-${bins[0]}-"*.json)
		h=$(med "$out/$name-closed-${bins[1]}-"*.json)
		medcpu() { sort -n "$@" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
		bc=$(medcpu "$out/$name-cpu-${bins[0]}-"*.txt)
		hc=$(medcpu "$out/$name-cpu-${bins[1]}-"*.txt)
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$b" "$h" "$(awk -v b="$b" -v h="$h" 'BEGIN { printf "%.3f", (b > 0 ? h / b : 0) }')" \
			"$bc" "$hc" "$(awk -v b="$bc" -v h="$hc" 'BEGIN { printf "%.3f", (b > 0 ? h / b : 0) }')" >>"$ratios"
	fi
	jq -r --arg name "$name" --arg records "$records" --arg rss "$rss" --arg stress "$stress_p99" --slurpfile c "$out/$name-closed.json" '
		[$name, $records,
		 ($c[0].requestsPerSecond | floor), ($c[0].answeredPerSecond | floor),
		 .targetRate, (.answeredPerSecond | floor),
		 .firstEvent.p50Ms, .firstEvent.p99Ms, .firstEventFromSend.p99Ms, .total.p99Ms, $c[0].firstEvent.p99Ms,
		 (.errorCount + $c[0].errorCount), (.rateLimited + $c[0].rateLimited),
		 (.noGroundedSources + $c[0].noGroundedSources - .noGroundedSourcesUnexpected - $c[0].noGroundedSourcesUnexpected),
		 (.noGroundedSourcesUnexpected + $c[0].noGroundedSourcesUnexpected),
		 .missedArrivals, $rss, $stress] | @tsv' "$out/$name-open.json" >>"$summary"
done

echo
echo "== summary ($(date -u +%FT%TZ), $(nproc) CPUs, load: $(uptime | sed 's/.*load average: //'))"
column -t -s $'\t' "$summary"
echo
awk -F'\t' 'NR > 1 {
	ok_rate = $4 >= 1000; ok_p99 = $8 <= 25; ok_err = $12 == 0
	printf "%-8s answered/s %6d / 1000 (%.2fx) %s | p99 first event at %d req/s %7.2f ms / 25 ms (%.2fx) %s (%.2f ms from send) | errors %d %s\n",
		$1, $4, $4 / 1000, ok_rate ? "ok" : "BELOW TARGET", $5, $8, $8 / 25, ok_p99 ? "ok" : "OVER TARGET", $9, $12, ok_err ? "ok" : "ERRORS"
}' "$summary"
if [ -s "$ratios" ]; then
	echo
	echo "== closed loop, answered requests/s, median of $rounds interleaved rounds: ${bins[0]} against ${bins[1]}${base:+ (BASE $base against this tree)}"
	awk -F'\t' -v a="${bins[0]}" -v b="${bins[1]}" '{ printf "%-8s %s %6d | %s %6d | ratio %sx; server CPU an answer (median): %s %d us | %s %d us | ratio %sx\n", $1, a, $2, b, $3, $4, a, $5, b, $6, $7 }' "$ratios"
fi
if [ -n "${OUT:-}" ]; then echo "reports and server logs in $out"; fi
