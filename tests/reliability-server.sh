#!/bin/bash
# reliability-server.sh: no client can wedge "pipescope -s". One that stops
# reading its control connection (a scripted client, or a pipescope client
# suspended with SIGSTOP) loses its test within --rcv-timeout, its slot is
# free again and SIGTERM still stops the server within 2 s; a stray byte in
# UDP set-up does not hold up another client's UDP test. -F refuses
# --skip-rx-copy (both ends) and a second upload into its file at the same
# time; --cport past 65535 is refused. A client that trickles bytes after
# TEST_END holds its test no longer than --server-max-duration allows.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd python3 python3
FAKE=$top_srcdir/tests/tools/ps-fakeclient.py
dir=$(mktemp -d)
NS=""
cleanup() {
	kill_bg
	[ -n "$NS" ] && ip netns del "$NS" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# wait_for SECONDS CMD...: until CMD succeeds; 1 if it never did
wait_for() {
	local i=0
	while [ $i -lt $(( $1 * 10 )) ]; do
		"${@:2}" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# term_within PID SECONDS WHAT: SIGTERM, then the server must be gone in time
term_within() {
	local t0 took
	t0=$(now_ms)
	kill -TERM "$1"
	wait_for "$2" eval '! kill -0 '"$1"' 2>/dev/null'
	took=$(( $(now_ms) - t0 ))
	check "$3: SIGTERM stops the server (${took} ms, at most $2 s)" \
		eval '! kill -0 '"$1"' 2>/dev/null'
	kill -9 "$1" 2>/dev/null
}
# abandoned WHAT LOG T0 MAX_MS: the server ends the test in time and says so
abandoned() {
	local took
	wait_for 12 grep -q "went silent\|stopped reading" "$2"
	took=$(( $(now_ms) - $3 ))
	check "$1: its test is abandoned ($took ms)" \
		grep -q "went silent\|stopped reading" "$2"
	check "$1: in time (at most $4 ms)" \
		[ "$took" -le "$4" ]
}

# --- a client that stops reading, in a namespace of our own whose small
# socket buffers fill in seconds (the server's snapshots, 1 Hz, fill them)
if [ "$(id -u)" = 0 ] && ip netns add "ps-srv-$$" 2>/dev/null; then
	NS=ps-srv-$$
	N="ip netns exec $NS"
	$N ip link set lo up
	$N sysctl -qw net.ipv4.tcp_wmem="4096 16384 32768" \
		net.ipv4.tcp_rmem="4096 8192 16384"
	port=$(free_port 51)
	listening() { $N ss -Htln "sport = :$port" | grep -q .; }
	blocked() { $N ss -Htn "sport = :$port" | awk '$3 > 25000 { f = 1 } END { exit !f }'; }
	# served WHAT PID: the next client is served, SIGTERM stops the
	# server, and the client PID goes
	served() {
		expect_exit 0 "$1: the next client is served" -- \
			timeout 15 $N "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 1 -i 0
		term_within "$srv" 2 "$1"
		kill -9 "$2" 2>/dev/null
		wait "$2" 2>/dev/null
	}
	# server RCV_TIMEOUT LOG [OPTION...]: a server ($srv) in the namespace
	server() {
		bg $N "$PIPESCOPE" -s -p "$port" --rcv-timeout "$1" --max-tests 1 \
			"${@:3}" >/dev/null 2>"$2"
		srv=$LAST_PID
		wait_for 5 listening || fail "server did not start"
	}
	# stall OUT [SECONDS]: the scripted client ($fk), once the server's
	# send blocks
	stall() {
		$N python3 "$FAKE" 127.0.0.1 "$port" stall "${2:-30}" >"$1" 2>&1 &
		fk=$!
		wait_for 5 grep -qs running "$1"
		wait_for 20 blocked
	}

	# the scripted client: it keeps sending data, never reads
	server 2000 "$dir/s1.log"
	stall "$dir/f1.out"
	abandoned "client that stops reading (--rcv-timeout 2000, from the blocked send)" \
		"$dir/s1.log" "$(now_ms)" 3500
	served "client that stops reading" "$fk"

	# --server-max-duration 3: the test ends 3 s + 5 s after its start
	server 60000 "$dir/s4.log" --server-max-duration 3
	t0=$(now_ms)
	stall "$dir/f4.out" 3
	abandoned "client that stops reading (--server-max-duration 3, from the start)" \
		"$dir/s4.log" "$t0" 10000
	served "client that stops reading, --server-max-duration" "$fk"

	# SIGTERM while the send is blocked (a long --rcv-timeout)
	server 60000 "$dir/s2.log"
	stall "$dir/f2.out"
	sleep 1
	term_within "$srv" 2 "server blocked on a client that stops reading"
	kill "$fk" 2>/dev/null
	wait "$fk" 2>/dev/null

	# a pipescope client (it asks for snapshots with -J) suspended
	server 6000 "$dir/s3.log"
	$N "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 60 -b 10M -J >/dev/null 2>&1 &
	k=$!
	sleep 1
	kill -STOP "$k"
	abandoned "suspended client (--rcv-timeout 6000)" "$dir/s3.log" "$(now_ms)" 7500
	served "suspended client" "$k"
	ip netns del "$NS"
	NS=""
else
	echo "SKIP part: a client that stops reading needs root (a network namespace)"
fi

# --- UDP set-up: the server's port takes one test's hellos at a time. A
# stray byte on the control connection ends that set-up at once (it made
# the loop spin with the lock held); a client that sends no hello holds it
# 3 s at most. Another client's 1 s UDP test goes on.
port=$(free_port 52)
bg "$PIPESCOPE" -s -p "$port" --max-tests 2 --handshake-timeout 10 \
	>"$dir/u.out" 2>"$dir/u.log"
srv=$LAST_PID
wait_listen "$port" || fail "server did not start"
cpu() { awk '{ print $14 + $15 }' "/proc/$srv/stat"; }
# beside MODE MAX_MS WHAT: an honest UDP test while the fake client sits in
# its set-up, within MAX_MS, and the server does not spin meanwhile
beside() {
	local c0 t0 took
	python3 "$FAKE" 127.0.0.1 "$port" "$1" >"$dir/fu.out" 2>&1 &
	fk=$!
	wait_for 5 grep -qs in-setup "$dir/fu.out"
	c0=$(cpu)
	t0=$(now_ms)
	expect_exit 0 "an honest UDP test beside $3" -- \
		timeout 20 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -u -b 10M -t 1 -i 0
	took=$(( $(now_ms) - t0 ))
	check "beside $3: the honest UDP test took ${took} ms (at most $2)" \
		[ "$took" -le "$2" ]
	check "beside $3: the server did not spin ($(( $(cpu) - c0 )) ticks of CPU)" \
		[ $(( $(cpu) - c0 )) -le 100 ]
	kill "$fk" 2>/dev/null
	wait "$fk" 2>/dev/null
}
beside udp-byte 2500 "a client with a stray byte in set-up"
check "the server says why it ended that set-up" \
	grep -q "data streams did not arrive: Protocol error" "$dir/u.log"
beside udp-silent 5500 "a client that sends no hello"
term_within "$srv" 2 "UDP"

# --- the end of a test is bounded too (issue 24 item 9): an upload that
# says TEST_END, then trickles a byte every 20 ms and never closes its
# stream, to a -F server with --server-max-duration 2 and one test slot:
# the drain and the results end at the limit (2 s + 5 s), not 60 s later
port=$(free_port 55)
bg "$PIPESCOPE" -s -p "$port" -F "$dir/trickled" --max-tests 1 \
	--server-max-duration 2 >"$dir/t.out" 2>"$dir/t.log"
srv=$LAST_PID
if wait_listen "$port"; then
	t0=$(now_ms)
	python3 "$top_srcdir/tests/fuzz/fake-server.py" trickle "$port" 70 \
		>"$dir/trickle.out" 2>&1 &
	fk=$!
	wait_for 5 grep -qs trickling "$dir/trickle.out"
	# the next client, tried each second until the slot is free again
	ok=0
	while [ $(( $(now_ms) - t0 )) -lt 75000 ]; do
		if timeout 15 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 1 -i 0 \
			>/dev/null 2>&1; then
			ok=1
			break
		fi
		sleep 1
	done
	took=$(( $(now_ms) - t0 ))
	check "a client that trickles after TEST_END: the next client is served" [ $ok = 1 ]
	check "the slot is free at the limit (${took} ms, at most 11000)" \
		[ "$took" -le 11000 ]
	wait_for 5 grep -qs held "$dir/trickle.out"
	echo "trickling client: $(grep held "$dir/trickle.out"); next client served after $took ms"
	kill "$fk" 2>/dev/null
	wait "$fk" 2>/dev/null
	term_within "$srv" 2 "a client that trickles after TEST_END"
else
	fail "the -F server did not start"
fi

# one_line WHAT: the refusal of the last expect_exit is one line that says why
one_line() {
	check "$1: one line ($ERR)" [ "$(printf '%s\n' "$ERR" | wc -l)" -eq 1 ]
}

# --- -F with --skip-rx-copy: nothing is copied, so nothing could be written
expect_exit 2 "-F with --skip-rx-copy on the command line" -- \
	"$PIPESCOPE" -c 127.0.0.1 -p "$(free_port 54)" -R -F "$dir/x" --skip-rx-copy
one_line "-F with --skip-rx-copy"
port=$(free_port 53)
head -c 20000000 /dev/urandom >"$dir/up1"
head -c 20000000 /dev/urandom >"$dir/up2"
bg "$PIPESCOPE" -s -p "$port" -F "$dir/got" --max-tests 2 >"$dir/f.out" 2>"$dir/f.log"
srv=$LAST_PID
wait_listen "$port" || fail "server did not start"
expect_exit 1 "a client's skip_rx_copy with the server's -F: refused" -- \
	timeout 20 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.5 --skip-rx-copy
case $ERR in *"refused --skip-rx-copy"*) pass "the client says so: $ERR" ;;
	*) fail "the client does not say why: $ERR" ;; esac
