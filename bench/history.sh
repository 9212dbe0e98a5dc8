#!/bin/bash
# bench/history.sh: the run history's speed and size, for the notes (not a
# test): the size on disk of a record with two 256-CPU snapshots, what
# writing a record adds to a test's end (--debug says it), and the time of
# "pipescope history" over 10,000 runs.
#   bench/history.sh [-n RUNS] [-p PORT]     (from the build directory)
# Prints the figures and exits 1 when one misses its target (100 KB,
# 20 ms, 200 ms). Needs sqlite3.
set -u
N=10000
PORT=$((30000 + $$ % 20000))
while [ $# -gt 0 ]; do
	case $1 in
	-n) N=$2; shift ;;
	-p) PORT=$2; shift ;;
	*) echo "usage: $0 [-n RUNS] [-p PORT]" >&2; exit 2 ;;
	esac
	shift
done
top=$(cd "$(dirname "$0")/.." && pwd)
PIPESCOPE=${PIPESCOPE:-$top/pipescope}
WIDE=$top/tests/fixtures/machines/wide-256cpu
[ -x "$PIPESCOPE" ] || { echo "history: build pipescope first" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "history: needs sqlite3" >&2; exit 2; }
T=$(mktemp -d)
srv=""
trap '[ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$T"' EXIT
H=$T/h.db
export PIPESCOPE_HISTORY=$H
bad=0
ms() { echo $(( $(date +%s%N) / 1000000 )); }

# a server that shares the 256-CPU tree's snapshot as its own
"$PIPESCOPE" -s -p "$PORT" --sysroot "$WIDE" >/dev/null 2>&1 &
srv=$!
sleep 0.5

# ---- what a record adds to a test's end ----
# wall clock, and the CPU the record's work took (what an idle machine's
# wall clock would be: the commit does not wait for the disk)
for i in 1 2 3 4 5 6 7 8 9 10; do
	"$PIPESCOPE" -c 127.0.0.1 -p "$PORT" -t 1 -J --debug 2>&1 >/dev/null |
		sed -n 's/.*the record added \([0-9.]*\) ms.*(\([0-9.]*\) ms of CPU).*/\1 \2/p'
done >"$T/added"
stat3() { sort -n | awk '{ v[NR] = $1 } END { printf "%s / %s / %s", v[1], v[int((NR + 1) / 2)], v[NR] }'; }
echo "write: the record added $(cut -d' ' -f1 "$T/added" | stat3) ms (min/median/max of 10) to a 1 s -J test's end,"
echo "       $(cut -d' ' -f2 "$T/added" | stat3) ms of CPU (load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs)"
med=$(cut -d' ' -f2 "$T/added" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
awk -v m="$med" 'BEGIN { exit !(m < 20) }' || { echo "  MISSED: 20 ms of CPU"; bad=1; }
kill "$srv" 2>/dev/null
wait "$srv" 2>/dev/null
srv=""

# ---- a record with two 256-CPU snapshots ----
"$PIPESCOPE" check --snapshot "$top/tests/fixtures/golden/wide-256cpu.json" \
	>/dev/null 2>&1
q() { sqlite3 "$H" "$1"; }
last=$(q "SELECT max(id) FROM runs")
test1=$(q "SELECT min(id) FROM runs")
# the static check's record with the test's -J document and its far end
# (the 256-CPU server) beside the 256-CPU snapshot of this end
q "UPDATE documents SET result = (SELECT result FROM documents WHERE run = $test1) WHERE run = $last;
   INSERT INTO snapshots SELECT $last, 1, encoding, size, data FROM snapshots WHERE run = $test1 AND side = 1;"
rec=$(q "SELECT length(result) + length(params) + length(extras) + length(check_report) + (SELECT sum(length(data)) FROM snapshots WHERE run = $last) FROM documents WHERE run = $last")
raw=$(q "SELECT sum(size) FROM snapshots WHERE run = $last")
# on disk: 50 copies of it, the file's growth over 50
q "PRAGMA wal_checkpoint(TRUNCATE); VACUUM;" >/dev/null
s0=$(stat -c %s "$H")
for i in $(seq 50); do
	echo "INSERT INTO runs (time_ns, kind, target, direction, streams, bps, top_finding, host, proto, port, spread) SELECT time_ns + $i, kind, target, direction, streams, bps, top_finding, host, proto, port, spread FROM runs WHERE id = $last;
INSERT INTO documents SELECT last_insert_rowid(), result, params, extras, check_report FROM documents WHERE run = $last;
INSERT INTO snapshots SELECT (SELECT max(id) FROM runs), side, encoding, size, data FROM snapshots WHERE run = $last;"
done | sqlite3 "$H"
q "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
s1=$(stat -c %s "$H")
per=$(((s1 - s0) / 50))
echo "size: a record with two 256-CPU snapshots ($((raw / 1024)) KB of JSON) is $((rec / 1024)) KB of data, $((per / 1024)) KB on disk"
[ "$per" -lt 102400 ] || { echo "  MISSED: 100 KB"; bad=1; }

# ---- history over N runs ----
have=$(q "SELECT count(*) FROM runs")
q "BEGIN;
   WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < $N - $have)
   INSERT INTO runs (time_ns, kind, target, direction, streams, bps, top_finding, host, proto, port, spread)
   SELECT r.time_ns + k.i, r.kind, '10.0.0.' || (k.i % 7), r.direction, 1 + k.i % 8, r.bps * (0.9 + (k.i % 10) / 50.0), r.top_finding, r.host, r.proto, r.port, r.spread
   FROM k, runs r WHERE r.id = $last;
   INSERT INTO documents SELECT id, (SELECT result FROM documents WHERE run = $last), (SELECT params FROM documents WHERE run = $last), (SELECT extras FROM documents WHERE run = $last), (SELECT check_report FROM documents WHERE run = $last) FROM runs WHERE id NOT IN (SELECT run FROM documents);
   INSERT INTO snapshots SELECT id, 0, 'zlib', (SELECT size FROM snapshots WHERE run = $last AND side = 0), (SELECT data FROM snapshots WHERE run = $last AND side = 0) FROM runs WHERE id NOT IN (SELECT run FROM snapshots);
   COMMIT;"
echo "list: $(q "SELECT count(*) FROM runs") runs, $(($(stat -c %s "$H") / 1048576)) MB"
best=999999
for i in 1 2 3 4 5; do
	t0=$(ms)
	"$PIPESCOPE" history >/dev/null
	t=$(($(ms) - t0))
	[ "$t" -lt "$best" ] && best=$t
done
t0=$(ms)
q "SELECT id, time_ns, kind, target, direction, streams, bps, top_finding, host FROM runs ORDER BY time_ns DESC" >/dev/null
echo "      (sqlite3's own shell reads the same columns in $(($(ms) - t0)) ms)"
lines=$("$PIPESCOPE" history | wc -l)
echo "      'pipescope history' lists $((lines - 1)) runs in $best ms (best of 5)"
[ "$best" -lt 200 ] || { echo "  MISSED: 200 ms"; bad=1; }
t0=$(ms)
"$PIPESCOPE" history -c 10.0.0.3 --last 20 >/dev/null
echo "      'history -c HOST --last 20' in $(($(ms) - t0)) ms"
t0=$(ms)
"$PIPESCOPE" compare >/dev/null
echo "      'compare' (the last two, two 256-CPU snapshots each) in $(($(ms) - t0)) ms"
[ -n "${KEEP:-}" ] && { q "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null; cp "$H" "$KEEP"; }
exit $bad
