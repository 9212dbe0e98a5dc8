/* step.h: one test summed into one step of a guided run, the same way for
 * "pipescope check" (checklist.c, at the end of each test) and for the
 * workstation (its live findings, on every interval): the sending ends'
 * TCP_INFO averaged over the intervals that are not omitted, the CPUs the
 * test's threads and softirqs ran on, the NIC's interrupts over the step,
 * and the far end's busiest core */
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

/* a test seen so far, as the workstation knows it, for ps_step_live */
struct ps_step_seen {
	int streams;
	bool reverse, bidir;
	double seconds, bytes; /* the intervals not omitted */
	/* the latest interval's streams (their spread) */
	const struct ps_stream_iv *iv;
	int niv;
	const struct ps_step_acc *acc;
	double cpu_local;	       /* this process's CPU, % of one core */
	const struct ps_cpu_info *cpu; /* rated cores, or NULL */
	const struct ps_irq_info *irq; /* rated interrupts, or NULL */
	/* the kernel counters at the test's start and now, or NULL */
	const struct ps_netstat_info *netstat0, *netstat;
	/* the interface's qdiscs at the test's start and now (their times,
	 * seconds on one clock), or NULL */
	const struct ps_qdisc_info *qdisc0, *qdisc;
	double qdisc0_t, qdisc_t;
	/* the far end's (a pipescope server's first snapshot of the test and
	 * its latest): its kernel counters and qdiscs, the snapshots' times
	 * in seconds; NULL when there is none */
	const struct ps_netstat_info *peer_netstat0, *peer_netstat;
	const struct ps_qdisc_info *peer_qdisc0, *peer_qdisc;
	double peer0_t, peer_t;
	const struct ps_ethtool_info *eth; /* rated NIC counters, or NULL */
};

/*
 * The running test as one finished step of a guided run, so the checks
 * that read a test speak while it runs: the rate so far, TCP_INFO as
 * ps_step_acc_finish averages it, the latest readings of the cores and
 * interrupts, the kernel counters' and the qdisc's deltas since the test
 * began. The id says what a guided run would call it.
 */
void ps_step_live(const struct ps_step_seen *in, struct ps_step_result *st);

/* the NIC's interrupts and the kernel backlog over the step, from a
 * sample rated over it (ps_irq_rates) */
void ps_step_set_irq(struct ps_step_result *s, const struct ps_irq_info *b);

/* the kernel's counters over the step: the delta from a (its start) to b
 * (its end), both of this namespace */
void ps_step_set_netstat(struct ps_step_result *s,
			 const struct ps_netstat_info *a,
			 const struct ps_netstat_info *b);
/* the NIC's counters over the step, from a sample rated over it
 * (ps_ethtool_rates: nic_rate); nothing when it is not rated */
void ps_step_set_nic(struct ps_step_result *s, const struct ps_ethtool_info *b);
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
