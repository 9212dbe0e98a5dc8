/* client.c: "pipescope -c HOST": the client side of iperf3's protocol */
#include "config.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "auth.h"
#include "exitcodes.h"
#include "log.h"
#include "net.h"
#include "nls.h"
#include "snapshot.h"
#include "test.h"
#include "xmalloc.h"

struct client {
	struct ps_test t;
	const struct ps_opts *o;
	const struct ps_reporter *rep;
	atomic_bool *stop;
	const char *host;
	int port;
	int timeout_ms;
	unsigned seen;	     /* the states the server sent, a bit each */
	int last;	     /* the last one */
	bool probes_ignored; /* an EXT_PROBE not asked for came, and was said */
	char err[512];
};

/*
 * The order a server's states come in, each once: PARAM_EXCHANGE, EXT_ACK
 * (a pipescope server), CREATE_STREAMS, TEST_START, TEST_RUNNING, then
 * EXCHANGE_RESULTS and DISPLAY_RESULTS after this end's TEST_END. EXT_DATA
 * and EXT_PROBE come any number of times, from a pipescope server once the
 * test has its streams. Anything else ends the test.
 */
enum { SEEN_PE, SEEN_ACK, SEEN_CS, SEEN_TS, SEEN_TR, SEEN_XR, SEEN_DR };

/* a line for the reporter ("Connecting to host ...") */
#define say(c, ...) ps_report_message((c)->rep, __VA_ARGS__)

static int fail(struct client *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct client *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	return -1;
}

static void params_from_opts(struct ps_params *p, const struct ps_opts *o)
{
	memset(p, 0, sizeof(*p));
	p->proto = o->proto;
	p->omit = o->omit;
	p->duration = o->bytes || o->blocks ? 0 : o->duration;
	p->bytes = o->bytes;
	p->blocks = o->blocks;
	p->parallel = o->parallel;
	p->reverse = o->reverse;
	p->bidir = o->bidir;
	p->window = o->window;
	p->len = o->len			    ? o->len
		 : o->proto == PS_PROTO_UDP ? PS_DEFAULT_UDP_LEN
		 : o->blocks || o->rate	    ? PS_IPERF3_TCP_LEN
					    : PS_DEFAULT_TCP_LEN;
	/*
	 * Where the server sends (-R, --bidir), iperf3's 128 KiB: a 3.17+
	 * server stops its threads mid-block and never counts that block,
	 * so a client reading 1 MiB blocks saw up to 1 MiB a stream more
	 * than the server said it sent. A pipescope server, told in the
	 * extension, keeps the 1 MiB.
	 */
	if (p->proto == PS_PROTO_TCP && !o->len &&
	    p->len == PS_DEFAULT_TCP_LEN && (o->reverse || o->bidir)) {
		p->len = PS_IPERF3_TCP_LEN;
		p->ps_len = PS_DEFAULT_TCP_LEN;
	}
	p->rate = o->rate;
	p->burst = o->burst;
	p->fq_rate = o->fq_rate;
	p->mss = o->mss;
	p->nodelay = o->nodelay;
	if (o->congestion)
		snprintf(p->congestion, sizeof(p->congestion), "%s",
			 o->congestion);
	p->tos = o->tos;
	p->get_server_output = o->get_server_output;
	p->udp64 = o->udp_counters_64bit;
	p->zerocopy = o->zerocopy;
	p->skip_rx_copy = o->skip_rx_copy;
	p->repeating_payload = o->repeating_payload;
	p->dont_fragment = o->dont_fragment;
	p->gsro = o->proto == PS_PROTO_UDP && !o->no_gsro;
	p->iperf_gsro = o->proto == PS_PROTO_UDP && o->gsro;
	if (o->title)
		snprintf(p->title, sizeof(p->title), "%s", o->title);
	if (o->extra_data)
		snprintf(p->extra_data, sizeof(p->extra_data), "%s",
			 o->extra_data);
	p->server_affinity = o->server_cpu;
	snprintf(p->client_version, sizeof(p->client_version), "%s",
		 PACKAGE_VERSION);
	p->ps_ext = true;
	p->ps_ext_version = PS_EXT_VERSION;
	p->peer_probes = o->peer_probes || o->json || o->json_stream;
	/* a pipescope server in another namespace of this host says so */
	ps_boot_id(p->boot_id, sizeof(p->boot_id));
}

