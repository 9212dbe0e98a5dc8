/* server-handshake.c: "pipescope -s" up to a test: it listens, reads each
 * new connection's cookie and parameters without blocking, checks the login,
 * gives a test its slot and thread (server.c) or a data stream to its test,
 * and bounds what floods and half-open connections may cost */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
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
#include "server-internal.h"
#include "xmalloc.h"

/* a line for the reporter ("Accepted connection from ...") */
#define msg(srv, ...) ps_report_message((srv)->rep, __VA_ARGS__)

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

void srv_refused(struct ps_server *srv, const char *fmt, ...)
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
	char err[256];

	srv->o = o;
	/* read now, while root: after --user they may be out of reach */
	if (o->rsa_privkey &&
	    ps_auth_keys_load(o->rsa_privkey, o->authorized_users, &srv->auth,
			      err, sizeof(err))) {
		ps_err("%s", err);
		free(srv);
		return -ENOKEY;
	}
	srv->lfd = ps_listen(o->bind, o->bind_dev, o->port, o->family,
			     SOCK_STREAM);
	if (srv->lfd < 0) {
		int e = -srv->lfd;

		ps_auth_keys_free(srv->auth);
		free(srv);
		return -e;
	}
	if (getsockname(srv->lfd, (struct sockaddr *)&ss, &sl) == 0)
		srv->port =
			ntohs(ss.ss_family == AF_INET6
				      ? ((struct sockaddr_in6 *)&ss)->sin6_port
				      : ((struct sockaddr_in *)&ss)->sin_port);
	fcntl(srv->lfd, F_SETFL, fcntl(srv->lfd, F_GETFL) | O_NONBLOCK);
	pthread_mutex_init(&srv->lock, NULL);
	pthread_cond_init(&srv->cond, NULL);
	pthread_mutex_init(&srv->udp_lock, NULL);
	pthread_mutex_init(&srv->rep_lock, NULL);
	pthread_mutex_init(&srv->refuse_lock, NULL);
	srv->out = stdout;
	srv->max_tests = o->max_tests > 0 ? o->max_tests : 1;
	srv->handshake = o->handshake_timeout ? o->handshake_timeout
					      : PS_DEFAULT_HANDSHAKE;
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

