/* selftest.h: the self-test's private server (a thread of this process on
 * a free 127.0.0.1 port) and the stop flag SIGINT/SIGTERM/SIGHUP set; used
 * by the commands and the workstation alike */
#ifndef PS_SELFTEST_H
#define PS_SELFTEST_H

#include <stdatomic.h>

#include "options.h"

/*
 * Start the server: fills *client_o (a shallow copy of o aimed at it) and
 * *handle. 0, or -errno.
 */
int ps_selftest_start(const struct ps_opts *o, struct ps_opts *client_o,
		      void **handle);
/* end the server and free it */
void ps_selftest_stop(void *handle);

/* SIGINT/SIGTERM/SIGHUP set this; the engine polls it */
extern atomic_bool ps_stop_requested;
/* the handlers that set it (and SIGPIPE ignored) */
void ps_install_signals(void);

#endif
