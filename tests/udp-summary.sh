#!/bin/sh
# udp-summary.sh: the --no-tui text summary of a UDP test counts what the
# receiver got. A small receive buffer (-w 16K, applied by the server) at
# 2 Gbit/s loses datagrams; against iperf3 (its "packets" is the highest
# number it received) and pipescope (the ones that came), -R too:
#   - the sender's row is 0 lost of what was sent,
#   - the receiver's total is at most what was sent, and with loss what it
#     got (total - lost) is less than that,
#   - what it got matches the bytes it counted (1400-byte datagrams).
# And iperf3's own client against a pipescope server: the server sends
# iperf3's "packets" (its highest number, the lost included), so iperf3's
# receiver row says lost/sent (it read lost/arrived: 9914/367275 of 377189).
# (It used to add the lost to iperf3's total: 306606/823043 for 719 MB.)
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd iperf3 iperf3
scratch
trap 'kill_bg; rm -rf "$TMP"' EXIT
n=0

for case in "iperf3" "pipescope" "pipescope -R" "iperf3-client"; do
	n=$((n + 1))
	set -- $case
	peer=$1
	shift
	port=$(free_port $n)
	case $peer in
	iperf3) bg iperf3 -s -1 -p "$port" >"$TMP/server" 2>&1 ;;
	*) bg "$PIPESCOPE" -s -1 -p "$port" >"$TMP/server" 2>&1 ;;
	esac
	wait_listen "$port" || { fail "$peer: no server on $port"; continue; }
	case $peer in
	iperf3-client)
		timeout 20 iperf3 -c 127.0.0.1 -p "$port" -u -b 2G -l 1400 \
			-w 16K -t 1 >"$TMP/out" 2>&1 ;;
	*)
		timeout 20 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -u -b 2G \
			-l 1400 -w 16K -t 1 --no-tui "$@" >"$TMP/out" 2>&1 ;;
	esac
	rc=$?
	wait "$LAST_PID" 2>/dev/null
	T_COUNT=$((T_COUNT + 1))
	[ $rc -eq 0 ] || { fail "$case: exit $rc: $(tail -3 "$TMP/out")"; continue; }
	# "[  4]   0.00-1.00   sec   141 MBytes  1.18 Gbits/sec  0.025 ms
	#  114048/219523 (52%)  receiver"
	snd=$(grep -E '^\[ *[0-9]+\].* sender$' "$TMP/out" | tail -1)
	rcv=$(grep -E '^\[ *[0-9]+\].* receiver$' "$TMP/out" | tail -1)
	[ -n "$snd" ] && [ -n "$rcv" ] ||
		{ fail "$case: no sender and receiver rows: $(cat "$TMP/out")"; continue; }
	s_lost=$(printf '%s\n' "$snd" | sed -E 's|.* ([0-9-]+)/([0-9]+) .*|\1|')
	sent=$(printf '%s\n' "$snd" | sed -E 's|.* ([0-9-]+)/([0-9]+) .*|\2|')
	lost=$(printf '%s\n' "$rcv" | sed -E 's|.* ([0-9-]+)/([0-9]+) .*|\1|')
	total=$(printf '%s\n' "$rcv" | sed -E 's|.* ([0-9-]+)/([0-9]+) .*|\2|')
	mb=$(printf '%s\n' "$rcv" | awk '{ for (i = 1; i < NF; i++)
		if ($(i + 1) == "MBytes") print $i;
		else if ($(i + 1) == "KBytes") print $i / 1024;
		else if ($(i + 1) == "GBytes") print $i * 1024 }')
	got=$((total - lost))
	check "$case: the sender's row is 0/$sent" [ "$s_lost" = 0 ]
	check "$case: the receiver's total $total is at most the $sent sent" \
		num_le "$total" "$sent"
	if [ "$lost" -gt 0 ]; then
		check "$case: with $lost lost the receiver got fewer ($got) than the $sent sent" \
			num_gt "$sent" "$got"
	fi
	# within 3%: the rounded MBytes and the datagrams of the last tick
	check "$case: $got datagrams of 1400 bytes are the ${mb} MBytes received" \
		awk -v g="$got" -v m="$mb" 'BEGIN { b = g * 1400 / 1048576;
			exit !(m > 0 && b > m * 0.97 && b < m * 1.03) }'
done
finish
