#!/bin/sh
# format.sh: every C file of ours is as .clang-format (kernel style) lays
# it out. Fix a failure with: clang-format -i FILE
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
cd "$top_srcdir" || exit 99
need_cmd clang-format clang-format
for f in src/*/*.[ch] probes/*.[ch] ui/*.[ch] tests/unit/*.[ch] \
	tests/fuzz/*.c tests/tools/*.c bench/*.c; do
	[ -f "$f" ] || continue
	T_COUNT=$((T_COUNT + 1))
	n=$(clang-format --dry-run "$f" 2>&1 | grep -c 'warning:')
	[ "$n" = 0 ] || fail "$f: $n places differ from .clang-format (clang-format -i $f)"
done
[ "$T_FAILS" -eq 0 ] && pass "$T_COUNT files as .clang-format lays them out"
finish