T_COUNT=$((T_COUNT + 1))
check "the server says why" grep -q "skip-rx-copy, but this server writes" "$dir/f.log"

# --- -F and --max-tests 2: one upload at a time into the file
timeout 30 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -F "$dir/up1" -b 50M -i 0 \
	>/dev/null 2>"$dir/up1.err" &
k=$!
wait_for 5 [ -s "$dir/got" ]
expect_exit 1 "a second upload into the same -F file, at the same time" -- \
	timeout 30 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -F "$dir/up2" -b 200M -i 0
case $ERR in *"another test is writing the server's -F file"*) pass "the client says so: $ERR" ;;
	*) fail "the client does not say why: $ERR" ;; esac
T_COUNT=$((T_COUNT + 1))
check "the server says why" grep -q "another test is writing the file" "$dir/f.log"
wait "$k"
check "the first upload succeeds" [ $? = 0 ]
check "the file is the first upload, whole" cmp -s "$dir/up1" "$dir/got"
expect_exit 0 "the next upload, once the first is done" -- \
	timeout 30 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -F "$dir/up2" -b 1G -i 0
check "the file is now the second upload" cmp -s "$dir/up2" "$dir/got"
term_within "$srv" 2 "-F"

# --- --cport: the streams' ports must fit below 65536
expect_exit 2 "--cport 65530 -P 7" -- \
	"$PIPESCOPE" -c 127.0.0.1 -p "$(free_port 54)" --cport 65530 -P 7
one_line "--cport 65530 -P 7"
expect_exit 2 "--cport 65535 --bidir" -- \
	"$PIPESCOPE" -c 127.0.0.1 -p "$(free_port 54)" --cport 65535 --bidir
one_line "--cport 65535 --bidir"
finish
