/* cmd-check.c: "pipescope check [-c HOST] [--iface IF] [--format F]
 * [--quick]" and "pipescope check --snapshot FILE": the guided run (or the
 * static checks of a saved snapshot), then one report on stdout; progress
 * goes to stderr so that stdout stays a clean document */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceiling.h"
#include "checklist.h"
#include "compare.h"
#include "cmd-check.h"
#include "selftest.h"
#include "exitcodes.h"
#include "log.h"
#include "nls.h"
#include "record.h"
#include "report-check.h"
#include "report-html.h"
#include "sanitize.h"
#include "sysroot.h"
#include "xmalloc.h"

static void ui_begin(void *arg, int n, int total, const char *title,
		     const char *reason)
{
	(void)arg;
	fprintf(stderr, "[%d/%d] %s: %s\n", n, total, title, ps_safe(reason));
}

/* what the text steps remember: the far end's inventory is told once,
 * when its first snapshot has come with a test */
struct cli_steps {
	const struct ps_run *res;
	bool far_told;
	/* how much each step's rate varied, for the history */
	struct ps_hist_spread cur;
	double spread[24];
};

static void ui_interval(void *arg, const struct ps_interval *iv)
{
	struct cli_steps *cs = arg;

	ps_hist_spread_add(&cs->cur, iv);
}

/* the spread of the step that gives the run its rate, NAN unknown */
static double best_spread(const struct cli_steps *cs)
{
	const struct ps_step_result *b = cs->res ? ps_run_best(cs->res) : NULL;
	long i = b ? b - cs->res->steps : -1;

	return i >= 0 && i < 24 ? cs->spread[i] : NAN;
}

static void far_inventory(struct cli_steps *cs)
{
	const struct ps_run *res = cs ? cs->res : NULL;
	struct ps_host far;
	char line[200];

	if (!res || cs->far_told || !res->peer_snap || res->loopback)
		return;
	cs->far_told = true;
	far.snap = res->peer_snap;
	ps_check_inventory_line(&far, &res->peer_snap->hdr.iface, line,
				sizeof(line));
	fprintf(stderr, _("      far end %s: %s\n"),
		res->peer_snap->hdr.hostname[0]
			? ps_safe(res->peer_snap->hdr.hostname)
			: "?",
		ps_safe(line));
}

static void ui_end(void *arg, const struct ps_step_result *s,
		   const char *summary)
{
	struct cli_steps *cs = arg;

	if (cs && s && cs->res) {
		long i = s - cs->res->steps;

		if (i >= 0 && i < 24)
			cs->spread[i] = ps_hist_spread_get(&cs->cur);
		memset(&cs->cur, 0, sizeof(cs->cur));
	}
	if (!s)
		fprintf(stderr, "      %s\n", ps_safe(summary));
	else if (s->state == PS_STEP_DONE)
		fprintf(stderr,
			P_("      %d stream%s: %s\n",
			   "      %d streams%s: %s\n", s->streams),
			s->streams,
			s->bidir     ? _(", both directions")
			: s->reverse ? _(", reverse")
				     : "",
			ps_safe(summary));
	else
		fprintf(stderr, _("      %s: %s\n"),
			s->state == PS_STEP_SKIPPED ? _("skipped")
						    : _("failed"),
			ps_safe(summary));
	far_inventory(arg);
	fflush(stderr);
}

/* what changed since the last run to the same host into line: false when
 * there is no such run (or the report is JSON, which has no such line) */
static bool since_last(const struct ps_opts *o, int64_t id, char *line,
		       size_t len)
{
	char *path;
	bool have;

	if (o->report_format == PS_FORMAT_JSON)
		return false;
	path = ps_hist_path(o);
	have = !ps_compare_since_last(path, id, line, len);
	free(path);
	return have;
}

