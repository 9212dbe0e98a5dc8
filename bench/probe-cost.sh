#!/bin/sh
# probe-cost.sh: the cost of the probes, for the notes (not a test):
# CPU of the sampler thread at 1 Hz over 60 samples, memory over 10,000
# samples, and the time of one full sample live and on the 256-CPU tree.
# Usage: bench/probe-cost.sh [samples-at-1Hz]   (from the build directory)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$top}/bench/probe-cost
[ -x "$b" ] || { echo "build it first: make bench/probe-cost" >&2; exit 1; }
"$b" time 200
"$b" time 200 "$top/tests/fixtures/machines/wide-256cpu"
"$b" mem 10000
"$b" rate "${1:-60}"
