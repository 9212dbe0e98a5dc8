#!/bin/bash
# bench/throughput.sh: pipescope against iperf3 (threaded, >= 3.16, from
# IPERF3_NEW; Debian's 3.12) and iperf 2 on loopback, in the same run.
# Every repetition runs each row's tools one after another (so the
# machine's drift hits them alike); a cell is the median of REPS runs of
# SECS seconds: receiver Gbit/s [min-max] and the whole machine's
# CPU-seconds per GB received (from /proc/stat, so other load counts too).
# The ratio is pipescope's median over the best peer's of that row.
#   IPERF3_NEW=/path/to/iperf3 bench/throughput.sh [REPS] [SECS]
#   env: BENCH_REPS (3), BENCH_SECS (4), BENCH_ROWS (a regex over the row
#   names, all by default), PIPESCOPE (./pipescope)
# Not a test: timings belong here, not in make check.
set -u
REPS=${1:-${BENCH_REPS:-3}}
SECS=${2:-${BENCH_SECS:-4}}
ROWS=${BENCH_ROWS:-.}
PS=${PIPESCOPE:-$(dirname "$0")/../pipescope}
NEW=${IPERF3_NEW:-}
command -v iperf3 >/dev/null && command -v iperf >/dev/null && command -v jq >/dev/null ||
	{ echo "needs iperf3, iperf and jq (apt-get install iperf3 iperf jq)" >&2; exit 2; }
[ "$REPS" -ge 1 ] 2>/dev/null && [ "$SECS" -ge 1 ] 2>/dev/null ||
	{ echo "REPS and SECS are whole numbers >= 1" >&2; exit 2; }
if [ -n "$NEW" ] && ! [ -x "$NEW" ]; then
	echo "IPERF3_NEW=$NEW is not an executable" >&2
	exit 2
fi
base=$((30000 + $$ % 20000))
P_PS=$base P_I3=$((base + 1)) P_I2=$((base + 2)) P_N3=$((base + 3))
pids=""
tmp=$(mktemp -d)
trap 'kill $pids 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
"$PS" -s -p $P_PS >/dev/null 2>&1 & pids="$pids $!"
iperf3 -s -p $P_I3 >/dev/null 2>&1 & pids="$pids $!"
iperf -s -p $P_I2 >/dev/null 2>&1 & pids="$pids $!"
[ -n "$NEW" ] && { "$NEW" -s -p $P_N3 >/dev/null 2>&1 & pids="$pids $!"; }
sleep 1

NEWV=new
[ -n "$NEW" ] && NEWV=$("$NEW" --version 2>/dev/null | awk 'NR==1{print $2}')
echo "# bench/throughput.sh REPS=$REPS SECS=$SECS ($(nproc) CPUs, $(uname -r))"
echo "# load at start: $(cat /proc/loadavg)"
[ -n "$NEW" ] || echo "# IPERF3_NEW is not set: the threaded iperf3 columns and its rows (fast mode, UDP offload, --bidir) are skipped"

busy() { awk '/^cpu /{print $2+$3+$4+$7+$8}' /proc/stat; }

