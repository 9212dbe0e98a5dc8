# tests/ui-lib.sh: drive the workstation in a private tmux server (sourced
# by the tests/ui-*.sh scripts after tests/lib.sh)
need_cmd tmux tmux
UI_N=0
TMUX_SOCK="pstest$$-0"
TM="tmux -u -L $TMUX_SOCK -f /dev/null"
# each session gets a server of its own (a new one right after a
# kill-server can find the old one still going away)
ui_new_server() {
	$TM kill-server 2>/dev/null
	UI_N=$((UI_N + 1))
	TMUX_SOCK="pstest$$-$UI_N"
	TM="tmux -u -L $TMUX_SOCK -f /dev/null"
}
UI_TMP=$(mktemp -d "${TMPDIR:-/tmp}/ps-ui.XXXXXX")
unset TMUX
ui_cleanup() {
	$TM kill-server 2>/dev/null
	rm -rf "$UI_TMP"
}
trap ui_cleanup EXIT
trap 'exit 1' INT TERM

# start a session of W x H running the shell command CMD; the pane stays
# after the command ends so its last words can be read
ui_start() {
	w=$1 h=$2
	shift 2
	ui_new_server
	$TM new-session -d -x "$w" -y "$h" "$*; echo \"EXIT:\$?\"; sleep 600" ||
		{ fail "tmux would not start"; finish; }
	$TM set-option -g remain-on-exit on >/dev/null 2>&1
}

# a shell with a plain prompt, for the tests that type commands
ui_shell() {
	ui_new_server
	$TM new-session -d -x "$1" -y "$2" "env PS1='PROMPT\$ ' sh" ||
		{ fail "tmux would not start"; finish; }
}

ui_cap() { $TM capture-pane -p -t 0; }
ui_cap_e() { $TM capture-pane -p -e -t 0; }
ui_keys() { $TM send-keys -t 0 "$@"; }
ui_resize() { $TM resize-window -t 0 -x "$1" -y "$2"; }

# wait up to $2 seconds (default 10) for an extended regex on the screen
ui_wait() {
	pat=$1 secs=${2:-10}
	i=0
	while [ "$i" -lt $((secs * 10)) ]; do
		ui_cap | grep -Eq -- "$pat" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# the same, counted as a check; on failure the screen goes to the log
ui_expect() {
	what=$1 pat=$2 secs=${3:-10}
	T_COUNT=$((T_COUNT + 1))
	if ui_wait "$pat" "$secs"; then
		pass "$what"
		return 0
	fi
	fail "$what (no /$pat/ on the screen)"
	ui_cap | sed 's/^/  | /'
	return 1
}

# ui_absent WHAT PATTERN [FAILURE]: one check that no /PATTERN/ (extended)
# is on the screen now; on failure the screen goes to the log
ui_absent() {
	T_COUNT=$((T_COUNT + 1))
	if ui_cap | grep -Eq -- "$2"; then
		fail "${3:-$1 (/$2/ on the screen)}"
		ui_cap | sed 's/^/  | /'
		return 1
	fi
	pass "$1"
}

# keep a capture of the screen for a reviewer (plain and with colours)
ui_save() {
	d=$(artifacts)
	ui_cap >"$d/$1.txt"
	ui_cap_e >"$d/$1.ansi"
}

# the sum the header shows now, in bit/s (0 when it is not there)
ui_sum() {
	ui_cap | sed -n 's/.* sum \([0-9.]*\) \([kMGT]\{0,1\}\)bit\/s now.*/\1 \2/p' |
		head -1 | awk '{ m = 1; if ($2 == "k") m = 1e3; if ($2 == "M") m = 1e6;
			if ($2 == "G") m = 1e9; if ($2 == "T") m = 1e12;
			printf "%.0f\n", $1 * m } END { if (NR == 0) print 0 }'
}

# every panel of the dashboard is on the screen
ui_expect_panels() {
	ep=$1
	for p in 'pipescope (->|→) 127\.0\.0\.1' 'Throughput' 'Streams' ' CPU[ :]' \
		'IRQs and queues' ' NIC ' 'Findings' 'q.quit'; do
		ui_expect "$ep: $p" "$p" 10
	done
}
