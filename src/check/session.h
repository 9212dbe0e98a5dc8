/* session.h: one test as both ends saw it, from its start to now or to its
 * end, and the one step of a guided run it makes.
 *
 * Everything that judges a test reads it from here: the guided run of
 * "pipescope check" (checklist.c, one session a test), the workstation's
 * live findings and its drops section (ui-model.c keeps the running test's
 * session). Both feed it the same way:
 *
 *   ps_session_begin     the engine's start (a reporter's .start)
 *   ps_session_interval  each interval (.interval)
 *   ps_session_end       the summary (.end)
 *   ps_session_local     a reading of this end's probes (a snapshot): the
 *                        first after the start, or after the omitted time,
 *                        is the base; the first after the end closes it
 *
 * and read one step from it with ps_session_step, while it runs and after
 * it ended. The far end's readings (a pipescope server's snapshots) come
 * with the intervals: its first of the test, taken before the streams
 * started, is the base of its counters.
 */
#ifndef PS_SESSION_H
#define PS_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "check.h"
#include "engine.h"
#include "step-qdisc.h"
#include "step.h"

struct ps_session {
	/* the test, from its start */
	bool begun;
	int streams;
	bool reverse, bidir;
	enum ps_proto proto;
	double target_bps; /* -b of one stream, 0 none */
	/* this end: the base reading and the latest one (references) */
	struct ps_snapshot *base, *last;
	bool rebase; /* the next reading is the base (start, omit's end) */
	int64_t begin_ns, end_ns; /* CLOCK_MONOTONIC of the start, end */
	bool closed;		  /* a reading after the end came: no more */
	struct ps_step_qdisc_acc qacc;
	struct ps_step_path_acc pacc; /* the shapers of its path */
	/* the far end: its base and latest snapshots (references), its
	 * cores over the snapshots, its qdiscs */
	struct ps_snapshot *peer_base, *peer_last;
	struct ps_step_peer peer;
	struct ps_step_qdisc_acc qpeer;
	struct ps_step_path_acc ppeer; /* the shapers of the far path */
	int64_t qpeer_time; /* the far snapshot last added to qpeer */
	/* the intervals not omitted */
	struct ps_step_acc acc;
	double seconds, bytes_out, bytes_in;
	/* the latest interval's streams of the direction counted */
	double iv_min_bps, iv_max_bps;
	/* UDP while it runs: what this end sent (datagrams, bytes), what
	 * its receivers counted, a pipescope server's totals (its latest) */
	int64_t udp_out_packets, udp_here_lost, udp_here_packets;
	int64_t udp_far_lost, udp_far_packets;
	bool udp_all_send; /* every stream of this end sends */
	/* the busy cores' clock over the readings (check.h freq_*) */
	int freq_n;
	double freq_sum, freq_min;
	long freq_max_khz;
	/* the rate over time (nrate, rate_*) of the step being built */
	struct ps_step_result *series;
	/* the end */
	bool ended;
	struct ps_step_result *final; /* the summary's figures */
	char cc_local[16], cc_remote[16];
};

void ps_session_init(struct ps_session *s);
void ps_session_free(struct ps_session *s);

void ps_session_begin(struct ps_session *s, const struct ps_test_info *info);
void ps_session_interval(struct ps_session *s, const struct ps_interval *iv);
void ps_session_end(struct ps_session *s, const struct ps_test_info *info,
		    const struct ps_summary *sum);
/* a reading of this end (a reference is taken); false when the session
 * did not take it (not begun, an older one, closed) */
bool ps_session_local(struct ps_session *s, struct ps_snapshot *snap);
/* no more readings: a test that ended without its summary (it failed)
 * keeps the window its last reading closed, not one that grows with the
 * time since */
void ps_session_freeze(struct ps_session *s);
/* whether a reading of this end is wanted now (begun, not closed) */
bool ps_session_wants_local(const struct ps_session *s);

/*
 * The test so far (or whole, once ended) as one finished step: the rate
 * (the receivers' counts once ended, this end's counts before), TCP_INFO
 * averaged over the intervals, this end's cores, interrupts, NIC, kernel
 * counters and qdiscs from its base reading to its latest, the far end's
 * from its base snapshot to its latest. The caller frees out->cpu when
 * out->have_cpu (ps_step_result_free).
 */
void ps_session_step(const struct ps_session *s, struct ps_step_result *out);
void ps_step_result_free(struct ps_step_result *st);

/* the readings the counters count from (NULL: none yet): this end's and
 * the far end's */
const struct ps_snapshot *ps_session_base(const struct ps_session *s);
const struct ps_snapshot *ps_session_peer_base(const struct ps_session *s);
/* the far end's latest snapshot of the test, NULL none */
const struct ps_snapshot *ps_session_peer_last(const struct ps_session *s);

#endif