/*
 * UDP without -l: iperf3's rule, the control connection's MSS (the path
 * is taken to be the data's; a datagram that size is not fragmented),
 * else 1460. Loopback gives 32768 or so, Ethernet 1448: there pipescope
 * ends still batch datagrams with UDP_SEGMENT (stream-udp.c, up to 16K).
 */
static void udp_len(struct client *c)
{
	int mss = 0;
	socklen_t l = sizeof(mss);

	if (c->t.p.proto != PS_PROTO_UDP || c->o->len)
		return;
	if (getsockopt(c->t.ctrl_fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &l) == 0 &&
	    mss >= PS_MIN_UDP_LEN && mss <= PS_MAX_UDP_LEN)
		c->t.p.len = (uint32_t)mss;
}

static int udp_hello(struct client *c, int fd)
{
	uint32_t msg = PS_UDP_CONNECT_MSG, reply = 0;
	int tries = 0;

	int refused = 0;

	if (send(fd, &msg, sizeof(msg), 0) != sizeof(msg))
		return -errno;
	/* in -R the server may already send data; tolerate a few */
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char buf[65536];
		ssize_t n;

		int waited = 0,
		    limit = c->timeout_ms > 0 ? c->timeout_ms : 10000;

		/* in slices, to see a Ctrl-C (c->stop) soon */
		while (poll(&p, 1, 100) <= 0) {
			if (c->stop && atomic_load(c->stop))
				return -EINTR;
			if ((waited += 100) >= limit)
				return -ETIMEDOUT;
		}
		n = recv(fd, buf, sizeof(buf), 0);
		/*
		 * A server that binds its next UDP socket only after answering
		 * the previous hello (older pipescope) may not be listening
		 * yet: the port is closed for a moment. Say hello again.
		 */
		if (n < 0 && errno == ECONNREFUSED && ++refused < 20) {
			usleep(10000);
			if (send(fd, &msg, sizeof(msg), 0) != sizeof(msg))
				return -errno;
			continue;
		}
		if (n < 0)
			return -errno;
		if (n == 4) {
			memcpy(&reply, buf, 4);
			if (reply == PS_UDP_CONNECT_REPLY ||
			    reply == PS_UDP_CONNECT_REPLY_LEGACY)
				return 0;
		}
		if (++tries > 2)
			return -EPROTO;
	}
}

static int create_streams(struct client *c)
{
	struct ps_test *t = &c->t;
	const struct ps_opts *o = c->o;
	int n = t->p.parallel * (t->p.bidir ? 2 : 1);
	struct ps_sockopts so;

	ps_params_sockopts(&t->p, &so);
	so.dont_fragment = t->p.dont_fragment;
	so.flowlabel = o->flowlabel;
	/* segmentation offload by default between pipescope ends */
	t->gsro = t->p.proto == PS_PROTO_UDP && !o->no_gsro &&
		  (o->gsro || t->peer_ext);
	/* CREATE_STREAMS comes once: the table holds what -P asks for */
	if (n < 1 ||
	    t->nstreams + n > (int)(sizeof(t->streams) / sizeof(t->streams[0])))
		return fail(c,
			    _("protocol error: %d streams do not fit the test"),
			    n);
	ps_place_plan(t->ctrl_fd, o->no_numa, o->ncpus > 0, &t->place);
	ps_streams_plan(t, t->p.parallel, o->file != NULL);
	for (int i = 0; i < n; i++) {
		const char *why;
		bool sender = t->p.bidir ? i < t->p.parallel : !t->p.reverse;

		if (c->stop && atomic_load(c->stop))
			return fail(c, _("interrupted"));
		int fd = ps_connect(
			c->host, c->port, o->family,
			t->p.proto == PS_PROTO_UDP ? SOCK_DGRAM : SOCK_STREAM,
			o->bind, o->bind_dev, o->cport ? o->cport + i : 0, &so,
			o->connect_timeout_ms, &why);
		struct ps_stream *s;
		int rc;

		if (fd < 0)
			return fail(c,
				    _("data stream %d to %s port %d: %s "
				      "failed: %s"),
				    i + 1, c->host, c->port, why,
				    strerror(-fd));
		if (t->p.proto == PS_PROTO_TCP)
			rc = ps_write_full(fd, t->cookie, PS_COOKIE_SIZE);
		else
			rc = udp_hello(c, fd);
		if (rc == -EINTR) {
			close(fd);
			return fail(c, _("interrupted"));
		}
		if (rc) {
			close(fd);
			return fail(c,
				    _("data stream %d: the server did not "
				      "accept it: %s"),
				    i + 1, strerror(-rc));
		}
		s = ps_stream_new(t, fd, ps_stream_id(i), sender, 0);
		if (o->ncpus > 1)
			s->cpu_pin = o->cpus[i % o->ncpus];
		if (sender && t->p.zerocopy && t->p.proto == PS_PROTO_TCP &&
		    !o->file && (rc = ps_stream_sendfile_setup(s)))
			ps_warn(_("-Z: sending with send(2): %s"),
				strerror(-rc));
		t->streams[t->nstreams++] = s;
		if (o->file &&
		    (rc = ps_stream_attach_file(s, o->file,
						sender ? 1 : t->p.parallel)))
			return fail(c, _("cannot use the file %s: %s"), o->file,
				    strerror(-rc));
	}
	return 0;
}

