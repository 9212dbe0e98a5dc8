#!/bin/bash
# bench/throughput.sh: pipescope vs iperf3 vs iperf2 on loopback, same run.
# The tools alternate inside every repetition so the machine's drift hits
# them alike; each cell is the median of REPS runs of SECS seconds (receiver
# Gbit/s), with the ratio to the best of the other two and the whole
# machine's CPU-seconds per GB moved (from /proc/stat).
#   bench/throughput.sh [REPS] [SECS]       (defaults 3 and 5)
# Not a test: timings belong here, not in make check.
set -u
REPS=${1:-3}
SECS=${2:-5}
PS=${PIPESCOPE:-$(dirname "$0")/../pipescope}
command -v iperf3 >/dev/null && command -v iperf >/dev/null && command -v jq >/dev/null ||
	{ echo "needs iperf3, iperf and jq (apt-get install iperf3 iperf jq)" >&2; exit 2; }
base=$((30000 + $$ % 20000))
P_PS=$base; P_I3=$((base + 1)); P_I2=$((base + 2)); P_I2U=$((base + 3))
pids=""
trap 'kill $pids 2>/dev/null; wait 2>/dev/null' EXIT
"$PS" -s -p $P_PS >/dev/null 2>&1 & pids="$pids $!"
iperf3 -s -p $P_I3 >/dev/null 2>&1 & pids="$pids $!"
iperf -s -p $P_I2 >/dev/null 2>&1 & pids="$pids $!"
iperf -s -u -p $P_I2U >/dev/null 2>&1 & pids="$pids $!"
sleep 1
tmp=$(mktemp -d)

busy() { awk '/^cpu /{print $2+$3+$4+$6+$7+$8, $2+$3+$4+$5+$6+$7+$8}' /proc/stat; }

# run TOOL P DIR [EXTRA...] -> prints "gbps cpu_s_per_gb"
run() {
	tool=$1 p=$2 dir=$3
	shift 3
	read -r b0 t0 < <(busy)
	case $tool in
	ps) out=$("$PS" -c 127.0.0.1 -p $P_PS -t "$SECS" -P "$p" $dir "$@" -J 2>/dev/null)
	    bps=$(jq '.end.sum_received.bits_per_second' <<<"$out") ;;
	i3) out=$(iperf3 -c 127.0.0.1 -p $P_I3 -t "$SECS" -P "$p" $dir "$@" -J 2>/dev/null)
	    bps=$(jq '.end.sum_received.bits_per_second' <<<"$out") ;;
	i2) d=""; [ "$dir" = "-R" ] && d="-R"
	    out=$(iperf -c 127.0.0.1 -p $P_I2 -t "$SECS" -P "$p" $d -y C 2>/dev/null)
	    # CSV: the last line is the sum with -P > 1, the only one with -P 1
	    bps=$(tail -1 <<<"$out" | awk -F, '{print $9}') ;;
	esac
	read -r b1 t1 < <(busy)
	hz=$(getconf CLK_TCK)
	awk -v bps="${bps:-0}" -v b="$((b1 - b0))" -v hz="$hz" -v s="$SECS" 'BEGIN {
		gb = bps * s / 8 / 1e9;
		printf "%.2f %.2f\n", bps / 1e9, (gb > 0 ? b / hz / gb : 0) }'
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

printf '| test | pipescope | iperf3 3.12 | iperf 2.1.8 | ratio vs best | CPU-s/GB ps / i3 / i2 |\n'
printf '|---|---|---|---|---|---|\n'
for dir in "" "-R"; do
	for p in 1 2 4 8; do
		for rep in $(seq "$REPS"); do
			for tool in ps i3 i2; do
				run $tool $p "$dir" >>"$tmp/$tool.$p.$dir"
			done
			# the fast modes in the same rotation, not after it
			if [ -z "$dir" ] && [ "$p" -le 2 ]; then
				run ps $p "" -Z --skip-rx-copy >>"$tmp/fast.$p"
			fi
		done
		ps=$(cut -d' ' -f1 "$tmp/ps.$p.$dir" | median)
		i3=$(cut -d' ' -f1 "$tmp/i3.$p.$dir" | median)
		i2=$(cut -d' ' -f1 "$tmp/i2.$p.$dir" | median)
		cps=$(cut -d' ' -f2 "$tmp/ps.$p.$dir" | median)
		ci3=$(cut -d' ' -f2 "$tmp/i3.$p.$dir" | median)
		ci2=$(cut -d' ' -f2 "$tmp/i2.$p.$dir" | median)
		ratio=$(awk -v a="$ps" -v b="$i3" -v c="$i2" 'BEGIN{m = b > c ? b : c; printf "%.2f", (m > 0 ? a / m : 0)}')
		printf '| TCP -P %d %s | %s [%s] | %s [%s] | %s [%s] | %s | %s / %s / %s |\n' "$p" "${dir:-fwd}" \
			"$ps" "$(cut -d' ' -f1 "$tmp/ps.$p.$dir" | tr '\n' ' ' | sed 's/ $//')" \
			"$i3" "$(cut -d' ' -f1 "$tmp/i3.$p.$dir" | tr '\n' ' ' | sed 's/ $//')" \
			"$i2" "$(cut -d' ' -f1 "$tmp/i2.$p.$dir" | tr '\n' ' ' | sed 's/ $//')" \
			"$ratio" "$cps" "$ci3" "$ci2"
	done
done

# fast modes: pipescope -Z --skip-rx-copy against the best default peer
for p in 1 2; do
	f=$(cut -d' ' -f1 "$tmp/fast.$p" | median)
	best=$(awk -v a="$(cut -d' ' -f1 "$tmp/i3.$p." | median)" -v b="$(cut -d' ' -f1 "$tmp/i2.$p." | median)" 'BEGIN{print (a > b ? a : b)}')
	printf '| TCP -P %d -Z --skip-rx-copy | %s [%s] | | | %.2f vs best default peer (%s) | %s |\n' "$p" "$f" \
		"$(cut -d' ' -f1 "$tmp/fast.$p" | tr '\n' ' ' | sed 's/ $//')" \
		"$(awk -v a="$f" -v b="$best" 'BEGIN{print (b > 0 ? a / b : 0)}')" "$best" \
		"$(cut -d' ' -f2 "$tmp/fast.$p" | median)"
done

# UDP: plain 1460-byte datagrams vs segmentation offload
for rep in $(seq "$REPS"); do
	run ps 1 "" -u -b 0 -l 1460 --no-gsro >>"$tmp/udp.plain"
	run ps 1 "" -u -b 0 -l 1460 --gsro >>"$tmp/udp.gsro" 
done
up=$(cut -d' ' -f1 "$tmp/udp.plain" | median)
ug=$(cut -d' ' -f1 "$tmp/udp.gsro" | median)
printf '| UDP 1460 B plain | %s | | | | |\n| UDP 1460 B --gsro | %s | | | %.1fx plain | |\n' "$up" "$ug" \
	"$(awk -v a="$ug" -v b="$up" 'BEGIN{print (b > 0 ? a / b : 0)}')"

# resident memory of a -P 8 client
"$PS" -c 127.0.0.1 -p $P_PS -t 3 -P 8 >/dev/null 2>&1 &
c=$!
sleep 2
rss=$(awk '/VmRSS/{print $2}' /proc/$c/status)
wait $c
echo
echo "pipescope client RSS with -P 8: ${rss} KiB"
rm -rf "$tmp"
