/* checklist.c: the guided run of "pipescope check": the inventory of this
 * host, one stream, the stream sweep, reverse and both directions, with the
 * host's cores read around every test */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceiling.h"
#include "checklist.h"
#include "clock.h"
#include "engine.h"
#include "log.h"
#include "nls.h"
#include "probe.h"
#include "session.h"
#include "sysroot.h"
#include "xmalloc.h"

/* the guided run's own thresholds (check --rules) */
enum { R_SWEEP_GROWTH };
static const struct ps_rule rules[] = {
	[R_SWEEP_GROWTH] = {
		.name = "sweep_growth",
		.value = 1.05,
		.unit = "ratio",
		.why = N_("the sweep doubles the streams while the sum grows "
			  "by at least this factor (and beyond the spread of "
			  "the runs)"),
	},
};
PS_RULE_FAMILY(checklist, rules);

/* a test that moved less than this cannot tell more when repeated or with
 * more streams */
#define NOTHING_BPS (PS_CHECK_RULE(NOTHING_MOVED)->value)

/* ---- the host -------------------------------------------------------- */

int ps_host_sample(struct ps_host *h, const struct ps_iface_choice *iface,
		   double interval_s)
{
	struct ps_probe_env env = { .iface = *iface };
	struct ps_probe_set *set;
	struct ps_snapshot *first;

	memset(h, 0, sizeof(*h));
	set = ps_probes_open(&env);
	if (!set)
		return -ENOMEM;
	first = ps_snapshot_new();
	ps_probes_sample(set, first, NULL);
	if (ps_sysroot_is_live() && interval_s > 0) {
		/* rates (CPU %, interrupts/s, drops/s) need a second sample */
		ps_sleep(interval_s);
		h->snap = ps_snapshot_new();
		ps_probes_sample(set, h->snap, first);
		ps_snapshot_put(first);
	} else {
		h->snap = first;
	}
	ps_probes_close(set);
	return 0;
}

int ps_host_load(struct ps_host *h, const char *file)
{
	int rc;

	memset(h, 0, sizeof(*h));
	h->snap = ps_snapshot_new();
	rc = ps_snapshot_load(file, h->snap);
	/* the loader clears the struct, reference count included */
	if (rc) {
		ps_snapshot_free(h->snap);
		free(h->snap);
		h->snap = NULL;
		return rc;
	}
	atomic_store(&h->snap->refs, 1);
	return 0;
}

void ps_host_evidence(const struct ps_host *h, const struct ps_run *res,
		      struct ps_evidence *ev)
{
	ps_evidence_of(h->snap, res, ev);
	/* the self-test's far end is this process */
	if (res && !res->loopback)
		ev->peer = res->peer_snap;
}

void ps_host_free(struct ps_host *h)
{
	if (h->snap)
		ps_snapshot_put(h->snap);
	memset(h, 0, sizeof(*h));
}

static bool is_loopback(const char *host)
{
	return !strncmp(host, "127.", 4) || !strcmp(host, "::1") ||
	       !strcmp(host, "localhost");
}

void ps_check_iface_choose(const struct ps_opts *o,
			   struct ps_iface_choice *iface)
{
	const char *peer = o->ntargets ? o->targets[0].host : "127.0.0.1";

	/* the self-test's packets, and any to a loopback address, go over
	 * lo whatever the main routing table says */
	ps_iface_choose(o->iface			    ? o->iface
			: !o->ntargets || is_loopback(peer) ? "lo"
							    : NULL,
			peer, iface);
}

void ps_check_inventory_line(const struct ps_host *host,
			     const struct ps_iface_choice *iface, char *line,
			     size_t len)
{
	snprintf(line, len, _("interface %s (%s)"),
		 iface->name[0] ? iface->name : "?",
		 ps_iface_source_name(iface->source));
	if (!host->snap)
		return;
	if (host->snap->ethtool.drvinfo.status == PS_ST_OK)
		ps_appendf(line, len, ", %s",
			   host->snap->ethtool.drvinfo.driver);
	if (host->snap->link.status == PS_ST_OK)
		ps_appendf(line, len, _(", MTU %lld"),
			   (long long)host->snap->link.mtu);
	if (host->snap->cpu.status == PS_ST_OK)
		ps_appendf(line, len, _(", %d cores"), host->snap->cpu.ncores);
}

