#!/bin/sh
# ui-bench.sh: what the workstation costs a test (not run by make check: it
# moves loopback traffic at full speed). Alternates the same loopback test
# with --no-tui and with the screen open (1 Hz probes, 4 Hz screen), both
# started by tmux in a 100x30 pane, N
# rounds of T seconds, prints each pair, the medians and their ratio, and
# the first-frame times (inside: PIPESCOPE_UI_STATS; outside: tmux polling).
#   sh tests/ui-bench.sh [ROUNDS [SECONDS]]
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"
need_cmd jq jq
N=${1:-3}
T=${2:-10}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# the text test runs in a tmux pane of the same size too: a process that
# tmux starts (its own session, its own scheduler autogroup) measured about
# 7% below one started from this shell here, screen or not, so the two are
# compared where they both run
text_run() {
	ui_start 100 30 "$PIPESCOPE --no-tui -J -t $T >$UI_TMP/text.json"
	ui_wait 'EXIT:' $((T + 15)) >/dev/null
	jq '.end.sum_received.bits_per_second' "$UI_TMP/text.json"
}

: >"$UI_TMP/text" >"$UI_TMP/tui" >"$UI_TMP/ff" >"$UI_TMP/ffx" >"$UI_TMP/cpu"
rnd=1
while [ "$rnd" -le "$N" ]; do
	# ABBA: odd rounds run the text test first, even rounds the screen
	if [ $((rnd % 2)) = 1 ]; then
		a=$(text_run)
	fi

	stats="$UI_TMP/stats-$rnd"
	# the launch time is taken inside the pane, just before the exec
	ui_start 100 30 "date +%s%N >$UI_TMP/launch; echo \$\$ >$UI_TMP/pid; exec env LC_ALL=C.UTF-8 TERM=tmux-256color PIPESCOPE_UI_STATS=$stats $PIPESCOPE -t $T"
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
	# CPU: the threads still alive after the test (the UI, the sampler,
	# the idle self-test server) against the whole process
	pid=$(cat "$UI_TMP/pid")
	live=$(cat /proc/"$pid"/task/*/stat 2>/dev/null | awk '{ t += $14 + $15 } END { print t + 0 }')
	all=$(awk '{ print $14 + $15 }' /proc/"$pid"/stat 2>/dev/null)
	echo "$live ${all:-0}" >>"$UI_TMP/cpu"
	ui_keys q
	ui_wait 'EXIT:' 10
	b=$(sed -n 's/^end_received_bps=//p' "$stats")
	if [ $((rnd % 2)) = 0 ]; then
		a=$(text_run)
	fi
	echo "$a" >>"$UI_TMP/text"
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
awk -v hz="$(getconf CLK_TCK)" '{ l += $1; a += $2 } END {
	printf "CPU of the screen and probes: %.0f ms of the process'"'"'s %.0f ms (%.2f%%)\n", l * 1000 / hz, a * 1000 / hz, a ? 100 * l / a : 0 }' "$UI_TMP/cpu"
printf 'first frame (inside, ms): %s; median %s\n' "$(tr '\n' ' ' <"$UI_TMP/ff")" "$(median <"$UI_TMP/ff")"
printf 'first frame (tmux polling from launch, ms): %s; median %s\n' "$(tr '\n' ' ' <"$UI_TMP/ffx")" "$(median <"$UI_TMP/ffx")"
