/* server.c: a test of "pipescope -s", in its own thread: the data streams'
 * set-up, the test while it runs (its bounds, the extension messages), the
 * results; every send to the client has a deadline. The handshake before
 * it is server-handshake.c. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "acl.h"
#include "log.h"
#include "net.h"
#include "nls.h"
#include "iface.h"
#include "sampler.h"
#include "server-internal.h"
#include "snapshot.h"
#include "xmalloc.h"

static int send_probe(struct srv_test *st);
static void probe_after(struct srv_test *st);

/*
 * Each test reports through its own wrapper: one test at a time reaches
 * the server's output (text is shared, -J makes a document per test), and
 * with --get-server-output a copy of the text goes to the client.
 */
#define FANOUT(st, call, ...)                                                  \
	do {                                                                   \
		const struct ps_reporter *r_ =                                 \
			(st)->own.call ? &(st)->own : (st)->srv->rep;          \
		pthread_mutex_lock(&(st)->srv->rep_lock);                      \
		if (r_ && r_->call)                                            \
			r_->call(r_->arg, __VA_ARGS__);                        \
		if ((st)->cap.call)                                            \
			(st)->cap.call((st)->cap.arg, __VA_ARGS__);            \
		pthread_mutex_unlock(&(st)->srv->rep_lock);                    \
	} while (0)

static void w_start(void *arg, const struct ps_test_info *in)
{
	FANOUT((struct srv_test *)arg, start, in);
}

static void w_interval(void *arg, const struct ps_interval *iv)
{
	FANOUT((struct srv_test *)arg, interval, iv);
}

static void w_end(void *arg, const struct ps_test_info *in,
		  const struct ps_summary *sum)
{
	FANOUT((struct srv_test *)arg, end, in, sum);
}

static void w_error(void *arg, const char *msg)
{
	FANOUT((struct srv_test *)arg, error, msg);
}

static void w_message(void *arg, const char *msg)
{
	FANOUT((struct srv_test *)arg, message, msg);
}

void srv_reporters_open(struct srv_test *st)
{
	st->rep = (struct ps_reporter){ .start = w_start,
					.interval = w_interval,
					.end = w_end,
					.error = w_error,
					.message = w_message,
					.arg = st };
	st->t.rep = &st->rep;
	if (st->srv->o->json || st->srv->o->json_stream)
		ps_report_json_init(&st->own, st->srv->o, st->srv->out,
				    st->srv->o->json_stream);
}

/*
 * --get-server-output's capture keeps the tail of the text: a long test
 * with many streams writes without bound, and only the last
 * PS_MAX_SERVER_OUTPUT bytes are sent. Memory stays under twice that.
 */
#define CAP_KEEP (PS_MAX_SERVER_OUTPUT - 4096)

static ssize_t capture_write(void *cookie, const char *buf, size_t n)
{
	struct srv_test *st = cookie;
	const size_t keep = st->capkeep ? st->capkeep : CAP_KEEP;

	if (st->caplen + n + 1 > st->capsize) {
		if (st->caplen + n > 2 * keep) {
			/* drop all but the last `keep` bytes of both */
			size_t want = keep, old = 0;

			if (n >= want) {
				st->capdropped += st->caplen + n - want;
				buf += n - want;
				n = want;
				st->caplen = 0;
			} else {
				old = want - n;
				if (old < st->caplen) {
					st->capdropped += st->caplen - old;
					memmove(st->capbuf,
						st->capbuf + st->caplen - old,
						old);
					st->caplen = old;
				}
			}
		}
		if (st->caplen + n + 1 > st->capsize) {
			st->capsize = (st->caplen + n + 1) * 2;
			if (st->capsize > 2 * keep + 1)
				st->capsize = 2 * keep + 1;
			st->capbuf = xrealloc(st->capbuf, st->capsize);
		}
	}
	memcpy(st->capbuf + st->caplen, buf, n);
	st->caplen += n;
	st->capbuf[st->caplen] = '\0';
	return (ssize_t)n;
}

void srv_capture_open(struct srv_test *st)
{
	static const cookie_io_functions_t io = { .write = capture_write };

	st->caplen = st->capsize = st->capdropped = 0;
	st->capf = fopencookie(st, "w", io);
	if (st->capf && st->srv->o->json)
		ps_report_json_init(&st->cap, st->srv->o, st->capf, false);
	else if (st->capf)
		ps_report_text_init(&st->cap, st->srv->o, st->capf);
}

