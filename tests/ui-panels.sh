#!/bin/sh
# ui-panels.sh: the workstation starts at 100x30 and at 80x24 with every
# panel of the dashboard, its loopback test makes the sum non-zero, and each
# view (streams, CPU, IRQ, NIC, checklist, help) draws; captures of each go
# to tests/artifacts/ for a reviewer.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

for size in 100x30 80x24; do
	w=${size%x*} h=${size#*x}
	stats="$UI_TMP/stats-$size"
	# -b keeps the loopback test light on a shared machine
	ui_start "$w" "$h" "env LC_ALL=C.UTF-8 TERM=tmux-256color PIPESCOPE_UI_STATS=$stats $PIPESCOPE -t 30 -b 300M"
	ui_expect_panels "$size"
	ui_expect "$size: the test runs" '\[running\]' 10
	T_COUNT=$((T_COUNT + 1))
	i=0
	while [ "$i" -lt 100 ] && [ "$(ui_sum)" = 0 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	s=$(ui_sum)
	if num_gt "$s" 0; then
		pass "$size: the sum is non-zero ($s bit/s)"
	else
		fail "$size: the sum stayed at zero"
		ui_cap | sed 's/^/  | /'
	fi
	ui_expect "$size: a stream row" ' send +[0-9.]+[kMG]? ' 5
	ui_expect "$size: a CPU bar" '\[[^]]*\] *[0-9]+%' 5
	ui_save "ui-dashboard-$size"

	for v in "2:Streams:streams" "3:CPU:cpu" "4:IRQs and queues:irq" \
		"5:NIC:nic" "6:Findings:checklist"; do
		key=${v%%:*} rest=${v#*:}
		title=${rest%:*} name=${rest#*:}
		ui_keys "$key"
		ui_expect "$size: view $key ($name)" "^ $title " 5 &&
			ui_save "ui-$name-$size"
		# a single view has no dashboard panels
		T_COUNT=$((T_COUNT + 1))
		if [ "$name" != streams ] && ui_cap | grep -q 'Throughput'; then
			fail "$size: view $name still shows the graph"
		else
			pass "$size: view $name alone"
		fi
	done
	ui_keys F1
	ui_expect "$size: help (F1)" 'Help: keys' 5 && ui_save "ui-help-$size"
	ui_keys x
	ui_expect "$size: any key leaves help" 'Findings' 5
	ui_keys '?'
	ui_expect "$size: help (?)" 'Help: keys' 5
	ui_keys Escape 1
	ui_expect "$size: back to the dashboard" 'Throughput' 5
	ui_keys q
	ui_expect "$size: q ends it with status 0" 'EXIT:0' 10
	T_COUNT=$((T_COUNT + 1))
	ff=$(sed -n 's/^first_frame_ms=//p' "$stats" 2>/dev/null)
	if [ -n "$ff" ]; then
		pass "$size: first frame after $ff ms"
	else
		fail "$size: no first frame recorded"
	fi
done
finish
