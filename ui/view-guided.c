/* view-guided.c: the checklist view during and after a guided run (key
 * g): each step pending, running (with its progress and reason), done,
 * skipped or failed with its one-line result; at the end the answer (the
 * measured rate, the binding ceiling, the next one) and the findings
 * ranked as "pipescope check" ranks them, each opened with Enter to its
 * evidence and remedy; the view's keys: g, s, x, w of the guided run and
 * the cursor on the findings */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curses.h>

#include "answer.h"
#include "ceiling.h"
#include "check.h"
#include "clock.h"
#include "nls.h"
#include "report-html.h"
#include "report-test-html.h"
#include "sanitize.h"
#include "ui-internal.h"
#include "ui-text.h"

#include <json-c/json.h>

#define STATE_W 9 /* "skipped " and a space */
#define TITLE_W 18

/* one screen line of the view: a lead (state word, cursor) and a text */
struct gline {
	char lead[48];
	attr_t la;
	int indent; /* columns between the lead and the text */
	char text[256];
	attr_t ta;
	int finding; /* ranked index of the finding it belongs to, or -1 */
};

struct glines {
	struct gline *l;
	int n, max;
};

/* the checklist view's cursor on the findings */
static struct ui_checklist_state *cstate(const struct ui *ui)
{
	return ui_view_state(ui, &ui_view_checklist);
}

static struct gline *add(struct glines *g, int finding)
{
	struct gline *l;

	if (g->n >= g->max)
		return NULL;
	l = &g->l[g->n++];
	memset(l, 0, sizeof(*l));
	l->la = l->ta = A_NORMAL;
	l->finding = finding;
	return l;
}

/* text wrapped into lines of width cols after an indent */
static void add_wrapped(struct glines *g, int finding, int indent, int cols,
			attr_t a, const char *text)
{
	const char *p = text;

	if (cols < 10)
		cols = 10;
	while (*p) {
		size_t n = ui_wrap_cut(p, cols);
		struct gline *l = add(g, finding);

		if (!l)
			return;
		if (n >= sizeof(l->text))
			n = sizeof(l->text) - 1;
		memcpy(l->text, p, n);
		l->text[n] = 0;
		l->indent = indent;
		l->ta = a;
		p += n;
		while (*p == ' ')
			p++;
	}
}

static const char *state_word(enum ui_gstate st)
{
	switch (st) {
	case UI_G_PENDING:
		return _("pending");
	case UI_G_RUNNING:
		return _("running");
	case UI_G_DONE:
		return _("done");
	case UI_G_SKIPPED:
		return _("skipped");
	case UI_G_FAILED:
		break;
	}
	return _("failed");
}

static attr_t state_attr(enum ui_gstate st)
{
	switch (st) {
	case UI_G_PENDING:
		return ui_attr(UI_C_DIM);
	case UI_G_RUNNING:
		return ui_attr(UI_C_TITLE) | A_BOLD;
	case UI_G_DONE:
		return ui_attr(UI_C_GOOD);
	case UI_G_SKIPPED:
		return ui_attr(UI_C_WARN);
	case UI_G_FAILED:
		break;
	}
	return ui_attr(UI_C_BAD);
}

/* pad s with spaces to cols display columns */
static void pad(char *buf, size_t len, const char *s, int cols)
{
	int w;

	snprintf(buf, len, "%s", s);
	ui_text_clip(buf, cols);
	w = ui_text_width(buf);
	while (w < cols && strlen(buf) + 1 < len) {
		strcat(buf, " ");
		w++;
	}
}