# run TOOL [ARGS...] -> appends "gbps cpu_s_per_gb loss%" to $tmp/ROW.TOOL
run() {
	local row=$1 tool=$2 out bytes secs loss=0 b0 b1
	shift 2
	b0=$(busy)
	case $tool in
	ps|n3|n3l|i3)
		local bin=iperf3 port=$P_I3 extra=()
		case $tool in
		ps) bin=$PS port=$P_PS ;;
		n3) bin=$NEW port=$P_N3 ;;
		n3l) bin=$NEW port=$P_N3 extra=(-l 1M) ;;
		esac
		out=$(timeout $((SECS + 60)) "$bin" -c 127.0.0.1 -p $port -t "$SECS" "${extra[@]}" "$@" -J 2>/dev/null)
		# the receiver's bytes; both directions with --bidir; UDP's loss
		read -r bytes secs loss < <(jq -r '(.end.sum_received // .end.sum) as $r |
			[($r.bytes + (.end.sum_received_bidir_reverse.bytes // 0)),
			 $r.seconds, (.end.sum.lost_percent // 0)] | @tsv' <<<"$out" 2>/dev/null) ;;
	i2)
		# CSV: one line a stream, and a sum line (id -1) with -P > 1,
		# except with -R (then the streams add up)
		out=$(timeout $((SECS + 60)) iperf -c 127.0.0.1 -p $P_I2 -t "$SECS" "$@" -y C 2>/dev/null)
		bytes=$(awk -F, '$6 == -1 {sum = $8; have = 1} $6 != -1 {add += $8}
			END {print have ? sum : add + 0}' <<<"$out")
		secs=$SECS ;;
	esac
	b1=$(busy)
	awk -v by="${bytes:-0}" -v s="${secs:-0}" -v b="$((b1 - b0))" -v hz="$(getconf CLK_TCK)" \
		-v loss="${loss:-0}" 'BEGIN {
		gb = by / 1e9;
		printf "%.2f %.2f %.3f\n", (s > 0 ? by * 8 / s / 1e9 : 0), (gb > 0 ? b / hz / gb : 0), loss }' \
		>>"$tmp/$row.$tool"
}

col() { [ -s "$2" ] && cut -d' ' -f"$1" "$2" | sort -n; }
median() { awk '{a[NR]=$1} END {if (NR) print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
# cell ROW TOOL -> "median [min-max] cpu" (and the loss for UDP rows)
cell() {
	local f="$tmp/$1.$2"
	[ -s "$f" ] || { printf ' '; return; }
	printf '%s [%s–%s] %s' "$(col 1 "$f" | median)" "$(col 1 "$f" | head -1)" \
		"$(col 1 "$f" | tail -1)" "$(col 2 "$f" | median)"
	case $1 in udp*) printf ' loss %s%%' "$(col 3 "$f" | median)" ;; esac
}
ratio() {
	local row=$1 best=0 bt="" m
	for t in n3 n3l i3 i2; do
		[ -s "$tmp/$row.$t" ] || continue
		m=$(col 1 "$tmp/$row.$t" | median)
		if awk -v a="$m" -v b="$best" 'BEGIN{exit !(a > b)}'; then best=$m bt=$t; fi
	done
	awk -v a="$(col 1 "$tmp/$row.ps" | median)" -v b="$best" -v t="$bt" \
		'BEGIN{ if (b > 0) printf "%.2f (vs %s)", a / b, t; else printf "-" }'
}

# the rows: name, then the arguments every tool gets, then which tools
rows=()
for dir in "" "-R"; do
	for p in 1 2 4 8 16 128; do
		rows+=("P$p${dir:+R}|-P $p $dir|ps n3 n3l i3 i2")
	done
done
rows+=("fastP1|-P 1 -Z --skip-rx-copy|ps n3" "fastP2|-P 2 -Z --skip-rx-copy|ps n3")
# pipescope ends use segmentation offload by default; iperf3 asks with --gsro
rows+=("udp|-u -b 0 -l 1460|ps n3" "udpclean|-u -l 1460|ps n3" "bidirP2|--bidir -P 2|ps n3 i3")

# UDP at the highest rate with under 0.1% lost: the tool's own flood
# (-b 0) gives its received rate R, then -b at 95, 85, 75, 65 and 50% of R
# until the loss is under 0.1%; that run is the cell (the last one tried
# when none was)
udp_clean() {
	local t=$1 flood line k f=$tmp/udpscan.$1
	shift
	: >"$f"
	run udpscan "$t" "$@" -b 0
	flood=$(cut -d' ' -f1 "$f")
	for k in 0.95 0.85 0.75 0.65 0.5; do
		: >"$f"
		run udpscan "$t" "$@" -b "$(awk -v r="$flood" -v k="$k" 'BEGIN {printf "%dM", r * k * 1000}')"
		line=$(cat "$f")
		awk -v l="$(cut -d' ' -f3 <<<"$line")" 'BEGIN {exit !(l < 0.1)}' && break
	done
	echo "$line" >>"$tmp/udpclean.$t"
}

label() {
	case $1 in
	P*R) echo "-P ${1//[!0-9]/} -R" ;;
	P*) echo "-P ${1#P}" ;;
	fastP*) echo "-P ${1#fastP} -Z --skip-rx-copy" ;;
	udp) echo "UDP 1460 B, segmentation offload (iperf3: --gsro)" ;;
	udpclean) echo "UDP 1460 B, offload, the highest -b with < 0.1% lost" ;;
	bidirP2) echo "--bidir -P 2" ;;
	esac
}

for r in "${rows[@]}"; do
	IFS='|' read -r name args tools <<<"$r"
	[[ $name =~ $ROWS ]] || continue
	[ -z "$NEW" ] && [ "$tools" = "ps n3" ] && continue
	for rep in $(seq "$REPS"); do
		for t in $tools; do
			[ -z "$NEW" ] && [[ $t == n3* ]] && continue
			a=($args)
			case $t in
			n3) [[ $name == udp* ]] && a+=(--gsro) ;;
			i2) [[ $name == *R ]] && a=(-P "${name//[!0-9]/}" -R) ;;
			esac
			if [ "$name" = udpclean ]; then
				udp_clean "$t" "${a[@]}"
			else
				run "$name" "$t" "${a[@]}"
			fi
		done
	done
done

echo
echo "receiver Gbit/s median [min–max] CPU-s/GB (whole machine), median of $REPS × ${SECS}s"
echo
printf '| test | pipescope | iperf3 %s | iperf3 %s -l 1M | iperf3 3.12 | iperf 2.1.8 | ratio vs best peer |\n' "$NEWV" "$NEWV"
printf '|---|---|---|---|---|---|---|\n'
for r in "${rows[@]}"; do
	IFS='|' read -r name args tools <<<"$r"
	[ -s "$tmp/$name.ps" ] || continue
	printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$(label "$name")" \
		"$(cell "$name" ps)" "$(cell "$name" n3)" "$(cell "$name" n3l)" \
		"$(cell "$name" i3)" "$(cell "$name" i2)" "$(ratio "$name")"
done
echo
echo "# load at end: $(cat /proc/loadavg)"
