/* ui-draw.c: the drawing helpers every panel of the workstation uses
 * (clipped UTF-8 text, titles, repeated glyphs, label/value pairs) */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "nls.h"
#include "sanitize.h"
#include "ui-internal.h"
#include "ui-text.h"

void ui_put(int y, int x, int w, attr_t a, const char *text)
{
	wchar_t buf[512];
	signed char wid[512];
	char safe[2048];
	const char *s = safe;
	mbstate_t st;
	int n = 0, cols = 0;

	if (w <= 0 || y < 0 || x < 0 || y >= LINES || x >= COLS)
		return;
	if (x + w > COLS)
		w = COLS - x;
	/* every string on the screen may hold a peer's or a recorded tree's
	 * bytes: the one sanitiser takes out what a terminal would act on
	 * (one line: breaks and tabs are spaces); below, only what this
	 * locale cannot show or measure becomes '?' */
	ps_sanitize(safe, sizeof(safe), text, PS_SAN_SPACES);
	if (MB_CUR_MAX == 1)
		ui_text_ascii(safe);
	memset(&st, 0, sizeof(st));
	while (*s && n < (int)(sizeof(buf) / sizeof(buf[0])) - 1) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s, MB_CUR_MAX, &st);
		int cw;

		if (k == (size_t)-1 || k == (size_t)-2) {
			memset(&st, 0, sizeof(st));
			wc = L'?';
			k = 1;
		} else if (k == 0) {
			break;
		}
		cw = wcwidth(wc);
		if (cw < 0) {
			wc = L'?';
			cw = 1;
		}
		if (cols + cw > w)
			break;
		wid[n] = cw;
		buf[n++] = wc;
		cols += cw;
		s += k;
	}
	/* cut: at a word when one ends in the second half, with a mark */
	if (*s && n > 0 && w >= 4) {
		bool mid = *s != ' ';
		int ew = MB_CUR_MAX > 1 ? 1 : 3;

		while (n > 0 && (cols + ew > w || n > 500)) {
			mid = buf[n - 1] != L' ';
			cols -= wid[--n];
		}
		if (mid) {
			int k = n;

			while (k > 0 && buf[k - 1] != L' ')
				k--;
			if (k > n / 2)
				n = k;
		}
		while (n > 0 && buf[n - 1] == L' ')
			n--;
		if (ew == 1) {
			buf[n++] = L'\u2026';
		} else {
			buf[n++] = L'.';
			buf[n++] = L'.';
			buf[n++] = L'.';
		}
	}
	buf[n] = 0;
	attrset(a);
	mvaddnwstr(y, x, buf, n);
	attrset(A_NORMAL);
}

void ui_printf(int y, int x, int w, attr_t a, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ui_put(y, x, w, a, buf);
}

void ui_clear(const struct ui_rect *r)
{
	attrset(A_NORMAL);
	for (int i = 0; i < r->h; i++) {
		move(r->y + i, r->x);
		if (r->x + r->w >= COLS)
			clrtoeol();
		else
			hline(' ', r->w);
	}
}

void ui_repeat(int y, int x, int n, attr_t a, const char *glyph)
{
	char buf[2048];
	size_t gl = strlen(glyph), used = 0;

	if (n <= 0)
		return;
	for (int i = 0; i < n && used + gl < sizeof(buf); i++) {
		memcpy(buf + used, glyph, gl);
		used += gl;
	}
	buf[used] = 0;
	ui_put(y, x, n, a, buf);
}

struct ui_rect ui_title(struct ui *ui, const struct ui_rect *r,
			const char *title, const char *right)
{
	struct ui_rect in = *r;
	int tw, rw = 0;

	if (r->h <= 0)
		return in;
	tw = ui_text_width(title) + 2;
	ui_repeat(r->y, r->x, r->w, ui_attr(UI_C_DIM), ui->style.g->hline);
	ui_printf(r->y, r->x, r->w, ui_attr(UI_C_TITLE), " %s ", title);
	if (right && *right) {
		rw = ui_text_width(right) + 2;
		if (tw + rw + 2 <= r->w)
			ui_printf(r->y, r->x + r->w - rw - 1, rw,
				  ui_attr(UI_C_LABEL), " %s ", right);
	}
	in.y++;
	in.h--;
	return in;
}

int ui_pair(int y, int x, int xmax, const char *label, const char *value,
	    attr_t va)
{
	int lw = ui_text_width(label), vw = ui_text_width(value);

	if (x >= xmax)
		return x;
	if (lw) {
		ui_put(y, x, xmax - x, ui_attr(UI_C_LABEL), label);
		x += lw + 1;
	}
	if (x < xmax)
		ui_put(y, x, xmax - x, va, value);
	return x + vw + 2;
}

void ui_not_sampled(const struct ui_rect *r, int line)
{
	if (line < r->h)
		ui_put(r->y + line, r->x, r->w, ui_attr(UI_C_DIM),
		       _("not sampled yet"));
}

bool ui_scroll_key(int ch, int *top, int page, int end)
{
	switch (ch) {
	case KEY_UP:
		(*top)--;
		break;
	case KEY_DOWN:
		(*top)++;
		break;
	case KEY_PPAGE:
		*top -= page;
		break;
	case KEY_NPAGE:
		*top += page;
		break;
	case KEY_HOME:
		*top = 0;
		break;
	case KEY_END:
		*top = end;
		break;
	default:
		return false;
	}
	/* the draw keeps it to the lines there are */
	if (*top < 0)
		*top = 0;
	return true;
}
