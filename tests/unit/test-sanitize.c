/* test-sanitize.c: the one sanitiser for strings from the far end or a
 * recorded tree: no control byte, no escape sequence, valid UTF-8, bounded */
#include "config.h"

#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sanitize.h"

static const char *san(const char *s, unsigned flags)
{
	static char buf[256];

	return ps_sanitize(buf, sizeof(buf), s, flags);
}

static void test_clean_kept(void **state)
{
	(void)state;
	assert_string_equal(san("cubic", 0), "cubic");
	assert_string_equal(san("host-1.example, kernel 6.1.0", 0),
			    "host-1.example, kernel 6.1.0");
	/* printable UTF-8 (é, an em dash, a CJK and a 4-byte character) */
	assert_string_equal(san("caf\xc3\xa9 \xe2\x80\x94 \xe4\xb8\xad "
				"\xf0\x9f\x98\x80",
				0),
			    "caf\xc3\xa9 \xe2\x80\x94 \xe4\xb8\xad "
			    "\xf0\x9f\x98\x80");
	assert_string_equal(san("", 0), "");
	assert_string_equal(san(NULL, 0), "");
	assert_string_equal(san("back\\slash", 0), "back\\slash");
}

static void test_controls(void **state)
{
	(void)state;
	/* ESC sequences: the title, a clear screen, a colour */
	assert_string_equal(san("\x1b]0;owned\x07", 0), "\\x1b]0;owned\\x07");
	assert_string_equal(san("a\x1b[2Jb", 0), "a\\x1b[2Jb");
	assert_string_equal(san("\x1b[31mred", 0), "\\x1b[31mred");
	assert_string_equal(san("del\x7f", 0), "del\\x7f");
	assert_string_equal(san("\x01\x1f", 0), "\\x01\\x1f");
	assert_string_equal(san("cr\rlf\ntab\t", 0), "cr\\x0dlf\\x0atab\\x09");
	/* C1 controls in UTF-8: CSI (U+009B), NEL (U+0085) */
	assert_string_equal(san("\xc2\x9b"
				"2J",
				0),
			    "\\u009b2J");
	assert_string_equal(san("\xc2\x85", 0), "\\u0085");
	/* bidirectional overrides and line separators */
	assert_string_equal(san("a\xe2\x80\xae"
				"b",
				0),
			    "a\\u202eb");
	assert_string_equal(san("\xe2\x80\xa8", 0), "\\u2028");
	assert_string_equal(san("\xe2\x81\xa6", 0), "\\u2066");
}

static void test_invalid_utf8(void **state)
{
	(void)state;
	/* a raw C1 byte (8-bit CSI), a lone continuation, a cut sequence */
	assert_string_equal(san("\x9b"
				"2J",
				0),
			    "?2J");
	assert_string_equal(san("\x80x", 0), "?x");
	assert_string_equal(san("\xe2\x80", 0), "??");
	/* overlong ESC, overlong '/', a surrogate, past U+10FFFF, 0xff */
	assert_string_equal(san("\xc1\x9b", 0), "??");
	assert_string_equal(san("\xe0\x80\xaf", 0), "???");
	assert_string_equal(san("\xed\xa0\x80", 0), "???");
	assert_string_equal(san("\xf4\x90\x80\x80", 0), "????");
	assert_string_equal(san("\xff\xfe", 0), "??");
}

static void test_flags(void **state)
{
	(void)state;
	assert_string_equal(san("l1\n\tl2\r\x1b", PS_SAN_MULTILINE),
			    "l1\n\tl2\\x0d\\x1b");
	assert_string_equal(san("l1\n\tl2\r\x1b", PS_SAN_SPACES),
			    "l1  l2 \\x1b");
}

