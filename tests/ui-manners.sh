#!/bin/sh
# ui-manners.sh: the workstation's manners (issue 25, items 17-19): at
# 80x24 every view's footer keeps p:pause; F1 help scrolls (arrows, j/k,
# PgUp/PgDn, Home/End) with "^ more" / "v more" and says what a graph
# column is; the streams' limit order is by limit (then id), not by rate;
# the interface picker is a framed box whose last line is whole; t in the
# t prompt steps from a length not in its list to the list's first (2 ->
# 10); the header's clock stops while paused; m gives the mouse to the
# terminal and back (tmux's own mouse flags tell); and the screen's text
# reads on a dark and on a light terminal, with 8 and with 256 colours
# (tests/tools/ps-contrast.py on capture-pane -e), the state's badge on a
# background of its own.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"
need_cmd python3 python3

H="$UI_TMP/history.db"
ENV="env PIPESCOPE_HISTORY=$H LC_ALL=C.UTF-8 TERM=xterm"

# ---- item 17: the footer at 80x24, F1 help ------------------------------
ui_start 80 24 "$ENV $PIPESCOPE -t 60 -b 100M"
ui_expect "80x24: the test runs" '\[running\]' 10
for v in 1 2 3 4 5 6 7 8; do
	ui_keys "$v"
	sleep 0.4
	T_COUNT=$((T_COUNT + 1))
	foot=$(ui_cap | tail -1)
	case "$foot" in
	*'p:pause'*) pass "80x24: view $v's footer keeps p:pause" ;;
	*) fail "80x24: view $v's footer has no p:pause: '$foot'" ;;
	esac
done
ui_keys 1
ui_save ui-manners-footer-80x24

ui_keys F1
ui_expect "F1: the help" 'Help: keys' 5
ui_expect "F1 at 80x24: more below is marked" 'v more *$' 3
ui_expect "F1 at 80x24: the title says how to scroll" \
	'Help: keys .*PgUp/PgDn' 1
ui_absent "F1: at the top, nothing above" '\^ more'
ui_absent "F1 at 80x24: the panels' last line is below" '^ NIC: link'
ui_save ui-manners-help-80x24-top
ui_keys PgDn
ui_expect "PgDn: the help moves on, more above is marked" '\^ more *$' 3
ui_keys End
ui_expect "End: the panels' last line" '^ NIC: link' 3
ui_absent "End: nothing below" 'v more'
ui_expect "the help tells the mouse and its key" '^ m +mouse: clicks open views; m gives it to the terminal' 1
ui_expect "the graph's line says a column may be several intervals" \
	'Graph: .*several' 1
ui_absent "no 'each dot column is one interval' (the graph stretches)" \
	'each dot column is one interval'
ui_save ui-manners-help-80x24-end
ui_keys k
ui_expect "k: a line back up (more below again)" 'v more *$' 3
ui_keys Home
ui_expect "Home: the first line" '^ F1 \?' 3
ui_absent "Home: nothing above" '\^ more'
ui_keys Down j Up
ui_expect "Down, j, Up: still the help" 'Help: keys' 1
ui_keys x
ui_expect "another key returns to the dashboard" 'Throughput' 3

# ---- item 18: t, the clock, the picker, the limit order -----------------
ui_keys q
ui_start 100 30 "$ENV $PIPESCOPE -t 2 -b 100M"
ui_expect "-t 2: the test runs for 2 s" '/2 s ' 10
ui_keys t
ui_expect "t: the prompt shows 2" 'duration .*: 2_' 3
ui_keys t
ui_expect "t again from 2: the list's first, 10" 'duration .*: 10_' 3
ui_keys t
ui_expect "t again: 30" 'duration .*: 30_' 3
ui_keys Escape

ui_keys i
ui_expect "i: the picker" 'Interface' 5
ui_expect "the picker's top is framed, its title in it" '┌─ Interface (─)+┐' 2
ui_expect "the picker's sides frame its rows" '│ lo +.*│' 2
ui_expect "the picker's last line is whole, inside the frame" \
	'│ Up/Down choose, Enter watches it, Esc closes +│' 2
ui_expect "the picker's bottom is framed" '└(─)+┘' 2
ui_save ui-manners-picker-100x30
ui_keys Escape
sleep 0.3
ui_absent "Escape closes the picker" 'Esc closes'

# the clock stands while paused and runs on after
ui_keys q
ui_start 100 30 "$ENV $PIPESCOPE -t 60 -b 100M"
ui_expect "-t 60 runs" '[0-9]+/60 s .*\[running\]' 10
ui_wait ' [2-9]/60 s ' 10
clock() { ui_cap | sed -n 's/.* \([0-9]*\)\/60 s .*/\1/p' | head -1; }
ui_keys p
ui_expect "p: paused" 'PAUSED' 3
c1=$(clock)
sleep 2.5
c2=$(clock)
T_COUNT=$((T_COUNT + 1))
[ -n "$c1" ] && [ "$c1" = "$c2" ] && pass "paused, the clock stands ($c1 s)" ||
	fail "paused, the clock ran: $c1 s, 2.5 s later $c2 s"
ui_keys p
sleep 1.2
c3=$(clock)
T_COUNT=$((T_COUNT + 1))
[ -n "$c3" ] && [ "$c3" -ge $((c1 + 2)) ] &&
	pass "p again: the clock shows the test's time ($c3 s)" ||
	fail "p again: the clock did not catch up: $c1 s then $c3 s"

