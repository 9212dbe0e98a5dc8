#!/bin/sh
# engine-server.sh: the server serves test after test, --max-tests runs two
# at once, a busy server says so, and a peer killed mid-test is survived.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
trap kill_bg EXIT
dir=$(mktemp -d)

port=$(free_port 2)
bg "$PIPESCOPE" -s -p "$port"
srv=$LAST_PID
wait_listen "$port" || { fail "server did not start"; finish; }

# one test after another on the same server
for i in 1 2 3; do
	expect_exit 0 "test $i in a row" -- timeout 20 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.5 -J
done

# default --max-tests 1: a second client is told the server is busy
"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 3 -J >"$dir/a.json" 2>&1 &
a=$!
sleep 0.7
expect_exit 1 "a second client while busy" -- timeout 10 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 1
case $ERR in *busy*) pass "busy message: $ERR" ;; *) fail "no busy message: $ERR" ;; esac
wait $a
check "the first test still completed" jq -e '.end.sum_received.bytes > 0' "$dir/a.json"

# --max-tests 2: two clients at once, both complete with their own numbers
port2=$(free_port 3)
bg "$PIPESCOPE" -s -p "$port2" --max-tests 2
wait_listen "$port2" || fail "second server did not start"
"$PIPESCOPE" -c 127.0.0.1 -p "$port2" -t 2 -J >"$dir/c1.json" 2>&1 &
c1=$!
"$PIPESCOPE" -c 127.0.0.1 -p "$port2" -t 2 -P 2 -J >"$dir/c2.json" 2>&1 &
c2=$!
wait $c1; r1=$?
wait $c2; r2=$?
check "--max-tests 2: both clients succeed ($r1 $r2)" [ $r1 = 0 -a $r2 = 0 ]
check "--max-tests 2: client 1 measured" jq -e '.end.sum_received.bytes > 0 and .start.test_start.num_streams == 1' "$dir/c1.json"
check "--max-tests 2: client 2 measured" jq -e '.end.sum_received.bytes > 0 and .start.test_start.num_streams == 2' "$dir/c2.json"

# two targets in one test (-c A -c B): each shown, then summed
"$PIPESCOPE" -c "127.0.0.1:$port" -c "127.0.0.1:$port2" -t 1 -J >"$dir/m.json" 2>&1
n=$(jq '.pipescope.targets | length' "$dir/m.json")
tot=$(jq '.end.sum_received.bytes' "$dir/m.json")
each=$(jq '[.pipescope.targets[].end.sum_received.bytes] | add' "$dir/m.json")
check "two targets: two reports ($n)" [ "$n" = 2 ]
check "two targets: the total is the sum of both ($tot = $each)" [ "$tot" = "$each" -a "$tot" -gt 0 ]
"$PIPESCOPE" -c "127.0.0.1:$port" -c "127.0.0.1:$port2" -t 1 >"$dir/m.txt" 2>&1
check "two targets in text: per-target blocks and a total" \
	sh -c "grep -c '^=== target' '$dir/m.txt' | grep -qx 2 && grep -q '^\[TOTAL\] 2 targets' '$dir/m.txt'"

# the client killed mid-test: the server serves the next one at once
"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 10 >/dev/null 2>&1 &
k=$!
sleep 1
kill -9 $k
wait $k 2>/dev/null
sleep 0.5
expect_exit 0 "next test after a killed client" -- timeout 20 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.5
check "server still alive" kill -0 $srv

# the server killed mid-test: the client reports a clear error, no hang
port3=$(free_port 4)
"$PIPESCOPE" -s -p "$port3" >/dev/null 2>&1 &
s3=$!
wait_listen "$port3"
( sleep 1; kill -9 $s3 ) &
start=$(date +%s)
expect_exit 1 "client whose server dies" -- timeout 60 "$PIPESCOPE" -c 127.0.0.1 -p "$port3" -t 10 --rcv-timeout 3000
took=$(( $(date +%s) - start ))
check "it gave up quickly (${took}s)" [ $took -le 15 ]
case $OUT in *"Partial results"*) pass "partial results shown" ;; *) fail "no partial results: $OUT" ;; esac
wait $s3 2>/dev/null

# garbage on the control port: refused, and the server serves on
timeout 5 bash -c "printf 'GET / HTTP/1.0\r\n\r\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' >/dev/tcp/127.0.0.1/$port" ||
	fail "could not send garbage to the server"
sleep 0.3
check "server alive after garbage" kill -0 $srv
expect_exit 0 "a test after garbage" -- timeout 20 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.5
# --idle-timeout: a one-off server nobody uses stops by itself
porti=$(free_port 6)
start=$(date +%s)
expect_exit 0 "-1 --idle-timeout 1 stops when idle" -- timeout 20 "$PIPESCOPE" -s -1 -p "$porti" --idle-timeout 1
took=$(( $(date +%s) - start ))
check "idle one-off server stopped after about 1 s (${took}s)" [ $took -le 4 ]
# and a long-running one still serves after re-opening its socket
porti2=$(free_port 7)
bg "$PIPESCOPE" -s -p "$porti2" --idle-timeout 1
wait_listen "$porti2"
sleep 2.5
expect_exit 0 "a test after the idle re-open" -- timeout 20 "$PIPESCOPE" -c 127.0.0.1 -p "$porti2" -t 0.3
rm -rf "$dir"
finish
