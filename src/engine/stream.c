/* stream.c: the data streams' threads: one per stream, or, with more
 * streams than CPUs, one per CPU polling several streams (epoll); each
 * sends or receives as fast as allowed (TCP and the loops; what only UDP
 * does is in stream-udp.c) */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "net.h"
#include "stream-udp.h"
#include "nls.h"
#include "test.h"
#include "xmalloc.h"

#ifndef SO_INCOMING_CPU
#define SO_INCOMING_CPU 49
#endif

int ps_stream_id(int index)
{
	/* iperf3 numbers streams 1, 3, 4, 5, …: a wart every version keeps */
	return index == 0 ? 1 : index + 2;
}

static void fill_payload(char *buf, size_t len, bool repeating)
{
	if (repeating) {
		for (size_t i = 0; i < len; i++)
			buf[i] = (char)('0' + i % 10);
		return;
	}
	/* incompressible bytes, as iperf3 sends */
	unsigned int seed =
		(unsigned int)(uintptr_t)buf ^ (unsigned int)time(NULL);

	for (size_t i = 0; i < len; i++)
		buf[i] = (char)rand_r(&seed);
}

/* a grouped stream's buffer: its worker's, one for senders, one for
 * receivers (a thread serves one stream at a time, so they can share) */
static char *worker_buf(struct ps_stream *s)
{
	struct ps_worker *w = &s->t->workers[s->worker];
	char **b = s->sender ? &w->txbuf : &w->rxbuf;
	/* a GSO batch stays under 64 KiB; one datagram may be longer */
	size_t size = !s->udp	  ? s->len
		      : s->sender ? s->len
				  : (size_t)PS_UDP_RX_BUF * PS_UDP_RX_BATCH;

	if (!*b) {
		*b = xmalloc(size);
		fill_payload(*b, size, s->t->p.repeating_payload);
	}
	s->shared_buf = true;
	return *b;
}

struct ps_stream *ps_stream_new(struct ps_test *t, int fd, int id, bool sender,
				int target)
{
	struct ps_stream *s = xcalloc(1, sizeof(*s));
	const struct ps_params *p = &t->p;
	struct timeval tv = { .tv_sec = 0, .tv_usec = 250000 };

	s->t = t;
	s->fd = fd;
	s->id = id;
	s->sender = sender;
	s->target = target;
	s->udp = p->proto == PS_PROTO_UDP;
	s->cpu_pin = -1;
	s->file_fd = -1;
	s->rx_cpu = -1;
	s->len = p->len;
	s->gso_segs = 1;
	/* the caller appends it next: t->nstreams is its index */
	s->worker = t->nworkers ? t->nstreams % t->nworkers : -1;
	if (s->udp)
		ps_stream_udp_setup(s);
	if (s->worker >= 0) {
		s->buf = worker_buf(s);
	} else {
		size_t size = s->udp && !sender
				      ? (size_t)PS_UDP_RX_BUF * PS_UDP_RX_BATCH
				      : s->len * s->gso_segs;

		s->buf = xmalloc(size);
		fill_payload(s->buf, size, p->repeating_payload);
	}
	atomic_store(&s->cpu, -1);
	/* short socket timeouts let a blocked thread see the stop flags */
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return s;
}

void ps_stream_free(struct ps_stream *s)
{
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	if (s->file_fd >= 0)
		close(s->file_fd);
	if (!s->shared_buf)
		free(s->buf);
	free(s);
}

static void sleep_until(double t)
{
	struct timespec ts;
	double now = ps_now();

	if (t <= now)
		return;
	t -= now;
	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
}

static bool reserve(struct ps_stream *s, size_t len)
{
	struct ps_test *t = s->t;

	if (t->p.blocks && atomic_fetch_add(&t->sent_blocks, 1) >= t->p.blocks)
		return false;
	if (t->p.bytes && atomic_fetch_add(&t->sent_bytes, len) >= t->p.bytes)
		return false;
	return true;
}

