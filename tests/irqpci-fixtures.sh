#!/bin/sh
# irqpci-fixtures.sh: the IRQ and PCIe probes on every recorded machine
# (ps-irqpci --sysroot), key facts checked with jq; missing files in a
# recording give stated reasons, never a crash.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
TOOL=$top_builddir/tests/tools/ps-irqpci
M=$MACHINES
[ -x "$TOOL" ] || skip "tests/tools/ps-irqpci not built"
[ -d "$M/i40e-4cpu/sys" ] ||
	skip "recorded machine trees not here (the release tarball leaves them out: tar would dereference their symlinks)"
scratch

# probe TREE IFNAME: JSON into $TMP/TREE-IFNAME.json
probe() {
	expect_exit 0 "$1 $2: ps-irqpci runs" -- \
		"$TOOL" --sysroot "$M/$1" "$2" || return
	printf '%s\n' "$OUT" >"$TMP/$1-$2.json"
	J=$TMP/$1-$2.json
}

probe ixgbe-12cpu-cpu0 eth0
jq_check "ixgbe: lines found through msi_irqs" '.irq.attribution == "msi_irqs" and (.irq.lines | length) == 9'
jq_check "ixgbe: every queue IRQ counted on CPU0 only" \
	'[.irq.lines[] | select(.kind != "") | (.counts[0] > 0) and ((.counts[1:] | add) == 0)] | all'
jq_check "ixgbe: one CPU takes 100% of the queue interrupts" \
	'.irq.summary.irq_cpus == 1 and .irq.summary.busiest_cpu == 0 and .irq.summary.busiest_share == 1'
jq_check "ixgbe: affinity allowed all 12 CPUs" '[.irq.lines[].smp_affinity_list] | unique == ["0-11"]'
jq_check "ixgbe: irqbalance recorded as not running" '.irq.irqbalance.status == "ok" and .irq.irqbalance.running == false'
jq_check "ixgbe: NIC link not downgraded, narrowest link x4 upstream" \
	'.pci.link.downgraded == false and .pci.link.limited_upstream and .pci.link.narrowest_width == 4 and .pci.link.narrowest_bdf == "0000:00:03.0"'
jq_check "ixgbe: 10-column softnet by row order" '.irq.softnet.columns == 10 and .irq.softnet.cpu_basis == "row_order"'

probe i40e-4cpu eth0
jq_check "i40e: 4 queues with interrupts" '.irq.summary.queues_with_irqs == 4'
jq_check "i40e: spread over 4 CPUs" '.irq.summary.irq_cpus == 4 and .irq.summary.busiest_share < 0.5'
jq_check "i40e: each queue fired on all 4 CPUs" \
	'[.irq.lines[] | select(.kind == "rxtx") | [.counts[] | select(. > 0)] | length == 4] | all'
jq_check "i40e: misc and fdir vectors are not queues" \
	'[.irq.lines[] | select(.kind == "") | .name] == ["i40e-0000:01:00.0:misc", "i40e-0000:01:00.0:fdir-TxRx-0"]'
jq_check "i40e: the other NIC (eth3) is not taken" '[.irq.lines[].name | test("eth3")] | any | not'
jq_check "i40e: irqbalance runs" '.irq.irqbalance.running and .irq.irqbalance.pid == 977'
jq_check "i40e: no effective_affinity_list on that kernel" '[.irq.lines[].effective_affinity_list] | unique == [""]'
jq_check "i40e: XPS masks per queue" '[.irq.queues.tx[].xps_cpus] == ["1", "2", "4", "8"]'
jq_check "i40e: link from sysfs, payload not recorded" \
	'.pci.link.source == "sysfs" and .pci.link.width == 8 and .pci.payload.status == "not_recorded"'
jq_check "i40e: names from pci.ids" '.pci.device | test("X710")'

probe mlx5-4cpu ens1f0
jq_check "mlx5: lines found by @pci:BDF names" \
	'.irq.attribution == "names" and (.irq.lines | length) == 7 and ([.irq.lines[].name | test("@pci:0000:01:00.0$")] | all)'
jq_check "mlx5: CPU0 takes most of it" '.irq.summary.busiest_cpu == 0 and .irq.summary.busiest_share > 0.9'
jq_check "mlx5: comp N affine to CPU N" '[.irq.lines[] | select(.kind == "rxtx") | .smp_affinity_list] == ["0", "1", "2", "3"]'
jq_check "mlx5: irqbalance not recorded" '.irq.irqbalance.status == "not_recorded"'
jq_check "mlx5: x8 8 GT/s, MRRS 4096" '.pci.link.width == 8 and .pci.link.speed_gts == 8 and .pci.payload.max_read_request == 4096'

probe virtio-2cpu eth0
jq_check "virtio: netdev on virtio2, vectors from msi_irqs" \
	'.irq.virtio_device == "virtio2" and ([.irq.lines[].irq] == [37, 38, 39])'
