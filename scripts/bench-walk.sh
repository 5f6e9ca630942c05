#!/usr/bin/env bash
# Measures the million-client walk in one run: loads a demo clinic of
# BENCH_CLIENTS clients (1,000,000 unless set) into a new database and
# prints how long the load took, serves it pinned to core 0 with
# GOMAXPROCS=1, and runs scripts/benchwalk from core 1: the walk through
# links.next, then the first page and a deep page, none from the page
# cache, each beside the same bytes from a server that keeps them in
# memory (pinned to core 0 as well). Last it prints the server's peak
# RSS.
#
#   bash scripts/bench-walk.sh                          # SQLite
#   bash scripts/bench-walk.sh postgres                 # PostgreSQL ($PRACTICED_TEST_POSTGRES's server)
#   bash scripts/bench-walk.sh sqlite -deep 1000 -samples 500
#
# Extra arguments go to scripts/benchwalk. Needs taskset and about 3 GB
# of disk for a million clients.
set -euo pipefail
cd "$(dirname "$0")/.."
store="${1:-sqlite}"
shift || true
clients="${BENCH_CLIENTS:-1000000}"
dir="$(mktemp -d)"
dbname="practiced_walk_$$"
pg="${PRACTICED_TEST_POSTGRES:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}"
cleanup() {
	if [ -n "${pid:-}" ]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	if [ "$store" = postgres ]; then psql -q "$pg" -c "DROP DATABASE IF EXISTS $dbname" >/dev/null 2>&1 || true; fi
	rm -rf "$dir"
}
trap cleanup EXIT
case "$store" in
sqlite) db="sqlite:$dir/walk.db" ;;
postgres)
	psql -q "$pg" -c "CREATE DATABASE $dbname" >/dev/null
	db="$(echo "$pg" | sed -E "s#/[^/?]+(\?|$)#/$dbname\1#")"
	;;
*) echo "usage: $0 [sqlite|postgres] [benchwalk flags]" >&2; exit 2 ;;
esac
go build -o "$dir/practiced" ./cmd/practiced
go build -o "$dir/benchwalk" ./scripts/benchwalk
start="$(date +%s.%N)"
token="$("$dir/practiced" demo --db "$db" --clients "$clients" 2>"$dir/demo.log")" || { tail -5 "$dir/demo.log" >&2; exit 1; }
end="$(date +%s.%N)"
echo "store: $store; load of $clients clients: $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }') s"
GOMAXPROCS=1 taskset -c 0 "$dir/practiced" serve --db "$db" --addr 127.0.0.1:18083 --rate-limit 1000000000 --page-rate 1000000000 2>"$dir/serve.log" >/dev/null &
pid=$!
for _ in $(seq 300); do curl -fs http://127.0.0.1:18083/readyz >/dev/null && break; sleep 0.1; done
curl -fs http://127.0.0.1:18083/readyz >/dev/null || { cat "$dir/serve.log" >&2; exit 1; }
echo "server and bytes server on core 0 (GOMAXPROCS=1), benchwalk on core 1"
taskset -c 1 "$dir/benchwalk" -api http://127.0.0.1:18083 -token "$token" -pin "taskset -c 0" "$@"
echo "server's peak RSS: $(awk '/VmHWM/ {print $2, $3}' "/proc/$pid/status")"