static void step_lines(struct ui *ui, struct glines *out, int w)
{
	const struct ui_guided *g = &ui->gview;
	double now = ps_now();

	for (int i = 0; i < g->nrows; i++) {
		const struct ui_grow *r = &g->rows[i];
		struct gline *l = add(out, -1);
		char title[96], t[96];
		int tw = TITLE_W - 2 * r->depth;

		if (!l)
			return;
		pad(l->lead, sizeof(l->lead), state_word(r->state), STATE_W);
		l->la = state_attr(r->state);
		if (r->depth)
			snprintf(t, sizeof(t), "  %s", r->title);
		else
			snprintf(t, sizeof(t), "%d %s", r->step, r->title);
		pad(title, sizeof(title), t, tw + 2 * r->depth);
		if (r->state == UI_G_RUNNING && !r->group && r->length > 0) {
			char bar[24], rate[32];
			double el = now - r->t0;

			if (el > r->length)
				el = r->length;
			ui_guided_bar(ui_guided_progress(r, now), 12, bar,
				      sizeof(bar));
			snprintf(l->text, sizeof(l->text), "%s %s %.1f/%.0f s",
				 title, bar, el, r->length);
			if (ui->tv.state == UI_TEST_RUNNING &&
			    ui->tv.nstreams > 0) {
				ui_fmt_bps(rate, sizeof(rate), ui->tv.now_bps);
				ps_appendf(l->text, sizeof(l->text),
					   _("  %s now"), rate);
			}
			l->ta = A_BOLD;
			/* the reason on its own line under it */
			add_wrapped(out, -1, STATE_W + TITLE_W + 1,
				    w - STATE_W - TITLE_W - 1,
				    ui_attr(UI_C_DIM), r->reason);
			continue;
		}
		if (r->state == UI_G_PENDING || r->state == UI_G_RUNNING) {
			snprintf(l->text, sizeof(l->text), "%s %s", title,
				 r->reason);
			l->ta = r->state == UI_G_RUNNING ? A_BOLD
							 : ui_attr(UI_C_DIM);
		} else {
			snprintf(l->text, sizeof(l->text), "%s %s", title,
				 r->summary);
			l->ta = r->state == UI_G_DONE ? ui_attr(UI_C_VALUE)
						      : A_NORMAL;
		}
	}
}

static const struct ps_diagnosis *results(struct ui *ui)
{
	/* read only once the worker is gone */
	if (ui->gphase != UI_GR_DONE || ui->grun.th_live)
		return NULL;
	return ui->grun.run.diag;
}

/* the answer as every report phrases it (answer.c), in the screen's style */
/* a reverse or both-ways step faster than "the measured rate" (which is
 * the forward one's): said beside it rather than left out silently */
static void faster_other(const struct ui *ui, double measured,
			 struct glines *out, int w)
{
	const struct ps_run *r = ui->grun.run.res;
	const struct ps_step_result *best = NULL;
	char b[32], m[32], line[256];

	for (int i = 0; r && i < r->nsteps; i++) {
		const struct ps_step_result *s = &r->steps[i];

		if (s->state == PS_STEP_DONE && (s->reverse || s->bidir) &&
		    s->bps > measured * 1.05 && (!best || s->bps > best->bps))
			best = s;
	}
	if (!best)
		return;
	ps_fmt_bps(b, sizeof(b), best->bps);
	ps_fmt_bps(m, sizeof(m), measured);
	snprintf(line, sizeof(line),
		 best->bidir ? _("(the both-ways test moved %s one way; the "
				 "measured %s is the forward direction's, "
				 "what this host sends)")
			     : _("(the reverse test reached %s; the measured "
				 "%s is the forward direction's, what this "
				 "host sends)"),
		 b, m);
	add_wrapped(out, -1, 2, w - 2, ui_attr(UI_C_DIM), line);
}

static void answer_lines(const struct ui *ui, const struct ps_diagnosis *d,
			 struct glines *out, int w)
{
	struct ps_answer_line al[PS_ANSWER_MAX_LINES];
	struct ps_answer a;
	struct gline *l;
	int n;

	ps_answer_of(d, &a);
	n = ps_answer_phrase(&a, PS_ANSWER_SCREEN, al);
	add(out, -1);
	for (int i = 0; i < n; i++) {
		attr_t at = A_NORMAL;

		switch (al[i].part) {
		case PS_ANSWER_HEADING:
			if ((l = add(out, -1))) {
				snprintf(l->text, sizeof(l->text), "%s",
					 al[i].text);
				l->ta = ui_attr(UI_C_TITLE) | A_BOLD;
			}
			continue;
		case PS_ANSWER_MEASURED:
			at = ui_attr(UI_C_VALUE);
			break;
		case PS_ANSWER_BINDING:
			at = A_BOLD;
			break;
		case PS_ANSWER_NEXT:
		case PS_ANSWER_DIRECTION:
			break;
		case PS_ANSWER_VERDICT:
			at = ui_attr(a.verdict == PS_VERDICT_BOTTLENECK
					     ? UI_C_BAD
					     : UI_C_WARN);
			break;
		}
		add_wrapped(out, -1, 2, w - 2, at, al[i].text);
		if (al[i].part == PS_ANSWER_MEASURED)
			faster_other(ui, a.measured_bps, out, w);
	}
}