/* ---- the steps ------------------------------------------------------- */

const char *ps_checklist_title(enum ps_cl_step s)
{
	switch (s) {
	case PS_CL_INVENTORY:
		return _("Inventory");
	case PS_CL_SINGLE:
		return _("One stream");
	case PS_CL_SWEEP:
		return _("Stream sweep");
	case PS_CL_REVERSE:
		return _("Reverse");
	case PS_CL_BIDIR:
		return _("Both directions");
	case PS_CL_EVALUATE:
	case PS_CL_NSTEPS:
		break;
	}
	return _("Evaluate");
}

const char *ps_checklist_reason(enum ps_cl_step s)
{
	switch (s) {
	case PS_CL_INVENTORY:
		return _("read every probe of this host: CPU, IRQs, NIC, MTU, "
			 "PCIe, TCP settings");
	case PS_CL_SINGLE:
		return _("the rate of one flow, its RTT and what TCP_INFO says "
			 "holds it back");
	case PS_CL_SWEEP:
		return _("more streams until the sum stops growing: per-flow "
			 "limit or shared limit");
	case PS_CL_REVERSE:
		return _("the other direction: the far end sends, this end "
			 "receives");
	case PS_CL_BIDIR:
		return _("both directions at once: a shared CPU or bus shows "
			 "up here");
	case PS_CL_EVALUATE:
	case PS_CL_NSTEPS:
		break;
	}
	return _("every check on what was measured, ranked by how much of the "
		 "gap it explains");
}

void ps_checklist_defaults(struct ps_checklist_cfg *cfg,
			   const struct ps_opts *opts)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->opts = opts;
	cfg->client = opts;
	/* -t sets the length of each test; the default is short */
	if (opts->duration != 10 && opts->duration > 0)
		cfg->step_seconds = opts->duration;
	else
		cfg->step_seconds = opts->quick ? 2 : 4;
	cfg->omit = opts->omit ? opts->omit : (opts->quick ? 0 : 1);
	cfg->max_streams = opts->quick ? 4 : 16;
	cfg->reverse = true;
	cfg->bidir = !opts->quick;
	cfg->repeat = opts->repeat > 0 ? opts->repeat : 2;
	if (cfg->repeat > PS_STEP_MAX_RUNS)
		cfg->repeat = PS_STEP_MAX_RUNS;
}

/* ---- one test: its session, fed by the engine and this end's probes --- */

struct ps_cl_collect {
	const struct ps_checklist_cfg *cfg;
	struct ps_run *res;
	struct ps_session sess;
	/* this end's probes for the interface around and during the test */
	struct ps_probe_env env;
	struct ps_probe_set *set;
	struct ps_snapshot *prev;
	char error[200];
};

/* one reading of this end into the session: the caller's (recorded), or
 * a sample of this host's probes */
static void reading(struct ps_cl_collect *c)
{
	const struct ps_checklist_cfg *cfg = c->cfg;
	struct ps_snapshot *snap;

	if (!ps_session_wants_local(&c->sess))
		return;
	if (cfg->read) {
		snap = cfg->read(cfg->read_arg);
	} else {
		if (!c->set) {
			ps_iface_choose(cfg->iface[0] ? cfg->iface : NULL, NULL,
					&c->env.iface);
			c->set = ps_probes_open(&c->env);
		}
		if (!c->set)
			return;
		snap = ps_snapshot_new();
		ps_probes_sample(c->set, snap, c->prev);
	}
	if (!snap)
		return;
	ps_session_local(&c->sess, snap);
	ps_snapshot_put(c->prev);
	c->prev = snap;
}

