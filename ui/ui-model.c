/* ui-model.c: the workstation's copy of the running test (the engine's
 * reporter callbacks write it under a lock and wake the UI thread) and the
 * worker thread that runs one test at a time */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "clock.h"
#include "nls.h"
#include "record.h"
#include "thread.h"
#include "ui-model.h"

int ui_model_init(struct ui_model *m)
{
	memset(m, 0, sizeof(*m));
	m->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (m->wake_fd < 0)
		return -errno;
	pthread_mutex_init(&m->lock, NULL);
	ps_capture_init(&m->cap);
	return 0;
}

/* the guided run's test is no longer the one shown (under the lock) */
static void ext_clear(struct ui_model *m)
{
	ps_step_result_free(&m->ext_step);
	ps_snapshot_put(m->ext_base);
	ps_snapshot_put(m->ext_peer_base);
	m->ext_base = m->ext_peer_base = NULL;
	m->ext_valid = false;
}

void ui_model_destroy(struct ui_model *m)
{
	if (m->wake_fd >= 0)
		close(m->wake_fd);
	m->wake_fd = -1;
	ps_snapshot_put(m->peer_snap);
	m->peer_snap = NULL;
	ps_session_free(&m->sess);
	ext_clear(m);
	ps_capture_free(&m->cap);
	pthread_mutex_destroy(&m->lock);
}

void ui_model_wake(struct ui_model *m)
{
	uint64_t one = 1;
	ssize_t n = write(m->wake_fd, &one, sizeof(one));

	(void)n; /* EAGAIN: already awake */
}

void ui_model_drain(struct ui_model *m)
{
	uint64_t v;
	ssize_t n = read(m->wake_fd, &v, sizeof(v));

	(void)n;
}

void ui_model_copy(struct ui_model *m, struct ui_test_view *out)
{
	pthread_mutex_lock(&m->lock);
	*out = m->v;
	pthread_mutex_unlock(&m->lock);
}

struct ps_snapshot *ui_model_peer(struct ui_model *m)
{
	struct ps_snapshot *s;

	pthread_mutex_lock(&m->lock);
	s = m->peer_snap ? ps_snapshot_get(m->peer_snap) : NULL;
	pthread_mutex_unlock(&m->lock);
	return s;
}

/* under the lock: keep the far end's newest snapshot (NULL drops it) */
static void set_peer(struct ui_model *m, const struct ps_snapshot *s)
{
	if (s == m->peer_snap)
		return;
	ps_snapshot_put(m->peer_snap);
	/* the engine hands it const for the callback; a reference keeps it */
	m->peer_snap = s ? ps_snapshot_get((struct ps_snapshot *)s) : NULL;
}

/* ---- the reporter: runs on the engine's thread, never touches curses --- */

static void on_start(void *arg, const struct ps_test_info *info)
{
	struct ui_model *m = arg;
	struct ui_test_view *v = &m->v;

	pthread_mutex_lock(&m->lock);
	if (info->ntargets > 0 && info->target_host[0])
		snprintf(v->target, sizeof(v->target), "%s:%d",
			 info->target_host[0], info->target_port[0]);
	snprintf(v->peer_kind, sizeof(v->peer_kind), "%s",
		 info->peer_kind ? info->peer_kind : "");
	snprintf(v->peer_version, sizeof(v->peer_version), "%s",
		 info->peer_version);
	v->proto = info->proto;
	v->reverse = info->reverse;
	v->bidir = info->bidir;
	v->parallel = info->parallel;
	v->duration = info->duration;
	v->started_ns = ps_mono_ns();
	v->state = UI_TEST_RUNNING;
	set_peer(m, NULL);
	ext_clear(m);
	ps_session_begin(&m->sess, info);
	/* "Connecting to host ..." is over */
	v->message[0] = 0;
	v->message_gen++;
	v->gen++;
	pthread_mutex_unlock(&m->lock);
	ui_model_wake(m);
}

static void hist_add(struct ui_test_view *v, double bps)
{
	v->hist[v->nhist % UI_HIST] = bps;
	v->nhist++;
}

/* a pipescope server's live totals of the UDP streams it receives: the
 * receiver's loss while the test runs (the results correct it at the end) */
