# tests/lib.sh: shared helpers for the shell tests (sourced, not run)
# Exit codes follow automake: 0 pass, 77 skip, 99 hard error, else fail.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${PIPESCOPE:=$top_builddir/pipescope}"
TESTNAME=$(basename "$0" .sh)
T_FAILS=0
T_COUNT=0

skip() { echo "SKIP: $TESTNAME: $*"; exit 77; }
fail() { echo "FAIL: $TESTNAME: $*"; T_FAILS=$((T_FAILS + 1)); }
pass() { echo "ok: $*"; }
finish() {
	echo "$TESTNAME: $T_COUNT checks, $T_FAILS failed"
	[ "$T_FAILS" -eq 0 ]
	exit $?
}
need_root() { [ "$(id -u)" = 0 ] || skip "needs root ($1)"; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || skip "needs $1 (apt-get install $2)"; }

# expect_exit CODE DESCRIPTION -- CMD...: run, compare status, keep output in $OUT/$ERR
expect_exit() {
	want=$1 what=$2
	shift 3
	T_COUNT=$((T_COUNT + 1))
	OUT=$("$@" 2>/tmp/ps-err.$$) && got=0 || got=$?
	ERR=$(cat /tmp/ps-err.$$)
	rm -f /tmp/ps-err.$$
	if [ "$got" != "$want" ]; then
		fail "$what: exit $got, wanted $want (stderr: $ERR)"
		return 1
	fi
	pass "$what"
}

# a private artefact folder for captures a reviewer may want to see
artifacts() {
	d="$top_builddir/tests/artifacts"
	mkdir -p "$d"
	echo "$d"
}