static void col_start(void *arg, const struct ps_test_info *info)
{
	struct ps_cl_collect *c = arg;

	if (info->peer_kind)
		snprintf(c->res->peer_kind, sizeof(c->res->peer_kind), "%s",
			 info->peer_kind);
	if (info->peer_version[0])
		snprintf(c->res->peer_version, sizeof(c->res->peer_version),
			 "%s", info->peer_version);
	ps_session_begin(&c->sess, info);
	reading(c);
}

static void col_interval(void *arg, const struct ps_interval *iv)
{
	struct ps_cl_collect *c = arg;

	if (c->cfg->ui.interval)
		c->cfg->ui.interval(c->cfg->ui.arg, iv);
	ps_session_interval(&c->sess, iv);
	reading(c);
	if (c->cfg->ui.session)
		c->cfg->ui.session(c->cfg->ui.arg, &c->sess);
}

static void col_end(void *arg, const struct ps_test_info *info,
		    const struct ps_summary *sum)
{
	struct ps_cl_collect *c = arg;

	/* an iperf3 peer is dated by its results ("<=3.13") */
	if (info->peer_version[0])
		snprintf(c->res->peer_version, sizeof(c->res->peer_version),
			 "%s", info->peer_version);
	ps_session_end(&c->sess, info, sum);
	reading(c);
	if (c->cfg->ui.session)
		c->cfg->ui.session(c->cfg->ui.arg, &c->sess);
	snprintf(c->res->cc_local, sizeof(c->res->cc_local), "%s",
		 c->sess.cc_local);
	snprintf(c->res->cc_remote, sizeof(c->res->cc_remote), "%s",
		 c->sess.cc_remote);
}

static void col_error(void *arg, const char *msg)
{
	struct ps_cl_collect *c = arg;

	snprintf(c->error, sizeof(c->error), "%s", msg);
}

