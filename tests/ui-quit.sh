#!/bin/sh
# ui-quit.sh: leaving the workstation gives the shell back clean: after q,
# SIGINT (Ctrl-C), SIGTERM and SIGHUP the prompt is on a clean screen and
# the terminal modes are those from before; TERM=dumb is explained and the
# text test runs instead; without a terminal the text path runs.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

prompt_clean() {
	pc=$1
	ui_expect "$pc: the prompt is back" '^PROMPT\$ *$' 10 || return
	T_COUNT=$((T_COUNT + 1))
	last=$(ui_cap | grep -v '^ *$' | tail -1)
	case "$last" in
	'PROMPT$'*) pass "$pc: the prompt is the last line" ;;
	*) fail "$pc: the last line is '$last'" ;;
	esac
	ui_absent "$pc: the screen is the shell's again" \
		'Throughput|IRQs and queues|q.quit' \
		"$pc: the workstation is still on the screen"
	ui_keys "stty -g > $UI_TMP/after; echo STATUS:\$(cat $UI_TMP/rc)" Enter
	ui_expect "$pc: exit status $2" "^STATUS:$2" 5
	T_COUNT=$((T_COUNT + 1))
	if cmp -s "$UI_TMP/before" "$UI_TMP/after"; then
		pass "$pc: the terminal modes are restored"
	else
		fail "$pc: stty before $(cat "$UI_TMP/before"), after $(cat "$UI_TMP/after")"
	fi
	ui_keys clear Enter
	sleep 0.3
}

for term in tmux-256color vt100; do
	ui_shell 100 30
	ui_keys "export TERM=$term LC_ALL=C; stty -g > $UI_TMP/before; clear" Enter
	sleep 0.3

	# q
	ui_keys "sh -c 'echo \$\$ > $UI_TMP/pid; exec $PIPESCOPE -t 30 -b 100M'; echo \$? > $UI_TMP/rc" Enter
	ui_expect_panels "$term q"
	ui_keys q
	prompt_clean "$term q" 0

	# Ctrl-C, SIGTERM and SIGHUP
	for sig in INT TERM HUP; do
		ui_keys "sh -c 'echo \$\$ > $UI_TMP/pid; exec $PIPESCOPE -t 30 -b 100M'; echo \$? > $UI_TMP/rc" Enter
		ui_expect "$term SIG$sig: started" 'Throughput' 10
		if [ "$sig" = INT ]; then
			ui_keys C-c
		else
			kill -"$sig" "$(cat "$UI_TMP/pid")"
		fi
		# interrupted, as the text test: status 1 (issue 16 item 10)
		prompt_clean "$term SIG$sig" 1
	done

	# a crash still puts the terminal back before the core dump
	ui_keys "sh -c 'ulimit -c 0; echo \$\$ > $UI_TMP/pid; exec $PIPESCOPE -t 30 -b 100M'; echo \$? > $UI_TMP/rc" Enter
	ui_expect "$term SIGSEGV: started" 'Throughput' 10
	kill -SEGV "$(cat "$UI_TMP/pid")"
	prompt_clean "$term SIGSEGV" 139
done

# a peer that is not there: the screen says so, q exits with status 1
port=$(free_port 3)
ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE -c 127.0.0.1 -p $port -t 5"
ui_expect "no peer: the state is failed" '\[failed\]' 10
ui_expect "no peer: the reason is on the screen" 'refused' 5
ui_expect "no peer: the streams panel says the test failed" 'the test failed' 5
ui_save ui-no-peer
ui_keys q
ui_expect "no peer: q exits with status 1" 'EXIT:1' 10

# TERM=dumb: one line says why, then the test runs as text
expect_exit 0 "TERM=dumb runs the text test" -- \
	sh -c "TERM=dumb script -qec '$PIPESCOPE -t 1 -b 10M' /dev/null"
T_COUNT=$((T_COUNT + 1))
case "$OUT" in
*"cannot move the cursor"*) pass "TERM=dumb is explained" ;;
*) fail "TERM=dumb: no explanation in: $OUT" ;;
esac
T_COUNT=$((T_COUNT + 1))
case "$OUT" in
*"sender"*) pass "TERM=dumb: the text report follows" ;;
*) fail "TERM=dumb: no text report in: $OUT" ;;
esac

# a terminal type nobody knows: said, then text
expect_exit 0 "an unknown TERM runs the text test" -- \
	sh -c "TERM=ps-no-such-term script -qec '$PIPESCOPE -t 1 -b 10M' /dev/null"
T_COUNT=$((T_COUNT + 1))
case "$OUT" in
*"ps-no-such-term"*"unknown"*) pass "an unknown TERM is named" ;;
*) fail "an unknown TERM: no explanation in: $OUT" ;;
esac

# no terminal on stdout: the text path, no escape sequences
expect_exit 0 "a pipe gets text" -- sh -c "$PIPESCOPE -t 1 -b 10M | cat"
T_COUNT=$((T_COUNT + 1))
if printf '%s' "$OUT" | grep -q "$(printf '\033')"; then
	fail "a pipe got escape sequences"
else
	pass "a pipe gets no escape sequences"
fi
finish
