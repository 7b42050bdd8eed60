#!/usr/bin/env bash
# Measures what the askplane module costs a Hugo build. For each size it
# generates a docs site (pages with headings; the first 1,000 pages declare
# a fact each) and builds it with the pinned Hugo four ways in one run:
# without the module (same layouts minus the partial), with the module and
# no Ask backend (facts only), with a backend (facts plus the corpus), the
# last two with params.askplane.markdown = false; and the module as a site
# gets it by default (facts, corpus, and the Markdown twins, llms.txt and
# llms-full.txt). It prints the first three ratios against the build
# without the module, the twins' ratio against the build with the corpus
# and no twins (the issue's "<= 1.10x the module build"), artifact bytes
# per entry (raw and gzip) and the corpus size.
#
# The machine is shared, so each variant is built ROUNDS times (default 3),
# the three interleaved, and the fastest build of each counts: contention
# only ever adds time, and interleaving spreads it over all three. It also
# prints the ratios of CPU time (user + system, fastest of the rounds),
# which contention disturbs far less than wall time.
# MODULE points the import at another checkout (default: this one), to
# measure an older version of the templates with the same sites.
# FACTS sets how many pages declare a fact (default 1,000; 0 measures the
# module's cost with no facts at all).
# THEME=docs gives every variant the same documentation-theme layout (menu,
# a sidebar of the section's pages, breadcrumbs, table of contents,
# previous/next) instead of the bare one (the default), whose pages cost
# Hugo almost nothing, so the module's share is the largest it can be.
# The sites and builds go under TMPDIR (mktemp): TMPDIR=/dev/shm keeps the
# disk out of the figures.
# Usage: [ROUNDS=n] [MODULE=dir] [FACTS=n] [THEME=bare|docs] [TMPDIR=dir] bash scripts/bench-hugo.sh [SIZES...]
#        (default sizes: 1000 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
root=${MODULE:-$(pwd)}
rounds=${ROUNDS:-3}
hugo=$(go tool -n hugo)
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

gen() { # gen DIR N WITH_MODULE [FALLBACK] [MARKDOWN (true, false or "" for the default)]
	local dir=$1 n=$2 with=$3 fallback=${4:-disabled} markdown=${5:-}
	mkdir -p "$dir/content/docs" "$dir/layouts"
	cat > "$dir/hugo.toml" <<TOML
baseURL = "https://bench.example/"
title = "Bench"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[params.askplane]
siteId = "bench"
fallback = "$fallback"
endpoint = "/v1/ask"
TOML
	[ -z "$markdown" ] || printf 'markdown = %s\n' "$markdown" >> "$dir/hugo.toml"
	local partial=""
	if [ "$with" = 1 ]; then
		printf '[module]\n[[module.imports]]\npath = "github.com/askplane/askplane/hugo-module"\n' >> "$dir/hugo.toml"
		partial='{{ partial "askplane/widget.html" . }}'
	fi
	if [ "${THEME:-bare}" = docs ]; then
		# What a documentation theme does on every page: a head with
		# meta, a top menu, a sidebar listing the section's first 50
		# pages, breadcrumbs, the table of contents, previous and next
		# links, and a footer.
		cat > "$dir/layouts/baseof.html" <<HTML
<!doctype html><html lang="{{ site.Language.Lang }}"><head><meta charset="utf-8"><title>{{ .Title }} | {{ site.Title }}</title>
<meta name="description" content="{{ .Summary | plainify | truncate 150 }}"><link rel="canonical" href="{{ .Permalink }}"></head>
<body><header><a href="{{ site.Home.RelPermalink }}">{{ site.Title }}</a><nav>{{ range site.Sections }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</nav></header>
<aside><ul>{{ with .CurrentSection }}{{ range first 50 .Pages }}<li><a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a></li>{{ end }}{{ end }}</ul></aside>
<main><nav>{{ range .Ancestors.Reverse }}<a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a> / {{ end }}</nav>{{ block "main" . }}{{ end }}
{{ with .PrevInSection }}<a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a>{{ end }}{{ with .NextInSection }}<a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a>{{ end }}</main>
<footer>{{ now.Year }} {{ site.Title }}</footer>$partial</body></html>
HTML
		printf '{{ define "main" }}<h1>{{ .Title }}</h1><nav>{{ .TableOfContents }}</nav>{{ .Content }}{{ end }}\n' > "$dir/layouts/page.html"
	else
		printf '<!doctype html><html><body>{{ block "main" . }}{{ end }}%s</body></html>\n' "$partial" > "$dir/layouts/baseof.html"
		printf '{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}\n' > "$dir/layouts/page.html"
	fi
	cp "$dir/layouts/page.html" "$dir/layouts/section.html"; cp "$dir/layouts/page.html" "$dir/layouts/home.html"
	awk -v n="$n" -v facts="${FACTS:-1000}" -v dir="$dir/content/docs" 'BEGIN {
		for (i = 0; i < n; i++) {
			f = sprintf("%s/page-%05d.md", dir, i)
			printf "---\ntitle: Page %d\ndate: 2026-07-01\n", i > f
			if (i < facts) {
				printf "askplane:\n  facts:\n    - id: fact-%05d\n      kind: command\n      label: Run task %d\n      match: [run task %d, task %d command, tasks]\n      answer: Run `askplane task %d` to do it.\n", i, i, i, i, i > f
			}
			printf "---\nIntroduction to page %d with some words about tasks and flags.\n\n## Usage\n\nUse it like this, with flags and options explained in detail.\n\n## Options\n\nEvery option has a default and a reason.\n\n### Advanced\n\nMore text for retrieval to find.\n", i > f
			close(f)
		}
	}'
}

