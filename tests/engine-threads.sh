#!/bin/sh
# engine-threads.sh: -P 128 runs on as many stream threads as the design
# says (one per stream up to the CPUs this process may use, then one per
# CPU, each polling several streams), on both ends, read from
# /proc/PID/task while it runs; every stream moves data; -J says the
# threads; and each end stays under 64 MiB resident.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
scratch
trap 'kill_bg; rm -rf "$TMP"' EXIT

ncpu=$(nproc) # sched_getaffinity, as the engine counts
P=128
if [ "$ncpu" -lt $P ]; then want=$ncpu name=ps-worker; else want=$P name=ps-stream; fi

port=$(free_port 5)
bg "$PIPESCOPE" -s -p "$port" >/dev/null 2>&1
srv=$LAST_PID
wait_listen "$port" || { fail "server did not start"; finish; }

# count PID's threads called NAME, and all its threads
named() { cat /proc/"$1"/task/*/comm 2>/dev/null | grep -cx "$2"; }
tasks() { ls /proc/"$1"/task 2>/dev/null | wc -l; }
hwm() { awk '/^VmHWM:/ {print $2}' /proc/"$1"/status 2>/dev/null; }

for dir in "" -R; do
	row="-P $P${dir:+ $dir}"
	"$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 2 -P $P $dir -J >"$TMP/c.json" 2>"$TMP/c.err" &
	c=$!
	cmax=0 smax=0 ctask=0 stask=0 chwm=0
	# the most seen over the run (threads start together, but sample late)
	while kill -0 $c 2>/dev/null; do
		n=$(named $c $name); [ "$n" -gt $cmax ] && cmax=$n
		n=$(named $srv $name); [ "$n" -gt $smax ] && smax=$n
		n=$(tasks $c); [ "$n" -gt $ctask ] && ctask=$n
		n=$(tasks $srv); [ "$n" -gt $stask ] && stask=$n
		h=$(hwm $c); [ -n "$h" ] && chwm=$h
		sleep 0.1
	done
	wait $c
	rc=$?
	check "$row: the client succeeds (rc $rc: $(head -c 300 "$TMP/c.err"))" [ $rc = 0 ]
	check "$row: client has $want $name threads (saw $cmax)" [ "$cmax" = "$want" ]
	check "$row: server has $want $name threads (saw $smax)" [ "$smax" = "$want" ]
	# besides them: the main thread, and the server's per-test thread and
	# helpers; nothing per stream
	check "$row: client threads bounded ($ctask)" [ "$ctask" -le $((want + 3)) ]
	check "$row: server threads bounded ($stask)" [ "$stask" -le $((want + 5)) ]
	J=$TMP/c.json
	jq_check "$row: $P streams, every one moved data" \
		"[.end.streams[] | .receiver.bytes] | length == $P and all(. > 0)"
	jq_check "$row: -J reports $want threads" ".pipescope.threads == $want"
	check "$row: client resident peak ${chwm} KiB < 64 MiB" [ "$chwm" -gt 0 -a "$chwm" -lt 65536 ]
	sh=$(hwm $srv)
	check "$row: server resident peak ${sh:-?} KiB < 64 MiB" [ "${sh:-0}" -gt 0 -a "${sh:-0}" -lt 65536 ]
done
finish