static void far_udp(struct ui_test_view *v, const struct ps_interval *iv)
{
	int64_t lost = 0, packets = 0;
	double jit = 0;
	int n = 0;

	for (int i = 0; i < iv->nremote; i++) {
		const struct ps_stream_iv *r = &iv->remote[i];

		if (r->sender || !r->udp_totals)
			continue;
		lost += r->lost;
		packets += (int64_t)r->packets;
		jit += r->jitter_ms;
		n++;
	}
	if (!n)
		return;
	v->rx_lost_far = lost;
	v->rx_packets_far = packets;
	v->rx_jitter_ms = jit / n;
	v->rx_live = true;
}

/* what a pipescope server said it received in an interval (true when it
 * said anything of it) */
static bool far_received(const struct ps_interval *iv, int r, double *bps)
{
	bool told = false;

	*bps = 0;
	for (int i = 0; i < r; i++)
		if (!iv->remote[i].sender) {
			*bps += iv->remote[i].bps;
			told = true;
		}
	return told;
}

/* the graph's rate of an interval: of UDP this end sends, what the
 * receiver said arrived (far, when told), since the sent rate hides the
 * loss; else the interval's sum */
static double plotted(const struct ui_test_view *v,
		      const struct ps_interval *iv, int n, bool told,
		      double far, double now)
{
	if (v->proto != PS_PROTO_UDP || !told)
		return now;
	/* a bidir test: this end's receiving streams count as they are */
	for (int i = 0; i < n; i++)
		if (!iv->streams[i].sender)
			far += iv->streams[i].bps;
	return far;
}

static void on_interval(void *arg, const struct ps_interval *iv)
{
	struct ui_model *m = arg;
	struct ui_test_view *v = &m->v;
	int n = iv->nstreams < UI_MAX_ROWS ? iv->nstreams : UI_MAX_ROWS;
	int r = iv->nremote < UI_MAX_ROWS ? iv->nremote : UI_MAX_ROWS;
	double now = 0, bytes = 0, far;
	bool far_rx = far_received(iv, r, &far);

	pthread_mutex_lock(&m->lock);
	set_peer(m, iv->peer_snap);
	v->nstreams = n;
	if (n > 0)
		memcpy(v->streams, iv->streams,
		       (size_t)n * sizeof(*v->streams));
	v->nremote = r;
	if (r > 0)
		memcpy(v->remote, iv->remote, (size_t)r * sizeof(*v->remote));
	for (int d = 0; d < 2; d++) {
		v->have_sum[d] = iv->have_sum[d];
		v->sum_bps[d] = iv->have_sum[d] ? iv->sum[d].bps : 0;
		if (iv->have_sum[d]) {
			now += iv->sum[d].bps;
			bytes += (double)iv->sum[d].bytes;
		}
	}
	/* a test with one stream may leave the sums out: add the streams */
	if (!iv->have_sum[0] && !iv->have_sum[1])
		for (int i = 0; i < n; i++) {
			now += iv->streams[i].bps;
			bytes += (double)iv->streams[i].bytes;
		}
	v->now_bps = now;
	for (int i = 0; i < n; i++)
		v->spark[i][v->nspark % UI_SPARK] = (float)iv->streams[i].bps;
	v->nspark++;
	if (!iv->omitted) {
		v->bytes_total += bytes;
		v->time_total += iv->end - iv->start;
		/* what a pipescope server said it received, its latest */
		if (far_rx)
			v->far_rx_bps = far;
		/* UDP this end receives: its own count of the loss */
		for (int i = 0; i < n; i++)
			if (v->proto == PS_PROTO_UDP &&
			    !iv->streams[i].sender) {
				v->rx_lost_here += iv->streams[i].lost;
				v->rx_packets_here +=
					(int64_t)iv->streams[i].packets +
					iv->streams[i].lost;
				v->rx_jitter_ms = iv->streams[i].jitter_ms;
				v->rx_live = true;
			}
		/* UDP: the rows' counts are the test's so far */
		for (int i = 0; v->proto == PS_PROTO_UDP && i < n; i++) {
			v->udp_packets[i] += iv->streams[i].packets;
			v->udp_lost[i] += iv->streams[i].lost > 0
						  ? iv->streams[i].lost
						  : 0;
		}
		/* UDP a pipescope server receives: its totals so far */
		far_udp(v, iv);
		v->rx_lost = v->rx_lost_here + v->rx_lost_far;
		v->rx_packets = v->rx_packets_here + v->rx_packets_far;
	}
	/* the checks' step, as "pipescope check" sums it */
	ps_session_interval(&m->sess, iv);
	for (int i = 0; v->proto == PS_PROTO_UDP && i < n; i++) {
		/* a receiver's loss is of what was sent: arrived + lost */
		v->streams[i].packets =
			v->udp_packets[i] +
			(v->streams[i].sender ? 0 : (uint64_t)v->udp_lost[i]);
		v->streams[i].lost = v->udp_lost[i];
	}
	v->elapsed = iv->end;
	hist_add(v, plotted(v, iv, n, far_rx, far, now));
	v->gen++;
	pthread_mutex_unlock(&m->lock);
	ui_model_wake(m);
}

