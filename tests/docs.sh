#!/bin/sh
# docs.sh: --help, the man page and the README tell the same story: every
# long option --help lists is in the man page, and the README's two commands
# are the ones .ci/run and the build use.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
man="$top_srcdir/doc/pipescope.1"
[ -f "$man" ] || { fail "no doc/pipescope.1"; finish; }
opts=$("$PIPESCOPE" --help | grep -o -- '--[a-z0-9][a-z0-9-]*' | sort -u)
for o in $opts; do
	T_COUNT=$((T_COUNT + 1))
	esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	grep -q -- "$esc\|$o" "$man" || fail "man page does not document $o"
done
T_COUNT=$((T_COUNT + 1))
if command -v man >/dev/null 2>&1; then
	w=$(MANWIDTH=80 man -l "$man" 2>&1 >/dev/null | grep -v '^$' | head -3)
	[ -z "$w" ] || fail "man page warnings: $w"
fi
T_COUNT=$((T_COUNT + 1))
grep -q '^    \./bootstrap && make -j2 check$' "$top_srcdir/README.md" ||
	fail "README does not give the test command './bootstrap && make -j2 check'"
grep -q '^\./bootstrap && make -j2 check ' "$top_srcdir/.ci/run" ||
	fail ".ci/run does not run the README's test command"

# the usage lines name every format: html for check and compare
h=$("$PIPESCOPE" --help)
for c in "check \[-c HOST\].*--format text\|markdown\|json\|html\]" \
	"compare .*--format text\|json\|html\]"; do
	T_COUNT=$((T_COUNT + 1))
	printf '%s\n' "$h" | grep -Eq "^ +pipescope $c" || fail "--help's usage line for $c"
done
# a sub-command's --help is its own: its usage, its options, not the
# server's or the client's lists
for c in check compare history probe; do
	T_COUNT=$((T_COUNT + 1))
	h=$("$PIPESCOPE" $c --help) || fail "$c --help exits non-zero"
	first=$(printf '%s\n' "$h" | head -1)
	case $first in "Usage: pipescope $c "*) ;; *) fail "$c --help begins '$first'" ;; esac
	T_COUNT=$((T_COUNT + 1))
	printf '%s\n' "$h" | grep -q '^Server options:' && fail "$c --help prints the whole help"
	printf '%s\n' "$h" | grep -q '^Client options:' && fail "$c --help lists the client options"
done
T_COUNT=$((T_COUNT + 1))
"$PIPESCOPE" check --help | grep -q -- '--format html' || fail "check --help does not name --format html"
# the README's view keys and names are the workstation's own table
# (ui/ui-views.c's VIEWS list, each view's noun in ui/view-NAME.c)
T_COUNT=$((T_COUNT + 1))
names=$(sed -n '/^#define VIEWS(X)/,/^$/s/.*X(\([a-z]*\)).*/\1/p' "$top_srcdir/ui/ui-views.c")
n=0 nouns=
for v in $names; do
	n=$((n + 1))
	w=$(sed -n 's/.*\.noun = N_("\([^"]*\)").*/\1/p' "$top_srcdir/ui/view-$v.c")
	nouns="${nouns:+$nouns, }$w"
done
readme=$(tr '\n' ' ' <"$top_srcdir/README.md" | tr -s ' ')
if [ "$n" -lt 2 ]; then
	fail "no views found in ui/ui-views.c"
else
	case $readme in
	*"\`1\`–\`$n\` or Tab views ($nouns)"*) ;;
	*) fail "README does not say '\`1\`–\`$n\` or Tab views ($nouns)'" ;;
	esac
fi
finish
