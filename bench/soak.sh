#!/bin/bash
# bench/soak.sh: does "pipescope -s" leak? N back-to-back short tests
# (default 500) against one server on loopback, mixed TCP/UDP, forward,
# reverse and bidirectional, 1 to 16 streams; the server's RSS, fd count and
# thread count are sampled after test 50 (the baseline, once every path has
# run) and every 50 tests after; flat means within the tolerance below.
#
#   bench/soak.sh [-n N] [-t SEC] [-p PORT] [--rss-slack KB]
# Exit 0 when flat, 1 when something grew or a test failed. Not part of
# "make check" (it takes a few minutes); put the table in your notes.
set -u
N=500
T=0.2
PORT=$(( 30000 + $$ % 20000 ))
RSS_SLACK=1024		# kB the RSS may grow from test 50 to the end
while [ $# -gt 0 ]; do
	case $1 in
	-n) N=$2; shift ;;
	-t) T=$2; shift ;;
	-p) PORT=$2; shift ;;
	--rss-slack) RSS_SLACK=$2; shift ;;
	*) echo "usage: $0 [-n N] [-t SEC] [-p PORT] [--rss-slack KB]" >&2; exit 2 ;;
	esac
	shift
done
top=$(cd "$(dirname "$0")/.." && pwd)
PIPESCOPE=${PIPESCOPE:-$top/pipescope}
[ -x "$PIPESCOPE" ] || { echo "soak: build pipescope first ($PIPESCOPE)" >&2; exit 2; }
log=$(mktemp)
"$PIPESCOPE" -s -p "$PORT" -i 0 >"$log" 2>&1 &
srv=$!
trap 'kill $srv 2>/dev/null; wait $srv 2>/dev/null; rm -f "$log" "$log.err"' EXIT
for _ in $(seq 50); do
	ss -Htln "sport = :$PORT" | grep -q . && break
	sleep 0.1
done

rss() { awk '/^VmRSS/ { print $2 }' "/proc/$srv/status"; }
hwm() { awk '/^VmHWM/ { print $2 }' "/proc/$srv/status"; }
fds() { ls "/proc/$srv/fd" | wc -l; }
thr() { ls "/proc/$srv/task" | wc -l; }

fails=0
declare -A kinds
printf '%6s %9s %9s %5s %7s %8s\n' test rss_kB hwm_kB fds threads elapsed
t0=$SECONDS
for i in $(seq 1 "$N"); do
	streams=$(( 1 + (i * 7) % 16 ))
	case $(( i % 3 )) in
	0) dir="" ;;
	1) dir="-R" ;;
	2) dir="--bidir" ;;
	esac
	if [ $(( i % 4 )) = 3 ]; then
		proto="-u -b 20M"
		kind=udp
	else
		proto=""
		kind=tcp
	fi
	kinds["$kind${dir:- fwd}"]=$(( ${kinds["$kind${dir:- fwd}"]:-0} + 1 ))
	# shellcheck disable=SC2086
	if ! timeout 30 "$PIPESCOPE" -c 127.0.0.1 -p "$PORT" -t "$T" -i 0 \
		-P "$streams" $dir $proto >/dev/null 2>"$log.err"; then
		fails=$((fails + 1))
		echo "soak: test $i failed (-P $streams $dir $proto): $(cat "$log.err")" >&2
		echo "soak: the server said: $(tail -3 "$log")" >&2
	fi
	if [ "$i" = 50 ] || [ $(( i % 50 )) = 0 ] || [ "$i" = "$N" ]; then
		sleep 0.3	# the server's test thread ends and is reaped
		r=$(rss) f=$(fds) th=$(thr)
		printf '%6d %9d %9d %5d %7d %7ds\n' "$i" "$r" "$(hwm)" "$f" "$th" $((SECONDS - t0))
		if [ "$i" = 50 ]; then
			r50=$r f50=$f th50=$th
		fi
		last_r=$r last_f=$f last_th=$th
	fi
done
echo "soak: $N tests ($(for k in "${!kinds[@]}"; do printf '%s %d, ' "$k" "${kinds[$k]}"; done | sed 's/, $//')), $fails failed, $((SECONDS - t0)) s"
echo "soak: from test 50 to test $N: RSS ${r50:-?} -> $last_r kB ($(( last_r - ${r50:-0} )) kB), fds ${f50:-?} -> $last_f, threads ${th50:-?} -> $last_th"
ok=1
[ "$fails" = 0 ] || ok=0
if [ -n "${r50:-}" ]; then
	[ $(( last_r - r50 )) -le "$RSS_SLACK" ] || { echo "soak: RSS grew more than $RSS_SLACK kB"; ok=0; }
	[ "$last_f" -le "$f50" ] || { echo "soak: fd count grew"; ok=0; }
	[ "$last_th" -le "$th50" ] || { echo "soak: thread count grew"; ok=0; }
fi
[ $ok = 1 ] && echo "soak: flat" && exit 0
exit 1
