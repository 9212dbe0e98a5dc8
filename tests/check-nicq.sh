#!/bin/sh
# check-nicq.sh: the NIC's own counters on a live device: a veth pair with
# 4 receive and transmit queues between two namespaces this test makes.
# "probe" reads the driver's counters by name (veth counts drops per
# queue); each test of "check" carries the NIC's drops/s over the test;
# with "ethtool -L tx 1" the single transmit queue beside 4 receive queues
# is a finding.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_root "network namespaces, ethtool -L"
need_cmd jq jq
need_cmd ethtool ethtool

NA=psnq-a-$$
NB=psnq-b-$$
ADDR_A=10.78.$(($$ % 200)).1
ADDR_B=10.78.$(($$ % 200)).2
PORT=5201
tmp=$(mktemp -d)
SRV=""
cleanup() {
	stop_pid "$SRV"
	netns_teardown "$NA" "$NB"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

netns_pair "$NA" "$NB" vA vB "$ADDR_A" "$ADDR_B" numrxqueues 4 numtxqueues 4 ||
	skip "cannot create two namespaces joined by a veth pair"

# is DESCRIPTION JQ-EXPR WANTED: one value of $J
is() {
	T_COUNT=$((T_COUNT + 1))
	got=$(echo "$J" | jq -r "$2")
	if [ "$got" = "$3" ]; then
		pass "$1 ($2 = $3)"
	else
		fail "$1: $2 is '$got', wanted '$3'"
	fi
}

J=$(ip netns exec "$NA" "$PIPESCOPE" probe --iface vA --json) ||
	fail "probe --iface vA failed"
is "the driver's counters are read" .ethtool.driver_stats.status ok
is "veth's per-queue drops are the rx dropped class" \
	.ethtool.nic_counters.rx_dropped 0
is "veth counts no packets per queue: not reported" \
	'.ethtool.nic_counters | has("rx_packets")' false
is "no pause counters: not reported, never 0" \
	'.ethtool.nic_counters | has("pause_rx")' false

ip netns exec "$NB" "$PIPESCOPE" -s -p $PORT >"$tmp/server.log" 2>&1 &
SRV=$!
wait_listen $PORT "$NB" || fail "the server did not listen"

ip netns exec "$NA" ethtool -L vA rx 4 tx 1 || fail "ethtool -L vA tx 1"
ip netns exec "$NA" "$PIPESCOPE" check -c "$ADDR_B" -p $PORT --iface vA \
	--quick -t 1 --format json >"$tmp/check.json" 2>"$tmp/check.err"
rc=$?
T_COUNT=$((T_COUNT + 1))
if [ $rc -le 3 ] && jq -e . "$tmp/check.json" >/dev/null 2>&1; then
	pass "check ran (exit $rc)"
else
	fail "check exited $rc: $(tail -2 "$tmp/check.err")"
fi
J=$(cat "$tmp/check.json")
is "the one-stream test carries the NIC's drops/s" \
	'[.steps[] | select(.id == "single") | .nic.drops_per_s.rx_dropped][0]' 0
is "one transmit queue beside 4 receive queues is a finding" \
	'[.findings[] | select(.id == "single_tx_queue") | .severity][0]' warning
is "... quoting the queue counts" \
	'[.findings[] | select(.id == "single_tx_queue") | .facts[] |
	  select(.key == "rx_queues") | .value][0]' 4
finish
