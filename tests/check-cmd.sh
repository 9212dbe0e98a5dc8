#!/bin/sh
# check-cmd.sh: "pipescope check" on the recorded machines (--sysroot),
# on a saved snapshot (--snapshot FILE), in its three formats, and the
# guided run live against the in-process loopback server (--quick).
# Exit statuses: 3 a bottleneck was found, 0 none, 1 failure.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
scratch

if [ -d "$MACHINES/pcie-downgraded/sys" ]; then
	# x1 at 5 GT/s of x8 at 8 GT/s: a bottleneck, exit 3
	expect_exit 3 "pcie-downgraded json" -- "$PIPESCOPE" check \
		--sysroot "$MACHINES/pcie-downgraded" --format json
	jq_is '.schema' pipescope-check pcie
	jq_is '.mode' static pcie
	jq_is '.static_only' true pcie
	jq_is '.answer.top' pcie_link pcie
	jq_is '.findings[0].severity' bottleneck pcie
	jq_is '.answer.binding.id' pcie_link pcie
	jq_is '(.findings[0].ceiling_bps / 1e9 | floor)' 3 pcie
	jq_is '[.checked[] | select(.check == "window_rtt")][0].state' \
		not_checked pcie
	T_COUNT=$((T_COUNT + 1))
	printf '%s' "$ERR" | grep -q 'static checks only' ||
		fail "pcie: stderr does not say static checks only: $ERR"

	expect_exit 3 "pcie-downgraded text" -- "$PIPESCOPE" check \
		--sysroot "$MACHINES/pcie-downgraded"
	T_COUNT=$((T_COUNT + 1))
	printf '%s\n' "$OUT" | grep -q 'Binding ceiling: *3.66 Gbit/s' ||
		fail "text: no binding ceiling line"
	expect_exit 3 "pcie-downgraded markdown" -- "$PIPESCOPE" check \
		--sysroot "$MACHINES/pcie-downgraded" --format markdown
	T_COUNT=$((T_COUNT + 1))
	printf '%s\n' "$OUT" | grep -q '^### Findings' &&
		printf '%s\n' "$OUT" | grep -q '`pcie_link`' ||
		fail "markdown: no findings section"

	# all IRQs on CPU0: warnings, no bottleneck without a test: exit 0,
	# and never an all clear
	expect_exit 0 "ixgbe cpu0" -- "$PIPESCOPE" check \
		--sysroot "$MACHINES/ixgbe-12cpu-cpu0" --format json
	jq_is '.answer.bottleneck' false ixgbe
	jq_is '[.findings[].id] | index("irq_one_cpu") != null' true ixgbe
	jq_is '[.findings[].id] | index("unexplained") != null' true ixgbe

	# a saved snapshot: static checks, said on stderr and in the report
	"$PIPESCOPE" probe --sysroot "$MACHINES/pcie-downgraded" --json >"$TMP/snap.json"
	if jq -e '.pci' "$TMP/snap.json" >/dev/null 2>&1; then
		want=3
	else
		want=0	# the snapshot does not carry the PCIe member yet
	fi
	expect_exit $want "--snapshot" -- "$PIPESCOPE" check \
		--snapshot "$TMP/snap.json" --format json
	jq_is '.mode' static snapshot
	jq_is '.snapshot_file' "$TMP/snap.json" snapshot
	jq_is '.host.hostname' pcie-host snapshot
	[ $want = 3 ] && jq_is '.answer.top' pcie_link snapshot
	# from stdin
	T_COUNT=$((T_COUNT + 1))
	"$PIPESCOPE" check --snapshot - --format json <"$TMP/snap.json" \
		>"$TMP/stdin.json" 2>/dev/null && rc=0 || rc=$?
	[ $rc = $want ] && [ "$(jq -r .host.nic "$TMP/stdin.json")" = enp5s0f0 ] ||
		fail "--snapshot -: exit $rc, nic $(jq -r .host.nic "$TMP/stdin.json")"
else
	echo "recorded machine trees not present: their checks skipped"
fi

