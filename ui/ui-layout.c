/* ui-layout.c: where each panel of the workstation screen goes, how many
 * cores fit the CPU panel, how bars and graph columns are cut into cells */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ui-layout.h"

static void set(struct ui_rect *r, int y, int x, int h, int w)
{
	r->y = y;
	r->x = x;
	r->h = h > 0 ? h : 0;
	r->w = w > 0 ? w : 0;
}

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void ui_layout_compute(int rows, int cols, bool dashboard, int cpu_want,
		       struct ui_layout *out)
{
	ui_layout_compute_want(rows, cols, dashboard, cpu_want, 0, 0, out);
}

void ui_layout_compute_want(int rows, int cols, bool dashboard, int cpu_want,
			    int streams_want, int findings_want,
			    struct ui_layout *out)
{
	int mid_y, mid_h, left_w, right_x, right_w, fh, nh, sh, ih;

	memset(out, 0, sizeof(*out));
	out->dashboard = dashboard;
	if (rows < UI_MIN_ROWS || cols < UI_MIN_COLS) {
		out->too_small = true;
		return;
	}
	set(&out->p[UI_P_HEADER], 0, 0, 2, cols);
	set(&out->p[UI_P_MESSAGE], rows - 2, 0, 1, cols);
	set(&out->p[UI_P_FOOTER], rows - 1, 0, 1, cols);
	if (!dashboard) {
		set(&out->p[UI_P_BODY], 2, 0, rows - 4, cols);
		return;
	}

	/* bottom up: findings, NIC; the rest is the two-column middle */
	fh = rows >= 30 ? 3 : 2;
	if (findings_want > fh)
		fh = findings_want < rows / 5 ? findings_want : rows / 5;
	nh = rows >= 34 ? 5 : 4;
	set(&out->p[UI_P_FINDINGS], rows - 2 - fh, 0, fh, cols);
	set(&out->p[UI_P_NIC], rows - 2 - fh - nh, 0, nh, cols);
	mid_y = 2;
	mid_h = rows - 2 - fh - nh - mid_y;

	left_w = cols * 11 / 20;
	right_x = left_w + 1; /* one column of air between the halves */
	right_w = cols - right_x;
	sh = clamp(mid_h * 2 / 5, 4, mid_h - 4);
	/* the rows it has, the graph the rest (never below its minimum) */
	if (streams_want > 0)
		sh = clamp(streams_want, 4,
			   mid_h - UI_GRAPH_MIN_H > 4 ? mid_h - UI_GRAPH_MIN_H
						      : 4);
	ih = clamp(mid_h * 2 / 5, 4, mid_h - 4);
	if (cpu_want > 0)
		ih = mid_h - clamp(cpu_want, 4, mid_h - 4);
	set(&out->p[UI_P_GRAPH], mid_y, 0, mid_h - sh, left_w);
	set(&out->p[UI_P_STREAMS], mid_y + mid_h - sh, 0, sh, left_w);
	set(&out->p[UI_P_CPU], mid_y, right_x, mid_h - ih, right_w);
	set(&out->p[UI_P_IRQ], mid_y + mid_h - ih, right_x, ih, right_w);
}

bool ui_rect_overlap(const struct ui_rect *a, const struct ui_rect *b)
{
	if (!a->h || !a->w || !b->h || !b->w)
		return false;
	return a->y < b->y + b->h && b->y < a->y + a->h && a->x < b->x + b->w &&
	       b->x < a->x + a->w;
}

