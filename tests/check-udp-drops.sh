#!/bin/sh
# check-udp-drops.sh: where UDP loss happened, end to end between two
# network namespaces joined by a veth pair: "pipescope -s" in one,
# "pipescope check -c ADDR -u -b 2G -w 16K" in the other (the client's -w
# is the server's receive buffer too: it goes in the test's parameters; a
# server's own -w is not applied to UDP), far above what a 16K buffer
# takes: the top UDP finding (udp_loss) names the receiver's socket buffer
# with the counter's value, no more than the growth of the server
# namespace's UdpRcvbufErrors (read by this script from its /proc/net/snmp):
# the far end's counters came in the snapshots the server sent. Then the
# same with -R: this end receives.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_root "network namespaces"
need_cmd jq jq

NA=psud-a-$$
NB=psud-b-$$
VA=psuda$$
VB=psudb$$
ADDR_A=10.78.$(($$ % 200)).1
ADDR_B=10.78.$(($$ % 200)).2
PORT=5201
tmp=${KEEP_TMP:-$(mktemp -d)}
SRV=""

teardown() {
	if [ -n "$SRV" ]; then
		kill "$SRV" 2>/dev/null
		wait "$SRV" 2>/dev/null
		SRV=""
	fi
	ip netns del "$NA" 2>/dev/null
	ip netns del "$NB" 2>/dev/null
}
trap 'teardown; [ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

ip netns add "$NA" 2>/dev/null || skip "cannot create network namespaces"
ip netns add "$NB" &&
	ip link add "$VA" type veth peer name "$VB" &&
	ip link set "$VA" netns "$NA" && ip link set "$VB" netns "$NB" &&
	ip -n "$NA" addr add "$ADDR_A/24" dev "$VA" &&
	ip -n "$NB" addr add "$ADDR_B/24" dev "$VB" &&
	ip -n "$NA" link set lo up && ip -n "$NB" link set lo up &&
	ip -n "$NA" link set "$VA" up && ip -n "$NB" link set "$VB" up ||
	{ fail "cannot build the namespaces"; finish; }

ip netns exec "$NB" "$PIPESCOPE" -s -p $PORT >"$tmp/server.log" 2>&1 &
SRV=$!
i=0
while [ $i -lt 50 ] && ! ip netns exec "$NB" ss -Htln "sport = :$PORT" | grep -q .; do
	sleep 0.1
	i=$((i + 1))
done

# rcvbuf NS: that namespace's Udp RcvbufErrors
rcvbuf() {
	ip netns exec "$1" awk '/^Udp:/ { n++; if (n == 1) for (i = 2; i <= NF; i++)
		if ($i == "RcvbufErrors") c = i; if (n == 2) print $c }' /proc/net/snmp
}

# one "check -u" run from A; $J the report
run_check() {
	J=$tmp/report-$1.json
	shift
	ip netns exec "$NA" timeout 60 "$PIPESCOPE" check -c "$ADDR_B" -p $PORT \
		-u -b 2G -l 1400 -w 16K -t 2 --iface "$VA" --format json "$@" \
		>"$J" 2>"$tmp/err"
}

# forward: the server's socket buffer drops
b0=$(rcvbuf "$NB")
run_check fwd
b1=$(rcvbuf "$NB")
grew=$((b1 - b0))
T_COUNT=$((T_COUNT + 1))
if ! jq -e . "$J" >/dev/null 2>&1; then
	fail "check -u: no JSON report: $(tail -5 "$tmp/err")"
else
	jq_check "the UDP test ran and lost datagrams" \
		'[.findings[] | select(.id == "udp_loss")][0].facts[] | select(.key == "udp_lost") | .value > 0'
	top=$(jq -r '[.findings[] | select(.id == "udp_loss")][0].title // ""' "$J")
	n=$(jq -r '[[.findings[] | select(.id == "udp_loss")][0].facts[]? | select(.key == "udp_rcvbuf_errors") | .value][0] // 0' "$J")
	check "the UDP finding names the receiver's socket buffer: '$top'" \
		sh -c "printf '%s' \"\$1\" | grep -q \"socket buffer (UdpRcvbufErrors +$n, far end)\"" _ "$top"
	check "its counter (+$n) grew, and by no more than the server's namespace counted (+$grew)" \
		sh -c "[ $n -gt 0 ] && [ $n -le $grew ]"
	jq_check "it is the top finding about UDP and a bottleneck" \
		'[.findings[] | select(.family == "path")][0].id == "udp_loss" and
		 ([.findings[] | select(.id == "udp_loss")][0].severity == "bottleneck")'
	jq_check "the remedy raises the receive buffer" \
		'[.findings[] | select(.id == "udp_loss")][0].remedy | test("rmem_max")'
fi

# reverse: the far end sends, this end's buffer (-w 16K here) drops
a0=$(rcvbuf "$NA")
run_check rev -R
a1=$(rcvbuf "$NA")
grew=$((a1 - a0))
T_COUNT=$((T_COUNT + 1))
if ! jq -e . "$J" >/dev/null 2>&1; then
	fail "check -u -R: no JSON report: $(tail -5 "$tmp/err")"
else
	top=$(jq -r '[.findings[] | select(.id == "udp_loss")][0].title // ""' "$J")
	n=$(jq -r '[[.findings[] | select(.id == "udp_loss")][0].facts[]? | select(.key == "udp_rcvbuf_errors") | .value][0] // 0' "$J")
	check "-R: the finding names this end's socket buffer: '$top'" \
		sh -c "printf '%s' \"\$1\" | grep -q 'socket buffer (UdpRcvbufErrors +[1-9][0-9]*, this end)'" _ "$top"
	check "-R: its counter (+$n) is what this namespace counted (+$grew)" \
		sh -c "[ $n -gt 0 ] && [ $n -le $grew ]"
fi
finish
