/* sanitize.c: strings from the far end or a recorded tree, made safe to
 * print (no control characters, no escape sequences, valid UTF-8) */
#include "config.h"

#include <langinfo.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sanitize.h"
#include "xmalloc.h"

/*
 * The length of the valid UTF-8 sequence at s (2..4) and its code point,
 * or 0 when s does not start one (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF).
 */
static int utf8_seq(const unsigned char *s, uint32_t *cp)
{
	unsigned char c = s[0];
	uint32_t min, v;
	int n;

	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		v = c & 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		v = c & 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		v = c & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0; /* also stops at the NUL */
		v = v << 6 | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

/* a code point a terminal acts on, or one that reorders a line */
static int invisible(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/*
 * A single-byte charset other than ASCII (ISO 8859-x, KOI8-R, CP1252):
 * there 0xa0..0xff are characters (the translations are in it) and
 * 0x80..0x9f the C1 controls. The C locale is not one: its terminal is
 * most likely UTF-8.
 */
static bool eight_bit_locale(void)
{
	const char *cs;

	if (MB_CUR_MAX != 1)
		return false;
	cs = nl_langinfo(CODESET);
	return cs && *cs && strcmp(cs, "ANSI_X3.4-1968") && strcmp(cs, "ASCII");
}

static bool alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') ||
	       ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/*
 * Whether the printable ASCII character at p (start is the string's first
 * byte) needs a backslash in markdown: one that makes a link, an image,
 * HTML, a code span, emphasis, a table cell or (leading) a heading. An
 * '_' between two letters or digits stays: CommonMark never reads it as
 * emphasis, and our own names (tcp_rmem, pfifo_fast) keep their bytes.
 */
static bool md_special(const unsigned char *p, const unsigned char *start)
{
	switch (*p) {
	case '\\':
	case '`':
	case '*':
	case '[':
	case ']':
	case '<':
	case '>':
	case '|':
		return true;
	case '_':
		return p == start || !alnum(p[-1]) || !alnum(p[1]);
	case '#':
		return p == start;
	}
	return false;
}

char *ps_sanitize(char *dst, size_t cap, const char *s, unsigned flags)
{
	const unsigned char *start = (const unsigned char *)(s ? s : "");
	const unsigned char *p = start;
	bool eight = eight_bit_locale(), md = flags & PS_SAN_MARKDOWN;
	/* in markdown the backslash of an escape is itself escaped */
	const char *bs = md ? "\\" : "";
	size_t o = 0;

	if (!cap)
		return dst;
	while (*p) {
		char esc[12];
		const char *out = esc;
		size_t n, adv = 1;
		uint32_t cp;

		if (*p >= 0x20 && *p < 0x7f && md && md_special(p, start)) {
			esc[0] = '\\';
			esc[1] = (char)*p;
			n = 2;
		} else if (*p >= 0x20 && *p < 0x7f) {
			esc[0] = (char)*p;
			n = 1;
		} else if ((*p == '\n' || *p == '\t') &&
			   (flags & PS_SAN_MULTILINE)) {
			esc[0] = (char)*p;
			n = 1;
		} else if ((*p == '\n' || *p == '\t' || *p == '\r') &&
			   (flags & PS_SAN_SPACES)) {
			esc[0] = ' ';
			n = 1;
		} else if (*p < 0x80 || (eight && *p < 0xa0)) {
			n = (size_t)snprintf(esc, sizeof(esc), "%s\\x%02x", bs,
					     *p);
		} else if (eight) {
			esc[0] = (char)*p;
			n = 1;
		} else if ((adv = (size_t)utf8_seq(p, &cp)) == 0) {
			esc[0] = '?';
			n = 1;
			adv = 1;
		} else if (invisible(cp)) {
			n = (size_t)snprintf(esc, sizeof(esc), "%s\\u%04x", bs,
					     (unsigned)cp);
		} else {
			out = (const char *)p;
			n = adv;
		}
		if (o + n >= cap)
			break;
		memcpy(dst + o, out, n);
		o += n;
		p += adv;
	}
	dst[o] = 0;
	return dst;
}

static char *next_slot(void)
{
	static __thread char slot[PS_SAFE_SLOTS][PS_SAFE_MAX];
	static __thread unsigned next;

	return slot[next++ % PS_SAFE_SLOTS];
}

const char *ps_safe(const char *s)
{
	return ps_sanitize(next_slot(), PS_SAFE_MAX, s, 0);
}

const char *ps_md_safe(const char *s)
{
	return ps_sanitize(next_slot(), PS_SAFE_MAX, s, PS_SAN_MARKDOWN);
}

const char *ps_md_code(const char *s)
{
	char *buf = next_slot(), tmp[PS_SAFE_MAX];
	size_t cap = sizeof(tmp), len, fence, pad, need;

	/*
	 * Around the text a longer run of backticks than any inside, and a
	 * space between them and a backtick at either end (CommonMark strips
	 * one); when the whole does not fit the text is cut (between
	 * characters) until it does: a shorter text needs no longer fence.
	 */
	for (;;) {
		size_t run = 0, longest = 0;

		ps_sanitize(tmp, cap, s, 0);
		for (len = 0; tmp[len]; len++) {
			run = tmp[len] == '`' ? run + 1 : 0;
			if (run > longest)
				longest = run;
		}
		fence = longest + 1;
		pad = len && (tmp[0] == '`' || tmp[len - 1] == '`');
		need = len + 2 * (fence + pad);
		if (need < PS_SAFE_MAX)
			break;
		need -= PS_SAFE_MAX - 1; /* how much is over */
		cap = need < cap / 2 ? cap - need : cap / 2;
	}
	memset(buf, '`', fence);
	memset(buf + fence, ' ', pad);
	memcpy(buf + fence + pad, tmp, len);
	memset(buf + fence + pad + len, ' ', pad);
	memset(buf + fence + 2 * pad + len, '`', fence);
	buf[len + 2 * (fence + pad)] = 0;
	return buf;
}

char *ps_sanitize_dup(const char *s, size_t max, unsigned flags)
{
	size_t in = s ? strlen(s) : 0, cap;

	if (max < 1)
		max = 1;
	/* an escape is at most 4 bytes for each byte it replaces */
	cap = in < (max - 1) / 4 ? in * 4 + 1 : max;
	return ps_sanitize(xmalloc(cap), cap, s, flags);
}
