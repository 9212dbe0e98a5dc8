/* cmd-history.h: "pipescope history" and "pipescope compare" */
#ifndef PS_CMD_HISTORY_H
#define PS_CMD_HISTORY_H

#include "options.h"

int ps_cmd_history(const struct ps_opts *o);
int ps_cmd_compare(const struct ps_opts *o);

#endif
