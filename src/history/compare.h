/* compare.h: "pipescope compare A B": two runs of the history side by
 * side: the rates and their change, what changed on each end between them
 * (offloads, channels, rings, coalescing, MTU, qdisc, sysctls, IRQ affinity
 * and RPS, governor, PCIe link), the findings that appeared or went away.
 * The model is built once; text, JSON (and other renderers) read it. */
#ifndef PS_COMPARE_H
#define PS_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "history.h"

struct json_object;

/* one setting that differs */
struct ps_cmp_change {
	/* "rx ring", "offload tso", "net.core.rmem_max", "tbf 8009: on
	 * eth0: rate" */
	char what[128];
	char key[256]; /* where in the snapshot: "ethtool.rings.rx.current" */
	char before[128]; /* "" when run A did not have it */
	char after[128];  /* "" when run B does not */
	/* the same with their units, as the renderers show them: "600
	 * Mbit/s" for "600000000", "208 KiB" for "212992" */
	char before_text[128], after_text[128];
};

/* one end of both runs */
struct ps_cmp_side {
	bool have;	 /* both runs have this end's snapshot */
	bool other_host; /* the runs saw two machines (host name) */
	bool rebooted;	 /* the same machine, another boot id */
	struct ps_cmp_change *v;
	size_t n;
};

struct ps_cmp_finding {
	char id[64];
	char title[200];
};

struct ps_cmp {
	struct ps_hist_rec run[2]; /* [0] A (the earlier), [1] B */
	double change_pct;	   /* (B - A) / A in %, NAN when unknown */
	double noise_pct;	   /* the larger spread of the two, in % */
	bool noise;		   /* |change| is within noise_pct */
	/* the test's own parameters that differ (streams, direction, ...) */
	struct ps_cmp_change *params;
	size_t nparams;
	struct ps_cmp_side side[2]; /* [0] this end, [1] the far end */
	struct ps_cmp_finding *appeared, *gone;
	size_t nappeared, ngone;
};

/*
 * The runs of "compare" with nothing given: the newest run (to target, or
 * to any) and the one before it to the same target. 0, or -ENOENT /
 * -errno with err.
 */
int ps_compare_pick(struct ps_hist *h, const char *target, int64_t *a,
		    int64_t *b, char *err, size_t errlen);
/* load runs a and b and build the comparison: 0 or -errno with err */
int ps_compare_runs(struct ps_hist *h, int64_t a, int64_t b, struct ps_cmp *c,
		    char *err, size_t errlen);
/* build it from two records already in c->run (which c then owns) */
void ps_compare_build(struct ps_cmp *c);
void ps_compare_free(struct ps_cmp *c);

/* the text of "compare" */
void ps_compare_print(FILE *out, const struct ps_cmp *c);
/* its JSON (doc/history.md); the caller owns it */
struct json_object *ps_compare_json(const struct ps_cmp *c);
/* one line: "since the last run to HOST (2 h ago): rx ring 256 entries →
 * 4096 entries, rate 6.10 Gbit/s → 9.40 Gbit/s", each value with its unit;
 * now_ns is the present time */
void ps_compare_line(const struct ps_cmp *c, int64_t now_ns, char *buf,
		     size_t len);
/* that line for run id against the run before it to the same target, in
 * the history at path: 0, or -ENOENT when there is none */
int ps_compare_since_last(const char *path, int64_t id, char *buf, size_t len);
/* "2 h ago", "5 min ago", "3 d ago" */
void ps_compare_ago(int64_t then_ns, int64_t now_ns, char *buf, size_t len);

#endif
