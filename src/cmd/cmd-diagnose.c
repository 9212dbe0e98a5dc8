/* cmd-diagnose.c: --diagnose FILE (cmd-diagnose.h): the test's events go
 * to its own output and to the checklist's collector (checklist.h), which
 * reads this end's probes around it; at its end the collected step is
 * diagnosed as a guided run of one step would be */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "ceiling.h"
#include "clock.h"
#include "checklist.h"
#include "cmd-diagnose.h"
#include "engine.h"
#include "log.h"
#include "nls.h"
#include "options.h"
#include "record.h"
#include "report-check.h"
#include "report-html.h"
#include "xmalloc.h"

struct ps_tdiag {
	struct ps_reporter inner; /* the test's own output */
	struct ps_reporter col_rep;
	const struct ps_opts *o;
	struct ps_checklist_cfg cfg;
	struct ps_iface_choice iface;
	struct ps_guided g;
	struct ps_cl_collect *col;
	struct ps_hist_attach *att;
	/* the test as it began (its step's shape) */
	bool begun, udp, reverse, bidir;
	int streams;
	bool judged;
	char *report; /* the check's JSON text */
	char error[200];
};

static void d_start(void *arg, const struct ps_test_info *in)
{
	struct ps_tdiag *d = arg;

	if (d->inner.start)
		d->inner.start(d->inner.arg, in);
	if (in->server)
		return;
	d->begun = true;
	d->udp = in->proto == PS_PROTO_UDP;
	d->reverse = in->reverse;
	d->bidir = in->bidir;
	d->streams = in->parallel > 0 ? in->parallel : 1;
	d->col_rep.start(d->col_rep.arg, in);
}

static void d_interval(void *arg, const struct ps_interval *iv)
{
	struct ps_tdiag *d = arg;

	if (d->inner.interval)
		d->inner.interval(d->inner.arg, iv);
	if (d->begun)
		d->col_rep.interval(d->col_rep.arg, iv);
}

static void judge(struct ps_tdiag *d, bool done);

static void d_end(void *arg, const struct ps_test_info *in,
		  const struct ps_summary *sum)
{
	struct ps_tdiag *d = arg;

	if (d->inner.end)
		d->inner.end(d->inner.arg, in, sum);
	if (!d->begun || in->server)
		return;
	d->col_rep.end(d->col_rep.arg, in, sum);
	/* before the history's record is made (the wrap outside this one) */
	judge(d, true);
}

static void d_error(void *arg, const char *msg)
{
	struct ps_tdiag *d = arg;

	if (d->inner.error)
		d->inner.error(d->inner.arg, msg);
	snprintf(d->error, sizeof(d->error), "%s", msg);
}

static void d_message(void *arg, const char *msg)
{
	struct ps_tdiag *d = arg;

	if (d->inner.message)
		d->inner.message(d->inner.arg, msg);
}

static void d_destroy(void *arg)
{
	struct ps_tdiag *d = arg;

	/* the rest is ps_tdiag_finish's, after the test */
	ps_report_destroy(&d->inner);
}

/* the step's name in the report, as the guided run names its steps */
static const char *step_id(const struct ps_tdiag *d)
{
	return d->udp		? "udp"
	       : d->bidir	? "bidir"
	       : d->reverse	? "reverse"
	       : d->streams > 1 ? "sweep"
				: "single";
}

/* the one step into the run, every check on it, the report's text */
static void judge(struct ps_tdiag *d, bool done)
{
	struct ps_run *res = d->g.res;
	struct ps_step_result *s;
	struct ps_check_report r = { 0 };
	const struct ps_outcome *top;
	struct json_object *doc;

	if (d->judged)
		return;
	d->judged = true;
	s = &res->steps[res->nsteps++];
	memset(s, 0, sizeof(*s));
	snprintf(s->id, sizeof(s->id), "%s", step_id(d));
	if (d->begun)
		ps_cl_collect_step(d->col, s);
	s->streams = d->begun ? d->streams : d->o->parallel;
	s->reverse = d->begun ? d->reverse : d->o->reverse;
	s->bidir = d->begun ? d->bidir : d->o->bidir;
	if (done) {
		s->state = PS_STEP_DONE;
	} else {
		s->state = PS_STEP_FAILED;
		snprintf(s->note, sizeof(s->note), "%s",
			 d->error[0] ? d->error : _("the test failed"));
	}
	ps_host_evidence(&d->g.host, res, &d->g.ev);
	ps_diagnose(&d->g.ev, d->g.diag);
	r.ev = &d->g.ev;
	r.d = d->g.diag;
	r.cmdline = d->o->cmdline;
	doc = ps_check_report_json(&r);
	d->report = xstrdup(json_object_to_json_string_ext(
		doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
	if (d->att) {
		free(d->att->check);
		d->att->check = xstrdup(d->report);
		top = ps_diagnosis_ranked(d->g.diag, 0);
		snprintf(d->att->top, sizeof(d->att->top), "%s",
			 top ? top->f.title : "");
	}
}

struct ps_tdiag *ps_tdiag_wrap(struct ps_reporter *rep, const struct ps_opts *o,
			       struct ps_opts *client, bool loopback,
			       struct ps_hist_attach *att)
{
	struct ps_tdiag *d;

	if (!o->diagnose)
		return NULL;
	d = xcalloc(1, sizeof(*d));
	d->o = o;
	d->att = att;
	d->inner = *rep;
	/* a pipescope server sends its readings: its host and NIC are
	 * checked too (not the self-test's: that is this process) */
	if (!loopback)
		client->peer_probes = true;
	ps_checklist_defaults(&d->cfg, o);
	d->cfg.client = client;
	d->cfg.loopback = loopback;
	d->cfg.udp = o->proto == PS_PROTO_UDP;
	ps_check_iface_choose(o, &d->iface);
	snprintf(d->cfg.iface, sizeof(d->cfg.iface), "%s", d->iface.name);
	ps_guided_init(&d->g, loopback || !o->ntargets ? "127.0.0.1"
						       : o->targets[0].host);
	d->g.res->start_ns = ps_clock_ns(CLOCK_REALTIME);
	ps_checklist_run_init(&d->cfg, d->g.res);
	/* this host as the test begins: its static checks' readings (the
	 * step's counters come from the collector's own readings) */
	ps_host_sample(&d->g.host, &d->iface, 0);
	d->col = ps_cl_collect_new(&d->cfg, d->g.res);
	ps_cl_collect_reporter(d->col, &d->col_rep);
	*rep = (struct ps_reporter){ .start = d_start,
				     .interval = d_interval,
				     .end = d_end,
				     .error = d_error,
				     .message = d_message,
				     .destroy = d_destroy,
				     .arg = d };
	return d;
}

static void write_report(FILE *out, const void *arg)
{
	fputs(arg, out);
	fputc('\n', out);
}

int ps_tdiag_finish(struct ps_tdiag *d)
{
	int rc = 0, e;

	if (!d)
		return 0;
	/* a test that ended without its summary: judged as it failed */
	judge(d, false);
	e = ps_write_atomic(d->o->diagnose, write_report, d->report);
	if (e) {
		ps_err(_("--diagnose: cannot write %s: %s"), d->o->diagnose,
		       strerror(-e));
		rc = -1;
	}
	free(d->report);
	ps_cl_collect_free(d->col);
	ps_guided_free(&d->g);
	free(d);
	return rc;
}
