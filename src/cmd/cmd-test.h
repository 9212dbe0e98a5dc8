/* cmd-test.h: running a test or a server from the command line */
#ifndef PS_CMD_TEST_H
#define PS_CMD_TEST_H

#include <stdatomic.h>

#include "options.h"

/* -c HOST, -s, and the self-test without a screen; returns an exit code */
int ps_cmd_client(const struct ps_opts *o);
int ps_cmd_server(const struct ps_opts *o);
int ps_cmd_selftest(const struct ps_opts *o);
/* several -c targets at once, each shown, then summed */
int ps_cmd_multi(const struct ps_opts *o);

/*
 * The self-test's private server on a free 127.0.0.1 port, in a thread of
 * this process: start fills *client_o (a shallow copy of o aimed at it);
 * stop ends and frees it.
 */
int ps_selftest_start(const struct ps_opts *o, struct ps_opts *client_o,
		      void **handle);
void ps_selftest_stop(void *handle);

/* SIGINT/SIGTERM set this; the engine polls it */
extern atomic_bool ps_stop_requested;
void ps_install_signals(void);

#endif