/* the captured text to send: its tail from a line's start, saying what
 * was left out */
char *srv_capture_text(struct srv_test *st)
{
	const char *txt = st->capbuf ? st->capbuf : "";
	const char *nl;
	char *out;

	if (!st->capdropped)
		return xstrdup(txt);
	nl = strchr(txt, '\n');
	if (nl)
		txt = nl + 1;
	xasprintf(&out, _("[the first %zu bytes are left out]\n%s"),
		  st->capdropped + (size_t)(txt - st->capbuf), txt);
	return out;
}

void srv_reporters_close(struct srv_test *st)
{
	pthread_mutex_lock(&st->srv->rep_lock);
	ps_report_destroy(&st->own);
	ps_report_destroy(&st->cap);
	pthread_mutex_unlock(&st->srv->rep_lock);
	if (st->capf)
		fclose(st->capf);
	free(st->capbuf);
	st->capf = NULL;
	st->capbuf = NULL;
}

/*
 * Nothing the far end does may hold a server thread: every send to a
 * client is whole or fails by the deadline (0: one try, no wait), and a
 * stop flag (SIGTERM) ends the wait at once. 0 or -errno (-ETIMEDOUT: the
 * client stopped reading, -ECANCELED: the server is stopping).
 */
static int send_by(int fd, const void *buf, size_t len, double deadline,
		   const atomic_bool *stop)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		int left;

		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (stop && atomic_load(stop))
			return -ECANCELED;
		left = (int)((deadline - ps_now()) * 1000);
		if (left <= 0)
			return -ETIMEDOUT;
		poll(&pfd, 1, left < 100 ? left : 100);
	}
	return 0;
}

/* a state byte on a connection in its handshake: never waits */
int srv_send_now(int fd, signed char state)
{
	return send_by(fd, &state, 1, 0, NULL);
}

void srv_send_error(int fd, int ierr, int err)
{
	unsigned char m[9] = { (unsigned char)PS_SERVER_ERROR };
	uint32_t e[2] = { htonl((uint32_t)ierr), htonl((uint32_t)err) };

	memcpy(m + 1, e, sizeof(e));
	send_by(fd, m, sizeof(m), 0, NULL);
}

/*
 * The test's control connection: a message must be out within the idle
 * bound (--rcv-timeout; while the test runs, counted from the last byte
 * that moved) and before --server-max-duration's end, or the client has
 * stopped reading and loses its test.
 */
static int ctl_send(struct srv_test *st, const void *buf, size_t len)
{
	const struct ps_opts *o = st->srv->o;
	double deadline =
		ps_now() +
		(o->rcv_timeout_ms ? o->rcv_timeout_ms / 1000.0 : 120);

	if (st->limit && st->limit < deadline)
		deadline = st->limit;
	if (st->quiet_until && st->quiet_until < deadline)
		deadline = st->quiet_until;
	return send_by(st->t.ctrl_fd, buf, len, deadline, st->srv->stop);
}

static int ctl_state(struct srv_test *st, signed char state)
{
	return ctl_send(st, &state, 1);
}

/* a state byte (0: none), then a length-prefixed JSON message */
static int ctl_message(struct srv_test *st, signed char state,
		       struct json_object *obj)
{
	const char *s =
		json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN);
	size_t len = strlen(s), off = state ? 1 : 0;
	uint32_t nlen = htonl((uint32_t)len);
	char *buf = xmalloc(len + 5);
	int rc;

	buf[0] = (char)state;
	memcpy(buf + off, &nlen, 4);
	memcpy(buf + off + 4, s, len);
	rc = ctl_send(st, buf, off + 4 + len);
	free(buf);
	return rc;
}

/* SERVER_TERMINATE as the test ends: a moment to go out, no more */
static void send_terminate(struct srv_test *st)
{
	signed char s = PS_SERVER_TERMINATE;

	send_by(st->t.ctrl_fd, &s, 1, ps_now() + 0.5, NULL);
}

