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
# and LANGUAGE=es alone selects it too, under any non-C locale
expect_exit 2 "LANGUAGE=es" -- env -u LC_ALL LANG="$loc" LANGUAGE=es PIPESCOPE_LOCALEDIR="$dir" "$PIPESCOPE" --bogus
case "$ERR" in *"desconocida"*) ;; *) fail "LANGUAGE=es not used: $ERR" ;; esac
# the C locale stays English
expect_exit 2 "C locale stays English" -- env LC_ALL=C PIPESCOPE_LOCALEDIR="$dir" "$PIPESCOPE" --bogus
case "$ERR" in *"unknown option"*) ;; *) fail "C locale not English: $ERR" ;; esac
finish
