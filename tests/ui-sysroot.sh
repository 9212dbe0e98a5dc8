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
	ui_absent "$size: every core has a cell" 'view 3 shows all' \
		"$size: cores were left out of the dashboard"
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
# a NIC whose PCIe link trained at x1 5GT/s in an x8 8GT/s slot
if [ -d "$m/pcie-downgraded" ]; then
	ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE --sysroot $m/pcie-downgraded --iface enp5s0f0 -t 10 -b 50M"
	ui_expect "pcie-downgraded: the NIC panel shows the degraded link" \
		'PCIe x1 5GT/s of x8 8GT/s -- degraded' 10
	ui_expect "pcie-downgraded: the checks' finding names it" \
		'!! PCIe link downgraded: x1 at 5 GT/s' 5
	ui_expect "pcie-downgraded: the IRQ heatmap has the queue rows" \
		'[|]rxtx-0 +##' 5
	ui_save ui-sysroot-pcie-downgraded
	ui_keys 5
	ui_expect "pcie-downgraded: the NIC view names the device" 'device 0000:05:00.0' 5
	ui_expect "pcie-downgraded: ... and says how usable is computed" 'TLP overhead' 5
	ui_save ui-sysroot-pcie-downgraded-nic
	ui_keys 6
	ui_expect "pcie-downgraded: the checklist names the tightest ceiling" \
		'Tightest ceiling: PCIe x1 at 5 GT/s' 5
	ui_expect "pcie-downgraded: ... and how to fix it" '^ +fix: ' 5
	ui_save ui-sysroot-pcie-downgraded-checklist
	ui_keys 4
	ui_expect "pcie-downgraded: the IRQ view shows the affinity" 'aff 0 eff 0 i40e-enp5s0f0-TxRx-0' 5
	ui_save ui-sysroot-pcie-downgraded-irq
	ui_keys q
	ui_expect "pcie-downgraded: q quits" 'EXIT:0' 10
fi

# a NIC whose every queue interrupts cpu0
if [ -d "$m/mlx5-4cpu" ]; then
	ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE --sysroot $m/mlx5-4cpu --iface ens1f0 -t 10 -b 50M"
	# every queue's row is darkest in cpu0's column
	for q in 0 1 2 3; do
		ui_expect "mlx5: queue $q interrupts cpu0" "rxtx-$q +##" 10
	done
	ui_expect "mlx5: the IRQ panel names its basis" '(cpu0 took 9[0-9]% )?since boot' 5
	ui_expect "mlx5: an intact PCIe link" 'PCIe x8 8GT/s of x8 8GT/s ' 5
	ui_save ui-sysroot-mlx5
	ui_keys q
	ui_expect "mlx5: q quits" 'EXIT:0' 10
fi
# time_squeeze recorded on every CPU, most on cpu0
if [ -d "$m/softnet-squeeze" ]; then
	ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE --sysroot $m/softnet-squeeze --iface eth0 -t 10 -b 50M"
	ui_expect "softnet-squeeze: the squeeze row, darkest on cpu0" 'squeeze +##' 10
	ui_expect "softnet-squeeze: a drops row" 'drops +[.:+*#]{8,}' 5
	ui_expect "softnet-squeeze: the softnet check fires" 'time_squeeze\)' 5
	ui_save ui-sysroot-softnet-squeeze
	ui_keys 4
	ui_expect "softnet-squeeze: the IRQ view counts since boot" 'squeeze [0-9.]+/s \(since boot [0-9]+, [1-9][0-9]*\)' 5
	ui_keys q
	ui_expect "softnet-squeeze: q quits" 'EXIT:0' 10
fi
# a Skylake-SP server's platform: SMT, deep idle states, a translating
# IOMMU, cores at 1.2 of 3.7 GHz (the CPU view's platform line)
if [ -d "$m/platform-skx" ]; then
	ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE --sysroot $m/platform-skx --iface eth0 -t 10 -b 50M"
	ui_keys 3
	ui_expect "platform-skx: the CPU view's platform line" \
		'platform: SMT on  idle states to 133 us  cpu0 1200 of 3700 MHz powersave  IOMMU translated \(DMA-FQ\)' 10
	ui_save ui-sysroot-platform-skx-cpu
	ui_keys 6
	ui_expect "platform-skx: the checklist tells the IOMMU" 'IOMMU translates every DMA of eth0' 5
	# view 5's tuning row, counted from the tree's own files: the tx
	# queues with a non-zero xps_cpus mask, busy_read/busy_poll
	q=$m/platform-skx/sys/class/net/eth0/queues
	ntx=$(ls -d "$q"/tx-* | wc -l)
	nxps=$(cat "$q"/tx-*/xps_cpus | grep -c '[1-9a-f]')
	br=$(cat "$m/platform-skx/proc/sys/net/core/busy_read")
	bp=$(cat "$m/platform-skx/proc/sys/net/core/busy_poll")
	ui_keys 5
	ui_expect "platform-skx: view 5 has XPS on $nxps of $ntx queues and busy read/poll $br/$bp" \
		"XPS $nxps/$ntx queues  busy read/poll $br/${bp}us" 5
	ui_keys q
	ui_expect "platform-skx: q quits" 'EXIT:0' 10
fi
finish
