/* svg.c: line charts and heatmaps as SVG (svg.h); every string escaped,
 * every number finite before it is printed */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nls.h"
#include "sanitize.h"
#include "svg.h"
#include "units.h"
#include "xmalloc.h"

/* ---- escaping --------------------------------------------------------- */

static const char *entity(char c)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	case '\'':
		return "&#39;";
	}
	return NULL;
}

/* the sanitized form: controls made visible, line breaks spaces */
static char *clean(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	/* a byte grows to at most 6 ("\u2028" from 3 bytes, "\x1b" from 1) */
	return ps_sanitize_dup(s, 4 * n + 16, PS_SAN_SPACES);
}

void ps_xml_escape(FILE *out, const char *s)
{
	char *c = clean(s);

	for (const char *p = c; *p; p++) {
		const char *e = entity(*p);

		if (e)
			fputs(e, out);
		else
			fputc(*p, out);
	}
	free(c);
}

char *ps_xml_escape_buf(char *buf, size_t cap, const char *s)
{
	char *c = clean(s);
	size_t o = 0;

	if (!cap)
		goto out;
	for (const char *p = c; *p; p++) {
		const char *e = entity(*p);
		size_t l = e ? strlen(e) : 1;

		/* not into the middle of a UTF-8 character: drop the rest
		 * of one that does not fit */
		if (!e && ((unsigned char)*p & 0xc0) == 0xc0) {
			size_t k = 1;

			while (((unsigned char)p[k] & 0xc0) == 0x80)
				k++;
			l = k;
		}
		if (o + l >= cap)
			break;
		memcpy(buf + o, e ? e : p, l);
		o += l;
		if (!e)
			p += l - 1;
	}
	buf[o] = 0;
out:
	free(c);
	return buf;
}

/* ---- numbers ------------------------------------------------------------ */

/* the largest magnitude a chart computes with: sums and differences of
 * two of them stay finite */
#define BIG 1e300

static double clampv(double v)
{
	return v > BIG ? BIG : v < -BIG ? -BIG : v;
}

/* a coordinate, always finite and near the picture */
static double px(double v)
{
	if (!isfinite(v))
		return 0;
	return v > 1e5 ? 1e5 : v < -1e5 ? -1e5 : v;
}

void ps_svg_format(char *buf, size_t len, double v, enum ps_svg_unit unit)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", _("no data"));
		return;
	}
	switch (unit) {
	case PS_SVG_BPS:
		ps_fmt_bps(buf, len, v);
		break;
	case PS_SVG_SECONDS:
		/* an interval's end is "2.00085": "2 s" */
		if (fabs(v) < 1e9)
			ps_fmt_trimmed(buf, len, 2, v);
		else
			snprintf(buf, len, "%.3g", v);
		snprintf(buf + strlen(buf), len - strlen(buf), " s");
		break;
	case PS_SVG_PER_S:
		snprintf(buf, len, fabs(v) < 1e9 ? "%.0f/s" : "%.0e/s", v);
		break;
	case PS_SVG_PCT:
		snprintf(buf, len, fabs(v) < 1e5 ? "%.0f%%" : "%.0e%%", v);
		break;
	case PS_SVG_PLAIN:
		snprintf(buf, len, "%g", v);
		break;
	case PS_SVG_ROUND:
		if (fabs(v) >= 1e5)
			snprintf(buf, len, "%.0e", v);
		else
			snprintf(buf, len, "%.0f", v);
		break;
	}
}

/* a character's width in em: DejaVu Sans's and Liberation Sans's, the
 * larger, rounded up in classes */
static double char_em(unsigned char c)
{
	if (c >= 0x80)
		return 1.0; /* one character of another script, a symbol */
	if (strchr("il.,:;'|!j", c))
		return 0.34;
	if (strchr("ftr()[] /-", c))
		return 0.42;
	if (strchr("mwMW%@", c))
		return 1.0;
	if (c >= 'A' && c <= 'Z')
		return 0.8;
	if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
		return 0.64;
	return 0.84;
}

double ps_svg_text_width(const char *s, double px)
{
	double em = 0;

	/* a UTF-8 character counts once, at its first byte */
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;
	     p++)
		if ((*p & 0xc0) != 0x80)
			em += char_em(*p);
	return em * px;
}

/* s sanitized into buf, cut with "…" to at most room px at 12 px (whole
 * characters off its end); whether it was cut */
