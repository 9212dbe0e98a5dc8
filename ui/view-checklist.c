/* view-checklist.c: the findings strip of the workstation and the full
 * "checklist" view: the running test's own warnings (an error, flows held
 * back by a window) and the checks of "pipescope check" evaluated live on
 * the latest snapshot, most severe first, with evidence and remedy */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "answer.h"
#include "ceiling.h"
#include "check.h"
#include "clock.h"
#include "step.h"
#include "nls.h"
#include "ui-internal.h"
#include "ui-text.h"
#include "xmalloc.h"

struct fcoll {
	char (*out)[256];
	int *level;
	int n, max;
};

static void add(struct fcoll *c, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add(struct fcoll *c, int level, const char *fmt, ...)
{
	va_list ap;

	if (c->n >= c->max)
		return;
	va_start(ap, fmt);
	vsnprintf(c->out[c->n], 256, fmt, ap);
	va_end(ap);
	c->level[c->n++] = level;
}

static void status_line(struct fcoll *c, const char *what, enum ps_status st,
			const char *reason)
{
	/* absent, unsupported, not recorded: the panels say so; only what
	 * hides data that should be there is a finding */
	if (st != PS_ST_ERROR && st != PS_ST_NEEDS_ROOT)
		return;
	add(c, 0, "%s: %s%s%s", what, ps_status_text(st), reason[0] ? ", " : "",
	    reason);
}

static int level_of(enum ps_severity s)
{
	return s == PS_SEV_BOTTLENECK ? 2 : s == PS_SEV_WARNING ? 1 : 0;
}

/* how a finding is shown: counters since boot that do not move now (no
 * rate, or 0/s) tell of the past, not of this test: information */
static int shown_level(const struct ps_finding *f)
{
	double drops = ps_fact_get(f, "backlog_drops");
	double sq = ps_fact_get(f, "time_squeezes");

	if (!isnan(drops) || !isnan(sq)) {
		double dr = ps_fact_get(f, "backlog_drop_rate");
		double sr = ps_fact_get(f, "time_squeeze_rate");

		if ((isnan(dr) || dr <= 0) && (isnan(sr) || sr <= 0))
			return 0;
	}
	return level_of(f->severity);
}

static bool skip_here(const struct ps_outcome *o)
{
	return o->f.id && !strcmp(o->f.id, "unexplained");
}

/* this process's CPU (the engine's threads, both ends on loopback) as %
 * of one core since the last snapshot, as the summary reports it */
static void proc_cpu(struct ui_checklist_state *cs)
{
	double cpu = ps_clock_ns(CLOCK_PROCESS_CPUTIME_ID) / 1e9;
	double wall = ps_now();

	if (cs->proc_wall_s > 0 && wall - cs->proc_wall_s > 0.2)
		cs->proc_pct =
			(cpu - cs->proc_cpu_s) / (wall - cs->proc_wall_s) * 100;
	cs->proc_cpu_s = cpu;
	cs->proc_wall_s = wall;
}

/*
 * The shown test (the running one, or the last) as one step of a guided
 * run, so the checks that read a test (window / RTT, one busy core,
 * retransmits ...) speak too: its session's step (session.h), made the
 * way "pipescope check" makes it. false when there is no data yet.
 */
static bool live_run(struct ui *ui, double proc_pct, struct ps_run *run)
{
	const struct ui_test_view *v = &ui->tv;
	struct ps_step_result *st = &run->steps[0];

	memset(run, 0, sizeof(*run));
	if (!(v->time_total > 0) || !v->nstreams ||
	    !ui_model_step(&ui->model, st))
		return false;
	if (!(st->seconds > 0)) {
		ps_step_result_free(st);
		return false;
	}
	run->nsteps = 1;
	run->loopback = ui->selftest;
	snprintf(run->peer, sizeof(run->peer), "%.*s",
		 (int)sizeof(run->peer) - 1, v->target);
	snprintf(run->peer_kind, sizeof(run->peer_kind), "%s", v->peer_kind);
	snprintf(run->peer_version, sizeof(run->peer_version), "%s",
		 v->peer_version);
	/* while it runs, this process's CPU (the engine's threads, both ends
	 * on loopback); the summary's once it ended */
	if (!v->have_end)
		st->cpu_local = proc_pct;
	return true;
}

/* the checks on the latest snapshot and the test so far, evaluated once
 * per snapshot (once a second) */
static const struct ps_diagnosis *diagnose(struct ui *ui)
{
	struct ui_checklist_state *cs = ui_view_state(ui, &ui_view_checklist);
	const struct ps_snapshot *s = ui->snap;
	struct ps_evidence ev;
	struct ps_run run;

	if (!s || !cs)
		return NULL;
	/* again on a new snapshot, and when a test starts or ends (its
	 * numbers change then, whenever the sampler's next reading comes) */
	if (cs->diag && cs->diag_seq == s->hdr.seq &&
	    cs->diag_runs == ui->tv.runs && cs->diag_end == ui->tv.have_end)
		return cs->diag;
	cs->diag_runs = ui->tv.runs;
	cs->diag_end = ui->tv.have_end;
	proc_cpu(cs);
	if (!cs->diag)
		cs->diag = xmalloc(sizeof(*cs->diag));
	memset(&ev, 0, sizeof(ev));
	ev.snap = s;
	ev.irq = ui_snap_irq(s);
	ev.pci = ui_snap_pci(s);
	ev.eth = ui_snap_ethtool(s);
	ev.link = ui_snap_link(s);
	/* a pipescope server's own readings: its host and NIC checks too
	 * (not the self-test's: that is this host) */
	if (!ui->selftest)
		ev.peer = ui->peer;
	/* a server on this host watching the same interface: its findings
	 * are this host's, told once */
	if (ev.peer && ps_ev_peer_same_host(&ev) &&
	    !strcmp(ev.peer->hdr.iface.name, s->hdr.iface.name))
		ev.peer = NULL;
	if (live_run(ui, cs->proc_pct, &run))
		ev.res = &run;
	ps_diagnose(&ev, cs->diag);
	ps_run_free(&run);
	cs->diag_seq = s->hdr.seq;
	return cs->diag;
}

static void checklist_free(struct ui *ui, void *state)
{
	struct ui_checklist_state *cs = state;

	(void)ui;
	free(cs->diag);
	cs->diag = NULL;
}

/* the test's and the probes' own lines; with_checks adds the checks' */
static int collect(struct ui *ui, char (*out)[256], int *level, int max,
		   bool with_checks)
{
	const struct ps_snapshot *s = ui->snap;
	const struct ui_test_view *v = &ui->tv;
	const struct ps_diagnosis *d;
	struct fcoll c = { out, level, 0, max };

	if (v->error[0])
		add(&c, 2, _("test: %s"), v->error);
	for (int i = 0; i < v->nstreams; i++) {
		const char *why = ps_limit_reason(&v->streams[i]);

		if (why && !strcmp(why, "rwnd"))
			add(&c, 1,
			    _("stream %d is held back by the receiver's window "
			      "(rwnd)"),
			    v->streams[i].id);
		else if (why && !strcmp(why, "sndbuf"))
			add(&c, 1,
			    _("stream %d is held back by its send buffer "
			      "(sndbuf)"),
			    v->streams[i].id);
	}
	if (!s)
		goto sort;
	if (s->hdr.iface.status != PS_ST_OK)
		add(&c, 1, _("interface: %s"), s->hdr.iface.reason);
	if (ui->route_if[0] && ui->iface.name[0] &&
	    strcmp(ui->route_if, ui->iface.name))
		add(&c, 1,
		    _("the test does not cross %s (its route leaves by %s): "
		      "the NIC findings are %s's"),
		    ui->iface.name, ui->route_if, ui->iface.name);
	/* with a test the checks judge the cores (one core, every core) */
	if (!(v->time_total > 0) && ps_cpu_saturated(&s->cpu)) {
		char b[160];

		ps_cpu_busiest_text(&s->cpu, b, sizeof(b));
		add(&c, 1, _("a core is saturated: %s"), b);
	}
	status_line(&c, _("CPU"), s->cpu.status, s->cpu.reason);
	status_line(&c, _("sysctl"), s->sysctl.status, s->sysctl.reason);
	d = with_checks ? diagnose(ui) : NULL;
	for (size_t i = 0; d && i < d->nrank; i++) {
		const struct ps_outcome *o = ps_diagnosis_ranked(d, i);

		/* "a snapshot cannot measure a limit": the test beside it
		 * does, so that one is not for this screen */
		if (!o || o->state != PS_CHECK_FIRED || skip_here(o))
			continue;
		add(&c, shown_level(&o->f), "%s", o->f.title);
	}
sort:
	/* most severe first, stable */
	for (int i = 1; i < c.n; i++)
		for (int k = i; k > 0 && level[k] > level[k - 1]; k--) {
			char t[256];
			int l = level[k];

			memcpy(t, out[k], sizeof(t));
			memcpy(out[k], out[k - 1], sizeof(t));
			memcpy(out[k - 1], t, sizeof(t));
			level[k] = level[k - 1];
			level[k - 1] = l;
		}
	return c.n;
}

int ui_findings_collect(struct ui *ui, char (*out)[256], int *level, int max)
{
	return collect(ui, out, level, max, true);
}

static const enum ui_color lvl_color[3] = { UI_C_DIM, UI_C_WARN, UI_C_BAD };
static const char *const bullet[3] = { "-", "!", "!!" };

/* the test's rate: its result once done, else the faster of now and the
 * average so far */
static double test_rate(const struct ui_test_view *v)
{
	double avg = v->time_total > 0 ? v->bytes_total * 8 / v->time_total : 0;

	if (v->have_end)
		return v->end_bps[1] > 0 ? v->end_bps[1] : v->end_bps[0];
	return v->now_bps > avg ? v->now_bps : avg;
}

/* the full view: the lines, then each check that fired with its evidence
 * and remedy, in a list with a cursor (view-guided.c) */
static void findings_full(struct ui *ui, const struct ui_rect *in,
			  const char (*lines)[256], const int *level, int n)
{
	static struct ui_live_item it[64];
	const struct ps_diagnosis *d = diagnose(ui);
	struct ps_answer a;
	char head[256];
	int k = 0;

	head[0] = 0;
	for (int i = 0; i < n && k < 64; i++, k++) {
		snprintf(it[k].title, sizeof(it[k].title), "%-2s %.250s",
			 bullet[level[i]], lines[i]);
		it[k].a = ui_attr(lvl_color[level[i]]);
		it[k].f = NULL;
	}
	if (d) {
		ps_answer_of(d, &a);
		if (a.binding.id) {
			char b[32];

			double now = test_rate(&ui->tv);

			ui_fmt_bps(b, sizeof(b), a.binding.bps);
			if (now > a.binding.bps * 1.05) {
				char r[32];

				/* an estimate the test beats binds nothing */
				ui_fmt_bps(r, sizeof(r), now);
				snprintf(head, sizeof(head),
					 _("Lowest ceiling estimate: %.120s, "
					   "%s; the test runs faster (%s), so "
					   "it does not bind"),
					 a.binding.what, b, r);
			} else {
				snprintf(head, sizeof(head),
					 _("Tightest ceiling: %.160s, %s"),
					 a.binding.what, b);
			}
		}
	}
	for (size_t i = 0; d && i < d->nrank && k < 64; i++) {
		const struct ps_outcome *o = ps_diagnosis_ranked(d, i);
		int l;

		if (!o || o->state != PS_CHECK_FIRED || skip_here(o))
			continue;
		l = shown_level(&o->f);
		snprintf(it[k].title, sizeof(it[k].title), "%-2s %.250s",
			 bullet[l], o->f.title);
		it[k].a = ui_attr(lvl_color[l]);
		it[k].f = &o->f;
		k++;
	}
	if (!k && !head[0] && in->h > 0) {
		ui_put(in->y, in->x, in->w, ui_attr(UI_C_GOOD),
		       ui->snap ? _("nothing stands out yet")
				: _("not sampled yet"));
		return;
	}
	ui_panel_live(ui, in, it, k, head[0] ? head : NULL);
}

void ui_panel_findings(struct ui *ui, const struct ui_rect *r, bool full)
{
	char lines[32][256], right[96];
	int level[32], n, y;
	struct ui_rect in;

	ui_clear(r);
	n = collect(ui, lines, level, 32, !full);
	snprintf(right, sizeof(right), _("view %s explains them"),
		 ui_view_ref(&ui_view_checklist));
	in = ui_title(ui, r, _("Findings"),
		      full ? _("live; g runs the guided checklist") : right);
	y = in.y;
	if (full) {
		findings_full(ui, &in, lines, level, n);
		return;
	}
	if (!n && in.h > 0) {
		ui_put(y, in.x, in.w, ui_attr(UI_C_GOOD),
		       ui->snap ? _("nothing stands out yet")
				: _("not sampled yet"));
		return;
	}
	for (int i = 0; i < n && y < in.y + in.h; i++) {
		if (i == in.h - 1 && n > in.h) {
			ui_printf(y, in.x, in.w, ui_attr(lvl_color[level[i]]),
				  _("%-2s %s (and %d more: view %s)"),
				  bullet[level[i]], lines[i], n - i - 1,
				  ui_view_ref(&ui_view_checklist));
			break;
		}
		ui_printf(y++, in.x, in.w, ui_attr(lvl_color[level[i]]),
			  "%-2s %s", bullet[level[i]], lines[i]);
	}
}

/* the checklist view's keys: the guided run's (what s does depends on
 * it) and the findings' (view-guided.c) */
static bool run_busy(struct ui *ui)
{
	return ui_grun_busy(&ui->grun);
}

static bool run_idle(struct ui *ui)
{
	return !ui_grun_busy(&ui->grun);
}

static const struct ui_key checklist_keys[] = {
	/* g leads this view's footer and follows s in the others' */
	{ .ch = { 'g', 'G' },
	  .key = "g",
	  .shortkey = "g",
	  .longer = N_("guided run"),
	  .shorter = N_("guided"),
	  .rank = 35,
	  .flags = UI_KEY_ANY_VIEW | UI_KEY_OTHER_FOOTERS },
	{ .key = "g",
	  .shortkey = "g",
	  .longer = N_("guided run"),
	  .shorter = N_("guided"),
	  .rank = 25,
	  .shown = run_idle },
	{ .ch = { 's', 'S', ' ' },
	  .key = "s",
	  .shortkey = "s",
	  .longer = N_("skip step"),
	  .shorter = N_("skip"),
	  .rank = 30,
	  .shown = run_busy },
	{ .ch = { 'x', 'X' },
	  .key = "x",
	  .shortkey = "x",
	  .longer = N_("abort run"),
	  .shorter = N_("abort"),
	  .rank = 31,
	  .flags = UI_KEY_ANY_VIEW,
	  .shown = run_busy },
	{ .ch = { '\n', '\r', KEY_ENTER },
	  .key = "Enter",
	  .shortkey = "Ent",
	  .longer = N_("details"),
	  .shorter = N_("more"),
	  .rank = 36,
	  .shown = run_idle },
	{ .ch = { 'w' },
	  .key = "w",
	  .shortkey = "w",
	  .longer = N_("write report"),
	  .shorter = N_("report"),
	  .rank = 37,
	  .flags = UI_KEY_ANY_VIEW,
	  .shown = run_idle },
	{ .helpkey = "g",
	  /* xgettext:c-format */
	  .help = N_("guided run of 'pipescope check' (view %s; --quick: the "
		     "short one)"),
	  .ref = &ui_view_checklist,
	  .rank = 80 },
	{ .helpkey = "s x w",
	  .help = N_("guided run: s skips a test, x aborts it; Enter: "
		     "details; w: report"),
	  .rank = 81 },
};

static void draw_checklist(struct ui *ui, const struct ui_rect *body)
{
	/* after g: the guided run's steps and findings */
	if (ui->gphase != UI_GR_IDLE)
		ui_panel_guided(ui, body);
	else
		ui_panel_findings(ui, body, true);
}

const struct ui_view_ops ui_view_checklist = {
	.name = "checklist",
	.title = N_("Checklist"),
	.noun = N_("checklist"),
	.key = '6',
	.panel = UI_P_FINDINGS,
	.draw = draw_checklist,
	/* the guided run's keys and its findings' (view-guided.c) */
	.key_handler = ui_guided_key,
	.keys = checklist_keys,
	.nkeys = UI_NKEYS(checklist_keys),
	/* the test's settings make room for the guided run's keys */
	.footer_without = "+Rduti",
	.state_size = sizeof(struct ui_checklist_state),
	.free = checklist_free,
};
