#!/bin/sh
# engine-options.sh: options reach the sockets (checked with ss), end
# conditions -t/-n/-k work, -J and --json-stream parse, the self-test runs.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
need_cmd ss iproute2
trap kill_bg EXIT
dir=$(mktemp -d)

port=$(free_port 1)
bg "$PIPESCOPE" -s -p "$port"
wait_listen "$port" || { fail "server did not start"; finish; }

# -M -C -N -S -w on the data socket, seen by the kernel
"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 3 -M 1000 -C reno -N -S 0x10 \
	-w 1M -J >"$dir/opt.json" 2>"$dir/opt.err" &
cl=$!
sleep 1.5
ss -tinO --tos "dst 127.0.0.1:$port" >"$dir/ss.txt" 2>&1
wait $cl
line=$(grep -v ':'"$port"' *$' "$dir/ss.txt" | grep 'bytes_sent:[0-9]\{7,\}' | head -1)
check "ss sees the data socket" [ -n "$line" ]
case $line in *" reno "*) pass "-C reno reached the socket" ;; *) fail "-C reno: $line" ;; esac
mss=$(echo "$line" | sed -n 's/.* mss:\([0-9]*\).*/\1/p')
check "-M 1000 gives an MSS <= 1000 (got $mss)" num_le "${mss:-99999}" 1000
case $line in *"tos:0x10"*) pass "-S 0x10 reached the socket" ;; *) fail "-S 0x10: $line" ;; esac
snd=$(jq '.start.sndbuf_actual' "$dir/opt.json")
req=$(jq '.start.sock_bufsize' "$dir/opt.json")
check "-w 1M requested ($req) and a granted size reported ($snd)" [ "$req" = 1048576 -a "$snd" -gt 0 ]
# read back with getsockopt by the engine itself
check "-N: TCP_NODELAY set on the data socket" jq -e '.pipescope.sockets[0].nodelay == 1' "$dir/opt.json"
check "-C reno: read back" jq -e '.pipescope.sockets[0].congestion == "reno"' "$dir/opt.json"
check "-S 0x10: read back" jq -e '.pipescope.sockets[0].tos == 16' "$dir/opt.json"
check "-w 1M: the kernel's buffer is at least what was asked or capped and said" \
	jq -e '.pipescope.sockets[0].sndbuf >= 1048576 or .pipescope.window_capped' "$dir/opt.json"
"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.3 -J >"$dir/noN.json" 2>&1
check "without -N: TCP_NODELAY off" jq -e '.pipescope.sockets[0].nodelay == 0' "$dir/noN.json"

# -n: the test ends after that many bytes
"$PIPESCOPE" -c 127.0.0.1 -p "$port" -n 200M -J >"$dir/n.json" 2>&1
b=$(jq '.end.sum_sent.bytes' "$dir/n.json")
check "-n 200M sends at least 200 MiB ($b)" num_ge "$b" 209715200
check "-n 200M stops soon after ($b)" num_le "$b" $((209715200 + 4 * 131072))
# -k: blocks
"$PIPESCOPE" -c 127.0.0.1 -p "$port" -k 1000 -l 64K -J >"$dir/k.json" 2>&1
b=$(jq '.end.sum_sent.bytes' "$dir/k.json")
check "-k 1000 -l 64K sends 1000 blocks ($b)" [ "$b" = 65536000 ]
# -n with -R: the server sends, the client counts
"$PIPESCOPE" -c 127.0.0.1 -p "$port" -n 100M -R -J >"$dir/nr.json" 2>&1
b=$(jq '.end.sum_received.bytes' "$dir/nr.json")
check "-n 100M -R receives about 100 MiB ($b)" num_ge "$b" 100000000

# -t and -i: intervals as asked, -O omitted first
"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 2 -i 0.5 -O 1 -J >"$dir/t.json" 2>&1
n=$(jq '.intervals | length' "$dir/t.json")
om=$(jq '[.intervals[] | select(.sum.omitted)] | length' "$dir/t.json")
dur=$(jq '.end.sum_sent.seconds' "$dir/t.json")
check "-t 2 -i 0.5 -O 1: 6 intervals ($n)" [ "$n" -ge 5 -a "$n" -le 7 ]
check "-O 1: two omitted intervals ($om)" [ "$om" -ge 1 -a "$om" -le 3 ]
check "-O 1: the summary covers 2 s, not 3 ($dur)" num_le "$dur" 2.3

# --json-stream: one event per line, each valid JSON
"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 1 -i 0.25 --json-stream >"$dir/s.jsonl" 2>&1
ev=$(jq -r '.event' "$dir/s.jsonl" | sort | uniq -c | tr -s ' ' | tr '\n' ' ')
check "--json-stream parses line by line ($ev)" jq -e . "$dir/s.jsonl"
case $ev in *"1 end"*"interval"*"1 start"*) pass "json-stream events: $ev" ;; *) fail "events: $ev" ;; esac

# text output (no terminal): iperf3-like rows and a summary
"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 1 -P 2 >"$dir/t.txt" 2>&1
check "text output has [SUM] sender and receiver lines" \
	sh -c "grep -q '^\[SUM\].*sender' '$dir/t.txt' && grep -q '^\[SUM\].*receiver' '$dir/t.txt'"

