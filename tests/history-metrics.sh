#!/bin/sh
# history-metrics.sh: "pipescope history --export openmetrics" on a real
# history (1 s tests on 127.0.0.1 against a server of this test: TCP, TCP
# again, reverse, UDP; a static check of this host's snapshot read from a
# pipe, and of a recorded machine's for a binding ceiling), read by real
# parsers: python3-prometheus-client's text parser (the classic format
# node_exporter's textfile collector reads) and its OpenMetrics parser,
# promtool's lint when it is on PATH. Every value is compared with the
# history's own JSON (history --export jsonl), worked out here on its own:
# the newest run per target, protocol and direction, the newest check per
# target. Then a hostile file: targets and a title with control bytes,
# quotes, backslashes, line breaks, invalid UTF-8 and 1000 bytes.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
# Debian's python3 (the one on PATH may be another without Debian's modules)
PY=/usr/bin/python3
[ -x "$PY" ] || skip "needs /usr/bin/python3 (apt-get install python3)"
"$PY" -c 'import prometheus_client.parser, prometheus_client.openmetrics.parser' 2>/dev/null ||
	skip "needs prometheus_client (apt-get install python3-prometheus-client)"
need_cmd jq jq
scratch
H=$TMP/h.db

port=$(free_port 31)
bg sh -c 'exec "$0" -s -p "$1" >/dev/null 2>&1' "$PIPESCOPE" "$port"
wait_listen "$port" || { fail "the server does not listen on $port"; finish; }
run() { "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 1 --no-tui --history "$H" "$@" >/dev/null; }
expect_exit 0 "a TCP test" -- run
expect_exit 0 "a reverse test" -- run -R
expect_exit 0 "a UDP test" -- run -u -b 20M
expect_exit 0 "a second TCP test (newer: its rate is the one)" -- run
kill_bg
# the static check reads the snapshot from a pipe, as <(...) gives it
if command -v bash >/dev/null 2>&1; then
	expect_exit 0 "a static check of this host's snapshot (a pipe)" -- \
		bash -c '"$1" check --snapshot <("$1" probe --json) --history "$2"' \
		sh "$PIPESCOPE" "$H"
else
	"$PIPESCOPE" probe --json >"$TMP/snap.json"
	expect_exit 0 "a static check of this host's snapshot" -- \
		"$PIPESCOPE" check --snapshot "$TMP/snap.json" --history "$H"
fi
tree=$MACHINES/pcie-downgraded
if [ -d "$tree/sys" ]; then
	"$PIPESCOPE" probe --sysroot "$tree" --iface enp5s0f0 --json >"$TMP/pcie.json"
	expect_exit 3 "a static check of a recorded machine (a bottleneck)" -- \
		"$PIPESCOPE" check --snapshot "$TMP/pcie.json" --history "$H"
	want_ceiling=1
else
	echo "note: no recorded machines (a tarball): no binding ceiling checked"
	want_ceiling=0
fi

# compare: exposition, the history's jsonl, whether a ceiling is wanted
cat >"$TMP/compare.py" <<'EOF'
import json, math, re, sys
from prometheus_client.parser import text_string_to_metric_families as classic
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om

text = open(sys.argv[1], encoding="utf-8").read()
recs = [json.loads(l)["pipescope_history"] | {"doc": json.loads(l)}
        for l in open(sys.argv[2], encoding="utf-8") if l.strip()]
want_ceiling = sys.argv[3] == "1"
bad = []

# the format: gauges with help and type, no timestamp, no control byte,
# no blank line, "# EOF" last
if not text.endswith("# EOF\n") or text.count("# EOF") != 1:
    bad.append("does not end with one '# EOF'")
if re.search(r"[\x00-\x09\x0b-\x1f\x7f]", text):
    bad.append("a control byte")
if "\n\n" in text:
    bad.append("a blank line")
got = {}
fams = list(classic(text))
for f in fams:
    if not f.name.startswith("pipescope_"):
        bad.append("not under pipescope_: " + f.name)
    if f.type != "gauge" or not f.documentation:
        bad.append("%s: type %s, help %r" % (f.name, f.type, f.documentation))
    for s in f.samples:
        if s.timestamp is not None:
            bad.append("a sample timestamp: " + s.name)
        key = (s.name, tuple(sorted(s.labels.items())))
        if key in got:
            bad.append("twice: %s" % (key,))
        got[key] = s.value
om_n = sum(len(f.samples) for f in om(text))
if om_n != len(got):
    bad.append("OpenMetrics read %d samples, the classic parser %d" % (om_n, len(got)))

# what the history says, worked out here
def num(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0 else None

want = {}
def put(name, labels, v):
    if v is not None:
        want[(name, tuple(sorted(labels.items())))] = v

newest = {}
checks = {}
for r in sorted(recs, key=lambda r: (r["time_ns"], r["id"])):
    if r["kind"] in ("check", "static"):
        checks[r.get("target") or r["host"]] = r
        continue
    end = r["doc"].get("end", {})
    dirs = {"forward": [("out", "")], "reverse": [("in", "")],
            "bidir": [("out", ""), ("in", "_bidir_reverse")]}[r["direction"]]
    for d, sfx in dirs:
        newest[(r["target"], r["protocol"], d)] = (r, end, sfx)
for (t, p, d), (r, end, sfx) in newest.items():
    lab = {"target": t, "protocol": p, "direction": d}
    rx = end.get("sum_received" + sfx, {})
    put("pipescope_throughput_bytes_per_second", lab, num(rx.get("bits_per_second")) / 8)
    if p == "tcp":
        put("pipescope_tcp_retransmitted_segments", lab, num(end.get("sum_sent" + sfx, {}).get("retransmits")))
    elif rx.get("packets"):
        put("pipescope_udp_loss_ratio", lab, rx["lost_packets"] / rx["packets"])
    put("pipescope_run_timestamp_seconds", lab, r["time_ns"] // 1000000 / 1000)
    put("pipescope_run_id", lab, r["id"])
for t, r in checks.items():
    a = r["check"]["answer"]
    put("pipescope_check_timestamp_seconds", {"target": t}, r["time_ns"] // 1000000 / 1000)
    put("pipescope_check_run_id", {"target": t}, r["id"])
    put("pipescope_check_bottleneck", {"target": t}, int(a["bottleneck"]))
    if "binding" in a:
        put("pipescope_binding_ceiling_bytes_per_second",
            {"target": t, "ceiling": a["binding"]["id"]}, a["binding"]["bps"] / 8)
    if "top" in a:
        f = [f for f in r["check"]["findings"] if f["id"] == a["top"]][0]
        put("pipescope_top_finding_info", {"target": t, "finding": a["top"],
            "severity": f["severity"], "title": f["title"]}, 1)

for k in sorted(set(want) | set(got)):
    if k not in got:
        bad.append("missing: %s = %s" % (k, want[k]))
    elif k not in want:
        bad.append("not in the history: %s = %s" % (k, got[k]))
    elif not math.isclose(got[k], want[k], rel_tol=1e-12, abs_tol=1e-9):
        bad.append("%s: %r, the history says %r" % (k, got[k], want[k]))
names = {k[0] for k in got}
for n in ("pipescope_throughput_bytes_per_second", "pipescope_tcp_retransmitted_segments",
          "pipescope_udp_loss_ratio", "pipescope_run_timestamp_seconds",
          "pipescope_top_finding_info") + (("pipescope_binding_ceiling_bytes_per_second",) if want_ceiling else ()):
    if n not in names:
        bad.append("no " + n)
dirs = {dict(k[1]).get("direction") for k in got if k[0] == "pipescope_throughput_bytes_per_second"}
if dirs != {"out", "in"}:
    bad.append("directions %s, wanted out and in" % sorted(d for d in dirs if d))
print("%d samples in %d families; %d values compared" % (len(got), len(fams), len(want)))
for b in bad:
    print("BAD:", b)
sys.exit(1 if bad else 0)
EOF

expect_exit 0 "history --export openmetrics" -- "$PIPESCOPE" history --history "$H" --export openmetrics
printf '%s\n' "$OUT" >"$TMP/m.prom"
"$PIPESCOPE" history --history "$H" --export jsonl >"$TMP/h.jsonl"
T_COUNT=$((T_COUNT + 1))
if "$PY" "$TMP/compare.py" "$TMP/m.prom" "$TMP/h.jsonl" "$want_ceiling" >"$TMP/cmp.out" 2>&1; then
	pass "parsed (classic and OpenMetrics), every value as the history's JSON: $(head -1 "$TMP/cmp.out")"
else
	fail "the exposition against the history: $(cat "$TMP/cmp.out")"
fi
# the test can fail: a value off by one in the history's JSON is seen
sed 's/"retransmits":\([0-9]*\)/"retransmits":1\1/g' "$TMP/h.jsonl" >"$TMP/off.jsonl"
T_COUNT=$((T_COUNT + 1))
if "$PY" "$TMP/compare.py" "$TMP/m.prom" "$TMP/off.jsonl" "$want_ceiling" >/dev/null 2>&1; then
	fail "the comparison does not see changed retransmits"
else
	pass "the comparison sees a changed value"
fi
if command -v promtool >/dev/null 2>&1; then
	expect_exit 0 "promtool check metrics" -- sh -c 'promtool check metrics <"$1"' sh "$TMP/m.prom"
else
	echo "note: no promtool on PATH (Debian's prometheus package, 96 MB with a server): not linted"
fi
# -c HOST: that target only
expect_exit 0 "history -c 127.0.0.1 --export openmetrics" -- \
	"$PIPESCOPE" history -c 127.0.0.1 --history "$H" --export openmetrics
check "-c keeps the target's series only" \
	test "$(printf '%s\n' "$OUT" | grep -c '^pipescope_check_')" = 0
check "-c keeps its rates" \
	test "$(printf '%s\n' "$OUT" | grep -c '^pipescope_throughput_bytes_per_second{target="127.0.0.1"')" = 3
# no history yet: a whole, empty exposition
expect_exit 0 "no history file" -- "$PIPESCOPE" history --history "$TMP/none.db" --export openmetrics
check "no history: only '# EOF'" test "$OUT" = "# EOF"
expect_exit 2 "an unknown export format" -- "$PIPESCOPE" history --history "$H" --export prom
case "$ERR" in *openmetrics*) ;; *) fail "the error does not name openmetrics: $ERR" ;; esac

# a hostile file: its strings reach labels sanitised, bounded and escaped
if command -v sqlite3 >/dev/null 2>&1; then
	cp "$H" "$TMP/bad.db"
	long=$(printf '%01000d' 0 | tr 0 x)
	sqlite3 "$TMP/bad.db" "UPDATE runs SET target = 'a\"b\\c' || char(10) || 'd' || char(27) || '[2J' || char(13) WHERE id = 1;
		UPDATE runs SET target = CAST(X'68FFC3' AS TEXT) WHERE id = 2;
		UPDATE runs SET target = '$long' WHERE id = 3;
		UPDATE documents SET check_report = json_set(check_report, '$.findings[0].title',
			'x' || char(10) || '} 1' || char(10) || 'evil{a=\"' || char(0) || '\"} 2') WHERE run = 5;" 2>"$TMP/sqlite.err" ||
		fail "sqlite3 could not make the hostile file: $(cat "$TMP/sqlite.err")"
	expect_exit 0 "history --export openmetrics of a hostile file" -- \
		"$PIPESCOPE" history --history "$TMP/bad.db" --export openmetrics
	printf '%s\n' "$OUT" >"$TMP/bad.prom"
	T_COUNT=$((T_COUNT + 1))
	if "$PY" - "$TMP/bad.prom" >"$TMP/bad.out" 2>&1 <<'EOF'; then
import re, sys
from prometheus_client.parser import text_string_to_metric_families as classic
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
text = open(sys.argv[1], "rb").read()
assert not re.search(rb"[\x00-\x09\x0b-\x1f\x7f]", text), "a control byte"
text = text.decode("utf-8")
assert text.endswith("# EOF\n")
for line in text.splitlines():
    assert line.startswith("#") or line.startswith("pipescope_"), "a line not ours: %r" % line
fams = list(classic(text))
om_n = sum(len(f.samples) for f in om(text))
n = sum(len(f.samples) for f in fams)
assert n == om_n, (n, om_n)
targets = {s.labels["target"] for f in fams for s in f.samples}
for t in targets:
    assert len(t.encode()) <= 255, len(t.encode())
assert any(t.startswith('a"b\\c\\x0ad') for t in targets), targets
assert "h??" in targets, targets
assert any(t.startswith("xxxx") for t in targets), targets
titles = [s.labels["title"] for f in fams for s in f.samples if "title" in s.labels]
assert any(t.startswith("x\\x0a} 1\\x0aevil{a=\"") for t in titles), titles
assert not any(f.name.startswith("evil") for f in fams)
print("%d samples, %d targets" % (n, len(targets)))
EOF
		pass "hostile labels: parsed, no control byte, bounded: $(cat "$TMP/bad.out")"
	else
		fail "hostile labels: $(cat "$TMP/bad.out")"
	fi
	if command -v promtool >/dev/null 2>&1; then
		expect_exit 0 "promtool on the hostile file's metrics" -- sh -c 'promtool check metrics <"$1"' sh "$TMP/bad.prom"
	fi
else
	echo "note: no sqlite3: the hostile file is not made"
fi
finish
