/* server.c: "pipescope -s": serves pipescope and iperf3 clients, N tests at once */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "acl.h"
#include "auth.h"
#include "exitcodes.h"
#include "log.h"
#include "net.h"
#include "nls.h"
#include "iface.h"
#include "sampler.h"
#include "snapshot.h"
#include "test.h"
#include "xmalloc.h"

#define PENDING_MAX 64		/* connections still in their handshake */
#define REFUSALS_PER_SEC 10	/* log lines about refused connections */

struct srv_test {
	struct ps_server *srv;
	struct ps_test t;
	pthread_t thread;
	bool used;
	atomic_bool finished;
	atomic_bool ending;	/* past the test: results, clean-up */
	bool awaiting;		/* accepting data streams (under srv->lock) */
	int want;		/* data streams expected */
	int ngot;
	int got[2 * PS_MAX_STREAMS];
	uint64_t got_seq[2 * PS_MAX_STREAMS];	/* their accept order */
	char peer[64];
	char err[256];
	struct ps_reporter rep;	/* what the test calls: locks, then fans out */
	struct ps_reporter own;	/* -J: a document per test */
	struct ps_reporter cap;	/* --get-server-output: text into capbuf */
	FILE *capf;
	char *capbuf;
	size_t caplen;
	/* a pipescope client asked for this host's probe readings */
	struct ps_sampler *sampler;
	uint64_t probe_seq;	/* the last snapshot sent */
};

static void send_probe(struct srv_test *st);

/*
 * A connection before it is a test or a data stream: it sends its cookie,
 * and a new test then its parameters, read here without blocking, so that
 * a client that says nothing (or half of it) holds no test slot and no
 * thread; it is closed when its handshake time runs out.
 */
enum pend_stage { PEND_COOKIE, PEND_LEN, PEND_PARAMS, PEND_WAIT };
#define SLOT_WAIT 3.0	/* s a new test waits for one that is ending */

struct pending {
	int fd;
	enum pend_stage stage;
	size_t have;
	char cookie[PS_COOKIE_SIZE];
	unsigned char lenb[4];
	uint32_t len;
	char *buf;		/* the parameters, once their length is known */
	double since;
	double wait_since;	/* PEND_WAIT: since when */
	uint64_t seq;		/* accept order */
	char peer[64];
	int port;
};

struct ps_server {
	const struct ps_opts *o;
	const struct ps_reporter *rep;
	atomic_bool *stop;
	int lfd;
	int port;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_mutex_t udp_lock;	/* one test sets up UDP streams at a time */
	pthread_mutex_t rep_lock;	/* tests report one at a time */
	FILE *out;
	int max_tests;
	struct srv_test *tests;
	struct pending pend[PENDING_MAX];
	int npend;
	int served;
	uint64_t accepted;	/* connections so far: their order */
	double handshake;	/* s a new connection has for its handshake */
	/* refusals are logged, at most REFUSALS_PER_SEC lines a second */
	pthread_mutex_t refuse_lock;
	double refuse_window;
	int refuse_logged;
	int refuse_quiet;
};

/* a line for the reporter ("Accepted connection from ...") */
#define msg(srv, ...) ps_report_message((srv)->rep, __VA_ARGS__)

