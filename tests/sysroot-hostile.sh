#!/bin/bash
# sysroot-hostile.sh: a hostile --sysroot tree (issue 12, item 12). A copy
# of a recorded machine whose files are a FIFO, a link to /dev/zero, an
# absolute link and a "../.." link to a secret outside the tree, a 100 MB
# file and a link loop: "pipescope probe" and "check" finish at once, read
# nothing outside the tree, and say which fields they could not read. The
# tree's own relative links (/sys/class/net/...) still work.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
src=$top_srcdir/tests/fixtures/machines/virtio-2cpu
[ -d "$src/sys/class/net" ] || skip "recorded machine trees not here"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp -a "$src" "$dir/tree"
echo "TOPSECRET-outside-the-tree" >"$dir/secret"
t=$dir/tree
k=$t/proc/sys/kernel c=$t/proc/sys/net/core
rm -f "$k/hostname" "$k/osrelease" "$c/rmem_max" "$c/wmem_max" "$c/netdev_budget"
ln -s "$dir/secret" "$k/hostname"
ln -s ../../../../secret "$k/osrelease"
mkfifo "$c/rmem_max"
ln -s /dev/zero "$c/wmem_max"
ln -s netdev_budget "$c/netdev_budget"
truncate -s 100M "$t/proc/softirqs"

probe() {
	local t0 t1
	t0=$(date +%s%N)
	timeout 20 "$PIPESCOPE" probe --sysroot "$t" "$@" >"$dir/out" 2>"$dir/err"
	echo "exit $?" >>"$dir/err"
	t1=$(date +%s%N)
	MS=$(( (t1 - t0) / 1000000 ))
}

probe --json
check "probe --json finishes at once (${MS} ms, not blocked by the FIFO)" [ "$MS" -lt 5000 ]
check "probe --json: nothing from outside the tree" \
	sh -c "! grep -q TOPSECRET '$dir/out' '$dir/err'"
check "probe --json: the hostname is not read through an absolute link" \
	grep -q '"hostname": ""' "$dir/out"
check "the FIFO is not a file: net.core.rmem_max says so" \
	grep -q 'cannot read it: Invalid argument' "$dir/out"
check "the link to /dev/zero leaves the tree: net.core.wmem_max says so" \
	grep -q 'cannot read it: Invalid cross-device link' "$dir/out"
check "a link loop: net.core.netdev_budget says so" \
	grep -q 'cannot read it: Too many levels of symbolic links' "$dir/out"
check "a 100 MB /proc/softirqs is not read whole" \
	grep -q 'cannot read /proc/softirqs: File too large' "$dir/out"
check "the tree's own relative links still work (eth0's PCIe function)" \
	grep -q '"bdf": "0000:00:03.0"' "$dir/out"

probe
check "probe (text) finishes at once (${MS} ms)" [ "$MS" -lt 5000 ]
check "probe (text): nothing from outside the tree" \
	sh -c "! grep -q TOPSECRET '$dir/out' '$dir/err'"
check "probe (text): the host is unknown" grep -q '^host ?  kernel ?' "$dir/out"

t0=$(date +%s%N)
timeout 20 "$PIPESCOPE" check --sysroot "$t" >"$dir/out" 2>"$dir/err"
MS=$(( ($(date +%s%N) - t0) / 1000000 ))
check "check --sysroot finishes at once (${MS} ms)" [ "$MS" -lt 5000 ]
check "check: nothing from outside the tree" \
	sh -c "! grep -q TOPSECRET '$dir/out' '$dir/err'"

# Issue 24 item 10: a /proc/interrupts header of 65536 CPUs over 20000
# short rows (1.5 MB), a softirqs header as wide and 20000 softnet rows, in
# the recording of a 2-CPU machine (its /proc/stat says cpu0 and cpu1). The
# tables keep the CPUs the tree has: the resident peak and the JSON stay
# small, and they still say 2 CPUs and eth0's real counts. (This took
# 248 MiB and wrote 26 MB of JSON zeros.)
need_cmd python3 python3
need_cmd jq jq
w=$dir/wide
cp -a "$src" "$w"
python3 - "$w" <<'PY'
import sys
w = sys.argv[1]
hdr = " " * 11 + "".join("%10s " % ("CPU%d" % i) for i in range(65536))
real = open(w + "/proc/interrupts").read().split("\n", 1)[1]
short = "".join("%d: %s 1\n" % (1000 + i, " 0" * (i % 30))
                for i in range(20000))
