/* step.h: the parts one test is summed into one step of a guided run with
 * (session.c gathers a test and makes its step from these, for "pipescope
 * check" and the workstation alike): the sending ends' TCP_INFO averaged
 * over the intervals that are not omitted, the CPUs the test's threads and
 * softirqs ran on, the NIC's interrupts over the step, and the far end's
 * busiest core */
#ifndef PS_STEP_H
#define PS_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "check.h"
#include "engine.h"
#include "probe-qdisc.h"

/* the sums of one step; plain data (copied whole with the TUI's view) */
struct ps_step_acc {
	/* TCP_INFO of the sending ends, over intervals and streams */
	double n; /* samples */
	double rtt, min_rtt, cwnd, wnd, nwnd;
	/* the round trip of each direction's senders: [0] this end's
	 * (out), [1] the far end's (in, a pipescope server's TCP_INFO) */
	double rtt_dir[2], n_dir[2];
	/* each sample's window over its own RTT (bit/s), and how many */
	double wnd_rate, nwnd_rate;
	double ivlen, rwnd_us, sndbuf_us;
	int64_t retrans;
	unsigned mss, pmtu;
	/* where the test's threads and their softirqs ran, first seen first */
	int thread_cpu[PS_STEP_MAX_CPUS], nthread;
	int rx_cpu[PS_STEP_MAX_CPUS], nrx;
};

void ps_step_acc_reset(struct ps_step_acc *a);
/* one interval as the engine reports it; an omitted one adds nothing */
void ps_step_acc_add(struct ps_step_acc *a, const struct ps_interval *iv);
/* the step's TCP_INFO averages and CPU lists from the sums */
void ps_step_acc_finish(const struct ps_step_acc *a, struct ps_step_result *s);

/* the NIC's interrupts and the kernel backlog over the step, from a
 * sample rated over it (ps_irq_rates) */
void ps_step_set_irq(struct ps_step_result *s, const struct ps_irq_info *b);

/* the kernel's counters over the step: the delta from a (its start) to b
 * (its end), both of this namespace */
void ps_step_set_netstat(struct ps_step_result *s,
			 const struct ps_netstat_info *a,
			 const struct ps_netstat_info *b);
/* the NIC's counters over the step, from their rates over it
 * (ps_nic_rates_compute); nothing when they are not rated */
void ps_step_set_nic(struct ps_step_result *s, const struct ps_nic_rates *r);
/* the NIC ring's receive drops/s over a step (every drop class the
 * driver reports), NaN when the step has no NIC counters or the driver
 * reports none */
double ps_step_nic_drops(const struct ps_step_result *s);

/* the far end's cores over a step: per-core sums of the snapshots a
 * pipescope server sent (heap; ps_step_peer_free) */
struct ps_step_peer {
	int64_t time; /* the time of the last snapshot added */
	int n, ncores;
	double (*pct)[PS_CPU_NFIELDS + 1]; /* [core][field], [..][N] busy */
	int *ids;
	/* its kernel counters: the first and the last reading of the step */
	bool have_ns0, have_ns1;
	struct ps_netstat_counters ns0, ns1;
	int64_t ns0_time, ns1_time;
};

/* add the far end's newest snapshot (each one once) */
void ps_step_peer_add(struct ps_step_peer *p, const struct ps_snapshot *snap);
/* its kernel counters only: base (an omitted interval's snapshot) makes
 * it the start of the step; otherwise it is the latest reading (the
 * summary's snapshot, after the last interval) */
void ps_step_peer_netstat(struct ps_step_peer *p,
			  const struct ps_snapshot *snap, bool base);
/* the step's far-end figures: its busiest core on average */
void ps_step_peer_finish(const struct ps_step_peer *p,
			 struct ps_step_result *s);
void ps_step_peer_free(struct ps_step_peer *p);

/* for the pictures: an interval's rate into the step's series (bounded:
 * pairs merge when it is full); the interrupts of each queue line on each
 * CPU from a rated irq sample (ps_step_set_irq calls it) */
void ps_step_add_rate(struct ps_step_result *s, const struct ps_interval *iv);
void ps_step_irq_matrix(struct ps_step_result *s, const struct ps_irq_info *b);

#endif