# the limit order: the factor (rwnd, sndbuf, cwnd, app, none), then id;
# six streams at full speed have six rates
ui_keys q
ui_start 100 30 "$ENV $PIPESCOPE -t 60 -P 6"
ui_expect "-P 6 runs" '6 streams .*\[running\]' 10
ui_keys 2
ui_expect "view 2: six rows" '^\[ *6\] ' 10
ui_keys o o o o
ui_expect "o x 4: by limit" 'streams ordered by limit' 3
ui_expect "the title says it" '6 streams, by limit' 3
sleep 1.5
ui_save ui-manners-by-limit
rows=$(ui_cap | sed -n 's/^\[ *\([0-9]*\)\] .* limit \([a-z-]*\).*/\1 \2/p')
T_COUNT=$((T_COUNT + 1))
if [ "$(echo "$rows" | grep -c .)" -ne 6 ]; then
	fail "by limit: not six rows with a limit: $rows"
elif echo "$rows" | awk '
	BEGIN { r["rwnd"] = 4; r["sndbuf"] = 3; r["cwnd"] = 2; r["app"] = 1 }
	{ k = ($2 in r) ? r[$2] : 0
	  if (NR > 1 && (k > pk || (k == pk && $1 < pid))) bad = 1
	  pk = k; pid = $1 }
	END { exit bad }'; then
	pass "by limit: the factor, then the id ($(echo $rows))"
else
	fail "by limit: not by the factor and id: $(echo $rows)"
	ui_cap | sed 's/^/  | /'
fi

# ---- item 19: the mouse, the colours ------------------------------------
flags() { $TM display-message -p -t 0 '#{mouse_standard_flag}#{mouse_button_flag}#{mouse_any_flag}'; }
T_COUNT=$((T_COUNT + 1))
case "$(flags)" in
*1*) pass "the mouse is the screen's at the start ($(flags))" ;;
*) fail "no mouse mode at the start: $(flags)" ;;
esac
ui_keys m
ui_expect "m: the message says the terminal has the mouse" \
	"mouse: the terminal's" 3
sleep 0.3
T_COUNT=$((T_COUNT + 1))
[ "$(flags)" = 000 ] && pass "m: the terminal has the mouse (no mouse mode)" ||
	fail "m: the screen still asks for the mouse: $(flags)"
ui_keys m
ui_expect "m again: clicks open views" "mouse: a click opens" 3
sleep 0.3
T_COUNT=$((T_COUNT + 1))
case "$(flags)" in
*1*) pass "m again: the screen has the mouse" ;;
*) fail "m again: no mouse mode: $(flags)" ;;
esac
ui_keys q

# the text holds on black and on white: a recorded machine whose PCIe
# path gives a warning finding whatever the load
m="$top_srcdir/tests/fixtures/machines/ixgbe-12cpu-cpu0"
[ -d "$m" ] || skip "no recorded machine ixgbe-12cpu-cpu0"
check_screen() {
	what=$1 pal=$2
	shift 2
	T_COUNT=$((T_COUNT + 1))
	if res=$(ui_cap_e | python3 "$top_srcdir/tests/tools/ps-contrast.py" \
		"$pal" "$@"); then
		pass "$what: every text cell 3:1 or more on $pal"
	else
		fail "$what: text below 3:1 on $pal"
		echo "$res" | grep -v ' fg=.* bg=[-0-9]*$' | head -20 | sed 's/^/  | /'
	fi
	RES=$res
}
# RES's line for TEXT: "fg bg"
colours_of() { echo "$RES" | sed -n "s/^$1 fg=\([-0-9]*\) bg=\([-0-9]*\)$/\1 \2/p"; }
for term in xterm xterm-256color; do
	for pal in dark light; do
		ui_start 100 30 "env PIPESCOPE_HISTORY=$H LC_ALL=C.UTF-8 TERM=$term $PIPESCOPE --sysroot $m -t 60 -b 100M"
		# the terminal itself: tmux draws the default colours so
		if [ "$pal" = light ]; then
			$TM set-option -g window-style 'fg=black,bg=white' >/dev/null
		else
			$TM set-option -g window-style 'fg=colour252,bg=black' >/dev/null
		fi
		ui_expect "$term $pal: running" '\[running\]' 10
		ui_expect "$term $pal: the warning finding" '^!  PCIe path too narrow' 10
		check_screen "$term $pal: the dashboard" "$pal" '[running]' 'PCIe path too narrow'
		T_COUNT=$((T_COUNT + 1))
		set -- $(colours_of '\[running\]')
		case "${1:-x} ${2:-x}" in
		x*) fail "$term $pal: no [running] found" ;;
		*' -1') fail "$term $pal: [running] on the terminal's own background ($1 on $2)" ;;
		"$2 "*) fail "$term $pal: [running] in one colour on itself" ;;
		*) pass "$term $pal: [running] is a badge with its own background ($1 on $2)" ;;
		esac
		T_COUNT=$((T_COUNT + 1))
		set -- $(colours_of 'PCIe path too narrow')
		case "${1:-x}" in
		x) fail "$term $pal: the finding not found" ;;
		-1) fail "$term $pal: the warning finding has no colour of its own" ;;
		*) pass "$term $pal: the warning finding in colour $1" ;;
		esac
		ui_save "ui-manners-$term-$pal"
		ui_keys 6
		ui_expect "$term $pal: view 6" 'PCIe path too narrow' 5
		check_screen "$term $pal: view 6" "$pal"
		ui_keys F1
		ui_expect "$term $pal: the help" 'Help: keys' 5
		check_screen "$term $pal: the help" "$pal"
		ui_keys x i
		ui_expect "$term $pal: the picker" 'Esc closes' 5
		check_screen "$term $pal: the picker" "$pal"
		ui_keys Escape s
		ui_expect "$term $pal: the test stops" '\[stopped\]' 10
		check_screen "$term $pal: a stopped test" "$pal"
		ui_keys q
	done
done
finish