static bool fit_label(const char *s, double room, char *buf, size_t len)
{
	double ell = ps_svg_text_width("…", 12);
	size_t n;

	ps_sanitize(buf, len, s, PS_SAN_SPACES);
	if (ps_svg_text_width(buf, 12) <= room)
		return false;
	n = strlen(buf);
	while (n > 0 && ps_svg_text_width(buf, 12) + ell > room) {
		while (n > 0 && ((unsigned char)buf[n - 1] & 0xc0) == 0x80)
			n--;
		if (n > 0)
			n--;
		buf[n] = 0;
	}
	if (n + sizeof("…") <= len)
		strcat(buf, "…");
	return true;
}

struct scale {
	double lo, hi, step;
};

/* a range that holds lo..hi with round ticks, 3 to 10 of them */
static void nice_scale(double lo, double hi, struct scale *s)
{
	double raw, mag, f;

	lo = clampv(lo);
	hi = clampv(hi);
	if (!(hi > lo) && hi == 0) {
		hi = 1; /* all zero: 0..1 */
	} else if (!(hi > lo)) {
		double d = fabs(hi) / 2; /* one value: in the middle */

		lo -= d;
		hi += d;
	}
	raw = (hi - lo) / 5;
	mag = pow(10, floor(log10(raw)));
	if (!(mag > 0) || !isfinite(mag))
		mag = raw > 0 && isfinite(raw) ? raw : 1;
	f = raw / mag;
	s->step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
	s->lo = floor(lo / s->step) * s->step;
	s->hi = ceil(hi / s->step) * s->step;
	if (!isfinite(s->lo) || s->lo > lo)
		s->lo = lo;
	if (!isfinite(s->hi) || s->hi < hi)
		s->hi = hi;
	if (!isfinite(s->step) || !(s->step > 0))
		s->step = s->hi - s->lo;
}

/* where v goes on an axis of length len from a (at lo) */
static double map(const struct scale *s, double v, double a, double len)
{
	return px(a + (clampv(v) - s->lo) / (s->hi - s->lo) * len);
}

/* ---- the document ---------------------------------------------------------
 */

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
	"#ff7f0e", "#8c564b", "#e377c2", "#17becf",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

static void svg_open(FILE *out, const char *id, const char *cls, int w, int h,
		     bool standalone, const char *title)
{
	if (standalone)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	/* inline in HTML the namespace is implied: the page names no URL */
	fprintf(out, "<svg%s class=\"ps-chart %s\" id=\"",
		standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "", cls);
	ps_xml_escape(out, id);
	fprintf(out,
		"\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n",
		w, h, w, h);
	fputs("<title>", out);
	ps_xml_escape(out, title);
	fputs("</title>\n", out);
	fprintf(out,
		"<rect class=\"bg\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
		"fill=\"#ffffff\"/>\n",
		w, h);
	/* a long title (it may name a test) smaller, so it fits; bold is
	 * a tenth wider */
	fprintf(out,
		"<text class=\"chart-title\" x=\"10\" y=\"18\" "
		"font-size=\"%.1f\" font-weight=\"bold\">",
		fmax(9, fmin(14, 14 * (w - 20) /
					 (1.1 * ps_svg_text_width(title, 14) +
					  1))));
	ps_xml_escape(out, title);
	fputs("</text>\n", out);
}

static void svg_text(FILE *out, const char *cls, double x, double y,
		     const char *anchor, const char *s)
{
	fprintf(out, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\"", cls, px(x),
		px(y));
	if (anchor)
		fprintf(out, " text-anchor=\"%s\"", anchor);
	fputc('>', out);
	ps_xml_escape(out, s);
	fputs("</text>\n", out);
}

static void svg_close(FILE *out)
{
	fputs("</svg>\n", out);
}

/* ---- the line chart ---------------------------------------------------------
 */

#define LW 760
#define LH 340
#define LEFT 105
#define RIGHT 20
#define TOP 60
#define BOTTOM 50

static void data_range(const struct ps_svg_line_chart *c, double *xlo,
		       double *xhi, double *ylo, double *yhi, int *npoints)
{
	*xlo = INFINITY;
	*xhi = -INFINITY;
	*ylo = 0;
	*yhi = -INFINITY;
	*npoints = 0;
	for (int k = 0; k < c->nseries; k++) {
		const struct ps_svg_series *s = &c->series[k];

		for (int i = 0; i < s->n; i++) {
			double x = s->x[i], y = s->y[i];

			if (!isfinite(x) || !isfinite(y))
				continue;
			x = clampv(x);
			y = clampv(y);
			(*npoints)++;
			*xlo = fmin(*xlo, x);
			*xhi = fmax(*xhi, x);
			*ylo = fmin(*ylo, y);
			*yhi = fmax(*yhi, y);
		}
	}
}

