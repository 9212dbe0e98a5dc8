/* stream.c: one thread per data stream: send or receive as fast as allowed
 * (TCP and the loops; what only UDP does is in stream-udp.c) */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
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
	if (s->udp)
		ps_stream_udp_setup(s);
	s->buf = xmalloc(s->udp && !sender ? PS_UDP_RX_BUF
					   : s->len * s->gso_segs);
	fill_payload(s->buf,
		     s->udp && !sender ? PS_UDP_RX_BUF : s->len * s->gso_segs,
		     p->repeating_payload);
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

/* keep a stream at or below -b: sleep when ahead of rate × elapsed */
static void throttle(struct ps_stream *s, uint64_t bytes, double start)
{
	double rate = (double)s->t->p.rate;
	double due;

	if (rate <= 0)
		return;
	due = start + bytes * 8.0 / rate;
	if (due > ps_now())
		sleep_until(due);
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

static int send_loop(struct ps_stream *s)
{
	struct ps_test *t = s->t;
	double start = ps_now();
	uint64_t seq = 0, mine = 0;
	int flags = MSG_NOSIGNAL;
	bool use_sendfile = s->file_fd >= 0 && !s->udp && !s->from_file;

	while (!atomic_load_explicit(&t->done, memory_order_relaxed)) {
		ssize_t n;

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
		} else if (use_sendfile) {
			off_t off = 0;

			n = sendfile(s->fd, s->file_fd, &off, len);
		} else {
			n = send(s->fd, s->buf, len, flags);
		}
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			/* UDP: a full socket buffer or an ICMP error is loss */
			if (s->udp &&
			    (errno == ENOBUFS || errno == ECONNREFUSED)) {
				seq -= s->gso_segs; /* not sent: not lost */
				continue;
			}
			return errno;
		}
		mine += (uint64_t)n;
		atomic_store_explicit(&s->bytes, mine, memory_order_relaxed);
		atomic_fetch_add_explicit(&s->blocks, 1, memory_order_relaxed);
		if (s->udp)
			atomic_store_explicit(&s->packets, seq,
					      memory_order_relaxed);
		if (t->p.rate && (s->udp || !t->p.fq_rate))
			throttle(s, mine, start);
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

static int recv_loop(struct ps_stream *s)
{
	struct ps_test *t = s->t;
	int flags = t->skip_rx_copy && !s->udp ? MSG_TRUNC : 0;
	uint64_t mine = 0;

	while (!atomic_load_explicit(&t->rx_done, memory_order_relaxed)) {
		size_t seg = 0;
		ssize_t n;

		if (s->udp)
			n = ps_udp_recv(s, &seg);
		else
			n = recv(s->fd, flags & MSG_TRUNC ? NULL : s->buf,
				 s->len, flags);

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
		mine += (uint64_t)n;
		atomic_store_explicit(&s->bytes, mine, memory_order_relaxed);
		atomic_fetch_add_explicit(&t->moved_bytes, (uint64_t)n,
					  memory_order_relaxed);
		if (s->file_fd >= 0 &&
		    write_file(s->file_fd, s->buf, (size_t)n)) {
			int e = errno;

			close(s->file_fd);
			s->file_fd = -1;
			ps_warn(_("stopped writing the received file: %s"),
				strerror(e));
		}
		if (s->udp)
			ps_udp_received(s, (size_t)n, seg);
	}
	return 0;
}

static void *stream_main(void *arg)
{
	struct ps_stream *s = arg;
	sigset_t set;
	int err;

	/* signals belong to the control thread */
	sigfillset(&set);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (s->cpu_pin >= 0) {
		cpu_set_t cs;

		CPU_ZERO(&cs);
		CPU_SET(s->cpu_pin, &cs);
		pthread_setaffinity_np(pthread_self(), sizeof(cs), &cs);
	}
	atomic_store(&s->cpu, sched_getcpu());
	err = s->sender ? send_loop(s) : recv_loop(s);
	if (atomic_load(s->sender ? &s->t->done : &s->t->rx_done))
		err = 0; /* the stop itself, not a failure */
	atomic_store(&s->err, err);
	atomic_store(&s->finished, true);
	return NULL;
}

int ps_stream_start(struct ps_stream *s)
{
	int rc = pthread_create(&s->thread, NULL, stream_main, s);

	if (rc)
		return -rc;
	s->running = true;
	return 0;
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
		pthread_join(s->thread, NULL);
		s->running = false;
	}
}

void ps_streams_drain_files(struct ps_test *t)
{
	const double idle_max = 0.5, hard_max = 60;
	double start = ps_now(), last = start;
	uint64_t seen = 0;

	for (;;) {
		uint64_t got = 0;
		bool waiting = false;

		for (int i = 0; i < t->nstreams; i++) {
			struct ps_stream *s = t->streams[i];

			if (s->sender || s->udp || s->file_fd < 0 ||
			    !s->running)
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
		if (ps_now() - last > idle_max || ps_now() - start > hard_max)
			return;
		usleep(10000);
	}
}

void ps_test_free_streams(struct ps_test *t)
{
	ps_streams_stop(t, true, true);
	for (int i = 0; i < t->nstreams; i++)
		ps_stream_free(t->streams[i]);
	t->nstreams = 0;
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