static void fill_info(struct client *c)
{
	struct ps_test *t = &c->t;
	struct ps_test_info *in = &t->info;
	socklen_t l;

	ps_test_info_fill(t);
	in->ntargets = 1;
	in->target_host[0] = c->host;
	in->target_port[0] = c->port;
	l = sizeof(in->mss_default);
	getsockopt(t->ctrl_fd, IPPROTO_TCP, TCP_MAXSEG, &in->mss_default, &l);
}

static int seen_bit(signed char st)
{
	switch (st) {
	case PS_PARAM_EXCHANGE:
		return SEEN_PE;
	case PS_EXT_ACK:
		return SEEN_ACK;
	case PS_CREATE_STREAMS:
		return SEEN_CS;
	case PS_TEST_START:
		return SEEN_TS;
	case PS_TEST_RUNNING:
		return SEEN_TR;
	case PS_EXCHANGE_RESULTS:
		return SEEN_XR;
	case PS_DISPLAY_RESULTS:
		return SEEN_DR;
	}
	return -1;
}

static bool seen(const struct client *c, int bit)
{
	return c->seen & (1u << bit);
}

/*
 * May the server send st now (ending is true once this end sent
 * TEST_END)? 0, or -1 with the reason in c->err. Only state numbers and
 * our own names of them are printed, never the server's bytes.
 */
static int state_allowed(struct client *c, signed char st, bool ending)
{
	int bit = seen_bit(st);
	bool ok;

	switch (st) {
	case PS_PARAM_EXCHANGE:
		ok = !ending;
		break;
	case PS_EXT_ACK:
		ok = !ending && seen(c, SEEN_PE) && !seen(c, SEEN_CS);
		break;
	case PS_CREATE_STREAMS:
		ok = !ending && seen(c, SEEN_PE);
		break;
	case PS_TEST_START:
		ok = !ending && seen(c, SEEN_CS);
		break;
	case PS_TEST_RUNNING:
		ok = !ending && seen(c, SEEN_TS);
		break;
	case PS_EXCHANGE_RESULTS:
		ok = ending;
		break;
	case PS_DISPLAY_RESULTS:
		ok = ending && seen(c, SEEN_XR);
		break;
	case PS_EXT_DATA:
	case PS_EXT_PROBE:
		if (!c->t.peer_ext)
			return fail(c,
				    _("protocol error: the server sent %s "
				      "without EXT_ACK"),
				    ps_state_name(st));
		if (!c->t.nstreams || !seen(c, SEEN_CS))
			return fail(c,
				    _("protocol error: the server sent %s "
				      "before the test had its streams"),
				    ps_state_name(st));
		return 0;
	default:
		return 0; /* the errors, or unexpected: handle_state says */
	}
	if (ok && bit >= 0 && seen(c, bit))
		return fail(c, _("protocol error: the server sent %s twice"),
			    ps_state_name(st));
	if (!ok)
		return fail(c,
			    _("protocol error: the server sent %s out of order "
			      "(after %s)"),
			    ps_state_name(st),
			    c->last ? ps_state_name(c->last) : "-");
	return 0;
}

/* credentials sent, and the server has not yet said CREATE_STREAMS */
static bool login_pending(const struct client *c)
{
	return c->t.p.authtoken[0] && seen(c, SEEN_PE) && !seen(c, SEEN_CS);
}

static const char *login_refused(void)
{
	return _("the server refused the login (user, password or RSA key)");
}