static int finding_level(enum ps_severity s)
{
	return s == PS_SEV_BOTTLENECK ? UI_C_BAD
	       : s == PS_SEV_WARNING  ? UI_C_WARN
				      : UI_C_DIM;
}

static void finding_lines(struct ui *ui, const struct ps_diagnosis *d,
			  struct glines *out, int w)
{
	struct ui_checklist_state *cs = cstate(ui);
	struct gline *l;
	char line[512], c[32];
	int n = 0;

	add(out, -1);
	if ((l = add(out, -1))) {
		snprintf(l->text, sizeof(l->text), "%s",
			 _("Findings, most explaining first (Up/Down choose, "
			   "Enter opens)"));
		l->ta = ui_attr(UI_C_TITLE) | A_BOLD;
	}
	for (size_t i = 0; i < d->nrank && n < 64; i++) {
		const struct ps_outcome *o = ps_diagnosis_ranked(d, i);
		const struct ps_finding *f;
		bool sel = n == cs->sel, open = cs->open[n];

		if (!o)
			continue;
		f = &o->f;
		if (!(l = add(out, n)))
			break;
		snprintf(l->lead, sizeof(l->lead), "%s%2d.", sel ? ">" : " ",
			 n + 1);
		l->la = sel ? ui_attr(UI_C_SELECTED) | A_BOLD : A_NORMAL;
		l->indent = 1;
		snprintf(l->text, sizeof(l->text), "%s [%s] %s",
			 open ? "-" : "+", ps_severity_text(f->severity),
			 f->title);
		l->ta = ui_attr(finding_level(f->severity)) |
			(sel ? A_BOLD : 0);
		if (f->ceiling_bps > 0 && !open) {
			ps_fmt_bps(c, sizeof(c), f->ceiling_bps);
			ps_appendf(l->text, sizeof(l->text), " (%s)", c);
		}
		if (open) {
			snprintf(line, sizeof(line), _("evidence: %s"),
				 f->evidence);
			add_wrapped(out, n, 6, w - 6, ui_attr(UI_C_DIM), line);
			if (f->remedy[0]) {
				snprintf(line, sizeof(line), _("remedy: %s"),
					 f->remedy);
				add_wrapped(out, n, 6, w - 6, A_NORMAL, line);
			}
			if (f->ceiling_bps > 0) {
				ps_fmt_bps(c, sizeof(c), f->ceiling_bps);
				snprintf(line, sizeof(line),
					 _("ceiling: %s, %s (%s)"), c,
					 f->ceiling_what[0] ? f->ceiling_what
							    : f->id,
					 ps_scope_text(f->scope));
				add_wrapped(out, n, 6, w - 6, A_NORMAL, line);
			}
		}
		n++;
	}
	cs->nfindings = n;
	if (!n && (l = add(out, -1)))
		snprintf(l->text, sizeof(l->text), "  %s", _("none"));
}

/* a scroll marker flush with the right edge of in on row y, over the
 * line's own text to the end (a shorter marker left its tail showing) */
static void mark(const struct ui_rect *in, int y, const char *what)
{
	int w = ui_text_width(what) + 1;

	if (w > in->w)
		w = in->w;
	ui_printf(y, in->x + in->w - w, w, ui_attr(UI_C_DIM), " %s", what);
}

/* lines first..last (-1: none) in sight of in, from cs->top; markers
 * where more lines are above or below */
static void show(struct ui *ui, const struct ui_rect *in,
		 const struct glines *out, int first, int last)
{
	struct ui_checklist_state *cs = cstate(ui);
	if (first >= 0) {
		if (last - cs->top >= in->h)
			cs->top = last - in->h + 1;
		if (first < cs->top)
			cs->top = first;
	}
	if (cs->top > out->n - in->h)
		cs->top = out->n - in->h;
	if (cs->top < 0)
		cs->top = 0;
	for (int k = 0; k < in->h && cs->top + k < out->n; k++) {
		const struct gline *l = &out->l[cs->top + k];
		int x = in->x, lw = ui_text_width(l->lead);

		if (l->lead[0])
			ui_put(in->y + k, x, in->w, l->la, l->lead);
		x += lw + l->indent;
		if (x < in->x + in->w)
			ui_put(in->y + k, x, in->x + in->w - x, l->ta, l->text);
	}
	if (cs->top > 0)
		mark(in, in->y, _("^ more"));
	if (cs->top + in->h < out->n)
		mark(in, in->y + in->h - 1, _("v more"));
}