/* iperf3's i_errno for the two limits it has too (proto.h): its client
 * prints "total required bandwidth is larger than server limit" and
 * "client's requested duration exceeds the server's maximum permitted
 * limit" for them */
/*
 * the server's limits; 0 or -errno (for the client) with a reason in st->err
 * and in *ierr the i_errno an iperf3 client knows the refusal by
 */
static int enforce_caps(struct srv_test *st, int *ierr)
{
	const struct ps_opts *o = st->srv->o;
	const struct ps_params *p = &st->t.p;

	*ierr = PS_IENEWTEST;
	if (o->server_max_duration &&
	    (p->duration == 0 || p->duration > o->server_max_duration)) {
		snprintf(st->err, sizeof(st->err),
			 _("test of %g s refused: this server allows at most "
			   "%u s"),
			 p->duration, o->server_max_duration);
		*ierr = PS_IEMAXDURATION;
		return -EPERM;
	}
	/* rate × streams, without the overflow a huge rate would cause */
	if (o->server_rate_limit &&
	    (p->rate == 0 ||
	     p->rate > o->server_rate_limit / (uint64_t)p->parallel)) {
		snprintf(st->err, sizeof(st->err),
			 _("test refused: its rate is above this server's "
			   "limit of %llu bit/s"),
			 (unsigned long long)o->server_rate_limit);
		*ierr = PS_IETOTALRATE;
		return -EPERM;
	}
	if (o->server_max_streams &&
	    p->parallel * (p->bidir ? 2 : 1) > o->server_max_streams) {
		snprintf(st->err, sizeof(st->err),
			 _("test of %d streams refused: this server allows at "
			   "most %d"),
			 p->parallel * (p->bidir ? 2 : 1),
			 o->server_max_streams);
		return -EPERM;
	}
	/* -F: what this server receives goes to the file */
	if (!o->file || (p->reverse && !p->bidir))
		return 0;
	if (p->skip_rx_copy) {
		snprintf(st->err, sizeof(st->err),
			 _("test refused: it asks for --skip-rx-copy, but this "
			   "server writes what it receives to %s (-F)"),
			 o->file);
		return -ENOTSUP;
	}
	/* one writer per file: two uploads at once would mix in it */
	pthread_mutex_lock(&st->srv->lock);
	if (!st->srv->file_writer)
		st->srv->file_writer = st->writes_file = true;
	pthread_mutex_unlock(&st->srv->lock);
	if (!st->writes_file) {
		snprintf(st->err, sizeof(st->err),
			 _("test refused: another test is writing the file %s "
			   "(-F)"),
			 o->file);
		return -EBUSY;
	}
	return 0;
}

/* the client hung up its control connection (it sends nothing now), seen
 * within wait_ms */
static bool client_left(int ctrl_fd, int wait_ms)
{
	struct pollfd p = { .fd = ctrl_fd, .events = POLLIN };
	char c;

	if (poll(&p, 1, wait_ms) <= 0)
		return false;
	return recv(ctrl_fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) <= 0;
}

static int udp_listener(struct ps_server *srv)
{
	return ps_listen(srv->o->bind, srv->o->bind_dev, srv->port,
			 srv->o->family, SOCK_DGRAM);
}

/*
 * UDP: each stream says hello on the port; answer from a connected socket.
 * The socket for the next hello is bound before the answer goes out (as
 * iperf3 does), or a client that sends its next hello at once finds the
 * port closed (ICMP unreachable: "Connection refused"). The port is the
 * server's: one test at a time says hello (a hello does not say whose it
 * is), and a client sends each hello as soon as it may, so a test that
 * waits longer for one lets the others go.
 */
#define UDP_HELLO_WAIT 3.0 /* s for each hello */