/* the final rows are the test's: a stream the far end sent shows its
 * retransmits of the whole test (its results), not of its last interval */
static void far_retrans(struct ui_test_view *v, const struct ps_summary *sum,
			int i)
{
	const struct ps_stream_iv *r = &sum->local[i];

	if (r->sender || !sum->remote_valid || !sum->remote_retrans ||
	    sum->remote_retrans[i] < 0)
		return;
	for (int k = 0; k < v->nremote; k++)
		if (v->remote[k].id == r->id && v->remote[k].has_tcpinfo)
			v->remote[k].retrans = sum->remote_retrans[i];
}

/*
 * Under the lock: the rows become the test's averages, and for UDP each
 * carries the receiver's loss and jitter (the far end's results for the
 * streams this end sends); a test without the far end's results (stopped,
 * failed) keeps only this end's, and says so.
 */
static void end_rows(struct ui_test_view *v, const struct ps_summary *sum)
{
	int n = sum->nstreams < UI_MAX_ROWS ? sum->nstreams : UI_MAX_ROWS;
	int njit = 0;
	double jit = 0;

	v->end_known = sum->remote_valid;
	v->end_partial = sum->partial;
	if (n <= 0 || !sum->local)
		return;
	v->nstreams = n;
	v->rx_lost = v->rx_packets = 0;
	v->rx_live = false;
	for (int i = 0; i < n; i++) {
		struct ps_stream_iv *r = &v->streams[i];

		*r = sum->local[i];
		if (v->proto != PS_PROTO_UDP) {
			far_retrans(v, sum, i);
			continue;
		}
		if (r->sender) {
			if (!sum->remote_valid) {
				r->packets = 0; /* the receiver's: unknown */
				continue;
			}
			/* of the packets sent (the sender's own count) */
			r->lost = sum->remote_errors[i];
			r->jitter_ms = sum->remote_jitter_ms[i];
		} else if (r->lost > 0) {
			/* this end counted what arrived: of arrived + lost */
			r->packets += (uint64_t)r->lost;
		}
		v->rx_lost += r->lost > 0 ? r->lost : 0;
		v->rx_packets += (int64_t)r->packets;
		jit += r->jitter_ms;
		njit++;
	}
	v->rx_jitter_ms = njit ? jit / njit : 0;
	v->rows_avg = true;
}

static void on_end(void *arg, const struct ps_test_info *info,
		   const struct ps_summary *sum)
{
	struct ui_model *m = arg;
	struct ui_test_view *v = &m->v;

	pthread_mutex_lock(&m->lock);
	/* what the results told of an iperf3 peer ("<=3.13") */
	if (info->peer_version[0])
		snprintf(v->peer_version, sizeof(v->peer_version), "%s",
			 info->peer_version);
	/* as iperf3's end.sum_sent / sum_received: each stream's sender's
	 * and receiver's count, whichever end that was (both ways summed) */
	{
		double sent, received;

		ps_summary_bytes(sum, &sent, &received);
		v->end_bps[0] =
			sum->duration > 0 ? sent * 8 / sum->duration : 0;
		v->end_bps[1] =
			sum->duration > 0 ? received * 8 / sum->duration : 0;
		v->end_duration = sum->duration;
	}
	end_rows(v, sum);
	ps_session_end(&m->sess, info, sum);
	v->have_end = true;
	v->cpu_local = sum->cpu_local_total;
	v->cpu_remote = sum->remote_valid ? sum->cpu_remote_total : -1;
	v->gen++;
	pthread_mutex_unlock(&m->lock);
	ui_model_wake(m);
}

