#!/bin/sh
# probe-cmd.sh: "pipescope probe" on this machine (default interface, lo, an
# interface that is not there), on broken recorded trees, and as nobody.
# Exit statuses: 0 done; 1 --iface names a missing interface (the snapshot
# is still printed and says why); 2 --sysroot is not a directory.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
scratch

# live, default interface: two samples, so rates are real
ncpu=$(grep -c '^cpu[0-9]' /proc/stat)
defif=$(awk 'NR > 1 && $2 == "00000000" && $8 == "00000000" { print $1; exit }' /proc/net/route)
expect_exit 0 "live --json" -- "$PIPESCOPE" probe --json
jq_is '.snapshot_version' 1 live
jq_is '.source.mode' live live
jq_is '.rates.available' true live
jq_is '.cpu.status' ok live
jq_is '.cpu.basis' interval live
jq_is '.cpu.cores | length' "$ncpu" live
jq_is '.sysctl.values["net.core.netdev_max_backlog"].value' \
	"$(cat /proc/sys/net/core/netdev_max_backlog)" live
if [ -n "$defif" ]; then
	jq_is '.iface.name' "$defif" "live default route"
	jq_is '.iface.source' default_route "live default route"
	jq_is '.iface.status' ok "live default route"
else
	jq_is '.iface.source' none "live, no default route"
fi

expect_exit 0 "live text" -- "$PIPESCOPE" probe
T_COUNT=$((T_COUNT + 1))
printf '%s\n' "$OUT" | grep -q '^CPU$' || fail "text: no CPU heading"
printf '%s\n' "$OUT" | grep -q 'busiest: cpu[0-9]* [0-9]*% busy' ||
	fail "text: no busiest core"
printf '%s\n' "$OUT" | grep -q 'rmem_max' || fail "text: no rmem_max"

expect_exit 0 "--iface lo" -- "$PIPESCOPE" probe --iface lo --json
jq_is '.iface.name' lo lo
jq_is '.iface.source' option lo
jq_is '.iface.status' ok lo
# the interface-bound probes read lo: the link's MTU as sysfs has it, no PCIe
jq_is '.link.status' ok lo
jq_is '.link.mtu' "$(cat /sys/class/net/lo/mtu)" lo
jq_is '.link.rates.seconds > 0' true lo
jq_is '.pci.status' absent lo
jq_is '.ethtool.features.offloads.gso | has("on")' true lo

# an interface that is not there: the snapshot says why; exit 1
expect_exit 1 "--iface nosuch0" -- "$PIPESCOPE" probe --iface nosuch0 --json
jq_is '.iface.status' absent nosuch0
jq_is '.iface.reason | test("nosuch0")' true nosuch0
jq_is '.cpu.status' ok nosuch0
for sec in link ethtool pci irq; do
	jq_is ".$sec.status" absent "nosuch0 $sec"
	jq_is ".$sec.reason | test(\"nosuch0\")" true "nosuch0 $sec"
done
# no group pretends to have read the missing NIC; host-wide parts are real
jq_is '.ethtool.link_state.status == "ok"' false nosuch0
jq_is '.link.counters.status == "ok"' false nosuch0
jq_is '.irq.cpus | length' "$ncpu" nosuch0
T_COUNT=$((T_COUNT + 1))
[ "$(printf '%s\n' "$ERR" | wc -l)" = 1 ] && printf '%s' "$ERR" | grep -q nosuch0 ||
	fail "nosuch0: want one line on stderr naming it, got: $ERR"

# --sysroot that is not a directory: a usage error, nothing printed
expect_exit 2 "--sysroot missing" -- "$PIPESCOPE" probe --sysroot "$TMP/none"
T_COUNT=$((T_COUNT + 1))
[ -z "$OUT" ] && [ "$(printf '%s\n' "$ERR" | wc -l)" = 1 ] ||
	fail "--sysroot missing: want one error line and no output"
: >"$TMP/file"
expect_exit 2 "--sysroot a file" -- "$PIPESCOPE" probe --sysroot "$TMP/file"

# a recorded tree with files missing: stated reasons, not a crash (the
# release tarball has no recorded trees: then a minimal one is made here)
if [ -d "$MACHINES/mlx5-4cpu" ]; then
	cp -r "$MACHINES/mlx5-4cpu" "$TMP/t"
