/* test-session.c: one test, two paths, one step. The same recorded test
 * (the engine's events, this end's readings of its real /proc with counters
 * that grow, a pipescope server's snapshots) is fed to the guided run's
 * collector (checklist.c, as "pipescope check" runs a step) and to the
 * workstation's model (ui-model.c, as the screen's live findings and view
 * 4's drops read it); both steps must agree in every number, while the test
 * runs and after it ended, and the numbers must be the recorded ones */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "checklist.h"
#include "clock.h"
#include "probe.h"
#include "session.h"
#include "ui-model.h"

#define NREAD 6 /* this end: start, after 4 intervals, after the end */
#define NIV 4
#define SENT_PER_IV 7500000.0
#define RECV_SHARE 0.95	 /* the receiver counted 95% of what was sent */
#define BUSY_PID 4194303 /* pid_max's last: above every real one */

struct rec {
	bool udp, omit;
	struct ps_snapshot *local[NREAD];
	struct ps_snapshot *peer0, *peer[NIV + 1];
	int next; /* the guided run's next reading */
	struct ps_test_info info;
	struct ps_stream_iv st[NIV][2], rm[NIV][1];
	struct ps_interval iv[NIV];
	struct ps_stream_iv sum_local[1];
	uint64_t remote_bytes[1];
	int64_t remote_errors[1], remote_packets[1], remote_retrans[1];
	double remote_jitter[1];
	struct ps_summary sum;
};

/* a tbf root with counters at reading k */
static void tbf_at(struct ps_qdisc_info *q, int k)
{
	memset(q, 0, sizeof(*q));
	q->status = PS_ST_OK;
	snprintf(q->ifname, sizeof(q->ifname), "lo");
	q->n = 1;
	snprintf(q->q[0].kind, sizeof(q->q[0].kind), "tbf");
	snprintf(q->q[0].handle, sizeof(q->q[0].handle), "8001:");
	snprintf(q->q[0].parent, sizeof(q->q[0].parent), "root");
	q->q[0].hid = 0x80010000;
	q->q[0].pid = PS_QDISC_ROOT;
	q->q[0].rate_bps = 500000000;
	q->q[0].ceil_bps = q->q[0].default_class = PS_NA;
	q->q[0].limit_packets = PS_NA;
	q->q[0].burst_bytes = 65536;
	q->q[0].limit_bytes = 61440;
	q->q[0].bytes = 1000000 + 62500000ull * (uint64_t)k;
	q->q[0].drops = 40 + 1000ull * (uint64_t)k;
	q->q[0].backlog_bytes = (uint64_t)(k % 3) * 20000;
}

/* this end's reading k: a real sample of this host's probes (its cores,
 * interrupts, kernel counters), with counters that grow as a test's would
 * on a NIC (a tbf, the driver's queues, socket-buffer drops) */
static void local_at(struct ps_snapshot *s, int k, int64_t t_ns)
{
	struct ps_nic_counters *n = &s->ethtool.nic;

	s->hdr.mono_ns = t_ns;
	s->hdr.time_ns = t_ns;
	if (s->netstat.status != PS_ST_OK) {
		memset(&s->netstat.c, 0, sizeof(s->netstat.c));
		s->netstat.status = PS_ST_OK;
	}
	s->netstat.c.udp_rcvbuf_errors += 100 * k;
	s->netstat.c.tcp_backlog_drop += 7 * k;
	ps_qdisc_free(&s->qdisc);
	tbf_at(&s->qdisc, k);
	memset(n, 0, sizeof(*n));
	n->valid = true;
	n->nq[PS_NIC_RX] = n->nq[PS_NIC_TX] = 2;
	for (int q = 0; q < 2; q++) {
		n->packets[PS_NIC_RX][q] = 1000 + 500 * k * (q + 1);
		n->packets[PS_NIC_TX][q] = 2000 + 5000 * k * (q + 1);
	}
	for (int d = 0; d < PS_NIC_NDIR; d++)
		for (int c = 0; c < PS_NIC_NDROP; c++)
			n->drops[d][c] = PS_NA;
	n->drops[PS_NIC_RX][PS_NIC_MISSED] = 3 * k;
	n->pause[PS_NIC_RX] = n->pause[PS_NIC_TX] = PS_NA;
	/* a busy loop beside the test: a core's worth of ticks a second,
	 * the highest pid so the list stays sorted */
	if (s->procs.status == PS_ST_OK) {
		struct ps_proc *p;

		s->procs.all = realloc(
			s->procs.all, (size_t)(s->procs.nall + 1) * sizeof(*p));
		p = &s->procs.all[s->procs.nall++];
		memset(p, 0, sizeof(*p));
		p->pid = BUSY_PID;
		p->start = 77;
		p->ticks = 1000 + (uint64_t)s->procs.hz * (uint64_t)k;
		snprintf(p->comm, sizeof(p->comm), "spinner");
	}
}