static void on_error(void *arg, const char *msg)
{
	struct ui_model *m = arg;
	bool asked = atomic_load(&m->stop);

	pthread_mutex_lock(&m->lock);
	/* "interrupted" after s or a restart is what was asked for */
	if (!asked)
		snprintf(m->v.error, sizeof(m->v.error), "%s", msg);
	snprintf(m->v.message, sizeof(m->v.message), "%s", msg);
	m->v.message_level = asked ? 0 : 2;
	m->v.message_gen++;
	m->v.gen++;
	pthread_mutex_unlock(&m->lock);
	ui_model_wake(m);
}

static void on_message(void *arg, const char *msg)
{
	struct ui_model *m = arg;

	pthread_mutex_lock(&m->lock);
	snprintf(m->v.message, sizeof(m->v.message), "%s", msg);
	m->v.message_level = 0;
	m->v.message_gen++;
	m->v.gen++;
	pthread_mutex_unlock(&m->lock);
	ui_model_wake(m);
}

void ui_model_say(struct ui_model *m, int level, const char *msg)
{
	pthread_mutex_lock(&m->lock);
	snprintf(m->v.message, sizeof(m->v.message), "%s", msg);
	m->v.message_level = level;
	m->v.message_gen++;
	m->v.gen++;
	pthread_mutex_unlock(&m->lock);
	ui_model_wake(m);
}

void ui_model_reporter(struct ui_model *m, struct ps_reporter *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->start = on_start;
	rep->interval = on_interval;
	rep->end = on_end;
	rep->error = on_error;
	rep->message = on_message;
	rep->arg = m;
}

/* ---- the worker ------------------------------------------------------- */

/* the test failed because nothing listens there: no server to wait for */
static bool refused(struct ui_model *m)
{
	bool r;

	pthread_mutex_lock(&m->lock);
	r = strstr(m->v.error, strerror(ECONNREFUSED)) != NULL;
	pthread_mutex_unlock(&m->lock);
	return r;
}

/*
 * A restart follows the end of the previous test at once, and the server
 * may still be closing it ("busy"): a restart that fails within a second
 * is tried again, up to about ten seconds.
 */
static void *worker(void *arg)
{
	struct ui_model *m = arg;
	struct ps_reporter rep;
	int rc;

	ui_model_reporter(m, &rep);
	/* its text and -J reports, for w */
	ps_capture_wrap(&rep, &m->co, &m->cap);
	/* each finished test into the run history (src/history) */
	ps_hist_wrap_reporter(&rep, &m->co, "screen");
	for (int attempt = 0;; attempt++) {
		int64_t t0 = ps_mono_ns();

		rc = ps_client_run(&m->co, &rep, &m->stop);
		if (!rc || !m->retry || atomic_load(&m->stop) || refused(m) ||
		    attempt >= 40 || ps_mono_ns() - t0 > 1000000000LL)
			break;
		pthread_mutex_lock(&m->lock);
		m->v.error[0] = 0;
		m->v.state = UI_TEST_CONNECTING;
		snprintf(m->v.message, sizeof(m->v.message), "%s",
			 _("waiting for the server to finish the last test"));
		m->v.message_level = 0;
		m->v.message_gen++;
		m->v.gen++;
		pthread_mutex_unlock(&m->lock);
		ui_model_wake(m);
		for (int i = 0; i < 5 && !atomic_load(&m->stop); i++)
			usleep(50000);
	}
	ps_report_destroy(&rep);
	pthread_mutex_lock(&m->lock);
	/* ended without its summary: the readings it had are its window */
	if (!m->sess.ended)
		ps_session_freeze(&m->sess);
	m->rc = rc;
	m->v.state =
		rc && !atomic_load(&m->stop) ? UI_TEST_FAILED : UI_TEST_DONE;
	m->v.gen++;
	pthread_mutex_unlock(&m->lock);
	atomic_store(&m->finished, true);
	ui_model_wake(m);
	return NULL;
}