/* UDP: a full socket buffer or an ICMP error is loss, not the end */
static bool udp_send_dropped(const struct ps_stream *s)
{
	return s->udp && (errno == ENOBUFS || errno == ECONNREFUSED);
}

/* n more bytes sent (block: one more block): what the control thread reads */
static void tx_count(struct ps_stream *s, size_t n, uint64_t seq, bool block)
{
	s->mine += n;
	atomic_store_explicit(&s->bytes, s->mine, memory_order_relaxed);
	if (block)
		atomic_fetch_add_explicit(&s->blocks, 1, memory_order_relaxed);
	if (s->udp)
		atomic_store_explicit(&s->packets, seq, memory_order_relaxed);
}

/* -b: when the stream may send again, or 0 when it may now */
static double tx_due(const struct ps_stream *s)
{
	const struct ps_params *p = &s->t->p;
	double due;

	if (!p->rate || (!s->udp && p->fq_rate))
		return 0;
	due = s->tx_start + s->mine * 8.0 / (double)p->rate;
	return due > ps_now() ? due : 0;
}

/*
 * One block in pieces of t->tx_piece (see ps_streams_plan_pieces): the bytes
 * sent (all of len unless the test stopped or a send failed), or -1 with errno
 * when nothing was. A piece cut short is finished before the next.
 */
static ssize_t send_pieces(struct ps_stream *s, size_t len, int flags)
{
	struct ps_test *t = s->t;
	size_t off = 0;

	while (off < len) {
		size_t piece =
			len - off < t->tx_piece ? len - off : t->tx_piece;
		off_t at = (off_t)off;
		/* -Z: the same bytes from the memory file */
		ssize_t n = s->file_fd >= 0
				    ? sendfile(s->fd, s->file_fd, &at, piece)
				    : send(s->fd, s->buf + off, piece, flags);

		if (n < 0) {
			if ((errno == EAGAIN || errno == EINTR) &&
			    !atomic_load_explicit(&t->done,
						  memory_order_relaxed))
				continue;
			if (off)
				break;
			return -1;
		}
		off += (size_t)n;
	}
	return (ssize_t)off;
}

static int send_loop(struct ps_stream *s)
{
	struct ps_test *t = s->t;
	uint64_t seq = 0;
	int flags = MSG_NOSIGNAL;
	bool use_sendfile = s->file_fd >= 0 && !s->udp && !s->from_file;

	s->tx_start = ps_now();
	while (!atomic_load_explicit(&t->done, memory_order_relaxed)) {
		ssize_t n;
		double due;

		size_t len = s->len * s->gso_segs;

		if (!reserve(s, len))
			break;
		if (s->udp) {
			for (unsigned k = 0; k < s->gso_segs; k++)
				ps_udp_stamp(s, s->buf + k * s->len, ++seq);
		}
		if (s->from_file) {
			/* -F: what the disk gives, as fast as it gives it */
			ssize_t got = read(s->file_fd, s->buf, s->len);
			int rc;

			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0)
				return got < 0 ? errno : 0;
			rc = ps_write_full(s->fd, s->buf, (size_t)got);
			n = rc ? -1 : got;
			if (rc)
				errno = -rc;
		} else if (t->tx_piece && !s->udp) {
			n = send_pieces(s, len, flags);
		} else if (use_sendfile) {
			off_t off = 0;

			n = sendfile(s->fd, s->file_fd, &off, len);
		} else {
			n = send(s->fd, s->buf, len, flags);
		}
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			if (udp_send_dropped(s)) {
				seq -= s->gso_segs; /* not sent: not lost */
				continue;
			}
			return errno;
		}
		tx_count(s, (size_t)n, seq, true);
		if ((due = tx_due(s)) > 0)
			sleep_until(due);
	}
	return 0;
}