/* a hostile or broken connection was turned away: say so, but never flood */
static void refused(struct ps_server *srv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void refusals_flush(struct ps_server *srv, double now)
{
	pthread_mutex_lock(&srv->refuse_lock);
	if (now - srv->refuse_window < 1.0) {
		pthread_mutex_unlock(&srv->refuse_lock);
		return;
	}
	if (srv->refuse_quiet)
		ps_warn(P_("%d more connection refused in the last second",
			   "%d more connections refused in the last second",
			   (unsigned long)srv->refuse_quiet),
			srv->refuse_quiet);
	srv->refuse_window = now;
	srv->refuse_logged = 0;
	srv->refuse_quiet = 0;
	pthread_mutex_unlock(&srv->refuse_lock);
}

static void refused(struct ps_server *srv, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	refusals_flush(srv, ps_now());
	pthread_mutex_lock(&srv->refuse_lock);
	if (srv->refuse_logged >= REFUSALS_PER_SEC) {
		srv->refuse_quiet++;
		pthread_mutex_unlock(&srv->refuse_lock);
		return;
	}
	srv->refuse_logged++;
	pthread_mutex_unlock(&srv->refuse_lock);
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ps_warn("%s", buf);
}

int ps_server_open(const struct ps_opts *o, struct ps_server **out)
{
	struct ps_server *srv = xcalloc(1, sizeof(*srv));
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	srv->o = o;
	srv->lfd = ps_listen(o->bind, o->bind_dev, o->port, o->family, SOCK_STREAM);
	if (srv->lfd < 0) {
		int e = -srv->lfd;

		free(srv);
		return -e;
	}
	if (getsockname(srv->lfd, (struct sockaddr *)&ss, &sl) == 0)
		srv->port = ntohs(ss.ss_family == AF_INET6 ?
				  ((struct sockaddr_in6 *)&ss)->sin6_port :
				  ((struct sockaddr_in *)&ss)->sin_port);
	fcntl(srv->lfd, F_SETFL, fcntl(srv->lfd, F_GETFL) | O_NONBLOCK);
	pthread_mutex_init(&srv->lock, NULL);
	pthread_cond_init(&srv->cond, NULL);
	pthread_mutex_init(&srv->udp_lock, NULL);
	pthread_mutex_init(&srv->rep_lock, NULL);
	pthread_mutex_init(&srv->refuse_lock, NULL);
	srv->out = stdout;
	srv->max_tests = o->max_tests > 0 ? o->max_tests : 1;
	srv->handshake = o->handshake_timeout ? o->handshake_timeout :
			 PS_DEFAULT_HANDSHAKE;
	srv->tests = xcalloc((size_t)srv->max_tests, sizeof(*srv->tests));
	*out = srv;
	return 0;
}

int ps_server_port(const struct ps_server *srv)
{
	return srv->port;
}

void ps_server_set_output(struct ps_server *srv, FILE *out)
{
	srv->out = out;
}

/*
 * Each test reports through its own wrapper: one test at a time reaches
 * the server's output (text is shared, -J makes a document per test), and
 * with --get-server-output a copy of the text goes to the client.
 */
#define FANOUT(st, call, ...)                                               \
	do {                                                                \
		const struct ps_reporter *r_ = (st)->own.call ? &(st)->own : \
					       (st)->srv->rep;              \
		pthread_mutex_lock(&(st)->srv->rep_lock);                   \
		if (r_ && r_->call)                                         \
			r_->call(r_->arg, __VA_ARGS__);                     \
		if ((st)->cap.call)                                         \
			(st)->cap.call((st)->cap.arg, __VA_ARGS__);         \
		pthread_mutex_unlock(&(st)->srv->rep_lock);                 \
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

static void reporters_open(struct srv_test *st)
{
	st->rep = (struct ps_reporter){ .start = w_start, .interval = w_interval,
		.end = w_end, .error = w_error, .message = w_message, .arg = st };
	st->t.rep = &st->rep;
	if (st->srv->o->json || st->srv->o->json_stream)
		ps_report_json_init(&st->own, st->srv->o, st->srv->out,
				    st->srv->o->json_stream);
}

static void capture_open(struct srv_test *st)
{
	st->capf = open_memstream(&st->capbuf, &st->caplen);
	if (st->capf)
		ps_report_text_init(&st->cap, st->srv->o, st->capf);
}

static void reporters_close(struct srv_test *st)
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

static void send_error(int fd, int ierr, int err)
{
	int32_t e[2] = { (int32_t)htonl((uint32_t)ierr), (int32_t)htonl((uint32_t)err) };

	ps_send_state(fd, PS_SERVER_ERROR);
	ps_write_full(fd, e, sizeof(e));
}

/* the server's limits; 0 or a reason in st->err */
static int enforce_caps(struct srv_test *st)
{
	const struct ps_opts *o = st->srv->o;
	const struct ps_params *p = &st->t.p;

	if (o->server_max_duration && (p->duration == 0 ||
	    p->duration > o->server_max_duration)) {
		snprintf(st->err, sizeof(st->err),
			 _("test of %g s refused: this server allows at most %u s"),
			 p->duration, o->server_max_duration);
		return -1;
	}
	/* rate × streams, without the overflow a huge rate would cause */
	if (o->server_rate_limit && (p->rate == 0 ||
	    p->rate > o->server_rate_limit / (uint64_t)p->parallel)) {
		snprintf(st->err, sizeof(st->err),
			 _("test refused: its rate is above this server's limit of %llu bit/s"),
			 (unsigned long long)o->server_rate_limit);
		return -1;
	}
	if (o->server_max_streams &&
	    p->parallel * (p->bidir ? 2 : 1) > o->server_max_streams) {
		snprintf(st->err, sizeof(st->err),
			 _("test of %d streams refused: this server allows at most %d"),
			 p->parallel * (p->bidir ? 2 : 1), o->server_max_streams);
		return -1;
	}
	return 0;
}

/* the client hung up its control connection (it sends nothing now) */
static bool client_left(int ctrl_fd)
{
	struct pollfd p = { .fd = ctrl_fd, .events = POLLIN };
	char c;

	if (poll(&p, 1, 0) <= 0)
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
 * port closed (ICMP unreachable: "Connection refused").
 */
static int udp_streams(struct srv_test *st)
{
	struct ps_server *srv = st->srv;
	struct ps_test *t = &st->t;
	int fd, rc = 0;
	struct ps_sockopts so;
	struct sockaddr_storage client;
	socklen_t cl = sizeof(client);
	double deadline = ps_now() + srv->handshake;	/* for the streams */

	ps_params_sockopts(&t->p, &so);
	if (getpeername(t->ctrl_fd, (struct sockaddr *)&client, &cl))
		return -errno;
	pthread_mutex_lock(&srv->udp_lock);
	fd = udp_listener(srv);
	if (fd < 0) {
		pthread_mutex_unlock(&srv->udp_lock);
		return fd;
	}
	if (ps_send_state(t->ctrl_fd, PS_CREATE_STREAMS))
		rc = -EPIPE;
	for (int i = 0; !rc && i < st->want; i++) {
		struct sockaddr_storage peer;
		socklen_t pl = sizeof(peer);
		struct pollfd pfd[2] = { { .fd = fd, .events = POLLIN },
					 { .fd = t->ctrl_fd, .events = POLLIN } };
		uint32_t buf[16], reply = PS_UDP_CONNECT_REPLY;
		ssize_t n;
		int left = (int)((deadline - ps_now()) * 1000), next;

		if (left <= 0 || poll(pfd, 2, left) <= 0) {
			rc = -ETIMEDOUT;
			break;
		}
		if ((pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    client_left(t->ctrl_fd)) {
			rc = -ECONNRESET;
			break;
		}
		if (!(pfd[0].revents & POLLIN)) {
			i--;
			continue;
		}
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&peer, &pl);
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
			refused(srv, _("ignored a UDP stream from %s: it is not the test's client"),
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
		if (send(st->got[st->ngot - 1], &reply, sizeof(reply), 0) !=
		    sizeof(reply)) {
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
	double deadline = ps_now() + srv->handshake;	/* for the streams */
	int rc = 0;

	pthread_mutex_lock(&srv->lock);
	st->awaiting = true;
	pthread_mutex_unlock(&srv->lock);
	if (ps_send_state(st->t.ctrl_fd, PS_CREATE_STREAMS))
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
		else if (client_left(st->t.ctrl_fd))
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
	snprintf(in->peer_version, sizeof(in->peer_version), "%s", t->p.client_version);
}

/* the test runs until the client says TEST_END; 0, or -1 with st->err */
static int serve_running(struct srv_test *st)
{
	struct ps_server *srv = st->srv;
	struct ps_test *t = &st->t;
	double tickp = t->interval > 0 ? t->interval : 1.0;
	double next = t->t0 + tickp;
	double limit = srv->o->server_max_duration ?
		t->t0 + t->p.omit + srv->o->server_max_duration + 5 : 0;
	double idle = srv->o->rcv_timeout_ms ? srv->o->rcv_timeout_ms / 1000.0 : 120;
	double last_ctrl = ps_now(), last_move = last_ctrl;
	uint64_t moved = 0;

	for (;;) {
		struct pollfd p = { .fd = t->ctrl_fd, .events = POLLIN };
		double now = ps_now();
		int wait = (int)((next - now) * 1000);
		uint64_t m = 0;

		/* any byte on any stream, or any word on the control, is life */
		for (int i = 0; i < t->nstreams; i++) {
			struct ps_stream *s = t->streams[i];
			int e = atomic_load(&s->err);

			m += atomic_load_explicit(&s->bytes, memory_order_relaxed);
			if (atomic_load(&s->finished) && e) {
				snprintf(st->err, sizeof(st->err),
					 _("data stream %d failed: %s; partial results"),
					 s->id, strerror(e));
				return -1;
			}
		}
		if (m != moved) {
			moved = m;
			last_move = now;
		}

		if (srv->stop && atomic_load(srv->stop)) {
			ps_send_state(t->ctrl_fd, PS_SERVER_TERMINATE);
			snprintf(st->err, sizeof(st->err), _("the server is shutting down"));
			return -1;
		}
		if (limit && now > limit) {
			ps_send_state(t->ctrl_fd, PS_SERVER_TERMINATE);
			snprintf(st->err, sizeof(st->err),
				 _("test stopped: longer than this server allows"));
			return -1;
		}
		if ((t->p.duration > 0 &&
		     now - last_ctrl > t->p.omit + t->p.duration + idle) ||
		    now - (last_move > last_ctrl ? last_move : last_ctrl) > idle) {
			snprintf(st->err, sizeof(st->err),
				 _("the client went silent (no data, no message for %g s); test abandoned, partial results"),
				 idle);
			return -1;
		}
		if (wait > 100)
			wait = 100;
		if (wait < 0)
			wait = 0;
		if (poll(&p, 1, wait) > 0) {
			signed char s;
			int rc = ps_recv_state(t->ctrl_fd, &s, 2000);

			if (rc) {
				snprintf(st->err, sizeof(st->err),
					 _("the client has gone (%s); partial results"),
					 rc == -EPIPE ? _("connection closed") : strerror(-rc));
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

				if (ps_send_state(t->ctrl_fd, PS_EXT_DATA) == 0)
					ps_send_json(t->ctrl_fd, o);
				json_object_put(o);
			}
			send_probe(st);
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

static void send_probe(struct srv_test *st)
{
	struct ps_snapshot *snap;
	struct json_object *o;

	if (!st->sampler || ps_sampler_seq(st->sampler) == st->probe_seq)
		return;
	snap = ps_sampler_latest(st->sampler);
	if (!snap)
		return;
	st->probe_seq = snap->hdr.seq;
	o = ps_snapshot_to_json(snap);
	ps_snapshot_put(snap);
	if (ps_send_state(st->t.ctrl_fd, PS_EXT_PROBE) == 0)
		ps_send_json(st->t.ctrl_fd, o);
	json_object_put(o);
}

static int serve_results(struct srv_test *st)
{
	struct ps_test *t = &st->t;
	struct ps_results mine;
	struct json_object *obj;
	int rc;
	signed char s;

	if ((rc = ps_send_state(t->ctrl_fd, PS_EXCHANGE_RESULTS)))
		return rc;
	rc = ps_recv_json(t->ctrl_fd, &obj, PS_MAX_RESULTS_JSON, 10000);
	if (rc)
		return rc;
	if (ps_results_from_json(obj, &t->remote, st->err, sizeof(st->err)) == 0)
		t->remote_valid = true;
	json_object_put(obj);
	ps_test_fill_results(t, &mine);
	if (st->capf) {
		pthread_mutex_lock(&st->srv->rep_lock);
		fflush(st->capf);
		mine.server_output_text = xstrdup(st->capbuf ? st->capbuf : "");
		pthread_mutex_unlock(&st->srv->rep_lock);
	}
	obj = ps_results_to_json(&mine);
	rc = ps_send_json(t->ctrl_fd, obj);
	json_object_put(obj);
	ps_results_clear(&mine);
	if (rc)
		return rc;
	if ((rc = ps_send_state(t->ctrl_fd, PS_DISPLAY_RESULTS)))
		return rc;
	/* IPERF_DONE, or the client just closes */
	ps_recv_state(t->ctrl_fd, &s, 5000);
	return 0;
}

static void report_end(struct srv_test *st, bool partial)
{
	struct ps_summary sum;

	ps_test_tick(&st->t, ps_now(), true);
	ps_test_summary(&st->t, &sum);
	sum.partial = partial;
	w_end(st, &st->t.info, &sum);
	ps_summary_free(&sum);
}

static void *test_main(void *arg)
{
	struct srv_test *st = arg;
	struct ps_server *srv = st->srv;
	struct ps_test *t = &st->t;
	struct json_object *obj = NULL;
	struct ps_sockopts so;
	bool running = false;
	int rc;

	/* the main loop has read and checked the parameters (pend_params) */
	if (t->p.len == 0)
		t->p.len = t->p.proto == PS_PROTO_UDP ? 1460 : PS_IPERF3_TCP_LEN;
	t->skip_rx_copy = t->p.skip_rx_copy;
	t->gsro = t->p.proto == PS_PROTO_UDP && t->p.ps_ext && t->p.gsro;
	if (t->p.get_server_output)
		capture_open(st);
	if (enforce_caps(st)) {
		send_error(t->ctrl_fd, 100, EPERM);
		goto out;
	}
	if (t->p.ps_ext) {
		obj = json_object_new_object();
		json_object_object_add(obj, "version", json_object_new_string(PACKAGE_VERSION));
		json_object_object_add(obj, "ext", json_object_new_int(PS_EXT_VERSION));
		if (ps_send_state(t->ctrl_fd, PS_EXT_ACK) == 0)
			ps_send_json(t->ctrl_fd, obj);
		json_object_put(obj);
		t->peer_ext = true;
		start_probes(st);
	}
	st->want = t->p.parallel * (t->p.bidir ? 2 : 1);
	rc = t->p.proto == PS_PROTO_UDP ? udp_streams(st) : tcp_streams(st);
	if (rc) {
		snprintf(st->err, sizeof(st->err), _("the data streams did not arrive: %s"),
			 strerror(-rc));
		goto out;
	}
	ps_params_sockopts(&t->p, &so);
	for (int i = 0; i < st->ngot; i++) {
		/* the client's senders come first in --bidir */
		bool sender = t->p.bidir ? i >= t->p.parallel : t->p.reverse;
		struct ps_stream *s;

		if (t->p.proto == PS_PROTO_TCP)
			ps_apply_sockopts(st->got[i], ps_sock_family(st->got[i]), true,
					  &so, NULL, 0);
		s = ps_stream_new(t, st->got[i], ps_stream_id(i), sender, 0);
		if (srv->o->ncpus == 1)
			s->cpu_pin = srv->o->cpus[0];
		else if (t->p.server_affinity >= 0)
			s->cpu_pin = t->p.server_affinity;
		t->streams[t->nstreams++] = s;
		if (srv->o->file && ps_stream_attach_file(s, srv->o->file,
				sender ? 1 : t->p.parallel))
			ps_warn(_("cannot use the file %s: %s"), srv->o->file,
				strerror(errno));
	}
	st->ngot = 0;
	fill_info(st);
	if (ps_send_state(t->ctrl_fd, PS_TEST_START) ||
	    ps_send_state(t->ctrl_fd, PS_TEST_RUNNING)) {
		snprintf(st->err, sizeof(st->err), _("the client left before the test"));
		goto out;
	}
	ps_test_begin(t);
	w_start(st, &t->info);
	for (int i = 0; i < t->nstreams; i++)
		ps_stream_start(t->streams[i]);
	running = true;
	rc = serve_running(st);
	atomic_store(&st->ending, true);
	/* -F: the file's last bytes may still be on the way (the client's
	 * socket buffer, the path); its sender's FIN says when they are in */
	if (rc == 0)
		ps_streams_drain_files(t);
	ps_streams_stop(t, true, true);
	if (rc == 0 && (rc = serve_results(st)) != 0)
		snprintf(st->err, sizeof(st->err), _("results exchange with %s failed: %s"),
			 st->peer, ps_proto_strerror(rc));
	report_end(st, rc != 0);
	running = false;
out:
	atomic_store(&st->ending, true);
	if (st->err[0])
		w_error(st, st->err);
	reporters_close(st);
	(void)running;
	for (int i = 0; i < st->ngot; i++)
		close(st->got[i]);
	st->ngot = 0;
	ps_test_free_streams(t);
	close(t->ctrl_fd);
	t->ctrl_fd = -1;
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

/* reap finished test threads; returns how many are still running */
static int reap(struct ps_server *srv)
{
	int active = 0;

	for (int i = 0; i < srv->max_tests; i++) {
		struct srv_test *st = &srv->tests[i];

		if (!st->used)
			continue;
		if (atomic_load(&st->finished)) {
			pthread_join(st->thread, NULL);
			pthread_mutex_lock(&srv->lock);
			st->used = false;
			pthread_mutex_unlock(&srv->lock);
			srv->served++;
			if (srv->o->one_off && srv->stop)
				atomic_store(srv->stop, true);
			continue;
		}
		active++;
	}
	return active;
}

/* the slot a new test would take, or NULL (srv->lock held) */
static struct srv_test *free_slot(struct ps_server *srv)
{
	if (srv->o->one_off && srv->served > 0)
		return NULL;
	for (int i = 0; i < srv->max_tests; i++)
		if (!srv->tests[i].used)
			return &srv->tests[i];
	return NULL;
}

static void deny_busy(struct ps_server *srv, int fd, const char *peer,
		      int port)
{
	ps_send_state(fd, PS_ACCESS_DENIED);
	close(fd);
	msg(srv, _("refused a test from %s port %d: the server is busy"), peer, port);
}

/* a test's parameters are in: give it a slot and a thread */
static void start_test(struct ps_server *srv, int fd, const char *cookie,
		       const struct ps_params *p, const char *peer, int port)
{
	struct srv_test *st;
	int one = 1;

	reap(srv);
	pthread_mutex_lock(&srv->lock);
	st = free_slot(srv);
	if (!st) {
		pthread_mutex_unlock(&srv->lock);
		deny_busy(srv, fd, peer, port);
		return;
	}
	memset(st, 0, sizeof(*st));
	st->srv = srv;
	st->used = true;
	snprintf(st->peer, sizeof(st->peer), "%s", peer);
	memcpy(st->t.cookie, cookie, PS_COOKIE_SIZE);
	st->t.p = *p;
	st->t.ctrl_fd = fd;
	st->t.server = true;
	reporters_open(st);
	st->t.interval = srv->o->interval;
	st->t.format = srv->o->format;
	st->t.o = srv->o;
	pthread_mutex_unlock(&srv->lock);
	msg(srv, _("Accepted connection from %s, port %d"), peer, port);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (pthread_create(&st->thread, NULL, test_main, st)) {
		refused(srv, _("cannot start a test for %s: %s"), peer,
			strerror(errno));
		close(fd);
		pthread_mutex_lock(&srv->lock);
		reporters_close(st);
		st->used = false;
		pthread_mutex_unlock(&srv->lock);
	}
}

/* iperf3's cookies are 36 printable characters and a NUL */
static bool cookie_ok(const char *c)
{
	for (int i = 0; i < PS_COOKIE_SIZE - 1; i++)
		if (c[i] < 0x21 || c[i] > 0x7e)
			return false;
	return c[PS_COOKIE_SIZE - 1] == 0;
}

static void drop_pending(struct ps_server *srv, int i)
{
	close(srv->pend[i].fd);
	free(srv->pend[i].buf);
	srv->pend[i] = srv->pend[--srv->npend];
}

/* take pend[i] out of the table without closing it */
static void take_pending(struct ps_server *srv, int i)
{
	free(srv->pend[i].buf);
	srv->pend[i] = srv->pend[--srv->npend];
}

static int params_please(struct ps_server *srv, int k);

/* is a test past its running part (its slot frees soon)? */
static bool test_ending(struct ps_server *srv)
{
	bool any = false;

	pthread_mutex_lock(&srv->lock);
	for (int i = 0; i < srv->max_tests; i++)
		if (srv->tests[i].used && atomic_load(&srv->tests[i].ending))
			any = true;
	pthread_mutex_unlock(&srv->lock);
	return any;
}

/* PEND_WAIT connections: a slot now, or busy after all */
static void pend_waiting(struct ps_server *srv)
{
	for (int k = 0; k < srv->npend; k++) {
		struct pending *pd = &srv->pend[k];
		bool busy;

		if (pd->stage != PEND_WAIT)
			continue;
		reap(srv);
		pthread_mutex_lock(&srv->lock);
		busy = !free_slot(srv);
		pthread_mutex_unlock(&srv->lock);
		if (!busy) {
			params_please(srv, k);
			continue;
		}
		if (!test_ending(srv) || ps_now() - pd->wait_since > SLOT_WAIT) {
			deny_busy(srv, pd->fd, pd->peer, pd->port);
			take_pending(srv, k--);
		}
	}
}

/*
 * The cookie is complete: a data stream of a test that waits for it, or a
 * new test (then PARAM_EXCHANGE). 1 = keep reading this connection.
 */
static int pend_cookie(struct ps_server *srv, int k)
{
	struct pending *pd = &srv->pend[k];
	bool known = false, busy;

	reap(srv);	/* a test that just ended frees its slot at once */
	pd = &srv->pend[k];
	if (!cookie_ok(pd->cookie)) {
		refused(srv, _("closed a connection from %s port %d: it sent no cookie (%zu bytes of something else)"),
			pd->peer, pd->port, pd->have);
		drop_pending(srv, k);
		return 0;
	}
	pthread_mutex_lock(&srv->lock);
	for (int i = 0; i < srv->max_tests; i++) {
		struct srv_test *st = &srv->tests[i];

		if (!st->used || memcmp(st->t.cookie, pd->cookie, PS_COOKIE_SIZE))
			continue;
		known = true;
		if (st->awaiting && st->ngot < st->want) {
			/*
			 * Streams take their roles (--bidir: senders first) in
			 * the order the client opened them, as iperf3 does: by
			 * accept order, whichever cookie arrived first.
			 */
			int j = st->ngot++;

			while (j > 0 && st->got_seq[j - 1] > pd->seq) {
				st->got[j] = st->got[j - 1];
				st->got_seq[j] = st->got_seq[j - 1];
				j--;
			}
			st->got[j] = pd->fd;
			st->got_seq[j] = pd->seq;
			pthread_cond_broadcast(&srv->cond);
			pthread_mutex_unlock(&srv->lock);
			take_pending(srv, k);
			return 0;
		}
	}
	busy = !free_slot(srv);
	pthread_mutex_unlock(&srv->lock);
	if (known) {
		/* a test's cookie outside its stream set-up */
		ps_send_state(pd->fd, PS_ACCESS_DENIED);
		refused(srv, _("refused a data stream from %s port %d: its test is not setting up streams"),
			pd->peer, pd->port);
		drop_pending(srv, k);
		return 0;
	}
	if (busy && test_ending(srv)) {
		/*
		 * A test is in its last moments (results, clean-up): its client
		 * may already be back for the next one. Wait for the slot.
		 */
		pd->stage = PEND_WAIT;
		pd->wait_since = ps_now();
		return 0;
	}
	if (busy) {
		deny_busy(srv, pd->fd, pd->peer, pd->port);
		take_pending(srv, k);
		return 0;
	}
	return params_please(srv, k);
}

/* a slot is free: ask for the parameters. 1 = keep reading */
static int params_please(struct ps_server *srv, int k)
{
	struct pending *pd = &srv->pend[k];

	if (ps_send_state(pd->fd, PS_PARAM_EXCHANGE)) {
		drop_pending(srv, k);
		return 0;
	}
	pd->stage = PEND_LEN;
	pd->have = 0;
	return 1;
}

/* the parameters are complete: check them, then start the test */
static void pend_params(struct ps_server *srv, int k)
{
	struct pending *pd = &srv->pend[k];
	struct json_tokener *tok = json_tokener_new_ex(32);	/* depth bound */
	struct json_object *obj;
	struct ps_params p;
	char err[256] = "", cookie[PS_COOKIE_SIZE], peer[64];
	int fd = pd->fd, port = pd->port, rc;

	obj = json_tokener_parse_ex(tok, pd->buf, (int)pd->len);
	if (json_tokener_get_error(tok) == json_tokener_continue) {
		snprintf(err, sizeof(err), _("not JSON (it ends too early)"));
		rc = -EINVAL;
	} else if (json_tokener_get_error(tok) != json_tokener_success || !obj) {
		snprintf(err, sizeof(err), _("not JSON (%s)"),
			 json_tokener_error_desc(json_tokener_get_error(tok)));
		rc = -EINVAL;
	} else if (!json_object_is_type(obj, json_type_object)) {
		snprintf(err, sizeof(err), _("not a JSON object"));
		rc = -EINVAL;
	} else {
		rc = ps_params_from_json(obj, &p, err, sizeof(err));
	}
	json_object_put(obj);
	json_tokener_free(tok);
	if (rc) {
		refused(srv, _("refused a test from %s port %d: bad parameters: %s"),
			pd->peer, pd->port, err);
		send_error(fd, 100, EINVAL);
		drop_pending(srv, k);
		return;
	}
	if (srv->o->rsa_privkey) {
		char user[128];

		if (ps_auth_check(p.authtoken, srv->o->rsa_privkey,
				  srv->o->authorized_users,
				  srv->o->time_skew ? srv->o->time_skew : PS_AUTH_SKEW,
				  srv->o->pkcs1, user, sizeof(user), err,
				  sizeof(err))) {
			refused(srv, _("refused a test from %s port %d: authentication failed: %s"),
				pd->peer, pd->port, err);
			send_error(fd, PS_IEAUTHTEST, EACCES);
			drop_pending(srv, k);
			return;
		}
		msg(srv, _("Authentication succeeded for user '%s' from %s"),
		    user, pd->peer);
	}
	memcpy(cookie, pd->cookie, sizeof(cookie));
	snprintf(peer, sizeof(peer), "%s", pd->peer);
	take_pending(srv, k);
	start_test(srv, fd, cookie, &p, peer, port);
}

/* read what the connection has sent so far, without blocking */
static void pend_step(struct ps_server *srv, int k)
{
	for (;;) {
		struct pending *pd = &srv->pend[k];
		void *dst;
		size_t want;
		ssize_t got;

		switch (pd->stage) {
		case PEND_WAIT: {
			char c;

			/* nothing is due from it now; only notice a hang-up */
			if (recv(pd->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0)
				drop_pending(srv, k);
			return;
		}
		case PEND_COOKIE:
			dst = pd->cookie + pd->have;
			want = PS_COOKIE_SIZE - pd->have;
			break;
		case PEND_LEN:
			dst = pd->lenb + pd->have;
			want = 4 - pd->have;
			break;
		default:
			dst = pd->buf + pd->have;
			want = pd->len - pd->have;
			break;
		}
		got = recv(pd->fd, dst, want, MSG_DONTWAIT);
		if (got < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (got <= 0) {
			if (pd->stage == PEND_COOKIE)
				refused(srv, _("a connection from %s port %d closed after %zu bytes of its cookie"),
					pd->peer, pd->port, pd->have);
			else
				refused(srv, _("a connection from %s port %d closed before its test parameters were complete"),
					pd->peer, pd->port);
			drop_pending(srv, k);
			return;
		}
		pd->have += (size_t)got;
		if ((size_t)got < want)
			return;
		switch (pd->stage) {
		case PEND_COOKIE:
			if (!pend_cookie(srv, k))
				return;
			break;
		case PEND_LEN: {
			uint32_t n;

			memcpy(&n, pd->lenb, 4);
			pd->len = ntohl(n);
			if (pd->len == 0 || pd->len > PS_MAX_PARAMS_JSON) {
				refused(srv, _("refused a test from %s port %d: parameters of %u bytes (at most %d)"),
					pd->peer, pd->port, pd->len,
					PS_MAX_PARAMS_JSON);
				send_error(pd->fd, 100, EMSGSIZE);
				drop_pending(srv, k);
				return;
			}
			pd->buf = xmalloc(pd->len + 1);
			pd->have = 0;
			pd->stage = PEND_PARAMS;
			break;
		}
		default:
			pd->buf[pd->len] = 0;
			pend_params(srv, k);
			return;
		}
	}
}

/* a new connection: the allow-list, then room in the table */
static void pend_add(struct ps_server *srv, int fd,
		     const struct sockaddr_storage *ss)
{
	struct pending *pd;
	char peer[64];
	int port;

	ps_sock_name(fd, true, peer, sizeof(peer), &port);
	if (!ps_acl_allows(srv->o->allow, srv->o->nallow,
			   (const struct sockaddr *)ss)) {
		refused(srv, _("refused a connection from %s port %d: not in the allowed networks"),
			peer, port);
		ps_send_state(fd, PS_ACCESS_DENIED);
		close(fd);
		return;
	}
	if (srv->npend == PENDING_MAX) {
		int oldest = -1;

		/* first let those whose bytes are in move on (an honest
		 * client's cookie is usually there by now) */
		for (int i = srv->npend - 1; i >= 0; i--)
			if (i < srv->npend)
				pend_step(srv, i);
		/* then close the oldest that has not shown a valid cookie */
		for (int i = 0; i < srv->npend; i++) {
			if (srv->pend[i].stage != PEND_COOKIE)
				continue;
			if (oldest < 0 || srv->pend[i].since < srv->pend[oldest].since)
				oldest = i;
		}
		if (oldest < 0) {	/* all past their cookie: the oldest */
			oldest = 0;
			for (int i = 1; i < srv->npend; i++)
				if (srv->pend[i].since < srv->pend[oldest].since)
					oldest = i;
		}
		if (srv->npend == PENDING_MAX) {
			refused(srv, _("too many connections in their handshake: closed the oldest, from %s port %d"),
				srv->pend[oldest].peer, srv->pend[oldest].port);
			drop_pending(srv, oldest);
		}
	}
	pd = &srv->pend[srv->npend++];
	*pd = (struct pending){ .fd = fd, .since = ps_now(), .port = port,
				.seq = srv->accepted++ };
	snprintf(pd->peer, sizeof(pd->peer), "%s", peer);
	/* an honest client has usually sent its cookie already */
	pend_step(srv, srv->npend - 1);
}

int ps_server_loop(struct ps_server *srv, const struct ps_reporter *rep,
		   atomic_bool *stop)
{
	atomic_bool local_stop = false;
	double idle_since = ps_now();

	srv->rep = rep;
	srv->stop = stop ? stop : &local_stop;
	msg(srv, _("Server listening on %d"), srv->port);
	while (!atomic_load(srv->stop)) {
		struct pollfd pf[PENDING_MAX + 1];
		int n = 0, active;

		pf[n].fd = srv->lfd;
		pf[n++].events = POLLIN;
		for (int i = 0; i < srv->npend; i++) {
			pf[n].fd = srv->pend[i].fd;
			/* a waiting one: only its hang-up matters */
			pf[n++].events = srv->pend[i].stage == PEND_WAIT ?
					 POLLRDHUP : POLLIN;
		}
		poll(pf, (nfds_t)n, 100);
		if (pf[0].revents & POLLIN) {
			/* a bounded batch, so the table is served between */
			for (int a = 0; a < PENDING_MAX; a++) {
				struct sockaddr_storage ss;
				socklen_t sl = sizeof(ss);
				int fd = accept4(srv->lfd, (struct sockaddr *)&ss,
						 &sl, SOCK_CLOEXEC);

				if (fd < 0) {
					if (errno == EMFILE || errno == ENFILE)
						refused(srv, _("cannot accept a connection: %s"),
							strerror(errno));
					break;
				}
				pend_add(srv, fd, &ss);
			}
		}
		for (int i = 1; i < n; i++) {
			int k;

			if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR | POLLRDHUP)))
				continue;
			/* the table may have shifted: find this fd again */
			for (k = 0; k < srv->npend && srv->pend[k].fd != pf[i].fd; k++)
				;
			if (k < srv->npend)
				pend_step(srv, k);
		}
		for (int k = 0; k < srv->npend; k++) {
			struct pending *pd = &srv->pend[k];

			if (ps_now() - pd->since <= srv->handshake)
				continue;
			if (pd->stage == PEND_COOKIE)
				refused(srv, _("closed a connection from %s port %d: no cookie within %g s"),
					pd->peer, pd->port, srv->handshake);
			else
				refused(srv, _("closed a connection from %s port %d: no test parameters within %g s"),
					pd->peer, pd->port, srv->handshake);
			drop_pending(srv, k--);
		}
		pend_waiting(srv);
		refusals_flush(srv, ps_now());
		active = reap(srv);
		if (active || srv->npend)
			idle_since = ps_now();
		else if (srv->o->idle_timeout &&
			 ps_now() - idle_since > srv->o->idle_timeout) {
			/*
			 * iperf3's --idle-timeout: a one-off server that nobody
			 * used gives up; a long-running one re-opens its
			 * listening socket, in case it got stuck.
			 */
			idle_since = ps_now();
			if (srv->o->one_off) {
				msg(srv, _("no test in %u s: the one-off server stops"),
				    srv->o->idle_timeout);
				atomic_store(srv->stop, true);
			} else {
				int fd = ps_listen(srv->o->bind, srv->o->bind_dev,
						   srv->port, srv->o->family,
						   SOCK_STREAM);

				if (fd >= 0) {
					fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
					close(srv->lfd);
					srv->lfd = fd;
					ps_debug("idle for %u s: listening socket re-opened",
						 srv->o->idle_timeout);
				}
			}
		}
	}
	/* stop: tests see the flag, end and report */
	for (int i = 0; i < srv->max_tests; i++) {
		if (srv->tests[i].used) {
			pthread_join(srv->tests[i].thread, NULL);
			srv->tests[i].used = false;
		}
	}
	while (srv->npend)
		drop_pending(srv, 0);
	return PS_EXIT_OK;
}

void ps_server_close(struct ps_server *srv)
{
	if (!srv)
		return;
	close(srv->lfd);
	pthread_mutex_destroy(&srv->lock);
	pthread_cond_destroy(&srv->cond);
	pthread_mutex_destroy(&srv->udp_lock);
	pthread_mutex_destroy(&srv->rep_lock);
	pthread_mutex_destroy(&srv->refuse_lock);
	free(srv->tests);
	free(srv);
}
