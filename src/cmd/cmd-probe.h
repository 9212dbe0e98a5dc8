/* cmd-probe.h: "pipescope probe": one snapshot of every probe, then exit */
#ifndef PS_CMD_PROBE_H
#define PS_CMD_PROBE_H

#include "options.h"

/* runs the command; returns the exit status (exitcodes.h) */
int ps_cmd_probe(const struct ps_opts *opts);

#endif