static int udp_streams(struct srv_test *st)
{
	struct ps_server *srv = st->srv;
	struct ps_test *t = &st->t;
	int fd, rc = 0;
	struct ps_sockopts so;
	struct sockaddr_storage client;
	socklen_t cl = sizeof(client);
	double wait = srv->handshake < UDP_HELLO_WAIT ? srv->handshake
						      : UDP_HELLO_WAIT,
	       deadline;
	signed char create = PS_CREATE_STREAMS;

	ps_params_sockopts(&t->p, &so);
	if (getpeername(t->ctrl_fd, (struct sockaddr *)&client, &cl))
		return -errno;
	pthread_mutex_lock(&srv->udp_lock);
	fd = udp_listener(srv);
	if (fd < 0) {
		pthread_mutex_unlock(&srv->udp_lock);
		return fd;
	}
	/* the lock is held: this send has the hello's bound too */
	if (send_by(t->ctrl_fd, &create, 1, ps_now() + wait, srv->stop))
		rc = -EPIPE;
	deadline = ps_now() + wait;
	for (int i = 0; !rc && i < st->want; i++) {
		struct sockaddr_storage peer;
		socklen_t pl = sizeof(peer);
		struct pollfd pfd[2] = { { .fd = fd, .events = POLLIN },
					 { .fd = t->ctrl_fd,
					   .events = POLLIN } };
		uint32_t buf[16], reply = PS_UDP_CONNECT_REPLY;
		ssize_t n;
		int left = (int)((deadline - ps_now()) * 1000), next;

		if (atomic_load(srv->stop)) {
			rc = -ECANCELED;
			break;
		}
		if (left <= 0) {
			rc = -ETIMEDOUT;
			break;
		}
		if (poll(pfd, 2, left < 200 ? left : 200) <= 0) {
			i--;
			continue;
		}
		if ((pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    client_left(t->ctrl_fd, 0)) {
			rc = -ECONNRESET;
			break;
		}
		/*
		 * A client sends nothing on the control connection while its
		 * streams say hello, but CLIENT_TERMINATE: anything there ends
		 * the set-up now (a byte left unread would make this loop spin
		 * with the UDP lock held, and every other UDP test wait).
		 */
		if (pfd[1].revents & POLLIN) {
			signed char c = 0;

			rc = recv(t->ctrl_fd, &c, 1, MSG_DONTWAIT) == 1 &&
					     c == PS_CLIENT_TERMINATE
				     ? -ECONNRESET
				     : -EPROTO;
			break;
		}
		if (!(pfd[0].revents & POLLIN)) {
			i--;
			continue;
		}
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&peer,
			     &pl);
		if (n < 0) {
			rc = -errno;
			break;
		}
		/* a hello from another host than the test's client: not ours */
		if (!ps_same_host((struct sockaddr *)&peer,
				  (struct sockaddr *)&client)) {
			char who[64];

			if (getnameinfo((struct sockaddr *)&peer, pl, who,
					sizeof(who), NULL, 0, NI_NUMERICHOST))
				snprintf(who, sizeof(who), "?");
			srv_refused(srv,
				    _("ignored a UDP stream from %s: it is not "
				      "the test's client"),
				    who);
			i--;
			continue;
		}
		if (connect(fd, (struct sockaddr *)&peer, pl)) {
			rc = -errno;
			break;
		}
		ps_apply_sockopts(fd, peer.ss_family, false, &so, NULL, 0);
		next = -1;
		if (i + 1 < st->want && (next = udp_listener(srv)) < 0) {
			rc = next;
			break;
		}
		st->got[st->ngot++] = fd;
		fd = next;
		deadline = ps_now() + wait;
		if (send(st->got[st->ngot - 1], &reply, sizeof(reply),
			 MSG_DONTWAIT) != sizeof(reply)) {
			rc = -errno;
			break;
		}
	}
	if (fd >= 0)
		close(fd);
	pthread_mutex_unlock(&srv->udp_lock);
	return rc;
}

static int tcp_streams(struct srv_test *st)
{
	struct ps_server *srv = st->srv;
	double deadline = ps_now() + srv->handshake; /* for the streams */
	int rc = 0;

	pthread_mutex_lock(&srv->lock);
	st->awaiting = true;
	pthread_mutex_unlock(&srv->lock);
	if (ctl_state(st, PS_CREATE_STREAMS))
		rc = -EPIPE;
	pthread_mutex_lock(&srv->lock);
	while (!rc && st->ngot < st->want) {
		struct timespec ts;

		/* a fifth of a second at a time: has the client left? */
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 200 * 1000 * 1000;
		if (ts.tv_nsec >= 1000 * 1000 * 1000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000 * 1000 * 1000;
		}
		pthread_cond_timedwait(&srv->cond, &srv->lock, &ts);
		if (st->ngot >= st->want)
			break;
		if (ps_now() > deadline)
			rc = -ETIMEDOUT;
		else if (atomic_load(srv->stop))
			rc = -ECANCELED;
		else if (client_left(st->t.ctrl_fd, 0))
			rc = -ECONNRESET;
	}
	st->awaiting = false;
	pthread_mutex_unlock(&srv->lock);
	return rc;
}