/* a pipescope server's snapshot k (k < 0: its first, before the streams) */
static struct ps_snapshot *peer_at(int k, int64_t t_ns)
{
	struct ps_snapshot *s = ps_snapshot_new();
	int j = k + 1;

	s->hdr.time_ns = t_ns;
	s->hdr.mono_ns = t_ns;
	s->netstat.status = PS_ST_OK;
	s->netstat.c.udp_rcvbuf_errors = 5000 + 64 * j * j;
	s->netstat.c.tcp_in_segs = 100000 + 80000 * j;
	s->cpu.status = PS_ST_OK;
	s->cpu.ncores = 2;
	s->cpu.cores = calloc(2, sizeof(*s->cpu.cores));
	for (int c = 0; c < 2; c++) {
		struct ps_cpu_core *co = &s->cpu.cores[c];

		co->id = c;
		co->pct_valid = j > 0;
		co->pct[PS_CPU_SOFTIRQ] = c ? 10 : 40 + j;
		co->pct[PS_CPU_SYSTEM] = c ? 5 : 30;
		co->busy_pct = co->pct[PS_CPU_SOFTIRQ] + co->pct[PS_CPU_SYSTEM];
	}
	tbf_at(&s->qdisc, j * 2);
	return s;
}

/* interval k as the engine reports it: one forward stream and, from a
 * pipescope server, its receiver's row */
static void interval_at(struct rec *r, int k, double t0)
{
	struct ps_interval *iv = &r->iv[k];
	struct ps_stream_iv *v = &r->st[k][0], *far = &r->rm[k][0];

	memset(iv, 0, sizeof(*iv));
	iv->start = t0 + k;
	iv->end = t0 + k + 1;
	iv->omitted = r->omit && k == 0;
	iv->nstreams = 1;
	iv->streams = v;
	iv->nremote = 1;
	iv->remote = far;
	memset(v, 0, sizeof(*v));
	v->id = 5;
	v->sender = true;
	v->bytes = (uint64_t)(SENT_PER_IV * (1 + 0.1 * k));
	v->bps = (double)v->bytes * 8;
	v->cpu = k % 2;
	v->rx_cpu = 1;
	if (r->udp) {
		v->packets = v->bytes / 1460;
	} else {
		v->has_tcpinfo = true;
		v->rtt_us = 10000 + 500 * k;
		v->min_rtt_us = 9000;
		v->cwnd = 200000;
		v->snd_wnd = 262144;
		v->rwnd_limited_us = 250000;
		v->retrans = 3 + k;
		v->mss = 1448;
		v->pmtu = 1500;
	}
	memset(far, 0, sizeof(*far));
	far->id = 5;
	far->bytes = (uint64_t)((double)v->bytes * RECV_SHARE);
	far->bps = (double)far->bytes * 8;
	if (r->udp) {
		far->udp_totals = true;
		far->lost = 11 * (k + 1);
		far->packets = (uint64_t)(v->packets * (k + 1));
	}
	iv->sum[0] = *v;
	iv->have_sum[0] = true;
	iv->peer_snap0 = r->peer0;
	iv->peer_snap = r->peer[k];
}

