/* ui-guided.c: the rows of the guided run the workstation's checklist view
 * shows live (key g): which step is pending, running, done, skipped or
 * failed, the sweep's tests under it and its "1: 23.4, 2: 41.0 Gbit/s"
 * line; pure bookkeeping, no curses, no threads */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ui-guided.h"
#include "ui-text.h"
#include "units.h"

void ui_guided_init(struct ui_guided *g)
{
	memset(g, 0, sizeof(*g));
	g->cur = -1;
}

/* copy s into dst (they may be rows of one array) */
static void set(char *dst, size_t len, const char *s)
{
	size_t n;

	if (!len)
		return;
	if (!s)
		s = "";
	n = strnlen(s, len - 1);
	memmove(dst, s, n);
	dst[n] = 0;
}

void ui_guided_plan(struct ui_guided *g, int step, const char *title,
		    const char *reason)
{
	struct ui_grow *r;

	if (g->nrows >= UI_G_MAX_ROWS)
		return;
	r = &g->rows[g->nrows++];
	memset(r, 0, sizeof(*r));
	r->step = step;
	r->state = UI_G_PENDING;
	set(r->title, sizeof(r->title), title);
	set(r->reason, sizeof(r->reason), reason);
}

/* the step's own row (depth 0), or -1 */
static int step_row(const struct ui_guided *g, int step)
{
	for (int i = 0; i < g->nrows; i++)
		if (g->rows[i].step == step && g->rows[i].depth == 0)
			return i;
	return -1;
}

/* where a new test row of the step at row p goes: after its last one */
static int after_children(const struct ui_guided *g, int p)
{
	int i = p + 1;

	while (i < g->nrows && g->rows[i].depth > 0)
		i++;
	return i;
}

/* a group is over: done when one of its tests finished, its summary the
 * rates by stream count (with the one-stream step before it) */
static void close_group(struct ui_guided *g, int p, double now)
{
	struct ui_grow *r = &g->rows[p];
	int streams[UI_G_MAX_ROWS + 1];
	double bps[UI_G_MAX_ROWS + 1];
	int n = 0, done = 0, failed = 0, last = -1;
	int one = p > 0 ? step_row(g, r->step - 1) : -1;

	if (one >= 0 && g->rows[one].state == UI_G_DONE &&
	    g->rows[one].streams == 1 && g->rows[one].bps > 0) {
		streams[n] = 1;
		bps[n++] = g->rows[one].bps;
	}
	for (int i = p + 1; i < g->nrows && g->rows[i].depth > 0; i++) {
		const struct ui_grow *c = &g->rows[i];

		last = i;
		if (c->state == UI_G_DONE) {
			done++;
			streams[n] = c->streams;
			bps[n++] = c->bps;
		} else if (c->state == UI_G_FAILED) {
			failed++;
		}
	}
	r->t1 = now;
	if (done) {
		r->state = UI_G_DONE;
		ui_guided_sweep_text(streams, bps, n, r->summary,
				     sizeof(r->summary));
	} else {
		r->state = failed ? UI_G_FAILED : UI_G_SKIPPED;
		if (last >= 0)
			set(r->summary, sizeof(r->summary),
			    g->rows[last].summary);
	}
}

static void close_groups(struct ui_guided *g, int except_step, double now)
{
	for (int i = 0; i < g->nrows; i++)
		if (g->rows[i].group && g->rows[i].state == UI_G_RUNNING &&
		    g->rows[i].step != except_step)
			close_group(g, i, now);
}

static void start_row(struct ui_grow *r, const char *title, const char *reason,
		      double now, double length)
{
	r->state = UI_G_RUNNING;
	if (title && *title)
		set(r->title, sizeof(r->title), title);
	if (reason && *reason)
		set(r->reason, sizeof(r->reason), reason);
	r->summary[0] = 0;
	r->t0 = now;
	r->t1 = 0;
	r->length = length;
}

void ui_guided_begin(struct ui_guided *g, int step, const char *title,
		     const char *reason, double now, double length)
{
	int p, i;

	close_groups(g, step, now);
	p = step_row(g, step);
	if (p < 0) {
		/* a step nobody planned: at the end */
		if (g->nrows >= UI_G_MAX_ROWS)
			return;
		ui_guided_plan(g, step, title, reason);
		p = g->nrows - 1;
	}
	if (g->rows[p].state == UI_G_PENDING) {
		start_row(&g->rows[p], title, reason, now, length);
		g->cur = p;
		return;
	}
	/* the step began already: this is one test of it */
	if (g->nrows >= UI_G_MAX_ROWS)
		return;
	i = after_children(g, p);
	memmove(&g->rows[i + 1], &g->rows[i],
		(size_t)(g->nrows - i) * sizeof(g->rows[0]));
	g->nrows++;
	memset(&g->rows[i], 0, sizeof(g->rows[i]));
	g->rows[i].step = step;
	g->rows[i].depth = 1;
	start_row(&g->rows[i], title, reason, now, length);
	g->rows[p].group = true;
	g->rows[p].state = UI_G_RUNNING;
	g->rows[p].length = 0;
	g->cur = i;
}

