#!/bin/sh
# make-corpus.sh: (re)build the fuzzers' seed corpus in tests/fuzz/corpus/
# from the recorded fixtures (tests/fixtures) and copies of the shared ones
# (/work/shared/fixtures, when present). Run from the top of the tree; the
# result is committed so that "make fuzz" needs nothing else.
set -eu
cd "$(dirname "$0")/../.."
C=tests/fuzz/corpus
SHARED=${SHARED_FIXTURES:-/work/shared/fixtures}
rm -rf "$C"
for t in params recv-json cpu-stat interrupts softirqs softnet pci link ethtool snapshot netstat nic-stats history; do
	mkdir -p "$C/fuzz-$t"
done
cp_as() { cp "$1" "$C/$2/$(echo "$1" | tr '/' '_' | sed 's/^tests_fixtures_//')"; }

for m in tests/fixtures/machines/*/; do
	[ -f "$m/proc/stat" ] && cp_as "$m/proc/stat" fuzz-cpu-stat
	[ -f "$m/proc/interrupts" ] && cp_as "$m/proc/interrupts" fuzz-interrupts
	[ -f "$m/proc/softirqs" ] && cp_as "$m/proc/softirqs" fuzz-softirqs
	[ -f "$m/proc/net/softnet_stat" ] && cp_as "$m/proc/net/softnet_stat" fuzz-softnet
	for f in $(find "$m/sys/devices/system/cpu" -maxdepth 1 -name online -o -maxdepth 1 -name possible 2>/dev/null); do
		cp_as "$f" fuzz-cpu-stat
	done
	for f in $(find "$m/sys/devices" -name current_link_speed -o -name max_link_speed 2>/dev/null | head -4); do
		cp_as "$f" fuzz-pci
	done
done
if [ -d "$SHARED" ]; then
	for f in "$SHARED"/*interrupts*; do cp "$f" "$C/fuzz-interrupts/shared_$(basename "$f")"; done
	for f in "$SHARED"/*softnet*; do cp "$f" "$C/fuzz-softnet/shared_$(basename "$f")"; done
	for f in "$SHARED"/lspci-* "$SHARED"/dmesg-pcie*; do cp "$f" "$C/fuzz-pci/shared_$(basename "$f")"; done
fi
for f in tests/fixtures/counters/*.txt; do cp_as "$f" fuzz-netstat; done
for f in tests/fixtures/counters/ethtool-S*; do cp_as "$f" fuzz-nic-stats; done
for d in tests/fixtures/netlink/*/; do
	[ -f "$d/link.bin" ] && cp_as "$d/link.bin" fuzz-link
	for f in "$d"/*.bin; do
		case $f in */link.bin) ;; *) cp_as "$f" fuzz-ethtool ;; esac
	done
done

# the control protocol: parameters and results as iperf3 3.12 and
# pipescope send them, and a few edges
p=$C/fuzz-params
printf '%s' '{"tcp":true,"omit":0,"time":10,"num":0,"blockcount":0,"parallel":1,"len":131072,"pacing_timer":1000,"client_version":"3.12"}' >"$p/iperf3-tcp"
printf '%s' '{"udp":true,"omit":0,"time":5,"num":0,"blockcount":0,"parallel":4,"reverse":true,"len":1460,"bandwidth":1000000000,"pacing_timer":1000,"udp_counters_64bit":1,"client_version":"3.12"}' >"$p/iperf3-udp-r"
printf '%s' '{"tcp":true,"omit":2,"time":30,"num":0,"blockcount":0,"MSS":1400,"nodelay":true,"parallel":8,"bidirectional":true,"window":1048576,"len":131072,"fqrate":0,"TOS":16,"congestion":"cubic","get_server_output":1,"client_version":"0.1.0","pipescope":{"ext":1,"gsro":true}}' >"$p/pipescope-bidir"
printf '%s' '{"cpu_util_total":12.5,"cpu_util_user":1.5,"cpu_util_system":11,"sender_has_retransmits":18446744073709551615,"congestion_used":"bbr","streams":[{"id":1,"bytes":123456789,"retransmits":18446744073709551615,"jitter":0.0001,"errors":0,"packets":0,"start_time":0,"end_time":10.0}]}' >"$p/results-3.12"
printf '%s' '{"cpu_util_total":1,"cpu_util_user":0,"cpu_util_system":1,"sender_has_retransmits":-1,"streams":[{"id":1,"bytes":10,"retransmits":-1,"jitter":0.5,"errors":3,"omitted_errors":0,"packets":100,"omitted_packets":0},{"id":3,"bytes":10}],"server_output_text":"x","pipescope":{"streams":[]}}' >"$p/results-udp"
printf '%s' '{"time":1e300,"parallel":-0.0,"len":NaN,"num":"x","TOS":[1],"pipescope":1}' >"$p/absurd"
r=$C/fuzz-recv-json
for f in "$p"/*; do
	n=$(wc -c <"$f")
	# a 4-byte big-endian length, then the JSON
	printf "\\$(printf '%03o' $((n >> 24 & 255)))\\$(printf '%03o' $((n >> 16 & 255)))\\$(printf '%03o' $((n >> 8 & 255)))\\$(printf '%03o' $((n & 255)))" >"$r/$(basename "$f")"
	cat "$f" >>"$r/$(basename "$f")"
done
printf '\000\000\000\000' >"$r/len-0"
printf '\177\377\377\377{}' >"$r/len-2g"
# the far end's probe snapshot: the golden snapshots of the small recorded
# machines, as the wire carries them (one line), and a few edges
s=$C/fuzz-snapshot
for m in virtio-2cpu i40e-4cpu pcie-downgraded softnet-squeeze; do
	python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1])), separators=(",", ":")), end="")' \
		"tests/fixtures/golden/$m.json" >"$s/$m"
done
head -c 2000 "$s/virtio-2cpu" >"$s/truncated"
sed 's/"snapshot_version":1/"snapshot_version":2/' "$s/i40e-4cpu" >"$s/newer-version"
sed 's/"interval_s":[0-9.e+-]*/"interval_s":NaN/g; s/"busy":[0-9.]*/"busy":Infinity/g' \
	"$s/pcie-downgraded" >"$s/nan"
# the run history: a file of the first schema (migrated when read) and one
# of two loopback runs recorded by pipescope -c --history (forward, -P 2 -R)
cp tests/fixtures/history-v1.db tests/fixtures/history-two-runs.db "$C/fuzz-history/"
echo "corpus: $(find "$C" -type f | wc -l) files, $(du -sk "$C" | cut -f1) KiB"