void ui_panel_live(struct ui *ui, const struct ui_rect *in,
		   const struct ui_live_item *it, int n, const char *head)
{
	struct ui_checklist_state *cs = cstate(ui);
	static struct gline store[400];
	struct glines out = { store, 0, 400 };
	struct gline *l;
	char line[512];
	int first = -1, last = -1;

	if (n > 64)
		n = 64;
	if (cs->sel >= n)
		cs->sel = n > 0 ? n - 1 : 0;
	if (head && (l = add(&out, -1))) {
		snprintf(l->text, sizeof(l->text), "%s", head);
		l->ta = ui_attr(UI_C_TITLE);
	}
	for (int i = 0; i < n; i++) {
		const struct ps_finding *f = it[i].f;
		bool sel = i == cs->sel;

		if (!(l = add(&out, i)))
			break;
		snprintf(l->lead, sizeof(l->lead), "%s", sel ? ">" : " ");
		l->la = sel ? ui_attr(UI_C_SELECTED) | A_BOLD : A_NORMAL;
		snprintf(l->text, sizeof(l->text), "%s", it[i].title);
		l->ta = it[i].a | (sel ? A_BOLD : 0);
		if (!f || cs->lclosed[i])
			continue;
		add_wrapped(&out, i, 3, in->w - 4, ui_attr(UI_C_DIM),
			    f->evidence);
		if (f->remedy[0]) {
			snprintf(line, sizeof(line), _("fix: %s"), f->remedy);
			add_wrapped(&out, i, 3, in->w - 4, A_NORMAL, line);
		}
	}
	cs->nfindings = n;
	for (int i = 0; i < out.n; i++)
		if (out.l[i].finding == cs->sel) {
			if (first < 0)
				first = i;
			last = i;
		}
	if (first > 0 && cs->sel == 0)
		first = 0; /* with the heading */
	show(ui, in, &out, first, last);
}

void ui_panel_guided(struct ui *ui, const struct ui_rect *r)
{
	struct ui_checklist_state *cs = cstate(ui);
	static struct gline store[400];
	struct glines out = { store, 0, 400 };
	const struct ps_diagnosis *d = results(ui);
	const struct ui_guided *g = &ui->gview;
	struct ui_rect in;
	char right[160];
	int first = -1, last = -1, cur = ui_guided_running(g);

	ui_clear(r);
	if (ui->gphase == UI_GR_RUNNING) {
		snprintf(right, sizeof(right),
			 _("step %d of %d; s skips the test, x ends the run"),
			 cur >= 0 ? g->rows[cur].step : 0, PS_CL_NSTEPS);
	} else if (d) {
		snprintf(
			right, sizeof(right),
			ui->grun.aborted
				? _("ended by x; w writes the report")
				: _("done; w writes the report, g runs again"));
	} else {
		snprintf(right, sizeof(right), "%s", _("ending"));
	}
	in = ui_title(ui, r, _("Guided checklist"), right);
	if (in.h <= 0 || in.w <= 0)
		return;
	step_lines(ui, &out, in.w);
	if (d) {
		answer_lines(ui, d, &out, in.w);
		if (ui->grun.since[0])
			add_wrapped(&out, -1, 2, in.w - 2, ui_attr(UI_C_DIM),
				    ps_safe(ui->grun.since));
		finding_lines(ui, d, &out, in.w);
	}

	/* the window: the chosen finding (open or not) in sight; during the
	 * run, the running step */
	for (int i = 0; i < out.n; i++) {
		bool want = d ? out.l[i].finding == cs->sel
			      : cur >= 0 && (i == cur || i == cur + 1);

		if (!want)
			continue;
		if (first < 0)
			first = i;
		last = i;
	}
	/* the first finding comes with the findings' heading */
	if (first > 0 && d && cs->sel == 0)
		first--;
	show(ui, &in, &out, first, last);
}

/* g: the guided run of "pipescope check" against the workstation's target;
 * a running test is stopped first and the run starts once it has ended */
