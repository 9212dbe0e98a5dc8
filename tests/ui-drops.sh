#!/bin/sh
# ui-drops.sh: the "Drops" section of view 4 during a UDP test into a 16K
# receive buffer (the loopback self-test: both ends on this host): the
# packet's path from the NIC ring to the application, the NIC ring
# "unknown" (no drop classes read yet), the UDP socket buffer dropping per
# second and the count since the test began, the far end said to be this
# host; with a pipescope server in another process, both ends' columns.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

ui_start 100 40 "env LC_ALL=C TERM=xterm $PIPESCOPE -u -b 2G -l 1400 -w 16K -t 30"
ui_expect "the UDP test runs" '\[running\]' 10
ui_keys 4
ui_expect "view 4 has the Drops section" '^ *Drops: where a received packet was dropped' 5
ui_expect "the path starts at the NIC ring, unknown" 'NIC ring +unknown' 5
ui_expect "the softnet backlog row" 'softnet backlog +[0-9]+/s' 5
ui_expect "the socket buffer drops, per second and since the test began" \
	'UDP socket buffer +[1-9][0-9]*/s \+[1-9][0-9]*' 10
ui_expect "the application row" 'delivered \(UDP \+ TCP in\) +[1-9][0-9]*/s' 5
ui_expect "the far end is this host" 'far end: this host' 5
ui_save ui-drops-selftest
ui_keys q
ui_expect "q ends it" 'EXIT:0' 10

# a pipescope server as the far end: its counters in its own column
port=$(free_port 3)
bg sh -c "exec $PIPESCOPE -s -p $port >/dev/null 2>&1"
wait_listen "$port" || fail "pipescope -s did not listen on $port"
ui_start 100 40 "env LC_ALL=C TERM=xterm $PIPESCOPE -c 127.0.0.1 -p $port -u -b 1G -l 1400 -w 16K -t 30"
ui_expect "server: the test runs" '\[running\]' 10
ui_keys 4
ui_expect "server: both ends' columns" 'layer +this end +far end *$' 10
ui_expect "server: the far end's socket buffer drops" \
	'UDP socket buffer +[0-9]+/s( \+[0-9]+)? +[1-9][0-9]*/s' 10
# one kernel: its softnet backlog is this end's, not a far end's figure
ui_expect "server on this host: softnet is said once (issue 25 item 4)" \
	'softnet backlog +[0-9]+/s.* += this end \(one kernel\)' 5
ui_save ui-drops-server
ui_keys q
ui_expect "server: q ends it" 'EXIT:0' 10
kill_bg
finish