static void record(struct rec *r, bool udp, bool omit)
{
	struct ps_probe_env env;
	struct ps_probe_set *set;
	int64_t t0 = ps_mono_ns() + 3600LL * 1000000000LL;
	double sent = 0;

	memset(r, 0, sizeof(*r));
	r->udp = udp;
	r->omit = omit;
	ps_iface_choose("lo", NULL, &env.iface);
	set = ps_probes_open(&env);
	assert_non_null(set);
	for (int k = 0; k < NREAD; k++) {
		r->local[k] = ps_snapshot_new();
		ps_probes_sample(set, r->local[k], k ? r->local[k - 1] : NULL);
		/* a few ticks of real CPU time between the readings */
		for (volatile long i = 0; i < 3000000; i++)
			;
		usleep(20000);
	}
	ps_probes_close(set);
	/* the readings' times: after the sessions begin, a second apart */
	for (int k = 0; k < NREAD; k++)
		local_at(r->local[k], k, t0 + (int64_t)k * 1000000000LL);
	r->peer0 = peer_at(-1, t0 - 500000000LL);
	for (int k = 0; k <= NIV; k++)
		r->peer[k] = peer_at(k, t0 + (int64_t)k * 1000000000LL + 7);
	for (int k = 0; k < NIV; k++) {
		interval_at(r, k, 0);
		if (!r->iv[k].omitted)
			sent += (double)r->st[k][0].bytes;
	}
	r->info.proto = udp ? PS_PROTO_UDP : PS_PROTO_TCP;
	r->info.parallel = r->info.nstreams = 1;
	r->info.duration = NIV - (omit ? 1 : 0);
	r->info.omit = omit ? 1 : 0;
	r->info.rate = udp ? 1000000000ull : 0;
	r->info.peer_kind = "pipescope";
	r->sum.duration = r->info.duration;
	r->sum.nstreams = 1;
	r->sum.local = r->sum_local;
	r->sum_local[0] = r->st[NIV - 1][0];
	r->sum_local[0].bytes = (uint64_t)sent;
	r->sum_local[0].packets = (uint64_t)sent / 1460;
	r->remote_bytes[0] = (uint64_t)(sent * RECV_SHARE);
	r->remote_errors[0] = 17;
	r->remote_packets[0] = (int64_t)r->sum_local[0].packets;
	r->remote_retrans[0] = -1;
	r->sum.remote_bytes = r->remote_bytes;
	r->sum.remote_errors = r->remote_errors;
	r->sum.remote_packets = r->remote_packets;
	r->sum.remote_retrans = r->remote_retrans;
	r->sum.remote_jitter_ms = r->remote_jitter;
	r->sum.remote_valid = true;
	r->sum.cpu_local_total = 55;
	r->sum.cpu_remote_total = 40;
	r->sum.peer_snap = r->peer[NIV];
	snprintf(r->sum.congestion_local, sizeof(r->sum.congestion_local),
		 "bbr");
}

static void forget(struct rec *r)
{
	for (int k = 0; k < NREAD; k++)
		ps_snapshot_put(r->local[k]);
	ps_snapshot_put(r->peer0);
	for (int k = 0; k <= NIV; k++)
		ps_snapshot_put(r->peer[k]);
}

/* the guided run's readings: the recorded ones, in order */
static struct ps_snapshot *next_reading(void *arg)
{
	struct rec *r = arg;

	if (r->next >= NREAD)
		return NULL;
	return ps_snapshot_get(r->local[r->next++]);
}

static bool near(double x, double y)
{
	return (isnan(x) && isnan(y)) || fabs(x - y) <= 1e-9 * fmax(1, fabs(x));
}

