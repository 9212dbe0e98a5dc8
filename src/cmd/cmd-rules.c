/* cmd-rules.c: "pipescope check --rules": every threshold the checks compare
 * readings against, from the tables beside them (src/check/rules.h) */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd-rules.h"
#include "exitcodes.h"
#include "log.h"
#include "nls.h"
#include "rules.h"

int ps_cmd_rules(const struct ps_opts *opts)
{
	int rc = ps_rules_print(stdout, opts->report_format);

	if (!rc && fflush(stdout))
		rc = -errno;
	if (rc) {
		ps_err(_("cannot write the rules: %s"), strerror(-rc));
		return PS_EXIT_FAIL;
	}
	return PS_EXIT_OK;
}
