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

#include "checklist.h"
#include "clock.h"
#include "engine.h"
#include "log.h"
#include "nls.h"
#include "probe.h"
#include "step-qdisc.h"
#include "step.h"
#include "sysroot.h"
#include "xmalloc.h"

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

/* what one test gathers through the reporter */
struct collect {
	struct ps_step_result *s;
	struct ps_run *res;
	struct ps_cpu_info a;
	bool have_a;
	double ta;
	const char *ifname; /* the NIC whose interrupts are read */
	const struct ps_checklist_ui *ui; /* its interval pass-through */
	struct ps_irq_info ia;
	bool have_ia;
	char error[200];
	struct ps_step_acc acc;	  /* TCP_INFO and CPUs, the intervals */
	struct ps_step_peer peer; /* the far end's cores */
	/* the qdiscs of this end's interface and of the far end's */
	struct ps_qdisc_probe *qp;
	struct ps_step_qdisc_acc qacc, qpeer;
	struct ps_netstat_info na; /* this namespace's counters at the start */
	struct ps_ethtool_info ea; /* the NIC's counters at the start */
	bool have_ea;
};

/* one sample of this end's qdiscs into the step */
static void qdisc_take(struct collect *c)
{
	struct ps_qdisc_info *q;

	if (!c->ifname || !c->ifname[0])
		return;
	if (!c->qp)
		c->qp = ps_qdisc_open();
	q = xmalloc(sizeof(*q));
	if (!ps_qdisc_sample_with(c->qp, c->ifname, q))
		ps_step_qdisc_add(&c->qacc, q, ps_now());
	ps_qdisc_free(q);
	free(q);
}

static void qdisc_peer(struct collect *c, const struct ps_snapshot *snap)
{
	if (snap)
		ps_step_qdisc_add(&c->qpeer, &snap->qdisc,
				  (double)snap->hdr.time_ns / 1e9);
}

/* the NIC's own counters (driver stats, pause) around the step */
static void nic_start(struct collect *c)
{
	if (c->have_ea)
		ps_ethtool_free(&c->ea);
	c->have_ea = c->ifname && c->ifname[0] &&
		     !ps_ethtool_sample_counters(c->ifname, &c->ea) &&
		     c->ea.nic.valid;
	if (!c->have_ea)
		ps_ethtool_free(&c->ea);
}

static void nic_end(struct collect *c, double dt)
{
	struct ps_ethtool_info b;

	if (!c->have_ea)
		return;
	if (!ps_ethtool_sample_counters(c->ifname, &b)) {
		ps_ethtool_rates(&c->ea, &b, dt);
		ps_step_set_nic(c->s, &b);
	}
	ps_ethtool_free(&b);
}

static void take_a(struct collect *c)
{
	if (c->have_a)
		ps_cpu_free(&c->a);
	memset(&c->a, 0, sizeof(c->a));
	c->have_a = !ps_cpu_sample(NULL, &c->a);
	if (c->have_ia)
		ps_irq_free(&c->ia);
	memset(&c->ia, 0, sizeof(c->ia));
	c->have_ia = false;
	if (c->ifname && c->ifname[0]) {
		/* a failed sample still owns memory */
		c->have_ia = !ps_irq_sample(c->ifname, &c->ia) &&
			     c->ia.status == PS_ST_OK;
		if (!c->have_ia)
			ps_irq_free(&c->ia);
	}
	ps_step_qdisc_reset(&c->qacc);
	qdisc_take(c);
	ps_netstat_sample(NULL, &c->na);
	nic_start(c);
	c->ta = ps_now();
}

/* the NIC's interrupts and the backlog over the step */
static void irq_end(struct collect *c, double dt)
{
	struct ps_step_result *s = c->s;
	struct ps_irq_info b;

	if (!c->have_ia)
		return;
	memset(&b, 0, sizeof(b));
	if (!ps_irq_sample(c->ifname, &b) && b.status == PS_ST_OK) {
		ps_irq_rates(&c->ia, &b, dt);
		ps_step_set_irq(s, &b);
	}
	ps_irq_free(&b);
}

