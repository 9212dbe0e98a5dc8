#!/bin/sh
# check-shaper.sh: a tbf shaper between two network namespaces (a veth
# pair), "pipescope check -c --quick -t 2" against "pipescope -s":
#   (a) tbf 500mbit with a 60 KB queue on the client's egress -> the top
#       finding is the shaper's short queue, with the drops the qdisc counted
#       during the tests (not reordering), and the tbf's rate as a ceiling
#   (b) the same tbf with a roomy queue -> its rate binds: shaper_rate is
#       the top finding, its ceiling within 15% of the measured rate
#   (c) the tbf on the server's egress only -> the reverse test names that
#       shaper on the far end (from the snapshots the server sent)
# and, first, without root: a recorded tree with tc/IF.txt (the text of
# "tc -s qdisc show; tc -s class show") gives the tbf's rate as a ceiling.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
scratch

if [ -d "$MACHINES/virtio-2cpu/sys" ]; then
	cp -a "$MACHINES/virtio-2cpu" "$TMP/tree" && mkdir "$TMP/tree/tc" &&
		grep -v '^#' "$top_srcdir/tests/fixtures/tc/tc-s-qdisc-class_tbf-short-limit_veth_pipescope.txt" |
		sed 's/dev qra//' >"$TMP/tree/tc/eth0.txt"
	J=$TMP/tree.json
	"$PIPESCOPE" check --sysroot "$TMP/tree" --format json >"$J" 2>/dev/null
	jq_check "sysroot: the recorded tbf's rate is the binding ceiling" \
		'.answer.binding.id == "shaper_rate" and
		 .answer.binding.bps == 500000000'
	J=$TMP/probe.json
	"$PIPESCOPE" probe --sysroot "$TMP/tree" --json >"$J"
	jq_check "sysroot: probe reads the recorded qdiscs" \
		'.qdisc.status == "ok" and .qdisc.qdiscs[0].drops == 8643 and
		 .qdisc.qdiscs[0].limit_bytes == 61440'
fi

need_root "network namespaces and qdiscs"
need_cmd tc iproute2

NA=psqd-a-$$
NB=psqd-b-$$
VA=pqda$$
VB=pqdb$$
ADDR_B=10.78.$(($$ % 200)).2
PORT=5201
RATE=500000000
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
trap 'teardown; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

ip netns add "$NA" 2>/dev/null || skip "cannot create network namespaces"
ip netns del "$NA"

# scenario NAME NS DEV LIMIT: namespaces, the tbf, the server, the check;
# the report in $J
scenario() {
	echo "--- $1"
	teardown
	ip netns add "$NA" && ip netns add "$NB" &&
		ip link add "$VA" type veth peer name "$VB" &&
		ip link set "$VA" netns "$NA" && ip link set "$VB" netns "$NB" &&
		ip -n "$NA" addr add "${ADDR_B%.2}.1/24" dev "$VA" &&
		ip -n "$NB" addr add "$ADDR_B/24" dev "$VB" &&
		ip -n "$NA" link set lo up && ip -n "$NB" link set lo up &&
		ip -n "$NA" link set "$VA" up && ip -n "$NB" link set "$VB" up &&
		tc -n "$2" qdisc add dev "$3" root tbf rate 500mbit burst 64kb \
			limit "$4" || {
		fail "$1: cannot build the namespaces"
		return 1
	}
	ip netns exec "$NB" "$PIPESCOPE" -s -p $PORT >"$TMP/server.log" 2>&1 &
	SRV=$!
	i=0
	until ip netns exec "$NB" ss -Htln "sport = :$PORT" | grep -q .; do
		i=$((i + 1))
		[ $i -lt 50 ] || {
			fail "$1: the server did not listen"
			return 1
		}
		sleep 0.1
	done
	J=$TMP/$1.json
	ip netns exec "$NA" "$PIPESCOPE" check -c "$ADDR_B" -p $PORT --quick \
		-t 2 --format json >"$J" 2>"$TMP/$1.err" && RC=0 || RC=$?
	cp "$J" "$(artifacts)/check-shaper-$1.json" 2>/dev/null
	T_COUNT=$((T_COUNT + 1))
	[ "$RC" = 3 ] || fail "$1: exit $RC, wanted 3: $(tail -2 "$TMP/$1.err")"
	return 0
}

top_is() {
	jq_check "$1: top finding $2 (got $(jq -r '.answer.top' "$J"); $(jq -r '[.findings[] | .id + " " + .severity] | join(", ")' "$J"))" \
		".answer.top == \"$2\""
}

# (a) a 60 KB queue: at 500 Mbit/s that is 1 ms, less than one GSO burst
if scenario short "$NA" "$VA" 60kb; then
	top_is short shaper_queue_short
	jq_check "short: the qdisc's drops during the test are the evidence" \
		'[.findings[] | select(.id == "shaper_queue_short") |
		  .facts[] | select(.key == "qdisc_drops") | .value][0] > 0'
	jq_check "short: the steps carry the qdisc's deltas" \
		'[.steps[] | select(.qdisc.shaper == "tbf") | .qdisc.drops] |
		 add > 0'
	jq_check "short: the tbf's configured rate is a ceiling" \
		"[.findings[] | select(.id == \"shaper_rate\") |
		  .ceiling_bps][0] == $RATE"
	jq_check "short: the shaper's drops rank above retransmissions" \
		'[.findings[].id] | index("shaper_queue_short") <
		 (index("retransmits") // 1000)'
fi

# (b) a roomy queue: the rate binds
if scenario roomy "$NA" "$VA" 4mb; then
	top_is roomy shaper_rate
	jq_check "roomy: the tbf's rate is the ceiling, within 15% of the measured rate" \
		".answer.measured_bps as \$m |
		 [.findings[] | select(.id == \"shaper_rate\" and
		  .severity == \"bottleneck\") | .ceiling_bps |
		  select(. == $RATE and \$m >= 0.85 * . and \$m <= 1.15 * .)] |
		 length == 1"
fi

# (c) the shaper on the server's egress only: the reverse test names it
if scenario far "$NB" "$VB" 4mb; then
	jq_check "far: the far end's tbf caps the reverse direction" \
		"[.findings[] | select(.id == \"far_shaper\") |
		  select(.title | test(\"far end.*tbf.*$VB.*reverse\"))] |
		 length == 1"
	jq_check "far: the server's qdisc deltas reached the reverse step" \
		'[.steps[] | select(.reverse) | .far_end_qdisc.shaper] |
		 index("tbf") != null'
	jq_check "far: this end's interface has no shaper" \
		'[.findings[] | select(.id == "shaper_rate")] | length == 0'
fi

finish
