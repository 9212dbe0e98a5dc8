#!/bin/sh
# pscheduler-plugin.sh: contrib/pscheduler's tool, method by method, fed
# the JSON pScheduler sends (tests/fixtures/pscheduler/test-*.json and
# run.json), every answer valid against our reading of pScheduler's
# schemas (tests/fixtures/pscheduler/*.schema.json, python3-jsonschema):
#   - enumerate, can-run (three specs it runs; one it refuses, with a
#     reason for each key; another test type), duration, participant-data;
#   - run for real on 127.0.0.1, both participants (the server is
#     participant 1's run): a TCP test of 2 streams, a UDP one, a reverse
#     one; the summary is the -J document's, the diags carry the
#     --diagnose report's top finding and ceiling; merged-results;
#   - a report missing, a hostile report: diags say so or stay clean;
#   - a client with no server: a failed result, still valid.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
PY=/usr/bin/python3
[ -x "$PY" ] || skip "needs Debian's /usr/bin/python3 (apt-get install python3)"
"$PY" -c 'import jsonschema' 2>/dev/null ||
	skip "needs python3-jsonschema (apt-get install python3-jsonschema)"
scratch
trap 'kill_bg; rm -rf "$TMP"' EXIT
chmod 700 "$TMP"
# the methods' "#!/usr/bin/env python3" finds the system's python3, as on
# a perfSONAR host (not a slower wrapper earlier on PATH, such as pyenv's)
mkdir "$TMP/bin"
ln -s "$PY" "$TMP/bin/python3"
PATH=$TMP/bin:$PATH
PLUGIN=$top_srcdir/contrib/pscheduler/pipescope
FX=$top_srcdir/tests/fixtures/pscheduler
VALIDATE="$PY $top_srcdir/tests/tools/ps-jsonschema.py"
port=$(free_port 3)

# valid SCHEMA FILE WHAT [FILE...]: each FILE is valid against
# FX/SCHEMA.schema.json
valid() {
	vs=$1 vw=$3
	T_COUNT=$((T_COUNT + 1))
	shift 3
	if verr=$($VALIDATE "$FX/$vs.schema.json" "$@" 2>&1); then
		pass "$vw: valid ($vs)"
	else
		fail "$vw: not valid ($vs): $(printf '%s' "$verr" | head -5)"
	fi
}
# method NAME INPUT OUTPUT: run the plugin's method, its exit 0
method() {
	T_COUNT=$((T_COUNT + 1))
	if timeout 30 "$PLUGIN/$1" <"$2" >"$3" 2>"$3.err"; then
		pass "$1 <$(basename "$2")"
	else
		fail "$1 <$(basename "$2"): exit $? ($(head -3 "$3.err"))"
	fi
}
# ran WHAT OPTION...: the last client's command line had each OPTION
ran() {
	what=$1
	shift
	T_COUNT=$((T_COUNT + 1))
	for o; do
		case " $(cat "$KEEP/client.args") " in
		*" $o "*) ;;
		*) fail "$what: no $o in: $(cat "$KEEP/client.args")"; return ;;
		esac
	done
	pass "$what"
}
# is FILE FILTER WANT WHAT: jq -r FILTER on FILE prints WANT
is() {
	T_COUNT=$((T_COUNT + 1))
	got=$(jq -r "$2" "$1" 2>&1)
	if [ "$got" = "$3" ]; then pass "$4"; else fail "$4: '$got', wanted '$3'"; fi
}

# pipescope as the plugin runs it: the real one, each run's command line,
# -J and --diagnose report kept in $KEEP; with $REPLAY a client prints
# that -J document instead of testing and writes $REPORT as its report
# (none if empty)
cat >"$TMP/pipescope" <<'EOF'
#!/bin/sh
case "$1" in --help) exec "$REAL_PIPESCOPE" "$@" ;; esac
role=server diag= prev=
for a; do
	[ "$a" = -c ] && role=client
	[ "$prev" = --diagnose ] && diag=$a
	prev=$a
done
printf '%s\n' "$*" >"$KEEP/$role.args"
if [ -n "${REPLAY:-}" ] && [ $role = client ]; then
	[ -n "$REPORT" ] && cp "$REPORT" "$diag"
	exec cat "$REPLAY"