static void col_start(void *arg, const struct ps_test_info *info)
{
	struct collect *c = arg;

	if (info->peer_kind)
		snprintf(c->res->peer_kind, sizeof(c->res->peer_kind), "%s",
			 info->peer_kind);
	if (info->peer_version[0])
		snprintf(c->res->peer_version, sizeof(c->res->peer_version),
			 "%s", info->peer_version);
	take_a(c);
}

static void col_interval(void *arg, const struct ps_interval *iv)
{
	struct collect *c = arg;

	if (c->ui && c->ui->interval)
		c->ui->interval(c->ui->arg, iv);
	if (iv->omitted) {
		take_a(c);
		/* the far end's counters from here on: its newest snapshot
		 * is the base (without an omit period, the first one the
		 * server took when the test began) */
		ps_step_qdisc_reset(&c->qpeer);
		qdisc_peer(c, iv->peer_snap);
		/* the far end's counters start after the omitted time too */
		ps_step_peer_netstat(&c->peer, iv->peer_snap, true);
		return;
	}
	ps_step_acc_add(&c->acc, iv);
	ps_step_add_rate(c->s, iv);
	/* without an omit period, the far end's counters count from the
	 * snapshot its server took before the streams started */
	if (!c->peer.have_ns0)
		ps_step_peer_netstat(&c->peer, iv->peer_snap0, true);
	ps_step_peer_add(&c->peer, iv->peer_snap);
	qdisc_take(c);
	qdisc_peer(c, iv->peer_snap);
}

/* a UDP test: what the senders numbered and what the receivers counted
 * lost (a forward test's receiver is the far end: its results) */
static void udp_end(struct ps_step_result *s, const struct ps_test_info *info,
		    const struct ps_summary *sum)
{
	if (info->proto != PS_PROTO_UDP)
		return;
	s->udp = true;
	for (int i = 0; i < sum->nstreams; i++) {
		const struct ps_stream_iv *v = &sum->local[i];

		if (v->sender) {
			s->udp_sent += (int64_t)v->packets;
			if (sum->remote_valid && sum->remote_errors[i] > 0)
				s->udp_lost += sum->remote_errors[i];
		} else {
			int64_t lost = v->lost > 0 ? v->lost : 0;

			s->udp_lost += lost;
			/* the sender's count, else what came and what not */
			s->udp_sent +=
				sum->remote_valid && sum->remote_packets[i] > 0
					? sum->remote_packets[i]
					: (int64_t)v->packets + lost;
		}
	}
}

static void col_end(void *arg, const struct ps_test_info *info,
		    const struct ps_summary *sum)
{
	struct collect *c = arg;
	struct ps_step_result *s = c->s;
	double fwd = 0, back = 0, d = sum->duration > 0 ? sum->duration : 1;
	struct ps_cpu_info b = { 0 };

	/* an iperf3 peer is dated by its results ("<=3.13") */
	if (info->peer_version[0])
		snprintf(c->res->peer_version, sizeof(c->res->peer_version),
			 "%s", info->peer_version);
	s->stream_min_bps = INFINITY;
	s->stream_max_bps = 0;
	for (int i = 0; i < sum->nstreams; i++) {
		const struct ps_stream_iv *v = &sum->local[i];
		uint64_t sent = 0, recv = 0;
		double r;

		ps_summary_stream_bytes(sum, i, &sent, &recv);
		if (v->sender) {
			/* what the receiver counted; ours when it did not say
			 */
			r = (sum->remote_valid ? (double)recv : (double)sent) *
			    8 / d;
			fwd += r;
			s->bytes += sent;
		} else {
			r = (double)recv * 8 / d;
			back += r;
			s->bytes += recv;
		}
		if (r < s->stream_min_bps)
			s->stream_min_bps = r;
		if (r > s->stream_max_bps)
			s->stream_max_bps = r;
	}
	if (!isfinite(s->stream_min_bps))
		s->stream_min_bps = 0;
	if (s->bidir) {
		s->bps = fwd;
		s->bps_back = back;
	} else {
		s->bps = s->reverse ? back : fwd;
	}
	s->seconds = sum->duration;
	s->cpu_local = sum->cpu_local_total;
	s->cpu_remote = sum->cpu_remote_total;
	snprintf(c->res->cc_local, sizeof(c->res->cc_local), "%s",
		 sum->congestion_local);
	snprintf(c->res->cc_remote, sizeof(c->res->cc_remote), "%s",
		 sum->congestion_remote);
	ps_step_acc_finish(&c->acc, s);
	irq_end(c, ps_now() - c->ta);
	udp_end(s, info, sum);
	{
		struct ps_netstat_info nb;

		ps_netstat_sample(NULL, &nb);
		ps_step_set_netstat(s, &c->na, &nb);
	}
	/* the summary may bring a reading newer than the last interval's */
	ps_step_peer_netstat(&c->peer, sum->peer_snap, false);
	nic_end(c, ps_now() - c->ta);
	ps_step_peer_finish(&c->peer, s);
	qdisc_take(c);
	qdisc_peer(c, sum->peer_snap);
	ps_step_qdisc_finish(&c->qacc, &s->qdisc);
	ps_step_qdisc_finish(&c->qpeer, &s->peer_qdisc);
	/* keep the far end's newest readings for its host and NIC checks */
	if (sum->peer_snap && sum->peer_snap != c->res->peer_snap) {
		ps_snapshot_put(c->res->peer_snap);
		c->res->peer_snap =
			ps_snapshot_get((struct ps_snapshot *)sum->peer_snap);
	}
	if (c->have_a && !ps_cpu_sample(NULL, &b)) {
		ps_cpu_rates(&c->a, &b, ps_now() - c->ta);
		s->cpu = b;
		s->have_cpu = true;
	}
}