/* the next state from the server, checked against the order: 0, -2 when
 * stopped (SIGINT), else -1; c->err says why (timeout, closed, order) */
static int next_state(struct client *c, signed char *st, int timeout_ms,
		      bool ending)
{
	int rc = ps_recv_state_stop(c->t.ctrl_fd, st, timeout_ms, c->stop);
	int bit;

	if (rc == -EINTR) {
		fail(c, _("interrupted"));
		return -2;
	}
	if (rc && ending)
		return fail(c, _("the server did not send results: %s"),
			    ps_proto_strerror(rc));
	/* iperf3 3.17+ closes without a word when the login fails */
	if (rc == -EPIPE && login_pending(c))
		return fail(c, "%s", login_refused());
	if (rc)
		return fail(c,
			    _("the server closed the control connection before "
			      "the test (%s)"),
			    rc == -EPIPE
				    ? _("is it a pipescope or iperf3 server?")
				    : ps_proto_strerror(rc));
	if (state_allowed(c, *st, ending))
		return -1;
	bit = seen_bit(*st);
	if (bit >= 0)
		c->seen |= 1u << bit;
	c->last = *st;
	return 0;
}

/* the JSON message that follows a state: 0 or -1 with c->err set */
static int recv_json(struct client *c, signed char st, struct json_object **obj,
		     int timeout_ms)
{
	const struct ps_json_limit *lim = st == PS_EXT_PROBE  ? &ps_lim_probe
					  : st == PS_EXT_DATA ? &ps_lim_ext_data
					  : st == PS_EXT_ACK  ? &ps_lim_ack
							      : &ps_lim_results;
	int rc = ps_recv_json_lim(c->t.ctrl_fd, obj, lim, timeout_ms, c->stop);
	const char *why = ps_proto_strerror(rc);

	if (rc == -EINTR)
		return fail(c, _("interrupted"));
	if (rc && st == PS_EXT_PROBE)
		return fail(
			c, _("the server's probe readings were unreadable: %s"),
			why);
	if (rc && st == PS_EXT_DATA)
		return fail(c, _("the server's live data was unreadable: %s"),
			    why);
	if (rc && st == PS_EXT_ACK)
		return fail(c, _("the server's greeting was unreadable: %s"),
			    why);
	if (rc)
		return fail(c, _("the server's results were unreadable: %s"),
			    why);
	return 0;
}

/*
 * What a server's refusal (SERVER_ERROR's i_errno and errno) means, when
 * it is one we know: iperf3's codes for a login and for its limits, and a
 * pipescope server's (iperf3 error 100 with the errno of enforce_caps).
 * NULL: the generic text.
 */
static const char *server_error_text(const struct client *c, int ierr, int err)
{
	switch (ierr) {
	case PS_IEAUTHTEST:
		return login_refused();
	case PS_IETOTALRATE:
		return _("the server refused the test: its total rate is above "
			 "the server's limit (--server-bitrate-limit); ask for "
			 "less with -b, or fewer streams with -P");
	case PS_IEMAXDURATION:
		return _("the server refused the test: it is longer than the "
			 "server allows (--server-max-duration); ask for a "
			 "shorter -t");
	case PS_IENEWTEST:
		break;
	default:
		return NULL;
	}
	if (err == ENOTSUP && c->o->skip_rx_copy)
		return _("the server refused --skip-rx-copy: it writes what it "
			 "receives to a file (-F), which needs the data; run "
			 "without --skip-rx-copy");
	if (err == EBUSY)
		return _("the server refused the test: another test is writing "
			 "the server's -F file; try again when that test has "
			 "ended");
	if (err == EPERM)
		return _("the server refused the test: it is over one of the "
			 "server's limits (--server-max-duration, "
			 "--server-bitrate-limit or --server-max-streams); ask "
			 "for a shorter, slower or smaller test");
	return NULL;
}

/*
 * The server's probe readings when this client did not ask for them: read
 * past unparsed (within the message's limit), and said once; 0 or -1
 */
static int skip_probe(struct client *c)
{
	int rc = ps_recv_skip_lim(c->t.ctrl_fd, &ps_lim_probe, 5000, c->stop);

	if (rc == -EINTR)
		return fail(c, _("interrupted"));
	if (rc)
		return fail(
			c, _("the server's probe readings were unreadable: %s"),
			ps_proto_strerror(rc));
	if (!c->probes_ignored)
		ps_warn(_("the server sent its probe readings, which this "
			  "client did not ask for; ignored"));
	c->probes_ignored = true;
	return 0;
}

