/* ui-guided-run.c: the workstation's guided run (key g): the steps of
 * "pipescope check" on a worker thread (inventory, one stream, the sweep,
 * reverse, both directions, every check), each test's intervals fed to the
 * screen's graph and sum, s skipping a test, x ending the run, and w
 * writing the same markdown report as "check --format markdown" */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ceiling.h"
#include "clock.h"
#include "compare.h"
#include "nls.h"
#include "record.h"
#include "report-check.h"
#include "report-html.h"
#include "thread.h"
#include "ui-guided.h"
#include "ui-model.h"
#include "xmalloc.h"

void ui_grun_init(struct ui_grun *r, struct ui_model *m)
{
	memset(r, 0, sizeof(*r));
	pthread_mutex_init(&r->lock, NULL);
	ui_guided_init(&r->g);
	r->model = m;
}

static void changed(struct ui_grun *r)
{
	r->gen++;
	pthread_mutex_unlock(&r->lock);
	ui_model_wake(r->model);
}

/* the length of a test step as the screen's progress bar counts it */
static double test_length(const struct ui_grun *r)
{
	return r->cfg.step_seconds + (r->cfg.omit > 0 ? r->cfg.omit : 0);
}

/* ---- ps_checklist_ui: on the worker's (and the engine's) thread ------ */

static void cb_begin(void *arg, int n, int total, const char *title,
		     const char *reason)
{
	struct ui_grun *r = arg;
	bool test = n > PS_CL_INVENTORY + 1 && n < PS_CL_EVALUATE + 1;

	(void)total;
	pthread_mutex_lock(&r->lock);
	ui_guided_begin(&r->g, n, title, reason, ps_now(),
			test ? test_length(r) : 0);
	/* the inventory: two samples a second apart */
	if (n == PS_CL_INVENTORY + 1)
		r->g.rows[r->g.cur >= 0 ? r->g.cur : 0].length = 1.0;
	changed(r);
	if (test)
		ui_model_feed_begin(r->model, &r->client, test_length(r));
}

static enum ui_gstate gstate(enum ps_step_state s)
{
	switch (s) {
	case PS_STEP_SKIPPED:
		return UI_G_SKIPPED;
	case PS_STEP_FAILED:
		return UI_G_FAILED;
	case PS_STEP_PENDING:
	case PS_STEP_DONE:
		break;
	}
	return UI_G_DONE;
}

static void cb_end(void *arg, const struct ps_step_result *s,
		   const char *summary)
{
	struct ui_grun *r = arg;
	bool skipped_here =
		s && s->state == PS_STEP_SKIPPED && atomic_load(&r->abort);

	pthread_mutex_lock(&r->lock);
	ui_guided_end(
		&r->g, s ? gstate(s->state) : UI_G_DONE, s ? s->streams : 0,
		s && s->state == PS_STEP_DONE ? s->bps + s->bps_back : 0,
		skipped_here ? _("ended by the user (x)") : summary, ps_now());
	changed(r);
	/* the peer's kind and version come from the test's start */
	if (s)
		ui_model_feed_end(r->model, s, r->run.res->peer_kind,
				  r->run.res->peer_version);
}

static void cb_interval(void *arg, const struct ps_interval *iv)
{
	struct ui_grun *r = arg;

	ui_model_feed_interval(r->model, iv);
}

static void cb_session(void *arg, const struct ps_session *s)
{
	struct ui_grun *r = arg;

	ui_model_feed_session(r->model, s);
}

/* ---- the worker -------------------------------------------------------- */

/* the run into the history, and what changed since the last one there */
static void record(struct ui_grun *r)
{
	struct ps_check_report cr = { .ev = &r->run.ev, .d = r->run.diag };
	int64_t id = ps_hist_record_check(r->cfg.opts, &cr, NAN);
	char *path = ps_hist_path(r->cfg.opts);

	r->since[0] = 0;
	ps_compare_since_last(path, id, r->since, sizeof(r->since));
	free(path);
}

