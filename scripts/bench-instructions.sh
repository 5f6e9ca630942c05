#!/usr/bin/env bash
# Counts the instructions of one busy time's insert on SQLite, with its
# event, in a transaction of the committer (BenchmarkInsertBusyTime in
# sqlstore/insert_bench_test.go): a figure a shared machine's other
# work does not move, where the time it takes varies by a third from one
# run to the next. It runs the benchmark under valgrind's cachegrind for
# 2,000 inserts and for 4,000, three times each, and prints the
# difference of the fewest instructions counted at each length over the
# 2,000 inserts between them, which leaves out the test binary's start,
# the database's making and everything else done once. (Now and then,
# more often while other work runs, a run counts billions more, from a
# thread that spins while valgrind runs threads one at a time; the
# fewest of three leaves such runs out, and the script says when even
# the fewest looks like one.)
#
#   bash scripts/bench-instructions.sh
#
# Needs valgrind (Debian's package, installed here when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v valgrind >/dev/null 2>&1; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq valgrind >/dev/null
fi
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
go test -c -o "$dir/sqlstore.test" ./sqlstore/
# count N prints the fewest instructions counted in three runs of N
# inserts.
count() {
	local best="" n
	for _ in 1 2 3; do
		n="$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
			"$dir/sqlstore.test" -test.run '^$' -test.bench '^BenchmarkInsertBusyTime$' \
			-test.benchtime "${1}x" -test.count 1 -test.cpu 1 2>&1 |
			awk '/I +refs:/ { gsub(",", "", $NF); print $NF }')"
		if [ -z "$best" ] || [ "$n" -lt "$best" ]; then best="$n"; fi
	done
	echo "$best"
}
short="$(count 2000)"
long="$(count 4000)"
echo "instructions: $short for 2,000 inserts, $long for 4,000"
each=$(((long - short) / 2000))
echo "one busy time's insert: $each instructions"
# An insert takes a few hundred thousand: far fewer, or millions, means
# that a run of one length spun in all three tries.
if [ "$each" -lt 100000 ] || [ "$each" -gt 2000000 ]; then
	echo "a run spun: run the script again on a quieter machine" >&2
	exit 1
fi
