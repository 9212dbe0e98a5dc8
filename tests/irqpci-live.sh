#!/bin/sh
# irqpci-live.sh: the IRQ and PCIe probes on this machine: the interface of
# the default route (virtio here) and lo, cross-checked against /proc and
# /sys read directly; two samples give rates; a missing interface is a
# stated error, not a crash.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
TOOL=$top_builddir/tests/tools/ps-irqpci
[ -x "$TOOL" ] || skip "tests/tools/ps-irqpci not built"
scratch

IF=$(awk '$2 == "00000000" { print $1; exit }' /proc/net/route)
[ -n "$IF" ] || IF=$(ls /sys/class/net | grep -v '^lo$' | head -1)
[ -n "$IF" ] || skip "no network interface besides lo"

expect_exit 0 "$IF: ps-irqpci runs" -- "$TOOL" "$IF"
J=$TMP/if.json
printf '%s\n' "$OUT" >"$J"
jq_check "$IF: JSON names the interface" ".irq.ifname == \"$IF\" and .pci.ifname == \"$IF\""
jq_check "$IF: one CPU entry per CPU of /proc/interrupts" \
	"(.irq.cpus | length) >= $(head -1 /proc/interrupts | wc -w)"

# the PCI function found by hand: walk up from the device link
dev=$(readlink -f "/sys/class/net/$IF/device" 2>/dev/null || true)
pcidev=$dev
while [ -n "$pcidev" ] && [ "$pcidev" != / ]; do
	case $(basename "$pcidev") in
	[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f].[0-7]) break ;;
	esac
	pcidev=$(dirname "$pcidev")
done
if [ -n "$dev" ] && [ -f "$pcidev/vendor" ]; then
	bdf=$(basename "$pcidev")
	jq_check "$IF: PCI function $bdf" ".pci.bdf == \"$bdf\" and .irq.pci_function == \"$bdf\""
	jq_check "$IF: vendor id from sysfs" ".pci.vendor_id == $(($(cat "$pcidev/vendor")))"
	if [ -d "$pcidev/msi_irqs" ]; then
		want=$(ls "$pcidev/msi_irqs" | sort -n | tr '\n' ' ' | sed 's/ $//;s/ /, /g')
		jq_check "$IF: the lines are the function's msi_irqs ($want)" \
			".irq.attribution == \"msi_irqs\" and ([.irq.lines[].irq] == [$want])"
		first=$(ls "$pcidev/msi_irqs" | sort -n | head -1)
		jq_check "$IF: affinity of IRQ $first as in /proc/irq" \
			"[.irq.lines[] | select(.irq == $first) | .smp_affinity_list] == [\"$(cat /proc/irq/$first/smp_affinity_list)\"]"
		# counters only grow: the probe's count <= a later direct read
		later=$(awk -v n="$first:" '$1 == n { s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s }' /proc/interrupts)
		jq_check "$IF: IRQ $first total consistent with /proc/interrupts" \
			"[.irq.lines[] | select(.irq == $first) | .total <= $later] == [true]"
	fi
	if [ -f "$pcidev/current_link_speed" ]; then
		jq_check "$IF: PCIe link width as sysfs says" \
			".pci.link.status == \"ok\" and .pci.link.width == $(cat "$pcidev/current_link_width")"
	else
		jq_check "$IF: no PCIe link is a stated fact" \
			'.pci.link.status == "absent" and (.pci.link.reason | length) > 0'
	fi
else
	jq_check "$IF: virtual, stated" '.irq.status == "absent" and .pci.status == "absent"'
fi

# two samples half a second apart: rates
expect_exit 0 "$IF: two samples" -- "$TOOL" --interval 0.5 "$IF"
printf '%s\n' "$OUT" >"$J"
jq_check "$IF: rates filled" '.irq.rated and .irq.interval_s == 0.5 and .irq.summary.share_basis == "rates"'
jq_check "$IF: rates are not negative" '[.irq.cpus[] | .net_rx_rate >= 0 and .processed_rate >= 0] | all'

expect_exit 0 "lo: ps-irqpci runs" -- "$TOOL" lo
printf '%s\n' "$OUT" >"$J"
jq_check "lo: no interrupt lines, with the reason" \
	'.irq.status == "absent" and .irq.reason == "virtual interface: no interrupt lines"'
jq_check "lo: softnet and softirqs are host-wide and still there" \
	'.irq.softnet.status == "ok" and .irq.softirqs.status == "ok" and .irq.softnet.columns >= 10'
jq_check "lo: NET_RX counts match /proc/softirqs CPU0 or grew" \
	".irq.cpus[0].net_rx <= $(awk '$1 == "NET_RX:" { print $2 }' /proc/softirqs)"
jq_check "lo: no PCIe link, stated" '.pci.status == "absent" and .pci.link.status == "absent"'
jq_check "lo: irqbalance looked for" '.irq.irqbalance.status == "ok"'

expect_exit 0 "lo: text output" -- "$TOOL" --text lo
case $OUT in *"virtual interface: no interrupt lines"*) ;;
*) fail "lo: text does not say why there are no lines" ;; esac
expect_exit 0 "$IF: text output" -- "$TOOL" --text "$IF"

# a veth pair in a namespace of our own: virtual, no interrupt lines
if [ "$(id -u)" = 0 ] && command -v ip >/dev/null; then
	NS=ps-irqpci-$$
	if ip netns add "$NS" 2>/dev/null; then
		trap 'ip netns del "$NS" 2>/dev/null; rm -rf "$TMP"' EXIT
		ip -n "$NS" link add psva type veth peer name psvb &&
			ip -n "$NS" link set psva up
		expect_exit 0 "veth: ps-irqpci runs in the namespace" -- \
			ip netns exec "$NS" "$TOOL" psva
		printf '%s\n' "$OUT" >"$J"
		jq_check "veth: no interrupt lines, with the reason" \
			'.irq.status == "absent" and .irq.reason == "virtual interface: no interrupt lines"'
		jq_check "veth: no PCIe, stated" '.pci.status == "absent" and (.pci.reason | test("virtual"))'
		jq_check "veth: its queues are read" '(.irq.queues.rx | length) >= 1'
		ip netns del "$NS"
	else
		echo "note: cannot create a network namespace; veth case not run"
	fi
fi

expect_exit 0 "missing interface: no crash" -- "$TOOL" ps-nosuch0
printf '%s\n' "$OUT" >"$J"
jq_check "missing interface: stated" '.irq.status == "error" and (.irq.reason | test("ps-nosuch0")) and .pci.status == "error"'
finish