static void fill_info(struct srv_test *st)
{
	struct ps_test *t = &st->t;
	struct ps_test_info *in = &t->info;

	ps_test_info_fill(t);
	in->server = true;
	snprintf(in->peer_version, sizeof(in->peer_version), "%s",
		 t->p.client_version);
}

/* the test runs until the client says TEST_END; 0, or -1 with st->err */
static int serve_running(struct srv_test *st)
{
	struct ps_server *srv = st->srv;
	struct ps_test *t = &st->t;
	double tickp = t->interval > 0 ? t->interval : 1.0;
	double next = t->t0 + tickp;
	double limit = st->limit =
		srv->o->server_max_duration
			? t->t0 + t->p.omit + srv->o->server_max_duration + 5
			: 0;
	double idle =
		srv->o->rcv_timeout_ms ? srv->o->rcv_timeout_ms / 1000.0 : 120;
	double last_ctrl = ps_now(), last_move = last_ctrl;
	uint64_t moved = 0;

	for (;;) {
		struct pollfd p = { .fd = t->ctrl_fd, .events = POLLIN };
		double now = ps_now();
		int wait = (int)((next - now) * 1000), rc = 0;
		uint64_t m = 0;

		/* any byte on any stream, or any word on the control, is life
		 */
		for (int i = 0; i < t->nstreams; i++) {
			struct ps_stream *s = t->streams[i];
			int e = atomic_load(&s->err);

			m += atomic_load_explicit(&s->bytes,
						  memory_order_relaxed);
			if (!atomic_load(&s->finished) || !e)
				continue;
			/* a killed client resets its data streams as it
			 * closes the control connection: that is the
			 * client gone, not one stream failing */
			if (client_left(t->ctrl_fd, 200))
				snprintf(st->err, sizeof(st->err),
					 _("the client has gone (%s); partial "
					   "results"),
					 _("connection closed"));
			else
				snprintf(st->err, sizeof(st->err),
					 _("data stream %d failed: %s; partial "
					   "results"),
					 s->id, strerror(e));
			return -1;
		}
		if (m != moved) {
			moved = m;
			last_move = now;
		}
		st->quiet_until =
			(last_move > last_ctrl ? last_move : last_ctrl) + idle;

		if (srv->stop && atomic_load(srv->stop)) {
			send_terminate(st);
			snprintf(st->err, sizeof(st->err),
				 _("the server is shutting down"));
			return -1;
		}
		if (limit && now > limit) {
			send_terminate(st);
			snprintf(st->err, sizeof(st->err),
				 _("test stopped: longer than this server "
				   "allows"));
			return -1;
		}
		if ((t->p.duration > 0 &&
		     now - last_ctrl > t->p.omit + t->p.duration + idle) ||
		    now - (last_move > last_ctrl ? last_move : last_ctrl) >
			    idle) {
			snprintf(
				st->err, sizeof(st->err),
				_("the client went silent (no data, no message "
				  "for %g s); test abandoned, partial results"),
				idle);
			return -1;
		}
		if (wait > 100)
			wait = 100;
		if (wait < 0)
			wait = 0;
		if (poll(&p, 1, wait) > 0) {
			signed char s;

			rc = ps_recv_state(t->ctrl_fd, &s, 2000);

			if (rc) {
				snprintf(st->err, sizeof(st->err),
					 _("the client has gone (%s); partial "
					   "results"),
					 rc == -EPIPE ? _("connection closed")
						      : strerror(-rc));
				return -1;
			}
			last_ctrl = ps_now();
			if (s == PS_TEST_END)
				return 0;
			if (s == PS_CLIENT_TERMINATE) {
				snprintf(st->err, sizeof(st->err),
					 _("the client stopped the test"));
				return -1;
			}
			if (s == PS_IPERF_DONE)
				return 0;
			snprintf(st->err, sizeof(st->err),
				 _("unexpected message %d from the client"), s);
			return -1;
		}
		now = ps_now();
		if (now >= next) {
			ps_test_tick(t, now, false);
			if (t->peer_ext) {
				struct json_object *o = ps_test_ext_data(t);

				rc = ctl_message(st, PS_EXT_DATA, o);
				json_object_put(o);
			}
			if (!rc)
				rc = send_probe(st);
			if (rc) {
				snprintf(st->err, sizeof(st->err),
					 _("the client stopped reading (%s); "
					   "test abandoned, partial results"),
					 strerror(-rc));
				return -1;
			}
			next += tickp;
			if (next < now)
				next = now + tickp;
		}
	}
}

