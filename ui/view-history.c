/* view-history.c: the history view, the run history of this target: the
 * past runs (src/history), a sparkline of their rate, and Enter compares the
 * highlighted run with the newest one ("pipescope compare A B") */
#include "config.h"

#include <curses.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "compare.h"
#include "history.h"
#include "nls.h"
#include "sanitize.h"
#include "ui-internal.h"
#include "units.h"

extern const struct ui_view_ops ui_view_history;

/* the view's state */
struct hist_state {
	struct ps_hist_rec *rows; /* oldest first */
	int n, sel, top;
	char target[256];
	char why[512]; /* why there is nothing to list */
	int64_t loaded_ns;
	/* the comparison shown instead of the list, or NULL */
	char *cmp;
};

static struct hist_state *hstate(const struct ui *ui)
{
	return ui_view_state(ui, &ui_view_history);
}

static void history_free(struct ui *ui, void *state)
{
	struct hist_state *hv = state;

	(void)ui;
	free(hv->rows);
	free(hv->cmp);
}

static const char *view_target(const struct ui *ui)
{
	return ui->test.ntargets ? ui->test.targets[0].host : "127.0.0.1";
}

/* the runs to this target, again at most once a second (a test that ends
 * adds one) */
static void load(struct ui *ui)
{
	struct hist_state *hv = hstate(ui);
	const char *target = view_target(ui);
	char *path;
	struct ps_hist *h;
	int64_t now = ps_mono_ns();
	int n, keep_last;

	if (hv->loaded_ns && now - hv->loaded_ns < 1000000000LL &&
	    !strcmp(hv->target, target))
		return;
	keep_last = hv->n == 0 || hv->sel == hv->n - 1;
	hv->loaded_ns = now;
	snprintf(hv->target, sizeof(hv->target), "%s", target);
	free(hv->rows);
	hv->rows = NULL;
	hv->n = 0;
	hv->why[0] = 0;
	path = ps_hist_path(ui->opts);
	if (!path) {
		snprintf(hv->why, sizeof(hv->why), "%s",
			 _("no run history (--no-history)"));
		return;
	}
	if (!ps_hist_open(path, PS_HIST_GLANCE, &h, hv->why, sizeof(hv->why))) {
		n = ps_hist_list(h, target, 500, &hv->rows, hv->why,
				 sizeof(hv->why));
		hv->n = n > 0 ? n : 0;
		ps_hist_close(h);
	}
	free(path);
	if (keep_last || hv->sel >= hv->n)
		hv->sel = hv->n - 1;
	if (hv->sel < 0)
		hv->sel = 0;
}

/* one glyph a run: its rate against the fastest shown */
static void sparkline(struct ui *ui, int y, int x, int w)
{
	struct hist_state *hv = hstate(ui);
	double top = 0;
	int first = hv->n > w ? hv->n - w : 0;
	char line[4096];
	size_t used = 0;

	for (int i = first; i < hv->n; i++)
		if (isfinite(hv->rows[i].bps) && hv->rows[i].bps > top)
			top = hv->rows[i].bps;
	for (int i = first; i < hv->n && used + 8 < sizeof(line); i++) {
		int lv = 0;
		const char *g;

		if (top > 0 && isfinite(hv->rows[i].bps))
			lv = 1 + (int)lrint(7 * hv->rows[i].bps / top);
		g = ui->style.g->blocks[lv > 8 ? 8 : lv];
		memcpy(line + used, g, strlen(g));
		used += strlen(g);
	}
	line[used] = 0;
	ui_put(y, x, w, ui_attr(UI_C_GRAPH), line);
}

static void draw_compare(struct ui *ui, const struct ui_rect *in)
{
	struct hist_state *hv = hstate(ui);
	const char *p = hv->cmp;
	int y = in->y;

	while (p && *p && y < in->y + in->h) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char line[512];

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		ui_put(y++, in->x + 1, in->w - 1, A_NORMAL, line);
		p = e ? e + 1 : p + len;
	}
}

