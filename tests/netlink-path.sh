#!/bin/sh
# netlink-path.sh: the path probe on devices this test builds in a network
# namespace of its own: (a) a veth whose ingress redirects (u32 + mirred)
# to an ifb with a tbf, (b) a bridge holding the address with a veth port
# shaped by an htb, (c) a vxlan over a veth (its underlay and both MTUs),
# (d) devices deleted while "pipescope probe" samples again and again.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

need_root "network namespaces, tc"
need_cmd ip iproute2
need_cmd tc iproute2
need_cmd jq jq

N=ps-path-$$
IFB=ifbp$$
scratch
cleanup() {
	[ -n "${LOOP:-}" ] && kill "$LOOP" 2>/dev/null
	ip netns del "$N" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 99' INT TERM

ip netns add "$N" || skip "cannot create a network namespace"
ip -n "$N" link set lo up
ip -n "$N" link add v0 type veth peer name v1 || skip "cannot create a veth pair"
ip -n "$N" link add "$IFB" type ifb || skip "no ifb devices in this kernel"
for d in v0 v1 "$IFB"; do ip -n "$N" link set "$d" up; done
ip -n "$N" addr add 10.91.0.1/24 dev v0

probe() { # probe IF: its JSON in $OUT
	expect_exit 0 "probe --json --iface $1" -- \
		ip netns exec "$N" "$PIPESCOPE" probe --json --iface "$1"
}

# (a) ingress -> ifb with a tbf
ip netns exec "$N" tc qdisc add dev v0 ingress
ip netns exec "$N" tc filter add dev v0 parent ffff: protocol all u32 \
	match u32 0 0 action mirred egress redirect dev "$IFB" ||
	skip "no u32 classifier or mirred action"
ip netns exec "$N" tc qdisc add dev "$IFB" root tbf rate 300mbit \
	burst 32k latency 50ms
probe v0
jq_is '.path.status' ok "(a) the path is read"
jq_is '.path.devices[0].name + " " + .path.devices[0].role' "v0 routed" \
	"(a) the routed device first"
jq_is '.path.devices[0].has_ingress' true "(a) v0 has an ingress qdisc"
jq_is '.path.devices[0].redirect_to' "$IFB" "(a) v0 redirects to the ifb"
jq_is ".path.devices[] | select(.name == \"$IFB\") | .role + \" \" + .via + \" \" + .direction" \
	"ifb v0 ingress" "(a) the ifb: role, via, direction"
rate=$(ip netns exec "$N" tc -s qdisc show dev "$IFB" |
	sed -n 's/.* rate \([0-9]*\)Mbit.*/\1/p')
jq_is ".path.devices[] | select(.name == \"$IFB\") | .qdisc.qdiscs[0].kind + \" \" + (.qdisc.qdiscs[0].rate_bps / 1000000 | tostring)" \
	"tbf $rate" "(a) the ifb's tbf and its rate, as tc shows it"
expect_exit 0 "probe (text) names the ingress redirect" -- \
	ip netns exec "$N" "$PIPESCOPE" probe --iface v0
T_COUNT=$((T_COUNT + 1))
printf '%s\n' "$OUT" | grep -q "ingress of v0, redirected to $IFB" ||
	fail "(a) the text does not name the ingress redirect"

# (b) a bridge with the address, a port shaped by an htb
ip -n "$N" link add br0 type bridge
ip -n "$N" link add vp1 type veth peer name vq1
ip -n "$N" link add vp2 type veth peer name vq2
for d in vp1 vp2; do ip -n "$N" link set "$d" master br0; done
for d in br0 vp1 vq1 vp2 vq2; do ip -n "$N" link set "$d" up; done
ip -n "$N" addr add 10.92.0.1/24 dev br0
ip netns exec "$N" tc qdisc add dev vp1 root handle 1: htb default 10
ip netns exec "$N" tc class add dev vp1 parent 1: classid 1:10 htb \
	rate 200mbit ceil 200mbit 2>/dev/null
probe br0
jq_is '.path.devices[0].kind' bridge "(b) the routed device is the bridge"
jq_is '.path.devices[] | select(.name == "vp1") | .role + " " + .via' \
	"port br0" "(b) the shaped port is listed as a port of br0"
jq_is '.path.devices[] | select(.name == "vp1") | .qdisc.classes[] | select(.handle == "1:10") | .ceil_bps' \
	200000000 "(b) the port's htb class and its ceil"
jq_is '.path.ports_guessed' true "(b) without a peer the ports are guessed"
jq_is '[.path.devices[] | select(.name == "vq1" or .name == "v0")] | length' \
	0 "(b) devices off the path are not read"

# (c) a vxlan over a veth
ip -n "$N" link add vx0 type vxlan id 42 dev v1 remote 10.93.0.2 \
	dstport 4789 || skip "no vxlan in this kernel"
ip -n "$N" link set vx0 up
probe vx0
jq_is '.path.devices[0].encap_overhead' 50 "(c) vxlan over IPv4: 50 bytes"
jq_is '.path.devices[0].mtu' 1450 "(c) the overlay's MTU"
jq_is '.path.devices[] | select(.role == "underlay") | .name + " " + .via + " " + (.mtu | tostring)' \
	"v1 vx0 1500" "(c) the underlay and its MTU"

# (d) devices deleted and made again while the probe samples
(
	while :; do
		ip -n "$N" link del "$IFB" 2>/dev/null
		ip -n "$N" link del vp1 2>/dev/null
		ip -n "$N" link add "$IFB" type ifb 2>/dev/null
		ip -n "$N" link set "$IFB" up 2>/dev/null
		ip -n "$N" link add vp1 type veth peer name vq1 2>/dev/null
		ip -n "$N" link set vp1 master br0 up 2>/dev/null
	done
) &
LOOP=$!
ok=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	for d in v0 br0; do
		if ip netns exec "$N" "$PIPESCOPE" probe --json --iface "$d" \
			>"$TMP/d.json" 2>"$TMP/d.err" &&
			jq -e '.path.status' "$TMP/d.json" >/dev/null; then
			ok=$((ok + 1))
		else
			cat "$TMP/d.err"
		fi
	done
done
kill "$LOOP" 2>/dev/null
wait "$LOOP" 2>/dev/null
LOOP=
T_COUNT=$((T_COUNT + 1))
[ "$ok" -eq 20 ] && pass "(d) 20 samples while devices come and go" ||
	fail "(d) only $ok of 20 samples gave a path while devices came and went"
finish
