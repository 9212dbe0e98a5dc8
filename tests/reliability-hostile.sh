#!/bin/bash
# reliability-hostile.sh: hostile control connections against "pipescope -s"
# (wrong cookies, garbage, absurd parameter lengths and JSON, slowloris, data
# streams without a test, a flood of 500 connections): each is refused or
# timed out with a log line, the server's memory and fds stay bounded, and
# the next honest client is served at once. Then the limits: --allow,
# -B, --server-max-streams, --server-bitrate-limit, --handshake-timeout.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
HOSTILE=${top_builddir}/tests/tools/ps-hostile
[ -x "$HOSTILE" ] || skip "tests/tools/ps-hostile is not built"
trap kill_bg EXIT
dir=$(mktemp -d)
trap 'kill_bg; rm -rf "$dir"' EXIT

port=$(free_port 11)
bg "$PIPESCOPE" -s -p "$port" --handshake-timeout 2 --rcv-timeout 3000 \
	--server-bitrate-limit 10G >"$dir/srv.out" 2>"$dir/srv.log"
srv=$LAST_PID
wait_listen "$port" || { fail "server did not start"; finish; }

fds() { ls "/proc/$srv/fd" 2>/dev/null | wc -l; }
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$srv/status"; }
logged() { grep -c -- "$1" "$dir/srv.log"; }

# an honest client, right after an attack, must be served at once (< 3 s)
honest() {
	local t0 t1
	t0=$(date +%s%N)
	expect_exit 0 "honest client after $1" -- \
		timeout 15 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.3 -i 0 -b 1G
	t1=$(date +%s%N)
	check "served at once after $1 ($(( (t1 - t0) / 1000000 )) ms)" \
		[ $(( (t1 - t0) / 1000000 )) -lt 3000 ]
}

# attack NAME 'LOG TEXT' 'REPLY PATTERN' STEP...: the server closes the
# connection, its reply matches, and it logs the refusal
ATTACKS=0
attack() {
	local name=$1 text=$2 want=$3 before
	shift 3
	before=$(logged "$text")
	out=$("$HOSTILE" -w 4 127.0.0.1 "$port" "$@")
	ATTACKS=$((ATTACKS + 1))
	case $out in
	*"closed: yes"*) pass "$name: closed ($out)" ;;
	*) fail "$name: not closed by the server: $out" ;;
	esac
	T_COUNT=$((T_COUNT + 1))
	case $out in
	"reply: $want"*) pass "$name: reply as expected" ;;
	*) fail "$name: reply '$out', wanted '$want…'" ;;
	esac
	sleep 0.1
	check "$name: a log line '$text'" [ "$(logged "$text")" -gt "$before" ]
}

# warm up, then the baseline for memory and descriptors
honest "start"
fd0=$(fds)
rss0=$(rss)

attack "wrong cookie (HTTP)" "sent no cookie" "closed" \
	'raw:GET / HTTP/1.1\x0d\x0aHost: x\x0d\x0a\x0d\x0aAAAAAAAAAAAAAA'
attack "garbage bytes" "sent no cookie" "closed" \
	'raw:\x00\xff\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'
attack "short cookie, then close" "after 3 bytes of its cookie" "closed" 'raw:abc' eof
attack "parameters of length 0" "parameters of 0 bytes" "09 fe" cookie len:0
attack "parameters of length 2 GiB" "parameters of 2147483648 bytes" "09 fe" \
	cookie len:2147483648
attack "parameters of length 4 GiB - 1" "parameters of 4294967295 bytes" "09 fe" \
	cookie len:0xffffffff
attack "truncated JSON" "not JSON" "09 fe" cookie \
	'json:{"tcp":true,"time":10,"parallel'
attack "length longer than the JSON, then close" "parameters were complete" "09 closed" \
	cookie len:100 'raw:{"tcp":true}' eof
attack "deeply nested JSON" "nesting too deep" "09 fe" cookie nest:8000
attack "JSON that is not an object" "not a JSON object" "09 fe" cookie 'json:[1,2,3]'
attack "wrong types" "is not a number" "09 fe" cookie \
	'json:{"tcp":true,"time":"ten","parallel":1,"len":131072}'
attack "parallel 1e9" "'parallel' is out of range" "09 fe" cookie \
	'json:{"tcp":true,"time":1,"parallel":1e9,"len":131072}'
attack "time -1" "'time' is out of range" "09 fe" cookie \
	'json:{"tcp":true,"time":-1,"parallel":1,"len":131072}'
attack "len 0" "'len' is out of range" "09 fe" cookie \
	'json:{"tcp":true,"time":1,"parallel":1,"len":0}'
