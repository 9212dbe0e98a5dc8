#!/bin/sh
# dropin.sh: pipescope started as "iperf3" (a symlink) takes iperf3's command
# line: esnet-style and perfSONAR's command lines through the symlink, as a
# client against a pipescope server, Debian's iperf3 and $IPERF3_NEW, and as
# a server (-s -1) for them; `--version`'s second word; iperf3's options that
# take effect on the wire (--dscp, -L, --cntl-ka, -m); a server's refusals
# reaching iperf3 clients as iperf3's own errors, and -s -1 exiting after one
# test or one refused login.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
trap 'kill_bg; rm -rf "$dir"' EXIT
dir=$(mktemp -d)
ln -s "$(cd "$(dirname "$PIPESCOPE")" && pwd)/$(basename "$PIPESCOPE")" "$dir/iperf3"
IP3=$dir/iperf3
H=127.0.0.1

# --version: iperf3's shape, pipescope named, a version perfSONAR handles
expect_exit 0 "iperf3 --version through the symlink" -- "$IP3" --version
first=$(printf '%s\n' "$OUT" | head -1)
second=$(printf '%s\n' "$first" | awk '{print $2}')
check "the first line is iperf3's shape and names pipescope ($first)" \
	sh -c "printf '%s' '$first' | grep -Eq '^iperf 3\.[0-9]+ \(pipescope [0-9.]+\)$'"
# perfSONAR compares it with 3.17 (the logins' padding): it must be a number
check "the second word is an iperf3 version of 3.17 or later ($second)" \
	awk -v v="$second" 'BEGIN { split(v, a, "."); exit !(a[1] == 3 && a[2] >= 17) }'
expect_exit 0 "-v too" -- "$IP3" -v
check "-v prints the same line" [ "$(printf '%s\n' "$OUT" | head -1)" = "$first" ]
expect_exit 0 "pipescope --version is unchanged" -- "$PIPESCOPE" --version
case "$OUT" in "pipescope "[0-9]*) pass "pipescope's own line" ;; *) fail "pipescope --version: $OUT" ;; esac
expect_exit 2 "as iperf3, neither -c nor -s is an error (no workstation)" -- "$IP3"

# -d is iperf3's --debug here: debug lines on stderr, one direction
port=$(free_port 61)
bg "$PIPESCOPE" -s -p "$port" >/dev/null
wait_listen "$port" || { fail "pipescope server did not start"; finish; }
expect_exit 0 "iperf3 -c -d: a test with debugging" -- timeout 20 "$IP3" -c $H -p "$port" -t 1 -d
case "$ERR" in *"connecting to $H port $port"*) pass "-d printed debug lines" ;; *) fail "-d: no debug lines: $ERR" ;; esac
case "$OUT" in *TX-C*|*RX-C*) fail "-d ran --bidir: $OUT" ;; *) pass "-d is not --bidir" ;; esac

# iperf3's text: its lines, not pipescope's own
expect_exit 0 "iperf3 -c -V -R: text" -- timeout 20 "$IP3" -c $H -p "$port" -t 1 -V -R
for want in "iperf Done." "CPU Utilization: local/receiver" "Reverse mode, remote host $H is sending" \
	"Starting Test: protocol: TCP, 1 streams" "      Cookie: " "Test Complete. Summary Results:"; do
	case "$OUT" in *"$want"*) pass "the text has '$want'" ;; *) fail "no '$want' in: $OUT" ;; esac
done
case "$OUT" in *"Peer:"*|*"pipescope done."*|*" us  "*) fail "pipescope's own lines in the drop-in text: $OUT" ;;
	*) pass "no pipescope-only lines" ;; esac