static void col_message(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static void col_destroy(void *arg)
{
	(void)arg;
}

struct ps_cl_collect *ps_cl_collect_new(const struct ps_checklist_cfg *cfg,
					struct ps_run *res)
{
	struct ps_cl_collect *c = xcalloc(1, sizeof(*c));

	c->cfg = cfg;
	c->res = res;
	ps_session_init(&c->sess);
	return c;
}

void ps_cl_collect_reporter(struct ps_cl_collect *c, struct ps_reporter *rep)
{
	*rep = (struct ps_reporter){
		.start = col_start,
		.interval = col_interval,
		.end = col_end,
		.error = col_error,
		.message = col_message,
		.destroy = col_destroy,
		.arg = c,
	};
}

bool ps_cl_collect_step(struct ps_cl_collect *c, struct ps_step_result *out)
{
	const struct ps_snapshot *far = ps_session_peer_last(&c->sess);
	char id[sizeof(out->id)];

	if (!c->sess.begun)
		return false;
	memcpy(id, out->id, sizeof(id));
	ps_step_result_free(out);
	ps_session_step(&c->sess, out);
	memcpy(out->id, id, sizeof(id));
	/* keep the far end's newest readings for its host and NIC checks */
	if (far && far != c->res->peer_snap) {
		ps_snapshot_put(c->res->peer_snap);
		c->res->peer_snap = ps_snapshot_get((struct ps_snapshot *)far);
	}
	return c->sess.ended;
}

const struct ps_session *ps_cl_collect_session(const struct ps_cl_collect *c)
{
	return &c->sess;
}

/* for the next attempt, or the end: the test's readings are let go */
static void collect_reset(struct ps_cl_collect *c)
{
	ps_session_free(&c->sess);
	ps_snapshot_put(c->prev);
	c->prev = NULL;
	c->error[0] = 0;
}

void ps_cl_collect_free(struct ps_cl_collect *c)
{
	if (!c)
		return;
	collect_reset(c);
	ps_probes_close(c->set);
	free(c);
}

int ps_checklist_test(const struct ps_checklist_cfg *cfg, struct ps_run *res,
		      struct ps_step_result *out, int streams, bool reverse,
		      bool bidir)
{
	struct ps_opts co = *cfg->client;
	struct ps_cl_collect *c = ps_cl_collect_new(cfg, res);
	struct ps_reporter rep;
	char error[200];
	atomic_bool own_stop = false;
	int rc;

	ps_cl_collect_reporter(c, &rep);
	out->streams = streams;
	out->reverse = reverse;
	out->bidir = bidir;
	co.mode = PS_MODE_CLIENT;
	co.parallel = streams;
	co.reverse = reverse;
	co.bidir = bidir;
	co.duration = cfg->step_seconds;
	co.bytes = co.blocks = 0;
	co.omit = cfg->omit;
	co.interval = cfg->step_seconds >= 4 ? 1.0 : 0.5;
	co.json = co.json_stream = false;
	/* check -u: UDP at the -b rate (the guided run's one UDP test) */
	co.proto = cfg->udp ? PS_PROTO_UDP : PS_PROTO_TCP;
	co.rate = cfg->udp ? cfg->client->rate : 0;
	co.get_server_output = false;
	/* a pipescope server sends its cores and NIC: checked as the far end
	 * (not the self-test's: that is this process) */
	co.peer_probes = !cfg->loopback;
	for (int attempt = 0;; attempt++) {
		double t0 = ps_now();

		rc = ps_client_run(&co, &rep,
				   cfg->skip ? cfg->skip : &own_stop);
		/*
		 * A server that was still closing the previous test refuses
		 * at once ("busy"): a quick failure is tried again, a slow
		 * one (a timeout) is not.
		 */
		if (!rc || attempt >= 3 || ps_now() - t0 > 1.5 ||
		    (cfg->skip && atomic_load(cfg->skip)))
			break;
		collect_reset(c);
		ps_sleep(0.5);
	}
	/* what the test measured, whole or up to where it stopped */
	ps_cl_collect_step(c, out);
	out->streams = streams;
	out->reverse = reverse;
	out->bidir = bidir;
	snprintf(error, sizeof(error), "%s", c->error);
	ps_cl_collect_free(c);
	/* the whole run ended (x): what this test measured so far counts */
	if (cfg->skip && atomic_load(cfg->skip) && cfg->abort &&
	    atomic_load(cfg->abort) && out->seconds >= 1 && out->bps > 0) {
		out->state = PS_STEP_DONE;
		snprintf(out->note, sizeof(out->note),
			 _("cut short by the user after %.0f s"), out->seconds);
		return 0;
	}
	if (cfg->skip && atomic_load(cfg->skip)) {
		out->state = PS_STEP_SKIPPED;
		snprintf(out->note, sizeof(out->note), "%s",
			 _("skipped by the user"));
		ps_step_result_free(out);
		return -EINTR;
	}
	if (rc) {
		out->state = PS_STEP_FAILED;
		snprintf(out->note, sizeof(out->note), "%s",
			 error[0] ? error : _("the test failed"));
		return -EIO;
	}
	out->state = PS_STEP_DONE;
	return 0;
}

static int cmp_bps(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static bool aborted(const struct ps_checklist_cfg *cfg);

/*
 * One step of the guided run: its test cfg->repeat times. The step's rate
 * is the median of the runs that finished, its other readings (TCP_INFO,
 * cores, interrupts) the run nearest that median; the slowest and the
 * fastest run give its spread. A test that moved almost nothing is not
 * repeated: a second one cannot tell more. Returns as ps_checklist_test.
 */
static int step_test(const struct ps_checklist_cfg *cfg, struct ps_run *res,
		     struct ps_step_result *out, int streams, bool reverse,
		     bool bidir)
{
	int want = cfg->repeat > 1 ? cfg->repeat : 1, ok = 0, rc = 0;
	struct ps_step_result *runs = xcalloc((size_t)want, sizeof(*runs));
	double v[PS_STEP_MAX_RUNS], med;
	int pick = 0;

	if (want > PS_STEP_MAX_RUNS)
		want = PS_STEP_MAX_RUNS;
	for (int k = 0; k < want; k++) {
		struct ps_step_result *x = &runs[ok];

		memset(x, 0, sizeof(*x));
		memcpy(x->id, out->id, sizeof(x->id));
		rc = ps_checklist_test(cfg, res, x, streams, reverse, bidir);
		if (rc == -EINTR) {
			/* s skips the step, whichever of its runs it came
			 * in: the runs that finished are let go too (x, the
			 * end of the whole run, keeps what ran: below) */
			if (!ok || !aborted(cfg)) {
				for (int j = 0; j < ok; j++)
					ps_step_result_free(&runs[j]);
				*out = *x;
				ok = 0;
			} else {
				ps_step_result_free(x);
			}
			break;
		}
		if (x->state != PS_STEP_DONE) {
			/* a failure is not tried again: the first one is the
			 * step's when nothing finished */
			if (!ok)
				*out = *x;
			else if (x->have_cpu)
				ps_cpu_free(&x->cpu);
			break;
		}
		ok++;
		if (x->bps < NOTHING_BPS || aborted(cfg))
			break;
	}
	if (!ok) {
		free(runs);
		return rc ? rc : -EIO;
	}
	for (int k = 0; k < ok; k++)
		v[k] = runs[k].bps;
	qsort(v, (size_t)ok, sizeof(v[0]), cmp_bps);
	med = ok % 2 ? v[ok / 2] : (v[ok / 2 - 1] + v[ok / 2]) / 2;
	for (int k = 1; k < ok; k++)
		if (fabs(runs[k].bps - med) < fabs(runs[pick].bps - med))
			pick = k;
	*out = runs[pick];
	for (int k = 0; k < ok; k++) {
		out->run_bps[k] = runs[k].bps;
		if (k != pick && runs[k].have_cpu)
			ps_cpu_free(&runs[k].cpu);
	}
	out->nruns = ok;
	out->bps = med;
	out->bps_lo = v[0];
	out->bps_hi = v[ok - 1];
	free(runs);
	/* a skip after a finished run still ends the step as skipped */
	return rc == -EINTR ? rc : 0;
}

static struct ps_step_result *next_step(struct ps_run *res, const char *id)
{
	struct ps_step_result *s;

	if (res->nsteps >= (int)(sizeof(res->steps) / sizeof(res->steps[0])))
		return NULL;
	s = &res->steps[res->nsteps++];
	memset(s, 0, sizeof(*s));
	snprintf(s->id, sizeof(s->id), "%s", id);
	return s;
}

static void summary_of(const struct ps_step_result *s, char *buf, size_t len)
{
	char r[32];

	if (s->state != PS_STEP_DONE) {
		snprintf(buf, len, "%s", s->note);
		return;
	}
	ps_fmt_bps(r, sizeof(r), s->bps);
	if (s->bidir) {
		char b[32];

		ps_fmt_bps(b, sizeof(b), s->bps_back);
		snprintf(buf, len, "%s + %s", r, b);
	} else if (s->have_tcpinfo) {
		char u[32];

		ps_fmt_usec(u, sizeof(u), s->rtt_us);
		snprintf(buf, len, _("%s, RTT %s"), r, u);
	} else if (s->udp && s->udp_sent > 0) {
		snprintf(buf, len,
			 _("%s, %lld of %lld datagrams lost (%.1f%%)"), r,
			 (long long)s->udp_lost, (long long)s->udp_sent,
			 100.0 * (double)s->udp_lost / (double)s->udp_sent);
	} else {
		snprintf(buf, len, "%s", r);
	}
	if (s->nruns > 1 && s->bps > 0)
		ps_appendf(buf, len, _(", median of %d runs ±%.0f%%"), s->nruns,
			   100 * ps_step_spread(s) / s->bps);
}

/* after a skip: a second one within this time stops the whole run */
#define ABORT_WINDOW 1.5

static bool aborted(const struct ps_checklist_cfg *cfg)
{
	return cfg->abort && atomic_load(cfg->abort);
}

/* a test was skipped (the key): clear the request; true when it is the
 * second within ABORT_WINDOW of the one before */
static bool skipped_again(const struct ps_checklist_cfg *cfg, double *last_skip)
{
	double t = ps_now();
	bool again = t - *last_skip < ABORT_WINDOW;

	atomic_store(cfg->skip, false);
	*last_skip = t;
	return again;
}

void ps_checklist_run_init(const struct ps_checklist_cfg *cfg,
			   struct ps_run *res)
{
	cpu_set_t set;

	res->loopback = cfg->loopback;
	res->asked_bps = (double)cfg->opts->rate;
	/* pinned with taskset? the CPU checks want to know */
	CPU_ZERO(&set);
	if (!sched_getaffinity(0, sizeof(set), &set)) {
		res->affinity_ncpus = CPU_COUNT(&set);
		res->affinity_first = -1;
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set)) {
				res->affinity_first = c;
				break;
			}
	}
}

