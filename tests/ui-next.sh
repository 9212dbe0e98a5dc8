#!/bin/sh
# ui-next.sh: what to do next and how long (issue 16, items 15-17): the
# footer names g and a finished test says "next step: press g"; typed
# values for t, b (-b) and W (-w) set the next test, one restart for a
# value; g runs its steps as long as the screen's t, not the launch's -t;
# x during the first test keeps what it measured.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
. "$top_srcdir/tests/ui-lib.sh"

ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE -t 1 -b 300M"
ui_expect "the footer names g" 'g:guided|g guided run' 5
ui_expect "a finished test: the next step" 'next step: press g' 10

# typed values: t 2, b 200M, W 512K, each Enter; the header follows
ui_keys t 2 Enter
ui_expect "t 2 Enter: the next test is 2 s" 'next: .*-t 2' 5
ui_keys b 2 0 0 M Enter
ui_expect "b 200M Enter: the next test's rate" 'next: .*-b 200M' 5
ui_keys W 5 1 2 K Enter
ui_expect "W 512K Enter: said" 's runs a test with the new settings' 5
ui_keys t x Escape
ui_expect "Esc keeps the value" 'unchanged' 5
ui_keys b k Enter
ui_expect "b k (no number): one line says why" 'not a rate' 5
ui_keys s
ui_expect "s: the test runs 2 s" '[0-9]/2 s  \[running\]' 10
ui_expect "it ends" '\[done\]' 10
ui_keys q
ui_expect "q quits" 'EXIT:0' 10

# g with the launch's -t 60 and the screen's t 3: steps of 3 s; x in the
# first test after a second and a half keeps its rate
ui_start 100 30 "env LC_ALL=C TERM=xterm $PIPESCOPE -t 60 --quick"
ui_expect "the test runs" '\[running\]' 10
ui_keys t 3 Enter g
ui_expect "g: the first test runs 3 s, the screen's t" \
	'^running +2 One stream +\[[#.]+\] [0-9.]+/3 s' 15
sleep 1.5
ui_keys x
ui_expect "x: the run ends" 'guided run ended by x' 10
ui_expect "x: the first test's rate stays" '^done +2 One stream +[0-9.]+ [kMG]?bit/s' 5
ui_absent "x: not 'nothing was measured'" 'nothing was measured'
ui_save ui-next-x
ui_keys q
ui_expect "q quits" 'EXIT:0' 10
finish
