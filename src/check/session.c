/* session.c: one test as both ends saw it, and the step it makes (the
 * guided run and the workstation alike; session.h) */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "session.h"
#include "xmalloc.h"

void ps_session_init(struct ps_session *s)
{
	memset(s, 0, sizeof(*s));
}

static void set_ref(struct ps_snapshot **slot, const struct ps_snapshot *snap)
{
	if (*slot == snap)
		return;
	ps_snapshot_put(*slot);
	*slot = snap ? ps_snapshot_get((struct ps_snapshot *)snap) : NULL;
}

void ps_session_free(struct ps_session *s)
{
	set_ref(&s->base, NULL);
	set_ref(&s->last, NULL);
	set_ref(&s->peer_base, NULL);
	set_ref(&s->peer_last, NULL);
	ps_step_peer_free(&s->peer);
	free(s->series);
	free(s->final);
	memset(s, 0, sizeof(*s));
}

/* what a guided run would call a step of this shape */
static const char *step_id(const struct ps_session *s)
{
	bool fwd = !s->reverse && !s->bidir;

	return s->streams == 1 && fwd ? "single"
	       : fwd		      ? "sweep"
	       : s->bidir	      ? "bidir"
				      : "reverse";
}

void ps_session_begin(struct ps_session *s, const struct ps_test_info *info)
{
	ps_session_free(s);
	s->begun = true;
	s->streams = info->parallel > 0 ? info->parallel : 1;
	s->reverse = info->reverse && !info->bidir;
	s->bidir = info->bidir;
	s->proto = info->proto;
	s->target_bps = info->proto == PS_PROTO_UDP ? (double)info->rate : 0;
	s->rebase = true;
	s->begin_ns = ps_mono_ns();
	s->udp_all_send = true;
	ps_step_acc_reset(&s->acc);
	ps_step_qdisc_reset(&s->qacc);
	ps_step_qdisc_reset(&s->qpeer);
	ps_step_path_reset(&s->pacc);
	ps_step_path_reset(&s->ppeer);
	s->series = xcalloc(1, sizeof(*s->series));
	snprintf(s->series->id, sizeof(s->series->id), "%s", step_id(s));
	s->series->streams = s->streams;
	s->series->reverse = s->reverse;
	s->series->bidir = s->bidir;
}

/* ---- the far end -------------------------------------------------------- */

static void peer_qdisc(struct ps_session *s, const struct ps_snapshot *snap)
{
	if (!snap || snap->hdr.time_ns == s->qpeer_time)
		return;
	s->qpeer_time = snap->hdr.time_ns;
	ps_step_qdisc_add(&s->qpeer, &snap->qdisc,
			  (double)snap->hdr.time_ns / 1e9);
	ps_step_path_add(&s->ppeer, &snap->path,
			 (double)snap->hdr.time_ns / 1e9);
}

/* its counters count from snap (its first of the test, or its newest at
 * the omitted time's end) */
static void peer_rebase(struct ps_session *s, const struct ps_snapshot *snap)
{
	if (!snap)
		return;
	set_ref(&s->peer_base, snap);
	ps_step_peer_netstat(&s->peer, snap, true);
	ps_step_qdisc_reset(&s->qpeer);
	ps_step_path_reset(&s->ppeer);
	s->qpeer_time = 0;
	peer_qdisc(s, snap);
}

static void peer_latest(struct ps_session *s, const struct ps_snapshot *snap)
{
	if (!snap)
		return;
	set_ref(&s->peer_last, snap);
	ps_step_peer_add(&s->peer, snap);
	peer_qdisc(s, snap);
}

/* ---- the intervals ------------------------------------------------------ */

/* whether a stream of this end is of the direction the step's rate counts
 * (both, in a bidir test) */
static bool counted(const struct ps_session *s, const struct ps_stream_iv *v)
{
	return s->bidir || s->reverse != v->sender;
}

static void udp_interval(struct ps_session *s, const struct ps_interval *iv)
{
	int64_t lost = 0, packets = 0;
	bool far = false;

	for (int i = 0; i < iv->nstreams; i++) {
		const struct ps_stream_iv *v = &iv->streams[i];

		if (v->sender) {
			s->udp_out_packets += (int64_t)v->packets;
			continue;
		}
		s->udp_all_send = false;
		s->udp_here_lost += v->lost > 0 ? v->lost : 0;
		s->udp_here_packets +=
			(int64_t)v->packets + (v->lost > 0 ? v->lost : 0);
	}
	/* a pipescope server's totals since the test began, its latest */
	for (int i = 0; i < iv->nremote; i++) {
		const struct ps_stream_iv *r = &iv->remote[i];

		if (r->sender || !r->udp_totals)
			continue;
		lost += r->lost > 0 ? r->lost : 0;
		packets += (int64_t)r->packets;
		far = true;
	}
	if (far) {
		s->udp_far_lost = lost;
		s->udp_far_packets = packets;
	}
}

