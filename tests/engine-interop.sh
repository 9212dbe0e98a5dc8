#!/bin/sh
# engine-interop.sh: {pipescope, iperf3 3.x} x {client, server} on loopback,
# TCP -P 1 / -P 4 / -R / --bidir and UDP -b 100M; both ends' byte counts
# must agree, and the same jq expressions must read both tools' JSON.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd iperf3 iperf3
need_cmd jq jq
trap kill_bg EXIT
dir=$(mktemp -d)
n=0

server() {	# server KIND PORT
	case $1 in
	pipescope) bg "$PIPESCOPE" -s -1 -p "$2" ;;
	iperf3) bg iperf3 -s -1 -p "$2" ;;
	esac
	wait_listen "$2" || { fail "$1 server did not listen on $2"; return 1; }
}

client() {	# client KIND PORT ARGS...
	kind=$1 port=$2
	shift 2
	case $kind in
	pipescope) timeout 30 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -J "$@" ;;
	iperf3) timeout 30 iperf3 -c 127.0.0.1 -p "$port" -J "$@" ;;
	esac
}

for cl in pipescope iperf3; do
	for sv in pipescope iperf3; do
		while read -r name args; do
			[ -n "$name" ] || continue
			n=$((n + 1))
			port=$(free_port $n)
			what="$cl -> $sv server: $name"
			server "$sv" "$port" || continue
			# shellcheck disable=SC2086
			client "$cl" "$port" -t 1 $args >"$dir/out.json" 2>"$dir/err"
			rc=$?
			wait "$LAST_PID" 2>/dev/null
			T_COUNT=$((T_COUNT + 1))
			if [ $rc -ne 0 ] || ! jq -e . "$dir/out.json" >/dev/null 2>&1; then
				fail "$what: exit $rc, $(head -c 300 "$dir/err") $(jq -r '.error // empty' "$dir/out.json" 2>/dev/null)"
				continue
			fi
			# the jq a user of iperf3 would write, on both tools' output
			sent=$(jq '.end.sum_sent.bytes' "$dir/out.json")
			recv=$(jq '.end.sum_received.bytes' "$dir/out.json")
			bps=$(jq '.end.sum_received.bits_per_second' "$dir/out.json")
			nint=$(jq '.intervals | length' "$dir/out.json")
			cpu=$(jq '.end.cpu_utilization_percent.host_total' "$dir/out.json")
			nstr=$(jq '.start.test_start.num_streams' "$dir/out.json")
			case $args in
			*-u*)
				sent=$(jq '.end.sum.bytes' "$dir/out.json")
				lost=$(jq '.end.sum.lost_packets' "$dir/out.json")
				pk=$(jq '.end.sum.packets' "$dir/out.json")
				recv=$sent
				# an iperf3 receiver keeps the default socket buffer
				# (rmem_max caps it): on a busy host it drops a few;
				# pipescope to pipescope must lose none
				# (engine-options.sh)
				num_le "$lost" "$(awk -v p="$pk" 'BEGIN{print p * 0.02}')" ||
					fail "$what: $lost of $pk UDP packets lost at 100 Mbit/s on loopback"
				;;
			esac
			if num_gt "$sent" 0 && num_gt "$recv" 0 &&
			   num_ge "$recv" "$(awk -v s="$sent" 'BEGIN{print s*0.95}')" &&
			   num_le "$recv" "$sent" && num_gt "$bps" 0 &&
			   num_ge "$nint" 1 && num_gt "$cpu" 0 && [ "$nstr" -ge 1 ]; then
				pass "$what: sent $sent received $recv"
			else
				fail "$what: sent=$sent received=$recv bps=$bps intervals=$nint cpu=$cpu streams=$nstr"
			fi
			if [ "$args" != "${args#*--bidir}" ]; then
				rs=$(jq '.end.sum_sent_bidir_reverse.bytes' "$dir/out.json")
				rr=$(jq '.end.sum_received_bidir_reverse.bytes' "$dir/out.json")
				check "$what: reverse direction counted ($rs/$rr)" num_gt "$rr" 0
			fi
		done <<'LIST'
tcp-P1
tcp-P4 -P 4
tcp-reverse -R
tcp-bidir --bidir
udp-100M -u -b 100M -w 2M
LIST
	done
done
rm -rf "$dir"
finish
