/* report-capture.h: a test's text and -J reports kept in memory beside its
 * own output, whole once the test has ended: what the workstation's w
 * writes for a plain test (ui/view-guided.c) */
#ifndef PS_REPORT_CAPTURE_H
#define PS_REPORT_CAPTURE_H

#include <pthread.h>
#include <stdint.h>

#include "engine.h"

struct ps_capture {
	pthread_mutex_t lock;
	/* the last test that ended, both reports whole; NULL before one */
	char *text, *json;
	int64_t time_ns; /* CLOCK_REALTIME at its end */
	unsigned gen;	 /* one more for each test kept */
};

void ps_capture_init(struct ps_capture *c);
void ps_capture_free(struct ps_capture *c);

/*
 * rep's events also go to a text and a -J renderer writing into memory;
 * when the wrapped reporter is destroyed (the test and its last words are
 * over), the two texts replace c's. c outlives rep.
 */
void ps_capture_wrap(struct ps_reporter *rep, const struct ps_opts *o,
		     struct ps_capture *c);

/* copies of the last test's reports (xmalloc'ed); 0, or -ENOENT before
 * any test ended */
int ps_capture_get(struct ps_capture *c, char **text, char **json,
		   int64_t *time_ns);

#endif
