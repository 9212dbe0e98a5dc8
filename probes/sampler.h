/* sampler.h: the thread that keeps the snapshot fresh while the workstation
 * and "pipescope check" run; readers always get a whole snapshot */
#ifndef PS_SAMPLER_H
#define PS_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"
#include "snapshot.h"

struct ps_sampler;

struct ps_sampler_config {
	struct ps_probe_env env; /* the interface to watch */
	double interval_s;	 /* 0: 1 s */
	size_t history;		 /* snapshots kept besides the latest */
	/* called on the sampler thread after each publish (e.g. write to
	 * the UI's wake-up pipe); must not block */
	void (*notify)(void *arg);
	void *notify_arg;
};

/*
 * Start the thread (signals blocked in it). It takes the first sample at
 * once, then one every interval; each is published whole: the new snapshot
 * replaces the latest under a mutex, and readers hold references, so no
 * reader ever sees a half-written snapshot. 0 or -errno.
 */
int ps_sampler_start(const struct ps_sampler_config *cfg,
		     struct ps_sampler **out);

/* the latest snapshot, with a reference the caller drops with
 * ps_snapshot_put(); NULL before the first sample */
struct ps_snapshot *ps_sampler_latest(struct ps_sampler *s);
/* how many snapshots have been published so far */
uint64_t ps_sampler_seq(struct ps_sampler *s);
/* wait until a snapshot newer than seq is published: 0, or -ETIMEDOUT;
 * timeout_ms < 0 waits for ever (until stop) */
int ps_sampler_wait(struct ps_sampler *s, uint64_t seq, int timeout_ms);
/* take the next sample now instead of at the next tick */
void ps_sampler_kick(struct ps_sampler *s);
/*
 * Up to n of the most recent snapshots, newest first, each with a reference
 * (drop each with ps_snapshot_put); returns how many were stored.
 */
size_t ps_sampler_history(struct ps_sampler *s, struct ps_snapshot **out,
			  size_t n);
/* stop flag, wake, join, and free everything (drops its references) */
void ps_sampler_stop(struct ps_sampler *s);

#endif
