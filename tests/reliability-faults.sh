#!/bin/bash
# reliability-faults.sh: broken peers mid-test. The client SIGKILLed or
# frozen (SIGSTOP), the server SIGKILLed, one data stream reset (ss -K), the
# veth link between two namespaces set down. The survivor shows partial
# results marked as such and a clear error, frees its threads and sockets,
# gives up within --rcv-timeout, and the server serves on.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
dir=$(mktemp -d)
NSA="" NSB=""
cleanup() {
	kill_bg
	[ -n "$NSA" ] && ip netns del "$NSA" 2>/dev/null
	[ -n "$NSB" ] && ip netns del "$NSB" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT

port=$(free_port 21)
bg "$PIPESCOPE" -s -p "$port" --rcv-timeout 3000 >"$dir/srv.out" 2>"$dir/srv.log"
srv=$LAST_PID
wait_listen "$port" || { fail "server did not start"; finish; }

threads() { ls "/proc/$1/task" 2>/dev/null | wc -l; }
fds() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
FAULTS=0

# the server is back to its idle state: one thread, baseline fds
idle_again() {
	local i=0
	while [ $i -lt 30 ]; do
		[ "$(threads "$srv")" -eq "$th0" ] && [ "$(fds "$srv")" -le "$fd0" ] && break
		sleep 0.2
		i=$((i + 1))
	done
	check "$1: server threads back to $th0 ($(threads "$srv")), fds to $fd0 ($(fds "$srv"))" \
		[ "$(threads "$srv")" -eq "$th0" -a "$(fds "$srv")" -le "$fd0" ]
	expect_exit 0 "$1: the server serves the next client" -- \
		timeout 15 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.3 -i 0
}

expect_exit 0 "warm-up test" -- timeout 15 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.3
th0=$(threads "$srv")
fd0=$(fds "$srv")

# --- the client SIGKILLed in the middle of a test, four kinds of test
for args in "-P 4" "-R -P 2" "-u -b 200M -P 2" "--bidir" "-u -R -b 100M"; do
	before=$(grep -c "the client has gone" "$dir/srv.log")
	"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 10 $args >/dev/null 2>&1 &
	k=$!
	sleep 1.2
	kill -9 $k
	wait $k 2>/dev/null
	FAULTS=$((FAULTS + 1))
	# the server notices within a moment (3 s at most: a sanitizer build
	# on a busy machine is slow)
	i=0
	while [ $i -lt "$(($(slack_ms 3000) / 100))" ] &&
		[ "$(grep -c "the client has gone" "$dir/srv.log")" -le "$before" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	check "client SIGKILLed ($args): the server logs it" \
		[ "$(grep -c "the client has gone" "$dir/srv.log")" -gt "$before" ]
	idle_again "client SIGKILLed ($args)"
done
check "the server marks its results partial" grep -q "Partial results" "$dir/srv.out"

# --- the client frozen (SIGSTOP): the server gives up after --rcv-timeout
"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 30 -P 2 >/dev/null 2>&1 &
k=$!
sleep 1
kill -STOP $k
t0=$(now_ms)
FAULTS=$((FAULTS + 1))
i=0
while [ $i -lt "$(($(slack_ms 10000) / 100))" ] && ! grep -q "went silent" "$dir/srv.log"; do
	sleep 0.1
	i=$((i + 1))
done
took=$(( $(now_ms) - t0 ))
check "frozen client: the server abandons the test (${took} ms, --rcv-timeout 3000)" \
	grep -q "went silent" "$dir/srv.log"
check "frozen client: within the timeout and a little" [ "$took" -le "$(slack_ms 5000)" ]
kill -9 $k
wait $k 2>/dev/null
idle_again "frozen client"

# --- the server SIGKILLed: the client reports partial results and an error
for args in "-R" "-u -b 100M" "-u -R -b 100M" "-P 3"; do
	p2=$(free_port 22)
	"$PIPESCOPE" -s -p "$p2" >/dev/null 2>&1 &
	s2=$!
	wait_listen "$p2"
	( sleep 1.2; kill -9 $s2 ) &
	t0=$(now_ms)
	expect_exit 1 "server SIGKILLed ($args): the client fails" -- \
		timeout 30 "$PIPESCOPE" -c 127.0.0.1 -p "$p2" -t 10 --rcv-timeout 3000 -J $args
	took=$(( $(now_ms) - t0 ))
	FAULTS=$((FAULTS + 1))
	wait $s2 2>/dev/null
	check "server SIGKILLed ($args): gave up in ${took} ms (< 1.2 s + 3 s + 1 s)" [ "$took" -le "$(slack_ms 5200)" ]
	check "server SIGKILLed ($args): JSON marks it partial" \
		jq -e '.pipescope.partial == true' <<<"$OUT" >/dev/null
	check "server SIGKILLed ($args): JSON says why" \
		jq -e '.error | length > 0' <<<"$OUT" >/dev/null
	check "server SIGKILLed ($args): what was measured is kept" \
		jq -e '(.end.sum_sent.bytes // 0) + (.end.sum_received.bytes // 0) > 0' <<<"$OUT" >/dev/null
done

# --- one data stream reset (ss -K): the test ends, partial, both ends say so
if [ "$(id -u)" = 0 ]; then
	for args in "" "-R"; do
		cport=$(free_port 23)
		before=$(grep -c "data stream .* failed" "$dir/srv.log")
		"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 6 -P 2 -b 300M --cport "$cport" \
			$args >"$dir/reset.out" 2>"$dir/reset.err" &
		k=$!
		sleep 1.2
		ss -K -tn "sport = :$cport" >/dev/null 2>&1
		t0=$(now_ms)
		wait $k
		rc=$?
		took=$(( $(now_ms) - t0 ))
		FAULTS=$((FAULTS + 1))
		if [ $rc = 0 ] && ! grep -q failed "$dir/reset.err"; then
			# the kernel may lack CONFIG_INET_DIAG_DESTROY: the reset never happened
			ss -tn "sport = :$cport" | grep -q . && skip "ss -K cannot destroy sockets here"
		fi
		check "stream reset ($args): the client fails (rc $rc)" [ $rc = 1 ]
		check "stream reset ($args): it says which stream ($(cat "$dir/reset.err"))" \
			grep -q "data stream [0-9]* failed" "$dir/reset.err"
		check "stream reset ($args): partial results" grep -q "Partial results" "$dir/reset.out"
		check "stream reset ($args): at once (${took} ms)" [ "$took" -le "$(slack_ms 2000)" ]
		sleep 0.3
		check "stream reset ($args): the server logs it" \
			[ "$(grep -c "data stream .* failed\|the client has gone" "$dir/srv.log")" -gt "$before" ]
		idle_again "stream reset ($args)"
	done
fi

# --- the link set down between two namespaces during a test
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null; then
	NSA=ps-flt-a-$$
	NSB=ps-flt-b-$$
	net=10.$(( 100 + $$ % 100 )).$(( $$ / 100 % 250 ))
	ip netns add "$NSA" && ip netns add "$NSB" &&
	ip link add vA$$ netns "$NSA" type veth peer name vB$$ netns "$NSB" &&
	ip -n "$NSA" addr add "$net.1/24" dev vA$$ &&
	ip -n "$NSB" addr add "$net.2/24" dev vB$$ &&
	ip -n "$NSA" link set vA$$ up && ip -n "$NSB" link set vB$$ up &&
	ip -n "$NSA" link set lo up && ip -n "$NSB" link set lo up ||
		skip "cannot create network namespaces"
	ip netns exec "$NSB" "$PIPESCOPE" -s -p 5201 --rcv-timeout 3000 \
		>"$dir/ns-srv.out" 2>"$dir/ns-srv.log" &
	nsrv=$!
	BG_PIDS="$BG_PIDS $nsrv"
	sleep 0.5
	# a first test, so that lazily started threads (a sanitizer's) exist
	ip netns exec "$NSA" "$PIPESCOPE" -c "$net.2" -t 0.2 >/dev/null 2>&1
	nth0=$(threads $nsrv)
	nfd0=$(fds $nsrv)
	for args in "-P 2" "-R" "-u -b 100M"; do
		( sleep 1.5; ip -n "$NSA" link set vA$$ down ) &
		t0=$(now_ms)
		expect_exit 1 "link down ($args): the client fails" -- \
			timeout 40 ip netns exec "$NSA" "$PIPESCOPE" -c "$net.2" -t 20 \
			--rcv-timeout 3000 -J $args
		took=$(( $(now_ms) - t0 ))
		FAULTS=$((FAULTS + 1))
		check "link down ($args): gave up in ${took} ms (1.5 s + 3 s timeout + slack)" \
			[ "$took" -le "$(slack_ms 7500)" ]
		check "link down ($args): JSON partial and an error" \
			jq -e '.pipescope.partial == true and (.error | length > 0)' <<<"$OUT" >/dev/null
		echo "link down ($args): client said: $(jq -r .error <<<"$OUT")"
		# the server's side: abandoned within its --rcv-timeout, threads freed
		i=0
		while [ $i -lt 60 ] && [ "$(threads $nsrv)" -ne "$nth0" ]; do
			sleep 0.1
			i=$((i + 1))
		done
		check "link down ($args): the server freed its threads ($(threads $nsrv)) and fds ($(fds $nsrv))" \
			[ "$(threads $nsrv)" -eq "$nth0" -a "$(fds $nsrv)" -le "$nfd0" ]
		ip -n "$NSA" link set vA$$ up
		sleep 0.3
		expect_exit 0 "link up again ($args): the server serves on" -- \
			timeout 20 ip netns exec "$NSA" "$PIPESCOPE" -c "$net.2" -t 0.3
	done
	echo "link down: the server said:"
	grep -v "^$" "$dir/ns-srv.log" | head -10
	check "link down: the server logged why it ended the tests" \
		grep -q "went silent\|failed\|has gone" "$dir/ns-srv.log"
else
	echo "SKIP part: link down needs root and ip (network namespaces)"
fi
echo "faults: $FAULTS injected"
kill "$srv"
finish