void ps_session_interval(struct ps_session *s, const struct ps_interval *iv)
{
	bool first = true;

	if (!s->begun || s->ended)
		return;
	if (iv->omitted) {
		/* the counters of both ends count from here on */
		s->rebase = true;
		peer_rebase(s, iv->peer_snap);
		return;
	}
	/* without an omitted time, the far end's counters count from the
	 * snapshot its server took before the streams started */
	if (!s->peer_base)
		peer_rebase(s, iv->peer_snap0);
	peer_latest(s, iv->peer_snap);
	ps_step_acc_add(&s->acc, iv);
	ps_step_add_rate(s->series, iv);
	if (iv->end > iv->start)
		s->seconds += iv->end - iv->start;
	for (int i = 0; i < iv->nstreams; i++) {
		const struct ps_stream_iv *v = &iv->streams[i];

		if (v->sender)
			s->bytes_out += (double)v->bytes;
		else
			s->bytes_in += (double)v->bytes;
		if (!counted(s, v) || !isfinite(v->bps))
			continue;
		if (first || v->bps < s->iv_min_bps)
			s->iv_min_bps = v->bps;
		if (first || v->bps > s->iv_max_bps)
			s->iv_max_bps = v->bps;
		first = false;
	}
	if (s->proto == PS_PROTO_UDP)
		udp_interval(s, iv);
}

/* ---- the end --------------------------------------------------------------
 */

/* a UDP test's datagrams: what the senders numbered and what the receivers
 * counted lost (a forward test's receiver is the far end: its results) */
static void udp_end(struct ps_step_result *f, const struct ps_summary *sum)
{
	double sent_bytes = 0;
	bool all_send = sum->nstreams > 0;

	f->udp = true;
	for (int i = 0; i < sum->nstreams; i++) {
		const struct ps_stream_iv *v = &sum->local[i];

		if (v->sender) {
			f->udp_sent += (int64_t)v->packets;
			sent_bytes += (double)v->bytes;
			if (sum->remote_valid && sum->remote_errors[i] > 0)
				f->udp_lost += sum->remote_errors[i];
		} else {
			int64_t lost = v->lost > 0 ? v->lost : 0;

			all_send = false;
			f->udp_lost += lost;
			/* the sender's count, else what came and what not */
			f->udp_sent +=
				sum->remote_valid && sum->remote_packets[i] > 0
					? sum->remote_packets[i]
					: (int64_t)v->packets + lost;
		}
	}
	/* the receivers' base is what was numbered */
	f->udp_packets = f->udp_sent;
	if (all_send && sum->duration > 0)
		f->udp_sent_bps = sent_bytes * 8 / sum->duration;
}

void ps_session_end(struct ps_session *s, const struct ps_test_info *info,
		    const struct ps_summary *sum)
{
	struct ps_step_result *f;
	double fwd = 0, back = 0, d = sum->duration > 0 ? sum->duration : 1;

	(void)info;
	if (!s->begun || s->ended)
		return;
	s->ended = true;
	s->end_ns = ps_mono_ns();
	f = s->final = xcalloc(1, sizeof(*s->final));
	f->stream_min_bps = INFINITY;
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
			f->bytes += sent;
		} else {
			r = (double)recv * 8 / d;
			back += r;
			f->bytes += recv;
		}
		if (r < f->stream_min_bps)
			f->stream_min_bps = r;
		if (r > f->stream_max_bps)
			f->stream_max_bps = r;
	}
	if (!isfinite(f->stream_min_bps))
		f->stream_min_bps = 0;
	if (s->bidir) {
		f->bps = fwd;
		f->bps_back = back;
	} else {
		f->bps = s->reverse ? back : fwd;
	}
	f->seconds = sum->duration;
	f->cpu_local = sum->cpu_local_total;
	f->cpu_remote = sum->cpu_remote_total;
	snprintf(s->cc_local, sizeof(s->cc_local), "%s", sum->congestion_local);
	snprintf(s->cc_remote, sizeof(s->cc_remote), "%s",
		 sum->congestion_remote);
	if (s->proto == PS_PROTO_UDP)
		udp_end(f, sum);
	/* the summary may bring a reading newer than the last interval's */
	if (sum->peer_snap) {
		ps_step_peer_netstat(&s->peer, sum->peer_snap, false);
		set_ref(&s->peer_last, sum->peer_snap);
		peer_qdisc(s, sum->peer_snap);
	}
}

