#!/bin/sh
# rules-doc.sh: "pipescope check --rules" and doc/check.md's table of rules
# come from the same tables (src/check/rules.h): the block between the
# "rules:" markers is the binary's markdown to the byte (regenerate with
# doc/regen-rules.sh); the text, JSON and markdown list the same rules, each
# named once, with a value and a reason; a finding's thresholds are rules.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
doc="$top_srcdir/doc/check.md"
scratch

# the doc's block against the binary's markdown
T_COUNT=$((T_COUNT + 1))
awk '/^<!-- rules: end/ { on = 0 } on { print } /^<!-- rules: begin/ { on = 1 }' \
	"$doc" >"$TMP/doc.md"
if ! LC_ALL=C "$PIPESCOPE" check --rules --format markdown >"$TMP/bin.md"; then
	fail "check --rules --format markdown failed"
elif [ ! -s "$TMP/doc.md" ]; then
	fail "doc/check.md has no rules block between its markers"
elif ! diff -u "$TMP/doc.md" "$TMP/bin.md" >"$TMP/diff"; then
	head -30 "$TMP/diff"
	fail "doc/check.md's rules differ from 'check --rules' (run doc/regen-rules.sh and read the diff)"
else
	pass "doc/check.md's rules are the binary's"
fi

# the three formats list the same rules
expect_exit 0 "check --rules --format json" -- \
	env LC_ALL=C "$PIPESCOPE" check --rules --format json
J="$TMP/rules.json"
printf '%s\n' "$OUT" >"$J"
expect_exit 0 "check --rules" -- env LC_ALL=C "$PIPESCOPE" check --rules
printf '%s\n' "$OUT" >"$TMP/rules.txt"
n=$(jq length "$J" 2>/dev/null || echo 0)
T_COUNT=$((T_COUNT + 1))
num_ge "$n" 40 || fail "only $n rules in the JSON (want the checks' 40 and more)"
jq_check "every rule has a family, a name, a finite value, a unit and a why" \
	'all(.[]; (.family | length > 0) and (.name | test("^[a-z][a-z0-9_]*$"))
		and (.value | type == "number") and (.unit | length > 0)
		and (.why | length > 0))'
jq_check "no two rules share a name" '(map(.name) | unique | length) == length'
T_COUNT=$((T_COUNT + 1))
rows=$(grep -c '^| [a-z]* | `' "$TMP/bin.md")
[ "$rows" = "$n" ] || fail "markdown has $rows rules, JSON $n"
T_COUNT=$((T_COUNT + 1))
lines=$(grep -c '^  [a-z]' "$TMP/rules.txt")
[ "$lines" = "$n" ] || fail "text has $lines rules, JSON $n"
# every JSON rule is on its text line with its value
T_COUNT=$((T_COUNT + 1))
jq -r '.[] | "\(.name) \(.value)"' "$J" | while read -r name value; do
	awk -v n="$name" -v v="$value" '$1 == n && $2 + 0 == v + 0 { f = 1 }
		END { exit !f }' "$TMP/rules.txt" ||
		echo "$name"
done >"$TMP/missing"
[ ! -s "$TMP/missing" ] || fail "not in the text with their value: $(cat "$TMP/missing")"
T_COUNT=$((T_COUNT + 1))
for fam in $(jq -r '.[].family' "$J" | uniq); do
	grep -q "^$fam:\$" "$TMP/rules.txt" || fail "text has no heading '$fam:'"
done

# a fired finding's thresholds are rules, with the rules' values
fx="$top_srcdir/tests/fixtures/machines/pcie-downgraded"
if [ -d "$fx/sys" ]; then
	expect_exit 3 "check --sysroot pcie-downgraded" -- \
		env LC_ALL=C "$PIPESCOPE" check --sysroot "$fx" --format json
	printf '%s\n' "$OUT" >"$TMP/report.json"
	J="$TMP/report.json"
	jq_check "pcie_link names the threshold it crossed" \
		'.findings[] | select(.id == "pcie_link") | .thresholds
		 | map(.name) | index("pcie_downgrade_bottleneck") != null'
	jq_check "every finding has a thresholds list" \
		'all(.findings[]; .thresholds | type == "array")'
	T_COUNT=$((T_COUNT + 1))
	bad=$(jq -r --slurpfile r "$TMP/rules.json" '.findings[].thresholds[]
		| . as $t | select([$r[0][] | select(.name == $t.name and
			.value == $t.value and .unit == $t.unit)] | length != 1)
		| .name' "$J")
	[ -z "$bad" ] || fail "thresholds that are not rules: $bad"
fi
finish
