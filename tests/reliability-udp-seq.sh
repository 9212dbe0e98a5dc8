#!/bin/bash
# reliability-udp-seq.sh: a UDP sequence number is judged against what the
# sender can have sent (issue 12, item 18). A scripted client
# (tests/tools/ps-peer.py) numbers its datagrams 1, 2, 2^32-1 (2^63 with
# 64-bit counters), 3 ... 50, then 61 ... 70: the server counts the jump as
# one datagram out of order, not 4 billion lost, and still counts the ten
# really missing (51 ... 60) as lost.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd python3 python3
need_cmd jq jq
PEER="python3 $top_srcdir/tests/tools/ps-peer.py"
dir=$(mktemp -d)
trap 'kill_bg; rm -rf "$dir"' EXIT

for bits in 32 64; do
	port=$(free_port "$bits")
	bg "$PIPESCOPE" -s -1 -J -p "$port" >"$dir/srv.json" 2>"$dir/srv.err"
	srv=$LAST_PID
	wait_listen "$port" || { fail "$bits-bit: server did not start"; continue; }
	expect_exit 0 "$bits-bit: the scripted UDP client's test" -- \
		timeout 20 $PEER client "$port" udp-jump "$bits"
	wait "$srv"
	u=$(jq -c '.end.streams[0].udp | {lost_packets, packets, out_of_order}' \
		"$dir/srv.json" 2>/dev/null)
	check "$bits-bit: the jump is no loss, the gap is ($u)" \
		[ "$u" = '{"lost_packets":10,"packets":71,"out_of_order":1}' ]
done
finish