static void test_bounds(void **state)
{
	char small[6], *d;
	char big[4000];

	(void)state;
	/* cut between characters, never inside an escape or a sequence */
	assert_string_equal(ps_sanitize(small, sizeof(small), "abcdefgh", 0),
			    "abcde");
	assert_string_equal(ps_sanitize(small, sizeof(small), "ab\x1b", 0),
			    "ab");
	assert_string_equal(
		ps_sanitize(small, sizeof(small), "abcd\xc3\xa9", 0), "abcd");
	assert_string_equal(ps_sanitize(small, 1, "abc", 0), "");
	/* ps_safe: bounded, and its slots do not overwrite each other */
	memset(big, 0x1b, sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	assert_true(strlen(ps_safe(big)) < PS_SAFE_MAX);
	{
		const char *a = ps_safe("one\x1b"), *b = ps_safe("two");

		assert_string_equal(a, "one\\x1b");
		assert_string_equal(b, "two");
	}
	/* ps_sanitize_dup: room for every escape, and the bound */
	d = ps_sanitize_dup("\x1b\x1b\x1b", 1000, 0);
	assert_string_equal(d, "\\x1b\\x1b\\x1b");
	free(d);
	d = ps_sanitize_dup(big, 100, 0);
	assert_true(strlen(d) < 100);
	assert_null(strchr(d, 0x1b));
	free(d);
}

/* whatever the input, no byte a terminal acts on comes out */
static void test_every_byte(void **state)
{
	char in[3], out[64];

	(void)state;
	for (int a = 1; a < 256; a++) {
		for (int b = 0; b < 256; b++) {
			in[0] = (char)a;
			in[1] = (char)b;
			in[2] = 0;
			ps_sanitize(out, sizeof(out), in, 0);
			for (const unsigned char *p =
				     (const unsigned char *)out;
			     *p; p++) {
				assert_false(*p < 0x20 || *p == 0x7f);
				/* a byte 0x80..0x9f only as the second of a
				 * printable 2-byte character (not U+0080..9F)
				 */
				if (*p >= 0x80 && *p <= 0x9f)
					assert_true(p > (const unsigned char *)
								    out &&
						    p[-1] >= 0xc3);
			}
		}
	}
}

/* a Latin-1 locale: its accented letters are kept (the translations are
 * in it), its C1 bytes escaped; built with localedef, else skipped */
static void test_latin1_locale(void **state)
{
	char dir[] = "/tmp/ps-locale-XXXXXX", cmd[256];

	(void)state;
	if (!mkdtemp(dir))
		skip();
	snprintf(cmd, sizeof(cmd),
		 "localedef -i es_ES -f ISO-8859-1 %s/es_ES.ISO-8859-1 "
		 ">/dev/null 2>&1",
		 dir);
	if (system(cmd) != 0 || setenv("LOCPATH", dir, 1) ||
	    !setlocale(LC_ALL, "es_ES.ISO-8859-1")) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		(void)system(cmd);
		skip();
	}
	assert_string_equal(san("a\xf1o \xe9t\xe9", 0), "a\xf1o \xe9t\xe9");
	assert_string_equal(san("\x9b"
				"2J\x85\x1b",
				0),
			    "\\x9b2J\\x85\\x1b");
	assert_string_equal(san("\xa0\xff", 0), "\xa0\xff");
	setlocale(LC_ALL, "C");
	unsetenv("LOCPATH");
	/* back in C: the UTF-8 rules again */
	assert_string_equal(san("\x9b", 0), "?");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_markdown(void **state)
{
	const unsigned md = PS_SAN_MARKDOWN;
	char big[2000];
	const char *c;

	(void)state;
	/* our own names keep their bytes */
	assert_string_equal(san("net.ipv4.tcp_rmem pfifo_fast 0-11 x8", md),
			    "net.ipv4.tcp_rmem pfifo_fast 0-11 x8");
	/* what makes a table cell, a code span, HTML, a link or emphasis */
	assert_string_equal(san("a|b`c`<script>[x](http://e)", md),
			    "a\\|b\\`c\\`\\<script\\>\\[x\\](http://e)");
	assert_string_equal(san("*b* _i_ x_ _y __z__", md),
			    "\\*b\\* \\_i\\_ x\\_ \\_y \\_\\_z\\_\\_");
	/* a heading only where it leads */
	assert_string_equal(san("# h #2", md), "\\# h #2");
	/* a backslash, ours (an escape) or theirs, stays a backslash */
	assert_string_equal(san("a\\b\x1b\xe2\x80\xae", md),
			    "a\\\\b\\\\x1b\\\\u202e");
	/* the other rules still hold; without the flag nothing changes */
	assert_string_equal(san("a|b\n", md | PS_SAN_SPACES), "a\\|b ");
	assert_string_equal(san("a|`<b>`", 0), "a|`<b>`");
	assert_string_equal(ps_md_safe("[x]"), "\\[x\\]");

	/* a code span: a fence longer than any run of backticks inside */
	assert_string_equal(ps_md_code("ethtool -G eth0 | grep x"),
			    "`ethtool -G eth0 | grep x`");
	assert_string_equal(ps_md_code("a`b``c"), "```a`b``c```");
	assert_string_equal(ps_md_code("`x"), "`` `x ``");
	assert_string_equal(ps_md_code("x\x1b"), "`x\\x1b`");
	assert_string_equal(ps_md_code(""), "``");
	/* cut to the slot, the fence always closed */
	memset(big, '`', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	c = ps_md_code(big);
	assert_true(strlen(c) < PS_SAFE_MAX);
	assert_int_equal(c[strlen(c) - 1], '`');
	memset(big, 'a', sizeof(big) - 1);
	c = ps_md_code(big);
	assert_int_equal(strlen(c), PS_SAFE_MAX - 1);
	assert_int_equal(c[0], '`');
	assert_int_equal(c[1], 'a');
	assert_int_equal(c[PS_SAFE_MAX - 2], '`');
	assert_int_equal(c[PS_SAFE_MAX - 3], 'a');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_kept),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_latin1_locale),
		cmocka_unit_test(test_markdown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