#define NEAR(x, y) assert_true(near((double)(x), (double)(y)))
#define SAME_D(f) NEAR(a->f, b->f)
#define SAME_I(f) assert_int_equal(a->f, b->f)

static void same_qdisc(const struct ps_step_qdisc *a,
		       const struct ps_step_qdisc *b)
{
	SAME_I(have);
	assert_string_equal(a->kind, b->kind);
	assert_string_equal(a->shaper, b->shaper);
	SAME_D(rate_bps);
	SAME_D(seconds);
	SAME_I(drops);
	SAME_D(sent_bps);
	SAME_D(drop_rate);
	SAME_D(backlog_peak);
	SAME_D(backlog_mean);
	SAME_I(samples);
}

/* every number the checks read, the same on both paths */
static void same_step(const struct ps_step_result *a,
		      const struct ps_step_result *b)
{
	SAME_I(state);
	SAME_I(streams);
	SAME_I(reverse);
	SAME_I(bidir);
	SAME_D(seconds);
	SAME_D(bps);
	SAME_D(bps_back);
	SAME_D(stream_min_bps);
	SAME_D(stream_max_bps);
	SAME_I(bytes);
	SAME_I(have_tcpinfo);
	SAME_D(rtt_us);
	SAME_D(min_rtt_us);
	SAME_D(cwnd_bytes);
	SAME_D(snd_wnd_bytes);
	SAME_D(wnd_rate_bps);
	SAME_I(retrans);
	SAME_D(rwnd_limited);
	SAME_D(sndbuf_limited);
	SAME_I(mss);
	SAME_D(cpu_remote);
	SAME_I(have_cpu);
	if (a->have_cpu) {
		SAME_I(cpu.ncores);
		for (int i = 0; i < a->cpu.ncores; i++) {
			NEAR(a->cpu.cores[i].busy_pct,
			     b->cpu.cores[i].busy_pct);
			for (int f = 0; f < PS_CPU_NFIELDS; f++)
				NEAR(a->cpu.cores[i].pct[f],
				     b->cpu.cores[i].pct[f]);
		}
	}
	SAME_I(have_irq);
	SAME_D(irq_rate);
	SAME_D(softnet_drop_rate);
	SAME_D(squeeze_rate);
	SAME_I(nthread_cpu);
	SAME_I(nrx_cpu);
	for (int i = 0; i < a->nthread_cpu; i++)
		SAME_I(thread_cpu[i]);
	SAME_I(have_peer_cpu);
	SAME_I(peer_core);
	SAME_D(peer_busy);
	SAME_D(peer_softirq);
	SAME_D(peer_others);
	SAME_I(nrate);
	for (int i = 0; i < a->nrate; i++)
		SAME_D(rate_bps[i]);
	same_qdisc(&a->qdisc, &b->qdisc);
	same_qdisc(&a->peer_qdisc, &b->peer_qdisc);
	SAME_I(have_netstat);
	SAME_I(have_peer_netstat);
	assert_memory_equal(&a->netstat, &b->netstat, sizeof(a->netstat));
	assert_memory_equal(&a->peer_netstat, &b->peer_netstat,
			    sizeof(a->peer_netstat));
	SAME_D(peer_netstat_s);
	SAME_I(udp);
	SAME_I(udp_sent);
	SAME_I(udp_lost);
	SAME_I(udp_packets);
	SAME_D(udp_target_bps);
	SAME_D(udp_sent_bps);
	SAME_I(have_nicstats);
	SAME_I(nic_nrxq);
	for (int q = 0; q < 2; q++) {
		SAME_D(nic_rxq_pps[q]);
		SAME_D(nic_txq_pps[q]);
	}
	SAME_D(nic_drops[PS_NIC_RX][PS_NIC_MISSED]);
	SAME_I(have_busy);
	SAME_I(nbusy);
	for (int i = 0; i < a->nbusy; i++) {
		SAME_I(busy[i].pid);
		SAME_D(busy[i].pct);
		assert_string_equal(a->busy[i].comm, b->busy[i].comm);
	}
}

