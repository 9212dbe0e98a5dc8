/* probe-qdisc.h: what "tc -s qdisc show dev IF" and "tc -s class show dev
 * IF" show (every qdisc and class of the interface: kind, handle, parent,
 * the configured rate, ceil, burst and limit of tbf/htb/fq_codel/fifo, and
 * the sent/dropped/overlimits/requeues/backlog counters), over libnl-route-3;
 * with --sysroot, read from the recorded text of those two commands */
#ifndef PS_PROBE_QDISC_H
#define PS_PROBE_QDISC_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "status.h"

struct json_object;

#define PS_QDISC_MAX 32 /* qdiscs (and classes) kept per interface */
#define PS_QDISC_REASON 160
#define PS_QDISC_ROOT 0xffffffffu /* TC_H_ROOT: the parent of a root */

/* one qdisc or class */
struct ps_qdisc_entry {
	char kind[16];	   /* "tbf", "htb", ...: [a-z0-9_-] only */
	char handle[12];   /* "8001:" (qdisc), "1:10" (class) */
	char parent[12];   /* "root", "1:1", ":4" */
	uint32_t hid, pid; /* the same as numbers (not in JSON) */
	/* configured; PS_NA (-1) when the kind has none or it is unknown */
	int64_t rate_bps;      /* tbf rate, htb class rate: bit/s */
	int64_t ceil_bps;      /* htb class ceil: bit/s */
	int64_t burst_bytes;   /* tbf burst, htb class burst */
	int64_t limit_bytes;   /* tbf, bfifo */
	int64_t limit_packets; /* pfifo, fq_codel, fq, pfifo_fast (txqlen) */
	int64_t default_class; /* htb: the minor of its default class */
	/* counters since the qdisc was made */
	uint64_t bytes, packets, drops, overlimits, requeues;
	uint64_t backlog_bytes, backlog_packets;
};

/* the root qdisc's counters over two samples (ps_qdisc_rates) */
struct ps_qdisc_rates {
	bool valid;
	double seconds;
	double tx_bps, drops_ps, overlimits_ps, requeues_ps;
};

struct ps_qdisc_info {
	enum ps_status status; /* ok, absent (no interface), error, ... */
	char reason[PS_QDISC_REASON];
	char ifname[IF_NAMESIZE];
	unsigned n; /* qdiscs, root first */
	struct ps_qdisc_entry q[PS_QDISC_MAX];
	unsigned nclass;
	struct ps_qdisc_entry c[PS_QDISC_MAX];
	bool truncated; /* more than PS_QDISC_MAX of either */
	struct ps_qdisc_rates rates;
};

void ps_qdisc_init(struct ps_qdisc_info *info, const char *ifname);

/* "1:10" -> 0x0001000a, "root" -> PS_QDISC_ROOT, ":4" -> 0x00000004;
 * 0 or -EINVAL */
int ps_qdisc_parse_handle(const char *s, uint32_t *out);
void ps_qdisc_handle_text(uint32_t h, bool is_class, char *buf, size_t len);

/*
 * The pure parser of the recorded form: the text of "tc -s qdisc show dev
 * IF" followed by "tc -s class show dev IF" (as iproute2 prints them; the
 * lines of other commands or comments are skipped). Untrusted: at most
 * PS_QDISC_MAX of each, kinds sanitised, numbers bounded. Sets status ok
 * when one qdisc was read, else error. 0 or -EINVAL.
 */
int ps_qdisc_parse_tc(const char *text, struct ps_qdisc_info *out);

/*
 * Live: one RTM_GETQDISC dump filtered by the interface's index (parsed
 * by libnl) and one RTM_GETTCLASS dump (libnl's class cache) of it; with
 * --sysroot, DIR/tc/IF.txt in the recorded form (not_recorded when missing).
 */
struct ps_qdisc_probe;
struct ps_rtnl;
/* on its own rtnetlink socket / on rt (a probe set's, shared with the
 * set's link probe; NULL: its own), as ps_link_open and ps_link_open_on */
struct ps_qdisc_probe *ps_qdisc_open(void);
struct ps_qdisc_probe *ps_qdisc_open_on(struct ps_rtnl *rt);
void ps_qdisc_close(struct ps_qdisc_probe *qp);
int ps_qdisc_sample_with(struct ps_qdisc_probe *qp, const char *ifname,
			 struct ps_qdisc_info *out);
/* one device's qdiscs and classes (ifindex > 0: that device, which the
 * name only labels; 0: looked up by name): a dump of that one device,
 * never of every interface; the path probe (probe-path.h) reads each
 * device of a path with it */
int ps_qdisc_sample_dev(struct ps_qdisc_probe *qp, const char *ifname,
			int ifindex, struct ps_qdisc_info *out);
int ps_qdisc_sample(const char *ifname, struct ps_qdisc_info *out);
void ps_qdisc_free(struct ps_qdisc_info *info);
void ps_qdisc_rates(const struct ps_qdisc_info *prev, struct ps_qdisc_info *cur,
		    double seconds);

/* the root qdisc (parent root), or NULL */
const struct ps_qdisc_entry *ps_qdisc_root(const struct ps_qdisc_info *info);

/* the rate a shaper of the interface sets for the traffic of a test */
struct ps_qdisc_shaper {
	const struct ps_qdisc_entry *q;	    /* the tbf, or the htb qdisc */
	const struct ps_qdisc_entry *class; /* htb: its default class */
	double rate_bps;		    /* the cap: tbf rate, or the
					     * class's ceil (lowest up the tree) */
	bool per_class;			    /* htb: per class, not shared */
};

/* true when one was found (a tbf anywhere, the lowest rate of them; else
 * an htb whose default class exists) */
bool ps_qdisc_shaper(const struct ps_qdisc_info *info,
		     struct ps_qdisc_shaper *out);

/* the htb classes whose cap (class_cap: ceil, lowest up the tree) is
 * within tol (0.15) of bps: how many, and the cap of the nearest in *cap */
int ps_qdisc_classes_near(const struct ps_qdisc_info *info, double bps,
			  double tol, double *cap);

/*
 * JSON: {"ifname","status","reason"?,"truncated",
 *   "qdiscs":[{kind,handle,parent,rate_bps?,ceil_bps?,burst_bytes?,
 *              limit_bytes?,limit_packets?,default_class?,bytes,packets,
 *              drops,overlimits,requeues,backlog_bytes,backlog_packets}],
 *   "classes":[same],
 *   "rates":{seconds,tx_bps,drops_ps,overlimits_ps,requeues_ps} (after two
 *            samples: the root qdisc's)}
 */
struct json_object *ps_qdisc_to_json(const struct ps_qdisc_info *info);
int ps_qdisc_from_json(struct json_object *obj, struct ps_qdisc_info *out);
void ps_qdisc_print(FILE *out, const struct ps_qdisc_info *info);

#endif