# UDP at 100 Mbit/s between pipescope ends: no loss, sane jitter
"$PIPESCOPE" -c 127.0.0.1 -p "$port" -u -b 100M -t 2 -J >"$dir/u.json" 2>&1
lost=$(jq '.end.sum.lost_packets' "$dir/u.json")
jit=$(jq '.end.sum.jitter_ms' "$dir/u.json")
bps=$(jq '.end.sum_received.bits_per_second' "$dir/u.json")
check "UDP 100M: loss 0 ($lost)" [ "$lost" = 0 ]
check "UDP 100M: jitter under 5 ms ($jit)" num_le "$jit" 5
check "UDP 100M: about 100 Mbit/s ($bps)" sh -c "awk 'BEGIN{exit !($bps > 9e7 && $bps < 1.1e8)}'"

# the self-test (no target) measures loopback with no server of ours
"$PIPESCOPE" -t 1 --no-tui -J >"$dir/self.json" 2>&1
b=$(jq '.end.sum_received.bytes' "$dir/self.json")
check "self-test moves data ($b)" num_gt "$b" 0

# TCP blocks: 1 MiB by default; iperf3's 128 KiB with -k (so -k N moves
# what it moves with iperf3) and with -b (a slow flow stays smooth)
check "default TCP block 1 MiB" sh -c "'$PIPESCOPE' -t 1 -J | jq -e '.start.test_start.blksize == 1048576' >/dev/null"
check "-b: 128 KiB blocks" sh -c "'$PIPESCOPE' -t 1 -b 200M -J | jq -e '.start.test_start.blksize == 131072' >/dev/null"
check "-k 20: 20 blocks of 128 KiB" sh -c "'$PIPESCOPE' -k 20 -J | jq -e '.start.test_start.blksize == 131072 and .end.sum_sent.bytes == 2621440' >/dev/null"

# -F: a file crosses byte for byte; the test ends when it is sent
head -c 20000000 /dev/urandom >"$dir/src.bin"
portf=$(free_port 5)
bg "$PIPESCOPE" -s -1 -p "$portf" -F "$dir/dst.bin"
wait_listen "$portf" || fail "file server did not start"
"$PIPESCOPE" -c 127.0.0.1 -p "$portf" -F "$dir/src.bin" -t 30 -J >"$dir/f.json" 2>&1
wait "$LAST_PID"
check "-F: the file arrived whole" cmp -s "$dir/src.bin" "$dir/dst.bin"
secs=$(jq '.end.sum_sent.seconds' "$dir/f.json")
check "-F: the test ended with the file ($secs s), not at -t 30" num_le "$secs" 10
# -F over a slow path (a 200 Mbit/s tbf between two namespaces): the file's
# last megabytes are still in the client's socket buffer when it ends the
# test; the server reads on until the client's FIN
if [ "$(id -u)" = 0 ] && command -v tc >/dev/null && ip netns add "psfa-$$" 2>/dev/null; then
	ip netns del "psfa-$$" &&
	netns_pair "psfa-$$" "psfb-$$" "pfa$$" "pfb$$" 10.82.1.1 10.82.1.2 &&
	tc -n "psfa-$$" qdisc add dev "pfa$$" root tbf rate 200mbit burst 256kb latency 100ms ||
		fail "-F slow path: could not build the namespaces"
	rm -f "$dir/dst2.bin"
	ip netns exec "psfb-$$" "$PIPESCOPE" -s -1 -p 5201 -F "$dir/dst2.bin" >/dev/null 2>&1 &
	fpid=$!
	wait_listen 5201 "psfb-$$"
	ip netns exec "psfa-$$" "$PIPESCOPE" -c 10.82.1.2 -F "$dir/src.bin" -t 30 --no-tui >/dev/null 2>&1
	wait "$fpid"
	check "-F over a 200 Mbit/s path: the file arrived whole" cmp -s "$dir/src.bin" "$dir/dst2.bin"
	# the same for -n without a file: the megabytes still in the
	# client's socket buffer at its TEST_END are counted by the server
	ip netns exec "psfb-$$" "$PIPESCOPE" -s -1 -p 5202 >/dev/null 2>&1 &
	fpid=$!
	wait_listen 5202 "psfb-$$"
	J=$dir/n.json
	ip netns exec "psfa-$$" "$PIPESCOPE" -c 10.82.1.2 -p 5202 -n 20M -J >"$J" 2>&1
	wait "$fpid"
	jq_check "-n 20M over a 200 Mbit/s path: the server received all (its FIN ends the test)" \
		'.end.sum_sent.bytes == 20971520 and .end.sum_received.bytes == 20971520'
	ip netns del "psfa-$$"
	ip netns del "psfb-$$"
fi
expect_exit 1 "-F with a missing file" -- "$PIPESCOPE" -c 127.0.0.1 -p "$port" -F "$dir/missing"
case $ERR in *"cannot read the file"*) ;; *) fail "-F missing file message: $ERR" ;; esac

# a dead peer: nothing listens -> one clear error, exit 1, no hang
dead=$(free_port 9)
expect_exit 1 "connect to a closed port" -- timeout 10 "$PIPESCOPE" -c 127.0.0.1 -p "$dead" -t 1
case $ERR in *"unable to connect"*) ;; *) fail "dead peer message: $ERR" ;; esac
rm -rf "$dir"
finish
