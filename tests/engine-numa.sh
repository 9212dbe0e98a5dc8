#!/bin/sh
# engine-numa.sh: the data threads stay on the CPUs local to the NIC the
# test crosses (place.h), at both ends. A NIC with a NUMA node cannot exist
# on this one-node machine, so its sysfs comes from a recorded tree
# (numa-2node: CPUs 0,2 on node 0, 1,3 on node 1, eth0's NIC on node 1)
# through PIPESCOPE_PLACE_SYSROOT, while the test itself is real: two
# namespaces whose veth ends are both named eth0. Checked against the
# kernel: the stream threads' Cpus_allowed_list in /proc while they run,
# and the CPU each stream reported in -J. Then --no-numa, -A, an iperf3
# server, and loopback (no NIC: nothing changes).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_root "network namespaces"
need_cmd jq jq
tree=$top_srcdir/tests/fixtures/machines/numa-2node
[ -d "$tree" ] || skip "no recorded trees in this tree (a release tarball)"
taskset -pc $$ 2>/dev/null | grep -Eq ': (.*[^0-9])?1([^0-9].*)?$|: 0-[1-9]' ||
	skip "CPU 1 is not one this test may use ($(taskset -pc $$ 2>&1))"

tmp=$(mktemp -d)
NA=psnuma-a-$$
NB=psnuma-b-$$
A=10.131.$(($$ % 200 + 1)).1
B=10.131.$(($$ % 200 + 1)).2
cleanup() {
	kill_bg
	netns_teardown "$NA" "$NB"
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
netns_pair "$NA" "$NB" eth0 eth0 "$A" "$B" || skip "cannot build the namespaces"
export PIPESCOPE_HISTORY=off

# serve [OPTION...]: a one-off pipescope server in NB reading the tree,
# its -J in $tmp/srv.json
serve() {
	port=$(free_port)
	bg env PIPESCOPE_PLACE_SYSROOT="$tree" ip netns exec "$NB" \
		"$PIPESCOPE" -s -1 -p "$port" -J "$@" >"$tmp/srv.json" 2>"$tmp/srv.err"
	SRV=$LAST_PID
	wait_listen "$port" "$NB" || fail "the server did not listen: $(cat "$tmp/srv.err")"
}
# client NAME [OPTION...]: the client in NA reading the tree, -J to NAME.json
client() {
	name=$1
	shift
	env PIPESCOPE_PLACE_SYSROOT="$tree" ip netns exec "$NA" \
		"$PIPESCOPE" -c "$B" -p "$port" -J "$@" >"$tmp/$name.json" 2>"$tmp/$name.err" ||
		fail "$name: the test failed: $(head -c 300 "$tmp/$name.err")"
}

# 1. both ends place themselves on node 1's CPU this machine has (1);
# while it runs, the kernel says where the stream threads may run
serve
env PIPESCOPE_PLACE_SYSROOT="$tree" ip netns exec "$NA" \
	"$PIPESCOPE" -c "$B" -p "$port" -J -P 2 -t 3 >"$tmp/placed.json" 2>"$tmp/placed.err" &
CLI=$!
sleep 1.5
allowed=$(for t in /proc/$CLI/task/*; do
	case $(cat "$t/comm" 2>/dev/null) in ps-stream | ps-worker) ;; *) continue ;; esac;
		sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$t/status"
done | sort -u | tr '\n' ' ')
srv_allowed=$(for t in /proc/$SRV/task/*; do
	case $(cat "$t/comm" 2>/dev/null) in ps-stream | ps-worker) ;; *) continue ;; esac;
		sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$t/status"
done | sort -u | tr '\n' ' ')
wait $CLI || fail "placed: the test failed: $(head -c 300 "$tmp/placed.err")"
wait "$SRV" 2>/dev/null
check "the kernel keeps the client's stream threads to CPU 1 (Cpus_allowed_list: $allowed)" \
	test "$allowed" = "1 "
check "and the server's ($srv_allowed)" test "$srv_allowed" = "1 "
check "-J: the placement applied, CPUs 1 on node 1, eth0" jq -e \
	'.pipescope.placement | .applied and .cpus == "1" and .numa_node == 1 and .interface == "eth0"' \
	"$tmp/placed.json"
check "-J: every stream ran on CPU 1 in every interval" jq -e \
	'[.intervals[].pipescope.streams[]?.cpu] | length > 0 and all(. == 1)' "$tmp/placed.json"
check "the server's -J tells its own placement" jq -e \
	'.pipescope.placement | .applied and .cpus == "1"' "$tmp/srv.json"
check "the server reports its placement to the client (peer_snapshot.host.data_threads)" jq -e \
	'.pipescope.peer_snapshot.host.data_threads == "1"' "$tmp/placed.json"
check "-J: the reason names the CPUs, the node and the NIC" jq -e \
	'.pipescope.placement.why | test("CPUs 1, node 1, local to eth0")' "$tmp/placed.json"

# 2. --no-numa at the client: nothing kept, and said so
serve
client nonuma -t 1 --no-numa
wait "$SRV" 2>/dev/null
check "--no-numa: not applied, and why" jq -e \
	'.pipescope.placement | (.applied | not) and (.why | test("--no-numa"))' "$tmp/nonuma.json"

# 3. -A chooses instead
serve
client pinned -t 1 -A 0
wait "$SRV" 2>/dev/null
check "-A: not applied, -A chose" jq -e \
	'.pipescope.placement | (.applied | not) and (.why | test("-A"))' "$tmp/pinned.json"
check "-A 0: the stream ran on CPU 0" jq -e \
	'[.intervals[].pipescope.streams[]?.cpu] | length > 0 and all(. == 0)' "$tmp/pinned.json"

# 4. an iperf3 server at the far end: this end still places itself
if command -v iperf3 >/dev/null 2>&1; then
	port=$(free_port)
	bg ip netns exec "$NB" iperf3 -s -1 -p "$port"
	wait_listen "$port" "$NB" || fail "iperf3 did not listen"
	client iperf3 -t 1
	check "against iperf3: applied here" jq -e \
		'.pipescope.placement.applied and .end.sum_received.bytes > 0' "$tmp/iperf3.json"
else
	echo "SKIP part: no iperf3 (apt-get install iperf3)"
fi

# 5. this machine's own /sys: a veth has no PCI device, nothing changes
port=$(free_port)
bg env PIPESCOPE_HISTORY=off ip netns exec "$NB" "$PIPESCOPE" -s -1 -p "$port"
wait_listen "$port" "$NB" || fail "the server did not listen"
ip netns exec "$NA" "$PIPESCOPE" -c "$B" -p "$port" -J -t 1 >"$tmp/live.json" 2>&1 ||
	fail "live: the test failed"
check "live veth: not applied, not a NIC" jq -e \
	'.pipescope.placement | (.applied | not) and (.why | test("not a NIC"))' "$tmp/live.json"

# 6. the check on the recorded machine: two of eth0's four queue
# interrupts may run only on node 0 (IRQ 33 on CPU 0, 35 on CPU 2)
"$PIPESCOPE" check --sysroot "$tree" --iface eth0 --format json >"$tmp/chk.json" 2>"$tmp/chk.err"
check "check --sysroot: the numa finding counts 2 of 4 lines off node 1" jq -e \
	'.findings[] | select(.id == "numa") | .severity == "warning" and
	 (.evidence | test("node 1 of 2 \\(local CPUs 1,3\\), 2 of its 4 queue interrupts may run only off it \\(IRQ 33 on CPUs 0, the driver.s hint 1\\)"))' \
	"$tmp/chk.json"
check "and its remedy writes node 1's CPUs to the first line" jq -e \
	'.findings[] | select(.id == "numa") | .remedy | test("echo 1,3 > /proc/irq/33/smp_affinity_list")' \
	"$tmp/chk.json"
finish
