#!/bin/sh
# deb-package.sh: the Debian package (debian/). Builds the .deb with
# dpkg-buildpackage from an export of this tree (git archive of HEAD plus
# uncommitted changes to tracked files, as .ci/run's export_tree: a
# configured tree refuses a second build), runs lintian (no E: tag),
# unpacks the package with dpkg -x, runs the unpacked binary (--version,
# probe, a loopback test against itself as a server, as nobody without
# capabilities when root, as the unit runs it) and systemd-analyze verify
# on the unpacked unit. The unit is installed but not enabled.
# PS_DEB_KEEP=DIR keeps the build (the .deb, the logs) in DIR.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
need_cmd git git
missing=
for c in dpkg-buildpackage:dpkg-dev dh:debhelper lintian:lintian \
	systemd-analyze:systemd; do
	command -v "${c%%:*}" >/dev/null 2>&1 || missing="$missing ${c#*:}"
done
if [ -n "$missing" ]; then
	# CI runs as root after ./bootstrap, which installs them: no skip there
	[ "$(id -u)" = 0 ] || skip "needs$missing (apt-get install$missing)"
	fail "missing$missing: ./bootstrap installs them"
	finish
fi
git -C "$top_srcdir" rev-parse --git-dir >/dev/null 2>&1 ||
	skip "$top_srcdir is not a git checkout (the package is built from git archive)"
scratch
trap 'kill_bg; rm -rf "$TMP"' EXIT
chmod 755 "$TMP"
t0=$(date +%s)

# the export: the committed tree and the uncommitted changes to it
mkdir "$TMP/src"
rev=$(git -C "$top_srcdir" -c user.name=t -c user.email=t@t stash create 2>/dev/null)
git -C "$top_srcdir" archive "${rev:-HEAD}" | tar -x -C "$TMP/src" ||
	{ fail "git archive"; finish; }

# the build: no tests (debian/rules says why), no debug symbols package;
# one job, niced, beside make -jN check's other tests (some time UDP and
# CPU); every core when run alone
case " ${MAKEFLAGS:-} " in
*--jobserver*|*" -j"*) jobs=1 nice="nice -n 10" ;;
*) jobs=$(nproc 2>/dev/null || echo 2) nice= ;;
esac
T_COUNT=$((T_COUNT + 1))
if (cd "$TMP/src" &&
	DEB_BUILD_OPTIONS="nocheck noautodbgsym parallel=${PS_DEB_PARALLEL:-$jobs}" \
		$nice dpkg-buildpackage -us -uc -b) >"$TMP/build.log" 2>&1; then
	pass "dpkg-buildpackage -us -uc -b ($(($(date +%s) - t0)) s)"
else
	tail -30 "$TMP/build.log"
	fail "dpkg-buildpackage failed"
	finish
fi
ver=$(cd "$TMP/src" && dpkg-parsechangelog -S Version)
deb=$(ls "$TMP"/pipescope_"$ver"_*.deb 2>/dev/null | head -1)
check "the .deb is there" test -f "$deb"
[ -f "$deb" ] || finish

# lintian: errors fail, warnings are listed
t1=$(date +%s)
lintian -I "$TMP"/pipescope_"$ver"_*.changes >"$TMP/lintian.txt" 2>&1
T_COUNT=$((T_COUNT + 1))
if grep -q '^E:' "$TMP/lintian.txt"; then
	grep '^E:' "$TMP/lintian.txt"
	fail "lintian reports errors"
else
	pass "lintian: no errors ($(($(date +%s) - t1)) s)"
fi
grep '^[WI]:' "$TMP/lintian.txt" | sed 's/^/  lintian /'

# what the package holds
dpkg -c "$deb" | awk '{print $NF}' | sed 's|^\./||' >"$TMP/files"
for f in usr/bin/pipescope usr/share/man/man1/pipescope.1.gz \
	usr/share/locale/es/LC_MESSAGES/pipescope.mo \
	lib/systemd/system/pipescope.service usr/share/doc/pipescope/copyright \
	usr/share/doc/pipescope/service.md; do
	# dh_compress gzips the documents over 4 KiB
	check "the package has $f" grep -qxE "$f(\.gz)?" "$TMP/files"
done
# the bash completion: whatever "make install" puts there, once a
# Makemodule.am installs one
if grep -qs 'bash-completion\|bashcompletion' "$top_srcdir"/Makefile.am \
	"$top_srcdir"/*/Makemodule.am "$top_srcdir"/*/*/Makemodule.am; then
	check "the package has a bash completion" \
		grep -q '^usr/share/bash-completion/completions/.' "$TMP/files"
fi
dpkg-deb -e "$deb" "$TMP/control"
check "the unit is enabled only where it was before (dh_installsystemd --no-enable)" \
	grep -q 'deb-systemd-helper debian-installed' "$TMP/control/postinst"

# the unpacked package runs
R=$TMP/root
dpkg -x "$deb" "$R"
B=$R/usr/bin/pipescope
expect_exit 0 "installed --version" -- "$B" --version
T_COUNT=$((T_COUNT + 1))
case $OUT in *"$ver"*) pass "--version says $ver" ;; *) fail "--version: '$OUT', not $ver" ;; esac
expect_exit 0 "installed probe --json" -- "$B" probe --json
jq_is '.cpu.status' ok "installed probe"
jq_is '.snapshot_version' 1 "installed probe"

# a loopback test against the installed binary as a server: as nobody
# without capabilities when root (as the unit runs it: a dynamic user,
# an empty bounding set), and its probe readings reach the client
as=
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	as="setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all --bounding-set=-all"
fi
port=$(free_port 3)
bg sh -c 'exec "$@" >"$0" 2>&1' "$TMP/server.log" $as "$B" -s -p "$port" --forceflush
SRV=$LAST_PID
wait_listen "$port" || fail "the installed server does not listen on $port"
expect_exit 0 "installed client against the installed server" -- \
	"$B" -c 127.0.0.1 -p "$port" -t 1 -J
jq_is '.end.sum_received.bytes > 0' true "loopback test"
jq_is '.pipescope.peer_snapshot.cpu.status' ok "the server's probe readings"
[ -n "$as" ] && jq_is '.pipescope.peer_snapshot.host.root' false "server without root"
stop_pid "$SRV"

# systemd-analyze verify on the unpacked unit, with --root so that the
# ExecStart binary checked is the packaged one: the root gets the host's
# targets and slices (its dependencies), MANPATH the package's man page
# (Documentation=man:pipescope(1)). Any line it prints is a failure: an
# unknown key is only a warning with status 0.
cp /lib/systemd/system/*.target /lib/systemd/system/*.slice \
	"$R/lib/systemd/system/" 2>/dev/null
T_COUNT=$((T_COUNT + 1))
if MANPATH=$R/usr/share/man systemd-analyze verify --root="$R" \
	"$R/lib/systemd/system/pipescope.service" >"$TMP/verify.txt" 2>&1 &&
	! grep -q . "$TMP/verify.txt"; then
	pass "systemd-analyze verify pipescope.service"
else
	cat "$TMP/verify.txt"
	fail "systemd-analyze verify pipescope.service"
fi

if [ -n "${PS_DEB_KEEP:-}" ]; then
	mkdir -p "$PS_DEB_KEEP" &&
		cp "$deb" "$TMP/build.log" "$TMP/lintian.txt" "$PS_DEB_KEEP/"
fi
echo "deb-package: $(($(date +%s) - t0)) s in all"
finish
