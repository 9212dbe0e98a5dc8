/* cmd-test.h: running a test or a server from the command line */
#ifndef PS_CMD_TEST_H
#define PS_CMD_TEST_H

#include <stdatomic.h>

#include "options.h"

/* -c HOST, -s, and the self-test without a screen; returns an exit code */
int ps_cmd_client(const struct ps_opts *o);
int ps_cmd_server(const struct ps_opts *o);
int ps_cmd_selftest(const struct ps_opts *o);

/* SIGINT/SIGTERM set this; the engine polls it */
extern atomic_bool ps_stop_requested;
void ps_install_signals(void);

#endif
