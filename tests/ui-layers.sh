#!/bin/sh
# ui-layers.sh: the workstation is a layer under the commands: no file in
# ui/ includes a header of src/cmd/ (the commands use ui, never the other
# way; what both need lives in src/engine or src/check)
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
cd "$top_srcdir" || exit 99
for h in src/cmd/*.h; do
	b=$(basename "$h")
	T_COUNT=$((T_COUNT + 1))
	hits=$(grep -l -E "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]$b[\">]" ui/*.c ui/*.h 2>/dev/null)
	if [ -n "$hits" ]; then
		fail "$b (src/cmd) is included by $(echo $hits)"
	else
		pass "no ui/ file includes $b"
	fi
done
finish
