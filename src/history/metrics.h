/* metrics.h: "pipescope history --export openmetrics": the newest runs of
 * the history as the text node_exporter's textfile collector reads
 * (doc/history.md "Metrics") */
#ifndef PS_METRICS_H
#define PS_METRICS_H

#include <stdint.h>
#include <stdio.h>

#include "history.h"

/* a label value's bytes before escaping: a host name (253) fits, and so
 * does a finding's title; a hostile file's longer strings are cut */
#define PS_OM_LABEL_MAX 256

/* what the newest run to a target measured in one direction */
struct ps_om_dir {
	char target[PS_OM_LABEL_MAX];
	char proto[8]; /* "tcp", "udp" */
	char dir[4];   /* "out" (this host sends), "in" (the target sends) */
	int64_t id, time_ns;
	/* NAN when not known: left out */
	double bps, retransmits, loss;
};

/* what the newest check of a target found */
struct ps_om_check {
	char target[PS_OM_LABEL_MAX];
	int64_t id, time_ns;
	int bottleneck;		       /* 0, 1; -1 not known */
	char top[PS_OM_LABEL_MAX];     /* a finding id; "" none */
	char severity[32];	       /* "bottleneck", ... */
	char title[PS_OM_LABEL_MAX];   /* the finding's title */
	char ceiling[PS_OM_LABEL_MAX]; /* the binding ceiling's id */
	double ceiling_bps;	       /* NAN: none */
};

struct ps_om {
	struct ps_om_dir *dir;
	size_t ndir;
	struct ps_om_check *check;
	size_t ncheck;
};

/*
 * The label value of an untrusted string: no control character, valid
 * UTF-8 (ps_sanitize's rules), at most cap - 1 bytes, cut between
 * characters. The exposition's escapes are added when it is written.
 */
void ps_om_label(char *dst, size_t cap, const char *s);

/* the exposition's form of v ("25135970408.180725", "3"); "" when v is
 * not finite, which is never written */
void ps_om_number(char *buf, size_t len, double v);

/*
 * The directions a whole test record measured, from its -J document:
 * forward one (out), reverse one (in), bidir both; their count (0..2).
 * d's target, protocol, run id and time are the record's.
 */
int ps_om_from_test(const struct ps_hist_rec *r, const char *target,
		    struct ps_om_dir d[2]);
/*
 * A check record's answer into c, and the directions its steps measured
 * (out, in; TCP) into d; their count. A static check measures none.
 */
int ps_om_from_check(const struct ps_hist_rec *r, const char *target,
		     struct ps_om_check *c, struct ps_om_dir d[2]);

/*
 * The newest run per target (to `target` only, when not NULL), protocol
 * and direction, and the newest check per target, read from h. 0, or
 * -errno with err.
 */
int ps_om_collect(struct ps_hist *h, const char *target, struct ps_om *m,
		  char *err, size_t errlen);
void ps_om_free(struct ps_om *m);

/* m as the text exposition format, every family with # HELP and # TYPE,
 * ending with "# EOF" */
void ps_om_write(FILE *out, const struct ps_om *m);

#endif
