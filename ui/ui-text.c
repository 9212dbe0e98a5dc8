/* ui-text.c: the short numbers and phrases of the workstation screen
 * (rates, sizes, times, the PCIe "x8 8GT/s of x8 8GT/s" line) */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "nls.h"
#include "probe-pci.h"
#include "status.h"
#include "ui-text.h"
#include "units.h"

/* -f: 0 or 'a' adaptive, k m g t a fixed bit unit, K M G T bytes */
static char rate_format;

void ui_text_set_format(char f)
{
	rate_format = f == 'a' || f == 'A' ? 0 : f;
}

/* the fixed unit of -f (1 k .. 4 T), or -1 */
static int fixed_unit(void)
{
	const char *u = "kmgt", *p;

	if (!rate_format)
		return -1;
	p = strchr(u, rate_format | 0x20);
	return p ? (int)(p - u) + 1 : -1;
}

void ui_fmt_bps(char *buf, size_t len, double bps)
{
	if (rate_format >= 'A' && rate_format <= 'Z')
		ps_fmt_rate(buf, len, bps, rate_format);
	else
		ps_fmt_scaled(buf, len, bps, &ps_scale_screen_bps,
			      fixed_unit());
}

void ui_fmt_bps_short(char *buf, size_t len, double bps)
{
	size_t n;

	if (!(rate_format >= 'A' && rate_format <= 'Z')) {
		ps_fmt_scaled(buf, len, bps, &ps_scale_screen_bps_short,
			      fixed_unit());
		return;
	}
	/* bytes a second: "1121MB" */
	ps_fmt_scaled(buf, len, bps / 8, &ps_scale_screen_bytes_short,
		      fixed_unit());
	n = strlen(buf);
	if (n + 1 < len && bps > 0)
		snprintf(buf + n, len - n, "B");
}

void ui_fmt_bytes_short(char *buf, size_t len, double bytes)
{
	ps_fmt_scaled(buf, len, bytes, &ps_scale_screen_bytes_short, -1);
}

void ui_fmt_usec(char *buf, size_t len, double us)
{
	ps_fmt_scaled(buf, len, us, &ps_scale_screen_usec, -1);
}

void ui_fmt_gts(char *buf, size_t len, double gts)
{
	if (gts > 0)
		snprintf(buf, len, "%gGT/s", gts);
	else
		snprintf(buf, len, "?GT/s");
}

void ui_fmt_pcie(const struct ps_pci_info *pci, bool utf8, char *buf,
		 size_t len)
{
	char sta[32], cap[32], lim[32];
	size_t n;

	if (pci->status != PS_ST_OK) {
		snprintf(buf, len, "%s%s%s", ps_status_text(pci->status),
			 pci->reason[0] ? ": " : "", pci->reason);
		return;
	}
	if (pci->link_status != PS_ST_OK) {
		snprintf(buf, len, "%s%s%s", ps_status_text(pci->link_status),
			 pci->link_reason[0] ? ": " : "", pci->link_reason);
		return;
	}
	ui_fmt_gts(sta, sizeof(sta), pci->sta_speed);
	ui_fmt_gts(cap, sizeof(cap), pci->cap_speed);
	n = (size_t)snprintf(buf, len, "x%d %s of x%d %s", pci->sta_width, sta,
			     pci->cap_width, cap);
	if (n >= len)
		return;
	if (pci->downgraded)
		n += (size_t)snprintf(buf + n, len - n, " %s %s",
				      utf8 ? "\u2014" : "--", _("degraded"));
	if (n < len && pci->limited_upstream && pci->limit_width > 0) {
		ui_fmt_gts(lim, sizeof(lim), pci->limit_speed);
		snprintf(buf + n, len - n, _(", upstream x%d %s at %s"),
			 pci->limit_width, lim, pci->limit_bdf);
	}
}

/* the next character of s: its bytes, and in *cols its display columns
 * (a byte that is no character of the locale counts as one, one wide) */
static size_t next_char(const char *s, mbstate_t *st, int *cols)
{
	wchar_t wc;
	size_t k = mbrtowc(&wc, s, MB_CUR_MAX, st);
	int w;

	if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
		memset(st, 0, sizeof(*st));
		*cols = 1;
		return 1;
	}
	w = wcwidth(wc);
	*cols = w > 0 ? w : 0;
	return k;
}

int ui_text_width(const char *s)
{
	mbstate_t st;
	int cols = 0, w;

	memset(&st, 0, sizeof(st));
	while (*s) {
		s += next_char(s, &st, &w);
		cols += w;
	}
	return cols;
}

void ui_text_clip(char *s, int cols)
{
	mbstate_t st;
	char *p = s;
	int used = 0, w;

	memset(&st, 0, sizeof(st));
	while (*p) {
		size_t k = next_char(p, &st, &w);

		if (used + w > cols)
			break;
		used += w;
		p += k;
	}
	*p = 0;
}

void ui_text_ascii(char *s)
{
	static const struct {
		const char *utf8, *ascii;
	} fold[] = {
		{ "\u00d7", "x" },  { "\u2192", "->" },	 { "\u2265", ">=" },
		{ "\u2264", "<=" }, { "\u2026", "..." }, { "\u2014", "--" },
		{ "\u2013", "-" },  { "\u00b5", "u" },
	};
	char *p;

	for (size_t i = 0; i < sizeof(fold) / sizeof(fold[0]); i++) {
		size_t ul = strlen(fold[i].utf8), al = strlen(fold[i].ascii);

		/* never longer than the sign it replaces */
		if (al > ul)
			continue;
		while ((p = strstr(s, fold[i].utf8))) {
			memcpy(p, fold[i].ascii, al);
			memmove(p + al, p + ul, strlen(p + ul) + 1);
		}
	}
}