/* a state from the server during the test; 1 = the test must end */
static int handle_state(struct client *c, signed char st)
{
	struct ps_test *t = &c->t;
	struct json_object *obj;

	switch (st) {
	case PS_EXT_DATA:
		if (recv_json(c, st, &obj, 5000))
			return -1;
		if (ps_test_take_ext_data(t, obj)) {
			json_object_put(obj);
			return fail(c,
				    _("protocol error: the server's live data "
				      "lists more streams than the test's %d"),
				    t->nstreams);
		}
		json_object_put(obj);
		return 0;
	case PS_EXT_PROBE:
		if (!t->p.peer_probes)
			return skip_probe(c);
		if (recv_json(c, st, &obj, 5000))
			return -1;
		/* a snapshot this version cannot read is left out, not fatal */
		ps_test_take_probe(t, obj);
		json_object_put(obj);
#ifdef __GLIBC__
		/* the message's tree (up to 25 MB) back to the system: the
		 * history's thread, which writes the record, cannot reuse
		 * this thread's free memory */
		malloc_trim(0);
#endif
		return 0;
	case PS_SERVER_TERMINATE:
		return fail(c, _("the server has terminated the test"));
	case PS_ACCESS_DENIED:
		/* after the credentials, not busy: the login */
		if (login_pending(c))
			return fail(c, "%s", login_refused());
		return fail(c, _("the server is busy running a test; try again "
				 "later"));
	case PS_SERVER_ERROR: {
		int32_t e[2] = { 0, 0 };
		const char *why;
		int ierr, err;

		ps_read_full(t->ctrl_fd, e, sizeof(e), 2000);
		ierr = (int)ntohl((uint32_t)e[0]);
		err = (int)ntohl((uint32_t)e[1]);
		if ((why = server_error_text(c, ierr, err)))
			return fail(c, "%s", why);
		return fail(
			c,
			_("the server reported an error (iperf3 error %d: %s)"),
			ierr, strerror(err));
	}
	}
	return fail(c, _("unexpected message %d (%s) from the server"), st,
		    ps_state_name(st));
}

/* a stream ended with an error (waiting up to grace s for one): say which */
static bool stream_failed(struct client *c, double grace)
{
	struct ps_test *t = &c->t;
	double until = ps_now() + grace;

	do {
		for (int i = 0; i < t->nstreams; i++) {
			struct ps_stream *s = t->streams[i];
			int e = atomic_load(&s->err);

			if (atomic_load(&s->finished) && e) {
				fail(c, _("data stream %d failed: %s"), s->id,
				     strerror(e));
				return true;
			}
		}
		if (grace > 0)
			usleep(20000);
	} while (ps_now() < until);
	return false;
}

static int run_test(struct client *c)
{
	struct ps_test *t = &c->t;
	double tickp = t->interval > 0 ? t->interval : 1.0;
	double next, last_move;
	uint64_t moved = 0;
	int rc = 0;

	rc = ps_streams_start(t);
	if (rc)
		return fail(c, _("cannot start a stream thread: %s"),
			    strerror(-rc));
	next = t->t0 + tickp;
	last_move = ps_now();
	for (;;) {
		double now = ps_now();
		int wait = (int)((next - now) * 1000);
		struct pollfd p = { .fd = t->ctrl_fd, .events = POLLIN };
		uint64_t m = 0;

		if (c->stop && atomic_load(c->stop)) {
			fail(c, _("interrupted"));
			return -2;
		}
		if (ps_test_limit_reached(t))
			break;
		/* -k / -n -R: see the far end's last block soon (it goes on
		 * sending until our TEST_END) */
		if (wait > ((t->p.blocks || t->p.bytes) ? 5 : 100))
			wait = (t->p.blocks || t->p.bytes) ? 5 : 100;
		if (wait < 0)
			wait = 0;
		if (poll(&p, 1, wait) > 0) {
			signed char st;

			rc = ps_recv_state_stop(t->ctrl_fd, &st, 2000, c->stop);
			if (rc == -EINTR)
				continue; /* "interrupted", above */
			if (rc) {
				/* a failed stream is often why: say that one */
				if (stream_failed(c, 0.3))
					return -1;
				return fail(c,
					    _("the control connection to the "
					      "server was lost: %s"),
					    rc == -EPIPE
						    ? _("closed by the server")
						    : strerror(-rc));
			}
			if (state_allowed(c, st, false) || handle_state(c, st))
				return -1;
			last_move = ps_now();
		}
		now = ps_now();
		if (now >= next) {
			ps_test_tick(t, now, false);
			next += tickp;
			if (next < now)
				next = now + tickp;
		}
		/* one stream that fails (reset, unreachable) fails the test */
		if (stream_failed(c, 0))
			return -1;
		for (int i = 0; i < t->nstreams; i++)
			m += atomic_load_explicit(&t->streams[i]->bytes,
						  memory_order_relaxed);
		/* --rcv-timeout: nothing moved and the server said nothing */
		if (m != moved) {
			moved = m;
			last_move = now;
		} else if (c->timeout_ms > 0 &&
			   now - last_move > c->timeout_ms / 1000.0) {
			return fail(c,
				    _("no data and no message from the server "
				      "for %g s"),
				    c->timeout_ms / 1000.0);
		}
	}
	return 0;
}

