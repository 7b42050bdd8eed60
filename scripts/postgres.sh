#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the session store tests
# (internal/store). It lives in one folder and listens only on 127.0.0.1
# and a unix socket inside that folder, with trust authentication, so it
# needs no password and touches no system cluster.
#
#   bash scripts/postgres.sh available     exit 0 when initdb and pg_ctl are found
#   bash scripts/postgres.sh start [DIR]   start a cluster in DIR (default: a new
#                                          temp folder, named on stderr) and print
#                                          its URL on stdout
#   bash scripts/postgres.sh stop DIR      stop that cluster and delete DIR
#
# The binaries come from PATH or from Debian's /usr/lib/postgresql/<ver>/bin
# (the newest version). initdb refuses to run as root, so as root the folder
# is handed to the postgres user and the server runs as that user.
set -euo pipefail

die() { echo "postgres.sh: $*" >&2; exit 1; }

bindir() {
	# PATH may hold symlinks to a few of the binaries only (initdb, pg_ctl),
	# so the folder is the one the symlink resolves to.
	local d
	for d in $(command -v initdb >/dev/null && dirname "$(readlink -f "$(command -v initdb)")") \
		$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV); do
		if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/createdb" ]; then
			echo "$d"
			return
		fi
	done
	return 1
}

# as runs a PostgreSQL binary as the postgres user when we are root.
as() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

# port_free reports whether nothing accepts connections on 127.0.0.1:$1.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() {
	local bin dir port url tries
	bin=$(bindir) || die "initdb/pg_ctl not found in PATH or /usr/lib/postgresql/*/bin (Debian: apt-get install postgresql)"
	dir=${1:-}
	if [ -z "$dir" ]; then
		dir=$(mktemp -d /tmp/askplane-pg.XXXXXX)
		echo "postgres.sh: cluster in $dir (stop with: bash scripts/postgres.sh stop $dir)" >&2
	fi
	mkdir -p "$dir"
	[ -z "$(ls -A "$dir")" ] || die "$dir is not empty"
	if [ "$(id -u)" = 0 ]; then
		id postgres >/dev/null 2>&1 || die "running as root needs a postgres user (Debian's postgresql package creates it)"
		chown postgres: "$dir"
	fi
	as "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 ||
		die "initdb failed; see $dir/initdb.log"
	# A free port, chosen at random and retried: another process can take
	# it between the check and the server's bind.
	for tries in 1 2 3 4 5 6 7 8; do
		port=$((20000 + RANDOM % 40000))
		port_free "$port" || continue
		if as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
			-o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100" \
			start >/dev/null; then
			url="postgres://postgres@127.0.0.1:$port/askplane_test?sslmode=disable"
			as "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres askplane_test ||
				{ stop "$dir"; die "createdb failed"; }
			echo "$url"
			return
		fi
	done
	die "the server did not start; see $dir/server.log"
}

stop() {
	local dir=${1:-} bin
	[ -n "$dir" ] || die "usage: postgres.sh stop DIR"
	if [ -f "$dir/data/postmaster.pid" ] && bin=$(bindir); then
		as "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
	fi
	case "$dir" in
	/tmp/* | "${TMPDIR:-/tmp}"/*) rm -rf "$dir" ;;
	*) echo "postgres.sh: left $dir in place (not under a temp folder)" >&2 ;;
	esac
}

case "${1:-}" in
available) bindir >/dev/null ;;
start) start "${2:-}" ;;
stop) stop "${2:-}" ;;
*) die "usage: postgres.sh available | start [DIR] | stop DIR" ;;
esac
