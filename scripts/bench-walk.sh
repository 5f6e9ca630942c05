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
# shellcheck source=scripts/bench-demo.sh
. scripts/bench-demo.sh
bench_demo "$store" "${BENCH_CLIENTS:-1000000}" 18083
go build -o "$dir/benchwalk" ./scripts/benchwalk
echo "server and bytes server on core 0 (GOMAXPROCS=1), benchwalk on core 1"
taskset -c 1 "$dir/benchwalk" -api http://127.0.0.1:18083 -token "$token" "$@"
echo "server's peak RSS: $(awk '/VmHWM/ {print $2, $3}' "/proc/$pid/status")"
