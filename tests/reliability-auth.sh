#!/bin/bash
# reliability-auth.sh: iperf3's authentication (RSA-encrypted credentials,
# --username / --rsa-public-key-path / --rsa-private-key-path /
# --authorized-users-path), between pipescope ends and with iperf3 3.12 both
# ways (3.12 pads with PKCS#1 v1.5: --use-pkcs1-padding on our end).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd openssl openssl
trap 'kill_bg; rm -rf "$dir"' EXIT
dir=$(mktemp -d)
openssl genrsa -out "$dir/priv.pem" 2048 2>/dev/null &&
	openssl rsa -in "$dir/priv.pem" -pubout -out "$dir/pub.pem" 2>/dev/null ||
	skip "openssl cannot make an RSA key"
hash=$(printf '%s' '{alice}s3cret pw' | sha256sum | cut -d' ' -f1)
# iperf3 reads the password with sscanf("%s"): no spaces for its users
printf '# user,sha256("{user}password")\n\nbob,%s\nalice,%s\n' \
	"$(printf '%s' '{bob}x3-pw' | sha256sum | cut -d' ' -f1)" "$hash" >"$dir/users.csv"

port=$(free_port 41)
bg "$PIPESCOPE" -s -p "$port" --rsa-private-key-path "$dir/priv.pem" \
	--authorized-users-path "$dir/users.csv" --use-pkcs1-padding \
	>"$dir/srv.out" 2>"$dir/srv.log"
wait_listen "$port" || { fail "server did not start"; finish; }
cli() { timeout 20 env IPERF3_PASSWORD="$1" "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.3 \
	--username "${2:-alice}" --rsa-public-key-path "$dir/pub.pem" "${@:3}"; }

expect_exit 0 "pipescope -> pipescope: right password (OAEP)" -- cli 's3cret pw'
check "the server logs who logged in" grep -q "Authentication succeeded for user 'alice'" "$dir/srv.out"
expect_exit 0 "pipescope -> pipescope: right password (PKCS#1 v1.5)" -- cli 's3cret pw' alice --use-pkcs1-padding
expect_exit 1 "pipescope -> pipescope: wrong password" -- cli 'nope'
case $ERR in *"refused the login"*) pass "the client says the login was refused: $ERR" ;; *) fail "unclear: $ERR" ;; esac
expect_exit 1 "pipescope -> pipescope: unknown user" -- cli 's3cret pw' mallory
expect_exit 1 "pipescope -> pipescope: no credentials" -- \
	timeout 20 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.3
check "the server logs the refusals" [ "$(grep -c "authentication failed" "$dir/srv.log")" -ge 3 ]
# a token signed by another key does not decrypt
openssl genrsa -out "$dir/other.pem" 2048 2>/dev/null
openssl rsa -in "$dir/other.pem" -pubout -out "$dir/other.pub" 2>/dev/null
expect_exit 1 "pipescope -> pipescope: another server's public key" -- \
	timeout 20 env IPERF3_PASSWORD='s3cret pw' "$PIPESCOPE" -c 127.0.0.1 -p "$port" \
	-t 0.3 --username alice --rsa-public-key-path "$dir/other.pub"
expect_exit 2 "--username without a key is a usage error" -- \
	"$PIPESCOPE" -c 127.0.0.1 --username alice
expect_exit 2 "an unreadable key is a usage error" -- \
	"$PIPESCOPE" -s --rsa-private-key-path "$dir/users.csv" --authorized-users-path "$dir/users.csv"

if command -v iperf3 >/dev/null && iperf3 --help 2>&1 | grep -q rsa-public-key-path; then
	ver=$(iperf3 --version | head -1)
	expect_exit 0 "$ver client -> pipescope server: right password" -- \
		timeout 20 env IPERF3_PASSWORD='x3-pw' iperf3 -c 127.0.0.1 -p "$port" -t 1 \
		--username bob --rsa-public-key-path "$dir/pub.pem"
	expect_exit 1 "$ver client -> pipescope server: wrong password" -- \
		timeout 20 env IPERF3_PASSWORD='nope' iperf3 -c 127.0.0.1 -p "$port" -t 1 \
		--username bob --rsa-public-key-path "$dir/pub.pem"
	case "$OUT$ERR" in *[Aa]uth*) pass "iperf3 says: $(echo "$OUT$ERR" | grep -i auth | head -1)" ;;
		*) fail "iperf3 does not say why: $OUT $ERR" ;; esac

	p2=$(free_port 42)
	bg iperf3 -s -p "$p2" --rsa-private-key-path "$dir/priv.pem" \
		--authorized-users-path "$dir/users.csv" --forceflush >"$dir/iperf3-srv.log" 2>&1
	wait_listen "$p2" || fail "iperf3 server did not start"
	expect_exit 0 "pipescope client -> $ver server: right password (--use-pkcs1-padding)" -- \
		timeout 20 env IPERF3_PASSWORD='x3-pw' "$PIPESCOPE" -c 127.0.0.1 -p "$p2" -t 0.3 \
		--username bob --rsa-public-key-path "$dir/pub.pem" --use-pkcs1-padding
	check "the $ver server accepted the test" grep -q "Accepted connection" "$dir/iperf3-srv.log"
	expect_exit 1 "pipescope client -> $ver server: wrong password" -- \
		timeout 20 env IPERF3_PASSWORD='nope' "$PIPESCOPE" -c 127.0.0.1 -p "$p2" -t 0.3 \
		--username bob --rsa-public-key-path "$dir/pub.pem" --use-pkcs1-padding
else
	echo "SKIP part: iperf3 with authentication is not installed"
fi
finish
