#!/bin/sh
# ui-bench.sh: what the workstation costs a test (not run by make check: it
# moves loopback traffic at full speed). Alternates the same loopback test
# with --no-tui and with the screen open (1 Hz probes, 4 Hz screen), N
# rounds of T seconds, prints each pair, the medians and their ratio, and
# the first-frame times (inside: PIPESCOPE_UI_STATS; outside: tmux polling).
#   sh tests/ui-bench.sh [ROUNDS [SECONDS]]
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"
need_cmd jq jq
N=${1:-3}
T=${2:-10}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: >"$UI_TMP/text" >"$UI_TMP/tui" >"$UI_TMP/ff" >"$UI_TMP/ffx"
rnd=1
while [ "$rnd" -le "$N" ]; do
	a=$("$PIPESCOPE" --no-tui -J -t "$T" | jq '.end.sum_received.bits_per_second')
	echo "$a" >>"$UI_TMP/text"

	stats="$UI_TMP/stats-$rnd"
	# the launch time is taken inside the pane, just before the exec
	ui_start 100 30 "date +%s%N >$UI_TMP/launch; exec env LC_ALL=C.UTF-8 TERM=tmux-256color PIPESCOPE_UI_STATS=$stats $PIPESCOPE -t $T"
	k=0
	while ! ui_cap | grep -q Throughput && [ "$k" -lt 500 ]; do
		sleep 0.01
		k=$((k + 1))
	done
	t1=$(date +%s%N)
	echo "$(( (t1 - $(cat "$UI_TMP/launch")) / 1000000 ))" >>"$UI_TMP/ffx"
	k=0
	while ! grep -q '^end_received_bps=' "$stats" 2>/dev/null && [ "$k" -lt $((T * 10 + 150)) ]; do
		sleep 0.1
		k=$((k + 1))
	done
	ui_save "ui-bench-$rnd"
	ui_keys q
	ui_wait 'EXIT:' 10
	b=$(sed -n 's/^end_received_bps=//p' "$stats")
	sed -n 's/^first_frame_ms=//p' "$stats" >>"$UI_TMP/ff"
	echo "${b:-0}" >>"$UI_TMP/tui"
	awk -v r="$rnd" -v a="$a" -v b="${b:-0}" 'BEGIN {
		printf "round %d: --no-tui %.3f Gbit/s, screen %.3f Gbit/s\n", r, a / 1e9, b / 1e9 }'
	rnd=$((rnd + 1))
done
mt=$(median <"$UI_TMP/text")
mu=$(median <"$UI_TMP/tui")
awk -v a="$mt" -v b="$mu" 'BEGIN {
	printf "median --no-tui %.3f Gbit/s, screen %.3f Gbit/s, ratio %.3f\n", a / 1e9, b / 1e9, (a > 0 ? b / a : 0) }'
printf 'first frame (inside, ms): %s; median %s\n' "$(tr '\n' ' ' <"$UI_TMP/ff")" "$(median <"$UI_TMP/ff")"
printf 'first frame (tmux polling from launch, ms): %s; median %s\n' "$(tr '\n' ' ' <"$UI_TMP/ffx")" "$(median <"$UI_TMP/ffx")"
