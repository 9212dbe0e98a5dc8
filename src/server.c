/* server.c: "pipescope -s": serves pipescope and iperf3 clients, N tests at once */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "exitcodes.h"
#include "log.h"
#include "net.h"
#include "nls.h"
#include "test.h"
#include "xmalloc.h"

#define PENDING_MAX 64		/* connections that have not sent a cookie */
#define COOKIE_TIMEOUT 10.0	/* seconds to send one */
#define STREAMS_TIMEOUT 10.0	/* seconds for the data streams to arrive */

struct srv_test {
	struct ps_server *srv;
	struct ps_test t;
	pthread_t thread;
	bool used;
	atomic_bool finished;
	bool awaiting;		/* accepting data streams (under srv->lock) */
	int want;		/* data streams expected */
	int ngot;
	int got[2 * PS_MAX_STREAMS];
	char peer[64];
	char err[256];
	struct ps_reporter rep;	/* what the test calls: locks, then fans out */
	struct ps_reporter own;	/* -J: a document per test */
	struct ps_reporter cap;	/* --get-server-output: text into capbuf */
	FILE *capf;
	char *capbuf;
	size_t caplen;
};

struct pending {
	int fd;
	size_t have;
	char cookie[PS_COOKIE_SIZE];
	double since;
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
};

static void msg(struct ps_server *srv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void msg(struct ps_server *srv, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (srv->rep && srv->rep->message)
		srv->rep->message(srv->rep->arg, buf);
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
	srv->out = stdout;
	srv->max_tests = o->max_tests > 0 ? o->max_tests : 1;
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

static void sockopts_for(const struct ps_params *p, struct ps_sockopts *so)
{
	memset(so, 0, sizeof(*so));
	so->window = p->window;
	so->mss = p->mss;
	so->nodelay = p->nodelay;
	so->congestion = p->congestion[0] ? p->congestion : NULL;
	so->tos = p->tos;
	so->pacing_bps = p->fq_rate ? p->fq_rate :
			 (p->proto == PS_PROTO_TCP ? p->rate : 0);
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
	if (o->server_rate_limit && (p->rate == 0 ||
	    p->rate * (uint64_t)p->parallel > o->server_rate_limit)) {
		snprintf(st->err, sizeof(st->err),
			 _("test refused: its rate is above this server's limit of %llu bit/s"),
			 (unsigned long long)o->server_rate_limit);
		return -1;
	}
	return 0;
}

/* UDP: each stream says hello on the port; answer from a connected socket */
static int udp_streams(struct srv_test *st)
{
	struct ps_server *srv = st->srv;
	struct ps_test *t = &st->t;
	int fd = -1, rc = 0, one = 1;
	struct ps_sockopts so;

	sockopts_for(&t->p, &so);
	pthread_mutex_lock(&srv->udp_lock);
	for (int i = 0; i < st->want; i++) {
		struct sockaddr_storage peer;
		socklen_t pl = sizeof(peer);
		struct pollfd pfd;
		uint32_t buf[16], reply = PS_UDP_CONNECT_REPLY;
		ssize_t n;

		if (fd < 0) {
			fd = ps_listen(srv->o->bind, srv->o->bind_dev, srv->port,
				       srv->o->family, SOCK_DGRAM);
			if (fd < 0) {
				rc = fd;
				break;
			}
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
			if (i == 0 && ps_send_state(t->ctrl_fd, PS_CREATE_STREAMS)) {
				rc = -EPIPE;
				break;
			}
		}
		pfd.fd = fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, (int)(STREAMS_TIMEOUT * 1000)) <= 0) {
			rc = -ETIMEDOUT;
			break;
		}
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&peer, &pl);
		if (n < 0 || connect(fd, (struct sockaddr *)&peer, pl)) {
			rc = -errno;
			break;
		}
		ps_apply_sockopts(fd, peer.ss_family, false, &so, NULL, 0);
		if (send(fd, &reply, sizeof(reply), 0) != sizeof(reply)) {
			rc = -errno;
			break;
		}
		st->got[st->ngot++] = fd;
		fd = -1;	/* a fresh bound socket for the next hello */
	}
	if (fd >= 0)
		close(fd);
	pthread_mutex_unlock(&srv->udp_lock);
	return rc;
}

