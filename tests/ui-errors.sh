#!/bin/sh
# ui-errors.sh: the screen and the command line agree (issue 16, items 10
# and 18): a refused connection is said at once, also when s tries again
# (no 20 s of "waiting for the server"); -f M sets the screen's unit; -I
# writes the pid file in the workstation (client and self-test) and removes
# it; SIGTERM exits 1 as the text test does.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

port=$(free_port 5)
pid=$UI_TMP/ps.pid
ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE -c 127.0.0.1 -p $port -t 2 -I $pid"
ui_expect "refused: failed at once" '\[failed\]' 3
ui_expect "refused: said so" 'Connection refused' 2
T_COUNT=$((T_COUNT + 1))
if [ -s "$pid" ] && kill -0 "$(cat "$pid")" 2>/dev/null; then
	pass "-I: the client's workstation wrote its pid"
else
	fail "-I: no pid file from the client's workstation"
fi
ui_keys s
sleep 0.3
ui_expect "s again: refused at once" '\[failed\]' 2
ui_absent "s again: no waiting for the server" 'waiting for the server'
ui_keys q
ui_expect "q: status 1 after a failed test" 'EXIT:1' 10
T_COUNT=$((T_COUNT + 1))
if [ -e "$pid" ]; then fail "-I: the pid file stays"; else pass "-I: removed at the end"; fi

# the self-test: -f M, -I, then SIGTERM
ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE -t 30 -b 400M -f M -I $pid"
ui_expect "-f M: the sum in MBytes/sec" ' sum [0-9.]+ MBytes/sec now' 10
ui_expect "-f M: the rows in MB" '^ +1  send +[0-9.]+MB ' 5
T_COUNT=$((T_COUNT + 1))
if [ -s "$pid" ] && kill -0 "$(cat "$pid")" 2>/dev/null; then
	pass "-I: the self-test's workstation wrote its pid"
	kill -TERM "$(cat "$pid")"
	ui_expect "SIGTERM: status 1, as the text test" 'EXIT:1' 10
else
	fail "-I: no pid file from the self-test's workstation"
fi
T_COUNT=$((T_COUNT + 1))
if [ -e "$pid" ]; then fail "-I: the pid file stays after SIGTERM"; else pass "-I: removed after SIGTERM"; fi
finish
