/* cmd-check.h: "pipescope check": the guided checklist without the screen */
#ifndef PS_CMD_CHECK_H
#define PS_CMD_CHECK_H

#include "options.h"

/*
 * Runs the command: the guided run against -c HOST (or the in-process
 * loopback server), or the static checks of --snapshot FILE / --sysroot
 * DIR; prints the report in --format. Returns PS_EXIT_FOUND when a
 * bottleneck was found, PS_EXIT_OK when not, PS_EXIT_FAIL on failure.
 */
int ps_cmd_check(const struct ps_opts *opts);

#endif
