#!/bin/sh
# probe-cost.sh: the cost of the probes, for the notes (not a test):
# CPU of the sampler thread at 1 Hz over 60 samples, memory over 10,000
# samples, and the time of one full sample live and on the 256-CPU tree.
# Usage: bench/probe-cost.sh [samples-at-1Hz]   (from the build directory)
#        bench/probe-cost.sh --path [samples]    (root) the path probe alone
#        on a path of 20 devices in a namespace of its own: a macvlan on a
#        bridge with 8 ports, each port's, the bridge's and the macvlan's
#        ingress redirected to an ifb of its own
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$top}/bench/probe-cost
[ -x "$b" ] || { echo "build it first: make bench/probe-cost" >&2; exit 1; }
if [ "${1:-}" = --path ]; then
	N=ps-cost-$$
	trap 'ip netns del $N 2>/dev/null' EXIT
	ip netns add $N
	ip -n $N link set lo up
	ip -n $N link add br0 type bridge
	ip -n $N link set br0 up
	ip -n $N link add mv0 link br0 type macvlan mode bridge
	ip -n $N link set mv0 up
	redirect() { # DEV IFB
		ip -n $N link add "$2" type ifb
		ip -n $N link set "$2" up
		ip netns exec $N tc qdisc add dev "$1" ingress
		ip netns exec $N tc filter add dev "$1" parent ffff: protocol all \
			u32 match u32 0 0 action mirred egress redirect dev "$2"
		ip netns exec $N tc qdisc add dev "$2" root tbf rate 500mbit \
			burst 32k latency 50ms
	}
	for i in 1 2 3 4 5 6 7 8; do
		ip -n $N link add vp$i type veth peer name vq$i
		ip -n $N link set vp$i master br0
		ip -n $N link set vp$i up
		ip -n $N link set vq$i up
		redirect vp$i ifbp$i
	done
	redirect br0 ifbbr
	redirect mv0 ifbmv
	ip netns exec $N "$b" path "${2:-60}" mv0
	exit 0
fi
"$b" time 200
"$b" time 200 "$top/tests/fixtures/machines/wide-256cpu"
"$b" mem 10000
"$b" rate "${1:-60}"