/* both paths through one recorded test; checks the step at each point */
static void
both_paths(struct rec *r,
	   void (*mid)(const struct rec *, const struct ps_step_result *),
	   void (*end)(const struct rec *, const struct ps_step_result *))
{
	struct ps_checklist_cfg cfg;
	struct ps_run *res = calloc(1, sizeof(*res));
	struct ps_step_result *a = calloc(1, sizeof(*a));
	struct ps_step_result *b = calloc(1, sizeof(*b));
	struct ui_model *m = calloc(1, sizeof(*m));
	struct ps_cl_collect *c;
	struct ps_reporter ra, rb;

	memset(&cfg, 0, sizeof(cfg));
	cfg.read = next_reading;
	cfg.read_arg = r;
	c = ps_cl_collect_new(&cfg, res);
	ps_cl_collect_reporter(c, &ra);
	assert_int_equal(ui_model_init(m), 0);
	ui_model_reporter(m, &rb);

	ra.start(ra.arg, &r->info);
	rb.start(rb.arg, &r->info);
	ui_model_local(m, r->local[0]);
	for (int k = 0; k < NIV; k++) {
		ra.interval(ra.arg, &r->iv[k]);
		rb.interval(rb.arg, &r->iv[k]);
		ui_model_local(m, r->local[k + 1]);
		if (k != 2)
			continue;
		/* while it runs */
		assert_false(ps_cl_collect_step(c, a));
		assert_true(ui_model_step(m, b));
		same_step(a, b);
		mid(r, a);
		ps_step_result_free(b);
	}
	ra.end(ra.arg, &r->info, &r->sum);
	rb.end(rb.arg, &r->info, &r->sum);
	ui_model_local(m, r->local[NREAD - 1]);
	/* a reading after the closing one changes nothing */
	ui_model_local(m, r->local[0]);
	assert_int_equal(r->next, NREAD);
	assert_true(ps_cl_collect_step(c, a));
	assert_true(ui_model_step(m, b));
	same_step(a, b);
	end(r, a);
	/* the far end's newest snapshot is kept for its host checks */
	assert_ptr_equal(res->peer_snap, r->peer[NIV]);

	ps_step_result_free(a);
	ps_step_result_free(b);
	ps_cl_collect_free(c);
	ui_model_destroy(m);
	ps_run_free(res);
	free(res);
	free(a);
	free(b);
	free(m);
}

/* ---- what the numbers must be ------------------------------------------ */

static void tcp_mid(const struct rec *r, const struct ps_step_result *s)
{
	/* intervals 1 and 2 (0 was omitted): this end's count so far */
	double sent = (double)r->st[1][0].bytes + (double)r->st[2][0].bytes;

	NEAR(s->seconds, 2);
	NEAR(s->bps, sent * 8 / 2);
	NEAR(s->stream_max_bps, r->st[2][0].bps);
	assert_int_equal(s->retrans, 4 + 5);
	/* the counters from the reading after the omitted time (1) to the
	 * latest (3) */
	assert_true(s->have_netstat);
	assert_int_equal(s->netstat.udp_rcvbuf_errors, 200);
	assert_int_equal(s->netstat.tcp_backlog_drop, 14);
	assert_true(s->qdisc.have);
	assert_int_equal(s->qdisc.drops, 2000);
	assert_true(s->have_nicstats);
	NEAR(s->nic_txq_pps[1], 10000);
	NEAR(s->nic_drops[PS_NIC_RX][PS_NIC_MISSED], 3);
	/* the far end's from its snapshot at the omitted time's end */
	assert_true(s->have_peer_netstat);
	assert_int_equal(s->peer_netstat.tcp_in_segs, 80000 * 2);
	assert_true(s->have_peer_cpu);
	assert_int_equal(s->peer_core, 0);
	assert_true(s->have_cpu);
	assert_int_equal(s->cpu.ncores, r->local[3]->cpu.ncores);
}

