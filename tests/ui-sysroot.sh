#!/bin/sh
# ui-sysroot.sh: the workstation's panels on recorded machines (--sysroot):
# 256 cores fold into the CPU panel without being cut off (one shaded cell
# each on the dashboard, numbered cells in the CPU view), and every panel
# still draws.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"
m="$top_srcdir/tests/fixtures/machines"
[ -d "$m/wide-256cpu" ] || skip "no recorded machine wide-256cpu"

for size in 100x30 80x24; do
	w=${size%x*} h=${size#*x}
	ui_start "$w" "$h" "env LC_ALL=C TERM=xterm $PIPESCOPE --sysroot $m/wide-256cpu -t 10 -b 50M"
	ui_expect_panels "256 cores at $size"
	# rows of shaded cells labelled with their first core, up to core 240
	ui_expect "$size: the dashboard folds 256 cores into rows" \
		'\| *(0 )?[.:+*#]{30,}' 10
	T_COUNT=$((T_COUNT + 1))
	if ui_cap | grep -q 'view 3 shows all'; then
		fail "$size: cores were left out of the dashboard"
		ui_cap | sed 's/^/  | /'
	else
		pass "$size: every core has a cell"
	fi
	ui_save "ui-sysroot-256cpu-$size"
	ui_keys 3
	# numbered cells where they fit, else rows of cells labelled
	ui_expect "$size: the CPU view reaches core 255" \
		'(255:[0-9]|^ *2[0-9][0-9] [.:+*#]+)' 5
	ui_expect "$size: ... from core 0" '(^ *0:[0-9]|^ *0 [.:+*#]+)' 5
	ui_save "ui-sysroot-256cpu-cpu-$size"
	ui_keys q
	ui_expect "$size: q quits" 'EXIT:0' 10
done
finish