/* the evaluation's line: the findings and the binding ceiling */
static void evaluated(struct ui_grun *r)
{
	const struct ps_ceiling_model *m = &r->run.diag->ceil;
	char line[200], b[32];

	record(r);
	snprintf(line, sizeof(line),
		 P_("%zu finding", "%zu findings", r->run.diag->nrank),
		 r->run.diag->nrank);
	if (m->binding >= 0) {
		ps_fmt_bps(b, sizeof(b), m->c[m->binding].bps);
		ps_appendf(line, sizeof(line), _("; binding ceiling %s (%s)"),
			   b, m->c[m->binding].what);
	} else {
		ps_appendf(line, sizeof(line), "%s",
			   _("; no ceiling explains the rate"));
	}
	pthread_mutex_lock(&r->lock);
	ui_guided_end(&r->g, UI_G_DONE, 0, 0, line, ps_now());
	changed(r);
}

static void *grun_main(void *arg)
{
	struct ui_grun *r = arg;
	bool cut;

	/* the inventory, the tests, every check (checklist.c's frame) */
	ps_guided_run(&r->cfg, &r->iface, &r->run);
	/* x during the evaluation cuts nothing short */
	cut = atomic_load(&r->abort);
	evaluated(r);
	{
		const char *why = _("not run");
		const struct ps_run *res = r->run.res;

		/* the run says why it left steps out (the first test failed) */
		for (int i = 0; i < res->nsteps; i++)
			if (res->steps[i].state == PS_STEP_SKIPPED &&
			    res->steps[i].note[0])
				why = res->steps[i].note;
		if (cut)
			why = _("ended by the user (x)");
		pthread_mutex_lock(&r->lock);
		ui_guided_finish(&r->g, why, ps_now());
		changed(r);
	}

	pthread_mutex_lock(&r->lock);
	r->phase = UI_GR_DONE;
	r->aborted = cut;
	changed(r);
	atomic_store(&r->finished, true);
	ui_model_wake(r->model);
	return NULL;
}

static void results_free(struct ui_grun *r)
{
	ps_guided_free(&r->run);
}

int ui_grun_start(struct ui_grun *r, const struct ps_opts *opts,
		  const struct ps_opts *client, bool loopback)
{
	int rc;

	if (r->th_live)
		return -EBUSY;
	results_free(r);
	r->client = *client;
	{
		/* each step as long as the screen's t says, not the
		 * launch's -t */
		struct ps_opts o = *opts;

		o.duration = client->duration;
		ps_checklist_defaults(&r->cfg, &o);
		r->cfg.opts = opts;
	}
	r->cfg.client = &r->client;
	r->cfg.loopback = loopback;
	ps_check_iface_choose(opts, &r->iface);
	snprintf(r->cfg.iface, sizeof(r->cfg.iface), "%s", r->iface.name);
	r->cfg.skip = &r->skip;
	r->cfg.abort = &r->abort;
	r->cfg.ui.begin = cb_begin;
	r->cfg.ui.end = cb_end;
	r->cfg.ui.interval = cb_interval;
	r->cfg.ui.session = cb_session;
	r->cfg.ui.arg = r;
	ps_guided_init(&r->run,
		       opts->ntargets ? opts->targets[0].host : "127.0.0.1");
	atomic_store(&r->skip, false);
	atomic_store(&r->abort, false);
	atomic_store(&r->finished, false);

	pthread_mutex_lock(&r->lock);
	ui_guided_init(&r->g);
	for (int s = PS_CL_INVENTORY; s < PS_CL_NSTEPS; s++) {
		if ((s == PS_CL_REVERSE && !r->cfg.reverse) ||
		    (s == PS_CL_BIDIR && !r->cfg.bidir))
			continue;
		ui_guided_plan(&r->g, s + 1, ps_checklist_title(s),
			       ps_checklist_reason(s));
	}
	r->phase = UI_GR_RUNNING;
	r->aborted = false;
	r->gen++;
	pthread_mutex_unlock(&r->lock);

	/* the engine's threads inherit a mask with every signal blocked */
	rc = ps_thread_start(&r->th, grun_main, r);
	if (rc) {
		pthread_mutex_lock(&r->lock);
		r->phase = UI_GR_IDLE;
		pthread_mutex_unlock(&r->lock);
		results_free(r);
		return -rc;
	}
	r->th_live = true;
	return 0;
}