static int finish_test(struct client *c)
{
	struct ps_test *t = &c->t;
	struct ps_results mine;
	struct json_object *obj;
	int rc;

	ps_streams_stop(t, true, false);
	ps_test_tick(t, ps_now(), true);
	rc = ps_send_state(t->ctrl_fd, PS_TEST_END);
	if (rc)
		return fail(c,
			    _("could not tell the server the test ended: %s"),
			    strerror(-rc));
	for (;;) {
		signed char st;

		rc = next_state(c, &st, c->timeout_ms, true);
		if (rc)
			return rc;
		switch (st) {
		case PS_EXCHANGE_RESULTS:
			ps_test_fill_results(t, &mine);
			obj = ps_results_to_json(&mine);
			rc = ps_send_json(t->ctrl_fd, obj);
			json_object_put(obj);
			ps_results_clear(&mine);
			if (rc)
				return fail(c, _("could not send results: %s"),
					    strerror(-rc));
			if (recv_json(c, st, &obj, c->timeout_ms))
				return -1;
			if (ps_results_from_json(obj, &t->remote, c->err,
						 sizeof(c->err)) == 0)
				t->remote_valid = true;
			json_object_put(obj);
			/* results for streams the test does not have */
			if (t->remote_valid && t->remote.nstreams > t->nstreams)
				return fail(c,
					    _("protocol error: the server's "
					      "results list %d streams; the "
					      "test has %d"),
					    t->remote.nstreams, t->nstreams);
			/* iperf3 does not tell its version; before 3.14 it
			 * wrote -1 as 18446744073709551615, which dates it */
			if (!t->peer_ext && t->remote_valid &&
			    t->remote.unsigned_minus_one &&
			    !t->info.peer_version[0])
				snprintf(t->info.peer_version,
					 sizeof(t->info.peer_version),
					 "<=3.13");
			break;
		case PS_DISPLAY_RESULTS:
			ps_streams_stop(t, true, true);
			ps_send_state(t->ctrl_fd, PS_IPERF_DONE);
			return 0;
		default:
			if (handle_state(c, st))
				return -1;
		}
	}
}

static void report_end(struct client *c, bool partial)
{
	struct ps_summary sum;

	ps_test_summary(&c->t, &sum);
	sum.partial = partial;
	sum.stopped = partial && c->stop && atomic_load(c->stop);
	if (c->rep->end)
		c->rep->end(c->rep->arg, &c->t.info, &sum);
	ps_summary_free(&sum);
}

