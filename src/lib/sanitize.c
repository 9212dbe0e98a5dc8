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
			return 0;	/* also stops at the NUL */
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
	       (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
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

char *ps_sanitize(char *dst, size_t cap, const char *s, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	bool eight = eight_bit_locale();
	size_t o = 0;

	if (!cap)
		return dst;
	while (*p) {
		char esc[8];
		const char *out = esc;
		size_t n, adv = 1;
		uint32_t cp;

		if (*p >= 0x20 && *p < 0x7f) {
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
			n = (size_t)snprintf(esc, sizeof(esc), "\\x%02x", *p);
		} else if (eight) {
			esc[0] = (char)*p;
			n = 1;
		} else if ((adv = (size_t)utf8_seq(p, &cp)) == 0) {
			esc[0] = '?';
			n = 1;
			adv = 1;
		} else if (invisible(cp)) {
			n = (size_t)snprintf(esc, sizeof(esc), "\\u%04x",
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

const char *ps_safe(const char *s)
{
	static __thread char slot[PS_SAFE_SLOTS][PS_SAFE_MAX];
	static __thread unsigned next;
	char *buf = slot[next++ % PS_SAFE_SLOTS];

	return ps_sanitize(buf, PS_SAFE_MAX, s, 0);
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
