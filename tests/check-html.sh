#!/bin/sh
# check-html.sh: the report with pictures. "pipescope check --format html"
# on a short loopback run is one self-contained page (no script, nothing
# fetched), --plot DIR writes the charts as SVG files and the markdown links
# them, every SVG (the files and the page's inline ones) is well-formed XML
# (xmllint), and headless Chromium renders the page: the screenshot is not
# blank and has the charts' colours, its DOM has the charts' elements. A bad
# --plot DIR is one line and exit 1 before any test, nothing written; a
# hostile snapshot's strings come out escaped. A check after a test to the
# same host (root: a namespace of our own, a tbf raised between them) has
# the header (when, the command line, both hosts), the history's line
# inside the page and both directions drawn; in Chromium no chart text is
# clipped or overlaps another (tests/tools/ps-svg-layout.js measures them).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd xmllint libxml2-utils
need_cmd python3 python3
need_cmd jq jq
scratch

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}

# exit 0 (nothing limits) or 3 (a bottleneck): both are a finished check
run_check() {
	what=$1
	shift
	T_COUNT=$((T_COUNT + 1))
	"$@" >"$TMP/out" 2>"$TMP/err" && rc=0 || rc=$?
	case $rc in
	0 | 3) pass "$what" ;;
	*) fail "$what: exit $rc (stderr: $(tail -3 "$TMP/err"))" ;;
	esac
}

# ---- a bad --plot DIR: said at once, nothing run, nothing written ---------
: >"$TMP/file"
for bad in "$TMP/missing/deeper" "$TMP/file"; do
	T_COUNT=$((T_COUNT + 1))
	"$PIPESCOPE" check --quick -t 1 --plot "$bad" >"$TMP/out" 2>"$TMP/err" &&
		rc=0 || rc=$?
	if [ "$rc" = 1 ] && [ "$(wc -l <"$TMP/err")" = 1 ] &&
		grep -q '^pipescope: --plot ' "$TMP/err" && [ ! -s "$TMP/out" ]; then
		pass "bad --plot $bad: one line, exit 1"
	else
		fail "bad --plot $bad: exit $rc, stderr: $(head -3 "$TMP/err")"
	fi
done
check "no file left by a bad --plot" test ! -e "$TMP/missing"
expect_exit 2 "--format htm is a bad command line" -- \
	"$PIPESCOPE" check --format htm
expect_exit 2 "--plot is for check" -- "$PIPESCOPE" probe --plot "$TMP"

# ---- a hostile snapshot: its strings escaped --------------------------------
hostile='<script>alert("x")</script> ]]> '"'"'&'
"$PIPESCOPE" probe --json 2>/dev/null |
	jq --arg h "$hostile" '.host.hostname = $h | .host.kernel = ($h + "\u001b[31m")' \
		>"$TMP/snap.json"
run_check "check --snapshot (hostile) --format html" \
	"$PIPESCOPE" check --snapshot "$TMP/snap.json" --format html
cp "$TMP/out" "$TMP/static.html"
self_contained "$TMP/static.html" "the static page"
check "the hostile host name escaped" \
	grep -qF '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; ]]&gt; &#39;&amp;' \
	"$TMP/static.html"
T_COUNT=$((T_COUNT + 1))
if LC_ALL=C grep -q "$(printf '\033')" "$TMP/static.html"; then
	fail "a control byte reached the page"
else
	pass "no control byte in the page"
fi

