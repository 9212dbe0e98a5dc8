#!/bin/bash
# reliability-strings.sh: no byte from the far end reaches a terminal or a
# log raw (issue 12, items 7 and 8). A scripted server (tests/tools/ps-peer.py)
# whose EXT_ACK version, congestion_used and server_output_text carry escape
# sequences; a scripted client whose client_version and congestion_used do;
# an RSA user name with them. The text has no ESC byte (each is shown as
# "\x1b"), the server's text is printed only with --get-server-output, and
# -J keeps the real strings (JSON escapes them).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd python3 python3
PEER="python3 $top_srcdir/tests/tools/ps-peer.py"
dir=$(mktemp -d)
trap 'kill_bg; rm -rf "$dir"' EXIT
ESC=$(printf '\033')

no_esc() { ! grep -q "$ESC" "$@"; }
shows() { grep -qF "$1" "$2"; }
not_shown() { ! grep -q "Server output" "$1"; }

# client PORT-OFFSET NAME ARGS...: the scripted server, then our client
client() {
	local port name=$2
	port=$(free_port "$1")
	shift 2
	bg $PEER server "$port" strings
	wait_listen "$port" || { fail "$name: the scripted server did not start"; return 1; }
	timeout 20 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.3 "$@" \
		>"$dir/$name.out" 2>"$dir/$name.err"
	echo "$name: exit $?"
}

client 61 plain
check "client: the far end's version is shown, escaped" \
	shows 'pipescope 9.9\x1b]0;owned\x07\x1b[2J' "$dir/plain.out"
check "client: its congestion control is shown, escaped" \
	shows 'cubic\x1b]0;owned\x07' "$dir/plain.out"
check "client: no raw ESC in the text output" no_esc "$dir/plain.out" "$dir/plain.err"
check "client: no server output without --get-server-output" \
	not_shown "$dir/plain.out"

client 62 asked --get-server-output
check "client: --get-server-output prints the server's lines" \
	shows 'a line\x1b]0;owned\x07\x1b[2J\x1b[31m\u009b' "$dir/asked.out"
check "client: its line breaks are kept" shows 'another line' "$dir/asked.out"
check "client: no raw ESC with --get-server-output" no_esc "$dir/asked.out"

client 63 json -J --get-server-output
check "client -J: the JSON keeps the real string" \
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if "\x1b]0;owned" in d["server_output_text"] else 1)' "$dir/json.out"
check "client -J: escaped as JSON does (no raw ESC)" no_esc "$dir/json.out"
client 66 jsonplain -J
check "client -J: no server output without --get-server-output" \
	sh -c '! jq -e "has(\"server_output_text\")" "$1" >/dev/null' sh "$dir/jsonplain.out"

# the server's side: a client's strings in its text output and its log
port=$(free_port 64)
bg "$PIPESCOPE" -s -p "$port" >"$dir/srv.out" 2>"$dir/srv.log"
wait_listen "$port" || { fail "server did not start"; finish; }
expect_exit 0 "the scripted client's test" -- timeout 20 $PEER client "$port" strings
sleep 0.3
check "server: the client's congestion control is shown, escaped" \
	shows 'reno\x1b]0;owned\x07' "$dir/srv.out"
check "server: no raw ESC in its text output or log" no_esc "$dir/srv.out" "$dir/srv.log"

# an RSA login that fails: the user name is in the log line
if command -v openssl >/dev/null &&
	openssl genrsa -out "$dir/priv.pem" 2048 2>/dev/null &&
	openssl rsa -in "$dir/priv.pem" -pubout -out "$dir/pub.pem" 2>/dev/null; then
	echo "alice,$(printf '%s' '{alice}pw' | sha256sum | cut -d' ' -f1)" >"$dir/users.csv"
	port=$(free_port 65)
	bg "$PIPESCOPE" -s -p "$port" --rsa-private-key-path "$dir/priv.pem" \
		--authorized-users-path "$dir/users.csv" \
		--logfile "$dir/auth.log" >"$dir/auth.out" 2>&1
	wait_listen "$port" || { fail "RSA server did not start"; finish; }
	expect_exit 1 "a login as a user named with escapes fails" -- \
		timeout 20 env IPERF3_PASSWORD=pw "$PIPESCOPE" -c 127.0.0.1 -p "$port" \
		-t 0.3 --username "$(printf 'mal\033]0;owned\007\033[2J')" \
		--rsa-public-key-path "$dir/pub.pem"
	sleep 0.3
	check "server: the failed login is logged with the name escaped" \
		shows 'mal\x1b]0;owned\x07\x1b[2J' "$dir/auth.log"
	check "server: no raw ESC in the log file" no_esc "$dir/auth.log" "$dir/auth.out"
else
	echo "(no openssl: the RSA user name is not tried)"
fi
finish
