#!/usr/bin/env bash
# Measures the API against the machine's limit, side by side in one run:
# loads the demo clinic with 10,000 clients, serves it pinned to core 0
# with GOMAXPROCS=1, and for each workload (a page of 100 clients,
# availability for one practitioner and a whole location, creating a busy
# time) runs wrk from core 1 against the server and against a server that
# writes the same answer's bytes from memory (also on core 0), alternating
# three rounds. It prints both throughputs and their ratio, and the
# server's processor time (user and system) for each of its requests.
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
# shellcheck source=scripts/bench-demo.sh
. scripts/bench-demo.sh
bench_demo "$store" 10000 18081
go build -o "$dir/benchratio" ./scripts/benchratio
echo "server and bytes server on core 0 (GOMAXPROCS=1), wrk on core 1"
GOMAXPROCS=1 taskset -c 0 "$dir/benchratio" -api http://127.0.0.1:18081 -token "$token" -wrk "taskset -c 1 wrk" -pid "$pid" "$@"
