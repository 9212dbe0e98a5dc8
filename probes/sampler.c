/* sampler.c: the probe thread behind the workstation's live panels: a fresh
 * snapshot every interval, published whole */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sampler.h"
#include "thread.h"
#include "xmalloc.h"

/* the shortest span a kicked sample waits for after the last one */
#define KICK_MIN_S 0.1

struct ps_sampler {
	struct ps_sampler_config cfg;
	struct ps_probe_set *set;
	pthread_t thread;

	pthread_mutex_t lock;	  /* guards everything below */
	pthread_cond_t wake;	  /* the sampler: stop or kick */
	pthread_cond_t published; /* readers: a new snapshot */
	bool stop;
	bool kick;
	uint64_t seq;
	struct ps_snapshot **ring; /* ring[0] is the latest */
	size_t nring, cap;
};

static void deadline_after(struct timespec *ts, double seconds)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += (time_t)seconds;
	ts->tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
	if (ts->tv_nsec >= 1000000000) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000;
	}
}

/* put snap in front of the ring; returns the reference that fell out */
static struct ps_snapshot *ring_push(struct ps_sampler *s,
				     struct ps_snapshot *snap)
{
	struct ps_snapshot *out = NULL;

	if (s->nring == s->cap)
		out = s->ring[--s->nring];
	memmove(s->ring + 1, s->ring, s->nring * sizeof(s->ring[0]));
	s->ring[0] = snap;
	s->nring++;
	return out;
}

static void *sampler_main(void *arg)
{
	struct ps_sampler *s = arg;
	struct ps_snapshot *prev = NULL;

	for (;;) {
		struct ps_snapshot *snap = ps_snapshot_new(), *old;
		struct timespec until, soon;

		/* sample outside the lock: readers are never held up */
		ps_probes_sample(s->set, snap, prev);
		ps_snapshot_put(prev);
		prev = ps_snapshot_get(snap);

		pthread_mutex_lock(&s->lock);
		old = ring_push(s, snap);
		s->seq++;
		snap->hdr.seq = s->seq; /* not yet visible to anyone */
		pthread_cond_broadcast(&s->published);
		pthread_mutex_unlock(&s->lock);
		ps_snapshot_put(old);
		if (s->cfg.notify)
			s->cfg.notify(s->cfg.notify_arg);

		deadline_after(&until, s->cfg.interval_s);
		deadline_after(&soon, s->cfg.interval_s < KICK_MIN_S
					      ? s->cfg.interval_s
					      : KICK_MIN_S);
		pthread_mutex_lock(&s->lock);
		while (!s->stop && !s->kick &&
		       pthread_cond_timedwait(&s->wake, &s->lock, &until) !=
			       ETIMEDOUT)
			;
		/* a kick right after a sample waits a little: rates over a
		 * few milliseconds are no rates (no CPU tick in them) */
		while (!s->stop && s->kick &&
		       pthread_cond_timedwait(&s->wake, &s->lock, &soon) !=
			       ETIMEDOUT)
			;
		s->kick = false;
		if (s->stop) {
			pthread_mutex_unlock(&s->lock);
			break;
		}
		pthread_mutex_unlock(&s->lock);
	}
	ps_snapshot_put(prev);
	return NULL;
}

int ps_sampler_start(const struct ps_sampler_config *cfg,
		     struct ps_sampler **out)
{
	struct ps_sampler *s = xcalloc(1, sizeof(*s));
	pthread_condattr_t ca;
	int rc;

	s->cfg = *cfg;
	if (!(s->cfg.interval_s > 0))
		s->cfg.interval_s = 1.0;
	if (s->cfg.interval_s < 0.01)
		s->cfg.interval_s = 0.01;
	s->cap = cfg->history + 1;
	s->ring = xcalloc(s->cap, sizeof(s->ring[0]));
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &ca);
	pthread_cond_init(&s->published, &ca);
	pthread_condattr_destroy(&ca);
	s->set = ps_probes_open(&s->cfg.env);

	/* the thread starts with every signal blocked */
	rc = ps_thread_start(&s->thread, sampler_main, s);
	if (rc) {
		ps_probes_close(s->set);
		pthread_cond_destroy(&s->wake);
		pthread_cond_destroy(&s->published);
		pthread_mutex_destroy(&s->lock);
		free(s->ring);
		free(s);
		*out = NULL;
		return -rc;
	}
	*out = s;
	return 0;
}

struct ps_snapshot *ps_sampler_latest(struct ps_sampler *s)
{
	struct ps_snapshot *snap = NULL;

	pthread_mutex_lock(&s->lock);
	if (s->nring)
		snap = ps_snapshot_get(s->ring[0]);
	pthread_mutex_unlock(&s->lock);
	return snap;
}

uint64_t ps_sampler_seq(struct ps_sampler *s)
{
	uint64_t seq;

	pthread_mutex_lock(&s->lock);
	seq = s->seq;
	pthread_mutex_unlock(&s->lock);
	return seq;
}

int ps_sampler_wait(struct ps_sampler *s, uint64_t seq, int timeout_ms)
{
	struct timespec until;
	int rc = 0;

	if (timeout_ms >= 0)
		deadline_after(&until, timeout_ms / 1000.0);
	pthread_mutex_lock(&s->lock);
	while (s->seq <= seq && !s->stop && rc != ETIMEDOUT) {
		if (timeout_ms < 0)
			pthread_cond_wait(&s->published, &s->lock);
		else
			rc = pthread_cond_timedwait(&s->published, &s->lock,
						    &until);
	}
	rc = s->seq > seq ? 0 : -ETIMEDOUT;
	pthread_mutex_unlock(&s->lock);
	return rc;
}

void ps_sampler_kick(struct ps_sampler *s)
{
	pthread_mutex_lock(&s->lock);
	s->kick = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
}

size_t ps_sampler_history(struct ps_sampler *s, struct ps_snapshot **out,
			  size_t n)
{
	size_t i;

	pthread_mutex_lock(&s->lock);
	for (i = 0; i < n && i < s->nring; i++)
		out[i] = ps_snapshot_get(s->ring[i]);
	pthread_mutex_unlock(&s->lock);
	return i;
}

void ps_sampler_stop(struct ps_sampler *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_signal(&s->wake);
	pthread_cond_broadcast(&s->published);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	for (size_t i = 0; i < s->nring; i++)
		ps_snapshot_put(s->ring[i]);
	free(s->ring);
	ps_probes_close(s->set);
	pthread_cond_destroy(&s->wake);
	pthread_cond_destroy(&s->published);
	pthread_mutex_destroy(&s->lock);
	free(s);
}