fi
"$REAL_PIPESCOPE" "$@" >"$KEEP/$role.out"
rc=$?
[ -n "$diag" ] && [ -f "$diag" ] && cp "$diag" "$KEEP/report.json"
cat "$KEEP/$role.out"
exit $rc
EOF
chmod +x "$TMP/pipescope"
export REAL_PIPESCOPE="$PIPESCOPE"
conf() {
	printf '[pipescope]\npipescope_cmd = %s\nserver_port = %s\n' \
		"$TMP/pipescope" "$port"
	printf 'history = %s\nserver_wait = %s\n' "$TMP/history.db" "$1"
}
conf 4 >"$TMP/tool.conf"
export PIPESCOPE_PSCHEDULER_CONF="$TMP/tool.conf"

# ---- enumerate, can-run, duration, participant-data ----
method enumerate /dev/null "$TMP/enum.json"
valid enumerate "$TMP/enum.json" "enumerate's answer"
is "$TMP/enum.json" '"\(.name) \(.tests | join(","))"' "pipescope throughput" \
	"enumerate: the pipescope tool of the throughput test"

for t in tcp udp reverse; do
	method can-run "$FX/test-$t.json" "$TMP/can-$t.json"
	valid can-run "$TMP/can-$t.json" "can-run's answer ($t)"
	is "$TMP/can-$t.json" '."can-run"' true "can-run: the $t spec runs"
done
method can-run "$FX/test-unsupported.json" "$TMP/can-no.json"
valid can-run "$TMP/can-no.json" "can-run's refusal"
is "$TMP/can-no.json" '."can-run"' false "can-run refuses the unsupported spec"
for key in single-ended single-ended-port bandwidth-strict parallel; do
	is "$TMP/can-no.json" "[.reasons[] | select(startswith(\"$key \") or startswith(\"$key:\"))] | length" 1 \
		"can-run: one reason names '$key'"
done
is "$TMP/can-no.json" '.reasons | length' 4 \
	"can-run: four reasons, none for the keys it takes (dest, bandwidth)"
method can-run "$FX/test-rtt.json" "$TMP/can-rtt.json"
valid can-run "$TMP/can-rtt.json" "can-run's refusal of an rtt test"
is "$TMP/can-rtt.json" '"\(."can-run") \(.reasons[0])"' \
	"false pipescope runs throughput tests only, not 'rtt'" \
	"can-run refuses another test type, saying so"

method duration "$FX/test-duration.json" "$TMP/dur.json"
valid duration "$TMP/dur.json" "duration's answer"
# 1 s the server's start, 2 s setup at 50 ms, 2 s + 1 s omit, 3 s the
# diagnosis, 1 s the server's exit
is "$TMP/dur.json" .duration PT10S "duration: the test, its omit and the tool's overhead"
method duration "$FX/test-tcp.json" "$TMP/dur-tcp.json"
is "$TMP/dur-tcp.json" .duration PT11S "duration: the default link RTT (200 ms)"

for p in 0 1; do
	jq -n --argjson p "$p" --slurpfile t "$FX/test-tcp.json" \
		'{participant: $p, test: $t[0]}' >"$TMP/pd$p.in"
	method participant-data "$TMP/pd$p.in" "$TMP/pd$p.json"
	valid participant-data "$TMP/pd$p.json" "participant $p's data"
done
is "$TMP/pd0.json" 'keys | join(",")' schema "participant 0 gives no port"
is "$TMP/pd1.json" '."server-port"' "$port" "participant 1 gives the configured port"
if command -v openssl >/dev/null 2>&1; then
	is "$TMP/pd1.json" '._auth as $a | $a.credentials | startswith($a.username + ",")' \
		true "participant 1 gives a login for the run"
fi

# ---- run, both participants, and merged-results ----