static const char *label_of(const char *const *l, int i)
{
	return l && l[i] ? l[i] : "";
}

#define LEGEND_Y 28    /* the first legend line's squares */
#define LEGEND_LINE 18 /* and the next ones' */

/* the legend under the title: a square and the name of each series, onto
 * another line when an entry would pass the right edge; with out NULL
 * only laid out. The lines it takes */
static int legend(FILE *out, const char *const *names, int n)
{
	double x = 10;
	int line = 0;

	for (int k = 0; k < n; k++) {
		const char *name = names[k] ? names[k] : "";
		double w = 16 + ps_svg_text_width(name, 12) + 12, y;

		if (x > 10 && x + w > LW - 10) {
			line++;
			x = 10;
		}
		y = LEGEND_Y + line * LEGEND_LINE;
		if (out) {
			fprintf(out,
				"<rect class=\"legend\" x=\"%.1f\" "
				"y=\"%.1f\" width=\"12\" height=\"12\" "
				"fill=\"%s\"/>\n",
				px(x), y, palette[k % NPALETTE]);
			svg_text(out, "legend-label", x + 16, y + 10, NULL,
				 name);
		}
		x += w;
	}
	return line + 1;
}

/* the y axis's grid lines and ticks, the plot's top at top */
static void y_grid(FILE *out, const struct scale *ys, double top, double pw,
		   double ph, enum ps_svg_unit unit)
{
	char v[64];

	for (int k = 0; k <= 25; k++) {
		double t = ys->lo + k * ys->step, y;

		if (t > ys->hi + ys->step * 1e-6)
			break;
		y = map(ys, t, top + ph, -ph);
		fprintf(out,
			"<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" "
			"x2=\"%.0f\" "
			"y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n",
			LEFT, y, LEFT + pw, y);
		ps_svg_format(v, sizeof(v), fabs(t) < ys->step * 1e-9 ? 0 : t,
			      unit);
		svg_text(out, "tick", LEFT - 6, y + 4, "end", v);
	}
}

static void y_label(FILE *out, double top, double ph, const char *label)
{
	fprintf(out,
		"<text class=\"axis-label\" x=\"14\" y=\"%.1f\" "
		"text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">",
		top + ph / 2, top + ph / 2);
	ps_xml_escape(out, label);
	fputs("</text>\n", out);
}

/* a horizontal line is drawn when it does not squash the data */
static bool hline_shown(double y, double yhi, int npoints)
{
	if (!isfinite(y))
		return false;
	return !npoints || yhi <= 0 || clampv(y) <= 4 * yhi;
}