build() { # build DIR -> "wall-seconds cpu-seconds" (cpu: user + system)
	local t
	t=$(mktemp -p "$work")
	HUGO_MODULE_REPLACEMENTS="github.com/askplane/askplane/hugo-module -> $root/hugo-module" /usr/bin/time -f '%e %U %S' -o "$t" \
		"$hugo" --source "$1" --destination "$1/public" --cacheDir "$work/cache" --logLevel error >/dev/null
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$t"
}

min() { # min A B -> the smaller number
	if [ "$(echo "$1 < $2" | bc)" = 1 ]; then echo "$1"; else echo "$2"; fi
}

for n in "${sizes[@]}"; do
	gen "$work/without-$n" "$n" 0
	gen "$work/facts-$n" "$n" 1 disabled false
	gen "$work/corpus-$n" "$n" 1 backend false
	gen "$work/twins-$n" "$n" 1 backend
	for v in without facts corpus twins; do build "$work/$v-$n" >/dev/null; done # warm caches
	[ -f "$work/twins-$n/public/docs/page-00000/index.md" ] && { [ -f "$work/twins-$n/public/llms.txt" ] || [ -n "${MODULE:-}" ]; } && [ ! -e "$work/corpus-$n/public/llms.txt" ] ||
		{ echo "bench-hugo: the twins variant published no twin, or markdown = false did" >&2; exit 1; }
	declare -A wall=([without]=999999 [facts]=999999 [corpus]=999999 [twins]=999999) cpu=([without]=999999 [facts]=999999 [corpus]=999999 [twins]=999999)
	for ((r = 0; r < rounds; r++)); do
		for v in without facts corpus twins; do
			read -r w c < <(build "$work/$v-$n")
			wall[$v]=$(min "${wall[$v]}" "$w"); cpu[$v]=$(min "${cpu[$v]}" "$c")
		done
	done
	without=${wall[without]}; facts=${wall[facts]}; corpus=${wall[corpus]}; twins=${wall[twins]}
	art=$(ls "$work/corpus-$n/public/askplane/en/"knowledge.*.json)
	cf=$(ls "$work/corpus-$n/public/askplane/en/"corpus.*.json)
	entries=$( (grep -o '"kind":' "$art" || true) | wc -l); [ "$entries" -gt 0 ] || entries=1
	raw=$(stat -c %s "$art"); gz=$(gzip -9c "$art" | wc -c)
	printf '%6d pages (%s layout), fastest of %d: without module %.2fs; facts only %.2fs (%.2fx); facts + corpus %.2fs (%.2fx)\n' \
		"$n" "${THEME:-bare}" "$rounds" "$without" "$facts" "$(echo "$facts / $without" | bc -l)" "$corpus" "$(echo "$corpus / $without" | bc -l)"
	printf '              CPU (user + system): without %.2fs; facts only %.2fx; facts + corpus %.2fx\n' \
		"${cpu[without]}" "$(echo "${cpu[facts]} / ${cpu[without]}" | bc -l)" "$(echo "${cpu[corpus]} / ${cpu[without]}" | bc -l)"
	printf '              default (facts + corpus + Markdown twins, llms.txt): %.2fs, %.2fx the module without twins (CPU %.2fs, %.2fx)\n' \
		"$twins" "$(echo "$twins / $corpus" | bc -l)" "${cpu[twins]}" "$(echo "${cpu[twins]} / ${cpu[corpus]}" | bc -l)"
	printf '              artifact %d entries, %d B/entry raw, %d B/entry gzip; corpus %d KiB (%d KiB gzip)\n' \
		"$entries" $((raw / entries)) $((gz / entries)) $(( $(stat -c %s "$cf") / 1024 )) $(( $(gzip -9c "$cf" | wc -c) / 1024 ))
done