# esnet-style command lines through the symlink, against a server
client_runs() { # $1 what; $2 port; then the lines run against it
	cr_what=$1 cr_port=$2
	while IFS= read -r args; do
		[ -n "$args" ] || continue
		# shellcheck disable=SC2086
		expect_exit 0 "iperf3 $args ($cr_what)" -- timeout 30 "$IP3" -c $H -p "$cr_port" $args
	done
}
# exited PID WHAT: the -s -1 server PID ends by itself within 5 s
exited() {
	for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$1" 2>/dev/null; then
		fail "$2: the -s -1 server still runs"
		kill "$1"
	else
		pass "$2: the -s -1 server exited"
	fi
	wait "$1" 2>/dev/null
}
# (the peers get the first six; the rest are the client's own business)
ESNET_LINES='-t 1 -u -b 10M -l 1400
-t 1 -P 3 -w 300K -i 0.5
-t 1 -R -M 1000
-n 5M
-t 1 --bidir -f m
-k 20 -l 10K
-t 1 -T title1 -Z
-t 1 --format k -V --timestamps
-t 1 --json-stream
-t 1 -J --get-server-output'
client_runs "pipescope server" "$port" <<EOF
$ESNET_LINES
EOF

# perfSONAR's client command line, as its iperf3 tool builds it
psonar() { # $1 what; $2 port; rest: extra words (-6: over ::1)
	ps_what=$1 ps_port=$2 ps_host=$H ps_fam=-4
	shift 2
	case " $* " in *" -6 "*) ps_host=::1 ps_fam= ;; esac
	expect_exit 0 "perfSONAR client line ($ps_what): $*" -- timeout 30 "$IP3" -p "$ps_port" -c $ps_host \
		-t 1 --json -i 1 -P 2 -w 1M -M 1400 -O 0 -b 2G --fq-rate 2G -l 128K -S 32 \
		-C cubic -B $ps_host $ps_fam "$@"
	J=$dir/ps.json
	printf '%s\n' "$OUT" >"$J"
	jq_check "perfSONAR ($ps_what $*): bytes measured" '.end.sum_received.bytes > 0 or .end.sum.bytes > 0'
}
psonar "pipescope server" "$port"
psonar "pipescope server" "$port" -R -Z
psonar "pipescope server" "$port" -u -l 1400
psonar "pipescope server" "$port" -6 -L 7

# against Debian's iperf3 and a newer one: the same lines, the other peer
peers=$(command -v iperf3 || true)
if [ -n "${IPERF3_NEW:-}" ]; then
	peers="$peers $IPERF3_NEW"
else
	echo "SKIP part: IPERF3_NEW is not set (a newer iperf3 to test against)"
fi
n=0
for peer in $peers; do
	n=$((n + 1))
	ver=$("$peer" --version | head -1 | awk '{print $1, $2}')
	pp=$(free_port $((61 + n)))
	bg "$peer" -s -p "$pp" >/dev/null
	wait_listen "$pp" || { fail "$ver server did not start"; continue; }
	client_runs "$ver server" "$pp" <<EOF