static int write_file(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* one receive into s->buf (UDP: counted already): bytes, 0 at the
 * sender's end, or -1 with errno */
static ssize_t rx_once(struct ps_stream *s)
{
	int flags = s->t->skip_rx_copy && !s->udp ? MSG_TRUNC : 0;

	if (s->udp)
		return ps_udp_recv(s);
	return recv(s->fd, flags & MSG_TRUNC ? NULL : s->buf, s->len, flags);
}

/* n bytes just received: count them, and write them out for -F */
static void rx_count(struct ps_stream *s, size_t n)
{
	s->mine += n;
	atomic_store_explicit(&s->bytes, s->mine, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->t->moved_bytes, n, memory_order_relaxed);
	if (s->file_fd >= 0 && write_file(s->file_fd, s->buf, n)) {
		int e = errno;

		close(s->file_fd);
		s->file_fd = -1;
		ps_warn(_("stopped writing the received file: %s"),
			strerror(e));
	}
}

/*
 * A TCP receiver asks to be woken for about RX_BATCH_S of its own rate at
 * once (SO_RCVLOWAT), not for every segment: on loopback one stream moved
 * 27.6 Gbit/s woken per segment and 44 with 512 KiB batches (the wake-ups
 * and the window updates each read sends are what it saves). The size
 * follows the stream's rate, re-read every RX_BATCH_EVERY seconds, so a
 * slow stream is read as it comes and an interval's bytes are at most
 * RX_BATCH_S late; below RX_BATCH_MIN it is off. A receive still returns
 * at the 250 ms socket timeout with what it has.
 */
#define RX_BATCH_S 0.002
#define RX_BATCH_EVERY 0.1
#define RX_BATCH_MIN (64 * 1024)
#define RX_BATCH_MAX (512 * 1024)
#define RX_BATCH_MAX_WORKER (128 * 1024)

static void rx_batch(struct ps_stream *s)
{
	double now = ps_now(), rate;
	int lw, max = s->worker >= 0 ? RX_BATCH_MAX_WORKER : RX_BATCH_MAX;

	if (s->udp || now < s->lw_next)
		return;
	if (s->lw_next > 0) {
		rate = (double)(s->mine - s->lw_bytes) / (now - s->lw_t);
		lw = rate * RX_BATCH_S > max ? max : (int)(rate * RX_BATCH_S);
		if (lw < RX_BATCH_MIN)
			lw = 1; /* the kernel's default */
		if ((size_t)lw > s->len)
			lw = (int)s->len;
		if (lw != atomic_load_explicit(&s->lowat,
					       memory_order_relaxed) &&
		    setsockopt(s->fd, SOL_SOCKET, SO_RCVLOWAT, &lw,
			       sizeof(lw)) == 0)
			atomic_store_explicit(&s->lowat, lw,
					      memory_order_relaxed);
	}
	s->lw_t = now;
	s->lw_bytes = s->mine;
	s->lw_next = now + RX_BATCH_EVERY;
}

static int recv_loop(struct ps_stream *s)
{
	struct ps_test *t = s->t;

	while (!atomic_load_explicit(&t->rx_done, memory_order_relaxed)) {
		ssize_t n = rx_once(s);

		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			if (s->udp && errno == ECONNREFUSED)
				continue;
			return errno;
		}
		if (n == 0) {
			if (s->udp)
				continue;
			break; /* the sender closed: done */
		}
		rx_count(s, (size_t)n);
		rx_batch(s);
	}
	return 0;
}

/* a thread, or a worker, sees the stop signals only in the control thread */
static void thread_setup(const struct ps_test *t, int cpu_pin, const char *name)
{
	sigset_t set;

	/* named, so /proc/PID/task/N/comm tells them from other threads */
	pthread_setname_np(pthread_self(), name);
	sigfillset(&set);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (cpu_pin >= 0) {
		cpu_set_t cs;

		CPU_ZERO(&cs);
		CPU_SET(cpu_pin, &cs);
		pthread_setaffinity_np(pthread_self(), sizeof(cs), &cs);
	} else if (t->place.applied) {
		pthread_setaffinity_np(pthread_self(), sizeof(t->place.set),
				       &t->place.set);
	}
}

