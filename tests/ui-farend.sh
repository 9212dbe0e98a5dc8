#!/bin/sh
# ui-farend.sh: the workstation's CPU panel shows the far end's cores beside
# this host's when the peer is a pipescope server on another machine that
# shares its probes:
#   - a server reading a recorded 4-core machine (pipescope -s --sysroot
#     TREE: its shared readings come from the tree, as from another host):
#     the panel is split "this host | far end" and view 3 names the far
#     end's host, cores and interface;
#   - the self-test and a live server on this machine (same boot id): one
#     side only, and view 3 says the far end is this machine;
#   - a pipescope server with --no-share-probes: one side only, and view 3
#     says why the far end is missing;
#   - an iperf3 server: one side only, "only its total CPU, at the end";
#   - a far end whose NIC's PCIe link is downgraded (a recorded machine):
#     the live findings strip shows it as the far end's.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

SRV=""
stop_srv() {
	stop_pid "$SRV"
	SRV=""
}
trap 'stop_srv; ui_cleanup' EXIT

ncpu=$(grep -c '^cpu[0-9]' /proc/stat)

TREE="$top_srcdir/tests/fixtures/machines/i40e-4cpu"
[ -d "$TREE/proc" ] || skip "the recorded machine trees are not here (release tarball)"

# start_srv ARGS...: a pipescope server in the background on $port
start_srv() {
	port=$(free_port)
	"$PIPESCOPE" -s -p "$port" --no-tui "$@" >/dev/null 2>&1 &
	SRV=$!
	wait_listen "$port" || fail "server did not listen"
}

start_srv --sysroot "$TREE"
ui_start 100 30 "env LC_ALL=C.UTF-8 TERM=xterm $PIPESCOPE -c 127.0.0.1 -p $port -t 20"
ui_expect "another machine: the CPU panel is split" 'CPU: this host \| far end' 10
ui_expect "another machine: both halves have a heading" 'this host .*\|far end i40e-host' 5
ui_save "ui-farend-dashboard"
ui_keys 3
ui_expect "view 3: the far end's cores, host and interface" \
	"far end: 4 cores, i40e-host, interface eth0" 5
T_COUNT=$((T_COUNT + 1))
# a core bar on each side of the divider: "0 [###] 12%" twice on one line,
# and the far end's core 3 (this host has $ncpu)
if ui_cap | grep -Eq '^ +0 \[.*\] *[0-9]+%.*\| +0 \[.*\] *[0-9]+%' &&
	ui_cap | grep -Eq '\| +3 \[.*\] *[0-9]+%'; then
	pass "view 3: core 0 of each host on one line, the far end's four cores"
else
	fail "view 3: no bars for both hosts"
	ui_cap | sed 's/^/  | /'
fi
ui_save "ui-farend-cpu"
ui_keys q
ui_expect "q quits" 'EXIT:0' 10
stop_srv

# a far end whose NIC trained its PCIe link at x1: its finding is in the
# live findings strip, marked as the far end's
start_srv --sysroot "$top_srcdir/tests/fixtures/machines/pcie-downgraded"
ui_start 100 30 "env LC_ALL=C.UTF-8 TERM=xterm $PIPESCOPE -c 127.0.0.1 -p $port -t 20"
ui_expect "the far end's downgraded PCIe link in the findings" \
	'far end \(pcie-host\): PCIe link downgraded' 10
ui_save "ui-farend-findings"
ui_keys q
stop_srv

# view3 ARGS...: the workstation with these arguments, its test running,
# on view 3 (CPU)
view3() {
	ui_start 100 30 "env LC_ALL=C.UTF-8 TERM=xterm $PIPESCOPE $* -t 20"
	ui_wait 'sum [1-9]' 10
	ui_keys 3
}

# one_host FAIL PASS: the panel is not split (the two messages)
one_host() {
	T_COUNT=$((T_COUNT + 1))
	ui_cap | grep -q 'this host | far end' && fail "$1" ||
		pass "$2"
}

# the same machine: the self-test, and a live server
view3
ui_expect "self-test: view 3 says the far end is this machine" 'far end: this machine' 5
one_host "self-test: the same cores shown twice" "self-test: one host only"
ui_keys q
start_srv
view3 -c 127.0.0.1 -p "$port"
ui_expect "live server here: view 3 says the far end is this machine" 'far end: this machine' 5
ui_keys q
stop_srv

start_srv --sysroot "$TREE" --no-share-probes
view3 -c 127.0.0.1 -p "$port"
ui_expect "--no-share-probes: view 3 says why" 'no readings yet, or the server runs with --no-share-probes' 5
one_host "--no-share-probes: split panel without data" "--no-share-probes: one host only"
ui_keys q
stop_srv

if command -v iperf3 >/dev/null 2>&1; then
	port=$(free_port)
	iperf3 -s -p "$port" >/dev/null 2>&1 &
	SRV=$!
	wait_listen "$port" || fail "iperf3 did not listen"
	# two streams: an iperf3 before 3.16 serves them from one thread (one
	# stream needs no more, and nothing is said then: unit test-check)
	view3 -c 127.0.0.1 -p "$port" -P 2
	ui_expect "iperf3 peer: view 3 says what is known" 'far end \(iperf3\): only its total CPU' 5
	# the finding's title and body say the same (issue 16 item 7)
	ui_keys 6
	ui_expect "iperf3 peer: the finding says all streams share one thread" \
		'The far end is iperf3 .*: all streams in one thread' 10
	ui_absent "iperf3 peer: not 'one thread for every stream'" \
		'one thread for every stream'
	ui_keys q
	stop_srv
fi
finish