# ---- the live run -----------------------------------------------------------
# a NIC with queue interrupts (not the test's, it is loopback: the heatmap
# has its lines and CPUs, the rates near zero)
iface=
for d in /sys/class/net/*/device; do
	[ -e "$d" ] || continue
	iface=$(basename "$(dirname "$d")")
	break
done
mkdir "$TMP/plots"
run_check "check --quick --format html --plot" \
	"$PIPESCOPE" check --quick -t 1 ${iface:+--iface "$iface"} \
	--format html --plot "$TMP/plots"
cp "$TMP/out" "$TMP/report.html"
cp "$TMP/report.html" "$(artifacts)/check-report.html" 2>/dev/null
self_contained "$TMP/report.html" "the page"
check "the page is HTML" grep -q '^<!DOCTYPE html>' "$TMP/report.html"
check "the page's CSP fetches nothing" \
	grep -q "Content-Security-Policy\" content=\"default-src 'none'" \
	"$TMP/report.html"
for id in chart-sweep chart-rate chart-cpu; do
	check "the page has $id" grep -q "<svg class=\"ps-chart [a-z-]*\" id=\"$id\"" \
		"$TMP/report.html"
done
check "the page has the findings" grep -q '<li class="finding" id="finding-1">' \
	"$TMP/report.html"
check "the findings have evidence" grep -q '<li class="evidence">' \
	"$TMP/report.html"
inline_svgs_valid "$TMP/report.html" "the page"
check "the page has 3 or 4 inline charts ($INLINE)" test "$INLINE" -ge 3

# the SVG files: the charts with data, each well-formed, stable names
for n in sweep rate cpu; do
	check "--plot wrote $n.svg" test -s "$TMP/plots/$n.svg"
done
for f in "$TMP"/plots/*; do
	T_COUNT=$((T_COUNT + 1))
	case $(basename "$f") in
	sweep.svg | rate.svg | cpu.svg | irq.svg) ;;
	*) fail "--plot left $(basename "$f")" ;;
	esac
	xmllint --noout "$f" 2>"$TMP/xerr" ||
		fail "$(basename "$f") is not well-formed: $(head -2 "$TMP/xerr")"
	# the namespace is the one URL, and it fetches nothing
	sed 's|xmlns="http://www.w3.org/2000/svg"||' "$f" >"$TMP/nons.svg"
	self_contained "$TMP/nons.svg" "$(basename "$f")"
done
# the heatmap: one cell a line and CPU, or said missing
T_COUNT=$((T_COUNT + 1))
if [ -e "$TMP/plots/irq.svg" ]; then
	cells=$(grep -c '<rect class="cell"' "$TMP/plots/irq.svg")
	rows=$(grep -c 'class="row-label"' "$TMP/plots/irq.svg")
	[ "$cells" -gt 0 ] && [ $((cells % rows)) = 0 ] &&
		grep -q 'id="chart-irq"' "$TMP/report.html" &&
		pass "irq heatmap: $cells cells, $rows lines" ||
		fail "irq heatmap: $cells cells in $rows rows"
else
	grep -A2 '<figure id="fig-irq">' "$TMP/report.html" |
		grep -q 'class="nodata"' &&
		pass "no queue interrupts on '$iface': said so" ||
		fail "no irq.svg and the page does not say why"
fi
steps=$(grep -c '<td>done</td>' "$TMP/report.html")
check "the rate chart has a line a test ($steps)" test \
	"$(grep -c '<polyline class="series"' "$TMP/plots/rate.svg")" = "$steps"
check "the sweep draws its ceilings" grep -q '<line class="hline"' \
	"$TMP/plots/sweep.svg"

# ---- the markdown links the charts, relative to where DIR was given ------
T_COUNT=$((T_COUNT + 1))
(cd "$TMP" && "$PIPESCOPE" check --quick -t 1 --format markdown \
	--plot md-plots >md.out 2>md.err) && rc=0 || rc=$?
if [ "$rc" = 0 ] || [ "$rc" = 3 ]; then
	pass "check --format markdown --plot"
else
	fail "markdown --plot: exit $rc: $(tail -2 "$TMP/md.err")"
fi
links=$(sed -n 's/^!\[[a-z]*\](\(md-plots\/[a-z]*\.svg\))$/\1/p' "$TMP/md.out")
check "the markdown links the sweep" \
	sh -c "printf '%s\n' \"$links\" | grep -qx md-plots/sweep.svg"
for l in $links; do
	check "the link $l is there" test -s "$TMP/$l"
done
check "no temporary file left" sh -c "! ls -A '$TMP/plots' '$TMP/md-plots' | grep -q '^\.'"

# ---- a check after a test to the same host, in a namespace of our own ------
# (issue 25 item 12) the page says when it ran, the command line and both
# hosts; the history's line is inside it, styled, and names the tbf whose
# rate was raised between the runs with its unit; a test of both
# directions is two lines of the rate chart, its tooltips in units
B=
N=
if [ "$(id -u)" = 0 ] && ip netns add "pch$$" 2>/dev/null; then
	N=pch$$
	trap 'kill_bg; [ -z "$N" ] || ip netns del "$N" 2>/dev/null; rm -rf "$TMP"' EXIT
	netns_watched $N
	port=$(free_port 1)
	netns_server $N "$port"
	H=$TMP/h.db
	expect_exit 0 "a test to 127.0.0.1 first" -- ip netns exec $N \
		"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.5 --iface va --no-tui \
		--history "$H"
	kill_bg
	tbf_rate $N 900mbit
	t0=$(date +%s)
	run_check "check -t 0.5 -P 2 --format html after it" ip netns exec $N \
		"$PIPESCOPE" check -t 0.5 -P 2 --iface va --history "$H" \
		--format html --title "it's <b>"
	t1=$(date +%s)
	ip netns del $N
	N=
	B=$TMP/bidir.html
	cp "$TMP/out" "$B"
	cp "$B" "$(artifacts)/check-report-bidir.html" 2>/dev/null
	self_contained "$B" "the page after a test"
	started=$(sed -n 's|^<tr><th>started</th><td>\(.*\)</td></tr>$|\1|p' "$B")
	at=$(date -d "$started" +%s 2>/dev/null || echo 0)
	check "the page says when the check started ($started)" \
		test "$at" -ge $((t0 - 1)) -a "$at" -le "$t1"
	check "and its command line, quoted and escaped" grep -qxF \
		"<tr><th>command line</th><td><code class=\"cmdline\">pipescope check -t 0.5 -P 2 --iface va --history $H --format html --title &#39;it&#39;\\&#39;&#39;s &lt;b&gt;&#39;</code></td></tr>" "$B"
	check "and this host" grep -qxF \
		"<tr><th>this host</th><td>$(cat /proc/sys/kernel/hostname)</td></tr>" "$B"
	check "and the far end" grep -qxF \
		"<tr><th>far end</th><td>this host: the in-process server on 127.0.0.1</td></tr>" "$B"
	check "the line since the last run is inside the page, in its own paragraph" \
		grep -Eqx '<p class="since">since the last run to 127\.0\.0\.1 \([0-9]+ s ago\): tbf 8009: on va: rate 600 Mbit/s → 900 Mbit/s, .*</p>' "$B"
	check "and nothing follows the page" [ "$(tail -1 "$B")" = "</html>" ]
	rate=$(sed -n '/<svg class="ps-chart ps-line" id="chart-rate"/,/<\/svg>/p' "$B")
	bidir=$(printf '%s\n' "$rate" | grep -c '<text class="legend-label"[^>]*>both directions, [0-9]* streams\{0,1\} each: \(sent\|received\)</text>')
	check "the test of both directions is two lines of the rate chart ($bidir)" \
		[ "$bidir" = 2 ]
	done_b=$(grep -c '<td>done</td>' "$B")
	check "a line a test and one more ($done_b tests)" [ \
		"$(printf '%s\n' "$rate" | grep -c '<polyline class="series"')" = $((done_b + 1)) ]
	tips=$(printf '%s\n' "$rate" | grep -o '<title>[^<]*</title></circle>' | wc -l)
	raw=$(printf '%s\n' "$rate" | grep -o '<title>[^<]*</title></circle>' |
		grep -Evc '^<title>[^<]*: [0-9]+(\.[0-9]{1,2})? s, [0-9]+(\.[0-9]+)? [kMG]?bit/s</title></circle>$')
	check "the rate tooltips ($tips) are seconds and bit/s in their units ($raw not)" \
		test "$tips" -gt 0 -a "$raw" = 0
else
	echo "skipped: the check after a test (needs root and ip netns)"
fi

# ---- in a real browser ------------------------------------------------------
if [ -z "$CHROMIUM" ]; then
	[ "$T_FAILS" -eq 0 ] || finish
	skip "no chromium (apt-get install chromium): the page was checked, not rendered"
fi
chrome() { chromium_page "$TMP/report.html" "$@"; }
# drawn at half scale: a quarter of the pixels for the decoder below
chrome --screenshot="$TMP/shot.png" --force-device-scale-factor=0.5 >/dev/null
check "chromium took a screenshot" test -s "$TMP/shot.png"
cp "$TMP/shot.png" "$(artifacts)/check-report.png" 2>/dev/null
# decode the PNG (zlib, the five filters): not blank, the charts' colours
T_COUNT=$((T_COUNT + 1))
if res=$(python3 "$top_srcdir/tests/tools/ps-pngcheck.py" "$TMP/shot.png"); then
	pass "the screenshot shows the page: $res"
else
	fail "the screenshot looks blank: $res"
fi
chrome --dump-dom >"$TMP/dom.html"
for id in chart-sweep chart-rate chart-cpu; do
	check "the browser's DOM has $id" grep -q "id=\"$id\"" "$TMP/dom.html"
done
check "the browser's DOM has the series" test \
	"$(grep -o '<polyline class="series"' "$TMP/dom.html" | wc -l)" -ge \
	$((steps + 1))
check "the browser's DOM has the heat cells" test \
	"$(grep -o '<rect class="cell"' "$TMP/dom.html" | wc -l)" -ge 2
check "the browser ran no script" sh -c "! grep -qi '<script' '$TMP/dom.html'"
# laid out with the fonts the browser has: no chart text clipped by its
# picture, no legend entry or row label over another
chromium_layout "$TMP/report.html"
check "the quick run's charts: no text clipped or overlapping ($LAYOUT)" \
	sh -c 'case $1 in *"outside 0; overlapping 0") ;; *) exit 1 ;; esac' - "$LAYOUT"
if [ -n "$B" ]; then
	chromium_layout "$B"
	check "the full run's charts: no text clipped or overlapping ($LAYOUT)" \
		sh -c 'case $1 in *"; texts "[1-9]*"; outside 0; overlapping 0") ;; *) exit 1 ;; esac' - "$LAYOUT"
	check "the line since the last run is styled ($LAYOUT)" \
		sh -c 'case $1 in "since rgb("*) ;; *) exit 1 ;; esac' - "$LAYOUT"
fi
finish
