#!/bin/sh
# ui-directions.sh: the workstation's guided run answers per direction
# (issue 23): between two network namespaces, the far end (a pipescope
# server) shapes its egress only with an htb class; after g, the answer on
# the screen has a line for each direction, the far end sending marked the
# slower one and bound by the far end's shaper with its rate, this end
# sending not; the header says how the last step ended (the median of its
# runs, done). At 120x40, then the same answer at 80x24.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_root "network namespaces and qdiscs"
need_cmd tc iproute2
. "$top_srcdir/tests/ui-lib.sh"

NA=psud-a-$$
NB=psud-b-$$
VA=puda$$
VB=pudb$$
ADDR_A=10.78.$(($$ % 200)).1
ADDR_B=10.78.$(($$ % 200)).2
PORT=5201
SRV=""
trap 'stop_pid "$SRV"; netns_teardown "$NA" "$NB"; ui_cleanup' EXIT

netns_pair "$NA" "$NB" "$VA" "$VB" "$ADDR_A" "$ADDR_B" ||
	skip "cannot create network namespaces"
tc -n "$NB" qdisc add dev "$VB" root handle 1: htb default 10 &&
	tc -n "$NB" class add dev "$VB" parent 1: classid 1:10 htb rate 300mbit ceil 300mbit quantum 60000 ||
	skip "no htb in this kernel"
ip netns exec "$NB" "$PIPESCOPE" -s -p $PORT --no-tui >/dev/null 2>&1 &
SRV=$!
wait_listen $PORT "$NB" || fail "the server did not listen"

for size in "120 40" "80 24"; do
	set -- $size
	ui_start "$1" "$2" "ip netns exec $NA env LC_ALL=C TERM=xterm $PIPESCOPE -c $ADDR_B -p $PORT --quick -t 1"
	ui_expect "$1x$2: the test runs" '\[running\]|\[done\]' 10
	ui_keys g
	ui_expect "$1x$2: the guided run starts" '^ Guided checklist ' 10
	ui_expect "$1x$2: the run ends" 'done; w writes the report' 60
	# the header describes the last step as it ended (issue 25 item 2)
	ui_expect "$1x$2: the header: the last step's median and runs, done" \
		' sum [0-9.]+ [kMG]?bit/s, the median of 2 runs of [0-9.]+ s each \(done\)' 5
	ui_absent "$1x$2: no 'last known (failed)' for a step that is done" \
		'last known \(failed\)'
	ui_expect "$1x$2: this end sending has its line" \
		'^ +this end sending: [0-9.]+ [kMG]?bit/s' 5
	ui_expect "$1x$2: the far end sending is the slower direction" \
		'^ +the far end sending: [0-9.]+ [kMG]?bit/s, the slower' 5
	# the answer's lines wrap at the width: read them joined
	T_COUNT=$((T_COUNT + 1))
	if ui_cap | tr -s ' \n' '  ' | grep -Eq "the far end sending: [^;]*; binding: rate of htb class 1:10 on the far end's $VB, 300.0 Mbit/s; top finding: The far end's htb class 1:10"; then
		pass "$1x$2: bound by the far end's shaper at its rate, its top finding"
	else
		fail "$1x$2: the far end sending is not bound by the far end's shaper"
		ui_cap | sed 's/^/  | /'
	fi
	ui_absent "$1x$2: this end sending is not called slower" \
		'this end sending: [0-9.]+ [kMG]?bit/s, the slower'
	ui_save "ui-directions-$1x$2"
	ui_keys q
	ui_expect "$1x$2: q quits" 'EXIT:0' 10
done
finish