/* the stream's thread ended with err: the stop itself is no failure */
static void stream_ended(struct ps_stream *s, int err)
{
	if (atomic_load(s->sender ? &s->t->done : &s->t->rx_done))
		err = 0;
	atomic_store(&s->err, err);
	atomic_store(&s->finished, true);
}

static void *stream_main(void *arg)
{
	struct ps_stream *s = arg;

	thread_setup(s->t, s->cpu_pin, "ps-stream");
	atomic_store(&s->cpu, sched_getcpu());
	stream_ended(s, s->sender ? send_loop(s) : recv_loop(s));
	return NULL;
}

static int stream_start(struct ps_stream *s)
{
	int rc = pthread_create(&s->thread, NULL, stream_main, s);

	if (rc)
		return -rc;
	s->running = true;
	return 0;
}

/*
 * A worker's step for one ready stream: 0 to wait (EAGAIN, or -b parked
 * it), -1 at its end, else the errno that ended it. A sender moves at most
 * WORKER_TX_BURST pieces of WORKER_TX_PIECE bytes of its block before the
 * next stream's turn (a 1 MiB block at once would let 64 streams take
 * turns of 64 MiB: some would stall for whole intervals); a receiver
 * reads at most WORKER_RX_BURST times.
 */
#define WORKER_TX_PIECE (128 * 1024)
#define WORKER_TX_BURST 2
#define WORKER_RX_BURST 4

static void worker_arm(struct ps_worker *w, struct ps_stream *s, int op)
{
	struct epoll_event ev = { .data.ptr = s };

	/* parked (-b): no events until due; a hang-up still comes */
	if (!s->due)
		ev.events = s->sender ? EPOLLOUT : EPOLLIN;
	epoll_ctl(w->epfd, op, s->fd, &ev);
}

static int worker_tx(struct ps_worker *w, struct ps_stream *s)
{
	size_t len = s->len * s->gso_segs;
	size_t max = w->t->tx_piece;
	int burst = w->t->tx_burst;

	for (int k = 0; k < burst; k++) {
		size_t off, piece;
		ssize_t n;

		if (!s->pend) {
			if (!reserve(s, len))
				return -1;
			s->pend = len;
		}
		off = len - s->pend;
		/* UDP: the datagrams (one GSO batch) go whole */
		piece = s->udp || s->pend < max ? s->pend : max;
		/* the buffer is shared: number the datagrams on each try */
		for (unsigned g = 0; s->udp && g < s->gso_segs; g++)
			ps_udp_stamp(s, s->buf + g * s->len, s->tx_seq + 1 + g);
		if (s->file_fd >= 0 && !s->udp) {
			off_t o = (off_t)off;

			n = sendfile(s->fd, s->file_fd, &o, piece);
		} else {
			n = send(s->fd, s->buf + off, piece, MSG_NOSIGNAL);
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return 0;
			if (!udp_send_dropped(s))
				return errno;
			s->pend = 0; /* not sent: not lost */
			continue;
		}
		if (s->udp)
			s->tx_seq += s->gso_segs;
		s->pend -= (size_t)n;
		tx_count(s, (size_t)n, s->tx_seq, !s->pend);
		if ((s->due = tx_due(s)) > 0) {
			worker_arm(w, s, EPOLL_CTL_MOD);
			return 0;
		}
	}
	return 0;
}

static int worker_rx(struct ps_stream *s)
{
	for (int k = 0; k < WORKER_RX_BURST; k++) {
		ssize_t n = rx_once(s);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN ||
			    (s->udp && errno == ECONNREFUSED))
				return 0;
			return errno;
		}
		if (n == 0)
			return s->udp ? 0 : -1; /* TCP: the sender closed */
		rx_count(s, (size_t)n);
		rx_batch(s);
	}
	return 0;
}

static bool stream_stopped(const struct ps_stream *s)
{
	return atomic_load_explicit(s->sender ? &s->t->done : &s->t->rx_done,
				    memory_order_relaxed);
}