int ui_grun_skip(struct ui_grun *r)
{
	int rc = -EAGAIN, cur;

	if (!ui_grun_busy(r))
		return rc;
	pthread_mutex_lock(&r->lock);
	cur = ui_guided_running(&r->g);
	/* only a test can be cut short; the inventory is one second */
	if (cur >= 0 && !r->g.rows[cur].group &&
	    r->g.rows[cur].step > PS_CL_INVENTORY + 1 &&
	    r->g.rows[cur].step < PS_CL_EVALUATE + 1) {
		atomic_store(&r->skip, true);
		rc = 0;
	}
	pthread_mutex_unlock(&r->lock);
	return rc;
}

void ui_grun_abort(struct ui_grun *r)
{
	if (!ui_grun_busy(r))
		return;
	atomic_store(&r->abort, true);
	atomic_store(&r->skip, true);
}

bool ui_grun_busy(struct ui_grun *r)
{
	return r->th_live && !atomic_load(&r->finished);
}

bool ui_grun_reap(struct ui_grun *r)
{
	if (!r->th_live)
		return true;
	if (!atomic_load(&r->finished))
		return false;
	pthread_join(r->th, NULL);
	r->th_live = false;
	return true;
}

void ui_grun_copy(struct ui_grun *r, struct ui_guided *g,
		  enum ui_grun_phase *phase)
{
	pthread_mutex_lock(&r->lock);
	*g = r->g;
	*phase = r->phase;
	pthread_mutex_unlock(&r->lock);
}

int ui_grun_write_report(struct ui_grun *r, const char *dir, char *path,
			 size_t len)
{
	struct ps_check_report rep = { 0 };
	char tmp[4096], name[64], *abs;
	struct tm tm;
	time_t t = time(NULL);
	FILE *f;
	int fd, err = 0;

	if (r->th_live || !r->run.diag || !r->run.res)
		return -EAGAIN;
	if (!dir || !*dir)
		dir = ".";
	localtime_r(&t, &tm);
	ui_guided_report_name(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			      tm.tm_hour, tm.tm_min, tm.tm_sec, name,
			      sizeof(name));
	abs = realpath(dir, NULL);
	/* name ends in ".md": the stem before it */
	snprintf(tmp, sizeof(tmp), "%s/%.*s", abs ? abs : dir,
		 (int)strlen(name) - 3, name);
	free(abs);
	ui_free_stem(path, len, tmp, ".md");
	ps_appendf(path, len, ".md");
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.pipescope-report-XXXXXX",
			     dir) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	/* a report is for a ticket: readable as any file the user makes */
	{
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		goto out_unlink;
	}
	rep.ev = &r->run.ev;
	rep.d = r->run.diag;
	/* (the page has the history's line inside) */
	rep.since = r->since[0] ? r->since : NULL;
	ps_check_report_print(f, PS_FORMAT_MARKDOWN, &rep);
	if (fflush(f) || ferror(f) || fsync(fileno(f)))
		err = -(errno ? errno : EIO);
	if (fclose(f) && !err)
		err = -(errno ? errno : EIO);
	if (err)
		goto out_unlink;
	if (rename(tmp, path)) {
		err = -errno;
		goto out_unlink;
	}
	/* the same report with its charts beside it: name.html */
	(void)ps_check_report_html_beside(path, &rep);
	return 0;
out_unlink:
	unlink(tmp);
	return err;
}

void ui_grun_destroy(struct ui_grun *r)
{
	if (r->th_live) {
		atomic_store(&r->abort, true);
		atomic_store(&r->skip, true);
		pthread_join(r->th, NULL);
		r->th_live = false;
	}
	results_free(r);
	pthread_mutex_destroy(&r->lock);
}
