/* cmd-test.h: running a test or a server from the command line */
#ifndef PS_CMD_TEST_H
#define PS_CMD_TEST_H

#include "options.h"
#include "selftest.h" /* the self-test server, the stop flag */

/* -c HOST, -s, and the self-test without a screen; returns an exit code */
int ps_cmd_client(const struct ps_opts *o);
int ps_cmd_server(const struct ps_opts *o);
int ps_cmd_selftest(const struct ps_opts *o);
/* the workstation (ps_ui_run) with -I's pid file around it; -1: it
 * cannot run on this terminal */
int ps_cmd_ui(const struct ps_opts *o);

#endif