static void worker_retire(struct ps_worker *w, struct ps_stream *s, int err)
{
	epoll_ctl(w->epfd, EPOLL_CTL_DEL, s->fd, NULL);
	s->retired = true;
	stream_ended(s, err);
}

static void *worker_main(void *arg)
{
	struct ps_worker *w = arg;
	struct ps_test *t = w->t;
	struct ps_stream *mine[2 * PS_MAX_STREAMS * PS_MAX_TARGETS];
	struct epoll_event ev[64];
	int n = 0, live;

	for (int i = 0; i < t->nstreams; i++)
		if (t->streams[i]->worker == w->idx)
			mine[n++] = t->streams[i];
	thread_setup(t, n ? mine[0]->cpu_pin : -1, "ps-worker");
	for (int i = 0; i < n; i++) {
		struct ps_stream *s = mine[i];

		fcntl(s->fd, F_SETFL, fcntl(s->fd, F_GETFL) | O_NONBLOCK);
		atomic_store(&s->cpu, sched_getcpu());
		s->tx_start = ps_now();
		worker_arm(w, s, EPOLL_CTL_ADD);
	}
	live = n;
	while (live > 0) {
		double now = ps_now(), next = now + 0.1;
		int got;

		for (int i = 0; i < n; i++) {
			struct ps_stream *s = mine[i];

			if (s->retired)
				continue;
			if (stream_stopped(s)) {
				worker_retire(w, s, 0);
				live--;
			} else if (s->due && s->due <= now) {
				s->due = 0;
				worker_arm(w, s, EPOLL_CTL_MOD);
			} else if (s->due && s->due < next) {
				next = s->due;
			}
		}
		if (!live)
			break;
		got = epoll_wait(w->epfd, ev, 64,
				 (int)((next - now) * 1000) + 1);
		for (int i = 0; i < got; i++) {
			struct ps_stream *s = ev[i].data.ptr;
			int rc;

			if (!s) { /* the wake-up: the stop flags are read next
				   */
				uint64_t v;
				ssize_t r = read(w->wakefd, &v, sizeof(v));

				(void)r;
				continue;
			}
			if (s->retired ||
			    (s->due && !(ev[i].events & (EPOLLHUP | EPOLLERR))))
				continue;
			rc = s->sender ? worker_tx(w, s) : worker_rx(s);
			if (rc) {
				worker_retire(w, s, rc < 0 ? 0 : rc);
				live--;
			}
		}
	}
	return NULL;
}

void ps_streams_plan(struct ps_test *t, int parallel, bool files)
{
	cpu_set_t cs;
	int ncpu = 1;

	if (t->place.applied)
		ncpu = CPU_COUNT(&t->place.set);
	else if (sched_getaffinity(0, sizeof(cs), &cs) == 0 &&
		 CPU_COUNT(&cs) > 0)
		ncpu = CPU_COUNT(&cs);
	t->ncpu = ncpu;
	if (t->workers)
		return; /* planned already */
	t->nworkers = 0;
	/* -F reads and writes files in the streams' loops: one thread each */
	if (files || parallel <= ncpu)
		return;
	t->nworkers = ncpu;
	t->workers = xcalloc((size_t)ncpu, sizeof(*t->workers));
	for (int i = 0; i < ncpu; i++) {
		t->workers[i].t = t;
		t->workers[i].idx = i;
		t->workers[i].epfd = t->workers[i].wakefd = -1;
	}
}

int ps_streams_threads(const struct ps_test *t)
{
	return t->nworkers ? t->nworkers : t->nstreams;
}

static int worker_start(struct ps_worker *w)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
	int rc;

	w->epfd = epoll_create1(EPOLL_CLOEXEC);
	w->wakefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (w->epfd < 0 || w->wakefd < 0 ||
	    epoll_ctl(w->epfd, EPOLL_CTL_ADD, w->wakefd, &ev))
		return -errno;
	rc = pthread_create(&w->thread, NULL, worker_main, w);
	if (rc)
		return -rc;
	w->running = true;
	return 0;
}

