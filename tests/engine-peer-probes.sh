#!/bin/sh
# engine-peer-probes.sh: a pipescope server sends its own probe readings
# (EXT_PROBE) to a pipescope client that asks, and the client's -J carries
# the latest under pipescope.peer_snapshot. Checked:
#   - loopback: the snapshot is the server's (its pid's CPU count, rates
#     computed over an interval, the interface on the route back: lo);
#   - two namespaces joined by a veth: the snapshot names the SERVER's veth
#     end, not the client's, so it really is the far end's view;
#   - --no-share-probes on the server: no snapshot, the test still runs;
#   - an iperf3 server: no snapshot, the test still runs (iperf3 ignores
#     the request key in the parameters).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq

tmp=$(mktemp -d)
NA=psprb-a-$$
NB=psprb-b-$$
cleanup() {
	kill_bg
	ip netns del "$NA" 2>/dev/null
	ip netns del "$NB" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

ncpu=$(grep -c '^cpu[0-9]' /proc/stat)

# 1. loopback, pipescope on both ends
port=$(free_port)
bg "$PIPESCOPE" -s -1 -p "$port" --no-tui
wait_listen "$port" || fail "server did not listen"
"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 3 -J >"$tmp/lo.json" 2>"$tmp/lo.err" ||
	fail "loopback test failed: $(cat "$tmp/lo.err")"
check "peer snapshot present" \
	jq -e '.pipescope.peer_snapshot | type == "object"' "$tmp/lo.json"
check "its cores are the server host's ($ncpu)" \
	jq -e --argjson n "$ncpu" '.pipescope.peer_snapshot.cpu.cores | length == $n' "$tmp/lo.json"
check "rates over an interval" \
	jq -e '.pipescope.peer_snapshot.rates.available == true and .pipescope.peer_snapshot.cpu.basis == "interval"' "$tmp/lo.json"
check "the server's core percentages are numbers" \
	jq -e '[.pipescope.peer_snapshot.cpu.cores[].pct.busy | numbers] | length > 0' "$tmp/lo.json"
check "the route back to the client is lo" \
	jq -e '.pipescope.peer_snapshot.iface.name == "lo"' "$tmp/lo.json"
check "the snapshot loads as a check --snapshot file" \
	sh -c "jq '.pipescope.peer_snapshot' '$tmp/lo.json' >'$tmp/peer-snap.json' &&
	       '$PIPESCOPE' check --snapshot '$tmp/peer-snap.json' --format json >'$tmp/chk.json'; [ \$? -le 3 ] &&
	       jq -e '.findings | type == \"array\"' '$tmp/chk.json' >/dev/null"
kill_bg; BG_PIDS=""

# no_snapshot WHAT SERVER-COMMAND...: a 1 s test against that server moves
# bytes and its -J has no peer snapshot
no_snapshot() {
	what=$1
	shift
	port=$(free_port)
	bg "$@" -p "$port"
	wait_listen "$port" || fail "$what: the server did not listen"
	"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 1 -J >"$tmp/x.json" 2>"$tmp/x.err" ||
		fail "$what: the test failed: $(cat "$tmp/x.err")"
	check "$what: no snapshot, bytes moved" \
		jq -e '.pipescope.peer_snapshot == null and .end.sum_received.bytes > 0' "$tmp/x.json"
	kill_bg; BG_PIDS=""
}

# 2. --no-share-probes
no_snapshot "--no-share-probes" "$PIPESCOPE" -s -1 --no-tui --no-share-probes

# 3. an iperf3 server (iperf3 ignores the request key in the parameters)
if command -v iperf3 >/dev/null 2>&1; then
	no_snapshot "iperf3 server" iperf3 -s -1
	# iperf3 does not tell its version; 3.12's results write -1 as
	# 18446744073709551615, which dates it (3.14 fixed that)
	if iperf3 --version | grep -q '^iperf 3\.1[0-3]'; then
		check "iperf3 $(iperf3 --version | sed -n '1s/^iperf //p' | cut -d' ' -f1): dated <=3.13 by its results" \
			jq -e '.pipescope.peer_version == "<=3.13"' "$tmp/x.json"
	fi
else
	echo "note: iperf3 not installed, its part skipped"
fi

# 4. two namespaces: the snapshot is the far end's
if [ "$(id -u)" = 0 ] && ip netns add "$NA" 2>/dev/null && ip netns del "$NA"; then
	VA=prba$$; VB=prbb$$
	A=10.78.$(($$ % 200)).1; B=10.78.$(($$ % 200)).2
	netns_pair "$NA" "$NB" "$VA" "$VB" "$A" "$B" ||
		fail "could not build the veth pair"
	bg ip netns exec "$NB" "$PIPESCOPE" -s -1 -p 5201 --no-tui
	wait_listen 5201 "$NB"
	ip netns exec "$NA" "$PIPESCOPE" -c "$B" -t 2 -J >"$tmp/ns2.json" 2>"$tmp/ns2.err" ||
		fail "namespace test failed: $(cat "$tmp/ns2.err")"
	check "far end's interface is the server's veth ($VB)" \
		jq -e --arg v "$VB" '.pipescope.peer_snapshot.iface.name == $v' "$tmp/ns2.json"
	check "far end's route was looked up for the client ($A)" \
		jq -e --arg a "$A" '.pipescope.peer_snapshot.iface.peer == $a' "$tmp/ns2.json"
	check "far end's link probe read the veth" \
		jq -e '.pipescope.peer_snapshot.link | type == "object"' "$tmp/ns2.json"
	kill_bg; BG_PIDS=""
else
	echo "note: no root or no namespaces: the two-namespace part skipped"
fi
finish