void ui_guided_end(struct ui_guided *g, enum ui_gstate st, int streams,
		   double bps, const char *summary, double now)
{
	struct ui_grow *r;

	if (g->cur < 0 || g->cur >= g->nrows)
		return;
	r = &g->rows[g->cur];
	r->state = st == UI_G_PENDING || st == UI_G_RUNNING ? UI_G_DONE : st;
	r->streams = streams;
	r->bps = bps;
	r->t1 = now;
	set(r->summary, sizeof(r->summary), summary);
	g->cur = -1;
	if (r->depth > 0) {
		/* back to the group, which goes on until its step is over */
		for (int i = 0; i < g->nrows; i++)
			if (g->rows[i].step == r->step && g->rows[i].depth == 0)
				g->cur = i;
	}
}

void ui_guided_finish(struct ui_guided *g, const char *why, double now)
{
	close_groups(g, -1, now);
	for (int i = 0; i < g->nrows; i++) {
		struct ui_grow *r = &g->rows[i];

		if (r->state != UI_G_PENDING && r->state != UI_G_RUNNING)
			continue;
		r->state = UI_G_SKIPPED;
		r->t1 = now;
		set(r->summary, sizeof(r->summary), why);
	}
	g->cur = -1;
}

double ui_guided_progress(const struct ui_grow *r, double now)
{
	double f;

	if (!(r->length > 0) || r->state == UI_G_PENDING)
		return 0;
	if (r->state != UI_G_RUNNING)
		return 1;
	f = (now - r->t0) / r->length;
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

int ui_guided_count(const struct ui_guided *g, enum ui_gstate st)
{
	int n = 0;

	for (int i = 0; i < g->nrows; i++)
		n += g->rows[i].state == st && !g->rows[i].group;
	return n;
}

int ui_guided_running(const struct ui_guided *g)
{
	return g->cur >= 0 && g->cur < g->nrows &&
			       g->rows[g->cur].state == UI_G_RUNNING
		       ? g->cur
		       : -1;
}

void ui_guided_sweep_text(const int *streams, const double *bps, int n,
			  char *buf, size_t len)
{
	double max = 0, div;
	size_t at = 0;
	int u;

	buf[0] = 0;
	if (n <= 0 || len == 0)
		return;
	for (int i = 0; i < n; i++)
		if (bps[i] > max)
			max = bps[i];
	u = ps_scale_pick(&ps_scale_sweep_bps, max, &div);
	for (int i = 0; i < n && at < len; i++) {
		int k = snprintf(buf + at, len - at, "%s%d: %.1f",
				 i ? ", " : "", streams[i], bps[i] / div);

		if (k < 0)
			return;
		at += (size_t)k;
	}
	if (at < len)
		snprintf(buf + at, len - at, " %s", ps_scale_sweep_bps.unit[u]);
}

void ui_guided_bar(double frac, int width, char *buf, size_t len)
{
	int inner, fill;

	if (len == 0)
		return;
	if (width < 3)
		width = 3;
	if ((size_t)width >= len)
		width = (int)len - 1;
	inner = width - 2;
	if (inner < 1) {
		buf[0] = 0;
		return;
	}
	if (!(frac > 0))
		frac = 0;
	if (frac > 1)
		frac = 1;
	fill = (int)(frac * inner + 0.5);
	buf[0] = '[';
	for (int i = 0; i < inner; i++)
		buf[1 + i] = i < fill ? '#' : '.';
	buf[1 + inner] = ']';
	buf[2 + inner] = 0;
}

size_t ui_wrap_cut(const char *s, int cols)
{
	char tmp[1024];
	size_t n = 0, cut = 0, whole = strlen(s);

	if (whole < sizeof(tmp)) {
		memcpy(tmp, s, whole + 1);
		if (ui_text_width(tmp) <= cols)
			return whole;
	}
	/* grow one byte at a time: a multibyte character counts once whole */
	while (s[n] && n < sizeof(tmp) - 1) {
		size_t k = n + 1;

		while (s[k] && ((unsigned char)s[k] & 0xc0) == 0x80)
			k++;
		if (k >= sizeof(tmp))
			break;
		memcpy(tmp, s, k);
		tmp[k] = 0;
		if (ui_text_width(tmp) > cols)
			break;
		if (s[k] == ' ')
			cut = k;
		n = k;
	}
	if (!n) {
		/* not even one character fits: take one anyway */
		n = 1;
		while (s[n] && ((unsigned char)s[n] & 0xc0) == 0x80)
			n++;
		return n;
	}
	return s[n] && cut ? cut : n;
}

void ui_guided_report_name(int year, int mon, int mday, int hour, int min,
			   int sec, char *buf, size_t len)
{
	snprintf(buf, len, "pipescope-report-%04d%02d%02d-%02d%02d%02d.md",
		 year, mon, mday, hour, min, sec);
}

void ui_free_stem(char *buf, size_t len, const char *stem, const char *ext)
{
	char path[4096];

	snprintf(buf, len, "%s", stem);
	for (int k = 2; k < 100; k++) {
		snprintf(path, sizeof(path), "%s%s", buf, ext);
		if (access(path, F_OK))
			return;
		snprintf(buf, len, "%s-%d", stem, k);
	}
}
