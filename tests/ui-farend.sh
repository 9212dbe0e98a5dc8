#!/bin/sh
# ui-farend.sh: the workstation's CPU panel shows the far end's cores beside
# this host's when the peer is a pipescope server that shares its probes:
#   - self-test (pipescope on both ends): the dashboard's CPU panel is split
#     "this host | far end" and view 3 names the far end's host, cores and
#     interface;
#   - a pipescope server with --no-share-probes: one side only, and view 3
#     says why the far end is missing;
#   - an iperf3 server: one side only, "only its total CPU, at the end".
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

SRV=""
stop_srv() {
	[ -n "$SRV" ] && kill "$SRV" 2>/dev/null && wait "$SRV" 2>/dev/null
	SRV=""
}
trap 'stop_srv; ui_cleanup' EXIT

ncpu=$(grep -c '^cpu[0-9]' /proc/stat)

ui_start 100 30 "env LC_ALL=C.UTF-8 TERM=xterm $PIPESCOPE -t 20"
ui_expect "self-test: the CPU panel is split" 'CPU: this host \| far end' 10
ui_expect "self-test: both halves have a heading" 'this host .*\|far end ' 5
ui_save "ui-farend-dashboard"
ui_keys 3
ui_expect "view 3: the far end's cores, host and interface" \
	"far end: $ncpu cores, .*, interface lo" 5
T_COUNT=$((T_COUNT + 1))
# a core bar on each side of the divider: "0 [###] 12%" twice on one line
if ui_cap | grep -Eq '^ +0 \[.*\] *[0-9]+%.*\| +0 \[.*\] *[0-9]+%'; then
	pass "view 3: core 0 of each host on one line"
else
	fail "view 3: no bar for core 0 on both sides"
fi
ui_save "ui-farend-cpu"
ui_keys q
ui_expect "self-test: q quits" 'EXIT:0' 10

port=$(free_port)
"$PIPESCOPE" -s -p "$port" --no-tui --no-share-probes >/dev/null 2>&1 &
SRV=$!
wait_listen "$port" || fail "server did not listen"
ui_start 100 30 "env LC_ALL=C.UTF-8 TERM=xterm $PIPESCOPE -c 127.0.0.1 -p $port -t 20"
ui_wait 'sum [1-9]' 10
ui_keys 3
ui_expect "--no-share-probes: view 3 says why" 'no readings yet, or the server runs with --no-share-probes' 5
T_COUNT=$((T_COUNT + 1))
ui_cap | grep -q 'this host | far end' && fail "--no-share-probes: split panel without data" ||
	pass "--no-share-probes: one host only"
ui_keys q
stop_srv

if command -v iperf3 >/dev/null 2>&1; then
	port=$(free_port)
	iperf3 -s -p "$port" >/dev/null 2>&1 &
	SRV=$!
	wait_listen "$port" || fail "iperf3 did not listen"
	ui_start 100 30 "env LC_ALL=C.UTF-8 TERM=xterm $PIPESCOPE -c 127.0.0.1 -p $port -t 20"
	ui_wait 'sum [1-9]' 10
	ui_keys 3
	ui_expect "iperf3 peer: view 3 says what is known" 'far end \(iperf3\): only its total CPU' 5
	ui_keys q
	stop_srv
fi
finish