void ui_guided_go(struct ui *ui)
{
	struct ui_checklist_state *cs;
	int rc;

	ui->guided_pending = false;
	ui_grun_reap(&ui->grun);
	rc = ui_grun_start(&ui->grun, ui->opts, &ui->test, ui->selftest);
	if (rc) {
		ui_say(ui, 2, _("cannot start the guided run: %s"),
		       strerror(-rc));
		return;
	}
	pthread_mutex_lock(&ui->model.cap.lock);
	ui->guided_cap_gen = ui->model.cap.gen;
	pthread_mutex_unlock(&ui->model.cap.lock);
	/* a new run: the cursor on its findings starts again */
	cs = cstate(ui);
	cs->sel = cs->top = cs->nfindings = 0;
	memset(cs->open, 0, sizeof(cs->open));
	ui_say(ui, 0, "%s",
	       ui->opts->quick
		       ? _("guided run started (--quick): s skips the running "
			   "test, x ends the run")
		       : _("guided run started: s skips the running test, x "
			   "ends "
			   "the run"));
}

static void guided_key(struct ui *ui)
{
	ui->view = &ui_view_checklist;
	if (ui_grun_busy(&ui->grun)) {
		ui_say(ui, 1, "%s",
		       _("a guided run is going: s skips the running test, x "
			 "ends the run"));
		return;
	}
	if (ui->model.th_live) {
		/* the test stops; the loop starts the run once it is gone */
		ui->restart = false;
		ui->guided_pending = true;
		if (ui_model_busy(&ui->model))
			ui_model_stop(&ui->model);
		ui_say(ui, 0, "%s",
		       _("stopping the test; the guided run starts when it has "
			 "ended"));
		return;
	}
	ui_guided_go(ui);
}

/* ---- w for a plain test: its text, -J and HTML reports --------------- */

struct test_doc {
	const char *text;
	struct json_object *doc;
};

static void put_text(FILE *out, const void *arg)
{
	fputs(((const struct test_doc *)arg)->text, out);
}

static void put_json(FILE *out, const void *arg)
{
	fputs(json_object_to_json_string_ext(
		      ((const struct test_doc *)arg)->doc,
		      JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED),
	      out);
	fputc('\n', out);
}

static void put_html(FILE *out, const void *arg)
{
	ps_test_report_html(out, ((const struct test_doc *)arg)->doc);
}

/* DIR/pipescope-test-YYYYMMDD-HHMMSS[-K].{txt,json,html}, each whole or
 * not at all; 0 (path: the .txt's), 1 when no test has ended, or -errno */
static int write_test_files(struct ui *ui, const char *dir, char *path,
			    size_t len)
{
	static const char *const ext[3] = { ".txt", ".json", ".html" };
	static void (*const fn[3])(FILE *, const void *) = { put_text, put_json,
							     put_html };
	struct test_doc d = { 0 };
	char *text, *json, *abs, base[3968], stem[3968];
	int64_t ns = 0;
	time_t t;
	struct tm tm;
	int rc = 0;

	if (ps_capture_get(&ui->model.cap, &text, &json, &ns))
		return 1; /* no test has ended */
	d.text = text;
	d.doc = json_tokener_parse(json);
	if (!d.doc) {
		rc = -EINVAL;
		goto out;
	}
	t = (time_t)(ns / 1000000000LL);
	localtime_r(&t, &tm);
	abs = realpath(dir, NULL);
	snprintf(base, sizeof(base),
		 "%s/pipescope-test-%04d%02d%02d-%02d%02d%02d", abs ? abs : dir,
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec);
	free(abs);
	if (strlen(base) >= sizeof(base) - 1 || len < sizeof(base) + 16) {
		rc = -ENAMETOOLONG;
		goto out;
	}
	/* the same test written again, or two in one second: a name of its
	 * own, never over another file */
	ui_free_stem(stem, sizeof(stem), base, ext[0]);
	for (int i = 0; i < 3 && !rc; i++) {
		snprintf(path, len, "%s%s", stem, ext[i]);
		rc = ps_write_atomic(path, fn[i], &d);
	}
	snprintf(path, len, "%s%s", stem, ext[0]);
out:
	json_object_put(d.doc);
	free(text);
	free(json);
	return rc;
}

