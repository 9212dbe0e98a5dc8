/* cmd-diagnose.h: --diagnose FILE: one test (pipescope -c HOST, or the
 * self-test) judged by the checklist's checks, as the one step of a run:
 * this end's probes read around it and at each interval, a pipescope
 * server's readings as they come; the report, the document "pipescope
 * check --format json" prints, goes to FILE and into the test's record
 * in the history. A scheduler (pScheduler's pipescope tool) runs the test
 * it was asked for and still gets the answer. */
#ifndef PS_CMD_DIAGNOSE_H
#define PS_CMD_DIAGNOSE_H

#include <stdbool.h>

struct ps_opts;
struct ps_reporter;
struct ps_hist_attach;
struct ps_tdiag;

/*
 * Wrap *rep (the test's own output) so that the test is also judged; the
 * check goes to att too (the history's wrap outside this one takes it).
 * client: the options the test runs with (its far end's readings asked
 * for); loopback: the far end is the self-test, this very process. NULL
 * when o has no --diagnose. Both must outlive the test.
 */
struct ps_tdiag *ps_tdiag_wrap(struct ps_reporter *rep, const struct ps_opts *o,
			       struct ps_opts *client, bool loopback,
			       struct ps_hist_attach *att);
/* after the test (its reporter destroyed or not): the report into the
 * file, whole or not at all; a test that failed is judged as failed.
 * 0, or -1 said on stderr. Frees d. */
int ps_tdiag_finish(struct ps_tdiag *d);

#endif