/*
 * A pipescope client asked for this host's probe readings (CPU cores, the
 * NIC on the route back to it, IRQs): a sampler thread keeps them fresh at
 * 1 Hz and each tick sends the newest whole (EXT_PROBE). --no-share-probes
 * turns this off; the client then shows the far end as unknown.
 */
static void start_probes(struct srv_test *st)
{
	struct ps_sampler_config cfg = { .interval_s = 1.0 };
	const char *peer = st->peer;
	char host[64];

	if (!st->t.p.peer_probes || st->srv->o->no_share_probes)
		return;
	/* "[::1]" → "::1" for the route lookup */
	if (peer[0] == '[') {
		snprintf(host, sizeof(host), "%s", peer + 1);
		host[strcspn(host, "]")] = 0;
		peer = host;
	}
	ps_iface_choose(NULL, peer, &cfg.env.iface);
	if (ps_sampler_start(&cfg, &st->sampler))
		st->sampler = NULL;
}

/*
 * The far end's counters bracket the test: the first snapshot, taken when
 * the sampler started (before the streams; TEST_START waits up to 300 ms
 * for it), goes as soon as the streams run, and a fresh one after they
 * stopped goes before the results. The 1 Hz ticks between them miss up to
 * a second at each end, and drops come in bursts. Each wait has its
 * deadline (a slow probe, not the client).
 */
static void probe_after(struct srv_test *st)
{
	uint64_t seq;

	if (!st->sampler)
		return;
	seq = ps_sampler_seq(st->sampler);
	ps_sampler_kick(st->sampler);
	if (ps_sampler_wait(st->sampler, seq, 500) == 0)
		send_probe(st);
}

static int send_probe(struct srv_test *st)
{
	struct ps_snapshot *snap;
	struct json_object *o;
	int rc;

	if (!st->sampler || ps_sampler_seq(st->sampler) == st->probe_seq)
		return 0;
	snap = ps_sampler_latest(st->sampler);
	if (!snap)
		return 0;
	st->probe_seq = snap->hdr.seq;
	o = ps_snapshot_to_json(snap);
	/* the sampler knows the process; the test's threads are the
	 * engine's to tell */
	if (st->t.place.applied) {
		struct json_object *h;

		if (json_object_object_get_ex(o, "host", &h))
			json_object_object_add(
				h, "data_threads",
				json_object_new_string(st->t.place.cpus));
	}
	ps_snapshot_put(snap);
	rc = ctl_message(st, PS_EXT_PROBE, o);
	json_object_put(o);
	return rc;
}

/*
 * A -J server's copy for --get-server-output is its document as iperf3
 * sends it: start, intervals and end as they stand now (the client's
 * CPU not known yet). A document the capture had to cut goes as text.
 */
static void capture_json(struct srv_test *st, struct ps_results *mine)
{
	struct ps_summary sum;

	ps_test_summary(&st->t, &sum);
	pthread_mutex_lock(&st->srv->rep_lock);
	if (st->cap.end)
		st->cap.end(st->cap.arg, &st->t.info, &sum);
	ps_report_destroy(&st->cap);
	fflush(st->capf);
	if (!st->capdropped && st->capbuf)
		mine->server_output_json = json_tokener_parse(st->capbuf);
	if (!mine->server_output_json)
		mine->server_output_text = srv_capture_text(st);
	pthread_mutex_unlock(&st->srv->rep_lock);
	ps_summary_free(&sum);
}

/* a wait of at most ms for the client, and never past the test's limit
 * (at least 1 ms: 0 would be no deadline at all) */
