/* cmd-probe.c: "pipescope probe [--iface IF] [--json] [--sysroot DIR]":
 * two samples a second apart (one from a recorded tree), printed as grouped
 * text (-V: every detail) or as the JSON snapshot of doc/snapshot.md */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "cmd-probe.h"
#include "exitcodes.h"
#include "log.h"
#include "nls.h"
#include "probe.h"
#include "snapshot.h"
#include "sysroot.h"

/* the time between the two samples of a live probe, in seconds */
#define PROBE_INTERVAL_S 1.0

int ps_cmd_probe(const struct ps_opts *opts)
{
	struct ps_probe_env env = { 0 };
	struct ps_snapshot *first, *snap;
	struct ps_probe_set *set;
	int rc = PS_EXIT_OK;

	/* a bad --sysroot is a bad command line: nothing has started */
	if (ps_sysroot_use(opts->sysroot))
		return PS_EXIT_USAGE;

	ps_iface_choose(opts->iface, NULL, &env.iface);
	set = ps_probes_open(&env);
	first = ps_snapshot_new();
	ps_probes_sample(set, first, NULL);
	if (ps_sysroot_is_live()) {
		/* rates and CPU % need a second sample */
		ps_sleep(PROBE_INTERVAL_S);
		snap = ps_snapshot_new();
		ps_probes_sample(set, snap, first);
		ps_snapshot_put(first);
	} else {
		/* the files of a recorded tree do not change */
		snap = first;
	}
	ps_probes_close(set);

	if (opts->json) {
		char *text = ps_snapshot_to_string(snap);

		fputs(text, stdout);
		fputc('\n', stdout);
		free(text);
	} else {
		ps_snapshot_print(stdout, snap, opts->verbose);
	}
	/*
	 * --iface names an interface that is not there: the snapshot is
	 * complete and says so, but the command did not do what was asked.
	 */
	if (env.iface.source == PS_IFACE_OPTION &&
	    env.iface.status != PS_ST_OK) {
		ps_err("%s", env.iface.reason);
		rc = PS_EXIT_FAIL;
	}
	ps_snapshot_put(snap);
	if (fflush(stdout) || ferror(stdout)) {
		ps_err(_("cannot write the output: %s"), strerror(errno));
		rc = PS_EXIT_FAIL;
	}
	return rc;
}