static void draw_history(struct ui *ui, const struct ui_rect *body)
{
	struct hist_state *hv = hstate(ui);
	struct ui_rect in;
	char title[320], right[64];
	int rows, y;

	load(ui);
	ui_clear(body);
	snprintf(title, sizeof(title), _("History: runs to %s"),
		 ps_safe(hv->target));
	snprintf(right, sizeof(right), _("%d runs"), hv->n);
	in = ui_title(ui, body, title, right);
	if (hv->cmp) {
		draw_compare(ui, &in);
		return;
	}
	if (!hv->n) {
		ui_put(in.y, in.x + 1, in.w - 1, ui_attr(UI_C_DIM),
		       hv->why[0]
			       ? hv->why
			       : _("no run to this target yet: s starts one"));
		return;
	}
	ui_put(in.y, in.x + 1, 6, ui_attr(UI_C_LABEL), _("rate"));
	sparkline(ui, in.y, in.x + 7, in.w - 8);
	ui_printf(in.y + 1, in.x + 1, in.w - 1, ui_attr(UI_C_LABEL),
		  "%-6s %-16s %-7s %-8s %3s %13s %6s %-7s  %s", _("id"),
		  _("when"), _("kind"), _("dir"), _("P"), _("rate"), _("loss"),
		  _("ended"), _("top finding"));
	rows = in.h - 2;
	if (rows < 1)
		return;
	if (hv->sel < hv->top)
		hv->top = hv->sel;
	if (hv->sel >= hv->top + rows)
		hv->top = hv->sel - rows + 1;
	y = in.y + 2;
	for (int i = hv->top; i < hv->n && y < in.y + in.h; i++, y++) {
		const struct ps_hist_rec *r = &hv->rows[i];
		char w[32], rate[32], loss[16];

		ps_hist_when(r->time_ns, false, w, sizeof(w));
		if (isfinite(r->bps))
			ps_fmt_bps(rate, sizeof(rate), r->bps);
		else
			snprintf(rate, sizeof(rate), "-");
		ps_fmt_loss(loss, sizeof(loss), ps_hist_loss(r));
		ui_printf(y, in.x + 1, in.w - 1,
			  i == hv->sel ? ui_attr(UI_C_SELECTED) : A_NORMAL,
			  "%-6lld %-16s %-7s %-8s %3d %13s %6s %-7s  %s",
			  (long long)r->id, w, ps_safe(r->kind),
			  ps_safe(r->direction), r->streams, rate, loss,
			  ps_hist_ended_text(r),
			  r->top_finding[0] ? ps_safe(r->top_finding) : "-");
	}
}

/* the highlighted run against the newest one, as "compare A B" prints it */
static void compare_selected(struct ui *ui)
{
	struct hist_state *hv = hstate(ui);
	char *path = ps_hist_path(ui->opts), *buf = NULL;
	char err[512];
	struct ps_hist *h;
	struct ps_cmp c;
	size_t len;
	FILE *f;

	if (!path || hv->n < 1)
		goto out;
	f = open_memstream(&buf, &len);
	if (!f)
		goto out;
	if (hv->sel == hv->n - 1)
		fprintf(f, "%s\n",
			_("this is the newest run: pick an older one "
			  "to compare with it"));
	else if (ps_hist_open(path, PS_HIST_GLANCE, &h, err, sizeof(err)))
		fprintf(f, "%s\n", err);
	else {
		if (ps_compare_runs(h, hv->rows[hv->sel].id,
				    hv->rows[hv->n - 1].id, &c, err,
				    sizeof(err)))
			fprintf(f, "%s\n", err);
		else {
			ps_compare_print(f, &c);
			ps_compare_free(&c);
		}
		ps_hist_close(h);
	}
	fprintf(f, "\n%s\n", _("Enter or Esc: back to the list"));
	fclose(f);
	hv->cmp = buf;
out:
	free(path);
}

static bool history_key(struct ui *ui, int ch)
{
	struct hist_state *hv = hstate(ui);
	if (hv->cmp) {
		if (ch != '\n' && ch != '\r' && ch != KEY_ENTER && ch != 27 &&
		    ch != KEY_BACKSPACE)
			return false;
		free(hv->cmp);
		hv->cmp = NULL;
		return true;
	}
	switch (ch) {
	case KEY_UP:
		if (hv->sel > 0)
			hv->sel--;
		return true;
	case KEY_DOWN:
		if (hv->sel < hv->n - 1)
			hv->sel++;
		return true;
	case KEY_HOME:
		hv->sel = 0;
		return true;
	case KEY_END:
		hv->sel = hv->n > 0 ? hv->n - 1 : 0;
		return true;
	case '\n':
	case '\r':
	case KEY_ENTER:
		compare_selected(ui);
		return true;
	}
	return false;
}

static const struct ui_key history_keys[] = {
	{ .ch = { KEY_UP, KEY_DOWN },
	  .key = "Up/Down",
	  .shortkey = "Up",
	  .longer = N_("choose a run"),
	  .shorter = N_("run"),
	  .rank = 21 },
	{ .ch = { '\n', '\r', KEY_ENTER },
	  .key = "Enter",
	  .shortkey = "Ent",
	  .longer = N_("compare with the newest"),
	  .shorter = N_("compare"),
	  .rank = 22 },
};

const struct ui_view_ops ui_view_history = {
	.name = "history",
	.title = N_("History"),
	.noun = N_("history"),
	.key = '7',
	.panel = UI_P_HEADER,
	.draw = draw_history,
	.key_handler = history_key,
	.keys = history_keys,
	.nkeys = UI_NKEYS(history_keys),
	/* the test's settings make room for the list's keys */
	.footer_without = "g+Rduti",
	.state_size = sizeof(struct hist_state),
	.free = history_free,
};