/* a new test: the view starts from nothing (under the lock) */
static void view_reset(struct ui_test_view *v, const struct ps_opts *co)
{
	v->state = UI_TEST_CONNECTING;
	v->runs++;
	v->proto = co->proto;
	v->reverse = co->reverse;
	v->bidir = co->bidir;
	v->parallel = co->parallel;
	v->duration = co->duration;
	v->started_ns = ps_mono_ns();
	v->elapsed = 0;
	v->nstreams = v->nremote = 0;
	v->nspark = 0;
	v->have_sum[0] = v->have_sum[1] = false;
	v->now_bps = v->bytes_total = v->time_total = 0;
	v->have_end = false;
	v->end_known = v->end_partial = v->stopped = v->rows_avg = false;
	v->have_step = false;
	v->target_bps = (double)co->rate;
	v->rx_lost = v->rx_packets = 0;
	v->rx_lost_here = v->rx_packets_here = 0;
	v->rx_lost_far = v->rx_packets_far = 0;
	memset(v->udp_packets, 0, sizeof(v->udp_packets));
	memset(v->udp_lost, 0, sizeof(v->udp_lost));
	v->rx_jitter_ms = 0;
	v->rx_live = false;
	v->far_rx_bps = -1;
	v->error[0] = 0;
	v->peer_kind[0] = v->peer_version[0] = 0;
	if (co->ntargets > 0)
		snprintf(v->target, sizeof(v->target), "%s:%d",
			 co->targets[0].host,
			 co->targets[0].port ? co->targets[0].port : co->port);
	if (v->nhist)
		hist_add(v, 0); /* a gap between tests */
	v->hist_start = v->nhist;
	v->gen++;
}

int ui_model_start(struct ui_model *m, const struct ps_opts *co, bool retry)
{
	struct ui_test_view *v = &m->v;
	int rc;

	if (m->th_live)
		return -EBUSY;
	m->co = *co;
	m->retry = retry;
	atomic_store(&m->stop, false);
	atomic_store(&m->finished, false);

	pthread_mutex_lock(&m->lock);
	view_reset(v, co);
	pthread_mutex_unlock(&m->lock);

	/* the engine's threads inherit a mask with every signal blocked */
	rc = ps_thread_start(&m->th, worker, m);
	if (rc) {
		pthread_mutex_lock(&m->lock);
		v->state = UI_TEST_FAILED;
		snprintf(v->error, sizeof(v->error), "%s", strerror(rc));
		pthread_mutex_unlock(&m->lock);
		return -rc;
	}
	m->th_live = true;
	return 0;
}

void ui_model_stop(struct ui_model *m)
{
	if (!m->th_live || atomic_load(&m->finished))
		return;
	atomic_store(&m->stop, true);
	pthread_mutex_lock(&m->lock);
	if (m->v.state == UI_TEST_RUNNING || m->v.state == UI_TEST_CONNECTING)
		m->v.state = UI_TEST_STOPPING;
	m->v.stopped = true;
	m->v.gen++;
	pthread_mutex_unlock(&m->lock);
}

bool ui_model_reap(struct ui_model *m)
{
	if (!m->th_live)
		return true;
	if (!atomic_load(&m->finished))
		return false;
	pthread_join(m->th, NULL);
	m->th_live = false;
	return true;
}

bool ui_model_busy(struct ui_model *m)
{
	return m->th_live && !atomic_load(&m->finished);
}

/* ---- tests run by someone else (the guided run) ----------------------- */

void ui_model_feed_begin(struct ui_model *m, const struct ps_opts *co,
			 double duration)
{
	char kind[sizeof(m->v.peer_kind)], version[sizeof(m->v.peer_version)];

	pthread_mutex_lock(&m->lock);
	memcpy(kind, m->v.peer_kind, sizeof(kind));
	memcpy(version, m->v.peer_version, sizeof(version));
	view_reset(&m->v, co);
	/* its session comes with its first interval */
	ext_clear(m);
	ps_session_free(&m->sess);
	/* the same peer as the run's last test */
	memcpy(m->v.peer_kind, kind, sizeof(kind));
	memcpy(m->v.peer_version, version, sizeof(version));
	m->v.proto = PS_PROTO_TCP;
	m->v.duration = duration;
	m->v.parallel = 0; /* the first interval says */
	m->v.reverse = m->v.bidir = false;
	pthread_mutex_unlock(&m->lock);
	ui_model_wake(m);
}

