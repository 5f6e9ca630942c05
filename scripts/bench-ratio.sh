#!/usr/bin/env bash
# Measures the API against the machine's limit, side by side in one run:
# loads the demo clinic with 10,000 clients, serves it pinned to core 0
# with GOMAXPROCS=1, and for each workload (a page of 100 clients,
# availability for one practitioner and a whole location, creating a busy
# time) runs wrk from core 1 against the server and against a server that
# writes the same answer's bytes from memory (also on core 0), alternating
# three rounds. It prints both throughputs and their ratio.
#
#   bash scripts/bench-ratio.sh                 # SQLite
#   bash scripts/bench-ratio.sh postgres        # PostgreSQL ($PRACTICED_TEST_POSTGRES's server)
#
# Extra arguments go to scripts/benchratio (-rounds, -duration, -only …).
# Needs wrk (Debian's package, installed here when missing) and taskset.
set -euo pipefail
cd "$(dirname "$0")/.."
store="${1:-sqlite}"
shift || true
if ! command -v wrk >/dev/null 2>&1; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq wrk >/dev/null
fi
dir="$(mktemp -d)"
dbname="practiced_bench_$$"
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
sqlite) db="sqlite:$dir/bench.db" ;;
postgres)
	psql -q "$pg" -c "CREATE DATABASE $dbname" >/dev/null
	db="$(echo "$pg" | sed -E "s#/[^/?]+(\?|$)#/$dbname\1#")"
	;;
*) echo "usage: $0 [sqlite|postgres] [benchratio flags]" >&2; exit 2 ;;
esac
go build -o "$dir/practiced" ./cmd/practiced
go build -o "$dir/benchratio" ./scripts/benchratio
token="$("$dir/practiced" demo --db "$db" --clients 10000 2>"$dir/demo.log")" || { tail -5 "$dir/demo.log" >&2; exit 1; }
GOMAXPROCS=1 taskset -c 0 "$dir/practiced" serve --db "$db" --addr 127.0.0.1:18081 --rate-limit 1000000000 --page-rate 1000000000 2>"$dir/serve.log" >/dev/null &
pid=$!
for _ in $(seq 100); do curl -fs http://127.0.0.1:18081/readyz >/dev/null && break; sleep 0.1; done
curl -fs http://127.0.0.1:18081/readyz >/dev/null || { cat "$dir/serve.log" >&2; exit 1; }
echo "store: $store; server and bytes server on core 0 (GOMAXPROCS=1), wrk on core 1"
GOMAXPROCS=1 taskset -c 0 "$dir/benchratio" -api http://127.0.0.1:18081 -token "$token" -wrk "taskset -c 1 wrk" "$@"
