#!/bin/sh
# ui-procs.sh: the processes view (8) names the work beside the test: a
# shell busy loop started here shows with its pid on this end over the
# last second and over the running self-test, never the test's own
# process, with the share of a core the kernel counted for it.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

sh -c 'while :; do :; done' &
SPIN=$!
trap 'kill $SPIN 2>/dev/null; ui_cleanup' EXIT

# the loop's CPU time so far, in clock ticks (utime + stime)
ticks() { sed 's/.*) //' "/proc/$SPIN/stat" | awk '{ print $12 + $13 }'; }

ui_start 120 40 "env LC_ALL=C TERM=xterm $PIPESCOPE -t 30"
ui_expect "the self-test runs" '\[running\]' 10
t0=$(date +%s.%N)
k0=$(ticks)
ui_keys 8
ui_expect "8 shows the processes view" 'Processes' 5
ui_expect "this end, the last second: the busy loop with its pid" \
	"^ *$SPIN +sh +[0-9.]+% of a core" 10
ui_expect "over the test: the busy loop, the test's own left out" \
	"This end over the test" 5
# the busy loop's line under "over the test" (the step needs a second
# reading of the test)
over() { ui_cap | sed -n '/This end over the test/,$p'; }
i=0
sleep 4
while [ $i -lt 50 ] && ! over | grep -Eq "^ *$SPIN +sh "; do
	sleep 0.2
	i=$((i + 1))
done
T_COUNT=$((T_COUNT + 1))
if over | grep -Eq "^ *$SPIN +sh +[0-9.]+% of a core"; then
	pass "the busy loop is in the test's list"
else
	fail "the busy loop is not in the test's list"
	ui_cap | sed 's/^/  | /'
fi
# the workstation's own pids (the pane's command, its children): another
# pipescope on a shared machine is other work, this one never is
ws=$(pgrep -P "$($TM display -p -t 0 '#{pane_pid}')" | tr '\n' ' ')
own=" $ws $(for p in $ws; do pgrep -P "$p"; done | tr '\n' ' ') "
listed=$(ui_cap | sed -n 's/^ *\([0-9][0-9]*\)  *pipescope .*/\1/p')
T_COUNT=$((T_COUNT + 1))
if [ -z "${ws% }" ]; then
	fail "the workstation's pid is not found"
else
	bad=
	for p in $listed; do
		case $own in *" $p "*) bad="$bad $p" ;; esac
	done
	if [ -n "$bad" ]; then
		fail "the workstation itself ($bad) is listed as other work"
		ui_cap | sed 's/^/  | /'
	else
		pass "the workstation itself ($ws) is not other work"
	fi
fi
# the share over the test against the kernel's own count of the loop's
# CPU time (utime + stime of /proc/PID/stat) over about the same seconds
pct=$(over | grep -E "^ *$SPIN +sh " | head -1 | sed 's/.* \([0-9.]*\)% of a core.*/\1/')
t1=$(date +%s.%N)
k1=$(ticks)
kpct=$(awk -v a="$k0" -v b="$k1" -v s="$t0" -v e="$t1" -v hz="$(getconf CLK_TCK)" \
	'BEGIN { printf "%.1f", (b - a) / hz / (e - s) * 100 }')
T_COUNT=$((T_COUNT + 1))
if awk -v a="$pct" -v b="$kpct" 'BEGIN { d = a - b; exit !(d < 30 && d > -30) }'; then
	pass "its share over the test: the view says $pct%, /proc $kpct%"
else
	fail "its share over the test: the view says $pct%, /proc $kpct%"
fi
ui_save ui-procs
ui_keys q
ui_expect "q ends it" 'EXIT:0' 10
finish
