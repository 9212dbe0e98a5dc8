#!/bin/sh
# i18n.sh: the Spanish catalogue is used under a Spanish locale.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd msgfmt gettext
loc=$(locale -a 2>/dev/null | grep -i '^es_ES\.utf-\?8$' | head -1)
[ -n "$loc" ] || skip "no es_ES.UTF-8 locale (./bootstrap creates it as root)"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/es/LC_MESSAGES"
msgfmt -c -o "$dir/es/LC_MESSAGES/pipescope.mo" "$top_srcdir/po/es.po" ||
	{ fail "po/es.po does not compile"; finish; }

run_es() { env -u LC_ALL -u LANGUAGE LANG="$loc" PIPESCOPE_LOCALEDIR="$dir" "$@"; }

expect_exit 2 "Spanish error for -P 0" -- run_es "$PIPESCOPE" -c 127.0.0.1 -P 0
case "$ERR" in
*"fuera de rango"*) pass "translated: $ERR" ;;
*) fail "not translated: $ERR" ;;
esac
expect_exit 2 "Spanish error for -c with -s" -- run_es "$PIPESCOPE" -c 127.0.0.1 -s
case "$ERR" in
*"no se pueden usar juntos"*) ;;
*) fail "not translated: $ERR" ;;
esac
expect_exit 0 "Spanish --help" -- run_es "$PIPESCOPE" --help
echo "$OUT" | grep -q "Uso:" || fail "--help not translated"
# the translated help fits a terminal of 80 columns, and its usage lines
# stand under each other (after "Uso: ", not "Usage: ")
T_COUNT=$((T_COUNT + 1))
wide=$(printf '%s\n' "$OUT" | LC_ALL=$loc wc -L)
[ "$wide" -le 80 ] && pass "Spanish --help: every line within 80 columns ($wide)" ||
	fail "Spanish --help: a line of $wide columns"
T_COUNT=$((T_COUNT + 1))
n=$(printf '%s\n' "$OUT" | grep -c '^     pipescope ')
[ "$n" -ge 8 ] && pass "Spanish --help: $n usage lines in line" ||
	fail "Spanish --help: only $n usage lines indented as 'Uso: '"
# and LANGUAGE=es alone selects it too, under any non-C locale
expect_exit 2 "LANGUAGE=es" -- env -u LC_ALL LANG="$loc" LANGUAGE=es PIPESCOPE_LOCALEDIR="$dir" "$PIPESCOPE" --bogus
case "$ERR" in *"desconocida"*) ;; *) fail "LANGUAGE=es not used: $ERR" ;; esac
# numbers keep the decimal point under a language whose numbers use a comma:
# iperf3's command line, the JSON of a loopback test (and of the server's
# probe readings on the wire), the kernel's "5.0 GT/s"
expect_exit 0 "Spanish: -t 0.5 and -J of a self-test" -- run_es "$PIPESCOPE" -t 1.5 -i 0.5 -J
T_COUNT=$((T_COUNT + 1))
echo "$OUT" | jq -e '.end.sum_received.bytes > 0 and .end.sum_received.seconds > 1.3 and .end.sum_received.seconds < 1.8' >/dev/null &&
	pass "Spanish: the JSON parses, 1.5 s read as 1.5" || fail "Spanish: bad JSON or duration: $(echo "$OUT" | head -c 300)"
tree="$top_srcdir/tests/fixtures/machines/pcie-downgraded"
if [ -d "$tree/sys" ]; then
	T_COUNT=$((T_COUNT + 1))
	# usable_how is a translated sentence: compare its numbers only
	q='.pci | .link.usable_how |= [scan("[0-9][0-9.]*")]'
	a=$(run_es "$PIPESCOPE" probe --sysroot "$tree" --iface enp5s0f0 --json | jq -c "$q")
	b=$(env LC_ALL=C "$PIPESCOPE" probe --sysroot "$tree" --iface enp5s0f0 --json | jq -c "$q")
	[ -n "$a" ] && [ "$a" = "$b" ] && pass "Spanish: the PCIe probe reads the same as in C" ||
		fail "Spanish: the PCIe probe differs: $a vs $b"
fi
# the C locale stays English
expect_exit 2 "C locale stays English" -- env LC_ALL=C PIPESCOPE_LOCALEDIR="$dir" "$PIPESCOPE" --bogus
case "$ERR" in *"unknown option"*) ;; *) fail "C locale not English: $ERR" ;; esac
finish
