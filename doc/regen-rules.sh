#!/bin/sh
# regen-rules.sh: rewrite the block of doc/check.md between its "rules:"
# markers from "pipescope check --rules --format markdown" (the tables beside
# the checks, src/check/rules.h). Run after changing a rule, then read
# "git diff doc/check.md"; tests/rules-doc.sh fails until they agree.
# Usage: doc/regen-rules.sh [path/to/pipescope]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ps=${1:-$top/pipescope}
doc=$top/doc/check.md
LC_ALL=C "$ps" check --rules --format markdown >"$doc.rules"
awk -v rules="$doc.rules" '
	/^<!-- rules: end/ { while ((getline l < rules) > 0) print l; skip = 0 }
	!skip { print }
	/^<!-- rules: begin/ { skip = 1 }
' "$doc" >"$doc.new"
rm -f "$doc.rules"
mv "$doc.new" "$doc"
git -C "$top" diff --stat -- doc/check.md 2>/dev/null || true
