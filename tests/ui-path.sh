#!/bin/sh
# ui-path.sh: the findings speak of the test's own path (issue 16, items
# 5, 8, 9): a ceiling estimate the test beats is not called the tightest
# ceiling; a server on this host watching the same interface does not
# double the findings as "far end (...)"; an interface the test does not
# cross is said to be so.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

SRV=""
stop_srv() {
	stop_pid "$SRV"
	SRV=""
}
trap 'stop_srv; ui_cleanup' EXIT

# "9.41 Gbit/s" -> bit/s
to_bps() {
	echo "$1 $2" | awk '{ m = 1; if ($2 ~ /^k/) m = 1e3; if ($2 ~ /^M/) m = 1e6;
		if ($2 ~ /^G/) m = 1e9; if ($2 ~ /^T/) m = 1e12; printf "%.0f\n", $1 * m }'
}

# item 5: a recorded NIC's PCIe ceiling (3.66 Gbit/s) beside a loopback
# test, whichever is faster: the wording follows the numbers
m="$top_srcdir/tests/fixtures/machines/pcie-downgraded"
if [ -d "$m" ]; then
	ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE --sysroot $m --iface enp5s0f0 -t 2"
	ui_expect "the test ends" '\[done\]' 10
	ui_keys 6
	ui_expect "view 6 has the PCIe finding" 'about [0-9.]+ Gbit/s usable' 5
	rx=$(ui_cap | sed -n 's/.* \([0-9.]*\) \([kMGT]*\)bit\/s received.*/\1 \2/p' | head -1)
	ce=$(ui_cap | sed -n 's/.*about \([0-9.]*\) \([kMGT]*\)bit\/s usable$/\1 \2/p' | head -1)
	T_COUNT=$((T_COUNT + 1))
	if [ -z "$rx" ] || [ -z "$ce" ]; then
		fail "no rate ($rx) or ceiling ($ce) to compare"
		ui_cap | sed 's/^/  | /'
	elif num_gt "$(to_bps $rx)" "$(awk -v c="$(to_bps $ce)" 'BEGIN { print c * 1.05 }')"; then
		ui_cap | grep -q '^Tightest ceiling: PCIe' &&
			fail "the test ($rx) beats the estimate ($ce), called the tightest" ||
			pass "the test ($rx) beats the estimate ($ce): not called the tightest"
	elif num_gt "$(awk -v c="$(to_bps $ce)" 'BEGIN { print c * 0.95 }')" "$(to_bps $rx)"; then
		ui_cap | grep -q '^Tightest ceiling: PCIe x1' &&
			pass "the estimate ($ce) is above the test ($rx): the tightest ceiling" ||
			fail "the estimate ($ce) above the test ($rx) is not called the tightest"
	else
		pass "the test ($rx) is at the estimate ($ce): either wording"
	fi
	ui_keys q
	ui_expect "q quits" 'EXIT:0' 10
fi

# item 8: a pipescope server on this host, on lo as the client
port=$(free_port 7)
"$PIPESCOPE" -s -p "$port" --no-tui >/dev/null 2>&1 &
SRV=$!
wait_listen "$port" || fail "server did not listen"
ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE -c 127.0.0.1 -p $port -t 2"
ui_expect "the test ends" '\[done\]' 10
ui_keys 6
ui_expect "view 6 has this host's findings" '^ ?>?[-!]+ ' 5
ui_absent "the same host's server does not repeat them as the far end's" \
	'far end \('
# drops counted since boot that do not grow now are not a warning
bl=$(ui_cap | awk '/receive backlog dropped/ { t = $0; getline; print t "|" $0; exit }')
case "$bl" in
'') ;;
*'(0.0 drops/s'*)
	T_COUNT=$((T_COUNT + 1))
	case "$bl" in
	' -'* | '>-'*) pass "since-boot drops at 0/s are information" ;;
	*) fail "since-boot drops at 0/s ranked above information: $bl" ;;
	esac ;;
esac
ui_keys q
ui_expect "q quits" 'EXIT:0' 10
stop_srv

# item 9: an interface the loopback test does not cross
other=$(ls /sys/class/net 2>/dev/null | grep -vx lo | head -1)
if [ -n "$other" ]; then
	ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE --iface $other -t 1"
	ui_expect "the findings say the test does not cross $other" \
		"the test does not cross $other \\(its route leaves by lo\\)" 10
	ui_expect "the header marks it" "iface $other \\(not on the test's path\\)" 5
	ui_keys q
	ui_expect "q quits" 'EXIT:0' 10
fi
finish