void ui_model_feed_interval(struct ui_model *m, const struct ps_interval *iv)
{
	int send = 0, recv = 0;

	for (int i = 0; i < iv->nstreams; i++) {
		if (iv->streams[i].sender)
			send++;
		else
			recv++;
	}
	pthread_mutex_lock(&m->lock);
	m->v.bidir = send && recv;
	m->v.reverse = !send && recv;
	m->v.parallel = send > recv ? send : recv;
	if (m->v.state == UI_TEST_CONNECTING)
		m->v.state = UI_TEST_RUNNING;
	pthread_mutex_unlock(&m->lock);
	on_interval(m, iv);
}

void ui_model_feed_end(struct ui_model *m, const struct ps_step_result *s,
		       const char *peer_kind, const char *peer_version)
{
	pthread_mutex_lock(&m->lock);
	m->v.state = s->state != PS_STEP_FAILED ? UI_TEST_DONE : UI_TEST_FAILED;
	m->v.stopped = s->state == PS_STEP_SKIPPED;
	m->v.have_step = s->state == PS_STEP_DONE;
	m->v.step_bps = s->bps + (s->bidir ? s->bps_back : 0);
	m->v.step_seconds = s->seconds;
	m->v.step_runs = s->nruns > 1 ? s->nruns : 1;
	if (peer_kind && *peer_kind) {
		snprintf(m->v.peer_kind, sizeof(m->v.peer_kind), "%s",
			 peer_kind);
		snprintf(m->v.peer_version, sizeof(m->v.peer_version), "%s",
			 peer_version ? peer_version : "");
	}
	m->v.gen++;
	pthread_mutex_unlock(&m->lock);
	ui_model_wake(m);
}

void ui_model_feed_session(struct ui_model *m, const struct ps_session *s)
{
	pthread_mutex_lock(&m->lock);
	ext_clear(m);
	ps_session_step(s, &m->ext_step);
	m->ext_base = (struct ps_snapshot *)ps_session_base(s);
	m->ext_peer_base = (struct ps_snapshot *)ps_session_peer_base(s);
	ps_snapshot_get(m->ext_base);
	ps_snapshot_get(m->ext_peer_base);
	m->ext_valid = true;
	pthread_mutex_unlock(&m->lock);
}

/* ---- the shown test as the checks read it (the UI thread) ------------- */

void ui_model_local(struct ui_model *m, struct ps_snapshot *snap)
{
	pthread_mutex_lock(&m->lock);
	ps_session_local(&m->sess, snap);
	pthread_mutex_unlock(&m->lock);
}

bool ui_model_step(struct ui_model *m, struct ps_step_result *out)
{
	bool ok = true;

	pthread_mutex_lock(&m->lock);
	if (m->ext_valid) {
		*out = m->ext_step;
		if (out->have_cpu)
			ps_cpu_copy(&out->cpu, &m->ext_step.cpu);
	} else if (m->sess.begun) {
		ps_session_step(&m->sess, out);
	} else {
		ok = false;
	}
	pthread_mutex_unlock(&m->lock);
	return ok;
}

void ui_model_bases(struct ui_model *m, struct ps_snapshot **here,
		    struct ps_snapshot **far)
{
	pthread_mutex_lock(&m->lock);
	*here = m->ext_valid ? m->ext_base
			     : (struct ps_snapshot *)ps_session_base(&m->sess);
	*far = m->ext_valid
		       ? m->ext_peer_base
		       : (struct ps_snapshot *)ps_session_peer_base(&m->sess);
	ps_snapshot_get(*here);
	ps_snapshot_get(*far);
	pthread_mutex_unlock(&m->lock);
}

void ui_model_finish(struct ui_model *m)
{
	if (!m->th_live)
		return;
	atomic_store(&m->stop, true);
	pthread_join(m->th, NULL);
	m->th_live = false;
}
