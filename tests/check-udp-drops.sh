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
	stop_pid "$SRV"
	SRV=""
	netns_teardown "$NA" "$NB"
}
trap 'teardown; [ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

ip netns add "$NA" 2>/dev/null || skip "cannot create network namespaces"
ip netns del "$NA"
netns_pair "$NA" "$NB" "$VA" "$VB" "$ADDR_A" "$ADDR_B" ||
	{ fail "cannot build the namespaces"; finish; }

ip netns exec "$NB" "$PIPESCOPE" -s -p $PORT >"$tmp/server.log" 2>&1 &
SRV=$!
wait_listen $PORT "$NB" || fail "the server did not listen"

# rcvbuf NS: that namespace's Udp RcvbufErrors
rcvbuf() {
	ip netns exec "$1" awk '/^Udp:/ { n++; if (n == 1) for (i = 2; i <= NF; i++)
		if ($i == "RcvbufErrors") c = i; if (n == 2) print $c }' /proc/net/snmp
}

# one "check -u" run from A; $J the report (the server sends a snapshot
# before the streams start and one after they stop, so the far end's
# count is the namespace's)
run_check() {
	J=$tmp/report-$1.json
	KEEP=$(artifacts)/check-udp-drops-$1.json
	shift
	ip netns exec "$NA" timeout 60 "$PIPESCOPE" check -c "$ADDR_B" -p $PORT \
		-u -b 2G -l 1400 -w 16K -t 3 --iface "$VA" --format json "$@" \
		>"$J" 2>"$tmp/err"
	cp "$J" "$KEEP" 2>/dev/null
}

# one direction: NS is the receiver's namespace, WHO what the finding
# calls it ("far end", "this end"); the check's options follow
direction() {
	name=$1 ns=$2 who=$3 key=$4
	shift 4
	c0=$(rcvbuf "$ns")
	run_check "$name" "$@"
	c1=$(rcvbuf "$ns")
	grew=$((c1 - c0))
	T_COUNT=$((T_COUNT + 1))
	if ! jq -e . "$J" >/dev/null 2>&1; then
		fail "$name: no JSON report: $(tail -5 "$tmp/err")"
		return
	fi
	F='[.findings[] | select(.id == "udp_loss")][0]'
	jq_check "$name: the UDP test ran and lost datagrams" \
		"$F.facts[] | select(.key == \"udp_lost\") | .value > 0"
	top=$(jq -r "$F.title // \"\"" "$J")
	n=$(jq -r "[$F.facts[]? | select(.key == \"udp_rcvbuf_errors\") | .value][0] // 0" "$J")
	check "$name: the UDP finding names the receiver's socket buffer: '$top'" \
		sh -c "printf '%s' \"\$1\" | grep -qF \"socket buffer (UdpRcvbufErrors +$n, $who)\"" _ "$top"
	check "$name: its counter (+$n) grew, and by no more than the receiver's namespace counted (+$grew)" \
		sh -c "[ $n -gt 0 ] && [ $n -le $grew ]"
	# the far end's snapshots bracket its streams: nothing is sent
	# after its last one, so it counted what the namespace counted
	[ "$who" != "far end" ] ||
		check "$name: the far end's count covers the whole test (+$n of +$grew)" \
			[ "$n" -eq "$grew" ]
	# a bottleneck from 1% lost, a warning below (a quiet receiver may
	# keep up with all but a few tenths of a percent)
	jq_check "$name: it is the top path finding, a bottleneck from 1% lost" \
		"[.findings[] | select(.family == \"path\")][0].id == \"udp_loss\" and
		 $F.severity == (if ([$F.facts[] | select(.key == \"udp_loss_share\")][0].value >= 0.01)
				 then \"bottleneck\" else \"warning\" end)"
	# the share is written to a millionth: the verdict's 1% is read
	# from the same number (0.0096 rounded to 0.01 had said bottleneck)
	jq_check "$name: the loss share is lost / sent, not rounded" \
		"[$F.facts[] | {(.key): .value}] | add |
		 (.udp_loss_share - .udp_lost / .udp_sent) | fabs < 1e-6"
	jq_check "$name: the remedy raises the receive buffer" \
		"$F.remedy | test(\"rmem_max\")"
	jq_check "$name: the report's step has the loss and the receiver's counters" \
		".steps[0].udp.lost > 0 and .steps[0].$key.udp_rcvbuf_errors == $n"
}

# forward: the server's socket buffer drops; -R: this end's
direction forward "$NB" "far end" far_end_netstat
direction reverse "$NA" "this end" netstat -R
finish