$(printf '%s\n' "$ESNET_LINES" | head -6)
EOF
	psonar "$ver server" "$pp" -R -Z
	psonar "$ver server" "$pp" -u -l 1400
	psonar "$ver server" "$pp" -6 -L 7
	kill "$LAST_PID"

	# the drop-in server, -s -1 as perfSONAR runs it, for this iperf3
	sp=$(free_port $((71 + n)))
	"$IP3" -s -1 -p "$sp" --idle-timeout 20 --json -B $H >"$dir/srv1.json" 2>"$dir/srv1.err" &
	spid=$!
	wait_listen "$sp" || fail "drop-in -s -1 did not start"
	expect_exit 0 "$ver client -> drop-in server (-s -1 --json)" -- \
		timeout 20 "$peer" -c $H -p "$sp" -t 1 -P 2 -J
	J=$dir/c.json
	printf '%s\n' "$OUT" >"$J"
	jq_check "$ver client measured the drop-in server" '.end.sum_received.bytes > 0'
	exited $spid "$ver client, one test"
	J=$dir/srv1.json
	jq_check "the -s -1 server wrote its JSON document" '.end.sum_received.bytes > 0'

	# a server's limits reach this iperf3 client as iperf3's own errors
	lp=$(free_port $((81 + n)))
	bg "$PIPESCOPE" -s -p "$lp" >/dev/null --server-bitrate-limit 10M --server-max-duration 2
	wait_listen "$lp" || fail "limited server did not start"
	expect_exit 1 "$ver client above --server-bitrate-limit" -- \
		timeout 20 "$peer" -c $H -p "$lp" -t 1 -b 100M
	case "$OUT$ERR" in *"total required bandwidth is larger than server limit"*)
		pass "$ver: iperf3's own words for the rate limit" ;;
		*) fail "$ver: rate limit said as: $OUT $ERR" ;; esac
	expect_exit 1 "$ver client above --server-max-duration" -- \
		timeout 20 "$peer" -c $H -p "$lp" -t 5 -b 1M
	case "$OUT$ERR" in
	*"exceeds the server's maximum permitted limit"*)
		pass "$ver: iperf3's own words for the duration limit" ;;
	*"int_errno=37"*)
		# 3.12 predates the code; it still shows iperf3's number for it
		pass "$ver: iperf3's code 37 for the duration limit (it has no words for it)" ;;
	*) fail "$ver: duration limit said as: $OUT $ERR" ;;
	esac
	kill "$LAST_PID"
done

# perfSONAR's logins: the drop-in server with the drop-in client (OAEP, as
# perfSONAR expects of an iperf3 of 3.17 or later), and -s -1 after a refusal
if command -v openssl >/dev/null &&
	openssl genrsa -out "$dir/priv.pem" 2048 2>/dev/null &&
	openssl rsa -in "$dir/priv.pem" -pubout -out "$dir/pub.pem" 2>/dev/null; then
	printf 'ps,%s\n' "$(printf '%s' '{ps}pw1' | sha256sum | cut -d' ' -f1)" >"$dir/users.csv"
	login_server() {
		ap=$(free_port "$1")
		"$IP3" -s -1 -p "$ap" --idle-timeout 20 --json -B $H --authorized-users-path "$dir/users.csv" \
			--rsa-private-key-path "$dir/priv.pem" >"$dir/auth-srv.json" 2>&1 &
		apid=$!
		wait_listen "$ap" || fail "login server did not start"
	}
	server_gone() { exited "$apid" "$1"; }
	login_server 91
	expect_exit 0 "perfSONAR login: --username --rsa-public-key-path" -- \
		timeout 20 env IPERF3_PASSWORD=pw1 "$IP3" -p "$ap" -c $H -t 1 --json \
		--username ps --rsa-public-key-path "$dir/pub.pem"
	server_gone "after a login and its test"
	login_server 92
	expect_exit 1 "a wrong password is refused" -- \
		timeout 20 env IPERF3_PASSWORD=nope "$IP3" -p "$ap" -c $H -t 1 --json \
		--username ps --rsa-public-key-path "$dir/pub.pem"
	server_gone "after a refused login"
	if [ -n "${IPERF3_NEW:-}" ]; then
		login_server 93
		expect_exit 0 "$IPERF3_NEW client logs in to the drop-in server" -- \
			timeout 20 env IPERF3_PASSWORD=pw1 "$IPERF3_NEW" -c $H -p "$ap" -t 1 \
			--username ps --rsa-public-key-path "$dir/pub.pem"
		server_gone "after a newer iperf3's login"
		login_server 94
		expect_exit 1 "$IPERF3_NEW client, wrong password" -- \
			timeout 20 env IPERF3_PASSWORD=nope "$IPERF3_NEW" -c $H -p "$ap" -t 1 \
			--username ps --rsa-public-key-path "$dir/pub.pem"
		server_gone "after a newer iperf3's refused login"
		# the drop-in client logs in to a newer iperf3 (OAEP both)
		np=$(free_port 96)
		bg "$IPERF3_NEW" -s -p "$np" --authorized-users-path "$dir/users.csv" \
			--rsa-private-key-path "$dir/priv.pem" >/dev/null 2>&1
		wait_listen "$np" || fail "$IPERF3_NEW login server did not start"
		expect_exit 0 "the drop-in client logs in to $IPERF3_NEW" -- \
			timeout 20 env IPERF3_PASSWORD=pw1 "$IP3" -p "$np" -c $H -t 1 --json \
			--username ps --rsa-public-key-path "$dir/pub.pem"
	fi
