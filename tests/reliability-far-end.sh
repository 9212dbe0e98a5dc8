#!/bin/bash
# reliability-far-end.sh: a hostile server's probe snapshots (EXT_PROBE)
# against "pipescope -c" (issue 24 items 7 and 8). An IRQ table shaped to
# amplify (60000 CPUs by 25000 lines of zeros, 170 KB) is left out with one
# line, with -J, with the history and as "iperf3 -c"; a client that did not
# ask for the far end's probes reads past them unparsed and says so once;
# the costliest snapshot still accepted keeps the client under 64 MiB; a
# far end whose counters grow past what any host counts, and go back, has
# none of those numbers in the checklist's findings (item 8).
# The scripted server is tests/fuzz/fake-server.py (python3, 127.0.0.1).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd python3 python3
FAKE="python3 $top_srcdir/tests/fuzz/fake-server.py"
dir=$(mktemp -d)
trap 'kill_bg; rm -rf "$dir"' EXIT
MIB64=$(mem_bound_kib)
export PIPESCOPE_HISTORY="$dir/hist/history.db"
mkdir -m 700 "$dir/hist"

# a real snapshot to start from: the recorded 4-CPU i40e host
base=$dir/base.json
"$PIPESCOPE" probe --sysroot "$top_srcdir/tests/fixtures/machines/i40e-4cpu" \
	--iface eth0 --json >"$base" ||
	fail "probe --json of the i40e-4cpu tree"

# serve STEPS -- CLIENT-ARGS: $STATUS $SECS $PEAK (KiB), stderr+stdout in $dir/run
serve() {
	$FAKE script "$PIPESCOPE" "$@" >"$dir/run" 2>&1
	read -r _ STATUS _ SECS _ PEAK <<<"$(head -1 "$dir/run")"
}
said() { grep -c -- "$1" "$dir/run"; }
clean() { ! grep -qE "AddressSanitizer|runtime error:|LeakSanitizer" "$dir/run"; }
peer_snapshot() { grep -q '"peer_snapshot"' "$dir/run"; }
T="-t 1 -i 0 --rcv-timeout 3000"
TEST="PE ACK CS TS TR"
ENDS="SLEEP=0.5 END XR DR"

# ok NAME: status 0, no sanitizer report, under 64 MiB
ok() {
	check "$1: status 0 ($STATUS)" [ "$STATUS" = 0 ]
	check "$1: no sanitizer report" clean
	check "$1: client peak $PEAK KiB < 64 MiB" [ "$PEAK" -lt $MIB64 ]
}

# item 7: the amplifying IRQ table, asked for (-J, the history) and not
for args in "-J --no-history" "" "-J"; do
	name="amplifying IRQ table, client ${args:-with the history}"
	serve $TEST SNAP=amplify:$base SNAP=amplify:$base $ENDS -- $T $args
	ok "$name"
	check "$name: said once" \
		[ "$(said "the server.s probe snapshot was left out: the snapshot lists .* entries in one place; pipescope reads at most 16384")" = 1 ]
	case $args in *-J*)
		check "$name: no far-end snapshot in -J" eval '! peer_snapshot' ;;
	esac
done
# not asked for (no -J, no history): read past, one line, nothing parsed
serve $TEST SNAP=amplify:$base SNAP=amplify:$base $ENDS -- $T --no-history
ok "EXT_PROBE not asked for"
check "EXT_PROBE not asked for: said once" \
	[ "$(said "probe readings, which this client did not ask for; ignored")" = 1 ]
check "EXT_PROBE not asked for: not parsed" \
	[ "$(said "left out")" = 0 ]
# the drop-in "iperf3 -c" that perfSONAR runs, with -J
ln -s "$(command -v "$PIPESCOPE" || echo "$PIPESCOPE")" "$dir/iperf3"
$FAKE script "$dir/iperf3" $TEST SNAP=amplify:$base $ENDS -- $T -J >"$dir/run" 2>&1
read -r _ STATUS _ SECS _ PEAK <<<"$(head -1 "$dir/run")"
ok "amplifying IRQ table, as iperf3 -c -J"

# the costliest snapshot the client accepts, three times (the first is
# kept, the newest replaces the one before), with -J and the history; in a
# sanitizer build with fast unwinding (a slow unwind on each of json-c's
# million allocations takes the client past the server's 3 s waits)
[ "$MIB64" = 65536 ] ||
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=1"
serve $TEST SNAP=worst:$base SNAP=worst:$base SNAP=worst:$base $ENDS -- $T -J
ok "the costliest snapshot accepted, -J and the history"
check "the costliest snapshot accepted: in -J" peer_snapshot
check "the costliest snapshot accepted: nothing said" \
	[ "$(said "left out")" = 0 ]
echo "client peak RSS under the costliest EXT_PROBE accepted (-J, history): $PEAK KiB"

# item 8: a far end whose counters no host could count: a real server on a
# recorded tree (--sysroot) whose /proc/net/snmp, netstat and tc text
# tests/fuzz/grow-counters.py rewrites every 0.2 s, grown by k * 2^58 and
# back; the checklist's findings tell none of those numbers
tree=$dir/tree
cp -r "$top_srcdir/tests/fixtures/machines/i40e-4cpu" "$tree" &&
	mkdir -p "$tree/tc" && cp /proc/net/snmp /proc/net/netstat "$tree/proc/net/" &&
	grep -v '^#' "$top_srcdir/tests/fixtures/tc/tc-s-qdisc-class_tbf-short-limit_veth_pipescope.txt" |
	sed 's/dev qra//' >"$tree/tc/eth0.txt" || fail "the grown counters' tree"
bg python3 "$top_srcdir/tests/fuzz/grow-counters.py" "$tree" "$dir/stop"
grower=$LAST_PID
PORT8=$(free_port 8)
bg "$PIPESCOPE" -s -p "$PORT8" --sysroot "$tree" >"$dir/server8.log" 2>&1
server8=$LAST_PID
sleep 0.5
"$PIPESCOPE" check -c 127.0.0.1 -p "$PORT8" --quick -t 1 --format json \
	--no-history >"$dir/c8.json" 2>"$dir/c8.err" && RC=0 || RC=$?
touch "$dir/stop"
stop_pid "$server8"
stop_pid "$grower"
check "far end's grown counters: check exit $RC (0 or 3)" eval '[ "$RC" = 0 ] || [ "$RC" = 3 ]'
check "far end's grown counters: no sanitizer report" \
	eval '! grep -qE "AddressSanitizer|runtime error:|LeakSanitizer" "$dir/c8.err"'
check "far end's grown counters: the far end's readings were used" \
	[ "$(jq '[.steps[] | select(.far_end_cpu != null)] | length' "$dir/c8.json")" -gt 0 ]
# no count of 11 digits or more in what a finding says, no fact past 2^48
big=$(jq -r '.findings[] | [.title, .evidence, .remedy] | join(" ")' "$dir/c8.json" |
	grep -oE '[0-9]{11,}' | head -3 | tr '\n' ' ')
check "far end's grown counters: no finding tells one (${big:-none})" [ -z "$big" ]
bigfact=$(jq '[.findings[].facts // [] | .[] | select(.unit == "count" and
	(.value // 0) > 281474976710656) | .key] | join(",")' -r "$dir/c8.json")
check "far end's grown counters: no count fact past 2^48 (${bigfact:-none})" [ -z "$bigfact" ]
finish