# pair NAME TEST: both participants' runs of FX/test-NAME.json (the
# server in the background), then merged-results, in $TMP/NAME/
pair() {
	KEEP=$TMP/$1
	export KEEP
	mkdir -p "$KEEP"
	t=$FX/test-$2.json
	for p in 0 1; do
		jq -n --argjson p "$p" --slurpfile t "$t" \
			'{participant: $p, test: $t[0]}' |
			"$PLUGIN/participant-data" >"$KEEP/pd$p.json"
	done
	start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	for p in 0 1; do
		jq --argjson p "$p" --arg start "$start" --slurpfile t "$t" \
			--slurpfile d0 "$KEEP/pd0.json" --slurpfile d1 "$KEEP/pd1.json" \
			'.schedule.start = $start | .test = $t[0] | .participant = $p
			| ."participant-data" = [$d0[0], $d1[0]]' \
			"$FX/run.json" >"$KEEP/run$p.in"
	done
	# (a job's stdin is /dev/null unless the job redirects it itself)
	bg sh -c 'exec timeout 40 "$0" <"$1" >"$2" 2>"$3"' "$PLUGIN/run" \
		"$KEEP/run1.in" "$KEEP/run1.json" "$KEEP/run1.err"
	spid=$LAST_PID
	method run "$KEEP/run0.in" "$KEEP/run0.json"
	T_COUNT=$((T_COUNT + 1))
	if wait "$spid"; then pass "$1: participant 1's run"; else
		fail "$1: participant 1's run: exit $? ($(head -3 "$KEEP/run1.err"))"
	fi
	jq -n --slurpfile t "$t" --slurpfile a "$KEEP/run0.json" \
		--slurpfile b "$KEEP/run1.json" \
		'{test: $t[0], results: [$a[0], $b[0]]}' >"$KEEP/merge.in"
	method merged-results "$KEEP/merge.in" "$KEEP/merged.json"
	valid throughput-result "$KEEP/run0.json" \
		"$1: participant 0's, participant 1's and the merged result" \
		"$KEEP/run1.json" "$KEEP/merged.json"
	M=$KEEP/merged.json J=$KEEP/client.out R=$KEEP/report.json
	is "$M" .succeeded true "$1: the run succeeded"
	is "$M" '.diags | startswith("Participant 0 ") and contains("\nParticipant 1 ")' true \
		"$1: the merged diags have both participants'"
}

# diagnosed NAME: the diags carry the report's top finding, its binding
# ceiling and both ends' readings
diagnosed() {
	title=$(jq -r '.answer.top as $t | [.findings[] | select(.id == $t)][0].title // "none"' "$R")
	T_COUNT=$((T_COUNT + 1))
	if [ "$title" != none ] &&
		jq -e --arg t "$title" '.diags | contains("Top finding: " + $t)' "$M" >/dev/null; then
		pass "$1: diags have the top finding ($title)"
	else
		fail "$1: diags lack the top finding '$title': $(jq -r .diags "$M" | head -5)"
	fi
	want=$(jq -r '.answer.binding.what // "none found"' "$R")
	is "$M" "[.diags | split(\"\n\")[] | select(startswith(\"Binding ceiling: \"))][0] | startswith(\"Binding ceiling: $want\")" \
		true "$1: diags have the binding ceiling ($want)"
	is "$M" '.diags | test("\nThis end: host .*CPU [0-9.]+% during the test\nFar end: host .*CPU [0-9.]+%")' \
		true "$1: diags have both ends' readings"
}

pair tcp tcp
ran "tcp: the client ran -P 2 -t 2 -i 1 -B 127.0.0.1" -P 2 -t 2 -i 1 -B 127.0.0.1
is "$J" '.start.test_start.num_streams' 2 "tcp: -J has 2 streams"
is "$M" '.summary.summary."throughput-bits" > 0' true "tcp: a rate"
is "$M" ".summary.summary.\"throughput-bits\" == $(jq .end.sum_sent.bits_per_second "$J")" \
	true "tcp: the summary's rate is -J's sum_sent"
is "$M" ".summary.summary.\"receiver-throughput-bits\" == $(jq .end.sum_received.bits_per_second "$J")" \
	true "tcp: the receiver's rate is -J's sum_received"
is "$M" ".summary.summary.retransmits == $(jq .end.sum_sent.retransmits "$J")" \
	true "tcp: the retransmits are -J's"
is "$M" '.summary.streams | length' 2 "tcp: two streams in the summary"
is "$M" "[.intervals[] | .streams | length] | unique | join(\",\")" 2 \
	"tcp: two streams in each interval"
is "$M" '.intervals | length' "$(jq '.intervals | length' "$J")" \
	"tcp: the intervals are -J's"
is "$M" '.mss > 0' true "tcp: the MSS"
diagnosed tcp
ran "tcp: the client records the run in the configured history" \
	--history "$TMP/history.db"
T_COUNT=$((T_COUNT + 1))
rec=$("$PIPESCOPE" history --history "$TMP/history.db" --export jsonl 2>&1 |
	tail -1 | jq -r '.pipescope_history.top_finding // empty' 2>&1)
if [ -n "$rec" ] && [ "$rec" = "$title" ]; then
	pass "tcp: the history's record has the diagnosis ($rec)"
else
	fail "tcp: the history's record has '$rec', the diags '$title'"
fi

pair udp udp
ran "udp: the client ran -u -4 -b 50000000" -u -4 -b 50000000
is "$M" ".summary.summary.\"throughput-bits\" == $(jq .end.sum.bits_per_second "$J")" \
	true "udp: the summary's rate is -J's"
