#!/bin/sh
# bootstrap.sh: the README's test command tells a newcomer what it does
# (issue 25 item 20): ./bootstrap run again skips autoreconf and configure
# when nothing they read changed, and reruns them when one did; the test
# harness's driver says START before each test's PASS.
# The real ./bootstrap runs in a scratch folder holding a copy of it, with
# stand-ins on PATH for dpkg-query, autoreconf, configure's work and make:
# the real ones would rebuild this very tree while make check runs in it
# (the suite itself is what the real ones produced).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

D=$(mktemp -d "${TMPDIR:-/tmp}/ps-bootstrap.XXXXXX")
trap 'rm -rf "$D"' EXIT
mkdir -p "$D/tree/m4" "$D/tree/src" "$D/bin"
cp "$top_srcdir/bootstrap" "$D/tree/bootstrap"
LOG=$D/calls
for t in autoreconf make; do
	printf '#!/bin/sh\necho "%s $*" >>"%s"\n' "$t" "$LOG" >"$D/bin/$t"
done
# every package installed, the Spanish locale there
printf '#!/bin/sh\nprintf "install ok installed"\n' >"$D/bin/dpkg-query"
printf '#!/bin/sh\necho es_ES.utf8\n' >"$D/bin/locale"
chmod +x "$D/bin/"*
cd "$D/tree" || { fail "no scratch tree"; finish; }
for f in configure.ac Makefile.am src/Makemodule.am; do echo "# $f" >"$f"; done
# configure as autoreconf leaves it: it logs its run and writes config.status
printf '#!/bin/sh\necho "configure $*" >>"%s"\n: >config.status\n' "$LOG" >configure
chmod +x configure
: >Makefile.in

run() {	# WHAT [ARG...]: ./bootstrap ARG... with the stand-ins; its
	# output in $OUT
	local what=$1 rc
	shift
	: >"$LOG"
	OUT=$(PATH="$D/bin:$PATH" sh ./bootstrap "$@" 2>&1)
	rc=$?
	check "$what: bootstrap exits 0 (rc $rc: $(printf '%s' "$OUT" | tail -1))" [ $rc -eq 0 ]
}
called() { grep -q "^$1" "$LOG"; }

# a fresh clone: configure.ac newer than configure (git sets no order; the
# worst case is assumed), no config.status: everything runs
touch -d '2020-01-01' configure Makefile.in
run "first run"
check "first run: autoreconf runs" called autoreconf
check "first run: configure runs" called configure
check "first run: make builds" called make

# again, nothing changed: straight to make
touch configure
run "second run"
check "second run: says autoreconf is skipped" \
	sh -c 'printf "%s\n" "$1" | grep -q "configure is up to date (autoreconf skipped)"' - "$OUT"
check "second run: no autoreconf" sh -c '! grep -q "^autoreconf" "$1"' - "$LOG"
check "second run: no configure (config.status is there)" \
	sh -c '! grep -q "^configure" "$1"' - "$LOG"
check "second run: make builds" called make

# a Makemodule.am changed since configure was made: autoreconf again
sleep 1
echo "# changed" >>src/Makemodule.am
run "after a Makemodule.am changed"
check "after a Makemodule.am changed: autoreconf runs" called autoreconf

# arguments are configure's: they always reach it
touch configure
run "with --enable-asan" --enable-asan
check "with an argument: configure runs with it" grep -q "^configure --enable-asan" "$LOG"
cd "$top_srcdir" || true

# the driver wrapper: START before the test runs, then the driver's own
# lines (its arguments as automake passes them)
o=$(sh "$top_srcdir/tests/tools/ps-announce" \
	sh -c 'for a; do [ "$p" = --test-name ] && echo "PASS: $a"; p=$a; done' - \
	--test-name tests/x.sh --log-file /dev/null -- true)
check "ps-announce says START, then the driver's PASS line ($o)" \
	[ "$o" = "START: tests/x.sh
PASS: tests/x.sh" ]
finish