void ps_svg_line_chart(FILE *out, const struct ps_svg_line_chart *c,
		       bool standalone)
{
	double xlo, xhi, ylo, yhi;
	double pw = LW - LEFT - RIGHT, ph = LH - TOP - BOTTOM, top, height;
	struct scale xs, ys;
	char v[64], w[64], note[512] = "", lab[600];
	const char **names = xcalloc((size_t)(c->nseries > 0 ? c->nseries : 1),
				     sizeof(char *));
	int npoints;

	data_range(c, &xlo, &xhi, &ylo, &yhi, &npoints);
	for (int i = 0; i < c->nhlines; i++) {
		double y = c->hlines[i].y;

		if (hline_shown(y, yhi, npoints)) {
			ylo = fmin(ylo, clampv(y));
			yhi = fmax(yhi, clampv(y));
		}
	}
	if (!npoints) {
		xlo = 0;
		xhi = 1;
	}
	if (c->xzero)
		xlo = fmin(xlo, 0);
	if (!isfinite(yhi))
		yhi = 1;
	nice_scale(xlo, xhi, &xs);
	if (c->xinteger && xs.step < 1) {
		xs.step = 1;
		xs.lo = floor(xs.lo);
		xs.hi = ceil(xs.hi);
	}
	nice_scale(ylo, yhi, &ys);

	/* the legend, under the title: the plot and the picture grow by the
	 * lines it takes past the first */
	for (int k = 0; k < c->nseries; k++)
		names[k] = c->series[k].name;
	top = TOP + (legend(NULL, names, c->nseries) - 1) * LEGEND_LINE;
	height = LH + (top - TOP);
	svg_open(out, c->id, "ps-line", LW, (int)height, standalone, c->title);
	legend(out, names, c->nseries);
	free(names);
	/* the axes and the grid */
	fprintf(out,
		"<rect class=\"plot\" x=\"%d\" y=\"%.0f\" width=\"%.0f\" "
		"height=\"%.0f\" fill=\"none\" stroke=\"#888888\"/>\n",
		LEFT, top, pw, ph);
	y_grid(out, &ys, top, pw, ph, c->yunit);
	for (int k = 0; k <= 25; k++) {
		double t = xs.lo + k * xs.step, x;

		if (t > xs.hi + xs.step * 1e-6)
			break;
		x = map(&xs, t, LEFT, pw);
		ps_svg_format(v, sizeof(v), fabs(t) < xs.step * 1e-9 ? 0 : t,
			      c->xunit);
		svg_text(out, "tick", x, top + ph + 16, "middle", v);
	}
	svg_text(out, "axis-label", LEFT + pw / 2, height - 10, "middle",
		 c->xlabel);
	y_label(out, top, ph, c->ylabel);

	/* the horizontal lines and their names */
	for (int i = 0; i < c->nhlines; i++) {
		const struct ps_svg_hline *h = &c->hlines[i];
		double y;

		ps_svg_format(v, sizeof(v), h->y, c->yunit);
		if (!hline_shown(h->y, yhi, npoints)) {
			if (isfinite(h->y)) {
				size_t nl = strlen(note);

				snprintf(note + nl, sizeof(note) - nl,
					 "%s%s %s", nl ? ", " : "",
					 h->name ? h->name : "", v);
			}
			continue;
		}
		y = map(&ys, h->y, top + ph, -ph);
		fprintf(out,
			"<line class=\"hline\" x1=\"%d\" y1=\"%.1f\" "
			"x2=\"%.0f\" y2=\"%.1f\" stroke=\"#555555\" "
			"stroke-dasharray=\"6 4\"><title>",
			LEFT, y, LEFT + pw, y);
		ps_xml_escape(out, h->name);
		fprintf(out, ": ");
		ps_xml_escape(out, v);
		fputs("</title></line>\n", out);
		snprintf(lab, sizeof(lab), "%s %s", h->name ? h->name : "", v);
		svg_text(out, "hline-label", LEFT + pw - 4, y - 4, "end", lab);
	}
	if (note[0]) {
		snprintf(lab, sizeof(lab), _("above the chart: %s"), note);
		svg_text(out, "hline-note", LEFT + pw, top - 6, "end", lab);
	}
	if (!npoints)
		svg_text(out, "no-data", LEFT + pw / 2, top + ph / 2, "middle",
			 _("no data"));

	/* the series */
	for (int k = 0; k < c->nseries; k++) {
		const struct ps_svg_series *s = &c->series[k];
		const char *col = palette[k % NPALETTE];

		fprintf(out,
			"<polyline class=\"series\" fill=\"none\" "
			"stroke=\"%s\" stroke-width=\"2\" points=\"",
			col);
		for (int i = 0, first = 1; i < s->n; i++) {
			if (!isfinite(s->x[i]) || !isfinite(s->y[i]))
				continue;
			fprintf(out, "%s%.1f,%.1f", first ? "" : " ",
				map(&xs, s->x[i], LEFT, pw),
				map(&ys, s->y[i], top + ph, -ph));
			first = 0;
		}
		fputs("\"/>\n", out);
		for (int i = 0; i < s->n; i++) {
			if (!isfinite(s->x[i]) || !isfinite(s->y[i]))
				continue;
			fprintf(out,
				"<circle class=\"point\" cx=\"%.1f\" "
				"cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>",
				map(&xs, s->x[i], LEFT, pw),
				map(&ys, s->y[i], top + ph, -ph), col);
			ps_svg_format(v, sizeof(v), s->x[i], c->xunit);
			ps_svg_format(w, sizeof(w), s->y[i], c->yunit);
			ps_xml_escape(out, s->name);
			fputs(": ", out);
			ps_xml_escape(out, v);
			fputs(", ", out);
			ps_xml_escape(out, w);
			fputs("</title></circle>\n", out);
		}
	}
	svg_close(out);
}

/* ---- the bar chart ---------------------------------------------------------
 */

