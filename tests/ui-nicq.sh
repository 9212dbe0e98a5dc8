#!/bin/sh
# ui-nicq.sh: view 5 shows the NIC's own counters as rates while a test
# runs: receive and transmit packets/s per queue, drops/s by class and
# pause frames/s. A recorded 4-CPU i40e machine (--sysroot) carries the
# text of "ethtool -S eth0" in DIR/ethtool/eth0/S (and of "ethtool -x" in
# DIR/ethtool/eth0/x); a loop here rewrites the counters as those of a NIC
# whose queue 0 takes most of the packets, whose ring misses and which
# receives pause frames for its first 5 s.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"
m="$top_srcdir/tests/fixtures/machines"
[ -d "$m/i40e-4cpu" ] || skip "no recorded machine i40e-4cpu"

tree="$UI_TMP/tree"
cp -R "$m/i40e-4cpu" "$tree" || fail "cannot copy the recorded tree"
mkdir -p "$tree/ethtool/eth0"
# and "ethtool -x": a table over 16 of 63 rings (ixgbe, recorded)
cp "$top_srcdir/tests/fixtures/counters/ethtool-x_ixgbe_82599ES_63rings-16rss_shopee.txt" \
	"$tree/ethtool/eth0/x"
counters() { # $1: tick
	awk -v t="$1" 'BEGIN {
		print "NIC statistics:"
		printf "     rx_missed_errors: %d\n", 40 * t
		printf "     rx_pause_frames: %d\n", 7 * (t < 10 ? t : 10)
		printf "     tx_pause_frames: 0\n"
		for (q = 0; q < 4; q++) {
			p = (q == 0 ? 90000 : 1000) * t
			printf "     rx_queue_%d_packets: %d\n", q, p
			printf "     rx_queue_%d_bytes: %d\n", q, p * 1500
			printf "     tx_queue_%d_packets: %d\n", q, 500 * t
		}
	}'
}
counters 0 >"$tree/ethtool/eth0/S"
(
	t=0
	while [ -d "$tree" ] && [ "$t" -lt 200 ]; do
		t=$((t + 1))
		counters "$t" >"$tree/ethtool/eth0/S.new" &&
			mv "$tree/ethtool/eth0/S.new" "$tree/ethtool/eth0/S"
		sleep 0.5
	done
) &
loop=$!
trap 'kill $loop 2>/dev/null; ui_cleanup' EXIT INT TERM

ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE --sysroot $tree --iface eth0 -t 20 -b 50M"
ui_expect "the test runs" '\[running\]' 10
ui_keys 5
ui_expect "view 5: the RSS table reaches 16 of 63 rings" 'RSS 16 of 63 rings' 10
ui_expect "view 5: receive packets/s per queue" 'rx packets/s +q0 1[0-9.]+k +q1 [0-9.]+k? +q2' 10
ui_expect "view 5: ... and transmit" 'tx packets/s +q0 [0-9.]+k? +q1' 5
ui_expect "view 5: the ring's misses per second" 'rx_missed [1-9][0-9]' 5
ui_expect "view 5: pause frames per second" 'pause/s rx [1-9][0-9]* tx 0' 5
ui_save ui-nic-queues
ui_keys 4
ui_expect "view 4: the Drops section's NIC ring row" 'NIC ring +[1-9][0-9]' 10
ui_save ui-nic-queues-drops
ui_keys 5
# the pauses stop after 5 s: this second's rate falls to 0, the test's
# average over its whole length does not
ui_expect "view 5: the pauses stop" 'pause/s rx 0 tx 0' 10
ui_keys 6
ui_expect "view 6: the test's pause frames are a finding" 'switch is pausing eth0' 10
ui_expect "view 6: ... and the rings the RSS table misses" 'RSS: 16 of 63 rings in the indirection table' 5
ui_save ui-nic-queues-findings
ui_keys q
ui_expect "q quits" 'EXIT:0' 10
kill "$loop" 2>/dev/null
finish
