#!/bin/sh
# ui-scale.sh: 128 streams on the screen (issue 16, items 11 and 19): every
# row is reachable (arrows, PgUp/PgDn, Home/End, also End as tmux sends it,
# "\e[4~", which must not leak a "4"), the rows sort by rate, rtt, retr and
# limit (o), a total/min/median/max row with Jain's fairness index and,
# above 32 streams, a strip of them all; pausing then picking an interface
# keeps the probe panels.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

ui_start 100 30 "env LC_ALL=C TERM=xterm-256color $PIPESCOPE -P 128 -t 4"
ui_expect "128 streams run" '128 streams  [0-9]+/4 s  \[running\]' 15
ui_expect "the dashboard's table says how to reach the rest" \
	'rows 1-[0-9]+ of 128: arrows' 10
ui_expect "the spread row: total, median, fairness" \
	'total [0-9.]+[kMGT]? min .* med .* fair [01]\.[0-9]{3}' 5
ui_expect "above 32 streams: the strip" '^spread [ .:#]+' 5
ui_keys 2
ui_expect "view 2: the spread row with Jain's index" \
	'total .*median .*fairness [01]\.[0-9]{3} \(Jain\)' 5
ui_expect "view 2: rows 1-" 'rows 1-[0-9]+ of 128' 5
# End as tmux sends it under xterm-256color
$TM send-keys -t 0 -l "$(printf '\033[4~')"
ui_expect "End (\\e[4~): the last row" 'rows [0-9]+-128 of 128' 5
ui_expect "End: stream 128's row (id 129) is on the screen" '^\[129\] send' 5
ui_absent "End does not leak a 4 (view 4)" '^ IRQs and queues'
ui_keys Home
ui_expect "Home: the first rows" 'rows 1-[0-9]+ of 128' 5
ui_expect "Home: stream 1" '^\[  1\] send' 2
ui_keys PPage NPage NPage
ui_expect "PgDn twice: further down" 'rows ([3-9][0-9]|1[0-9][0-9])-[0-9]+ of 128' 5
ui_keys Up
ui_expect "Up: one row back" 'rows ([3-9][0-9]|1[0-9][0-9])-[0-9]+ of 128' 5
ui_keys o
ui_expect "o: by rate" 'streams, by rate' 5
ui_save ui-scale-by-rate
ui_keys o
ui_expect "o: by rtt" 'by rtt' 5
ui_keys o
ui_expect "o: by retr" 'by retr' 5
ui_keys o
ui_expect "o: by limit" 'by limit' 5
ui_expect "the test ends: averages over the test" 'averages over [0-9.]+ s' 15

# pause, then a new interface: the panels keep their readings
ui_keys 1 p
ui_expect "paused" PAUSED 5
ui_keys i Up Up Up Up Up Up Up Up Enter
ui_expect "the probes watch lo" 'iface lo *$' 5
sleep 1.5
ui_absent "paused + i: no panel blank" 'not sampled yet'
ui_expect "paused + i: the CPU bars are there" '  [0-9]+ \[[|]' 3
ui_keys q
ui_expect "q quits" 'EXIT:0' 10
finish