# markdown: what a hostile tree (or a far end) names can break no table
# and inject no link, code span or HTML into a ticket; our own markdown
# (remedies in code spans, tcp_rmem) keeps its bytes
md_has() {
	T_COUNT=$((T_COUNT + 1))
	printf '%s\n' "$OUT" | grep -qF -- "$1" || fail "$2: no '$1' in: $OUT"
}
md_lacks() {
	what=$1
	shift
	for s in "$@"; do
		T_COUNT=$((T_COUNT + 1))
		printf '%s\n' "$OUT" | grep -qF -- "$s" && fail "$what: '$s' is raw"
	done
	return 0
}
if [ -d "$MACHINES/virtio-2cpu/proc" ]; then
	cp -a "$MACHINES/virtio-2cpu" "$TMP/evil"
	evil='h|x`y`<script>[x](http://e)_z_*b*'
	printf '%s\n' "$evil" >"$TMP/evil/proc/sys/kernel/hostname"
	printf '%s\n' '#6.1|`k`<b>' >"$TMP/evil/proc/sys/kernel/osrelease"
	expect_exit 0 "hostile tree markdown" -- "$PIPESCOPE" check \
		--sysroot "$TMP/evil" --format markdown
	md_has '**Host:** h\|x\`y\`\<script\>\[x\](http://e)\_z\_\*b\*, kernel \#6.1\|\`k\`\<b\>,' tree
	md_lacks tree '<script>' '[x](' '<b>'
	md_has '- net.ipv4.tcp_rmem: ' tree
	md_has '   - remedy: `' tree
	# the text report shows them as they are
	expect_exit 0 "hostile tree text" -- "$PIPESCOPE" check \
		--sysroot "$TMP/evil"
	md_has "Host:       $evil, kernel" tree-text

	# a snapshot whose driver and link kind are hostile
	"$PIPESCOPE" probe --sysroot "$TMP/evil" --json 2>/dev/null |
		jq '.ethtool.driver = {status: "ok", driver: "e|`1`<i>[x](http://e)"} |
		    .link.status = "ok" | .link.physical = false |
		    .link.kind = "v|`d`<script>" | del(.link.reason)' \
		>"$TMP/evil.json"
	expect_exit 0 "hostile snapshot markdown" -- "$PIPESCOPE" check \
		--snapshot "$TMP/evil.json" --format markdown
	md_has '- driver: e\|\`1\`\<i\>\[x\](http://e)' snapshot
	md_has 'software device (v\|\`d\`\<script\>)' snapshot
	md_lacks snapshot '<script>' '<i>' '[x]('
fi

# a snapshot that is not one: failure, one line
echo '{"nope": 1}' >"$TMP/bad.json"
expect_exit 1 "bad snapshot" -- "$PIPESCOPE" check --snapshot "$TMP/bad.json"
expect_exit 1 "missing snapshot" -- "$PIPESCOPE" check --snapshot "$TMP/none.json"

# the guided run, live over loopback (short)
expect_exit_any() {
	T_COUNT=$((T_COUNT + 1))
	OUT=$("$@" 2>"$TMP/err") && rc=0 || rc=$?
	ERR=$(cat "$TMP/err")
	case " $want " in
	*" $rc "*) pass "$what" ;;
	*) fail "$what: exit $rc, wanted one of $want (stderr: $ERR)" ;;
	esac
}
want="0 3" what="loopback --quick"
expect_exit_any "$PIPESCOPE" check --quick -t 1 --format json
jq_is '.mode' loopback loopback
jq_is '.static_only' false loopback
jq_is '.steps[0].id' single loopback
jq_is '.steps[0].state' done loopback
jq_is '(.answer.measured_bps > 1e8)' true loopback
jq_is '[.steps[] | select(.id == "sweep")] | length > 0' true loopback
# every bottleneck is backed by numbers
jq_is '[.findings[] | select(.severity == "bottleneck") |
	select((.evidence | test("[0-9]")) | not)] | length' 0 loopback
# the exit status agrees with the answer
jq_is ".answer.bottleneck" "$([ $rc = 3 ] && echo true || echo false)" loopback
T_COUNT=$((T_COUNT + 1))
printf '%s' "$ERR" | grep -q 'loopback measures this host' ||
	fail "loopback: stderr does not say what loopback measures"
printf '%s' "$ERR" | grep -q '^\[2/6\] One stream' ||
	fail "loopback: no progress line for the single stream"

# nobody listens: exit 1, the first test failed, the rest skipped with the
# reason, and a refused connection is no evidence of an MTU black hole
port=$(free_port 5)
expect_exit 1 "nobody listening" -- "$PIPESCOPE" check -c 127.0.0.1 \
	-p "$port" --quick -t 1 --format json
jq_is '.steps[0].state' failed refused
jq_is '[.steps[1:][] | .state] | unique | join(",")' skipped refused
jq_is '[.findings[].id] | index("mtu_blackhole")' null refused
jq_is '.answer.bottleneck' false refused

# against an unmodified iperf3 server: the far end's tool is judged
if command -v iperf3 >/dev/null 2>&1; then
	port=$(free_port 3)
	iperf3 -s -p "$port" >"$TMP/iperf3.log" 2>&1 &
	ipid=$!
	if wait_listen "$port"; then
		want="0 3" what="iperf3 server"
		expect_exit_any "$PIPESCOPE" check -c 127.0.0.1 -p "$port" \
			--quick -t 1 --format json
		jq_is '.peer.kind' iperf3 iperf3
		jq_is '.host.iface' lo iperf3
		jq_is '[.findings[].id] | index("peer_tool") != null' true iperf3
	else
		fail "iperf3 -s did not listen"
	fi
	kill "$ipid" 2>/dev/null
	wait "$ipid" 2>/dev/null
fi

finish