static void col_error(void *arg, const char *msg)
{
	struct collect *c = arg;

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

int ps_checklist_test(const struct ps_checklist_cfg *cfg, struct ps_run *res,
		      struct ps_step_result *out, int streams, bool reverse,
		      bool bidir)
{
	struct ps_opts co = *cfg->client;
	struct collect c = {
		.s = out, .res = res, .ifname = cfg->iface, .ui = &cfg->ui
	};
	struct ps_reporter rep = {
		.start = col_start,
		.interval = col_interval,
		.end = col_end,
		.error = col_error,
		.message = col_message,
		.destroy = col_destroy,
		.arg = &c,
	};
	atomic_bool own_stop = false;
	int rc;

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
		if (c.have_a) {
			ps_cpu_free(&c.a);
			c.have_a = false;
		}
		if (c.have_ia) {
			ps_irq_free(&c.ia);
			c.have_ia = false;
		}
		if (c.have_ea) {
			ps_ethtool_free(&c.ea);
			c.have_ea = false;
		}
		ps_step_peer_free(&c.peer);
		ps_qdisc_close(c.qp);
		c.qp = NULL;
		ps_step_qdisc_reset(&c.qpeer);
		/*
		 * A server that was still closing the previous test refuses
		 * at once ("busy"): a quick failure is tried again, a slow
		 * one (a timeout) is not.
		 */
		if (!rc || attempt >= 3 || ps_now() - t0 > 1.5 ||
		    (cfg->skip && atomic_load(cfg->skip)))
			break;
		if (out->have_cpu)
			ps_cpu_free(&out->cpu);
		ps_step_acc_reset(&c.acc);
		{
			struct ps_step_result keep = *out;

			memset(out, 0, sizeof(*out));
			memcpy(out->id, keep.id, sizeof(out->id));
			out->streams = streams;
			out->reverse = reverse;
			out->bidir = bidir;
		}
		c.error[0] = 0;
		ps_sleep(0.5);
	}
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
		if (out->have_cpu) {
			ps_cpu_free(&out->cpu);
			out->have_cpu = false;
		}
		return -EINTR;
	}
	if (rc) {
		out->state = PS_STEP_FAILED;
		snprintf(out->note, sizeof(out->note), "%s",
			 c.error[0] ? c.error : _("the test failed"));
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
			if (!ok)
				*out = *x;
			else if (x->have_cpu)
				ps_cpu_free(&x->cpu);
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
		if (x->bps < 1e6 || aborted(cfg))
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
		snprintf(buf, len, _("%s, RTT %.2f ms"), r, s->rtt_us / 1e3);
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

	res->loopback = cfg->loopback;
	res->asked_bps = (double)cfg->opts->rate;
	{
		cpu_set_t set;

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

		if (best && best->bps < 1e6) {
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
		    (s->bps < prev->bps * 1.05 ||
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
		if (best && best->bps < 1e6) {
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
