/* step-qdisc.h: the qdisc counters of one test summed into its step
 * (struct ps_step_qdisc), for this end (samples of the qdisc probe around
 * and during the test) and the far end (the snapshots it sent) alike */
#ifndef PS_STEP_QDISC_H
#define PS_STEP_QDISC_H

#include <stdbool.h>

#include "check.h"
#include "probe-qdisc.h"

/* the sums of one step; plain data */
struct ps_step_qdisc_acc {
	int n;	       /* samples added */
	double t0, t1; /* seconds, of the first and the last */
	struct ps_qdisc_entry first, last; /* the root qdisc */
	double backlog_sum, backlog_peak;
	struct ps_step_qdisc conf; /* kind and shaper, of the last sample */
};

void ps_step_qdisc_reset(struct ps_step_qdisc_acc *a);
/* one sample at time t (seconds); one without a root qdisc, or of another
 * root qdisc than the first (replaced mid-step), adds nothing */
void ps_step_qdisc_add(struct ps_step_qdisc_acc *a,
		       const struct ps_qdisc_info *q, double t);
/* the step's figures (out->have when two samples were added) */
void ps_step_qdisc_finish(const struct ps_step_qdisc_acc *a,
			  struct ps_step_qdisc *out);

#endif
