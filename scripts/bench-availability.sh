#!/usr/bin/env bash
# Load test of GET /v1/availability_slots on a real server on 127.0.0.1:
# writes the benchmark clinic (one practitioner with 2,000 appointments and
# 500 busy times in the month from next Monday, nineteen more with 120
# and 30) into a new database, starts `practiced serve` on it, and runs
# hey: 200 requests of each query one at a time, then 64 connections at
# once on the practitioner's month and on the location's, after which it
# prints the server's peak RSS. hey sends a multiple of its connections
# (2,944 and 1,472 requests). Needs hey (Debian's package, installed here
# when missing).
#
#   bash scripts/bench-availability.sh              # SQLite
#   bash scripts/bench-availability.sh postgres     # PostgreSQL ($PRACTICED_TEST_POSTGRES's server)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v hey >/dev/null 2>&1; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq hey >/dev/null
fi
# shellcheck source=scripts/bench-demo.sh
. scripts/bench-demo.sh
bench_db "${1:-sqlite}"
PRACTICED_BENCH_DB="$db" go test ./httpapi/ -run '^TestWriteBenchDatabase$' -count=1 -v > "$dir/out.txt"
eval "$(grep -E '^(TOKEN|ONE|ALL|FIRST)=' "$dir/out.txt" | sed 's/^\([A-Z]*\)=\(.*\)$/\1='"'"'\2'"'"'/')"
go build -o "$dir/practiced" ./cmd/practiced
"$dir/practiced" serve --db "$db" --addr 127.0.0.1:18080 --rate-limit 1000000000 2>"$dir/serve.log" &
pid=$!
bench_ready 18080
echo "store: $store"
for name in ONE ALL FIRST; do
	echo "== $name: ${!name}"
	hey -n 200 -c 1 -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:18080${!name}" | grep -E 'Requests/sec|Average|50%|90%|99%|\[200\]'
done
echo "== 64 connections: 3,000 requests of ONE, then 1,500 of ALL"
hey -n 3000 -c 64 -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:18080$ONE" | grep -E 'Requests/sec|\[200\]'
hey -n 1500 -c 64 -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:18080$ALL" | grep -E 'Requests/sec|\[200\]'
echo "server's peak RSS: $(awk '/VmHWM/ {print $2, $3}' "/proc/$pid/status")"
