#!/bin/sh
# ui-guided.sh: the guided run of "pipescope check" inside the workstation
# (key g, with --quick): the steps go from pending to running (progress)
# to done with their rates, s skips the running test, the findings come
# ranked with the binding ceiling first and open with Enter, w writes the
# markdown report (an unwritable place is one line, no file), x ends a run;
# at 100x30 and 80x24, resized during the run; at the default length a
# guided test lasts the 5 s the README gives. Captures go to
# tests/artifacts.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

out="$UI_TMP/out"	# the report folder: missing at first, then a link
mkdir -p "$UI_TMP/reports"
ui_start 100 30 "cd '$UI_TMP' && env LC_ALL=C TERM=xterm \
PIPESCOPE_REPORT_DIR='$out' $PIPESCOPE --quick -t 2"
ui_expect "the workstation's own test runs" '\[running\]' 10

# the help lists the keys
ui_keys F1
ui_expect "help: g" '^ +g +guided run of' 5
ui_expect "help: s, x and w of a guided run" \
	'^ +s x w +guided run: s skips a test, x aborts' 5
ui_keys Escape
ui_keys 6
ui_expect "checklist view: g in the footer" 'g guided run' 5

# g while the test runs: it stops first, then the run starts
ui_keys g
ui_expect "g: the guided run starts" '^ Guided checklist ' 10
ui_expect "the inventory is done" \
	'^done +1 Inventory +interface lo \(option\)' 10
ui_expect "one stream runs, with its progress" \
	'^running +2 One stream +\[[#.]+\] [0-9.]+/2 s' 10
ui_expect "the running step says why" \
	'^ +the rate of one flow, its RTT' 5
ui_expect "the header's sum follows the running test" \
	' sum [1-9][0-9.]* [kMG]?bit/s now' 5
ui_expect "footer during the run: s skip, x abort" \
	's skip step +x abort run' 5
ui_expect "the pending steps are listed" '^pending +4 Reverse' 5

# resized during the run: the 80x24 layout, then back
ui_resize 80 24
ui_expect "80x24 during the run" '^(running|done) +.*(streams|Reverse)' 10
ui_save ui-guided-running-80x24
ui_absent "80x24 draws the view" 'too small' "80x24 is not too small"
ui_resize 100 30
ui_expect "100x30 again" '^ Guided checklist -{30,}' 5

ui_expect "one stream done with its rate" \
	'^done +2 One stream +[0-9.]+ [kMG]?bit/s, RTT' 15
ui_expect "the sweep's first test done with its rate" \
	'^done +2 streams +[0-9.]+ [kMG]?bit/s' 15

# skip the next test (4 streams, or reverse when the sweep stopped at 2)
ui_expect "a further test runs" '^running +(4 streams|4 Reverse)' 15
ui_keys s
ui_expect "s: skipping" 'skipping the running test' 5
ui_expect "s: the test is marked skipped" \
	'^skipped +(4 streams|4 Reverse) +skipped by the user' 10
ui_save ui-guided-skipped-100x30

# the end: the sweep's line, the answer, the findings
ui_expect "the run ends" 'done; w writes the report' 20
ui_expect "the sweep's summary line" \
	'^done +3 Stream sweep +1: [0-9.]+, 2: [0-9.]+.* [kMG]?bit/s' 5
ui_expect "evaluate done" '^done +6 Evaluate +[0-9]+ findings?;' 5
ui_expect "the answer" '^ +Measured: [0-9.]+ [kMG]?bit/s at best' 5
ui_expect "the binding ceiling (or none)" '^ +Binding ceiling: ' 5
ui_expect "the ranked findings, first chosen" '^> 1\. \+ \[' 5
ui_keys Enter
ui_expect "Enter opens the evidence" '^ +evidence: ' 5
ui_save ui-guided-findings-100x30
ui_keys Down
ui_expect "Down chooses the second" '^> 2\. ' 5
ui_keys Up Enter
ui_expect "Enter again closes it" '^> 1\. \+ ' 5

# w where the folder is missing: one line, nothing written
ui_keys w
ui_expect "w: an unwritable place is one line" \
	'cannot write the report in .*/out: ' 5
