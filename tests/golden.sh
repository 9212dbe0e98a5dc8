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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for dir in "$fx"/machines/*/; do
	t=$(basename "$dir")
	n=$((n + 1))
	expect_exit 0 "$t: probe --json" -- \
		"$PIPESCOPE" probe --sysroot "$dir" --json || continue
	printf '%s\n' "$OUT" | jq -S -f "$fx/normalise.jq" >"$tmp/$t.json" ||
		{ fail "$t: the output is not JSON"; continue; }
	T_COUNT=$((T_COUNT + 1))
	if [ ! -f "$fx/golden/$t.json" ]; then
		fail "$t: no golden file (run tests/fixtures/regen-golden.sh)"
	elif ! diff -u "$fx/golden/$t.json" "$tmp/$t.json" >"$tmp/$t.diff"; then
		head -40 "$tmp/$t.diff"
		fail "$t: differs from tests/fixtures/golden/$t.json"
	else
		pass "$t: matches its golden file"
	fi
	# the text form runs on the same tree, names the busiest core and
	# matches its golden text (the time and the tree's path replaced)
	expect_exit 0 "$t: probe (text)" -- \
		"$PIPESCOPE" probe --sysroot "$dir" || continue
	printf '%s\n' "$OUT" | sed -f "$fx/normalise.sed" >"$tmp/$t.txt"
	T_COUNT=$((T_COUNT + 1))
	if [ ! -f "$fx/golden/$t.txt" ]; then
		fail "$t: no golden text (run tests/fixtures/regen-golden.sh)"
	elif ! diff -u "$fx/golden/$t.txt" "$tmp/$t.txt" >"$tmp/$t.tdiff"; then
		head -40 "$tmp/$t.tdiff"
		fail "$t: the text differs from tests/fixtures/golden/$t.txt"
	fi
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