static void tcp_end(const struct rec *r, const struct ps_step_result *s)
{
	/* the receiver's count over the summary's time */
	NEAR(s->bps, (double)r->remote_bytes[0] * 8 / r->sum.duration);
	NEAR(s->seconds, 3);
	NEAR(s->cpu_local, 55);
	NEAR(s->cpu_remote, 40);
	assert_int_equal(s->retrans, 4 + 5 + 6);
	/* from the reading after the omitted time (1) to the one after the
	 * end (5) */
	assert_int_equal(s->netstat.udp_rcvbuf_errors, 400);
	assert_int_equal(s->qdisc.drops, 4000);
	NEAR(s->qdisc.drop_rate, 1000);
	NEAR(s->qdisc.backlog_peak, 40000);
	/* the far end: its snapshot at the omit's end (peer[0], j = 1) to the
	 * summary's (peer[4], j = 5) */
	assert_int_equal(s->peer_netstat.tcp_in_segs, 80000 * 4);
	assert_int_equal(s->peer_netstat.udp_rcvbuf_errors, 64 * (25 - 1));
	assert_true(s->peer_qdisc.have);
	assert_int_equal(s->peer_qdisc.drops, 8000);
	assert_false(s->udp);
	assert_int_equal(s->nrate, 3);
	/* the busy loop beside it: a core's worth, first; never this test */
	assert_true(s->have_busy);
	assert_true(s->nbusy >= 1);
	assert_int_equal(s->busy[0].pid, BUSY_PID);
	assert_string_equal(s->busy[0].comm, "spinner");
	NEAR(s->busy[0].pct, 100);
	for (int i = 0; i < s->nbusy; i++)
		assert_int_not_equal(s->busy[i].pid, (int)getpid());
}

static void udp_mid(const struct rec *r, const struct ps_step_result *s)
{
	/* no omitted time: the far end counts from its first snapshot */
	assert_true(s->udp);
	assert_int_equal(s->udp_lost, 33);
	assert_int_equal(s->udp_packets, (int64_t)r->rm[2][0].packets);
	NEAR(s->udp_target_bps, 1e9);
	assert_true(s->udp_sent_bps > 0);
	assert_int_equal(s->peer_netstat.tcp_in_segs, 80000 * 3);
	assert_int_equal(s->netstat.udp_rcvbuf_errors, 300);
	assert_false(s->have_tcpinfo);
}

static void udp_end(const struct rec *r, const struct ps_step_result *s)
{
	double sent = (double)r->sum_local[0].bytes;

	assert_int_equal(s->udp_lost, 17);
	assert_int_equal(s->udp_sent, r->remote_packets[0]);
	assert_int_equal(s->udp_packets, r->remote_packets[0]);
	NEAR(s->udp_sent_bps, sent * 8 / r->sum.duration);
	NEAR(s->udp_target_bps, 1e9);
	assert_int_equal(s->netstat.udp_rcvbuf_errors, 500);
	assert_int_equal(s->peer_netstat.tcp_in_segs, 80000 * 5);
	assert_int_equal(s->nrate, 4);
}

static void test_tcp_omitted(void **state)
{
	struct rec *r = calloc(1, sizeof(*r));

	(void)state;
	record(r, false, true);
	both_paths(r, tcp_mid, tcp_end);
	forget(r);
	free(r);
}

static void test_udp(void **state)
{
	struct rec *r = calloc(1, sizeof(*r));

	(void)state;
	record(r, true, false);
	both_paths(r, udp_mid, udp_end);
	forget(r);
	free(r);
}

/* a reading taken before the test began is not its base; one before the
 * end does not close it */
