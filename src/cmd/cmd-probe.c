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
#include "sanitize.h"
#include "snapshot.h"
#include "sysroot.h"

/* the time between the two samples of a live probe, in seconds */
#define PROBE_INTERVAL_S 1.0

/* the text of a recorded tree is the tree's bytes: sanitised whole (lines
 * and tabs kept), so no file of it sends escape sequences to the terminal */
static void print_safe(const struct ps_snapshot *snap, bool verbose)
{
	char *text = NULL, *safe;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		ps_fatal("%s", strerror(errno));
	ps_snapshot_print(m, snap, verbose);
	fclose(m);
	safe = ps_sanitize_dup(text, 4 * len + 1, PS_SAN_MULTILINE);
	fputs(safe, stdout);
	free(safe);
	free(text);
}

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
		print_safe(snap, opts->verbose);
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
