#!/bin/bash
# reliability-privs.sh: "pipescope -s --user NAME" binds as root, then runs
# as NAME (uid, gid and groups in /proc/PID/status) and still serves TCP and
# UDP tests; a missing user, or --user without root, is a clear error.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_root "--user drops root privileges"
getent passwd nobody >/dev/null || skip "no user 'nobody'"
trap kill_bg EXIT
uid=$(id -u nobody)
gid=$(id -g nobody)

port=$(free_port 31)
bg "$PIPESCOPE" -s -p "$port" --user nobody >/dev/null
srv=$LAST_PID
wait_listen "$port" || { fail "server did not start"; finish; }
st=/proc/$srv/status
check "uid after bind is nobody's ($(grep ^Uid $st | tr -s '\t' ' '))" \
	awk -v u="$uid" '/^Uid:/ { exit !($2 == u && $3 == u && $4 == u && $5 == u) }' "$st"
check "gid after bind is nobody's ($(grep ^Gid $st | tr -s '\t' ' '))" \
	awk -v g="$gid" '/^Gid:/ { exit !($2 == g && $3 == g && $4 == g && $5 == g) }' "$st"
check "no supplementary group of root's ($(grep ^Groups $st | tr -s '\t' ' '))" \
	awk '/^Groups:/ { for (i = 2; i <= NF; i++) if ($i == 0) exit 1 }' "$st"
check "no capabilities left" \
	awk '/^CapEff:/ { exit !($2 == "0000000000000000") }' "$st"
check "the listening socket is still the one bound as root" \
	[ "$(ss -Htlnp "sport = :$port" | grep -c "pid=$srv,")" -ge 1 ]
expect_exit 0 "a TCP test against the unprivileged server" -- \
	timeout 20 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.3
expect_exit 0 "a UDP test against the unprivileged server" -- \
	timeout 20 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.3 -u -b 10M
check "still running as nobody after the tests" \
	awk -v u="$uid" '/^Uid:/ { exit !($2 == u) }' "$st"

expect_exit 1 "--user with a user that does not exist" -- \
	timeout 5 "$PIPESCOPE" -s -p "$(free_port 32)" --user no-such-user-$$
case $ERR in *"no user named"*) pass "it says so: $ERR" ;; *) fail "unclear: $ERR" ;; esac
if command -v setpriv >/dev/null; then
	expect_exit 1 "--user without root" -- \
		timeout 5 setpriv --reuid="$uid" --regid="$gid" --clear-groups \
		"$PIPESCOPE" -s -p "$(free_port 33)" --user root
	case $ERR in *"only root"*) pass "it says so: $ERR" ;; *) fail "unclear: $ERR" ;; esac
fi
expect_exit 2 "--user is for servers only" -- "$PIPESCOPE" -c 127.0.0.1 --user nobody
finish