static void deny_busy(struct ps_server *srv, int fd, const char *peer, int port)
{
	srv_send_now(fd, PS_ACCESS_DENIED);
	close(fd);
	msg(srv, _("refused a test from %s port %d: the server is busy"), peer,
	    port);
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
	srv_reporters_open(st);
	st->t.interval = srv->o->interval;
	st->t.format = srv->o->format;
	st->t.o = srv->o;
	pthread_mutex_unlock(&srv->lock);
	msg(srv, _("Accepted connection from %s, port %d"), peer, port);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (pthread_create(&st->thread, NULL, srv_test_main, st)) {
		srv_refused(srv, _("cannot start a test for %s: %s"), peer,
			    strerror(errno));
		close(fd);
		pthread_mutex_lock(&srv->lock);
		srv_reporters_close(st);
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
		if (!test_ending(srv) ||
		    ps_now() - pd->wait_since > SLOT_WAIT) {
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

	reap(srv); /* a test that just ended frees its slot at once */
	pd = &srv->pend[k];
	if (!cookie_ok(pd->cookie)) {
		srv_refused(srv,
			    _("closed a connection from %s port %d: it sent no "
			      "cookie (%zu bytes of something else)"),
			    pd->peer, pd->port, pd->have);
		drop_pending(srv, k);
		return 0;
	}
	pthread_mutex_lock(&srv->lock);
	for (int i = 0; i < srv->max_tests; i++) {
		struct srv_test *st = &srv->tests[i];

		if (!st->used ||
		    memcmp(st->t.cookie, pd->cookie, PS_COOKIE_SIZE))
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
		srv_send_now(pd->fd, PS_ACCESS_DENIED);
		srv_refused(srv,
			    _("refused a data stream from %s port %d: its test "
			      "is not setting up streams"),
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

	if (srv_send_now(pd->fd, PS_PARAM_EXCHANGE)) {
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
	struct json_tokener *tok = json_tokener_new_ex(32); /* depth bound */
	struct json_object *obj;
	struct ps_params p;
	char err[256] = "", cookie[PS_COOKIE_SIZE], peer[64];
	int fd = pd->fd, port = pd->port, rc;

	obj = json_tokener_parse_ex(tok, pd->buf, (int)pd->len);
	if (json_tokener_get_error(tok) == json_tokener_continue) {
		snprintf(err, sizeof(err), _("not JSON (it ends too early)"));
		rc = -EINVAL;
	} else if (json_tokener_get_error(tok) != json_tokener_success ||
		   !obj) {
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
		srv_refused(
			srv,
			_("refused a test from %s port %d: bad parameters: %s"),
			pd->peer, pd->port, err);
		srv_send_error(fd, PS_IENEWTEST, EINVAL);
		drop_pending(srv, k);
		return;
	}
	if (srv->auth) {
		char user[128];

		if (ps_auth_verify(p.authtoken, srv->auth,
				   srv->o->time_skew ? srv->o->time_skew
						     : PS_AUTH_SKEW,
				   srv->o->pkcs1, user, sizeof(user), err,
				   sizeof(err))) {
			srv_refused(srv,
				    _("refused a test from %s port %d: "
				      "authentication failed: %s"),
				    pd->peer, pd->port, err);
			srv_send_error(fd, PS_IEAUTHTEST, EACCES);
			drop_pending(srv, k);
			/* iperf3 -s -1: a refused login was the one test */
			if (srv->o->one_off && srv->stop) {
				msg(srv, _("the one-off server stops after a "
					   "refused login"));
				atomic_store(srv->stop, true);
			}
			return;
		}
		msg(srv, _("Authentication succeeded for user '%s' from %s"),
		    user, pd->peer);
	}
	memcpy(cookie, pd->cookie, sizeof(cookie));
	snprintf(peer, sizeof(peer), "%s", pd->peer);
	take_pending(srv, k);
	if (srv->o->cntl_ka)
		ps_set_keepalive(fd, srv->o->cntl_ka_idle,
				 srv->o->cntl_ka_interval,
				 srv->o->cntl_ka_count);
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
				srv_refused(
					srv,
					_("a connection from %s port %d closed "
					  "after %zu bytes of its cookie"),
					pd->peer, pd->port, pd->have);
			else
				srv_refused(srv,
					    _("a connection from %s port %d "
					      "closed before its test "
					      "parameters were complete"),
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
				srv_refused(srv,
					    _("refused a test from %s port %d: "
					      "parameters of %u bytes (at most "
					      "%d)"),
					    pd->peer, pd->port, pd->len,
					    PS_MAX_PARAMS_JSON);
				srv_send_error(pd->fd, PS_IENEWTEST, EMSGSIZE);
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
		srv_refused(srv,
			    _("refused a connection from %s port %d: not in "
			      "the allowed networks"),
			    peer, port);
		srv_send_now(fd, PS_ACCESS_DENIED);
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
			if (oldest < 0 ||
			    srv->pend[i].since < srv->pend[oldest].since)
				oldest = i;
		}
		if (oldest < 0) { /* all past their cookie: the oldest */
			oldest = 0;
			for (int i = 1; i < srv->npend; i++)
				if (srv->pend[i].since <
				    srv->pend[oldest].since)
					oldest = i;
		}
		if (srv->npend == PENDING_MAX) {
			srv_refused(
				srv,
				_("too many connections in their handshake: "
				  "closed the oldest, from %s port %d"),
				srv->pend[oldest].peer, srv->pend[oldest].port);
			drop_pending(srv, oldest);
		}
	}
	pd = &srv->pend[srv->npend++];
	*pd = (struct pending){ .fd = fd,
				.since = ps_now(),
				.port = port,
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
			pf[n++].events = srv->pend[i].stage == PEND_WAIT
						 ? POLLRDHUP
						 : POLLIN;
		}
		poll(pf, (nfds_t)n, 100);
		if (pf[0].revents & POLLIN) {
			/* a bounded batch, so the table is served between */
			for (int a = 0; a < PENDING_MAX; a++) {
				struct sockaddr_storage ss;
				socklen_t sl = sizeof(ss);
				int fd = accept4(srv->lfd,
						 (struct sockaddr *)&ss, &sl,
						 SOCK_CLOEXEC);

				if (fd < 0) {
					if (errno == EMFILE || errno == ENFILE)
						srv_refused(srv,
							    _("cannot accept a "
							      "connection: %s"),
							    strerror(errno));
					break;
				}
				pend_add(srv, fd, &ss);
			}
		}
		for (int i = 1; i < n; i++) {
			int k;

			if (!(pf[i].revents &
			      (POLLIN | POLLHUP | POLLERR | POLLRDHUP)))
				continue;
			/* the table may have shifted: find this fd again */
			for (k = 0;
			     k < srv->npend && srv->pend[k].fd != pf[i].fd; k++)
				;
			if (k < srv->npend)
				pend_step(srv, k);
		}
		for (int k = 0; k < srv->npend; k++) {
			struct pending *pd = &srv->pend[k];

			if (ps_now() - pd->since <= srv->handshake)
				continue;
			if (pd->stage == PEND_COOKIE)
				srv_refused(srv,
					    _("closed a connection from %s "
					      "port %d: no cookie within %g s"),
					    pd->peer, pd->port, srv->handshake);
			else
				srv_refused(
					srv,
					_("closed a connection from %s port "
					  "%d: no test parameters within %g s"),
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
				msg(srv,
				    _("no test in %u s: the one-off server "
				      "stops"),
				    srv->o->idle_timeout);
				atomic_store(srv->stop, true);
			} else {
				int fd = ps_listen(srv->o->bind,
						   srv->o->bind_dev, srv->port,
						   srv->o->family, SOCK_STREAM);

				if (fd >= 0) {
					fcntl(fd, F_SETFL,
					      fcntl(fd, F_GETFL) | O_NONBLOCK);
					close(srv->lfd);
					srv->lfd = fd;
					ps_debug("idle for %u s: listening "
						 "socket re-opened",
						 srv->o->idle_timeout);
				}
			}
		}
	}
	/*
	 * stop: tests see the flag, end and report. One still waiting on its
	 * client after a second (a read in the results exchange) is woken:
	 * its control connection is shut down.
	 */
	for (double t0 = ps_now(); reap(srv) && ps_now() - t0 < 1.0;)
		usleep(20 * 1000);
	pthread_mutex_lock(&srv->lock);
	for (int i = 0; i < srv->max_tests; i++)
		if (srv->tests[i].used && srv->tests[i].t.ctrl_fd >= 0)
			shutdown(srv->tests[i].t.ctrl_fd, SHUT_RDWR);
	pthread_mutex_unlock(&srv->lock);
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
	ps_auth_keys_free(srv->auth);
	free(srv->tests);
	free(srv);
}