int ps_checklist_run(const struct ps_checklist_cfg *cfg, struct ps_run *res)
{
	const struct ps_checklist_ui *ui = &cfg->ui;
	struct ps_step_result *s, *best = NULL;
	double last_skip = -10;
	bool abort_run = false, any = false;
	int total = PS_CL_NSTEPS, n, rc;
	char line[200];

#define BEGIN(step, title)                                                     \
	do {                                                                   \
		if (ui->begin)                                                 \
			ui->begin(ui->arg, (step) + 1, total, title,           \
				  ps_checklist_reason(step));                  \
	} while (0)
#define END(st)                                                                \
	do {                                                                   \
		summary_of(st, line, sizeof(line));                            \
		if (ui->end)                                                   \
			ui->end(ui->arg, st, line);                            \
	} while (0)

	ps_checklist_run_init(cfg, res);

	/* check -u: one UDP test (-R: the far end sends), where the loss
	 * and the drop counters are the evidence; no sweep */
	if (cfg->udp) {
		if (ui->begin)
			ui->begin(
				ui->arg, PS_CL_SINGLE + 1, total, _("UDP"),
				_("one UDP test at the -b rate: the loss, and "
				  "which layer dropped it"));
		s = next_step(res, "udp");
		rc = ps_checklist_test(
			cfg, res, s,
			cfg->opts->parallel > 0 ? cfg->opts->parallel : 1,
			cfg->opts->reverse, false);
		END(s);
		return s->state == PS_STEP_DONE ? 0 : -EIO;
	}

	/* one stream */
	BEGIN(PS_CL_SINGLE, ps_checklist_title(PS_CL_SINGLE));
	s = next_step(res, "single");
	rc = step_test(cfg, res, s, 1, false, false);
	END(s);
	if (rc == -EINTR)
		skipped_again(cfg, &last_skip);
	if (s->state == PS_STEP_DONE) {
		any = true;
		best = s;
	}
	if (aborted(cfg))
		return any ? 0 : -EIO;

	/* the first test could not run: the others would fail the same way */
	if (s->state == PS_STEP_FAILED) {
		char why[200];

		snprintf(why, sizeof(why), _("the first test failed: %s"),
			 s->note);
		for (int k = 0; k < 3; k++) {
			struct ps_step_result *x =
				next_step(res, k == 0	? "sweep"
					       : k == 1 ? "reverse"
							: "bidir");

			if (!x)
				break;
			x->streams = k ? 1 : 2;
			x->reverse = k == 1;
			x->bidir = k == 2;
			x->state = PS_STEP_SKIPPED;
			snprintf(x->note, sizeof(x->note), "%s", why);
		}
		return -EIO;
	}

	/* the sweep */
	BEGIN(PS_CL_SWEEP, ps_checklist_title(PS_CL_SWEEP));
	for (n = 2; n <= cfg->max_streams && !abort_run; n *= 2) {
		struct ps_step_result *prev = &res->steps[res->nsteps - 1];
		char title[64];

		if (best && best->bps < NOTHING_BPS) {
			s = next_step(res, "sweep");
			if (!s)
				break;
			s->streams = n;
			s->state = PS_STEP_SKIPPED;
			snprintf(s->note, sizeof(s->note), "%s",
				 _("one stream moved almost nothing: more "
				   "streams cannot tell more"));
			END(s);
			break;
		}
		snprintf(title, sizeof(title), _("%d streams"), n);
		if (ui->begin)
			ui->begin(ui->arg, PS_CL_SWEEP + 1, total, title,
				  _("does the sum grow?"));
		s = next_step(res, "sweep");
		if (!s)
			break;
		rc = step_test(cfg, res, s, n, false, false);
		END(s);
		if (rc == -EINTR) {
			abort_run |= skipped_again(cfg, &last_skip);
			abort_run |= aborted(cfg);
			break;
		}
		if (s->state != PS_STEP_DONE)
			break;
		any = true;
		if (!best || s->bps > best->bps)
			best = s;
		/* the sum stopped growing (< 5%, or no more than the runs
		 * of the two steps spread) */
		if (prev->state == PS_STEP_DONE &&
		    (s->bps < prev->bps * rules[R_SWEEP_GROWTH].value ||
		     (s->bps > prev->bps && !ps_step_differs(s, prev))))
			break;
	}

	/* reverse, then both directions, with the best stream count */
	for (int k = 0; k < 2 && !abort_run && !aborted(cfg); k++) {
		bool bidir = k == 1;
		enum ps_cl_step st = bidir ? PS_CL_BIDIR : PS_CL_REVERSE;
		int streams = best ? best->streams : 1;

		if (bidir ? !cfg->bidir : !cfg->reverse)
			continue;
		BEGIN(st, ps_checklist_title(st));
		s = next_step(res, bidir ? "bidir" : "reverse");
		if (!s)
			break;
		if (best && best->bps < NOTHING_BPS) {
			s->streams = streams;
			s->reverse = !bidir;
			s->bidir = bidir;
			s->state = PS_STEP_SKIPPED;
			snprintf(s->note, sizeof(s->note), "%s",
				 _("the forward test moved almost nothing"));
			END(s);
			continue;
		}
		rc = step_test(cfg, res, s, streams, !bidir, bidir);
		END(s);
		if (rc == -EINTR)
			abort_run |= skipped_again(cfg, &last_skip);
		if (s->state == PS_STEP_DONE)
			any = true;
	}
#undef BEGIN
#undef END
	return any ? 0 : -EIO;
}