static int digits(int n)
{
	int d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

bool ui_cpu_grid_plan(int ncores, int h, int w, struct ui_cpu_grid *g)
{
	int d = digits(ncores > 0 ? ncores - 1 : 0);

	memset(g, 0, sizeof(*g));
	if (ncores <= 0 || h <= 0 || w <= 0)
		return ncores <= 0;

	/* bars: one line each, or columns of at least 18 characters */
	g->mode = UI_CPU_BARS;
	g->ncols = (ncores + h - 1) / h;
	g->cell_w = g->ncols > 1 ? (w + 1) / g->ncols - 1 : w;
	if (g->cell_w >= 18) {
		g->nrows = (ncores + g->ncols - 1) / g->ncols;
		return true;
	}

	/* cells: "17:97" and a space */
	g->mode = UI_CPU_CELLS;
	g->cell_w = d + 1 + 3 + 1;
	g->ncols = w / g->cell_w;
	if (g->ncols > 0) {
		g->nrows = (ncores + g->ncols - 1) / g->ncols;
		if (g->nrows <= h)
			return true;
	}

	/* dots: "128 " then one shaded cell per core */
	g->mode = UI_CPU_DOTS;
	g->label_w = d + 1;
	g->cell_w = 1;
	g->ncols = w - g->label_w;
	if (g->ncols <= 0) {
		g->ncols = 0;
		return false;
	}
	g->nrows = (ncores + g->ncols - 1) / g->ncols;
	if (g->nrows <= h)
		return true;

	/* dots without the row labels: the whole width for cells */
	g->label_w = 0;
	g->ncols = w;
	g->nrows = (ncores + g->ncols - 1) / g->ncols;
	if (g->nrows <= h)
		return true;
	g->nrows = h;
	return false;
}

void ui_bar_split(const double *pct, int n, int width, int *out)
{
	double sum = 0, rem[16];
	int total, used = 0;

	if (n > 16)
		n = 16;
	for (int i = 0; i < n; i++)
		sum += pct[i] > 0 ? pct[i] : 0;
	total = (int)lround(sum * width / 100.0);
	if (total > width)
		total = width;
	if (total < 0)
		total = 0;
	for (int i = 0; i < n; i++) {
		double exact = pct[i] > 0 ? pct[i] * width / 100.0 : 0;

		out[i] = (int)floor(exact);
		rem[i] = exact - out[i];
		used += out[i];
	}
	/* over (capped at width): take from the largest parts */
	while (used > total) {
		int big = 0;

		for (int i = 1; i < n; i++)
			if (out[i] > out[big])
				big = i;
		out[big]--;
		used--;
	}
	/* under: the largest remainders get one more */
	while (used < total) {
		int best = -1;

		for (int i = 0; i < n; i++)
			if (rem[i] >= 0 && (best < 0 || rem[i] > rem[best]))
				best = i;
		if (best < 0)
			break;
		out[best]++;
		rem[best] = -1;
		used++;
	}
}

double ui_graph_axis_max(double v)
{
	static const double steps[] = { 1, 2, 2.5, 5, 10 };
	double p;

	if (!(v > 0) || !isfinite(v))
		return 1;
	p = pow(10, floor(log10(v)));
	for (unsigned i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i] * p >= v * (1 - 1e-12))
			return steps[i] * p;
	return 10 * p;
}

int ui_graph_fill(double v, double max, int rows, int r, int levels_per_row)
{
	long level;
	int f;

	if (!(v > 0) || !(max > 0) || rows <= 0)
		return 0;
	if (v > max)
		v = max;
	level = lround(v / max * rows * levels_per_row);
	/* a non-zero value shows at least one dot */
	if (level == 0)
		level = 1;
	f = (int)(level - (long)r * levels_per_row);
	return f < 0 ? 0 : f > levels_per_row ? levels_per_row : f;
}

unsigned ui_braille_bits(int left, int right)
{
	/* dots from the bottom up: 7 3 2 1 (left), 8 6 5 4 (right) */
	static const unsigned l[4] = { 0x40, 0x04, 0x02, 0x01 };
	static const unsigned r[4] = { 0x80, 0x20, 0x10, 0x08 };
	unsigned bits = 0;

	for (int i = 0; i < left && i < 4; i++)
		bits |= l[i];
	for (int i = 0; i < right && i < 4; i++)
		bits |= r[i];
	return bits;
}