/* w with no guided report newer: the last test's */
static void write_test_report(struct ui *ui, const char *dir)
{
	char path[4096];
	int rc;

	if (ui_model_busy(&ui->model)) {
		ui_say(ui, 1, "%s",
		       _("the test's report is written once the test has "
			 "ended"));
		return;
	}
	rc = write_test_files(ui, dir, path, sizeof(path));
	if (rc > 0)
		ui_say(ui, 1, "%s",
		       _("no report yet: no test has ended (g runs the "
			 "guided checklist)"));
	else if (rc)
		ui_say(ui, 2, _("cannot write the report in %s: %s"), dir,
		       strerror(-rc));
	else
		ui_say(ui, 0, _("written: %s, .json, .html"), path);
}

/* w: the guided run's markdown report into a file, or the last test's
 * reports when it ended after the guided run began (or none ran) */
static void write_report(struct ui *ui)
{
	const char *dir = getenv("PIPESCOPE_REPORT_DIR");
	char path[4096];
	unsigned gen;
	int rc;

	if (!dir || !*dir)
		dir = ".";
	if (ui_grun_busy(&ui->grun)) {
		ui_say(ui, 1, "%s",
		       _("the report is written once the guided run has "
			 "ended"));
		return;
	}
	pthread_mutex_lock(&ui->model.cap.lock);
	gen = ui->model.cap.gen;
	pthread_mutex_unlock(&ui->model.cap.lock);
	if (ui->gphase != UI_GR_DONE || ui->grun.th_live ||
	    gen != ui->guided_cap_gen) {
		write_test_report(ui, dir);
		return;
	}
	rc = ui_grun_write_report(&ui->grun, dir, path, sizeof(path));
	if (rc)
		ui_say(ui, 2, _("cannot write the report in %s: %s"), dir,
		       strerror(-rc));
	else
		ui_say(ui, 0, _("report written: %s"), path);
}

/* s while a guided run goes: skip its running test */
static void skip_step(struct ui *ui)
{
	if (ui_grun_skip(&ui->grun))
		ui_say(ui, 1, "%s",
		       _("no test to skip right now (the inventory and the "
			 "evaluation are short)"));
	else
		ui_say(ui, 0, "%s", _("skipping the running test"));
}

/* x: end the guided run, or the one g asked for before it starts */
static void abort_run(struct ui *ui)
{
	if (ui_grun_busy(&ui->grun)) {
		ui_grun_abort(&ui->grun);
		ui_say(ui, 0, "%s",
		       _("ending the guided run; the findings come from what "
			 "ran"));
	} else if (ui->guided_pending) {
		ui->guided_pending = false;
		ui_say(ui, 0, "%s", _("the guided run will not start"));
	}
}

/* the guided run's keys: g, x and w from every view, s here */
static bool run_key(struct ui *ui, int ch)
{
	switch (ch) {
	case 'g':
	case 'G':
		guided_key(ui);
		return true;
	case 'x':
	case 'X':
		abort_run(ui);
		return true;
	case 'w':
		write_report(ui);
		return true;
	case 's':
	case 'S':
	case ' ':
		if (!ui_grun_busy(&ui->grun))
			return false;
		skip_step(ui);
		return true;
	}
	return false;
}

bool ui_guided_key(struct ui *ui, int ch)
{
	struct ui_checklist_state *cs = cstate(ui);
	bool live = ui->gphase == UI_GR_IDLE;

	if (run_key(ui, ch))
		return true;
	if ((!live && !results(ui)) || cs->nfindings <= 0)
		return false;
	switch (ch) {
	case KEY_UP:
	case 'k':
		if (cs->sel > 0)
			cs->sel--;
		return true;
	case KEY_DOWN:
	case 'j':
		if (cs->sel < cs->nfindings - 1)
			cs->sel++;
		return true;
	case KEY_HOME:
		cs->sel = 0;
		return true;
	case KEY_END:
		cs->sel = cs->nfindings - 1;
		return true;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (cs->sel >= 0 && cs->sel < 64 && live)
			cs->lclosed[cs->sel] = !cs->lclosed[cs->sel];
		else if (cs->sel >= 0 && cs->sel < 64)
			cs->open[cs->sel] = !cs->open[cs->sel];
		return true;
	case KEY_PPAGE:
		cs->sel = cs->sel > 5 ? cs->sel - 5 : 0;
		return true;
	case KEY_NPAGE:
		cs->sel = cs->sel + 5 < cs->nfindings ? cs->sel + 5
						      : cs->nfindings - 1;
		return true;
	}
	return false;
}
