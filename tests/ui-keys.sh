#!/bin/sh
# ui-keys.sh: the workstation's keys change the test and the header follows:
# + and - streams, R reverse, d both ways, u UDP, t duration, s stop/start,
# p pause, i the interface picker (state, speed, rate, the route's
# interface marked: issue 16 item 20), Tab the views.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE -t 30 -b 200M"
ui_expect "starts with one stream" '  1 stream  ' 10
ui_expect "the test runs" '\[running\]' 10

ui_keys +
ui_expect "+: two streams in the header" '  2 streams  ' 5
ui_expect "+: the restarted test has two stream rows" \
	'2 streams -' 10
ui_keys + -
ui_expect "+ -: back to two" '  2 streams  ' 5

ui_keys R
ui_expect "R: the header says reverse" 'reverse \(-R\)' 5
ui_expect "R: the streams receive" '^ +[0-9]+  recv ' 10
ui_save ui-keys-reverse
ui_keys R
ui_expect "R again: send" 'TCP  send  2 streams' 5

ui_keys d
ui_expect "d: both ways in the header" 'both ways \(-d\)' 5
# both sums non-zero: only a test running both ways has them
ui_expect "d: sent and received sums" \
	'\(sent [1-9][0-9.]* [kMG]?bit/s, received [1-9]' 15
ui_expect "d: a stream sends" '^ +[0-9]+  send ' 5
ui_expect "d: a stream receives" '^ +[0-9]+  recv ' 5
ui_save ui-keys-bidir
ui_keys d

ui_keys u
ui_expect "u: UDP in the header" '  UDP  send' 5
ui_expect "u: UDP rows (jitter)" 'jitter' 10
ui_keys u
ui_expect "u again: TCP" '  TCP  send' 5

# t opens a prompt with 30; t again offers the next length, Enter sets it
ui_keys t t Enter
ui_expect "t t Enter: the duration moves on from 30 s to 60 s" '/60 s' 5

ui_keys p
ui_expect "p: paused" 'PAUSED' 5
ui_keys p
sleep 0.5
ui_absent "p again: running" PAUSED "p again: still paused"

ui_keys s
ui_expect "s: the test stops" '\[(stopping|stopped)\]' 5
ui_expect "s: stopped" '\[stopped\]' 10
ui_keys s
ui_expect "s again: a new test" '\[(connecting|running)\]' 5

ui_keys i
ui_expect "i: the interface picker lists lo" ' lo( |$)' 5
# as bmon: each interface's state, speed and rate now; the route's marked
ui_expect "i: the picker's columns" 'name +state +speed +rate now' 2
ui_expect "i: lo's state, its live rate and the route's mark" \
	' lo +(unknown|up) +- +[0-9.]+ [kMGT]?bit/s <- route' 5
ui_save ui-keys-picker
ui_keys Escape
sleep 0.3
ui_absent "Escape closes the picker" 'Esc closes'

ui_keys i Up Up Up Up Up Up Up Up Enter
ui_expect "i, Enter: the probes watch lo" 'iface lo *$' 5
ui_expect "i, Enter: the NIC panel names lo" ' lo \(option\) ' 5

ui_keys Tab
ui_expect "Tab: the next view (streams)" '^ Streams ' 5
ui_keys BTab BTab
ui_expect "BTab: back past the dashboard (processes, the last view)" '^ Processes -' 5
ui_keys q
ui_expect "q quits" 'EXIT:0' 10
finish
