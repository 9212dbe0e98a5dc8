#!/bin/sh
# potfiles.sh: every source file with translatable strings is in
# po/POTFILES.in, and every file listed there exists.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
cd "$top_srcdir" || exit 99
listed=$(grep -v '^#' po/POTFILES.in | sed '/^$/d')
for f in $listed; do
	T_COUNT=$((T_COUNT + 1))
	[ -f "$f" ] || fail "po/POTFILES.in lists $f, which does not exist"
done
for f in $(grep -l -E '\<(N?_|P_)\("' src/*/*.c probes/*.c ui/*.c 2>/dev/null); do
	T_COUNT=$((T_COUNT + 1))
	echo "$listed" | grep -qx "$f" || fail "$f has translatable strings but is not in po/POTFILES.in"
done
finish
