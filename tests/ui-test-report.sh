#!/bin/sh
# ui-test-report.sh: w saves a plain test (issue 25 item 15): with no
# guided run, or a test that ended after it, w writes the last test's text,
# -J and HTML reports; the numbers are the test's, the page is whole and
# self-contained (Chromium); a running test is written once it has ended.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"
need_cmd jq jq
need_cmd xmllint libxml2-utils
need_cmd python3 python3
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
TMP=$UI_TMP
rep=$UI_TMP/reports
mkdir -p "$rep"

ui_start 100 30 "env LC_ALL=C TERM=xterm PIPESCOPE_REPORT_DIR='$rep' $PIPESCOPE -P 2 -t 8"
ui_expect "the test runs" '\[running\]' 10
ui_keys w
ui_expect "w while it runs: written once it has ended" \
	"the test's report is written once the test has ended" 5
check "nothing written while it runs" sh -c "! ls -A '$rep' | grep -q ."
ui_expect "the test ends" '\[done\]' 20
ui_keys w
ui_expect "w: the three files are named" \
	'written: /.*/reports/pipescope-test-[0-9]{8}-[0-9]{6}\.txt, \.json, \.html' 5
base=$(ui_cap | tr -d '\n' | sed -n "s/.*written: \(.*\)\.txt, \.json.*/\1/p" | head -1)
sent=$(ui_cap | sed -n 's/.* sum \([0-9.]*\) \([kMGT]\{0,1\}\)bit\/s sent.*/\1 \2/p' | head -1)
for e in txt json html; do
	check "$e written" test -s "$base.$e"
done
check "no temporary file left" sh -c "! ls -A '$rep' | grep -q '^\.'"
# the text is the test's iperf3-style report
check "the text has the sender and receiver sums" sh -c \
	"grep -Eq 'sender\$' '$base.txt' && grep -Eq 'receiver\$' '$base.txt'"
# the JSON's sum is the screen's (same test, same figure)
T_COUNT=$((T_COUNT + 1))
jbps=$(jq -r '.end.sum_sent.bits_per_second' "$base.json" 2>/dev/null)
if [ -n "$sent" ] && awk -v s="$sent" -v j="$jbps" 'BEGIN {
	split(s, a, " "); m = a[2] == "G" ? 1e9 : a[2] == "M" ? 1e6 : a[2] == "k" ? 1e3 : a[2] == "T" ? 1e12 : 1;
	v = a[1] * m; d = (v - j) / j; if (d < 0) d = -d; exit !(d < 0.01) }'; then
	pass "the JSON's sum ($jbps) is the screen's ($sent)"
else
	fail "the JSON's sum ($jbps) is not the screen's ($sent)"
fi
check "the JSON has two streams and the intervals" sh -c \
	"jq -e '.start.test_start.num_streams == 2 and (.intervals | length) >= 2' '$base.json' >/dev/null"
# the page: when, where, the command, the sums, a line of the rate
page=$base.html
self_contained "$page" "the test's page"
inline_svgs_valid "$page" "the test's page"
check "the page has one inline chart" [ "$INLINE" = 1 ]
when=$(jq -r '.start.timestamp.time' "$base.json")
port=$(jq -r '.start.connecting_to.port' "$base.json")
check "the page says when ($when)" grep -qF "$when" "$page"
check "the page has the command" grep -qF "pipescope -c 127.0.0.1 -p $port -P 2 -t 8" "$page"
check "the page has this end" grep -qF "$(uname -n)" "$page"
cp "$page" "$(artifacts)/ui-test-report.html" 2>/dev/null

# w again: a file of its own, never over the first
ui_keys w
ui_expect "w again: another name" 'pipescope-test-[0-9]{8}-[0-9]{6}-2\.txt' 5
check "the first report is still there" test -s "$base.txt"

# a place that cannot be written: one line, nothing left
ui_keys q
ui_expect "q quits" 'EXIT:0' 10
ui_start 100 30 "env LC_ALL=C TERM=xterm PIPESCOPE_REPORT_DIR='$UI_TMP/missing' $PIPESCOPE --bidir -t 2"
ui_expect "the bidir test ends" '\[done\]' 15
ui_keys w
ui_expect "w into a missing folder: one line" "cannot write the report in $UI_TMP/missing: " 5
check "nothing written" test ! -e "$UI_TMP/missing"
ui_keys q
ui_expect "q quits" 'EXIT:0' 10
# the bidir test's page draws both directions
ui_start 100 30 "env LC_ALL=C TERM=xterm PIPESCOPE_REPORT_DIR='$rep' $PIPESCOPE --bidir -t 2"
ui_expect "the bidir test ends" '\[done\]' 15
ui_keys w
ui_expect "w: written" "written: .*pipescope-test-" 5
bpage=$(ls -t "$rep"/pipescope-test-*.html | head -1)
ui_keys q
ui_expect "q quits" 'EXIT:0' 10

if [ -z "$CHROMIUM" ]; then
	[ "$T_FAILS" -eq 0 ] || finish
	skip "no chromium (apt-get install chromium): the page was checked, not rendered"
fi
chromium_page "$page" --dump-dom >"$TMP/dom.html"
check "the browser's DOM has the rate chart" grep -q 'id="chart-rate"' "$TMP/dom.html"
check "one series for a one-way test" \
	[ "$(grep -o '<polyline class="series"' "$TMP/dom.html" | wc -l)" = 1 ]
check "the browser's DOM has the test's table" grep -q '<section id="test">' "$TMP/dom.html"
check "and each stream" grep -q '<section id="streams">' "$TMP/dom.html"
chromium_page "$bpage" --dump-dom >"$TMP/bdom.html"
check "two series for a bidir test" \
	[ "$(grep -o '<polyline class="series"' "$TMP/bdom.html" | wc -l)" = 2 ]
check "both directions are named" sh -c \
	"grep -q 'this end sends' '$TMP/bdom.html' && grep -q 'the far end sends' '$TMP/bdom.html'"
check "the browser ran no script" sh -c "! grep -qi '<script' '$TMP/dom.html'"
finish
