/* selftest.c: the self-test's private server on a free loopback port, in a
 * thread of this process, and the signal handlers that ask a test to stop */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "options.h"
#include "selftest.h"
#include "xmalloc.h"

atomic_bool ps_stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&ps_stop_requested, true);
}

void ps_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

struct selftest_srv {
	struct ps_server *srv;
	struct ps_reporter rep;
	atomic_bool stop;
	pthread_t th;
};

static void quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static void *selftest_server(void *arg)
{
	struct selftest_srv *s = arg;

	ps_server_loop(s->srv, &s->rep, &s->stop);
	return NULL;
}

int ps_selftest_start(const struct ps_opts *o, struct ps_opts *co,
		      void **handle)
{
	static struct ps_opts so;
	struct selftest_srv *s = xcalloc(1, sizeof(*s));
	int rc;

	/* a private server on a free loopback port, quiet */
	ps_opts_init(&so);
	so.mode = PS_MODE_SERVER;
	so.bind = (char *)"127.0.0.1";
	so.port = 0;
	so.interval = o->interval;
	so.family = 4;
	rc = ps_server_open(&so, &s->srv);
	if (rc) {
		free(s);
		return rc;
	}
	s->rep.message = quiet;
	s->rep.error = quiet;
	if (pthread_create(&s->th, NULL, selftest_server, s)) {
		ps_server_close(s->srv);
		free(s);
		return -EAGAIN;
	}
	*co = *o;
	co->mode = PS_MODE_CLIENT;
	co->ntargets = 1;
	co->targets[0].host = (char *)"127.0.0.1";
	co->targets[0].dev = NULL;
	co->targets[0].port = ps_server_port(s->srv);
	*handle = s;
	return 0;
}

void ps_selftest_stop(void *handle)
{
	struct selftest_srv *s = handle;
	atomic_store(&s->stop, true);
	pthread_join(s->th, NULL);
	ps_server_close(s->srv);
	free(s);
}