static int ctl_wait_ms(const struct srv_test *st, int ms)
{
	double left = st->limit ? (st->limit - ps_now()) * 1000 : ms;

	return left >= ms ? ms : left >= 1 ? (int)left : 1;
}

static int serve_results(struct srv_test *st)
{
	struct ps_test *t = &st->t;
	struct ps_results mine;
	struct json_object *obj;
	int rc;
	signed char s;

	if ((rc = ctl_state(st, PS_EXCHANGE_RESULTS)))
		return rc;
	rc = ps_recv_json(t->ctrl_fd, &obj, PS_MAX_RESULTS_JSON,
			  ctl_wait_ms(st, 10000));
	if (rc)
		return rc;
	if (ps_results_from_json(obj, &t->remote, st->err, sizeof(st->err)) ==
	    0)
		t->remote_valid = true;
	json_object_put(obj);
	ps_test_fill_results(t, &mine);
	if (st->capf && st->srv->o->json)
		capture_json(st, &mine);
	else if (st->capf) {
		pthread_mutex_lock(&st->srv->rep_lock);
		fflush(st->capf);
		mine.server_output_text = srv_capture_text(st);
		pthread_mutex_unlock(&st->srv->rep_lock);
	}
	obj = ps_results_to_json(&mine);
	rc = ctl_message(st, 0, obj);
	json_object_put(obj);
	ps_results_clear(&mine);
	if (rc)
		return rc;
	if ((rc = ctl_state(st, PS_DISPLAY_RESULTS)))
		return rc;
	/* IPERF_DONE, or the client just closes */
	ps_recv_state(t->ctrl_fd, &s, ctl_wait_ms(st, 5000));
	return 0;
}

static void report_end(struct srv_test *st, bool partial)
{
	struct ps_summary sum;

	ps_test_summary(&st->t, &sum);
	sum.partial = partial;
	w_end(st, &st->t.info, &sum);
	ps_summary_free(&sum);
}

