#!/bin/sh
# compare-html.sh: "pipescope compare --format html" on real history files:
# two checks of saved snapshots that differ in rings, an offload and a
# sysctl (one with a hostile host name) give one self-contained page that
# names exactly those, escaped, each value with its unit; two real tests in
# a namespace of our own (tso switched off, a sysctl set and a tbf's rate
# raised between them, two streams each) give the changes in words and
# the bars of the sums and of each stream, --plot DIR writes the chart as
# DIR/compare.svg; every inline SVG is well-formed (xmllint) and headless
# Chromium renders the page (not blank, the bars' colours).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd xmllint libxml2-utils
need_cmd python3 python3
need_cmd jq jq
scratch
N=
trap 'kill_bg; [ -z "$N" ] || ip netns del "$N" 2>/dev/null; rm -rf "$TMP"' EXIT

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}

# ---- the command line ------------------------------------------------------
expect_exit 2 "compare --format markdown is a bad command line" -- \
	"$PIPESCOPE" compare --format markdown --history "$TMP/none.db"
expect_exit 2 "history --format html is a bad command line" -- \
	"$PIPESCOPE" history --format html --history "$TMP/none.db"

# ---- saved snapshots: rings, an offload, a sysctl; a hostile host name ------
hostile='<script>alert("x")</script> '"'"'&'
"$PIPESCOPE" probe --json --iface lo >"$TMP/a0.json" 2>/dev/null
rings='{"status":"ok","rx":{"current":$rx,"max":4096},"tx":{"current":256,"max":4096}}'
# (the offloads are read back from the kernel's features: tso is the
# tx-tcp*-segmentation ones)
tso='.ethtool.features.all |= with_entries(if (.key | test("^tx-tcp.*segmentation$")) then .value.active = $on | .value.wanted = $on else . end)'
jq --argjson rx 256 --argjson on true ".ethtool.rings = $rings | $tso |
	.sysctl.values[\"net.core.rmem_max\"].value = 212992" \
	"$TMP/a0.json" >"$TMP/a.json"
jq --argjson rx 4096 --argjson on false --arg h "$hostile" \
	".ethtool.rings = $rings | $tso |
	.sysctl.values[\"net.core.rmem_max\"].value = 4194304 |
	.host.hostname = (\$h + \"\u001b[31m\")" \
	"$TMP/a0.json" >"$TMP/b.json"
C=$TMP/c.db
"$PIPESCOPE" check --snapshot "$TMP/a.json" --history "$C" >/dev/null 2>&1
"$PIPESCOPE" check --snapshot "$TMP/b.json" --history "$C" >/dev/null 2>&1
expect_exit 0 "compare --format html of the two checks" -- \
	"$PIPESCOPE" compare --history "$C" --format html
printf '%s\n' "$OUT" >"$TMP/static.html"
self_contained "$TMP/static.html" "the page"
check "the page is HTML" grep -q '^<!DOCTYPE html>' "$TMP/static.html"
check "the page's CSP fetches nothing" \
	grep -q "Content-Security-Policy\" content=\"default-src 'none'" \
	"$TMP/static.html"
changed=$(sed -n 's|.*<td class="what">\([^<]*\)</td><td class="before">\([^<]*\)</td><td class="after">\([^<]*\)</td>.*|\1: \2 -> \3|p' "$TMP/static.html" | tr '\n' ';')
check "the page names exactly the ring, the offload and the sysctl ($changed)" \
	[ "$changed" = "offload tso: on -> off;rx ring: 256 entries -> 4096 entries;net.core.rmem_max: 208 KiB -> 4 MiB;" ]
check "and the finding that appeared" \
	grep -q '<li class="appeared"><code>offloads_off</code>' "$TMP/static.html"
check "the hostile host name escaped" \
	grep -qF '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &#39;&amp;' \
	"$TMP/static.html"
T_COUNT=$((T_COUNT + 1))
if LC_ALL=C grep -q "$(printf '\033')" "$TMP/static.html"; then
	fail "a control byte reached the page"
else
	pass "no control byte in the page"
fi
check "checks have no rate: the chart says so" \
	grep -q '<text class="no-data"' "$TMP/static.html"
inline_svgs_valid "$TMP/static.html" "the static page"
check "the static page has its chart ($INLINE)" [ "$INLINE" = 1 ]
: >"$TMP/file"
T_COUNT=$((T_COUNT + 1))
"$PIPESCOPE" compare --history "$C" --plot "$TMP/file" >"$TMP/out" \
	2>"$TMP/err" && rc=0 || rc=$?
if [ "$rc" = 1 ] && [ "$(wc -l <"$TMP/err")" = 1 ] &&
	grep -q '^pipescope: --plot ' "$TMP/err" && [ ! -s "$TMP/out" ]; then
	pass "a bad --plot DIR: one line, exit 1"
else
	fail "a bad --plot DIR: exit $rc, stderr: $(head -3 "$TMP/err")"
fi

# ---- two real tests, tso and a sysctl changed between them -----------------
if [ "$(id -u)" != 0 ] || ! command -v ethtool >/dev/null ||
	! ip netns add "psc$$" 2>/dev/null; then
	[ "$T_FAILS" -eq 0 ] || finish
	skip "two tests in a namespace need root, ethtool and ip netns"
fi
N=psc$$
netns_watched $N
port=$(free_port 1)
netns_server $N "$port"
T=$TMP/t.db
expect_exit 0 "a test with two streams" -- ip netns exec $N \
	"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 1 -P 2 --iface va --no-tui \
	--history "$T"
ip netns exec $N ethtool -K va tso off
tbf_rate $N 900mbit
ip netns exec $N sysctl -qw net.ipv4.tcp_mtu_probing=1
expect_exit 0 "the same test after the change" -- ip netns exec $N \
	"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 1 -P 2 --iface va --no-tui \
	--history "$T"
mkdir "$TMP/plots"
expect_exit 0 "compare --format html --plot DIR of the two tests" -- \
	"$PIPESCOPE" compare --history "$T" --format html --plot "$TMP/plots"
printf '%s\n' "$OUT" >"$TMP/report.html"
cp "$TMP/report.html" "$(artifacts)/compare-report.html" 2>/dev/null
self_contained "$TMP/report.html" "the tests' page"
check "the bars: the sums and each stream, both runs (6)" [ \
	"$(grep -c '<rect class="bar"' "$TMP/report.html")" = 6 ]
check "each pair of bars has its change or noise" [ \
	"$(grep -Ec '<text class="group-note"[^>]*>(noise \()?[+-][0-9]+\.[0-9]%' "$TMP/report.html")" = 3 ]
check "the change is said under the chart" \
	grep -Eq '<p class="change( noise)?">rate change: [+-][0-9.]+%</p>' \
	"$TMP/report.html"
check "the page names the offload" \
	grep -q '<td class="what">offload tso</td><td class="before">on</td><td class="after">off</td>' \
	"$TMP/report.html"
check "and the sysctl" \
	grep -q '<td class="what">net.ipv4.tcp_mtu_probing</td><td class="before">off</td><td class="after">on after a black hole</td>' \
	"$TMP/report.html"
check "and the tbf by its kind, handle and device, its rate in Mbit/s" \
	grep -q '<td class="what">tbf 8009: on va: rate</td><td class="before">600 Mbit/s</td><td class="after">900 Mbit/s</td>' \
	"$TMP/report.html"
inline_svgs_valid "$TMP/report.html" "the tests' page"
check "--plot wrote compare.svg, and only it" \
	[ "$(ls -A "$TMP/plots")" = compare.svg ]
check "compare.svg is well-formed" xmllint --noout "$TMP/plots/compare.svg"
check "compare.svg has the six bars" [ \
	"$(grep -c '<rect class="bar"' "$TMP/plots/compare.svg")" = 6 ]
sed 's|xmlns="http://www.w3.org/2000/svg"||' "$TMP/plots/compare.svg" >"$TMP/nons.svg"
self_contained "$TMP/nons.svg" "compare.svg"

# ---- in a real browser ------------------------------------------------------
if [ -z "$CHROMIUM" ]; then
	[ "$T_FAILS" -eq 0 ] || finish
	skip "no chromium (apt-get install chromium): the page was checked, not rendered"
fi
chromium_page "$TMP/report.html" --screenshot="$TMP/shot.png" \
	--force-device-scale-factor=0.5 >/dev/null
check "chromium took a screenshot" test -s "$TMP/shot.png"
cp "$TMP/shot.png" "$(artifacts)/compare-report.png" 2>/dev/null
T_COUNT=$((T_COUNT + 1))
if res=$(python3 "$top_srcdir/tests/tools/ps-pngcheck.py" "$TMP/shot.png"); then
	pass "the screenshot shows the page: $res"
else
	fail "the screenshot looks blank: $res"
fi
chromium_page "$TMP/report.html" --dump-dom >"$TMP/dom.html"
check "the browser's DOM has the chart" grep -q 'id="chart-compare"' "$TMP/dom.html"
check "the browser's DOM has the bars" [ \
	"$(grep -o '<rect class="bar"' "$TMP/dom.html" | wc -l)" = 6 ]
check "the browser ran no script" sh -c "! grep -qi '<script' '$TMP/dom.html'"
finish