void ps_svg_bar_chart(FILE *out, const struct ps_svg_bar_chart *c,
		      bool standalone)
{
	int ng = c->ngroups > 0 ? c->ngroups : 0;
	int ns = c->nseries > 0 ? c->nseries : 0;
	double pw = LW - LEFT - RIGHT, ph = LH - TOP - BOTTOM, hi = 0, top, h;
	double gw = ng ? pw / ng : pw, bw;
	struct scale ys;
	const char **names = xcalloc((size_t)(ns ? ns : 1), sizeof(char *));
	char v[64];
	int nbars = 0;

	for (int i = 0; i < ng * ns; i++)
		if (isfinite(c->v[i])) {
			hi = fmax(hi, clampv(c->v[i]));
			nbars++;
		}
	nice_scale(0, hi, &ys);
	/* the bars of a group fill 70% of its width, at most 60 px each */
	bw = ns ? gw * 0.7 / ns : 0;
	if (bw > 60)
		bw = 60;

	for (int k = 0; k < ns; k++)
		names[k] = label_of(c->series_name, k);
	top = TOP + (legend(NULL, names, ns) - 1) * LEGEND_LINE;
	h = LH + (top - TOP);
	svg_open(out, c->id, "ps-bar", LW, (int)h, standalone, c->title);
	legend(out, names, ns);
	free(names);
	fprintf(out,
		"<rect class=\"plot\" x=\"%d\" y=\"%.0f\" width=\"%.0f\" "
		"height=\"%.0f\" fill=\"none\" stroke=\"#888888\"/>\n",
		LEFT, top, pw, ph);
	if (nbars)
		y_grid(out, &ys, top, pw, ph, c->unit);
	y_label(out, top, ph, c->ylabel);
	for (int g = 0; g < ng; g++) {
		double x0 = LEFT + g * gw + (gw - bw * ns) / 2, gtop = top + ph;

		svg_text(out, "group-label", LEFT + (g + 0.5) * gw,
			 top + ph + 16, "middle", label_of(c->group_label, g));
		for (int k = 0; k < ns; k++) {
			double y = c->v[g * ns + k], ty;

			if (!isfinite(y))
				continue;
			ty = map(&ys, fmax(clampv(y), 0), top + ph, -ph);
			gtop = fmin(gtop, ty);
			fprintf(out,
				"<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" "
				"width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"><title>",
				px(x0 + k * bw), ty, px(bw - 2),
				px(top + ph - ty), palette[k % NPALETTE]);
			ps_svg_format(v, sizeof(v), y, c->unit);
			ps_xml_escape(out, label_of(c->series_name, k));
			fputs(", ", out);
			ps_xml_escape(out, label_of(c->group_label, g));
			fputs(": ", out);
			ps_xml_escape(out, v);
			fputs("</title></rect>\n", out);
		}
		if (c->group_note && c->group_note[g] && c->group_note[g][0])
			svg_text(out, "group-note", LEFT + (g + 0.5) * gw,
				 gtop - 6, "middle", c->group_note[g]);
	}
	if (!nbars)
		svg_text(out, "no-data", LEFT + pw / 2, top + ph / 2, "middle",
			 _("no data"));
	svg_close(out);
}

/* ---- the heatmap ------------------------------------------------------------
 */

#define HLEFT 150
#define HTOP 50
#define HROW 20

/* light yellow (0) to dark red (1); grey for no data */
static void heat_colour(double t, char *buf, size_t len)
{
	if (!isfinite(t)) {
		snprintf(buf, len, "#d9d9d9");
		return;
	}
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	snprintf(buf, len, "#%02x%02x%02x", (int)(255 - 75 * t),
		 (int)(250 - 230 * t), (int)(205 - 180 * t));
}

