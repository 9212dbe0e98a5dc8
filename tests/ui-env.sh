#!/bin/sh
# ui-env.sh: the workstation under each terminal and locale it promises:
# TERM xterm, screen, tmux-256color, linux, vt100; colour, NO_COLOR and
# --no-color (no colour escapes), LANG=C (ASCII only) and UTF-8 (braille
# graph, line drawing; block graph on the Linux console).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

ESC=$(printf '\033')
has_colour() { ui_cap_e | grep -Eq "$ESC\\[([0-9;]*;)?(3[0-7]|4[0-7]|9[0-7]|38;5;[0-9]+)(;[0-9;]*)?m"; }

run() {
	name=$1
	shift
	ui_start 100 30 "$* $PIPESCOPE -t 20 -b 100M"
	ui_expect "$name: the panels draw" 'IRQs and queues' 10 &&
		ui_expect "$name: the graph has data" '(bit/s now)' 10
	ui_wait 'sum [1-9]' 10
	ui_save "ui-env-$name"
}

for term in xterm screen tmux-256color linux vt100; do
	run "$term" "env LC_ALL=C.UTF-8 TERM=$term"
	ui_expect_panels "TERM=$term"
	ui_keys q
	ui_expect "TERM=$term: q quits" 'EXIT:0' 10
done

# colour by default where the terminal has it; none with NO_COLOR
run colour "env LC_ALL=C TERM=xterm-256color"
T_COUNT=$((T_COUNT + 1))
has_colour && pass "colour on xterm-256color" || fail "no colour on xterm-256color"
ui_keys q
run no-color-env "env LC_ALL=C TERM=xterm-256color NO_COLOR=1"
T_COUNT=$((T_COUNT + 1))
has_colour && fail "NO_COLOR: colour escapes on the screen" || pass "NO_COLOR: monochrome"
T_COUNT=$((T_COUNT + 1))
ui_cap | grep -q '#user  =sys  !irq  %softirq' && pass "NO_COLOR: the bar legend tells parts by shape" ||
	fail "NO_COLOR: no shape legend"
ui_keys q
ui_start 100 30 "env LC_ALL=C TERM=xterm-256color $PIPESCOPE --no-color -t 20 -b 100M"
ui_expect "--no-color draws" 'IRQs and queues' 10
T_COUNT=$((T_COUNT + 1))
has_colour && fail "--no-color: colour escapes" || pass "--no-color: monochrome"
ui_keys q

# LANG=C: nothing but ASCII; UTF-8: braille (blocks on the console)
run ascii "env -u LC_ALL LANG=C TERM=xterm"
T_COUNT=$((T_COUNT + 1))
if ui_cap | LC_ALL=C grep -q '[^ -~]'; then
	fail "LANG=C: a byte outside ASCII"
	ui_cap | LC_ALL=C grep -n '[^ -~]' | head -3
else
	pass "LANG=C: ASCII only"
fi
ui_expect "LANG=C: ASCII graph" '\|[ .:#]*#' 10
ui_keys q
run utf8 "env LC_ALL=C.UTF-8 TERM=xterm"
ui_expect "UTF-8: line drawing" "$(printf '\342\224\200')" 1
ui_expect "UTF-8: braille graph" "$(printf '\342[\240-\243]')" 1
ui_keys q
run console "env LC_ALL=C.UTF-8 TERM=linux"
ui_expect "TERM=linux: block graph" "$(printf '\342\226[\201-\210]')" 1
ui_absent "TERM=linux: no braille" "$(printf '\342[\240-\243]')" \
	"TERM=linux: braille the console cannot show"
ui_keys q
finish
