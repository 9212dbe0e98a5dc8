#!/bin/sh
# layers.sh: the folders are layers and no #include points upward or round
# in a circle.
#   src/lib (ground) <- probes <- src/engine <- src/check <- src/history <- ui
#   <- src/cmd
# A file may include headers of its own folder and of any folder below it.
# Between files, the "#include" graph has no cycle (a header that includes
# a header that includes it back). Headers are named by basename (-I covers
# every folder), so each name must exist in exactly one folder.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
cd "$top_srcdir" || exit 99

LAYERS="src/lib probes src/engine src/check src/history ui src/cmd"

# one line per include between our files: "from-file to-file"
edges=$(for d in $LAYERS; do
	for f in "$d"/*.c "$d"/*.h; do
		[ -f "$f" ] || continue
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
			while read -r h; do
				to=""
				for e in $LAYERS; do
					[ -f "$e/$h" ] && to="$to $e/$h"
				done
				echo "$f$to"
			done
	done
done)

# every header name resolves to one file of ours (config.h is generated)
T_COUNT=$((T_COUNT + 1))
dups=$(echo "$edges" | awk 'NF > 2')
[ -z "$dups" ] || fail "a header name exists in two folders: $dups"

rank() {
	n=0
	for e in $LAYERS; do
		case "$1" in "$e"/*) echo $n; return ;; esac
		n=$((n + 1))
	done
	echo 99
}

T_COUNT=$((T_COUNT + 1))
up=$(echo "$edges" | while read -r from to; do
	[ -n "$to" ] || continue
	[ "$(rank "$from")" -ge "$(rank "$to")" ] || echo "$from includes $to"
done)
[ -z "$up" ] || fail "includes that point up a layer: $(echo "$up" | tr '\n' ';')"

# file-level cycles: repeatedly drop files that include nothing left; what
# remains is on a cycle
T_COUNT=$((T_COUNT + 1))
cyc=$(echo "$edges" | awk 'NF == 2 { e[$1, $2] = 1; out[$1]++; n[$1]; n[$2] }
END {
	do {
		changed = 0
		for (f in n) if (!(f in gone) && out[f] == 0) {
			gone[f] = 1; changed = 1
			for (k in e) { split(k, p, SUBSEP)
				if (p[2] == f && e[k]) { e[k] = 0; out[p[1]]-- } }
		}
	} while (changed)
	for (f in n) if (!(f in gone)) printf "%s ", f
}')
[ -z "$cyc" ] || fail "an include cycle among (or reached from) these files: $cyc"

[ "$T_FAILS" -eq 0 ] && pass "$(echo "$edges" | grep -c ' ') includes follow the layers $LAYERS"
finish
