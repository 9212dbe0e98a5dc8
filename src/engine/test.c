/* test.c: interval reports, sums, CPU use and results, for either end */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include "log.h"
#include "net.h"
#include "nls.h"
#include "snapshot.h"
#include "test.h"
#include "xmalloc.h"

int ps_stream_rx_cpu(int fd);

static double tv_sec(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

void ps_test_cpu(struct ps_test *t, double *total, double *user, double *sys)
{
	struct rusage ru;
	double wall = ps_now() - t->cpu_wall0;

	getrusage(RUSAGE_SELF, &ru);
	if (wall <= 0)
		wall = 1e-9;
	*user = (tv_sec(ru.ru_utime) - tv_sec(t->ru0.ru_utime)) / wall * 100;
	*sys = (tv_sec(ru.ru_stime) - tv_sec(t->ru0.ru_stime)) / wall * 100;
	*total = *user + *sys;
}

void ps_test_begin(struct ps_test *t)
{
	t->t0 = ps_now();
	t->wall0 = ps_wallclock();
	t->last_tick = t->t0;
	t->omit_until = t->t0 + t->p.omit;
	t->omitting = t->p.omit > 0;
	t->cpu_wall0 = t->t0;
	getrusage(RUSAGE_SELF, &t->ru0);
	free(t->iv_streams);
	t->iv_streams =
		xcalloc((size_t)t->nstreams + 1, sizeof(*t->iv_streams));
	t->niv = t->nstreams;
}

/*
 * -k / -n with this end only receiving (-R): the far end stops sending
 * after that many blocks or bytes and waits for our TEST_END, so we end,
 * as iperf3's client does, once we have received them: TCP blocks of -l
 * bytes; UDP datagrams, counting those lost (the sender numbered them).
 */
static bool rx_limit_reached(struct ps_test *t)
{
	uint64_t moved =
		atomic_load_explicit(&t->moved_bytes, memory_order_relaxed);
	uint64_t dgrams = 0;

	if (t->p.proto == PS_PROTO_TCP)
		return t->p.blocks && t->p.len &&
		       moved / t->p.len >= t->p.blocks;
	for (int i = 0; i < t->nstreams; i++) {
		struct ps_stream *s = t->streams[i];
		int64_t lost =
			atomic_load_explicit(&s->lost, memory_order_relaxed);

		dgrams +=
			atomic_load_explicit(&s->packets, memory_order_relaxed);
		if (lost > 0)
			dgrams += (uint64_t)lost;
	}
	if (t->p.blocks)
		return dgrams >= t->p.blocks;
	return t->p.len && dgrams * t->p.len >= t->p.bytes;
}

bool ps_test_limit_reached(struct ps_test *t)
{
	uint64_t sent = 0, blocks = 0;
	bool any_sender = false, all_finished = true;

	for (int i = 0; i < t->nstreams; i++) {
		struct ps_stream *s = t->streams[i];

		if (s->sender) {
			any_sender = true;
			sent += atomic_load_explicit(&s->bytes,
						     memory_order_relaxed);
			blocks += atomic_load_explicit(&s->blocks,
						       memory_order_relaxed);
			if (!atomic_load(&s->finished))
				all_finished = false;
		}
	}
	if (t->p.bytes) {
		uint64_t moved =
			any_sender ? sent
				   : atomic_load_explicit(&t->moved_bytes,
							  memory_order_relaxed);

		if (moved >= t->p.bytes)
			return true;
	}
	if (t->p.blocks && any_sender && blocks >= t->p.blocks)
		return true;
	if ((t->p.blocks || t->p.bytes) && !any_sender && rx_limit_reached(t))
		return true;
	if ((t->p.bytes || t->p.blocks || t->file_send) && any_sender &&
	    all_finished)
		return true;
	if (t->p.duration > 0 && ps_now() >= t->omit_until + t->p.duration)
		return true;
	return false;
}

static void add_to_sum(struct ps_stream_iv *sum, const struct ps_stream_iv *s)
{
	sum->bytes += s->bytes;
	sum->bps += s->bps;
	sum->packets += s->packets;
	sum->lost += s->lost;
	sum->ooo += s->ooo;
	sum->jitter_ms += s->jitter_ms; /* averaged by the caller */
	if (s->has_tcpinfo) {
		sum->has_tcpinfo = true;
		sum->retrans += s->retrans;
	}
}

/* read one stream's counters and TCP_INFO into *v for [from, now] */
static void sample_stream(struct ps_test *t, struct ps_stream *s,
			  struct ps_stream_iv *v, double from, double now)
{
	uint64_t bytes = atomic_load_explicit(&s->bytes, memory_order_relaxed);
	uint64_t packets =
		atomic_load_explicit(&s->packets, memory_order_relaxed);
	int64_t lost = atomic_load_explicit(&s->lost, memory_order_relaxed);
	uint64_t ooo = atomic_load_explicit(&s->ooo, memory_order_relaxed);
	double secs = now - from;
	struct ps_tcpinfo ti;

	memset(v, 0, sizeof(*v));
	v->id = s->id;
	v->fd = s->fd;
	v->target = s->target;
	v->sender = s->sender;
	v->start = from - t->t0;
	v->end = now - t->t0;
	v->bytes = bytes - s->iv_bytes;
	v->bps = secs > 0 ? v->bytes * 8.0 / secs : 0;
	v->packets = packets - s->iv_packets;
	v->lost = lost - s->iv_lost;
	v->ooo = ooo - s->iv_ooo;
	v->jitter_ms =
		atomic_load_explicit(&s->jitter_ns, memory_order_relaxed) / 1e6;
	v->cpu = atomic_load_explicit(&s->cpu, memory_order_relaxed);
	v->rx_cpu = ps_stream_rx_cpu(s->fd);
	v->rx_batch = atomic_load_explicit(&s->lowat, memory_order_relaxed);
	if (v->rx_batch <= 1)
		v->rx_batch = 0; /* the kernel's default: every segment */
	v->omitted = t->omitting;
	s->iv_bytes = bytes;
	s->iv_packets = packets;
	s->iv_lost = lost;
	s->iv_ooo = ooo;

	if (!s->udp && s->sender && ps_tcpinfo_read(s->fd, &ti) == 0) {
		v->has_tcpinfo = true;
		v->rtt_us = ti.rtt_us;
		v->rttvar_us = ti.rttvar_us;
		v->min_rtt_us = ti.min_rtt_us;
		v->pmtu = ti.pmtu;
		v->mss = ti.snd_mss;
		v->cwnd = (uint64_t)ti.snd_cwnd * ti.snd_mss;
		v->snd_wnd = ti.snd_wnd;
		v->delivery_bps = ti.delivery_rate * 8;
		v->pacing_bps = ti.pacing_rate * 8;
		v->app_limited = ti.app_limited;
		if (s->have_ti_prev) {
			v->reorder =
				(int64_t)ti.reord_seen - s->ti_prev.reord_seen;
			v->retrans = (int64_t)ti.total_retrans -
				     s->ti_prev.total_retrans;
			v->busy_us = ti.busy_us - s->ti_prev.busy_us;
			v->rwnd_limited_us =
				ti.rwnd_limited_us - s->ti_prev.rwnd_limited_us;
			v->sndbuf_limited_us = ti.sndbuf_limited_us -
					       s->ti_prev.sndbuf_limited_us;
		} else {
			v->reorder = ti.reord_seen;
			v->retrans = ti.total_retrans;
			v->busy_us = ti.busy_us;
			v->rwnd_limited_us = ti.rwnd_limited_us;
			v->sndbuf_limited_us = ti.sndbuf_limited_us;
		}
		s->ti_prev = ti;
		s->have_ti_prev = true;
		if (!t->omitting) {
			s->retrans_total += v->retrans;
			s->reorder_total += v->reorder;
			if (v->snd_wnd > s->snd_wnd_max)
				s->snd_wnd_max = v->snd_wnd;
			if (ti.rtt_us) {
				if (ti.rtt_us > s->rtt_max)
					s->rtt_max = ti.rtt_us;
				if (!s->rtt_min || ti.rtt_us < s->rtt_min)
					s->rtt_min = ti.rtt_us;
				s->rtt_sum += ti.rtt_us;
				s->rtt_n++;
			}
			if (v->cwnd > s->cwnd_max)
				s->cwnd_max = v->cwnd;
		}
	}
	s->last_iv = *v;
}

/*
 * Is the last interval too short to report? Under 1 ms, or, on a client
 * after its first interval, under a tenth of -i: what still arrived once
 * the test's time was up (-R) makes a "3.00-3.00 sec 1.00 MBytes" that
 * iperf3's client never reports (its 3.21 server does). The totals count
 * those bytes all the same.
 */
static bool short_tail(const struct ps_test *t, double now)
{
	double len = now - t->last_tick;

	return len < 1e-3 || (!t->server && t->interval > 0 &&
			      t->last_tick > t->t0 && len < 0.1 * t->interval);
}

void ps_test_tick(struct ps_test *t, double now, bool final)
{
	struct ps_interval *iv = &t->iv;
	int nj[2] = { 0, 0 };

	if (final && short_tail(t, now))
		goto omit_check;
	memset(iv, 0, sizeof(*iv));
	iv->start = t->last_tick - t->t0;
	iv->end = now - t->t0;
	iv->omitted = t->omitting;
	/* the entries sized at the start, whatever came after */
	iv->nstreams = t->nstreams < t->niv ? t->nstreams : t->niv;
	iv->streams = t->iv_streams;
	for (int i = 0; i < iv->nstreams; i++) {
		struct ps_stream_iv *v = &t->iv_streams[i];
		int k;

		sample_stream(t, t->streams[i], v, t->last_tick, now);
		k = v->sender ? 0 : 1;
		iv->have_sum[k] = true;
		add_to_sum(&iv->sum[k], v);
		nj[k]++;
	}
	for (int k = 0; k < 2; k++) {
		iv->sum[k].start = iv->start;
		iv->sum[k].end = iv->end;
		iv->sum[k].sender = k == 0;
		iv->sum[k].omitted = iv->omitted;
		if (nj[k])
			iv->sum[k].jitter_ms /= nj[k];
	}
	iv->nremote = t->nremote;
	iv->remote = t->iv_remote;
	iv->peer_snap = t->peer_snap;
	iv->peer_snap0 = t->peer_snap0;
	t->last_tick = now;
	if (t->rep && t->rep->interval && t->interval > 0)
		t->rep->interval(t->rep->arg, iv);
omit_check:
	/* leaving the omit period: everything so far is discounted */
	if (t->omitting && now >= t->omit_until - 1e-3) {
		t->omitting = false;
		for (int i = 0; i < t->nstreams; i++) {
			struct ps_stream *s = t->streams[i];

			s->omit_bytes = s->iv_bytes;
			s->omit_packets = s->iv_packets;
			s->omit_lost = s->iv_lost;
		}
		getrusage(RUSAGE_SELF, &t->ru0);
		t->cpu_wall0 = now;
	}
}

/* the far end's results for stream id, once they came */
static const struct ps_stream_result *remote_of(const struct ps_test *t, int id)
{
	for (int j = 0; j < t->remote.nstreams && t->remote_valid; j++)
		if (t->remote.streams[j].id == id)
			return &t->remote.streams[j];
	return NULL;
}

/*
 * The end-of-test cap on a UDP receiver's loss, once the sender's count
 * is known: never more than it sent less what arrived. A sequence number
 * past the sender's count (a jump the rate rule of stream-udp.c let
 * through) was never sent, so it is no loss.
 */
static int64_t udp_loss_cap(int64_t lost, int64_t sent, int64_t received)
{
	int64_t most = sent > received ? sent - received : 0;

	return lost > most ? most : lost;
}

void ps_test_fill_results(struct ps_test *t, struct ps_results *r)
{
	bool tcp_sender = false;

	memset(r, 0, sizeof(*r));
	ps_test_cpu(t, &r->cpu_total, &r->cpu_user, &r->cpu_system);
	for (int i = 0; i < t->nstreams; i++) {
		struct ps_stream *s = t->streams[i];
		struct ps_stream_result *x = &r->streams[r->nstreams++];
		const struct ps_stream_result *rs;
		uint64_t bytes = atomic_load(&s->bytes);
		uint64_t packets = atomic_load(&s->packets);

		x->id = s->id;
		x->bytes = bytes - s->omit_bytes;
		x->retransmits = s->udp || !s->sender ? -1 : s->retrans_total;
		if (!s->udp && s->sender)
			tcp_sender = true;
		x->jitter = atomic_load(&s->jitter_ns) / 1e9;
		x->errors = atomic_load(&s->lost) - s->omit_lost;
		x->packets = (int64_t)(packets - s->omit_packets);
		x->omitted_errors = s->omit_lost;
		x->omitted_packets = (int64_t)s->omit_packets;
		/* the server has the client's results by now */
		if (s->udp && !s->sender && (rs = remote_of(t, s->id)))
			x->errors = udp_loss_cap(x->errors, rs->packets,
						 x->packets);
		x->start_time = 0;
		x->end_time =
			t->last_tick - (t->p.omit ? t->omit_until : t->t0);
	}
	r->sender_has_retransmits =
		tcp_sender ? 1 : (t->p.proto == PS_PROTO_TCP ? 0 : -1);
	if (t->p.proto == PS_PROTO_TCP && t->nstreams > 0) {
		char cc[16] = "";
		socklen_t l = sizeof(cc);

		if (!getsockopt(t->streams[0]->fd, IPPROTO_TCP, TCP_CONGESTION,
				cc, &l))
			snprintf(r->congestion_used, sizeof(r->congestion_used),
				 "%.*s", (int)strnlen(cc, sizeof(cc)), cc);
	}
}

void ps_test_summary(struct ps_test *t, struct ps_summary *sum)
{
	double start = t->p.omit ? t->omit_until : t->t0;
	double dur = t->last_tick - start;
	int nj[2] = { 0, 0 };
	uint64_t moved = 0;

	memset(sum, 0, sizeof(*sum));
	if (dur <= 0)
		dur = 1e-9;
	sum->duration = dur;
	sum->nstreams = t->nstreams;
	sum->local = xcalloc((size_t)t->nstreams + 1, sizeof(*sum->local));
	sum->remote_bytes = xcalloc((size_t)t->nstreams + 1, sizeof(uint64_t));
	sum->remote_errors = xcalloc((size_t)t->nstreams + 1, sizeof(int64_t));
	sum->remote_packets = xcalloc((size_t)t->nstreams + 1, sizeof(int64_t));
	sum->remote_jitter_ms =
		xcalloc((size_t)t->nstreams + 1, sizeof(double));
	sum->remote_retrans = xcalloc((size_t)t->nstreams + 1, sizeof(int64_t));
	sum->remote_valid = t->remote_valid;
	sum->peer_snap = t->peer_snap;
	sum->sum_sent.sender = true;
	for (int i = 0; i < t->nstreams; i++) {
		struct ps_stream *s = t->streams[i];
		struct ps_stream_iv *v = &sum->local[i];
		const struct ps_stream_result *rs;
		struct ps_stream_iv *agg;

		*v = s->last_iv;
		v->start = 0;
		v->end = dur;
		v->bytes = atomic_load(&s->bytes) - s->omit_bytes;
		v->bps = v->bytes * 8.0 / dur;
		v->packets = atomic_load(&s->packets) - s->omit_packets;
		v->lost = atomic_load(&s->lost) - s->omit_lost;
		v->ooo = atomic_load(&s->ooo);
		v->jitter_ms = atomic_load(&s->jitter_ns) / 1e6;
		v->retrans = s->retrans_total;
		v->reorder = s->reorder_total;
		v->snd_wnd = s->snd_wnd_max;
		v->rtt_us = s->rtt_n ? (uint32_t)(s->rtt_sum / s->rtt_n) : 0;
		v->min_rtt_us = s->rtt_min;
		v->rttvar_us = s->rtt_max; /* max RTT, for the JSON */
		v->cwnd = s->cwnd_max;
		moved += v->bytes;
		if ((rs = remote_of(t, s->id))) {
			sum->remote_bytes[i] = rs->bytes;
			sum->remote_errors[i] = rs->errors;
			sum->remote_packets[i] = rs->packets;
			sum->remote_jitter_ms[i] = rs->jitter * 1e3;
			sum->remote_retrans[i] = rs->retransmits;
		}
		if (s->udp && rs && !s->sender) {
			/* ours, capped by the far end's count (-R) */
			v->lost = udp_loss_cap(v->lost, rs->packets,
					       (int64_t)v->packets);
		} else if (s->udp && rs) {
			/*
			 * theirs, capped by our count: what arrived is at least
			 * their packets less their loss (iperf3's packets is
			 * its highest number; pipescope's, what arrived)
			 */
			sum->remote_errors[i] = udp_loss_cap(
				rs->errors, (int64_t)v->packets,
				rs->packets -
					(rs->errors > 0 ? rs->errors : 0));
		}
		/*
		 * iperf3's end.sum_sent/sum_received: for a stream this end
		 * sends, "sent" is ours and "received" the peer's count.
		 */
		agg = s->sender ? &sum->sum_sent : &sum->sum_received;
		agg->bytes += v->bytes;
		agg->retrans += v->retrans;
		agg->has_tcpinfo |= v->has_tcpinfo;
		agg->packets += v->packets;
		agg->lost += v->lost;
		agg->jitter_ms += v->jitter_ms;
		nj[s->sender ? 0 : 1]++;
		if (s->sender) {
			sum->have_sent = true;
		} else {
			sum->have_received = true;
		}
	}
	if (nj[1])
		sum->sum_received.jitter_ms /= nj[1];
	sum->sum_sent.bps = sum->sum_sent.bytes * 8.0 / dur;
	sum->sum_received.bps = sum->sum_received.bytes * 8.0 / dur;
	sum->sum_sent.end = sum->sum_received.end = dur;
	ps_test_cpu(t, &sum->cpu_local_total, &sum->cpu_local_user,
		    &sum->cpu_local_system);
	if (moved)
		sum->cpu_seconds_per_gb =
			sum->cpu_local_total / 100.0 * dur / (moved / 1e9);
	if (t->remote_valid) {
		sum->cpu_remote_total = t->remote.cpu_total;
		sum->cpu_remote_user = t->remote.cpu_user;
		sum->cpu_remote_system = t->remote.cpu_system;
		snprintf(sum->congestion_remote, sizeof(sum->congestion_remote),
			 "%s", t->remote.congestion_used);
		if (t->remote.server_output_text)
			sum->server_output =
				xstrdup(t->remote.server_output_text);
		sum->server_output_json =
			json_object_get(t->remote.server_output_json);
	}
	if (t->p.proto == PS_PROTO_TCP && t->nstreams > 0) {
		char cc[16] = "";
		socklen_t l = sizeof(cc);

		if (!getsockopt(t->streams[0]->fd, IPPROTO_TCP, TCP_CONGESTION,
				cc, &l))
			snprintf(sum->congestion_local,
				 sizeof(sum->congestion_local), "%.*s",
				 (int)strnlen(cc, sizeof(cc)), cc);
	}
}

void ps_summary_free(struct ps_summary *sum)
{
	free(sum->local);
	free(sum->remote_bytes);
	free(sum->remote_errors);
	free(sum->remote_packets);
	free(sum->remote_jitter_ms);
	free(sum->remote_retrans);
	free(sum->server_output);
	json_object_put(sum->server_output_json);
	memset(sum, 0, sizeof(*sum));
}

/* pipescope peers: this end's per-stream TCP_INFO, for the far end's screen */
/* a stream this end receives (UDP): its loss since the test began (after
 * the omitted time), so the client shows the receiver's loss live */
static void udp_totals_put(const struct ps_stream *s, struct json_object *j)
{
	int64_t lost = atomic_load(&s->lost) - s->omit_lost;
	uint64_t got = atomic_load(&s->packets) - s->omit_packets;

	if (lost < 0)
		lost = 0;
	json_object_object_add(j, "udp_lost", json_object_new_int64(lost));
	json_object_object_add(j, "udp_packets",
			       json_object_new_int64((int64_t)got + lost));
	json_object_object_add(
		j, "jitter_ms",
		json_object_new_double(atomic_load(&s->jitter_ns) / 1e6));
}

struct json_object *ps_test_ext_data(struct ps_test *t)
{
	struct json_object *o = json_object_new_object();
	struct json_object *arr = json_object_new_array();
	double tot, usr, sys;

	for (int i = 0; i < t->nstreams; i++) {
		const struct ps_stream_iv *v = &t->streams[i]->last_iv;
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "id", json_object_new_int(v->id));
		json_object_object_add(j, "sender",
				       json_object_new_boolean(v->sender));
		json_object_object_add(
			j, "bytes", json_object_new_int64((int64_t)v->bytes));
		json_object_object_add(j, "bits_per_second",
				       json_object_new_double(v->bps));
		if (v->has_tcpinfo) {
			json_object_object_add(
				j, "rtt", json_object_new_int64(v->rtt_us));
			json_object_object_add(
				j, "rttvar",
				json_object_new_int64(v->rttvar_us));
			json_object_object_add(
				j, "snd_cwnd",
				json_object_new_int64((int64_t)v->cwnd));
			json_object_object_add(
				j, "retransmits",
				json_object_new_int64(v->retrans));
			json_object_object_add(
				j, "busy_us",
				json_object_new_int64((int64_t)v->busy_us));
			json_object_object_add(
				j, "rwnd_limited_us",
				json_object_new_int64(
					(int64_t)v->rwnd_limited_us));
			json_object_object_add(
				j, "sndbuf_limited_us",
				json_object_new_int64(
					(int64_t)v->sndbuf_limited_us));
			json_object_object_add(
				j, "delivery_rate",
				json_object_new_int64(
					(int64_t)v->delivery_bps));
		}
		json_object_object_add(j, "cpu", json_object_new_int(v->cpu));
		json_object_object_add(j, "rx_cpu",
				       json_object_new_int(v->rx_cpu));
		if (!v->sender && v->rx_batch > 0)
			json_object_object_add(
				j, "rx_batch",
				json_object_new_int(v->rx_batch));
		if (t->streams[i]->udp && !v->sender)
			udp_totals_put(t->streams[i], j);
		json_object_array_add(arr, j);
	}
	json_object_object_add(o, "streams", arr);
	ps_test_cpu(t, &tot, &usr, &sys);
	json_object_object_add(o, "cpu_util_total",
			       json_object_new_double(tot));
	json_object_object_add(o, "cpu_util_user", json_object_new_double(usr));
	json_object_object_add(o, "cpu_util_system",
			       json_object_new_double(sys));
	return o;
}

