#!/bin/sh
# ui-truth.sh: the screen tells the truth about the test it shows (issue
# 16, items 1-4 and 6): UDP rows and header carry the receiver's loss and
# jitter from the server's results (the sender's own figures say nothing of
# it) and a sender below its -b target is a finding; once done the rows are
# the test's averages; a stopped test says what is unknown; the header
# describes the test shown, the pending change apart ("next: -R"); the rows
# number streams as the engine's messages do.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

# UDP at a rate no loopback sender keeps: the sender falls short; the
# receiver (the self-test's pipescope server) sends its loss as it runs
# (5 s: on a slow machine the first report must come well before the end)
ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE -u -b 500G -P 2 -t 5"
ui_expect "UDP running: the pipescope receiver's loss, live" \
	'receiver lost [0-9.]+% \([0-9]+/[1-9][0-9]*\).*|lost [0-9.]+%, jitter' 10
ui_expect "UDP running: still running when the loss shows" '\[running\]' 1
ui_expect "UDP running: a sender row tells what it sent, not a loss" \
	'^ +[0-9]+  send .* sent [0-9]+' 5
ui_expect "UDP done: the header has the receiver's loss" \
	'lost [0-9.]+%.*jitter [0-9.]+ ms' 10
ui_expect "UDP done: the rows have the receiver's loss and jitter" \
	'^ +[0-9]+  send .*[0-9]\.[0-9]{3}ms [0-9]+/[1-9][0-9]* [0-9.]+%' 5
ui_expect "UDP done: the rows are the averages" 'averages over [0-9.]+ s' 5
ui_expect "two streams: the spread row fits beside both rows" \
	'^total [0-9.]+[kMGT]? min [0-9.]+[kMGT]? med ' 2
ui_absent "UDP done: the loss is a share of the packets sent (never 100% or more)" \
	'[0-9]/[0-9]+ [1-9][0-9]{2,}\.[0-9]%|lost [1-9][0-9]{2,}\.[0-9]%'
ui_expect "UDP: a sender below its -b is a finding" \
	'UDP senders? reached .* of the 1000' 10
ui_expect "the rows number streams as the engine does (1, 3)" \
	'^ +1  send ' 2
ui_expect "the second stream is 3" '^ +3  send ' 2
ui_save ui-truth-udp

# a change after the test: the header still tells the test shown
ui_keys R
ui_expect "R after the test: next: -R apart" 'next: -R' 5
ui_absent "R after the test: the header still says send" 'reverse \(-R\)'
ui_expect "R after the test: the test shown was UDP sending" \
	'UDP  send  2 streams' 2
ui_keys u
ui_expect "u as well: next: TCP -R" 'next: TCP -R' 5
ui_keys q
ui_expect "q quits" 'EXIT:0' 10

# a stopped TCP test: this end's count and the receiver's last figure;
# the header and the history say it was stopped (issue 25 item 6)

ui_start 100 30 "env LC_ALL=C TERM=xterm PIPESCOPE_HISTORY=$UI_TMP/h.db $PIPESCOPE -t 30 2>$UI_TMP/stderr"
ui_expect "TCP runs" '\[running\]' 10
sleep 1.5
ui_keys s
ui_expect "stopped: the header says stopped, not done" '\[stopped\]' 10
ui_absent "stopped: never [done]" '\[done\]'
ui_expect "stopped: the receiver's side is marked" \
	'received: (unknown|[0-9.]+ [kMGT]?bit/s at the last report) \(stopped\)' 10
ui_expect "stopped: the rows are the averages, marked" \
	'averages over [0-9.]+ s \(stopped\)' 5
ui_absent "stopped: no 0 bit/s received" '0 bit/s received'
ui_keys 2
sleep 0.5
sent=$(ui_cap | sed -n 's/.* sum \([0-9.]* [kMGT]\{0,1\}bit\/s\) sent.*/\1/p' | head -1)
T_COUNT=$((T_COUNT + 1))
if [ -n "$sent" ] && ui_cap | grep -q "^\[  1\] send  *$sent "; then
	pass "the row shows the test's average ($sent), as the sum"
else
	fail "the row is not the test's average ($sent)"
	ui_cap | sed 's/^/  | /'