/*
 * What a TCP sender hands the kernel at a time (t->tx_piece, t->tx_burst).
 * By default a whole block (-l, 1 MiB) with a thread per stream, and
 * WORKER_TX_BURST pieces of WORKER_TX_PIECE on a worker. When the far end
 * is this host and this end's senders fill its CPUs (one or more on each,
 * a few to a worker, and no receiver of its own beside them: not --bidir),
 * each receiver runs on a CPU where a sender runs and copies what that
 * sender just wrote: it finds it in the CPU's cache if the pieces are
 * small. Measured on loopback, 2 CPUs: -P 2 went from 28-31 to 53-75
 * Gbit/s in 32 KiB pieces, -P 4 on two workers from 31 to 45; -P 1 (a CPU
 * each for the sender and the receiver) fell from 37-41 to 15, and 64
 * streams a worker (-P 128) fell too (the data waits for the receiver's
 * turn on 63 others and the cache has moved on), so they keep the
 * default. What TCP puts on the wire does not change: it appends pieces to
 * its segments.
 */
#define TX_PIECE_LOCAL (32 * 1024)
#define TX_LOCAL_MAX_PER_WORKER 8

void ps_streams_plan_pieces(struct ps_test *t)
{
	int senders = 0, receivers = 0;
	bool local = false;

	t->tx_piece = t->nworkers ? WORKER_TX_PIECE : 0;
	t->tx_burst = WORKER_TX_BURST;
	for (int i = 0; i < t->nstreams; i++) {
		const struct ps_stream *s = t->streams[i];

		/* UDP datagrams go whole; -F: at the disk's pace */
		if (s->udp || s->from_file ||
		    (s->file_fd >= 0 && !t->p.zerocopy))
			return;
		if (s->sender)
			senders++;
		else
			receivers++;
		if (i == 0)
			local = t->peer_same_kernel ||
				ps_sock_peer_local(s->fd);
	}
	if (!local || receivers || senders < t->ncpu ||
	    (t->nworkers && senders > TX_LOCAL_MAX_PER_WORKER * t->nworkers))
		return;
	t->tx_piece = TX_PIECE_LOCAL;
	/* a worker's turn stays WORKER_TX_BURST x WORKER_TX_PIECE bytes */
	t->tx_burst = WORKER_TX_BURST * WORKER_TX_PIECE / TX_PIECE_LOCAL;
}

int ps_streams_start(struct ps_test *t)
{
	ps_streams_plan_pieces(t);
	for (int i = 0; i < t->nworkers; i++) {
		int rc = worker_start(&t->workers[i]);

		if (rc)
			return rc;
		for (int k = 0; k < t->nstreams; k++)
			if (t->streams[k]->worker == i)
				t->streams[k]->running = true;
	}
	for (int i = 0; i < t->nstreams; i++) {
		int rc;

		if (t->streams[i]->worker >= 0)
			continue;
		rc = stream_start(t->streams[i]);
		if (rc)
			return rc;
	}
	return 0;
}

/* join a worker once every stream it serves stops (or has ended) */
static void worker_stop(struct ps_worker *w, bool senders, bool receivers)
{
	struct ps_test *t = w->t;
	uint64_t one = 1;

	if (!w->running)
		return;
	if (write(w->wakefd, &one, sizeof(one)) < 0)
		ps_debug("waking a stream worker: %s", strerror(errno));
	for (int i = 0; i < t->nstreams; i++) {
		struct ps_stream *s = t->streams[i];

		if (s->worker == w->idx && !(s->sender ? senders : receivers) &&
		    !atomic_load(&s->finished))
			return;
	}
	pthread_join(w->thread, NULL);
	w->running = false;
	for (int i = 0; i < t->nstreams; i++)
		if (t->streams[i]->worker == w->idx)
			t->streams[i]->running = false;
}