attack "UDP len 4 (shorter than a datagram header)" "too small" "09 fe" cookie \
	'json:{"udp":true,"reverse":true,"time":1,"parallel":1,"len":4}'
attack "NaN and 1e300" "out of range" "09 fe" cookie \
	'json:{"tcp":true,"time":NaN,"parallel":1e300,"len":131072}'
attack "SCTP" "SCTP is not supported" "09 fe" cookie \
	'json:{"sctp":true,"time":1,"parallel":1}'
# 2^62 bit/s × 4 streams wrapped to 0 in 64 bits and passed the limit once
attack "rate × streams overflowing 64 bits" "above this server's limit" "09 fe" cookie \
	'json:{"tcp":true,"time":1,"parallel":4,"bandwidth":4611686018427387904,"len":131072}'
honest "malformed parameters"

# a data stream with no control connection: treated as a new test whose
# "parameters" are data, refused
attack "data stream without a test" "parameters of" "09 fe" cookie \
	'raw:\x41\x41\x41\x41\x41\x41\x41\x41\x41\x41\x41\x41\x41\x41\x41\x41'
out=$("$HOSTILE" -u 127.0.0.1 "$port")
ATTACKS=$((ATTACKS + 1))
check "a UDP stream hello with no test gets no answer ($out)" [ "$out" = "udp: no reply" ]
honest "streams without a test"

# slowloris: silent, half a cookie, a cookie and no parameters; each is
# closed after --handshake-timeout (2 s) and meanwhile others are served
"$HOSTILE" -w 6 127.0.0.1 "$port" >"$dir/slow1" &
s1=$!
"$HOSTILE" -w 6 127.0.0.1 "$port" half >"$dir/slow2" &
s2=$!
"$HOSTILE" -w 6 127.0.0.1 "$port" cookie >"$dir/slow3" &
s3=$!
ATTACKS=$((ATTACKS + 3))
sleep 0.3
honest "three slowloris connections opened"
# valid parameters, then no data streams: the slot is given back after the
# handshake timeout, not held
attack "parameters, then no streams" "data streams did not arrive" "09 0a" cookie \
	'json:{"tcp":true,"time":1,"parallel":2,"len":131072,"bandwidth":1000000,"client_version":"3.12"}'
honest "a test whose streams never came"
wait $s1 $s2 $s3
for f in slow1 slow2 slow3; do
	t=$(sed -n 's/.*closed: yes after \([0-9.]*\) s/\1/p' "$dir/$f")
	check "slowloris $f closed by the handshake timeout (${t:-never} s)" \
		[ -n "$t" ] && num_le "${t:-99}" 3.5
done
check "log: no cookie in time" [ "$(logged "no cookie within 2 s")" -ge 2 ]
check "log: no parameters in time" [ "$(logged "no test parameters within 2 s")" -ge 1 ]

# a flood: 500 connections in a few seconds, half of them sending half a
# cookie, held 3 s. Bounded table (64), the oldest closed, logged at most
# 10 lines a second plus a count; an honest client is served during it.
"$HOSTILE" -f 500 -H 3 127.0.0.1 "$port" >"$dir/flood" &
fl=$!
ATTACKS=$((ATTACKS + 500))
sleep 1
fdmid=$(fds)
honest "a flood of 500 connections (during it)"
wait $fl
flood=$(cat "$dir/flood")
opened=$(echo "$flood" | awk '{ print $3 }')
took=$(echo "$flood" | awk '{ print $(NF-1) }')
check "flood: 500 connections opened ($flood)" [ "${opened:-0}" -ge 450 ]
check "flood: in a few seconds ($took s)" num_le "${took:-99}" 8
check "flood: server fds bounded during it ($fdmid, baseline $fd0)" \
	[ "$fdmid" -le $((fd0 + 64 + 8)) ]
check "flood: log says the table was full" [ "$(logged "too many connections in their handshake")" -ge 1 ]
check "flood: log lines were rate-limited" [ "$(logged "more connections refused in the last second")" -ge 1 ]
check "flood: log stayed short ($(wc -l <"$dir/srv.log") lines)" [ "$(wc -l <"$dir/srv.log")" -lt 200 ]
sleep 2.5	# the rest time out
honest "a flood of 500 connections (after it)"