is "$M" ".summary.summary | \"\(.sent) \(.lost)\"" \
	"$(jq -r '.end.sum | "\(.packets) \(.lost_packets)"' "$J")" \
	"udp: sent and lost are -J's"
is "$M" '.summary.summary.jitter >= 0' true "udp: the jitter"
is "$M" '.summary.summary | has("retransmits") or has("receiver-throughput-bits")' \
	false "udp: no TCP figures"
diagnosed udp

pair reverse reverse
ran "reverse: the client ran -R -w 4194304" -R -w 4194304
is "$M" ".summary.summary.\"throughput-bits\" == $(jq .end.sum_sent.bits_per_second "$J")" \
	true "reverse: the summary's rate is -J's sum_sent"
is "$M" '.diags | contains("Participant 1 (the server, sending)")' true \
	"reverse: the diags say the server sent"
# the intervals are the sender's (the server's): its windows and RTTs
is "$M" '[.intervals[].streams[] | has("tcp-window-size") and has("rtt")] | all' \
	true "reverse: the intervals are the sender's view"
is "$M" '."requested-tcp-window-size"' 4194304 "reverse: the window asked for"
diagnosed reverse

# ---- a report that is missing, one that is hostile ----
# (participant 0's run alone: the client replays the UDP test's -J)

# replayed NAME REPORT: participant 0's run of the UDP test, the client
# replaying its -J with REPORT as the report (none if empty), in $M
replayed() {
	KEEP=$TMP/$1
	mkdir -p "$KEEP"
	REPLAY=$TMP/udp/client.out REPORT=$2
	export REPLAY REPORT
	method run "$TMP/udp/run0.in" "$KEEP/run0.json"
	unset REPLAY REPORT
	M=$KEEP/run0.json
	valid throughput-result "$M" "$1: participant 0's result"
	is "$M" '.summary.summary."throughput-bits" > 0' true "$1: the result stands"
}
replayed missing ""
is "$M" '.diags | contains("Diagnosis: not available (the report: cannot read it")' \
	true "missing report: the diags say no diagnosis was available"

long=$(awk 'BEGIN { while (i++ < 3000) printf "A" }')
sed "s/filled in by the test: a very long title/$long/" \
	"$FX/hostile-report.json" >"$TMP/hostile.json"
replayed hostile "$TMP/hostile.json"
jq -r .diags "$M" >"$TMP/hostile.diags"
T_COUNT=$((T_COUNT + 1))
if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$TMP/hostile.diags" ||
	grep -q "$(printf '\342\200\256')" "$TMP/hostile.diags"; then
	fail "hostile report: control characters reached the diags"
else
	pass "hostile report: no control characters in the diags"
fi
is "$M" '[.diags | split("\n")[] | select(startswith("Top finding: "))][0] | length < 450' \
	true "hostile report: the title is cut"
is "$M" '.diags | contains("Binding ceiling: none found")' true \
	"hostile report: a binding that is no object is none"
is "$M" '.diags | contains("Far end: no readings")' true \
	"hostile report: a far end that is no object is none"
is "$M" '.diags | test("rm -rf|9 Tbit|MTU|line rate|kernel")' false \
	"hostile report: values of the wrong type are left out"
is "$M" '.diags | contains("This end: host near end, iface eth0 [31m")' true \
	"hostile report: this end's text, cleaned"

# ---- merged-results with a server that failed, a client with no server ----
jq '.results[1] = {"succeeded": false, "error": 3, "diags": ["x"], "intervals": "no"}' \
	"$TMP/tcp/merge.in" >"$TMP/merge-bad.in"
method merged-results "$TMP/merge-bad.in" "$TMP/merge-bad.json"
valid throughput-result "$TMP/merge-bad.json" "merged result of a broken server result"
is "$TMP/merge-bad.json" .succeeded true "the client's result stands without the server's"

conf 1 >"$TMP/tool.conf"
KEEP=$TMP/alone
mkdir -p "$KEEP"
jq --arg start "$(date -u +%Y-%m-%dT%H:%M:%SZ)" '.schedule.start = $start' \
	"$TMP/tcp/run0.in" >"$KEEP/run0.in"
method run "$KEEP/run0.in" "$KEEP/run0.json"
valid throughput-result "$KEEP/run0.json" "the result of a client with no server"
is "$KEEP/run0.json" '"\(.succeeded) \(.error | test("Connection refused"))"' \
	"false true" "no server: the run failed, saying why"
finish