void ps_svg_heatmap(FILE *out, const struct ps_svg_heatmap *h, bool standalone)
{
	int rows = h->rows > 0 ? h->rows : 0, cols = h->cols > 0 ? h->cols : 0;
	double vmax = h->vmax, cw, left = HLEFT;
	int width, height, every;
	char v[64], col[16], lab[80], rl[512];

	if (!(vmax > 0) || !isfinite(vmax)) {
		vmax = 0;
		for (int i = 0; i < rows * cols; i++)
			if (isfinite(h->v[i]))
				vmax = fmax(vmax, clampv(h->v[i]));
	}
	/* the row labels' room: the longest one's, up to half the width */
	for (int r = 0; r < rows; r++) {
		ps_sanitize(rl, sizeof(rl), label_of(h->row_label, r),
			    PS_SAN_SPACES);
		left = fmax(left, ps_svg_text_width(rl, 12) + 12);
	}
	left = fmin(left, LW / 2.0);
	cw = cols ? (LW - left - 20.0) / cols : 0;
	if (cw > 60)
		cw = 60;
	every = cw >= 22 ? 1 : (int)ceil(22 / (cw > 0 ? cw : 22));
	width = LW;
	height = HTOP + rows * HROW + 40;
	svg_open(out, h->id, "ps-heatmap", width, height, standalone, h->title);
	for (int c = 0; c < cols; c += every)
		svg_text(out, "col-label", left + (c + 0.5) * cw, HTOP - 6,
			 "middle", label_of(h->col_label, c));
	for (int r = 0; r < rows; r++) {
		double y = HTOP + r * HROW;

		if (fit_label(label_of(h->row_label, r), left - 12, rl,
			      sizeof(rl))) {
			/* cut: the whole label is its tooltip */
			fprintf(out,
				"<text class=\"row-label\" x=\"%.1f\" "
				"y=\"%.1f\" text-anchor=\"end\"><title>",
				left - 6, y + 14);
			ps_xml_escape(out, label_of(h->row_label, r));
			fputs("</title>", out);
			ps_xml_escape(out, rl);
			fputs("</text>\n", out);
		} else {
			svg_text(out, "row-label", left - 6, y + 14, "end", rl);
		}
		for (int c = 0; c < cols; c++) {
			double x = h->v[r * cols + c];

			heat_colour(!isfinite(x) ? NAN
				    : vmax > 0	 ? clampv(x) / vmax
						 : 0,
				    col, sizeof(col));
			fprintf(out,
				"<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" "
				"width=\"%.1f\" height=\"%d\" fill=\"%s\" "
				"stroke=\"#ffffff\" stroke-width=\"0.5\">"
				"<title>",
				left + c * cw, y, cw, HROW, col);
			ps_svg_format(v, sizeof(v), x, h->unit);
			ps_xml_escape(out, label_of(h->row_label, r));
			fputs(", ", out);
			ps_xml_escape(out, label_of(h->col_label, c));
			fputs(": ", out);
			ps_xml_escape(out, v);
			fputs("</title></rect>\n", out);
			/* the value in the cell when it fits, for a picture
			 * in a ticket that has no tooltips */
			if (cw >= 36 && isfinite(x)) {
				bool dark = vmax > 0 && clampv(x) / vmax > 0.5;

				fprintf(out,
					"<text class=\"cell-value\" x=\"%.1f\" "
					"y=\"%.1f\" text-anchor=\"middle\" "
					"font-size=\"10\" fill=\"%s\">",
					left + (c + 0.5) * cw, y + 14,
					dark ? "#ffffff" : "#000000");
				ps_svg_format(
					v, sizeof(v), x,
					h->unit == PS_SVG_PLAIN ||
							h->unit == PS_SVG_PER_S
						? PS_SVG_ROUND
						: h->unit);
				ps_xml_escape(out, v);
				fputs("</text>\n", out);
			}
		}
	}
	/* the scale: five steps from 0 to the hottest */
	for (int k = 0; k < 5; k++) {
		heat_colour(k / 4.0, col, sizeof(col));
		fprintf(out,
			"<rect class=\"scale\" x=\"%.1f\" y=\"%d\" "
			"width=\"16\" "
			"height=\"10\" fill=\"%s\"/>\n",
			left + k * 16, HTOP + rows * HROW + 14, col);
	}
	ps_svg_format(v, sizeof(v), vmax, h->unit);
	snprintf(lab, sizeof(lab), "0 .. %s", v);
	svg_text(out, "scale-label", left + 86, HTOP + rows * HROW + 24, NULL,
		 lab);
	if (!rows || !cols)
		svg_text(out, "no-data", LW / 2.0, HTOP + 10, "middle",
			 _("no data"));
	svg_close(out);
}

void ps_svg_heat_strip(FILE *out, const char *id, const char *title,
		       const char *label, int cols,
		       const char *const *col_label, const double *v,
		       double vmax, enum ps_svg_unit unit, bool standalone)
{
	const char *row[1] = { label };
	struct ps_svg_heatmap h = {
		.id = id,
		.title = title,
		.rows = 1,
		.cols = cols,
		.row_label = row,
		.col_label = col_label,
		.v = v,
		.vmax = vmax,
		.unit = unit,
	};

	ps_svg_heatmap(out, &h, standalone);
}
