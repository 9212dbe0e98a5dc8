#!/bin/bash
# reliability-privs.sh: "pipescope -s --user NAME" binds as root, then runs
# as NAME (uid, gid and groups in /proc/PID/status) and still serves TCP and
# UDP tests; a missing user, or --user without root, is a clear error. The
# -I pid file goes at exit; -D opens --logfile and -I where it was started,
# and says so before detaching when it cannot; RSA logins work after the drop.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_root "--user drops root privileges"
getent passwd nobody >/dev/null || skip "no user 'nobody'"
dir=$(mktemp -d)
mkdir "$dir/run"
# the daemon, found by its port; what a -D that changed to / first left there
cleanup() {
	kill_bg
	[ -n "${dport:-}" ] && for p in $(ss -Htlnp "sport = :$dport" |
		grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -u); do kill "$p"; done
	rm -f "/ps-test-$$.log" "/run/ps-test-$$.pid"
	rm -rf "$dir"
}
trap cleanup EXIT
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

# -I: the pid file, made as root in a folder only root may write to, is
# gone when the server ends; -D with relative names: in this folder
cd "$dir"
port=$(free_port 34)
bg "$PIPESCOPE" -s -p "$port" --user nobody -I run/srv.pid >/dev/null
srv=$LAST_PID
wait_listen "$port" || fail "server did not start"
for i in 1 2 3 4 5 6 7 8 9 10; do [ -s run/srv.pid ] && break; sleep 0.1; done
check "the pid file holds the server's pid" [ "$(cat run/srv.pid)" = "$srv" ]
kill -TERM "$srv"
wait "$srv"
for i in 1 2 3 4 5 6 7 8 9 10; do [ -e run/srv.pid ] || break; sleep 0.1; done
check "--user: the pid file is removed at exit" [ ! -e run/srv.pid ]
dport=$(free_port 35)
expect_exit 0 "-D --user with a relative --logfile and -I" -- \
	"$PIPESCOPE" -s -p "$dport" -D --user nobody --logfile ps-test-$$.log \
	-I run/ps-test-$$.pid
wait_listen "$dport" || fail "daemon did not start"
check "-D: the log file is in this folder" [ -f ps-test-$$.log ]
check "-D: the pid file is in this folder" [ -s run/ps-test-$$.pid ]
dpid=$(cat run/ps-test-$$.pid 2>/dev/null)
check "-D: the pid file holds the daemon's pid, running as nobody" \
	awk -v u="$uid" '/^Uid:/ { exit !($2 == u) }' "/proc/$dpid/status"
kill -TERM "$dpid" 2>/dev/null
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	[ -e run/ps-test-$$.pid ] || break
	sleep 0.1
done
check "-D --user: the pid file is removed at exit" [ ! -e run/ps-test-$$.pid ]
expect_exit 1 "-D with a log file that cannot be opened: an error before detaching" -- \
	"$PIPESCOPE" -s -p "$(free_port 36)" -D --logfile no/such/dir/x.log
case $ERR in *"cannot open the log file"*) pass "it says so: $ERR" ;; *) fail "unclear: $ERR" ;; esac
expect_exit 1 "-D with a pid file that cannot be written: an error before detaching" -- \
	"$PIPESCOPE" -s -p "$(free_port 36)" -D -I no/such/dir/x.pid
case $ERR in *"cannot write the pid file"*) pass "it says so: $ERR" ;; *) fail "unclear: $ERR" ;; esac
T_COUNT=$((T_COUNT + 2))

# RSA login with --user: the key and the users file, root's own (0600),
# are read before the drop; every login works after it
if command -v openssl >/dev/null && openssl genrsa -out priv.pem 2048 2>/dev/null &&
	openssl rsa -in priv.pem -pubout -out pub.pem 2>/dev/null; then
	printf 'alice,%s\n' "$(printf '%s' '{alice}pw' | sha256sum | cut -d' ' -f1)" >users.csv
	chmod 600 priv.pem users.csv
	port=$(free_port 37)
	bg "$PIPESCOPE" -s -p "$port" --user nobody --rsa-private-key-path "$dir/priv.pem" \
		--authorized-users-path "$dir/users.csv" >/dev/null 2>"$dir/auth.log"
	wait_listen "$port" || fail "server did not start"
	for n in 1 2; do
		expect_exit 0 "--user and a 0600 root key: login $n" -- \
			timeout 20 env IPERF3_PASSWORD=pw "$PIPESCOPE" -c 127.0.0.1 -p "$port" \
			-t 0.3 --username alice --rsa-public-key-path pub.pem
	done
	expect_exit 1 "--user and a 0600 root key: a wrong password is still refused" -- \
		timeout 20 env IPERF3_PASSWORD=nope "$PIPESCOPE" -c 127.0.0.1 -p "$port" \
		-t 0.3 --username alice --rsa-public-key-path pub.pem
else
	echo "SKIP part: openssl cannot make an RSA key"
fi
cd - >/dev/null

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
