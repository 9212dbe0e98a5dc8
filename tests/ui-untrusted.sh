#!/bin/sh
# ui-untrusted.sh: a far end whose hostname carries escape sequences (a
# window title, a clear screen): a pipescope server reading a recorded
# machine (-s --sysroot TREE) sends it in its probe snapshots; the
# workstation shows it escaped through the one sanitiser
# ("\x1b]2;pwned\x07"), and the terminal's title is not changed (issue 12,
# items 7 and 8, the TUI).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"
src="$top_srcdir/tests/fixtures/machines/i40e-4cpu"
[ -d "$src/proc" ] || skip "no recorded machine i40e-4cpu"
SRV=""
trap '[ -n "$SRV" ] && kill "$SRV" 2>/dev/null; ui_cleanup' EXIT
t="$UI_TMP/tree"
cp -a "$src" "$t"
printf 'evil\033]2;pwned\007\033[2Jhost\n' >"$t/proc/sys/kernel/hostname"

port=$(free_port 71)
"$PIPESCOPE" -s -p "$port" --no-tui --sysroot "$t" >/dev/null 2>&1 &
SRV=$!
wait_listen "$port" || { fail "server did not listen"; finish; }
ui_start 100 30 "env LC_ALL=C.UTF-8 TERM=xterm $PIPESCOPE -c 127.0.0.1 -p $port -t 20"
# (cut to the half's width, with the screen's ellipsis)
ui_expect "the dashboard shows the far end's hostname, escaped" \
	'far end evil\\x1b\]2;pw' 10
ui_keys 3
ui_expect "view 3 shows it escaped too" \
	'far end: 4 cores, evil\\x1b\]2;pwned\\x07\\x1b\[2Jhost, interface eth0' 5
title=$($TM display-message -p -t 0 '#{pane_title}')
check "the terminal's title is not the far end's ($title)" [ "$title" != pwned ]
ui_save ui-untrusted
ui_keys q
ui_expect "q quits" 'EXIT:0' 10
finish
