#!/bin/sh
# check-shaper.sh: a tbf shaper between two network namespaces (a veth
# pair), "pipescope check -c --quick -t 2" against "pipescope -s":
#   (a) tbf 500mbit with a 60 KB queue on the client's egress -> the top
#       finding is the shaper's short queue, with the drops the qdisc counted
#       during the tests (not reordering), and the tbf's rate as a ceiling
#   (b) tbf 200mbit with a roomy queue -> its rate binds: shaper_rate is
#       the top finding, its ceiling within 15% of the measured rate, and
#       the answer's binding ceiling (not the fork's plateau)
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
SRV=""

teardown() {
	stop_pid "$SRV"
	SRV=""
	netns_teardown "$NA" "$NB"
}
trap 'teardown; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

ip netns add "$NA" 2>/dev/null || skip "cannot create network namespaces"
ip netns del "$NA"

# scenario NAME NS DEV RATE LIMIT: namespaces, the tbf (RATE in Mbit/s),
# the server, the check; the report in $J, the rate in bit/s in $RATE
scenario() {
	echo "--- $1"
	teardown
	netns_pair "$NA" "$NB" "$VA" "$VB" "${ADDR_B%.2}.1" "$ADDR_B" &&
		tc -n "$2" qdisc add dev "$3" root tbf rate "${4}mbit" \
			burst 64kb limit "$5" || {
		fail "$1: cannot build the namespaces"
		return 1
	}
	RATE=$(($4 * 1000000))
	ip netns exec "$NB" "$PIPESCOPE" -s -p $PORT >"$TMP/server.log" 2>&1 &
	SRV=$!
	wait_listen $PORT "$NB" || {
		fail "$1: the server did not listen"
		return 1
	}
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
if scenario short "$NA" "$VA" 500 60kb; then
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
	# the probe itself, over rtnetlink (libnl's qdisc and class caches)
	J=$TMP/probe.json
	ip netns exec "$NA" "$PIPESCOPE" probe --iface "$VA" --json >"$J"
	jq_check "short: probe reads the tbf's kind, rate, burst, limit, drops" \
		'.qdisc.status == "ok" and .qdisc.qdiscs[0].kind == "tbf" and
		 .qdisc.qdiscs[0].parent == "root" and
		 .qdisc.qdiscs[0].rate_bps == 500000000 and
		 .qdisc.qdiscs[0].limit_bytes == 61440 and
		 .qdisc.qdiscs[0].burst_bytes > 60000 and
		 .qdisc.qdiscs[0].drops > 0'
	# an htb: per-class rate and ceil, the default class, its leaf queue
	tc -n "$NA" qdisc replace dev "$VA" root handle 1: htb default 20 &&
		tc -n "$NA" class add dev "$VA" parent 1: classid 1:1 htb \
			rate 400mbit 2>/dev/null &&
		tc -n "$NA" class add dev "$VA" parent 1:1 classid 1:20 htb \
			rate 100mbit ceil 300mbit 2>/dev/null &&
		tc -n "$NA" qdisc add dev "$VA" parent 1:20 handle 20: pfifo \
			limit 50
	ip netns exec "$NA" "$PIPESCOPE" probe --iface "$VA" --json >"$J"
	jq_check "htb: probe reads the classes' rate and ceil and the default" \
		'.qdisc.qdiscs[0].kind == "htb" and
		 .qdisc.qdiscs[0].default_class == 32 and
		 ([.qdisc.qdiscs[] | select(.parent == "1:20") |
		   .limit_packets] == [50]) and
		 ([.qdisc.classes[] | select(.handle == "1:20") |
		   [.rate_bps, .ceil_bps, .parent]] ==
		  [[100000000, 300000000, "1:1"]])'
fi

# (b) a roomy queue: the rate binds (a rate a loaded machine still reaches)
if scenario roomy "$NA" "$VA" 200 4mb; then
	top_is roomy shaper_rate
	jq_check "roomy: the tbf's rate is the ceiling, within 15% of the measured rate" \
		".answer.measured_bps as \$m |
		 [.findings[] | select(.id == \"shaper_rate\" and
		  .severity == \"bottleneck\") | .ceiling_bps |
		  select(. == $RATE and \$m >= 0.85 * . and \$m <= 1.15 * .)] |
		 length == 1"
	jq_check "roomy: the answer's binding ceiling is the tbf's rate (got $(jq -c '.answer.binding' "$J"))" \
		".answer.binding.id == \"shaper_rate\" and
		 .answer.binding.bps == $RATE"
fi

# (c) the shaper on the server's egress only: the reverse test names it
if scenario far "$NB" "$VB" 200 4mb; then
	jq_check "far: the far end's tbf caps the reverse direction" \
		"[.findings[] | select(.id == \"far_shaper\") |
		  select(.title | test(\"far end.*tbf.*$VB.*reverse\"))] |
		 length == 1"
	# the server samples at 1 Hz: a 2 s test sees one or two of them
	jq_check "far: the server's qdisc deltas reach the steps" \
		'[.steps[] | .far_end_qdisc.shaper] | index("tbf") != null'
	jq_check "far: this end's interface has no shaper" \
		'[.findings[] | select(.id == "shaper_rate")] | length == 0'
fi

finish
