#!/bin/sh
# completion.sh: contrib/completion/pipescope in a real bash, with
# bash-completion's helpers loaded (as installed) and without (sourced from
# a .bashrc): COMP_WORDS and COMP_CWORD set as bash sets them, _pipescope
# called, COMPREPLY read. The sub-commands; each sub-command's options
# exactly as its --help lists them (tests/tools/ps-help-options.py: an
# option --help gains and the completion lacks fails, and one it offers
# that --help dropped); the options that take a value; interfaces from
# /sys/class/net (and a --sysroot tree); compare's run ids from a real
# history of two 1 s tests on 127.0.0.1 (--history FILE, --history=FILE,
# $PIPESCOPE_HISTORY); each sub-command's formats; files and folders.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd bash bash
# Debian's python3 (a pyenv one on PATH starts slower by a second)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
need_cmd "$PY" python3
COMPLETION=$top_srcdir/contrib/completion/pipescope
HELPOPTS=$top_srcdir/tests/tools/ps-help-options.py
BC=/usr/share/bash-completion/bash_completion
scratch

# comp MODE WORD...: the candidates for the last WORD (COMP_WORDS as bash
# splits the line: "--history=F" is "--history" "=" "F"), sorted, one a
# line; MODE bc: with bash-completion loaded, plain: without
comp() {
	_mode=$1
	shift
	bash --norc --noprofile -c '
		[ "$1" = bc ] && . "$2"
		. "$3"
		shift 3
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		# the line as typed: no blank around "=" (bash-completion reads it)
		COMP_LINE="$*"
		COMP_LINE=${COMP_LINE// = /=}
		COMP_POINT=${#COMP_LINE}
		_pipescope pipescope "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' bash "$_mode" "$BC" "$COMPLETION" \
		"$PIPESCOPE" "$@" 2>"$TMP/comp.err" | sed '/^$/d' | LC_ALL=C sort -u
}

# same MODE WHAT WANT-FILE WORD...: the candidates are those of the file
same() {
	_m=$1 _what=$2 _want=$3
	shift 3
	comp "$_m" "$@" >"$TMP/got"
	T_COUNT=$((T_COUNT + 1))
	if diff "$_want" "$TMP/got" >"$TMP/diff"; then
		pass "$_m: $_what ($(wc -l <"$TMP/got") candidates)"
	else
		fail "$_m: $_what (< wanted, > offered): $(tr '\n' ' ' <"$TMP/diff") $(head -c 300 "$TMP/comp.err")"
	fi
}
list() { printf '%s\n' "$@" | LC_ALL=C sort -u >"$TMP/want"; }

# a history of two real runs, for compare's ids
H=$TMP/h.db
port=$(free_port 37)
bg sh -c 'exec "$0" -s -p "$1" >/dev/null 2>&1' "$PIPESCOPE" "$port"
wait_listen "$port" || { fail "the server does not listen on $port"; finish; }
for i in 1 2; do
	expect_exit 0 "1 s test $i into $H" -- "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 1 \
		--no-tui --history "$H"
done
kill_bg
"$PIPESCOPE" history --history "$H" --format json |
	"$PY" -c 'import json, sys; [print(r["id"]) for r in json.load(sys.stdin)]' |
	LC_ALL=C sort -u >"$TMP/ids"
check "the history has two runs" test "$(wc -l <"$TMP/ids")" = 2

ls /sys/class/net | LC_ALL=C sort -u >"$TMP/ifaces"
# the options each --help lists, the ones that take a value, the formats
"$PY" "$HELPOPTS" --dump "$TMP" "$PIPESCOPE"
check "--help lists check's options" test "$(wc -l <"$TMP/opts.check")" -gt 50
# the value-taking list is the script's, checked by the candidates below
# (after such an option no option is offered) and here as a whole
bash --norc --noprofile -c '. "$1"; printf "%s\n" $_pipescope_opts_values' bash \
	"$COMPLETION" | LC_ALL=C sort -u >"$TMP/script-values"
T_COUNT=$((T_COUNT + 1))
if diff "$TMP/values" "$TMP/script-values" >"$TMP/diff"; then
	pass "the options that take a value are --help's ($(wc -l <"$TMP/values"))"
else
	fail "the options that take a value differ from --help's (< --help, > the completion): $(tr '\n' ' ' <"$TMP/diff")"
fi

modes=plain
if [ -f "$BC" ]; then
	modes="bc plain"
else
	echo "note: no bash-completion ($BC; apt-get install bash-completion): only without it"
fi
for m in $modes; do
	list probe check history compare
	same "$m" "pipescope <TAB>: the sub-commands" "$TMP/want" ""
	grep '^--f' "$TMP/opts.check" >"$TMP/want"
	same "$m" "pipescope check --f<TAB>" "$TMP/want" check --f
	same "$m" "pipescope -<TAB>: pipescope --help's options" "$TMP/opts.main" -
	for sub in probe check history compare; do
		same "$m" "pipescope $sub -<TAB>: pipescope $sub --help's options" \
			"$TMP/opts.$sub" "$sub" -
	done
	same "$m" "probe --iface <TAB>: /sys/class/net" "$TMP/ifaces" probe --iface ""
	same "$m" "check -t 1 --iface <TAB>" "$TMP/ifaces" check -t 1 --iface ""
	tree=$MACHINES/i40e-4cpu
	if [ -d "$tree/sys/class/net" ]; then
		ls "$tree/sys/class/net" | LC_ALL=C sort -u >"$TMP/want"
		same "$m" "--sysroot DIR probe --iface <TAB>: the tree's" "$TMP/want" \
			probe --sysroot "$tree" --iface ""
	fi
	same "$m" "compare --history FILE <TAB>: its run ids" "$TMP/ids" \
		compare --history "$H" ""
	same "$m" "compare --history=FILE <TAB>" "$TMP/ids" \
		compare --history = "$H" ""
	same "$m" "compare --history FILE A <TAB>: B" \
		"$TMP/ids" compare --history "$H" "$(head -1 "$TMP/ids")" ""
	: >"$TMP/none"
	same "$m" "compare --history FILE A B <TAB>: nothing more" \
		"$TMP/none" compare --history "$H" $(cat "$TMP/ids") ""
	grep '^1' "$TMP/ids" >"$TMP/want"
	same "$m" "compare --history FILE 1<TAB>" "$TMP/want" compare --history "$H" 1
	same "$m" "compare <TAB> with no history" "$TMP/none" compare ""
	same "$m" "check --format <TAB>: its usage lines'" "$TMP/formats.check.format" \
		check --format ""
	same "$m" "compare --format <TAB>: its usage line's" "$TMP/formats.compare.format" \
		compare --format ""
	same "$m" "history --format <TAB>" "$TMP/formats.history.format" history --format ""
	same "$m" "history --export <TAB>: jsonl openmetrics" "$TMP/formats.history.export" \
		history --export ""
	same "$m" "-t <TAB>: a value, no option or sub-command" "$TMP/none" -t ""
	same "$m" "check -P <TAB>" "$TMP/none" check -P ""
	mkdir -p "$TMP/dir.d"
	: >"$TMP/snap.json"
	list "$TMP/snap.json"
	same "$m" "check --snapshot FILE<TAB>" "$TMP/want" check --snapshot "$TMP/sn"
	list "$TMP/dir.d"
	same "$m" "compare --plot DIR<TAB>: folders only" "$TMP/want" compare --plot "$TMP/d"
	list "$TMP/h.db"
	same "$m" "history --history FILE<TAB>" "$TMP/want" history --history "$TMP/h.d"
done
# and $PIPESCOPE_HISTORY names the history the ids come from
T_COUNT=$((T_COUNT + 1))
got=$(PIPESCOPE_HISTORY=$H comp plain compare "" | tr '\n' ' ')
[ "$got" = "$(tr '\n' ' ' <"$TMP/ids")" ] && pass "compare <TAB> with PIPESCOPE_HISTORY: $got" ||
	fail "compare <TAB> with PIPESCOPE_HISTORY: '$got'"
finish
