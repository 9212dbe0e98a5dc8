/* view-procs.c: the processes view: who uses the CPUs on each end, over
 * the last second (the procs probe of this host's snapshot and of a
 * pipescope server's) and over the shown test (its step's busiest other
 * processes, the ones host_busy names) */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nls.h"
#include "sanitize.h"
#include "session.h"
#include "ui-internal.h"

/* one list under its heading, the process skip left out; returns the
 * next free line */
static int list(int y, int x, int w, int ymax, const char *head,
		const struct ps_proc *p, int n, int skip, const char *none)
{
	int shown = 0;

	if (y >= ymax)
		return y;
	ui_put(y++, x, w, ui_attr(UI_C_TITLE), head);
	for (int i = 0; i < n && y < ymax; i++) {
		char line[96];

		if (p[i].pid == skip)
			continue;
		shown++;

		snprintf(line, sizeof(line), "%7d  %-20.20s", p[i].pid,
			 ps_safe(p[i].comm));
		ui_put(y, x + 2, w - 2, A_NORMAL, line);
		if (w > 40)
			ui_printf(
				y, x + 34, w - 34,
				ui_attr(p[i].pct >= 90 ? UI_C_BAD : UI_C_VALUE),
				_("%5.1f%% of a core"), p[i].pct);
		y++;
	}
	if (!shown && y < ymax)
		ui_put(y++, x + 2, w - 2, ui_attr(UI_C_DIM), none);
	return y + 1;
}

/* a snapshot's busiest, or why there are none */
static int snap_list(int y, int x, int w, int ymax, const char *head,
		     const struct ps_snapshot *s)
{
	const struct ps_procs_info *pi = s ? &s->procs : NULL;
	char why[200];

	if (!pi) {
		snprintf(why, sizeof(why), "%s", _("no readings"));
	} else if (pi->status != PS_ST_OK) {
		snprintf(why, sizeof(why), "%s: %s", ps_status_text(pi->status),
			 ps_safe(pi->reason));
	} else if (!pi->rated) {
		snprintf(why, sizeof(why), "%s",
			 _("one sample so far: rates come with the next"));
	} else {
		snprintf(why, sizeof(why), "%s", _("none used the CPUs"));
	}
	/* the sampling process is the test's own */
	return list(y, x, w, ymax, head, pi && pi->rated ? pi->top : NULL,
		    pi && pi->rated ? pi->ntop : 0, pi ? pi->self : 0, why);
}

extern const struct ui_view_ops ui_view_procs;

static void draw_procs(struct ui *ui, const struct ui_rect *body)
{
	const struct ps_snapshot *far = ui->selftest ? NULL : ui->peer;
	/* the shown test's step: its own state, not the stack (large) */
	struct ps_step_result *st = ui_view_state(ui, &ui_view_procs);
	struct ui_rect in;
	int y, ymax;

	ui_clear(body);
	in = ui_title(ui, body, _("Processes"),
		      _("who uses the CPUs, besides the test"));
	y = in.y;
	ymax = in.y + in.h;
	y = snap_list(y, in.x, in.w, ymax, _("This end, last second"),
		      ui->snap);
	if (far)
		y = snap_list(y, in.x, in.w, ymax,
			      _("Far end (a pipescope server), last second"),
			      far);
	if (st && ui_model_step(&ui->model, st)) {
		y = list(y, in.x, in.w, ymax,
			 _("This end over the test, the test's own processes "
			   "left out"),
			 st->busy, st->have_busy ? st->nbusy : 0, 0,
			 st->have_busy ? _("none used the CPUs")
				       : _("not known yet"));
		ps_step_result_free(st);
	}
	(void)y;
}

const struct ui_view_ops ui_view_procs = {
	.name = "procs",
	.title = N_("Processes"),
	.noun = N_("processes"),
	.key = '8',
	.panel = UI_P_HEADER,
	.draw = draw_procs,
	.state_size = sizeof(struct ps_step_result),
};
