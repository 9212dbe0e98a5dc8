#!/bin/sh
# irqpci-nobody.sh: the probes as user nobody: no crash; the PCIe probe
# says that the full config-space read needs root and still gives speed and
# width from the sysfs attributes (shown on a copy of the downgraded-link
# recording whose config files only root may read, because this VM's NIC
# has no PCIe link of its own).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_root "switches to user nobody"
need_cmd setpriv util-linux
need_cmd jq jq
TOOL=$top_builddir/tests/tools/ps-irqpci
M=$MACHINES
NOBODY="setpriv --reuid=nobody --regid=nogroup --clear-groups"
$NOBODY test -x "$TOOL" || skip "user nobody cannot reach $TOOL (build directory permissions)"
scratch
chmod 755 "$TMP"
J=$TMP/out.json

IF=$(awk '$2 == "00000000" { print $1; exit }' /proc/net/route)
if [ -n "$IF" ]; then
	expect_exit 0 "$IF as nobody: runs" -- $NOBODY "$TOOL" "$IF"
	printf '%s\n' "$OUT" >"$J"
	jq_check "$IF as nobody: IRQ lines still read" '.irq.status == "ok" or .irq.status == "absent"'
	if [ -f "/sys/class/net/$IF/device/current_link_speed" ]; then
		jq_check "$IF as nobody: link from sysfs, payload needs root" \
			'.pci.link.source == "sysfs" and .pci.payload.status == "needs_root"'
	else
		jq_check "$IF as nobody: a stated status for the link" \
			'.pci.link.status != "error" and (.pci.link.reason | length) > 0'
	fi
fi

[ -d "$M/pcie-downgraded/sys" ] || { finish; }
cp -a "$M/pcie-downgraded" "$TMP/t"
chmod -R a+rX "$TMP/t"
find "$TMP/t/sys/devices" -name config -exec chmod 600 {} +
expect_exit 0 "recording as nobody: runs" -- $NOBODY "$TOOL" --sysroot "$TMP/t" enp5s0f0
printf '%s\n' "$OUT" >"$J"
jq_check "as nobody: says the full config read needs root" \
	'.pci.payload.status == "needs_root" and (.pci.payload.reason | test("needs root"))'
jq_check "as nobody: speed and width still filled from sysfs" \
	'.pci.link.status == "ok" and .pci.link.source == "sysfs" and .pci.link.speed_gts == 5 and .pci.link.width == 1 and .pci.link.cap_width == 8'
jq_check "as nobody: still downgraded, usable with MPS assumed" \
	'.pci.link.downgraded and .pci.link.usable_bps > 3e9 and (.pci.link.usable_how | test("assumed"))'
expect_exit 0 "recording as root: runs" -- "$TOOL" --sysroot "$TMP/t" enp5s0f0
printf '%s\n' "$OUT" >"$J"
jq_check "as root: the same copy reads the config space" '.pci.link.source == "config" and .pci.payload.status == "ok"'
finish