/* ---- this end's readings ----------------------------------------------------
 */

void ps_session_freeze(struct ps_session *s)
{
	s->closed = true;
}

bool ps_session_wants_local(const struct ps_session *s)
{
	return s->begun && !s->closed;
}

/* the cores of a reading (its rates over the interval before it) busy
 * enough to speak for the clock under load */
static void freq_add(struct ps_session *s, const struct ps_cpu_info *c)
{
	if (c->status != PS_ST_OK || c->basis != PS_CPU_BASIS_INTERVAL)
		return;
	for (int i = 0; i < c->ncores; i++) {
		const struct ps_cpu_core *k = &c->cores[i];
		double r;

		if (!k->pct_valid || k->busy_pct < PS_FREQ_BUSY_PCT ||
		    k->cur_khz <= 0 || k->max_khz <= 0)
			continue;
		r = (double)k->cur_khz / (double)k->max_khz;
		if (!s->freq_n || r < s->freq_min)
			s->freq_min = r;
		s->freq_sum += r;
		s->freq_n++;
		if (k->max_khz > s->freq_max_khz)
			s->freq_max_khz = k->max_khz;
	}
}

bool ps_session_local(struct ps_session *s, struct ps_snapshot *snap)
{
	int64_t t = snap ? snap->hdr.mono_ns : 0;

	if (!snap || !ps_session_wants_local(s) || t < s->begin_ns ||
	    (s->last && t <= s->last->hdr.mono_ns))
		return false;
	if (s->ended) {
		/* the reading that closes the test: taken after its end */
		if (t < s->end_ns)
			return false;
		s->closed = true;
	}
	if (s->rebase || !s->base) {
		s->rebase = false;
		set_ref(&s->base, snap);
		ps_step_qdisc_reset(&s->qacc);
		ps_step_path_reset(&s->pacc);
		s->freq_n = 0;
		s->freq_sum = 0;
		s->freq_max_khz = 0;
	} else if (!s->closed) {
		/* a reading of the test's time: its busy cores' clocks */
		freq_add(s, &snap->cpu);
	}
	set_ref(&s->last, snap);
	ps_step_qdisc_add(&s->qacc, &snap->qdisc, (double)t / 1e9);
	ps_step_path_add(&s->pacc, &snap->path, (double)t / 1e9);
	return true;
}

const struct ps_snapshot *ps_session_base(const struct ps_session *s)
{
	return s->base;
}

const struct ps_snapshot *ps_session_peer_base(const struct ps_session *s)
{
	return s->peer_base;
}

const struct ps_snapshot *ps_session_peer_last(const struct ps_session *s)
{
	return s->peer_last;
}

/* ---- the step
 * ----------------------------------------------------------------- */

/* the busiest processes from a to b but the test's own: this process,
 * and a pipescope server on this host (the far end's snapshot says its
 * pid) */
static void busy_procs(const struct ps_snapshot *a, const struct ps_snapshot *b,
		       const struct ps_snapshot *peer, double dt,
		       struct ps_step_result *st)
{
	int skip[2], nskip = 0;

	if (a->procs.status != PS_ST_OK || b->procs.status != PS_ST_OK ||
	    !a->procs.all || !b->procs.all)
		return;
	if (b->procs.self > 0)
		skip[nskip++] = b->procs.self;
	if (peer && peer->procs.self > 0 && ps_snapshot_same_host(b, peer))
		skip[nskip++] = peer->procs.self;
	st->nbusy = ps_procs_busiest(&a->procs, &b->procs, dt, skip, nskip,
				     st->busy, PS_STEP_MAX_PROCS);
	st->have_busy = true;
}

/* this end's cores, interrupts, NIC, kernel counters and processes from a
 * to b */
static void local_deltas(const struct ps_snapshot *a,
			 const struct ps_snapshot *b,
			 const struct ps_snapshot *peer,
			 struct ps_step_result *st)
{
	double dt = (double)(b->hdr.mono_ns - a->hdr.mono_ns) / 1e9;