sleep 0.5
fd1=$(fds)
rss1=$(rss)
check "server alive after $ATTACKS hostile connections" kill -0 "$srv"
check "fd count back to its baseline ($fd0 -> $fd1)" [ "$fd1" -le "$fd0" ]
# sanitizers keep shadow memory and quarantines: a looser bound there
slack=4096
ldd "$PIPESCOPE" 2>/dev/null | grep -q 'libasan\|libtsan' && slack=65536
check "RSS bounded ($rss0 -> $rss1 kB, < $((slack / 1024)) MiB more)" [ "$rss1" -lt $((rss0 + slack)) ]
echo "hostile: $ATTACKS connections, fds $fd0 -> $fdmid -> $fd1, RSS $rss0 -> $rss1 kB"
echo "hostile: $(wc -l <"$dir/srv.log") log lines; first ones:"
head -25 "$dir/srv.log"

# back to back: a client that comes back while its last test is still
# being cleaned up waits for the slot instead of hearing "busy"
busy=0
for i in $(seq 20); do
	timeout 15 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.1 -i 0 -P 8 -b 1G \
		>/dev/null 2>"$dir/b2b.err" || { busy=$((busy + 1)); cat "$dir/b2b.err"; }
done
check "20 tests back to back, none refused ($busy failed)" [ "$busy" = 0 ]

# --- the limits -----------------------------------------------------------

# --allow: only 127.0.0.2 may test; 127.0.0.1 is refused with a log line
port2=$(free_port 12)
bg "$PIPESCOPE" -s -p "$port2" --allow 127.0.0.2/32 --allow 10.99.0.0/16 \
	>/dev/null 2>"$dir/allow.log"
wait_listen "$port2" || fail "--allow server did not start"
expect_exit 1 "--allow: a client outside the list is refused" -- \
	timeout 10 "$PIPESCOPE" -c 127.0.0.1 -p "$port2" -t 0.3
check "--allow: log line for it" grep -q "not in the allowed networks" "$dir/allow.log"
expect_exit 0 "--allow: a client inside the list is served" -- \
	timeout 15 "$PIPESCOPE" -c 127.0.0.1 -p "$port2" -B 127.0.0.2 -t 0.3
expect_exit 0 "--allow: UDP from inside the list" -- \
	timeout 15 "$PIPESCOPE" -c 127.0.0.1 -p "$port2" -B 127.0.0.2 -u -t 0.3
expect_exit 2 "--allow: a bad network is a usage error" -- \
	"$PIPESCOPE" -s --allow 10.0.0.0/33
expect_exit 2 "--allow is for servers only" -- \
	"$PIPESCOPE" -c 127.0.0.1 --allow 10.0.0.0/8

# -B: the server listens on that address only
port3=$(free_port 13)
bg "$PIPESCOPE" -s -p "$port3" -B 127.0.0.1 >/dev/null 2>&1
wait_listen "$port3" || fail "-B server did not start"
check "-B: listening on 127.0.0.1:$port3 only" \
	[ "$(ss -Htln "sport = :$port3" | awk '{ print $4 }')" = "127.0.0.1:$port3" ]
expect_exit 1 "-B: another local address is not served" -- \
	timeout 10 "$PIPESCOPE" -c 127.0.0.3 -p "$port3" -t 0.3
expect_exit 0 "-B: the bound address is served" -- \
	timeout 15 "$PIPESCOPE" -c 127.0.0.1 -p "$port3" -t 0.3

# --server-max-streams 4
port4=$(free_port 14)
bg "$PIPESCOPE" -s -p "$port4" --server-max-streams 4 >/dev/null 2>"$dir/ms.log"
wait_listen "$port4" || fail "--server-max-streams server did not start"
expect_exit 1 "--server-max-streams 4: -P 8 refused" -- \
	timeout 10 "$PIPESCOPE" -c 127.0.0.1 -p "$port4" -t 0.3 -P 8
case $ERR in *"over one of the server's limits"*) pass "the client says why: $ERR" ;; *) fail "no reason: $ERR" ;; esac
expect_exit 1 "--server-max-streams 4: -P 3 --bidir (6 streams) refused" -- \
	timeout 10 "$PIPESCOPE" -c 127.0.0.1 -p "$port4" -t 0.3 -P 3 --bidir
expect_exit 0 "--server-max-streams 4: -P 2 --bidir served" -- \
	timeout 15 "$PIPESCOPE" -c 127.0.0.1 -p "$port4" -t 0.3 -P 2 --bidir
expect_exit 0 "--server-max-streams 4: -P 4 served" -- \
	timeout 15 "$PIPESCOPE" -c 127.0.0.1 -p "$port4" -t 0.3 -P 4
check "--server-max-streams: log line" grep -q "streams refused" "$dir/ms.log"
expect_exit 2 "--server-max-streams 0 is a usage error" -- \
	"$PIPESCOPE" -s --server-max-streams 0
expect_exit 2 "--handshake-timeout 0 is a usage error" -- \
	"$PIPESCOPE" -s --handshake-timeout 0

kill "$srv"
finish
