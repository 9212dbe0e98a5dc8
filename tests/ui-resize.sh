#!/bin/sh
# ui-resize.sh: resizing re-lays out at once: 60x20 shows "terminal too
# small: need 80x24", growing back brings every panel back, and a start in
# a tiny window waits for it to grow.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

ui_start 100 30 "env LC_ALL=C TERM=tmux-256color $PIPESCOPE -t 30 -b 200M"
ui_expect_panels "100x30"
ui_resize 60 20
ui_expect "60x20: too small" 'terminal too small: need 80x24' 5
ui_expect "60x20: says the size it has" 'now 60x20' 5
ui_save ui-too-small
T_COUNT=$((T_COUNT + 1))
if ui_cap | grep -q 'Throughput'; then fail "60x20: no garbage panels"; else pass "60x20: no panels"; fi
ui_resize 100 30
ui_expect_panels "back to 100x30"
ui_resize 80 24
ui_expect_panels "80x24"
T_COUNT=$((T_COUNT + 1))
right=$(ui_cap | awk 'length($0) > 80' | head -1)
[ -z "$right" ] && pass "80x24: nothing past column 80" ||
	fail "80x24: a line is longer than 80: $right"
ui_resize 130 45
ui_expect_panels "130x45"
ui_save ui-dashboard-130x45
ui_keys q
ui_expect "q quits" 'EXIT:0' 10

# starting in a small window: the message, then the screen once it grows
ui_start 60 20 "env LC_ALL=C TERM=xterm $PIPESCOPE -t 10 -b 100M"
ui_expect "starting at 60x20: too small" 'terminal too small: need 80x24' 5
ui_resize 80 24
ui_expect_panels "grown to 80x24"
ui_resize 79 24
ui_expect "79x24: too small" 'terminal too small' 5
ui_keys q
ui_expect "q quits from the small screen" 'EXIT:0' 10
finish