int ps_client_run(const struct ps_opts *o, const struct ps_reporter *rep,
		  atomic_bool *stop)
{
	struct client *c = xcalloc(1, sizeof(*c));
	struct ps_test *t = &c->t;
	const char *why;
	struct ps_sockopts cso = { .nodelay = true, .tos = -1 };
	int ret = PS_EXIT_FAIL, rc;
	bool running = false;

	c->o = o;
	c->rep = rep;
	c->stop = stop;
	c->host = o->targets[0].host;
	c->port = o->targets[0].port ? o->targets[0].port : o->port;
	c->timeout_ms = o->rcv_timeout_ms ? (int)o->rcv_timeout_ms : 120000;
	t->o = o;
	t->rep = rep;
	t->ctrl_fd = -1;
	t->interval = o->interval;
	t->format = o->format;
	t->skip_rx_copy = o->skip_rx_copy;
	params_from_opts(&t->p, o);
	ps_make_cookie(t->cookie);
	if (o->username) {
		char *pw = ps_auth_password();

		rc = pw ? ps_auth_token(o->username, pw, o->rsa_pubkey,
					o->pkcs1, t->p.authtoken,
					sizeof(t->p.authtoken), c->err,
					sizeof(c->err))
			: -EINVAL;
		if (!pw)
			fail(c, _("--username: no password (set "
				  "IPERF3_PASSWORD, or run on a terminal)"));
		free(pw);
		if (rc)
			goto out;
	}

	say(c, _("Connecting to host %s, port %d"), c->host, c->port);
	t->ctrl_fd =
		ps_connect(c->host, c->port, o->family, SOCK_STREAM, o->bind,
			   o->bind_dev, 0, &cso, o->connect_timeout_ms, &why);
	if (t->ctrl_fd < 0) {
		fail(c, _("unable to connect to %s port %d: %s"), c->host,
		     c->port, strerror(-t->ctrl_fd));
		goto out;
	}
	if (o->cntl_ka)
		ps_set_keepalive(t->ctrl_fd, o->cntl_ka_idle,
				 o->cntl_ka_interval, o->cntl_ka_count);
	rc = ps_write_full(t->ctrl_fd, t->cookie, PS_COOKIE_SIZE);
	if (rc) {
		fail(c, _("unable to talk to the server: %s"), strerror(-rc));
		goto out;
	}
	for (;;) {
		signed char st;
		struct json_object *obj;

		rc = next_state(c, &st, c->timeout_ms, false);
		if (rc == -2)
			ps_send_state(t->ctrl_fd, PS_CLIENT_TERMINATE);
		if (rc)
			goto out;
		switch (st) {
		case PS_PARAM_EXCHANGE:
			udp_len(c);
			obj = ps_params_to_json(&t->p);
			rc = ps_send_json(t->ctrl_fd, obj);
			json_object_put(obj);
			if (rc) {
				fail(c,
				     _("could not send the test parameters: "
				       "%s"),
				     strerror(-rc));
				goto out;
			}
			break;
		case PS_EXT_ACK:
			if (recv_json(c, st, &obj, 5000))
				goto out;
			t->peer_ext = true;
			if (t->p.ps_len)
				t->p.len = t->p.ps_len;
			{
				struct json_object *v;

				if (json_object_object_get_ex(obj, "version",
							      &v))
					snprintf(t->info.peer_version,
						 sizeof(t->info.peer_version),
						 "%s",
						 json_object_get_string(v));
				if (json_object_object_get_ex(obj, "boot_id",
							      &v) &&
				    json_object_is_type(v, json_type_string))
					t->peer_same_kernel = ps_same_kernel(
						json_object_get_string(v));
			}
			json_object_put(obj);
			break;
		case PS_CREATE_STREAMS:
			if (create_streams(c))
				goto out;
			break;
		case PS_TEST_START: {
			char ver[48];

			memcpy(ver, t->info.peer_version, sizeof(ver));
			fill_info(c);
			memcpy(t->info.peer_version, ver, sizeof(ver));
		}
			ps_test_begin(t);
			if (rep->start)
				rep->start(rep->arg, &t->info);
			break;
		case PS_TEST_RUNNING:
			running = true;
			rc = run_test(c);
			if (rc == 0)
				rc = finish_test(c);
			if (rc == 0) {
				report_end(c, false);
				ret = PS_EXIT_OK;
				goto out;
			}
			if (rc == -2)
				ps_send_state(t->ctrl_fd, PS_CLIENT_TERMINATE);
			goto out;
		default:
			if (handle_state(c, st))
				goto out;
		}
	}
out:
	if (ret != PS_EXIT_OK) {
		if (running) {
			/* what was measured up to the fault, clearly marked */
			ps_streams_stop(t, true, true);
			ps_test_tick(t, ps_now(), true);
			report_end(c, true);
		}
		if (rep->error)
			rep->error(rep->arg, c->err);
	}
	ps_test_free_streams(t);
	if (t->ctrl_fd >= 0)
		close(t->ctrl_fd);
	ps_results_clear(&t->remote);
	free(t->iv_streams);
	free(t->iv_remote);
	ps_snapshot_put(t->peer_snap);
	ps_snapshot_put(t->peer_snap0);
	free(c);
	return ret;
}