	if (!(dt > 0))
		return;
	if (a->cpu.status == PS_ST_OK && b->cpu.status == PS_ST_OK) {
		struct ps_cpu_info c;

		ps_cpu_copy(&c, &b->cpu);
		ps_cpu_rates(&a->cpu, &c, dt);
		if (c.ncores > 0 && c.cores[0].pct_valid) {
			st->cpu = c;
			st->have_cpu = true;
		} else {
			ps_cpu_free(&c);
		}
	}
	if (a->irq.status == PS_ST_OK && b->irq.status == PS_ST_OK &&
	    !strcmp(a->irq.ifname, b->irq.ifname)) {
		struct ps_irq_info q;

		ps_irq_copy(&q, &b->irq);
		ps_irq_rates(&a->irq, &q, dt);
		if (q.rated)
			ps_step_set_irq(st, &q);
		ps_irq_free(&q);
	}
	ps_step_set_netstat(st, &a->netstat, &b->netstat);
	if (a->ethtool.nic.valid && b->ethtool.nic.valid) {
		struct ps_nic_rates r;

		ps_ethtool_nic_rates(&a->ethtool, &b->ethtool, dt, &r);
		ps_step_set_nic(st, &r);
	}
	busy_procs(a, b, peer, dt, st);
}

/* the rate so far, from this end's counts of the intervals */
static void running_rate(const struct ps_session *s, struct ps_step_result *st)
{
	double out = s->seconds > 0 ? s->bytes_out * 8 / s->seconds : 0;
	double in = s->seconds > 0 ? s->bytes_in * 8 / s->seconds : 0;

	st->seconds = s->seconds;
	st->bps = s->bidir ? out : s->reverse ? in : out;
	st->bps_back = s->bidir ? in : 0;
	st->bytes = (uint64_t)(s->bytes_out + s->bytes_in);
	st->stream_min_bps = s->iv_min_bps;
	st->stream_max_bps = s->iv_max_bps;
	if (s->proto != PS_PROTO_UDP)
		return;
	st->udp = true;
	st->udp_lost = s->udp_here_lost + s->udp_far_lost;
	st->udp_packets = s->udp_here_packets + s->udp_far_packets;
	st->udp_sent = st->udp_packets;
	if (s->udp_all_send)
		st->udp_sent_bps = out;
}

static void final_rate(const struct ps_step_result *f,
		       struct ps_step_result *st)
{
	st->seconds = f->seconds;
	st->bps = f->bps;
	st->bps_back = f->bps_back;
	st->bytes = f->bytes;
	st->stream_min_bps = f->stream_min_bps;
	st->stream_max_bps = f->stream_max_bps;
	st->cpu_local = f->cpu_local;
	st->cpu_remote = f->cpu_remote;
	st->udp = f->udp;
	st->udp_sent = f->udp_sent;
	st->udp_lost = f->udp_lost;
	st->udp_packets = f->udp_packets;
	st->udp_sent_bps = f->udp_sent_bps;
}

void ps_session_step(const struct ps_session *s, struct ps_step_result *st)
{
	if (s->series)
		*st = *s->series;
	else
		memset(st, 0, sizeof(*st));
	st->have_cpu = false;
	st->state = PS_STEP_DONE;
	st->freq_samples = 0;
	if (s->freq_n) {
		st->freq_samples = s->freq_n;
		st->freq_ratio = s->freq_sum / s->freq_n;
		st->freq_ratio_min = s->freq_min;
		st->freq_max_khz = s->freq_max_khz;
	}
	if (s->ended)
		final_rate(s->final, st);
	else
		running_rate(s, st);
	/* what the senders were asked for, when this end's streams send */
	if (st->udp && s->target_bps > 0 && st->udp_sent_bps > 0)
		st->udp_target_bps = s->target_bps * s->streams;
	ps_step_acc_finish(&s->acc, st);
	if (s->base && s->last && s->last != s->base)
		local_deltas(s->base, s->last, s->peer_last, st);
	ps_step_qdisc_finish(&s->qacc, &st->qdisc);
	ps_step_peer_finish(&s->peer, st);
	ps_step_qdisc_finish(&s->qpeer, &st->peer_qdisc);
	ps_step_qdisc_bound(&st->peer_qdisc, st->seconds);
	/* the shapers of both ends' paths: this end's, then the far end's */
	st->nshapers = 0;
	ps_step_path_finish(&s->pacc, false, st);
	ps_step_path_finish(&s->ppeer, true, st);
}

void ps_step_result_free(struct ps_step_result *st)
{
	if (st->have_cpu)
		ps_cpu_free(&st->cpu);
	st->have_cpu = false;
}
