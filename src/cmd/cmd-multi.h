/* cmd-multi.h: a test against several -c targets at once */
#ifndef PS_CMD_MULTI_H
#define PS_CMD_MULTI_H

#include "options.h"

/* each target run by its own client, each shown, then summed; returns an
 * exit code */
int ps_cmd_multi(const struct ps_opts *o);

#endif