T_COUNT=$((T_COUNT + 1))
if ls -A "$UI_TMP/reports" | grep -q .; then
	fail "a failed write left files: $(ls -A "$UI_TMP/reports")"
else
	pass "a failed write leaves nothing"
fi

# now the folder exists
ln -s "$UI_TMP/reports" "$out"
ui_keys w
ui_expect "w: the path is shown" \
	'report written: /.*/reports/pipescope-report-[0-9]{8}-[0-9]{6}\.md' 5
path=$(ui_cap | sed -n 's/.*report written: \([^ ]*\.md\).*/\1/p' | head -1)
T_COUNT=$((T_COUNT + 1))
if [ -n "$path" ] && [ -s "$path" ]; then
	pass "the report exists: $path"
	cp "$path" "$(artifacts)/ui-guided-report.md"
else
	fail "no report at '$path': $(ls -la "$UI_TMP/reports")"
	path=/dev/null
fi
for pat in '^## pipescope check$' '^- \*\*Mode:\*\* loopback test' \
	'^### Answer$' '^### Tests$' '^\| test \| state \| rate \|' \
	'^\| 1 stream \| done \| [0-9.]+ [kMG]?bit/s \|' \
	'^\| 2 streams \| done \| [0-9.]+ [kMG]?bit/s \|' \
	'skipped: skipped by the user' \
	'^### Findings, most explaining first$' '^1\. \*\*\[' \
	'^### Settings of this end$'; do
	T_COUNT=$((T_COUNT + 1))
	grep -Eq -- "$pat" "$path" || fail "the report has no /$pat/"
done
T_COUNT=$((T_COUNT + 1))
if ls -A "$UI_TMP/reports" | grep -q '^\.pipescope-report'; then
	fail "a temporary file was left"
else
	pass "no temporary file left"
fi
# the HTML report beside the markdown, with its charts
T_COUNT=$((T_COUNT + 1))
html=${path%.md}.html
if [ -s "$html" ] && grep -q 'id="chart-sweep"' "$html" &&
	! grep -qi '<script' "$html"; then
	pass "w writes the HTML beside it: $html"
else
	fail "no HTML report with charts at '$html'"
fi

# the same screen at 80x24
ui_resize 80 24
ui_expect "80x24 after the run: the chosen finding" '^> 1\. ' 5
ui_save ui-guided-findings-80x24
ui_resize 100 30

# x ends a second run: the steps not run say so, findings still come
ui_keys g
ui_expect "g again: a new run" '^running +(1 Inventory|2 One stream)' 10
ui_expect "the new run's first test" '^running +2 One stream' 10
ui_keys x
ui_expect "x: the run ends" 'ended by x; w writes the report' 15
ui_expect "x: the rest is marked" '^skipped +4 Reverse +ended by the user \(x\)' 5
ui_expect "x: findings all the same" '^> 1\. \+ \[' 5
ui_save ui-guided-aborted-100x30

ui_keys q
ui_expect "q quits" 'EXIT:0' 15
# the screen's default length (t 10): each guided test 4 s measured after
# an omitted first second, 5 s in all, as the README says
ui_start 100 30 "cd '$UI_TMP' && env LC_ALL=C TERM=xterm \
PIPESCOPE_REPORT_DIR='$out' $PIPESCOPE"
ui_expect "default length: the workstation's test runs" '\[running\]' 10
ui_keys g
ui_expect "default length: a guided test lasts 5 s in all" \
	'^running +2 One stream +\[[#.]+\] [0-9.]+/5 s' 15
T_COUNT=$((T_COUNT + 1))
tr '\n' ' ' <"$top_srcdir/README.md" | tr -s ' ' |
	grep -q "for the default 10: 4 s measured after an omitted first second, 5 s in all" ||
	fail "README does not give the guided test's default length (4 s measured, 5 s in all)"
ui_keys x
ui_expect "default length: x ends the run" 'ended by x; w writes the report' 15
ui_keys q
ui_expect "default length: q quits" 'EXIT:0' 15
finish