/* ---- the whole run ----------------------------------------------------- */

static void step_begin(const struct ps_checklist_cfg *cfg, enum ps_cl_step st)
{
	if (cfg->ui.begin)
		cfg->ui.begin(cfg->ui.arg, st + 1, PS_CL_NSTEPS,
			      ps_checklist_title(st), ps_checklist_reason(st));
}

void ps_guided_init(struct ps_guided *g, const char *peer)
{
	memset(g, 0, sizeof(*g));
	g->res = xcalloc(1, sizeof(*g->res));
	g->diag = xcalloc(1, sizeof(*g->diag));
	snprintf(g->res->peer, sizeof(g->res->peer), "%s", peer);
}

void ps_guided_run(const struct ps_checklist_cfg *cfg,
		   const struct ps_iface_choice *iface, struct ps_guided *g)
{
	char line[200];

	g->res->start_ns = ps_clock_ns(CLOCK_REALTIME);
	step_begin(cfg, PS_CL_INVENTORY);
	ps_host_sample(&g->host, iface, 1.0);
	ps_check_inventory_line(&g->host, iface, line, sizeof(line));
	if (cfg->ui.end)
		cfg->ui.end(cfg->ui.arg, NULL, line);

	g->rc = aborted(cfg) ? -EIO : ps_checklist_run(cfg, g->res);

	step_begin(cfg, PS_CL_EVALUATE);
	ps_host_evidence(&g->host, g->res, &g->ev);
	ps_diagnose(&g->ev, g->diag);
}

void ps_guided_free(struct ps_guided *g)
{
	if (g->res) {
		ps_run_free(g->res);
		free(g->res);
	}
	free(g->diag);
	ps_host_free(&g->host);
	memset(g, 0, sizeof(*g));
}