else
	mkdir -p "$TMP/t/proc/sys/net/ipv4" "$TMP/t/proc/sys/net/core"
	cp /proc/stat "$TMP/t/proc/stat"
	cp /proc/sys/net/ipv4/tcp_rmem /proc/sys/net/ipv4/tcp_wmem \
		"$TMP/t/proc/sys/net/ipv4/"
	mkdir -p "$TMP/t/proc/net" "$TMP/t/sys/class/net/eth0"
	printf 'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\neth0\t00000000\t0100000A\t0003\t0\t0\t0\t00000000\t0\t0\t0\n' \
		>"$TMP/t/proc/net/route"
fi
rm -f "$TMP/t/proc/stat" "$TMP/t/proc/sys/net/ipv4/tcp_rmem"
expect_exit 0 "tree without proc/stat" -- "$PIPESCOPE" probe --sysroot "$TMP/t" --json
jq_is '.cpu.status' not_recorded "no proc/stat"
jq_is '.cpu.reason | test("/proc/stat")' true "no proc/stat"
jq_is '.sysctl.values["net.ipv4.tcp_rmem"].status' not_recorded "no tcp_rmem"
jq_is '.sysctl.values["net.ipv4.tcp_wmem"].status' ok "no tcp_rmem"
jq_is '.link.status' not_recorded "a recorded tree has no netlink"
expect_exit 0 "tree without proc/stat, text" -- "$PIPESCOPE" probe --sysroot "$TMP/t"
# garbage where a number should be
echo "cpu0 lots of work" >"$TMP/t/proc/stat"
echo "big" >"$TMP/t/proc/sys/net/core/rmem_max"
expect_exit 0 "tree with garbage" -- "$PIPESCOPE" probe --sysroot "$TMP/t" --json
jq_is '.cpu.status' error garbage
jq_is '.sysctl.values["net.core.rmem_max"].status' error garbage
# a vlan on a bond on a NIC (recorded): the link shows the chain, the NIC
# probes read the physical NIC underneath
if [ -d "$MACHINES/i40e-4cpu" ]; then
	cp -a "$MACHINES/i40e-4cpu" "$TMP/v"
	mkdir -p "$TMP/v/sys/devices/virtual/net/bond0" \
		"$TMP/v/sys/devices/virtual/net/vlan100"
	ln -s ../../devices/virtual/net/bond0 "$TMP/v/sys/class/net/bond0"
	ln -s ../../devices/virtual/net/vlan100 "$TMP/v/sys/class/net/vlan100"
	ln -s ../bond0 "$TMP/v/sys/devices/virtual/net/vlan100/lower_bond0"
	ln -s ../../../pci0000:00/0000:00:01.0/0000:01:00.0/net/eth0 \
		"$TMP/v/sys/devices/virtual/net/bond0/lower_eth0"
	expect_exit 0 "vlan on bond on eth0" -- \
		"$PIPESCOPE" probe --sysroot "$TMP/v" --iface vlan100 --json
	jq_is '.iface.name' vlan100 "vlan chain"
	jq_is '.iface.nic' eth0 "vlan chain"
	jq_is '.link.lower.chain' "vlan100 → bond0 → eth0" "vlan chain"
	jq_is '.pci.status' ok "vlan chain: PCIe of eth0"
	jq_is '.pci.bdf' 0000:01:00.0 "vlan chain: PCIe of eth0"
	jq_is '.irq.status' ok "vlan chain: IRQs of eth0"
	expect_exit 0 "vlan on bond on eth0, text" -- \
		"$PIPESCOPE" probe --sysroot "$TMP/v" --iface vlan100
	T_COUNT=$((T_COUNT + 1))
	printf '%s\n' "$OUT" | grep -q '^interface: vlan100 (--iface), on the NIC eth0$' ||
		fail "vlan chain: the text does not name the NIC"
fi

# an empty tree: nothing recorded, no interface
mkdir "$TMP/empty"
expect_exit 0 "empty tree" -- "$PIPESCOPE" probe --sysroot "$TMP/empty" --json
jq_is '.iface.name' "" "empty tree"
jq_is '.sysctl.status' not_recorded "empty tree"

# as nobody: everything this probe reads is world-readable
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	cp "$PIPESCOPE" "$TMP/pipescope"
	chmod 755 "$TMP" "$TMP/pipescope"
	expect_exit 0 "as nobody" -- setpriv --reuid=nobody --regid=nogroup \
		--clear-groups "$TMP/pipescope" probe --json
	jq_is '.host.root' false nobody
	jq_is '.cpu.status' ok nobody
	jq_is '.sysctl.status' ok nobody
	jq_is '.rates.available' true nobody
else
	echo "note: not root: the run as nobody is skipped"
fi
finish
