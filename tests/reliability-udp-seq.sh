#!/bin/bash
# reliability-udp-seq.sh: a UDP sequence number is judged against what the
# sender can have sent (issue 12, item 18). A scripted client
# (tests/tools/ps-peer.py) numbers its datagrams 1, 2, 2^32-1 (2^63 with
# 64-bit counters), 3 ... 50, then 61 ... 70: the server counts the jump as
# one datagram out of order, not 4 billion lost, and still counts the ten
# really missing (51 ... 60) as lost. Then the end-of-test cap: in an
# unlimited test a late jump to 5e7, which the rate rule alone accepts, is
# no loss either once the sender's count (its results: 71 sent) is known:
# on the server (the client's results) and on a -R client (the server's).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd python3 python3
need_cmd jq jq
PEER="python3 $top_srcdir/tests/tools/ps-peer.py"
dir=$(mktemp -d)
trap 'kill_bg; rm -rf "$dir"' EXIT

# jump MODE BITS WANT: the server's end counts after the scripted client
jump() {
	local port name="$1 $2-bit"
	port=$(free_port "$2")
	bg "$PIPESCOPE" -s -1 -J -p "$port" >"$dir/srv.json" 2>"$dir/srv.err"
	srv=$LAST_PID
	wait_listen "$port" || { fail "$name: server did not start"; return; }
	expect_exit 0 "$name: the scripted UDP client's test" -- \
		timeout 20 $PEER client "$port" "$1" "$2"
	wait "$srv"
	u=$(jq -c '.end.streams[0].udp | {lost_packets, packets, out_of_order}' \
		"$dir/srv.json" 2>/dev/null)
	check "$name: the jump is no loss, the gap is ($u)" [ "$u" = "$3" ]
}
for bits in 32 64; do
	jump udp-jump $bits '{"lost_packets":10,"packets":71,"out_of_order":1}'
	# after 5e7 the ten last are out of order: no sequence rule tells
	# them from late ones, but the loss is still the ten
	jump udp-jump-late $bits '{"lost_packets":10,"packets":71,"out_of_order":10}'
done

# -R: the client receives, and caps its loss by the server's results
port=$(free_port 7)
bg $PEER server "$port" udp-jump-late
srv=$LAST_PID
if wait_listen "$port"; then
	expect_exit 0 "-R late jump: the client's test" -- timeout 20 \
		"$PIPESCOPE" -c 127.0.0.1 -p "$port" -u -R -b 0 -t 1 -i 0 -J
	wait "$srv"
	u=$(printf '%s' "$OUT" | jq -c '.end.streams[0].udp |
		{lost_packets, packets, out_of_order}' 2>/dev/null)
	check "-R late jump: the jump is no loss, the gap is ($u)" \
		[ "$u" = '{"lost_packets":10,"packets":71,"out_of_order":10}' ]
else
	fail "-R late jump: the scripted server did not listen"
fi
finish