void *srv_test_main(void *arg)
{
	struct srv_test *st = arg;
	struct ps_server *srv = st->srv;
	struct ps_test *t = &st->t;
	struct json_object *obj = NULL;
	struct ps_sockopts so;
	bool running = false;
	char boot[PS_BOOT_ID_LEN + 2];
	int rc, ierr;

	/* the main loop has read and checked the parameters (pend_params) */
	if (t->p.len == 0)
		t->p.len =
			t->p.proto == PS_PROTO_UDP ? 1460 : PS_IPERF3_TCP_LEN;
	t->skip_rx_copy = t->p.skip_rx_copy;
	t->gsro = t->p.proto == PS_PROTO_UDP && t->p.ps_ext && t->p.gsro;
	if (t->p.get_server_output)
		srv_capture_open(st);
	if ((rc = enforce_caps(st, &ierr))) {
		srv_send_error(t->ctrl_fd, ierr, -rc);
		goto out;
	}
	if (t->p.ps_ext) {
		obj = json_object_new_object();
		json_object_object_add(obj, "version",
				       json_object_new_string(PACKAGE_VERSION));
		json_object_object_add(obj, "ext",
				       json_object_new_int(PS_EXT_VERSION));
		if (!ps_boot_id(boot, sizeof(boot)))
			json_object_object_add(obj, "boot_id",
					       json_object_new_string(boot));
		t->peer_same_kernel = ps_same_kernel(t->p.boot_id);
		rc = ctl_message(st, PS_EXT_ACK, obj);
		json_object_put(obj);
		if (rc) {
			snprintf(st->err, sizeof(st->err),
				 _("the client stopped reading (%s)"),
				 strerror(-rc));
			goto out;
		}
		t->peer_ext = true;
		start_probes(st);
	}
	st->want = t->p.parallel * (t->p.bidir ? 2 : 1);
	rc = t->p.proto == PS_PROTO_UDP ? udp_streams(st) : tcp_streams(st);
	if (rc) {
		snprintf(st->err, sizeof(st->err),
			 _("the data streams did not arrive: %s"),
			 strerror(-rc));
		goto out;
	}
	ps_params_sockopts(&t->p, &so);
	ps_place_plan(t->ctrl_fd, srv->o->no_numa,
		      srv->o->ncpus > 0 || t->p.server_affinity >= 0,
		      &t->place);
	ps_streams_plan(t, t->p.parallel, srv->o->file != NULL);
	for (int i = 0; i < st->ngot; i++) {
		/* the client's senders come first in --bidir */
		bool sender = t->p.bidir ? i >= t->p.parallel : t->p.reverse;
		struct ps_stream *s;
		int zc;

		if (t->p.proto == PS_PROTO_TCP)
			ps_apply_sockopts(st->got[i],
					  ps_sock_family(st->got[i]), true, &so,
					  NULL, 0);
		s = ps_stream_new(t, st->got[i], ps_stream_id(i), sender, 0);
		if (srv->o->ncpus == 1)
			s->cpu_pin = srv->o->cpus[0];
		else if (t->p.server_affinity >= 0)
			s->cpu_pin = t->p.server_affinity;
		t->streams[t->nstreams++] = s;
		/* the client's -Z: this end sends with sendfile too (-R) */
		if (sender && t->p.zerocopy && t->p.proto == PS_PROTO_TCP &&
		    !srv->o->file && (zc = ps_stream_sendfile_setup(s)))
			ps_debug("-Z: sending with send(2): %s", strerror(-zc));
		if (srv->o->file &&
		    ps_stream_attach_file(s, srv->o->file,
					  sender ? 1 : t->p.parallel))
			ps_warn(_("cannot use the file %s: %s"), srv->o->file,
				strerror(errno));
	}
	st->ngot = 0;
	fill_info(st);
	if (st->sampler) /* its first snapshot, the counters' base */
		ps_sampler_wait(st->sampler, 0, 300);
	if (ctl_state(st, PS_TEST_START) || ctl_state(st, PS_TEST_RUNNING)) {
		snprintf(st->err, sizeof(st->err),
			 _("the client left before the test"));
		goto out;
	}
	ps_test_begin(t);
	w_start(st, &t->info);
	rc = ps_streams_start(t);
	if (rc < 0)
		ps_warn(_("cannot start a stream thread: %s"), strerror(-rc));
	running = true;
	if ((rc = send_probe(st))) {
		snprintf(st->err, sizeof(st->err),
			 _("the client stopped reading (%s); test abandoned, "
			   "partial results"),
			 strerror(-rc));
		rc = -1;
	} else
		rc = serve_running(st);
	/* the results have bounds of their own, and --server-max-duration's
	 * end (st->limit, kept) bounds them and the drain too: a client that
	 * trickles a byte at a time after TEST_END holds no longer */
	st->quiet_until = 0;
	atomic_store(&st->ending, true);
	/* the last bytes may still be on the way (the client's socket
	 * buffer, the path): its senders' FINs say when they are in */
	if (rc == 0)
		ps_streams_drain(t, st->limit);
	ps_streams_stop(t, true, true);
	/* the last interval before the results, as iperf3's server: a -J
	 * server's copy for --get-server-output has it */
	ps_test_tick(t, ps_now(), true);
	if (rc == 0)
		probe_after(st);
	if (rc == 0 && (rc = serve_results(st)) != 0)
		snprintf(st->err, sizeof(st->err),
			 _("results exchange with %s failed: %s"), st->peer,
			 ps_proto_strerror(rc));
	report_end(st, rc != 0);
	running = false;
out:
	atomic_store(&st->ending, true);
	if (st->err[0])
		w_error(st, st->err);
	srv_reporters_close(st);
	(void)running;
	for (int i = 0; i < st->ngot; i++)
		close(st->got[i]);
	st->ngot = 0;
	ps_test_free_streams(t);
	pthread_mutex_lock(&srv->lock); /* ps_server_loop may shut it down */
	close(t->ctrl_fd);
	t->ctrl_fd = -1;
	if (st->writes_file)
		srv->file_writer = st->writes_file = false;
	pthread_mutex_unlock(&srv->lock);
	ps_results_clear(&t->remote);
	free(t->iv_streams);
	free(t->iv_remote);
	if (st->sampler)
		ps_sampler_stop(st->sampler);
	st->sampler = NULL;
	t->iv_streams = NULL;
	t->iv_remote = NULL;
	atomic_store(&st->finished, true);
	return NULL;
}