static void test_reading_times(void **state)
{
	struct ps_session s;
	struct ps_test_info info = { .parallel = 1 };
	struct ps_snapshot *early = ps_snapshot_new(),
			   *late = ps_snapshot_new();
	struct ps_snapshot *before_end = ps_snapshot_new();
	struct ps_snapshot *after_end = ps_snapshot_new();
	struct ps_summary sum = { .duration = 1 };

	(void)state;
	early->hdr.mono_ns = ps_mono_ns() - 1000000;
	ps_session_init(&s);
	assert_false(ps_session_local(&s, early)); /* not begun */
	ps_session_begin(&s, &info);
	assert_false(ps_session_local(&s, early));
	assert_null(ps_session_base(&s));
	late->hdr.mono_ns = s.begin_ns;
	assert_true(ps_session_local(&s, late));
	assert_ptr_equal(ps_session_base(&s), late);
	ps_session_end(&s, &info, &sum);
	assert_true(ps_session_wants_local(&s));
	before_end->hdr.mono_ns = s.end_ns - 1;
	after_end->hdr.mono_ns = s.end_ns + 5;
	assert_false(ps_session_local(&s, before_end));
	assert_true(ps_session_wants_local(&s));
	assert_true(ps_session_local(&s, after_end));
	assert_false(ps_session_wants_local(&s));
	assert_false(ps_session_local(&s, after_end));
	ps_session_free(&s);
	/* a test that failed, no summary: frozen, its window stays what its
	 * readings made it (issue 25 item 5) */
	ps_session_init(&s);
	ps_session_begin(&s, &info);
	late->hdr.mono_ns = s.begin_ns;
	assert_true(ps_session_local(&s, late));
	ps_session_freeze(&s);
	assert_false(ps_session_wants_local(&s));
	after_end->hdr.mono_ns = s.begin_ns + 5000000000LL;
	assert_false(ps_session_local(&s, after_end));
	ps_session_free(&s);
	ps_snapshot_put(early);
	ps_snapshot_put(late);
	ps_snapshot_put(before_end);
	ps_snapshot_put(after_end);
}

/* the step's busiest processes reach host_busy: named, the ones below
 * the rule left out */
static void test_host_busy_names(void **state)
{
	const struct ps_check_ops *ops = ps_check_find("host_busy");
	struct ps_run *r = calloc(1, sizeof(*r));
	struct ps_finding *f = calloc(1, sizeof(*f));
	struct ps_step_result *s = &r->steps[0];
	struct ps_snapshot snap;
	struct ps_evidence ev;

	(void)state;
	assert_non_null(ops);
	memset(&snap, 0, sizeof(snap));
	r->nsteps = 1;
	s->state = PS_STEP_DONE;
	s->streams = 1;
	s->bps = 5e9;
	s->cpu_local = 30;
	s->have_cpu = true;
	s->cpu.status = PS_ST_OK;
	s->cpu.ncores = 2;
	s->cpu.all.pct_valid = true;
	s->cpu.all.busy_pct = 95;
	s->have_busy = true;
	s->nbusy = 2;
	s->busy[0] =
		(struct ps_proc){ .pid = 4242, .comm = "stress", .pct = 99.5 };
	s->busy[1] = (struct ps_proc){ .pid = 7, .comm = "\\x1bsh", .pct = 3 };
	ps_evidence_of(&snap, r, &ev);
	assert_int_equal(ops->eval(&ev, f), PS_CHECK_FIRED);
	assert_non_null(
		strstr(f->evidence, "stress (pid 4242) 100% of a core"));
	assert_null(strstr(f->evidence, "pid 7"));
	assert_non_null(strstr(f->remedy, "stress (pid 4242)"));
	NEAR(ps_fact_get(f, "busiest_process_cpu"), 99.5);
	/* a quiet host: nothing named, nothing fired */
	s->cpu.all.busy_pct = 20;
	memset(f, 0, sizeof(*f));
	assert_int_equal(ops->eval(&ev, f), PS_CHECK_CLEAR);
	free(f);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcp_omitted),
		cmocka_unit_test(test_udp),
		cmocka_unit_test(test_reading_times),
		cmocka_unit_test(test_host_busy_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
