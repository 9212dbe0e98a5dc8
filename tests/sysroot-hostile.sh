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
finish