static int tcp_streams(struct srv_test *st)
{
	struct ps_server *srv = st->srv;
	struct timespec ts;
	int rc = 0;

	pthread_mutex_lock(&srv->lock);
	st->awaiting = true;
	pthread_mutex_unlock(&srv->lock);
	if (ps_send_state(st->t.ctrl_fd, PS_CREATE_STREAMS))
		rc = -EPIPE;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += (time_t)STREAMS_TIMEOUT;
	pthread_mutex_lock(&srv->lock);
	while (!rc && st->ngot < st->want) {
		if (pthread_cond_timedwait(&srv->cond, &srv->lock, &ts) == ETIMEDOUT &&
		    st->ngot < st->want)
			rc = -ETIMEDOUT;
	}
	st->awaiting = false;
	pthread_mutex_unlock(&srv->lock);
	return rc;
}

static void fill_info(struct srv_test *st)
{
	struct ps_test *t = &st->t;
	struct ps_test_info *in = &t->info;

	memset(in, 0, sizeof(*in));
	in->server = true;
	in->proto = t->p.proto;
	in->nstreams = t->nstreams;
	in->parallel = t->p.parallel;
	in->reverse = t->p.reverse;
	in->bidir = t->p.bidir;
	in->duration = t->p.duration;
	in->bytes = t->p.bytes;
	in->blocks = t->p.blocks;
	in->len = t->p.len;
	in->omit = t->p.omit;
	in->rate = t->p.rate;
	in->peer_kind = t->p.ps_ext ? "pipescope" : "iperf3";
	snprintf(in->peer_version, sizeof(in->peer_version), "%s", t->p.client_version);
	memcpy(in->cookie, t->cookie, sizeof(in->cookie));
	for (int i = 0; i < t->nstreams && i < (int)(sizeof(in->conn) / sizeof(in->conn[0])); i++) {
		struct ps_stream *s = t->streams[i];

		in->conn[i].id = s->id;
		in->conn[i].fd = s->fd;
		in->conn[i].sender = s->sender;
		ps_sock_name(s->fd, false, in->conn[i].local, sizeof(in->conn[i].local), &in->conn[i].lport);
		ps_sock_name(s->fd, true, in->conn[i].remote, sizeof(in->conn[i].remote), &in->conn[i].rport);
		ps_sock_readback(s->fd, &in->conn[i].nodelay, &in->conn[i].mss,
				 &in->conn[i].sndbuf, &in->conn[i].rcvbuf,
				 &in->conn[i].tos, in->conn[i].congestion,
				 sizeof(in->conn[i].congestion));
		in->nconn++;
	}
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
	double last_ctrl = ps_now();

	for (;;) {
		struct pollfd p = { .fd = t->ctrl_fd, .events = POLLIN };
		double now = ps_now();
		int wait = (int)((next - now) * 1000);

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
		if (t->p.duration > 0 && now - last_ctrl > t->p.omit + t->p.duration + idle) {
			snprintf(st->err, sizeof(st->err),
				 _("the client went silent; test abandoned"));
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
			next += tickp;
			if (next < now)
				next = now + tickp;
		}
	}
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

	rc = ps_send_state(t->ctrl_fd, PS_PARAM_EXCHANGE);
	if (!rc)
		rc = ps_recv_json(t->ctrl_fd, &obj, PS_MAX_PARAMS_JSON, 10000);
	if (rc) {
		snprintf(st->err, sizeof(st->err), _("no test parameters from %s: %s"),
			 st->peer, rc == -EMSGSIZE ? _("bad length") :
			 rc == -EBADMSG ? _("not JSON") : strerror(-rc));
		goto out;
	}
	rc = ps_params_from_json(obj, &t->p, st->err, sizeof(st->err));
	json_object_put(obj);
	if (rc) {
		send_error(t->ctrl_fd, 100, EINVAL);
		goto out;
	}
	if (t->p.len == 0)
		t->p.len = t->p.proto == PS_PROTO_UDP ? 1460 : PS_DEFAULT_TCP_LEN;
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
	}
	st->want = t->p.parallel * (t->p.bidir ? 2 : 1);
	rc = t->p.proto == PS_PROTO_UDP ? udp_streams(st) : tcp_streams(st);
	if (rc) {
		snprintf(st->err, sizeof(st->err), _("the data streams did not arrive: %s"),
			 strerror(-rc));
		goto out;
	}
	sockopts_for(&t->p, &so);
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
	ps_streams_stop(t, true, true);
	if (rc == 0 && (rc = serve_results(st)) != 0)
		snprintf(st->err, sizeof(st->err), _("results exchange with %s failed: %s"),
			 st->peer, strerror(-rc));
	report_end(st, rc != 0);
	running = false;
out:
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