open(w + "/proc/interrupts", "w").write(hdr + "\n" + real + short)
si = open(w + "/proc/softirqs").read().split("\n", 1)[1]
open(w + "/proc/softirqs", "w").write(hdr + "\n" + si)
last = open(w + "/proc/net/softnet_stat").read().splitlines(True)[-1]
open(w + "/proc/net/softnet_stat", "a").write(last * 20000)
PY
# probe_peak TREE: "probe --json" of TREE into $dir/out; its resident peak
# (KiB, getrusage of the child) in $peak, its exit status in $rc
probe_peak() {
	python3 - "$PIPESCOPE" "$1" "$dir/out" >"$dir/peak" 2>"$dir/err" <<'PY'
import resource, subprocess, sys
with open(sys.argv[3], "wb") as out:
    rc = subprocess.call([sys.argv[1], "probe", "--json", "--sysroot",
                          sys.argv[2]], stdout=out, timeout=60)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)
PY
	peak='' rc=''
	read -r peak rc <"$dir/peak"
}
# the peak of the same on the tree as recorded: what this build takes
# anyway (a sanitizer's shadow and quarantine), the wide one may add 32 MiB
probe_peak "$src"
base=${peak:-0}
probe_peak "$w"
size=$(wc -c <"$dir/out")
echo "wide header: interrupts $(wc -c <"$w/proc/interrupts") bytes;" \
	"resident peak ${peak:-?} KiB (${base} KiB as recorded)," \
	"JSON $size bytes, exit ${rc:-?}"
check "wide header: probe --json succeeds (exit ${rc:-?})" [ "${rc:-1}" = 0 ]
check "wide header: resident peak ${peak:-?} KiB < ${base} KiB + 32 MiB" \
	[ "${peak:-999999}" -lt $((base + 32768)) ]
check "wide header: JSON of $size bytes < 256 KB" [ "$size" -lt 262144 ]
J=$dir/out
jq_check "wide header: the IRQ table has the tree's 2 CPUs" \
	'(.irq.cpus | length) == 2'
jq_check "wide header: eth0's receive vector still counts 399 on CPU 1" \
	'[.irq.lines[] | select(.irq == 38) | .counts[1]] == [399]'
jq_check "wide header: softnet and softirqs still read for the 2 CPUs" \
	'[.irq.cpus[] | select(.softnet and .net_rx > 0)] | length == 2'

# the same of /proc/stat: cpu0, cpu2 ... cpu65534 and a cpu/present of
# 0-65535 (Linux builds at most 8192 CPUs). This took 6.6 s, 212 MiB and
# wrote 20 MB of JSON (a quadratic walk over the cores).
s=$dir/stat
cp -a "$src" "$s"
mkdir -p "$s/sys/devices/system/cpu"
echo 0-65535 >"$s/sys/devices/system/cpu/present"
python3 - "$s/proc/stat" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines(True)
cores = "".join("cpu%d 1 0 1 1 0 0 0 0 0 0\n" % i for i in range(0, 65536, 2))
open(sys.argv[1], "w").write(lines[0] + cores +
                             "".join(l for l in lines if not l.startswith("cpu")))
PY
t0=$(date +%s%N)
probe_peak "$s"
MS=$(( ($(date +%s%N) - t0) / 1000000 ))
size=$(wc -c <"$dir/out")
echo "32768 cores: resident peak ${peak:-?} KiB, JSON $size bytes, $MS ms"
check "32768 cores: probe --json finishes at once ($MS ms, exit ${rc:-?})" \
	[ "${rc:-1}" = 0 -a "$MS" -lt 5000 ]
check "32768 cores: resident peak ${peak:-?} KiB < ${base} KiB + 32 MiB" \
	[ "${peak:-999999}" -lt $((base + 32768)) ]
jq_check "32768 cores: the CPU probe says why it has no cores" \
	'.cpu.status == "error" and (.cpu.reason | test("at most 8192 CPUs"))'
finish
