#!/bin/sh
# ui-live-drops.sh: the workstation's live findings read the test's own
# kernel counters: a UDP test into a 16K receive buffer (the loopback
# self-test, -R so this end receives and counts the loss as it runs) shows
# udp_loss, the receiver's socket buffer named with UdpRcvbufErrors' growth
# since the test began, on the dashboard and in view 6 while it runs.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

ui_start 200 50 "env LC_ALL=C TERM=xterm $PIPESCOPE -u -R -b 2G -l 1400 -w 16K -t 30"
ui_expect "the UDP test runs" '\[running\]' 10
ui_expect "dashboard: the loss is the socket buffer's, counted since the start" \
	"were dropped by the receiver's socket buffer \(UdpRcvbufErrors \+[1-9][0-9]*, this end\)" 10
ui_keys 6
ui_expect "view 6: the same finding while the test runs" \
	"were dropped by the receiver's socket buffer \(UdpRcvbufErrors \+[1-9]" 5
ui_expect "view 6: still running" '\[running\]' 2
ui_save ui-live-drops
ui_keys q
ui_expect "q ends it" 'EXIT:0' 10
finish
