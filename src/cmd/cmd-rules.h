/* cmd-rules.h: "pipescope check --rules": the thresholds of the checks */
#ifndef PS_CMD_RULES_H
#define PS_CMD_RULES_H

#include "options.h"

/* prints every rule (rules.h) in --format text, markdown or json; runs no
 * test and reads no probe. PS_EXIT_OK, or PS_EXIT_FAIL when stdout fails */
int ps_cmd_rules(const struct ps_opts *opts);

#endif