fi
ui_save ui-truth-stopped
ui_keys q
ui_expect "q quits" 'EXIT:0' 10
# nothing went to the terminal behind the screen's back (a kept text
# report once said its error on stderr, and the screen scrolled)
check "stopped: nothing on stderr while the screen ran ($(head -c 200 "$UI_TMP/stderr"))" \
	test ! -s "$UI_TMP/stderr"
# the history keeps it as a stopped run, in its list and its JSON
hist=$(PIPESCOPE_HISTORY=$UI_TMP/h.db "$PIPESCOPE" history 2>&1)
check "history: the stopped test is listed as stopped ($hist)" \
	sh -c 'printf "%s\n" "$1" | grep -Eq "^[0-9]+ .* screen .*bit/s +- stopped "' sh "$hist"
check "history --format json: ended is stopped" sh -c \
	'PIPESCOPE_HISTORY=$1 "$2" history --format json | jq -e ".[-1].ended == \"stopped\"" >/dev/null' \
	sh "$UI_TMP/h.db" "$PIPESCOPE"

# a running UDP row counts the test so far, as the header and the far
# end's rows do, never one interval's count beside them (issue 25 item 3)
udp_row() { ui_cap | sed -n "s/.*$1 \([0-9][0-9]*\)\(\/\([0-9][0-9]*\)\)\{0,1\}.*so far.*/\1 \3/p" | head -1; }
for dir in send recv; do
	args="-u -b 100M -t 10"
	[ $dir = recv ] && args="$args -R"
	ui_start 120 30 "env LC_ALL=C TERM=xterm $PIPESCOPE $args"
	ui_expect "UDP $dir: running" '\[running\]' 10
	ui_keys 2
	if [ $dir = send ]; then upat=sent; else upat=lost; fi
	ui_expect "UDP $dir: the row says so far" "$upat [0-9/]+.*so far" 5
	sleep 0.5
	a=$(udp_row "$upat")
	sleep 2.5
	b=$(udp_row "$upat")
	# sent N (send) or lost L/N (recv): N grows with the test
	na=${a#* } nb=${b#* }
	[ $dir = send ] && { na=${a% *}; nb=${b% *}; }
	T_COUNT=$((T_COUNT + 1))
	if [ -n "$na" ] && [ -n "$nb" ] && num_ge "$nb" "$((na * 3 / 2))"; then
		pass "UDP $dir: the row's count is the test's so far ($na, then $nb)"
	else
		fail "UDP $dir: the row's count does not add up ($a, then $b)"
		ui_cap | sed 's/^/  | /'
	fi
	ui_keys q
	ui_expect "q quits" 'EXIT:0' 10
done

# the findings judge the test's own window (issue 25 item 5): a pause
# over the test's end does not stretch it with the idle seconds after
# (the readings still reach the test, only the screen holds still), and
# after the end no finding follows the live readings: a busy loop beside
# keeps them moving, the findings' lines stay what they were at the end
sh -c 'while :; do :; done' &
SPIN=$!
trap 'kill $SPIN 2>/dev/null; ui_cleanup' EXIT
findings() { ui_cap | grep -E '^ *(!!|!|-) ' | grep -E '[0-9]'; }
ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE -P 2 -t 3"
ui_expect "the test runs" '\[running\]' 10
T_COUNT=$((T_COUNT + 1))
if ui_wait 'saturated' 4; then
	pass "two streams on loopback saturate the cores"
	ui_keys p
	sleep 7
	ui_keys p
	ui_expect "after the pause: done" '\[done\]' 5
	sleep 2
	ui_expect "after a pause over its end, still the test's CPU finding" \
		'^ *(!!|!|-) .*saturated' 3
else
	pass "the cores were not saturated here (more than two?): no CPU finding to hold"
	ui_expect "the test ends" '\[done\]' 10
	sleep 2
fi
first=$(findings)
T_COUNT=$((T_COUNT + 1))
if [ -n "$first" ]; then
	pass "the findings with figures at the end: $(printf '%s' "$first" | wc -l) line(s)"
else
	fail "no finding with a figure after a test beside a busy loop"
	ui_cap | sed 's/^/  | /'
fi
sleep 4
T_COUNT=$((T_COUNT + 1))
if [ "$(findings)" = "$first" ]; then
	pass "and they no longer change with the busy loop running: $(printf '%s' "$first" | head -1)"
else
	fail "the findings changed after the end: '$first', then '$(findings)'"
fi
kill $SPIN 2>/dev/null
ui_keys q
ui_expect "q quits" 'EXIT:0' 10
finish
