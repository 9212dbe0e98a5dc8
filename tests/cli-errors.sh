#!/bin/sh
# cli-errors.sh: the real binary answers bad input with one line and exit 2,
# and --help / --version work.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

expect_exit 0 "--version" -- "$PIPESCOPE" --version &&
	case "$OUT" in "pipescope "[0-9]*) ;; *) fail "--version printed '$OUT'" ;; esac
expect_exit 0 "--help" -- "$PIPESCOPE" --help &&
	for w in "--bidir" "--no-tui" "--sysroot" "--iface" "probe" "check" "--max-tests"; do
		echo "$OUT" | grep -q -- "$w" || fail "--help does not mention $w"
	done

# each: expected word in the message | arguments
while IFS='|' read -r word args; do
	[ -n "$word" ] || continue
	# shellcheck disable=SC2086
	expect_exit 2 "bad: $args" -- "$PIPESCOPE" $args || continue
	lines=$(printf '%s\n' "$ERR" | wc -l)
	[ "$lines" -eq 1 ] || fail "'$args' printed $lines lines on stderr: $ERR"
	case "$ERR" in
	"pipescope: "*"$word"*) ;;
	*) fail "'$args': message '$ERR' does not name '$word'" ;;
	esac
	[ -z "$OUT" ] || fail "'$args' printed on stdout: $OUT"
done <<'LIST'
--bogus|--bogus
-x|-x
-P|-c 127.0.0.1 -P 0
-P|-c 127.0.0.1 -P 100000
-P|-c 127.0.0.1 -P
-t|-c 127.0.0.1 -t -5
-b|-c 127.0.0.1 -b 12X
unknown unit|-c 127.0.0.1 -b 12X
-n|-c 127.0.0.1 -n 3Z
-w|-c 127.0.0.1 -w lots
-c and -s|-c 127.0.0.1 -s
-c and -s|-s -c 127.0.0.1
-p|-s -p 70000
-R|-c 127.0.0.1 -R --bidir
--format|check --format pdf
--rules|--rules
--rules|check --rules -c 127.0.0.1
--rules|check --rules --snapshot x.json
--rules|check --rules -t 2
--rules|check --rules --format html
probe|probe -c 127.0.0.1
unexpected argument|-c 127.0.0.1 stray
--dscp|-c 127.0.0.1 --dscp bogus
--dscp|-c 127.0.0.1 --dscp 64
-L|-c 127.0.0.1 -L 0x100000
--cntl-ka|-c 127.0.0.1 --cntl-ka=5/5/5
--debug|-c 127.0.0.1 --debug=7
--format|-c 127.0.0.1 --format x
client|-s --dscp ef
client|-s -L 5
LIST

# iperf3's deprecated options: accepted, and stderr says so (the test does
# not run: port 9 on loopback refuses at once)
for dep in "--pacing-timer 1000|--pacing-timer" "--no-fq-socket-pacing|--no-fq-socket-pacing"; do
	args=${dep%%|*} word=${dep#*|}
	# shellcheck disable=SC2086
	expect_exit 1 "deprecated $args is accepted" -- timeout 10 "$PIPESCOPE" -c 127.0.0.1 -p 9 -t 1 $args
	case "$ERR" in
	*"pipescope: $word"*) pass "$args: stderr says so" ;;
	*) fail "$args: no word on stderr: $ERR" ;;
	esac
done

# nothing half-started: a bad option after a good server request does not listen
expect_exit 2 "server with a bad option exits at once" -- timeout 5 "$PIPESCOPE" -s -p 5999 -P 3
finish