/* a complete cookie arrived: a data stream of a test, or a new test */
static void dispatch(struct ps_server *srv, int fd, const char *cookie)
{
	struct srv_test *free_slot = NULL;
	char peer[64];
	int port;

	pthread_mutex_lock(&srv->lock);
	for (int i = 0; i < srv->max_tests; i++) {
		struct srv_test *st = &srv->tests[i];

		if (!st->used) {
			if (!free_slot)
				free_slot = st;
			continue;
		}
		if (memcmp(st->t.cookie, cookie, PS_COOKIE_SIZE))
			continue;
		if (st->awaiting && st->ngot < st->want) {
			st->got[st->ngot++] = fd;
			pthread_cond_broadcast(&srv->cond);
			pthread_mutex_unlock(&srv->lock);
			return;
		}
		/* a known cookie outside stream set-up: refuse it */
		pthread_mutex_unlock(&srv->lock);
		ps_send_state(fd, PS_ACCESS_DENIED);
		close(fd);
		return;
	}
	ps_sock_name(fd, true, peer, sizeof(peer), &port);
	if (!free_slot || (srv->o->one_off && srv->served > 0)) {
		pthread_mutex_unlock(&srv->lock);
		ps_send_state(fd, PS_ACCESS_DENIED);
		close(fd);
		msg(srv, _("refused a test from %s port %d: the server is busy"), peer, port);
		return;
	}
	memset(free_slot, 0, sizeof(*free_slot));
	free_slot->srv = srv;
	free_slot->used = true;
	snprintf(free_slot->peer, sizeof(free_slot->peer), "%s", peer);
	memcpy(free_slot->t.cookie, cookie, PS_COOKIE_SIZE);
	free_slot->t.ctrl_fd = fd;
	free_slot->t.server = true;
	reporters_open(free_slot);
	free_slot->t.interval = srv->o->interval;
	free_slot->t.format = srv->o->format;
	free_slot->t.o = srv->o;
	pthread_mutex_unlock(&srv->lock);
	msg(srv, _("Accepted connection from %s, port %d"), peer, port);
	{
		int one = 1;

		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	}
	if (pthread_create(&free_slot->thread, NULL, test_main, free_slot)) {
		close(fd);
		pthread_mutex_lock(&srv->lock);
		free_slot->used = false;
		pthread_mutex_unlock(&srv->lock);
	}
}

static void drop_pending(struct ps_server *srv, int i)
{
	close(srv->pend[i].fd);
	srv->pend[i] = srv->pend[--srv->npend];
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
			pf[n++].events = POLLIN;
		}
		poll(pf, (nfds_t)n, 100);
		if (pf[0].revents & POLLIN) {
			for (;;) {
				int fd = accept4(srv->lfd, NULL, NULL, SOCK_CLOEXEC);

				if (fd < 0)
					break;
				if (srv->npend == PENDING_MAX) {
					ps_debug("too many silent connections; dropping the oldest");
					drop_pending(srv, 0);
				}
				srv->pend[srv->npend++] = (struct pending){
					.fd = fd, .since = ps_now() };
			}
		}
		for (int i = 1; i < n; i++) {
			struct pending *pd;
			int k = i - 1;
			ssize_t got;

			if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			/* the table may have shifted: find this fd again */
			for (k = 0; k < srv->npend && srv->pend[k].fd != pf[i].fd; k++)
				;
			if (k == srv->npend)
				continue;
			pd = &srv->pend[k];
			got = recv(pd->fd, pd->cookie + pd->have,
				   PS_COOKIE_SIZE - pd->have, MSG_DONTWAIT);
			if (got <= 0) {
				if (got < 0 && (errno == EAGAIN || errno == EINTR))
					continue;
				drop_pending(srv, k);
				continue;
			}
			pd->have += (size_t)got;
			if (pd->have == PS_COOKIE_SIZE) {
				int fd = pd->fd;
				char cookie[PS_COOKIE_SIZE];

				memcpy(cookie, pd->cookie, sizeof(cookie));
				srv->pend[k] = srv->pend[--srv->npend];
				dispatch(srv, fd, cookie);
			}
		}
		for (int k = 0; k < srv->npend; k++) {
			if (ps_now() - srv->pend[k].since > COOKIE_TIMEOUT) {
				ps_debug("a connection sent no cookie in time; closed");
				drop_pending(srv, k--);
			}
		}
		active = reap(srv);
		if (active || srv->npend)
			idle_since = ps_now();
		else if (srv->o->idle_timeout &&
			 ps_now() - idle_since > srv->o->idle_timeout) {
			idle_since = ps_now();
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
	free(srv->tests);
	free(srv);
}
