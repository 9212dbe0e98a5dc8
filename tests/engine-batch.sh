#!/bin/sh
# engine-batch.sh: a TCP receiver reads in batches sized from its own rate
# (SO_RCVLOWAT, about 2 ms of it: 512 KiB at most with a thread per
# stream, 128 KiB on a worker that polls several), on both ends, and -J
# says the size (pipescope.streams[].rx_batch, and the server's in
# intervals[].pipescope.remote_streams[]). A slow stream is read as it
# comes (no batch: its intervals stay even), and a batch never holds back
# the test's last bytes. A sender hands the kernel pieces sized for where
# its receiver runs, and -Z sends from a memory file by sendfile(2).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
scratch
trap 'kill_bg; rm -rf "$TMP"' EXIT

port=$(free_port 5)
bg "$PIPESCOPE" -s -p "$port" >/dev/null 2>&1
srv=$LAST_PID
wait_listen "$port" || { fail "server did not start"; finish; }
J=$TMP/c.json
run() {
	"$PIPESCOPE" -c 127.0.0.1 -p "$port" --no-history -J "$@" >"$J" 2>"$TMP/c.err" ||
		fail "$* failed: $(head -c 300 "$TMP/c.err")"
}

# a fast stream (loopback moves Gbit/s): this end receives with -R
run -t 2 -R
jq_check "-R: this end's receiver batches (rx_batch 64 KiB-512 KiB)" \
	'.pipescope.streams[0].rx_batch | . != null and . >= 65536 and . <= 524288'
# forward: the pipescope server receives, and says its batch each second
run -t 3
jq_check "forward: the server's receiver batches" \
	'[.intervals[].pipescope.remote_streams // [] | .[].rx_batch // 0] | max >= 65536'
jq_check "forward: this end sends, no batch of its own" \
	'[.pipescope.streams[] | select(.sender) | .rx_batch] | all(. == null)'
# more streams than CPUs: workers poll several streams, smaller batches
P=$(($(nproc) * 2))
run -t 2 -R -P $P
jq_check "-R -P $P: every worker-served receiver within 128 KiB" \
	"[.pipescope.streams[] | .rx_batch // 0] | length == $P and all(. <= 131072) and max >= 65536"
# slow: 2 ms of 40 Mbit/s is 10 KB, under the 64 KiB floor: read as it comes
run -t 3 -R -b 40M
jq_check "-R -b 40M: no batch" '[.pipescope.streams[].rx_batch] | all(. == null)'
jq_check "-R -b 40M: each interval within 10% of 40 Mbit/s" \
	'[.intervals[] | select(.sum.seconds > 0.5) | .sum.bits_per_second] | length >= 3 and all(. > 36e6 and . < 44e6)'
# the last bytes: what was sent was received, with batches on
for d in "" -R; do
	run -n 700M $d
	jq_check "-n 700M${d:+ $d}: received what was sent" \
		'.end.sum_received.bytes == .end.sum_sent.bytes and .end.sum_sent.bytes == 734003200'
done

# the sender's side: what one send hands the kernel. The far end is this
# host: with this end's senders on every CPU (a few to a worker) 32 KiB
# pieces, else the whole block (-l) or a worker's 128 KiB
C=$(nproc)
run -t 1 -P "$C"
jq_check "-P $C (a sender on each CPU): 32 KiB pieces" '.pipescope.send_piece == 32768'
run -t 1 -P $((C * 2))
jq_check "-P $((C * 2)) (two a worker): 32 KiB pieces" '.pipescope.send_piece == 32768'
run -t 1 -P $((C * 16)) -l 256K
jq_check "-P $((C * 16)) (16 a worker): the worker's 128 KiB" '.pipescope.send_piece == 131072'
if [ "$C" -gt 1 ]; then
	run -t 1 -P 1 -l 512K
	jq_check "-P 1 on $C CPUs: the whole block" '.pipescope.send_piece == 524288'
fi
run -t 1 --bidir -P "$C"
jq_check "--bidir (this end receives too): the whole block" '.pipescope.send_piece == 1048576'
run -t 1 -R
jq_check "-R: this end sends no TCP" '.pipescope.send_piece == null'

# -Z: the block goes by sendfile from a memory file, on this end and on a
# pipescope server sending for -R (seen among the process's files)
zc() { ls -l /proc/"$1"/fd 2>/dev/null | grep -c 'memfd:pipescope-zc'; }
for d in "" -R; do
	"$PIPESCOPE" -c 127.0.0.1 -p "$port" --no-history -J -t 2 -P "$C" -Z $d >"$J" 2>"$TMP/c.err" &
	c=$! seen=0
	while kill -0 $c 2>/dev/null; do
		if [ -z "$d" ]; then n=$(zc $c); else n=$(zc "$srv"); fi
		[ "$n" -gt $seen ] && seen=$n
		sleep 0.1
	done
	wait $c || fail "-Z $d failed: $(head -c 300 "$TMP/c.err")"
	check "-Z${d:+ $d}: the sender's $C streams send from memory files (saw $seen)" [ "$seen" = "$C" ]
	jq_check "-Z${d:+ $d}: data moved" '.end.sum_received.bytes > 0'
done
run -t 1 -P "$C" -Z
jq_check "-Z -P $C: in 32 KiB pieces as well" '.pipescope.send_piece == 32768'

# a far end in another network namespace of this kernel (its boot id, in
# the handshake) is this host too: the same pieces, on this end and on a
# pipescope server sending for -R
if [ "$(id -u)" = 0 ] && ip netns add "psba-$$" 2>/dev/null && ip netns del "psba-$$"; then
	NA=psba-$$ NB=psbb-$$
	netns_pair "$NA" "$NB" "pba$$" "pbb$$" 10.83.1.1 10.83.1.2 ||
		fail "cannot build the namespaces"
	for d in "" -R; do
		ip netns exec "$NB" "$PIPESCOPE" -s -1 -J -p 5201 >"$TMP/srv.json" 2>&1 &
		s=$!
		wait_listen 5201 "$NB" || fail "the server in $NB did not listen"
		J=$TMP/ns.json
		ip netns exec "$NA" "$PIPESCOPE" -c 10.83.1.2 --no-history -J -t 1 \
			-P "$C" $d >"$J" 2>"$TMP/c.err" || fail "namespaces$d: $(head -c 300 "$TMP/c.err")"
		wait $s
		[ -n "$d" ] && J=$TMP/srv.json
		jq_check "another namespace, -P $C${d:+ $d}: the sender sends 32 KiB pieces" \
			'.pipescope.send_piece == 32768'
	done
	netns_teardown "$NA" "$NB"
fi
finish
