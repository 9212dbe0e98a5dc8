#!/bin/sh
# golden.sh: "pipescope probe --sysroot T --json" on every recorded machine
# under tests/fixtures/machines, compared with tests/fixtures/golden/T.json
# after normalising the volatile fields (tests/fixtures/normalise.jq).
# Regenerate with tests/fixtures/regen-golden.sh, and read the diff.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
fx="$top_srcdir/tests/fixtures"
[ -f "$fx/machines/virtio-2cpu/proc/stat" ] ||
	skip "no recorded trees under tests/fixtures/machines (the release tarball does not carry them)"
scratch
tmp=$TMP
n=0

# golden T GOT EXT WHAT: one check that GOT is golden/T.EXT to the byte
golden() {
	T_COUNT=$((T_COUNT + 1))
	want="$fx/golden/$1.$3"
	if [ ! -f "$want" ]; then
		fail "$1: no golden $4 (run tests/fixtures/regen-golden.sh)"
	elif ! diff -u "$want" "$2" >"$2.diff"; then
		head -40 "$2.diff"
		fail "$1: the $4 differs from tests/fixtures/golden/$1.$3"
	else
		pass "$1: the $4 matches tests/fixtures/golden/$1.$3"
	fi
}
for dir in "$fx"/machines/*/; do
	t=$(basename "$dir")
	n=$((n + 1))
	expect_exit 0 "$t: probe --json" -- \
		"$PIPESCOPE" probe --sysroot "$dir" --json || continue
	printf '%s\n' "$OUT" | jq -S -f "$fx/normalise.jq" >"$tmp/$t.json" ||
		{ fail "$t: the output is not JSON"; continue; }
	golden "$t" "$tmp/$t.json" json JSON
	# the text form runs on the same tree, names the busiest core and
	# matches its golden text (the time and the tree's path replaced)
	expect_exit 0 "$t: probe (text)" -- \
		"$PIPESCOPE" probe --sysroot "$dir" || continue
	printf '%s\n' "$OUT" | sed -f "$fx/normalise.sed" >"$tmp/$t.txt"
	golden "$t" "$tmp/$t.txt" txt text
	T_COUNT=$((T_COUNT + 1))
	busy=$(jq -r '.cpu.busiest.cpu // empty' \
		"$tmp/$t.json" 2>/dev/null)
	if [ -n "$busy" ]; then
		printf '%s\n' "$OUT" | grep -q "busiest: cpu$busy " ||
			fail "$t: the text does not name cpu$busy as the busiest"
	fi
done
T_COUNT=$((T_COUNT + 1))
[ "$n" -ge 7 ] || fail "only $n recorded machines (want at least 7)"
# every golden file has its tree
for g in "$fx"/golden/*.json "$fx"/golden/*.txt; do
	T_COUNT=$((T_COUNT + 1))
	m=$(basename "$g")
	[ -d "$fx/machines/${m%.*}" ] ||
		fail "$(basename "$g"): no machine tree for this golden file"
done
finish
