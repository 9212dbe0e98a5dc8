/* step-qdisc.h: the qdisc counters of one test summed into its step
 * (struct ps_step_qdisc), for this end (samples of the qdisc probe around
 * and during the test) and the far end (the snapshots it sent) alike */
#ifndef PS_STEP_QDISC_H
#define PS_STEP_QDISC_H

#include <stdbool.h>

#include "check.h"
#include "probe-path.h"
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

/* a far end's figures checked against this end's clock (seconds, the
 * step's): two readings further apart than the step allows, a counter
 * past what any link carries in the time, a backlog past the kernel's 32
 * bits: the whole reading is not known (out->have false); whether it was */
bool ps_step_qdisc_bound(struct ps_step_qdisc *q, double seconds);

/* the shapers of one end's path over a step: one accumulator per device
 * (the same as the root's above), found by name */
#define PS_STEP_PATH_DEVS 8
struct ps_step_path_acc {
	int n;
	struct {
		char dev[16], via[16], place[96];
		int role;
		int direction;
		bool gone;
		struct ps_step_qdisc_acc acc;
	} d[PS_STEP_PATH_DEVS];
};

void ps_step_path_reset(struct ps_step_path_acc *a);
/* one snapshot's path at time t: each device with a shaper is added to
 * its own accumulator; a device seen before that is absent now (or not
 * on the path any more) is gone, and nothing later is added to it */
void ps_step_path_add(struct ps_step_path_acc *a, const struct ps_path_info *p,
		      double t);
/* append the devices with two samples to st->shapers (far: whose end) */
void ps_step_path_finish(const struct ps_step_path_acc *a, bool far,
			 struct ps_step_result *st);

#endif
