/* server-internal.h: what the two halves of "pipescope -s" share: the
 * handshake (server-handshake.c: accepting, cookies, parameters, login, the
 * slots) and the test thread (server.c: streams, the test, the results) */
#ifndef PS_SERVER_INTERNAL_H
#define PS_SERVER_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "test.h"

#define PENDING_MAX 64	    /* connections still in their handshake */
#define REFUSALS_PER_SEC 10 /* log lines about refused connections */

struct srv_test {
	struct ps_server *srv;
	struct ps_test t;
	pthread_t thread;
	bool used;
	atomic_bool finished;
	atomic_bool ending; /* past the test: results, clean-up */
	bool awaiting;	    /* accepting data streams (under srv->lock) */
	int want;	    /* data streams expected */
	int ngot;
	int got[2 * PS_MAX_STREAMS];
	uint64_t got_seq[2 * PS_MAX_STREAMS]; /* their accept order */
	char peer[64];
	char err[256];
	struct ps_reporter rep; /* what the test calls: locks, then fans out */
	struct ps_reporter own; /* -J: a document per test */
	struct ps_reporter cap; /* --get-server-output: text into capbuf */
	FILE *capf;
	char *capbuf; /* the capture's tail, NUL-terminated */
	size_t caplen, capsize;
	size_t capdropped; /* bytes left out before capbuf */
	size_t capkeep;	   /* the tail kept; 0: what fits a message */
	/* a pipescope client asked for this host's probe readings */
	struct ps_sampler *sampler;
	uint64_t probe_seq; /* the last snapshot sent */
	double limit;	    /* --server-max-duration: its end, or 0 */
	double quiet_until; /* the idle bound's end, while it runs */
	bool writes_file;   /* it holds srv->file_writer */
};

/*
 * A connection before it is a test or a data stream: it sends its cookie,
 * and a new test then its parameters, read here without blocking, so that
 * a client that says nothing (or half of it) holds no test slot and no
 * thread; it is closed when its handshake time runs out.
 */
enum pend_stage { PEND_COOKIE, PEND_LEN, PEND_PARAMS, PEND_WAIT };
#define SLOT_WAIT 3.0 /* s a new test waits for one that is ending */

struct pending {
	int fd;
	enum pend_stage stage;
	size_t have;
	char cookie[PS_COOKIE_SIZE];
	unsigned char lenb[4];
	uint32_t len;
	char *buf; /* the parameters, once their length is known */
	double since;
	double wait_since; /* PEND_WAIT: since when */
	uint64_t seq;	   /* accept order */
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
	pthread_mutex_t udp_lock; /* one test sets up UDP streams at a time */
	bool file_writer;	  /* a test writes to -F's file (under lock) */
	pthread_mutex_t rep_lock; /* tests report one at a time */
	FILE *out;
	int max_tests;
	struct srv_test *tests;
	struct pending pend[PENDING_MAX];
	int npend;
	int served;
	uint64_t accepted; /* connections so far: their order */
	double handshake;  /* s a new connection has for its handshake */
	/* refusals are logged, at most REFUSALS_PER_SEC lines a second */
	pthread_mutex_t refuse_lock;
	double refuse_window;
	int refuse_logged;
	int refuse_quiet;
	struct ps_auth_keys *auth; /* --rsa-private-key-path: loaded once */
};

/* a hostile or broken connection was turned away: say so, but never flood */
void srv_refused(struct ps_server *srv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* server.c: a test's thread (arg: its struct srv_test), its reporters */
void *srv_test_main(void *arg);
void srv_reporters_open(struct srv_test *st);
void srv_reporters_close(struct srv_test *st);
/* --get-server-output: capture the test's text in st->capf (its tail is
 * kept, st->capkeep bytes or what fits a results message), and the text
 * to send, saying how much was left out */
void srv_capture_open(struct srv_test *st);
char *srv_capture_text(struct srv_test *st);

/* a state byte (or an error) on a connection in its handshake: never waits */
int srv_send_now(int fd, signed char state);
void srv_send_error(int fd, int ierr, int err);

#endif
