# Sourced by the bench scripts, from the repository's root.
#
# bench_demo STORE CLIENTS PORT makes a new database on STORE
# (sqlite, or postgres on $PRACTICED_TEST_POSTGRES's server), builds
# practiced into $dir, loads a demo clinic of CLIENTS clients into it
# (setting $token, and printing how long the load took), and serves it
# on 127.0.0.1:PORT, which must be free, pinned to core 0 with
# GOMAXPROCS=1 (setting $pid) once it answers /readyz. The server, the
# database and $dir go when the script exits.
bench_demo() {
	local clients="$2" port="$3"
	bench_db "$1"
	if curl -s -o /dev/null "http://127.0.0.1:$port/"; then
		echo "127.0.0.1:$port is in use already: stop what serves there first" >&2
		exit 1
	fi
	go build -o "$dir/practiced" ./cmd/practiced
	local start end
	start="$(date +%s.%N)"
	token="$("$dir/practiced" demo --db "$db" --clients "$clients" 2>"$dir/demo.log")" || { tail -5 "$dir/demo.log" >&2; exit 1; }
	end="$(date +%s.%N)"
	echo "store: $store; load of $clients clients: $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }') s"
	GOMAXPROCS=1 taskset -c 0 "$dir/practiced" serve --db "$db" --addr "127.0.0.1:$port" --rate-limit 1000000000 --page-rate 1000000000 2>"$dir/serve.log" >/dev/null &
	pid=$!
	bench_ready "$port"
}

# bench_db STORE makes $dir, a new directory, and a new database on
# STORE (sqlite, or postgres on $PRACTICED_TEST_POSTGRES's server), and
# sets $db to its --db value. Both go when the script exits.
bench_db() {
	store="$1"
	dir="$(mktemp -d)"
	dbname="practiced_bench_$$"
	pg="${PRACTICED_TEST_POSTGRES:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}"
	trap bench_cleanup EXIT
	case "$store" in
	sqlite) db="sqlite:$dir/bench.db" ;;
	postgres)
		psql -q "$pg" -c "CREATE DATABASE $dbname" >/dev/null
		db="$(echo "$pg" | sed -E "s#/[^/?]+(\?|$)#/$dbname\1#")"
		;;
	*) echo "usage: $0 [sqlite|postgres] [flags]" >&2; exit 2 ;;
	esac
}

# bench_ready PORT waits for the server on 127.0.0.1:PORT to answer
# /readyz, for up to 30 seconds, and else ends the script with the
# server's log, $dir/serve.log.
bench_ready() {
	for _ in $(seq 300); do
		curl -fs "http://127.0.0.1:$1/readyz" >/dev/null && return 0
		sleep 0.1
	done
	cat "$dir/serve.log" >&2
	exit 1
}

bench_cleanup() {
	if [ -n "${pid:-}" ]; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	if [ "${store:-}" = postgres ]; then psql -q "$pg" -c "DROP DATABASE IF EXISTS $dbname" >/dev/null 2>&1 || true; fi
	rm -rf "${dir:?}"
}
