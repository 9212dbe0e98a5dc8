#!/bin/sh
# ui-room.sh: the panels take the room they need (issue 16, item 14): at
# 200x60 the graph fills its width from the first seconds, the streams
# panel is as tall as its rows (the graph gets the rest), the findings
# strip grows to hold its lines; view 2's rows end in per-stream
# sparklines where there is room, view 3's core bars in per-core ones;
# the graph's axis is the shown test's, so
# it shrinks for a slower test.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

ui_start 200 60 "env LC_ALL=C TERM=xterm $PIPESCOPE -P 4 -t 2"
ui_expect "the test runs" '\[running\]' 10
ui_expect "after a second or two the graph spans its width" \
	'^ +\|#{100,}' 5
ui_expect "it says it is stretched" 'this test, stretched to the width' 2
ui_expect "the test ends" '\[done\]' 10
T_COUNT=$((T_COUNT + 1))
empty=$(ui_cap | awk '/^ Streams /{on=1; next} / NIC /{on=0} on && substr($0, 1, 100) ~ /^ *\|? *$/ {n++} END {print n + 0}')
if [ "$empty" -le 1 ]; then
	pass "the streams panel has no empty rows to spare ($empty)"
else
	fail "the streams panel keeps $empty empty rows"
	ui_cap | sed 's/^/  | /'
fi
ui_absent "the findings strip holds its lines" '\(and [0-9]+ more: view 6\)'
ui_save ui-room-200x60
# view 2 has room for each stream's sparkline of its intervals
ui_keys 2
ui_expect "view 2: a sparkline ends each stream's row" \
	'^\[  1\] send .*rx [0-9]+  [.:#]{2,} *$' 5
# view 3: a wide core bar ends in the core's busy % over the last seconds
ui_keys 3
ui_expect "view 3: a sparkline ends a core's bar" \
	'^ +[0-9]+ \[.*\] +[0-9]+% *(<)? +[ .:#]*[.:#]{2,} *\|? *$' 5
ui_save ui-room-cpu-200x60
ui_keys 1
# a UDP test at 1 Mbit/s after a TCP one at Gbit/s: the axis follows
ui_keys u s
ui_expect "UDP runs" 'UDP  send  4 streams  [0-9]/2 s  \[running\]' 10
ui_expect "the axis is the UDP test's (k or M, not G)" \
	'^ *[0-9.]+[kM]\|' 10
ui_keys q
ui_expect "q quits" 'EXIT:0' 10
finish