void ps_streams_stop(struct ps_test *t, bool senders, bool receivers)
{
	if (senders)
		atomic_store(&t->done, true);
	if (receivers)
		atomic_store(&t->rx_done, true);
	for (int i = 0; i < t->nstreams; i++) {
		struct ps_stream *s = t->streams[i];

		if (!s->running || (s->sender ? !senders : !receivers))
			continue;
		/*
		 * Wake a thread blocked in send/recv at once. A sender's FIN
		 * also tells the peer the stream ended, so a reader that waits
		 * for a whole block (iperf3 does) is not left hanging.
		 */
		if (!s->udp || !s->sender)
			shutdown(s->fd, s->sender ? SHUT_WR : SHUT_RD);
		if (s->worker >= 0)
			continue;
		pthread_join(s->thread, NULL);
		s->running = false;
	}
	for (int i = 0; i < t->nworkers; i++)
		worker_stop(&t->workers[i], senders, receivers);
}

void ps_streams_drain(struct ps_test *t, double until)
{
	double start = ps_now(), last = start;
	double idle_max = 0.05, hard_max = 2;
	uint64_t seen = 0;

	for (int i = 0; i < t->nstreams; i++)
		if (!t->streams[i]->sender && t->streams[i]->file_fd >= 0)
			idle_max = 0.5, hard_max = 60;
	for (;;) {
		uint64_t got = 0;
		bool waiting = false;

		for (int i = 0; i < t->nstreams; i++) {
			struct ps_stream *s = t->streams[i];

			if (s->sender || s->udp || !s->running)
				continue;
			got += atomic_load(&s->bytes);
			waiting |= !atomic_load(&s->finished);
		}
		if (!waiting)
			return;
		if (got != seen) {
			seen = got;
			last = ps_now();
		}
		/* an iperf3 sender sends no FIN before the end: stop once
		 * nothing more comes */
		if (ps_now() - last > idle_max || ps_now() - start > hard_max ||
		    (until > 0 && ps_now() >= until))
			return;
		usleep(2000);
	}
}

void ps_test_free_streams(struct ps_test *t)
{
	ps_streams_stop(t, true, true);
	for (int i = 0; i < t->nstreams; i++)
		ps_stream_free(t->streams[i]);
	t->nstreams = 0;
	for (int i = 0; i < t->nworkers; i++) {
		struct ps_worker *w = &t->workers[i];

		if (w->epfd >= 0)
			close(w->epfd);
		if (w->wakefd >= 0)
			close(w->wakefd);
		free(w->txbuf);
		free(w->rxbuf);
	}
	free(t->workers);
	t->workers = NULL;
	t->nworkers = 0;
}

int ps_stream_sendfile_setup(struct ps_stream *s)
{
	int mfd = memfd_create("pipescope-zc", MFD_CLOEXEC);

	if (mfd < 0)
		return -errno;
	/* write(2): ps_write_full is send(2), which a memfd refuses */
	if (write_file(mfd, s->buf, s->len)) {
		int e = errno;

		close(mfd);
		return -e;
	}
	s->file_fd = mfd;
	return 0;
}

int ps_stream_attach_file(struct ps_stream *s, const char *file, int nstreams)
{
	char name[4096];
	int fd;

	/* several receiving streams: one file each, FILE.ID */
	if (!s->sender && nstreams > 1)
		snprintf(name, sizeof(name), "%s.%d", file, s->id);
	else
		snprintf(name, sizeof(name), "%s", file);
	fd = s->sender ? open(name, O_RDONLY | O_CLOEXEC)
		       : open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			      0644);
	if (fd < 0)
		return -errno;
	if (s->file_fd >= 0)
		close(s->file_fd);
	s->file_fd = fd;
	s->from_file = s->sender;
	if (s->sender)
		s->t->file_send = true;
	return 0;
}

int ps_stream_rx_cpu(int fd);
int ps_stream_rx_cpu(int fd)
{
	int cpu = -1;
	socklen_t l = sizeof(cpu);

	if (getsockopt(fd, SOL_SOCKET, SO_INCOMING_CPU, &cpu, &l))
		return -1;
	return cpu;
}
