#!/bin/sh
# ui-history.sh: the workstation's tests go into the run history (kind
# "screen"), and view 7 lists the runs to this target with a sparkline of
# their rate and a UDP run's loss; Enter compares the highlighted run with the newest; the
# guided run (g) is recorded as a check and its answer ends with what
# changed since the last run to the host.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"
need_cmd sqlite3 sqlite3

H=$UI_TMP/h.db
ui_start 120 40 "env PIPESCOPE_HISTORY=$H LC_ALL=C $PIPESCOPE -t 1 -b 200M --quick"
ui_expect "the self-test starts" 'Throughput' 10
i=0
while [ "$(sqlite3 "$H" "SELECT count(*) FROM runs" 2>/dev/null)" != 1 ] &&
	[ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "the first screen test is recorded" \
	[ "$(sqlite3 "$H" "SELECT count(*) FROM runs WHERE kind = 'screen' AND bps > 0")" = 1 ]
ui_keys s
i=0
while [ "$(sqlite3 "$H" "SELECT count(*) FROM runs")" != 2 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "a second test (s) is a second record" \
	[ "$(sqlite3 "$H" "SELECT count(*) FROM runs WHERE kind = 'screen'")" = 2 ]
check "with this end's snapshot" \
	[ "$(sqlite3 "$H" "SELECT count(*) FROM snapshots WHERE side = 0")" = 2 ]
ui_keys 7
ui_expect "view 7 is the history of this target" 'History: runs to 127\.0\.0\.1' 5
ui_expect "it lists both runs" '^ *2 +[0-9-]+ [0-9:]+ +screen +forward' 5
ui_expect "with a sparkline of their rate" 'rate +[.:#▁▂▃▄▅▆▇█]{2}' 5
ui_keys Up
ui_keys Enter
ui_expect "Enter compares the older run with the newest" 'rate change: [+-][0-9]' 5
ui_expect "and what changed on this end" 'this end' 5
ui_keys Escape
ui_expect "Esc goes back to the list" 'top finding' 5

# the guided run (g) is a check in the history, and its answer ends with
# what changed since the last run to this host
ui_keys g
ui_expect "the guided run's answer ends with the line since the last run" \
	'since the last run to 127\.0\.0\.1 \([0-9]+ s ago\): .*rate' 40
check "the guided run is a record of kind check" \
	[ "$(sqlite3 "$H" "SELECT count(*) FROM runs WHERE kind = 'check' AND top_finding IS NOT NULL")" = 1 ]
# a UDP test (u, then s) is listed with its loss, a TCP one with none
ui_keys u
ui_expect "u: the next test is UDP" 'next: UDP' 5
ui_keys s
i=0
while [ "$(sqlite3 "$H" "SELECT count(*) FROM runs WHERE proto = 'udp'")" != 1 ] &&
	[ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "the UDP test is recorded with its loss" \
	[ "$(sqlite3 "$H" "SELECT count(*) FROM runs WHERE proto = 'udp' AND loss >= 0 AND loss <= 1")" = 1 ]
ui_keys 1
ui_keys 7
ui_expect "view 7 has a loss column" ' rate +loss +ended +top finding' 5
ui_expect "the UDP run with its loss" \
	'^ *[0-9]+ +[0-9-]+ [0-9:]+ +screen +forward +1 +[0-9.]+ [kMG]?bit/s +[<0-9.]+% +done' 5
ui_expect "a TCP run without" \
	'^ *2 +[0-9-]+ [0-9:]+ +screen +forward +1 +[0-9.]+ [kMG]?bit/s +- +done' 5
ui_keys q
ui_expect "q quits" 'EXIT:0' 10
finish