/* record, print, and the exit status of a diagnosis */
static int report(const struct ps_opts *o, const struct ps_evidence *ev,
		  const struct ps_diagnosis *d, const char *snapshot_file,
		  double spread)
{
	struct ps_check_report r = { .ev = ev,
				     .d = d,
				     .snapshot_file = snapshot_file,
				     .cmdline = o->cmdline };
	char since[1024];
	int64_t id;
	int rc, plot = 0;

	/* the charts first: the markdown links only what was written */
	if (o->plot_dir) {
		plot = ps_check_report_plot(o->plot_dir, &r);
		r.plot_dir = plot ? NULL : o->plot_dir;
	}
	id = ps_hist_record_check(o, &r, spread);
	/* after a guided run's report, what changed since the last run to
	 * the same host: the page has it inside, styled */
	if (ev->res && since_last(o, id, since, sizeof(since)))
		r.since = since;
	ps_check_report_print(stdout, o->report_format, &r);
	if (r.since && o->report_format != PS_FORMAT_HTML)
		printf("%s\n", o->report_format == PS_FORMAT_MARKDOWN
				       ? ps_md_safe(since)
				       : since);
	rc = plot ? PS_EXIT_FAIL : d->bottleneck ? PS_EXIT_FOUND : PS_EXIT_OK;
	if (fflush(stdout) || ferror(stdout)) {
		ps_err(_("cannot write the output: %s"), strerror(errno));
		rc = PS_EXIT_FAIL;
	}
	return rc;
}

static int check_static(const struct ps_opts *o)
{
	struct ps_host host;
	const char *what;
	int rc;

	if (o->snapshot) {
		if (ps_host_load(&host, o->snapshot))
			return PS_EXIT_FAIL; /* the loader said why */
		what = _("pipescope: static checks only: a saved snapshot is "
			 "evaluated, no test is run");
	} else {
		/* --sysroot DIR: the static checks on a recorded tree */
		struct ps_iface_choice iface;

		if (ps_sysroot_use(o->sysroot))
			return PS_EXIT_USAGE;
		ps_iface_choose(o->iface, NULL, &iface);
		ps_host_sample(&host, &iface, 0);
		what = _("pipescope: static checks only: a recorded tree is "
			 "evaluated, no test is run");
	}
	fprintf(stderr, "%s\n", what);
	{
		struct ps_evidence ev;
		struct ps_diagnosis *d = xcalloc(1, sizeof(*d));

		ps_host_evidence(&host, NULL, &ev);
		ps_diagnose(&ev, d);
		rc = report(o, &ev, d, o->snapshot ? o->snapshot : o->sysroot,
			    NAN);
		free(d);
	}
	ps_host_free(&host);
	return rc;
}

int ps_cmd_check(const struct ps_opts *o)
{
	struct cli_steps steps = { 0 };
	struct ps_checklist_cfg cfg;
	struct ps_opts co;
	struct ps_iface_choice iface;
	struct ps_guided g;
	void *selftest = NULL;
	int rc;

	/* a bad --plot DIR is said before a test runs */
	if (o->plot_dir && ps_plot_dir_ready(o->plot_dir))
		return PS_EXIT_FAIL;
	if (o->snapshot || (o->sysroot && *o->sysroot))
		return check_static(o);

	ps_check_iface_choose(o, &iface);
	if (iface.source == PS_IFACE_OPTION && iface.status != PS_ST_OK) {
		ps_err("%s", iface.reason);
		return PS_EXIT_FAIL;
	}
	ps_checklist_defaults(&cfg, o);
	cfg.udp = o->proto == PS_PROTO_UDP;
	snprintf(cfg.iface, sizeof(cfg.iface), "%s", iface.name);
	cfg.ui.begin = ui_begin;
	cfg.ui.end = ui_end;
	cfg.ui.interval = ui_interval;
	cfg.ui.arg = &steps;

	if (!o->ntargets) {
		rc = ps_selftest_start(o, &co, &selftest);
		if (rc) {
			ps_err(_("cannot start the loopback server: %s"),
			       strerror(-rc));
			return PS_EXIT_FAIL;
		}
		cfg.client = &co;
		cfg.loopback = true;
		fprintf(stderr, "%s\n",
			_("pipescope: no -c HOST: testing against an "
			  "in-process server on 127.0.0.1; loopback measures "
			  "this host, not the link"));
	}
	ps_install_signals();
	cfg.skip = &ps_stop_requested;

	ps_guided_init(&g, o->ntargets ? o->targets[0].host : "127.0.0.1");
	steps.res = g.res;
	ps_guided_run(&cfg, &iface, &g);
	if (selftest)
		ps_selftest_stop(selftest);
	rc = report(o, &g.ev, g.diag, NULL, best_spread(&steps));
	/* every test failed and nothing explains why: a failure */
	if (g.rc && rc == PS_EXIT_OK) {
		ps_err("%s", _("no test could run; the report has the static "
			       "checks only"));
		rc = PS_EXIT_FAIL;
	}
	ps_guided_free(&g);
	return rc;
}
