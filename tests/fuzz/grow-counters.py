#!/usr/bin/env python3
"""grow-counters.py TREE STOPFILE: a far end's counters no host could count.

Every 0.2 s until STOPFILE exists, rewrites TREE/proc/net/snmp,
TREE/proc/net/netstat and TREE/tc/eth0.txt (a recorded tree that a
"pipescope -s --sysroot TREE" server reads its probes from) with every
number of the recording grown by k * 2^58 (k counting up), and every
fourth time shrunk back to the recording: deltas that jump past what any
link carries in a second, and that go backwards. Each file is replaced
whole (rename), so a reader never sees half of one. The tc backlog is
made 2^40 bytes, past the kernel's 32 bits."""
import os
import re
import sys
import time

tree, stop = sys.argv[1], sys.argv[2]
files = [os.path.join(tree, p) for p in
         ("proc/net/snmp", "proc/net/netstat", "tc/eth0.txt")]
base = {}
for f in files:
    with open(f) as fh:
        base[f] = fh.read()


def grown(text, k, tc):
    def num(m):
        return str(int(m.group(0)) + k * (1 << 58))
    if tc:
        text = re.sub(r"backlog \d+b", "backlog %db" % (1 << 40), text)
        return re.sub(r"(?<=Sent )\d+|(?<=dropped )\d+|(?<=overlimits )\d+",
                      num, text)
    # the values' lines of /proc/net/snmp and netstat ("Tcp: 1 200 ...")
    out = []
    for line in text.splitlines(True):
        head, _, rest = line.partition(":")
        if rest and re.match(r"^[\s\d-]+$", rest):
            rest = re.sub(r"(?<![-\d])\d+", num, rest)
        out.append(head + (":" if _ else "") + rest)
    return "".join(out)


k = 0
while not os.path.exists(stop):
    k += 1
    for f in files:
        text = base[f] if k % 4 == 0 else grown(base[f], k % 4, f.endswith(".txt"))
        with open(f + ".new", "w") as fh:
            fh.write(text)
        os.rename(f + ".new", f)
    time.sleep(0.2)