static int64_t jget(struct json_object *o, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(o, k, &v) ? ps_json_int(v) : 0;
}

/* the far end's word, bounded: counts from 0 to 2^48, lost at most the
 * packets, a jitter that is a number of milliseconds */
static void udp_totals_take(struct ps_stream_iv *v, struct json_object *j)
{
	const int64_t cap = (int64_t)1 << 48;
	int64_t n = jget(j, "udp_packets"), lost = jget(j, "udp_lost");
	struct json_object *x;
	double jit = 0;

	if (n < 0 || n > cap || lost < 0 || lost > n)
		return;
	if (json_object_object_get_ex(j, "jitter_ms", &x))
		jit = json_object_get_double(x);
	v->udp_totals = true;
	v->packets = (uint64_t)n;
	v->lost = lost;
	v->jitter_ms = isfinite(jit) && jit >= 0 && jit < 1e6 ? jit : 0;
}

int ps_test_take_ext_data(struct ps_test *t, struct json_object *obj)
{
	struct json_object *arr;
	size_t n;

	if (!json_object_object_get_ex(obj, "streams", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return 0;
	n = json_object_array_length(arr);
	if (n > (size_t)t->nstreams)
		return -E2BIG;
	if (!t->iv_remote || t->nremote_max < t->nstreams) {
		free(t->iv_remote);
		t->iv_remote =
			xcalloc((size_t)t->nstreams + 1, sizeof(*t->iv_remote));
		t->nremote_max = t->nstreams;
	}
	t->nremote = (int)n;
	for (size_t i = 0; i < n; i++) {
		struct json_object *j = json_object_array_get_idx(arr, i);
		struct ps_stream_iv *v = &t->iv_remote[i];
		struct json_object *x;

		memset(v, 0, sizeof(*v));
		v->id = (int)jget(j, "id");
		v->sender = json_object_object_get_ex(j, "sender", &x) &&
			    json_object_get_boolean(x);
		v->bytes = (uint64_t)jget(j, "bytes");
		v->bps = json_object_object_get_ex(j, "bits_per_second", &x)
				 ? json_object_get_double(x)
				 : 0;
		v->has_tcpinfo = json_object_object_get_ex(j, "rtt", &x);
		v->rtt_us = (uint32_t)jget(j, "rtt");
		v->rttvar_us = (uint32_t)jget(j, "rttvar");
		v->cwnd = (uint64_t)jget(j, "snd_cwnd");
		v->retrans = jget(j, "retransmits");
		v->busy_us = (uint64_t)jget(j, "busy_us");
		v->rwnd_limited_us = (uint64_t)jget(j, "rwnd_limited_us");
		v->sndbuf_limited_us = (uint64_t)jget(j, "sndbuf_limited_us");
		v->delivery_bps = (uint64_t)jget(j, "delivery_rate");
		v->cpu = (int)jget(j, "cpu");
		v->rx_cpu = (int)jget(j, "rx_cpu");
		/* the far end's batch: bounded like the buffer it reads into */
		v->rx_batch = (int)jget(j, "rx_batch");
		if (v->rx_batch < 0 || v->rx_batch > (64 << 20))
			v->rx_batch = 0;
		if (!v->sender &&
		    json_object_object_get_ex(j, "udp_packets", &x))
			udp_totals_take(v, j);
	}
	return 0;
}

void ps_report_message(const struct ps_reporter *r, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (!r || !r->message)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	r->message(r->arg, buf);
}

int ps_test_take_probe(struct ps_test *t, struct json_object *obj)
{
	struct ps_snapshot *snap = xmalloc(sizeof(*snap));
	char err[256];

	if (ps_snapshot_from_json(obj, snap, err, sizeof(err))) {
		free(snap);
		/* err is pipescope's own words and numbers, never the
		 * server's bytes; said once a test */
		if (!t->peer_snap_refused)
			ps_warn(_("the server's probe snapshot was left out: "
				  "%s"),
				err);
		t->peer_snap_refused = true;
		return -EINVAL;
	}
	if (t->peer_snap)
		ps_snapshot_put(t->peer_snap);
	t->peer_snap = snap;
	if (!t->peer_snap0)
		t->peer_snap0 = ps_snapshot_get(snap);
	return 0;
}

const char *ps_limit_reason(const struct ps_stream_iv *v)
{
	if (!v->has_tcpinfo || !v->busy_us)
		return NULL;
	if (v->rwnd_limited_us * 2 > v->busy_us)
		return "rwnd";
	if (v->sndbuf_limited_us * 2 > v->busy_us)
		return "sndbuf";
	if (v->app_limited)
		return "app";
	return "cwnd";
}

void ps_summary_stream_bytes(const struct ps_summary *sum, int i,
			     uint64_t *sent, uint64_t *received)
{
	uint64_t mine = sum->local[i].bytes;
	uint64_t theirs = sum->remote_valid ? sum->remote_bytes[i] : 0;

	if (sum->local[i].sender) {
		*sent = mine;
		*received = theirs;
	} else {
		*sent = theirs;
		*received = mine;
	}
}

void ps_summary_bytes(const struct ps_summary *sum, double *sent,
		      double *received)
{
	*sent = *received = 0;
	for (int i = 0; i < sum->nstreams; i++) {
		uint64_t s, r;

		ps_summary_stream_bytes(sum, i, &s, &r);
		*sent += (double)s;
		*received += (double)r;
	}
}

void ps_test_info_fill(struct ps_test *t)
{
	struct ps_test_info *in = &t->info;

	memset(in, 0, sizeof(*in));
	in->proto = t->p.proto;
	in->nstreams = t->nstreams;
	in->parallel = t->p.parallel;
	in->reverse = t->p.reverse;
	in->bidir = t->p.bidir;
	in->duration = t->p.duration;
	in->place = t->place;
	in->bytes = t->p.bytes;
	in->blocks = t->p.blocks;
	in->len = t->p.len;
	in->omit = t->p.omit;
	in->rate = t->p.rate;
	in->fq_rate = t->p.fq_rate;
	memcpy(in->title, t->p.title, sizeof(in->title));
	in->gsro = t->p.proto == PS_PROTO_UDP && t->p.gsro;
	in->peer_kind = t->peer_ext ? "pipescope" : "iperf3";
	in->threads = ps_streams_threads(t);
	in->send_piece = 0;
	for (int i = 0; i < t->nstreams; i++) {
		if (t->streams[i]->sender && !t->streams[i]->udp) {
			ps_streams_plan_pieces(t);
			in->send_piece = t->tx_piece ? t->tx_piece : t->p.len;
			break;
		}
	}
	memcpy(in->cookie, t->cookie, sizeof(in->cookie));
	ps_test_info_conns(t);
	ps_sock_name(t->ctrl_fd, true, in->ctrl_remote, sizeof(in->ctrl_remote),
		     &in->ctrl_rport);
	/* -w as asked and as the kernel applied it, on either end */
	in->window_req = t->p.window;
	if (t->nstreams) {
		socklen_t l = sizeof(in->sndbuf_actual);

		getsockopt(t->streams[0]->fd, SOL_SOCKET, SO_SNDBUF,
			   &in->sndbuf_actual, &l);
		l = sizeof(in->rcvbuf_actual);
		getsockopt(t->streams[0]->fd, SOL_SOCKET, SO_RCVBUF,
			   &in->rcvbuf_actual, &l);
	}
}

void ps_test_info_conns(struct ps_test *t)
{
	struct ps_test_info *in = &t->info;
	int max = (int)(sizeof(in->conn) / sizeof(in->conn[0]));

	in->nconn = 0;
	for (int i = 0; i < t->nstreams && i < max; i++) {
		struct ps_stream *s = t->streams[i];
		typeof(in->conn[0]) *c = &in->conn[i];

		c->id = s->id;
		c->fd = s->fd;
		c->sender = s->sender;
		ps_sock_name(s->fd, false, c->local, sizeof(c->local),
			     &c->lport);
		ps_sock_name(s->fd, true, c->remote, sizeof(c->remote),
			     &c->rport);
		ps_sock_readback(s->fd, &c->nodelay, &c->mss, &c->sndbuf,
				 &c->rcvbuf, &c->tos, c->congestion,
				 sizeof(c->congestion));
		in->nconn++;
	}
}

void ps_params_sockopts(const struct ps_params *p, struct ps_sockopts *so)
{
	memset(so, 0, sizeof(*so));
	so->window = p->window;
	so->mss = p->mss;
	so->nodelay = p->nodelay;
	so->congestion = p->congestion[0] ? p->congestion : NULL;
	so->tos = p->tos;
	so->pacing_bps = p->fq_rate ? p->fq_rate
				    : (p->proto == PS_PROTO_TCP ? p->rate : 0);
}