else
	echo "SKIP part: openssl cannot make an RSA key"
fi

# on the wire: --timestamps, --dscp, -L, --cntl-ka, -m
expect_exit 0 "--timestamps=FMT" -- timeout 20 "$IP3" -c $H -p "$port" -t 1 --timestamps='TS%Y '
bad=$(printf '%s\n' "$OUT" | grep -v '^$' | grep -vc '^TS20' || true)
check "every text line starts with the timestamp ($bad do not)" [ "$bad" = 0 ]
expect_exit 0 "--cntl-ka while a test runs" -- sh -c "
	timeout 20 '$IP3' -c $H -p $port -t 2 --cntl-ka=60/5/3 >/dev/null &
	sleep 1.2; ss -Htno state established 'dport = :$port'; wait"
check "the control socket has a keepalive timer" sh -c "printf '%s\n' '$OUT' | grep -q 'timer:(keepalive'"
if [ "$(cat /proc/sys/net/mptcp/enabled 2>/dev/null)" = 1 ]; then
	expect_exit 0 "-m while a test runs (MPTCP)" -- sh -c "
		timeout 20 '$IP3' -c $H -p $port -t 2 -m >/dev/null &
		sleep 1.2; ss -HMn; wait"
	check "the client's sockets are MPTCP (ss -M lists them)" sh -c "printf '%s\n' '$OUT' | grep -q ':$port'"
else
	# no MPTCP here: -m fails, saying why
	expect_exit 1 "-m without MPTCP in the kernel" -- timeout 20 "$IP3" -c $H -p "$port" -t 1 -m
	case "$ERR" in *MPTCP*) pass "-m says MPTCP is missing" ;; *) fail "-m: unclear: $ERR" ;; esac
fi
if [ "$(id -u)" = 0 ] && command -v python3 >/dev/null && ip -6 addr show lo | grep -q '::1'; then
	port6=$(free_port 95)
	bg "$PIPESCOPE" -s -p "$port6" -6 -B ::1 >/dev/null
	wait_listen "$port6" || fail "IPv6 server did not start"
	# the IPv6 header of the client's data packets: traffic class, flow label
	python3 - "$port6" >"$dir/sniff.txt" <<'EOF' &
import socket, struct, sys, time
port = int(sys.argv[1])
s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(0x86dd))
s.bind(("lo", 0))
s.settimeout(0.5)
seen, end = set(), time.time() + 4
while time.time() < end:
    try:
        pkt = s.recv(128)
    except socket.timeout:
        continue
    if len(pkt) < 44 or pkt[6] != 6:
        continue
    first, = struct.unpack("!I", pkt[:4])
    dport, = struct.unpack("!H", pkt[42:44])
    if dport == port:
        seen.add("tc=%d label=%d" % ((first >> 20) & 0xff, first & 0xfffff))
print("\n".join(sorted(seen)))
EOF
	sn=$!
	sleep 0.5
	expect_exit 0 "-6 -L 0x1234 --dscp af41" -- timeout 20 "$IP3" -c ::1 -p "$port6" -t 1 -6 -L 0x1234 --dscp af41
	wait $sn
	check "the packets carry the flow label and DSCP AF41 ($(tr '\n' ' ' <"$dir/sniff.txt"))" \
		grep -qx "tc=$((0x88)) label=$((0x1234))" "$dir/sniff.txt"
else
	echo "SKIP part: the flow label check needs root, python3 and ::1"
fi
finish
