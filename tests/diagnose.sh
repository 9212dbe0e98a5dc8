#!/bin/sh
# diagnose.sh: --diagnose FILE judges the one test a scheduler asked for
# (pScheduler's pipescope tool runs it so): real tests on 127.0.0.1
# against a real pipescope server, and the self-test:
#   - FILE is check's JSON report of one step, of the test's shape (its
#     streams and direction; UDP's step), whose rate is the -J document's
#     own, and the far end (a pipescope server) is in it;
#   - the -J document on stdout is whole, and the test's record in the
#     history carries the same report and its top finding;
#   - a test that fails still writes FILE, its one step failed with why;
#   - a FILE that cannot be written fails the run, nothing half-written;
#   - --diagnose with two targets, with check, with -s: usage errors.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
scratch
trap 'kill_bg; rm -rf "$TMP"' EXIT
chmod 700 "$TMP"
H=$TMP/h.db
port=$(free_port 1)
bg "$PIPESCOPE" -s -p "$port" >"$TMP/srv.out" 2>&1
wait_listen "$port" || { fail "no server on $port"; finish; }

# NAME WANT_ID STREAMS ARGS...: one test with --diagnose
n=0
judged() {
	name=$1 wid=$2 streams=$3
	shift 3
	n=$((n + 1))
	f=$TMP/d$n.json
	expect_exit 0 "$name: the test with --diagnose" -- timeout 30 \
		"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 1 -J --diagnose "$f" \
		--history "$H" "$@" || return
	printf '%s\n' "$OUT" >"$TMP/j$n.json"
	check "$name: -J's document is whole" jq -e '.end' "$TMP/j$n.json" >/dev/null
	check "$name: FILE is check's report" jq -e '.schema and .answer and (.findings | type == "array")' "$f" >/dev/null
	check "$name: one step, '$wid' ($(jq -c '[.steps[] | .id]' "$f"))" \
		[ "$(jq -r '[.steps[] | .id] | join(",")' "$f")" = "$wid" ]
	check "$name: the step is done with $streams stream(s)" \
		[ "$(jq -r '.steps[0] | "\(.state) \(.streams)"' "$f")" = "done $streams" ]
	# the step's rate is what the receivers counted: -J's sum_received
	# (UDP: what arrived, by the receiver's count)
	j=$(jq -r 'if .start.test_start.protocol == "UDP"
		then (.end.sum.bytes * (1 - (.end.sum.lost_percent // 0) / 100) * 8 / .end.sum.seconds)
		else .end.sum_received.bits_per_second end' "$TMP/j$n.json")
	s=$(jq -r '.steps[0].bps' "$f")
	check "$name: the step's rate $s is the test's $j (within 2%)" \
		awk -v a="$s" -v b="$j" 'BEGIN { exit !(b > 0 && a / b > 0.98 && a / b < 1.02) }'
	check "$name: the far end is a pipescope server whose readings came" \
		jq -e '.far_end.hostname and .peer.kind == "pipescope" and (.findings | length) > 0' "$f" >/dev/null
}

judged "tcp -P 2" sweep 2 -P 2
judged "reverse" reverse 1 -R
judged "udp" udp 1 -u -b 50M

# the history: each test's record carries its report and top finding
"$PIPESCOPE" history --history "$H" --export jsonl >"$TMP/h.jsonl" 2>"$TMP/h.err"
check "the history has the three tests" [ "$(wc -l <"$TMP/h.jsonl")" = 3 ]
i=0
while read -r line; do
	i=$((i + 1))
	f=$TMP/d$i.json
	top=$(jq -r '.answer.top as $t | [.findings[] | select(.id == $t) | .title][0] // ""' "$f")
	rec_top=$(printf '%s\n' "$line" | jq -r '.pipescope_history.top_finding // ""')
	check "record $i: its top finding is the report's ('$rec_top')" \
		[ -n "$top" ] && [ "$rec_top" = "$top" ]
	check "record $i: its check is the report" sh -c \
		'[ "$(printf "%s\n" "$1" | jq -c ".pipescope_history.check.answer")" = "$(jq -c .answer "$2")" ]' - "$line" "$f"
done <"$TMP/h.jsonl"
expect_exit 0 "compare reads two judged tests" -- "$PIPESCOPE" compare 1 3 --history "$H"

# both directions at once: one step "bidir", and the record's rate is
# what both receivers counted (it was one direction's)
expect_exit 0 "bidir: the test with --diagnose" -- timeout 30 \
	"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 1 -J --bidir \
	--diagnose "$TMP/bidir.json" --history "$TMP/b.db"
printf '%s\n' "$OUT" >"$TMP/bidir-j.json"
check "bidir: one step, bidir" [ "$(jq -r '[.steps[] | .id] | join(",")' "$TMP/bidir.json")" = bidir ]
want=$(jq -r '.end.sum_received.bits_per_second + .end.sum_received_bidir_reverse.bits_per_second' "$TMP/bidir-j.json")
got=$("$PIPESCOPE" history --history "$TMP/b.db" --format json | jq -r '.[0].bits_per_second')
check "bidir: the record's rate $got is both directions' $want" \
	awk -v a="$got" -v b="$want" 'BEGIN { exit !(b > 0 && a / b > 0.999 && a / b < 1.001) }'

# the self-test: the far end is this process, one step on lo
expect_exit 0 "the self-test with --diagnose" -- timeout 30 \
	"$PIPESCOPE" --no-tui -t 1 --diagnose "$TMP/self.json" --no-history
check "the self-test's report is a loopback one of one step" \
	[ "$(jq -r '"\(.mode) \(.steps | length) \(.steps[0].state)"' "$TMP/self.json")" = "loopback 1 done" ]

# a test that fails: FILE still says what happened
dead=$(free_port 2)
expect_exit 1 "a test to a dead port fails" -- timeout 30 \
	"$PIPESCOPE" -c 127.0.0.1 -p "$dead" -t 1 --diagnose "$TMP/fail.json" --no-history
check "its report has the one step failed, with why ($(jq -r '.steps[0].note' "$TMP/fail.json" 2>/dev/null))" \
	jq -e '.steps[0].state == "failed" and (.steps[0].note | test("connect|refused"))' "$TMP/fail.json" >/dev/null

# a FILE that cannot be written: the run fails, says why, leaves nothing
mkdir "$TMP/ro"
chmod 500 "$TMP/ro"
if [ "$(id -u)" != 0 ]; then
	expect_exit 1 "an unwritable FILE fails the run" -- timeout 30 \
		"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.5 --diagnose "$TMP/ro/x.json" --no-history
	check "it is left out, nothing in the folder" [ -z "$(ls -A "$TMP/ro")" ]
fi
expect_exit 1 "a FILE in a folder that does not exist fails the run" -- timeout 30 \
	"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 0.5 --diagnose "$TMP/none/x.json" --no-history
check "and says why in one line ($ERR)" \
	sh -c 'printf "%s\n" "$1" | grep -q -- "--diagnose: cannot write .*none/x.json"' - "$ERR"

# usage errors
expect_exit 2 "--diagnose with two targets" -- \
	"$PIPESCOPE" -c 127.0.0.1 -c 127.0.0.2 --diagnose "$TMP/x"
expect_exit 2 "--diagnose with check" -- "$PIPESCOPE" check --diagnose "$TMP/x"
expect_exit 2 "--diagnose with -s" -- "$PIPESCOPE" -s --diagnose "$TMP/x"
check "no usage error left a file" [ ! -e "$TMP/x" ]
finish