jq_check "virtio: rx on CPU1, tx on CPU0 (effective)" \
	'[.irq.lines[] | select(.kind != "") | .effective_affinity_list] == ["1", "0"]'
jq_check "virtio: no PCIe is a stated fact" \
	'.pci.status == "ok" and .pci.link.status == "absent" and (.pci.link.reason | test("PCIe"))'
jq_check "virtio: 15-column softnet with the CPU column" '.irq.softnet.columns == 15 and .irq.softnet.cpu_basis == "cpu_column"'

probe virtio-2cpu lo
jq_check "lo: no interrupt lines, with the reason" \
	'.irq.status == "absent" and .irq.reason == "virtual interface: no interrupt lines"'
jq_check "lo: host-wide softnet/softirqs still reported" \
	'.irq.softnet.status == "ok" and .irq.softirqs.status == "ok" and (.irq.cpus | length) == 2'
jq_check "lo: no PCIe" '.pci.status == "absent" and (.pci.reason | test("virtual"))'

probe softnet-squeeze eth0
jq_check "squeeze: 10 columns, time_squeeze summed" \
	'.irq.softnet.columns == 10 and .irq.summary.time_squeeze_total == 1913 and .irq.cpus[0].time_squeeze == 435'
jq_check "squeeze: separate rx and tx vectors" \
	'([.irq.lines[] | select(.kind == "rx")] | length) == 4 and ([.irq.lines[] | select(.kind == "tx")] | length) == 4'
jq_check "squeeze: RPS on" '[.irq.queues.rx[].rps_enabled] | all'

probe pcie-downgraded enp5s0f0
jq_check "downgraded: x1 at 5 GT/s of x8 at 8 GT/s" \
	'.pci.link.width == 1 and .pci.link.speed_gts == 5 and .pci.link.cap_width == 8 and .pci.link.cap_speed_gts == 8'
jq_check "downgraded: marked as lspci would" \
	'.pci.link.downgraded and .pci.link.speed_mark == "downgraded" and .pci.link.width_mark == "downgraded"'
jq_check "downgraded: usable about 3.66 Gbit/s, computed from 8b/10b and MPS 256" \
	'.pci.link.usable_bps > 3.6e9 and .pci.link.usable_bps < 3.7e9 and (.pci.link.usable_how | test("8b/10b")) and (.pci.link.usable_how | test("256"))'
jq_check "downgraded: the narrowest link is at the root port 0000:00:1c.1" '.pci.link.narrowest_bdf == "0000:00:1c.1"'
jq_check "downgraded: read from the config space" '.pci.link.source == "config" and .pci.payload.max_payload == 256'

probe wide-256cpu eth0
jq_check "wide: 256 CPUs" '(.irq.cpus | length) == 256 and ([.irq.lines[].counts | length] | unique == [256])'
jq_check "wide: spread over all of them" '.irq.summary.irq_cpus == 256'
jq_check "wide: softnet rows by CPU column" '.irq.softnet.cpu_basis == "cpu_column" and .irq.cpus[255].softnet'

for m in i40e-4cpu:eth0 ixgbe-12cpu-cpu0:eth0 mlx5-4cpu:ens1f0 virtio-2cpu:eth0 \
	softnet-squeeze:eth0 pcie-downgraded:enp5s0f0 wide-256cpu:eth0; do
	expect_exit 0 "${m%%:*}: text output" -- \
		"$TOOL" --text --sysroot "$M/${m%%:*}" "${m##*:}" &&
		case $OUT in *"Interrupts of ${m##*:}"*"PCIe of ${m##*:}"*) ;;
		*) fail "${m%%:*}: text output lacks its headings" ;; esac
done

# a recording with files missing: stated reasons, no crash
cp -a "$M/pcie-downgraded" "$TMP/broken"
rm -rf "$TMP/broken/proc/softirqs" "$TMP/broken/proc/irq"
find "$TMP/broken/sys/devices" \( -name config -o -name 'current_link_*' \
	-o -name 'max_link_*' \) -delete
M=$TMP
probe broken enp5s0f0
jq_check "missing softirqs: not recorded, with the file named" \
	'.irq.softirqs.status == "not_recorded" and (.irq.softirqs.reason | test("/proc/softirqs"))'
jq_check "missing /proc/irq: affinity not recorded" '[.irq.lines[].affinity_status] | unique == ["not_recorded"]'
jq_check "missing config and link files: link not recorded" \
	'.pci.link.status == "not_recorded" and (.pci.link.reason | length) > 0'
mkdir "$TMP/empty"
probe empty eth0
jq_check "empty recording: every group says why" \
	'.irq.status == "error" and .irq.softnet.status == "not_recorded" and .irq.irqbalance.status == "not_recorded" and .pci.status == "error"'
expect_exit 2 "no interface given: usage error" -- "$TOOL" --sysroot "$TMP/empty"
finish
