/* snapshot.h: one reading of every probe, the data behind "pipescope probe",
 * the screen, the checks and "check --snapshot FILE" */
#ifndef PS_SNAPSHOT_H
#define PS_SNAPSHOT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iface.h"
#include "probe-list.h"
#include "status.h"

struct json_object;

/*
 * The version of the JSON shape (doc/snapshot.md). Bump it when a key
 * changes meaning or goes away; adding keys does not need a bump. A loader
 * accepts every version up to its own.
 */
#define PS_SNAPSHOT_VERSION 1

enum ps_snapshot_source {
	PS_SNAP_LIVE = 0, /* this machine */
	PS_SNAP_SYSROOT,  /* a recorded tree (--sysroot) */
};

struct ps_snapshot_header {
	int version; /* PS_SNAPSHOT_VERSION of the writer */
	char pipescope_version[32];
	char hostname[256]; /* "" when unknown */
	char kernel[128];   /* kernel release, "" when unknown */
	char boot_id[40];   /* this boot's id, "" when unknown: two
			     * snapshots with the same one come
			     * from one machine (namespaces) */
	int64_t time_ns;    /* CLOCK_REALTIME of the sample */
	int64_t mono_ns;    /* CLOCK_MONOTONIC (not saved in JSON) */
	uint64_t seq;	    /* sampler generation, 1, 2, ... */
	enum ps_snapshot_source source;
	char sysroot[1024]; /* the --sysroot dir, "" when live */
	bool root;	    /* sampled with euid 0 */

	/* rates (CPU %, IRQ/s, packets/s) need two samples */
	bool rates;		/* computed from an interval */
	double interval_s;	/* seconds between the two samples */
	char rates_reason[160]; /* why not, when !rates */

	struct ps_iface_choice iface; /* which interface and why */
	/* the CPUs the sampling process may run on (sched_getaffinity) as a
	 * list, "0-3" or "1"; "" unknown or not live */
	char affinity[128];
	/* a pipescope server's snapshot: the CPUs its engine keeps the test's
	 * data threads to (place.h), "" when it does not place them */
	char data_threads[128];
};

struct ps_snapshot {
	atomic_int refs; /* heap snapshots: see ps_snapshot_get */
	/* its JSON text once asked for (ps_snapshot_text); a snapshot is not
	 * changed once it is shared */
	_Atomic(char *) text;
	struct ps_snapshot_header hdr;

	/*
	 * One member per probe, in the order of PS_PROBE_LIST (probe-list.h):
	 * struct ps_link_info link, ..., struct ps_sysctl_info sysctl, each
	 * described in its probes/probe-NAME.h
	 */
#define PS_SNAPSHOT_MEMBER(NAME) struct ps_##NAME##_info NAME;
	PS_PROBE_LIST(PS_SNAPSHOT_MEMBER)
#undef PS_SNAPSHOT_MEMBER
};

/* a zeroed snapshot on the heap with one reference */
struct ps_snapshot *ps_snapshot_new(void);
/* both from one machine (the same boot id: the self-test, two network
 * namespaces); false when either boot id is unknown */
bool ps_snapshot_same_host(const struct ps_snapshot *a,
			   const struct ps_snapshot *b);
/* take / drop a reference; the last put frees the snapshot */
struct ps_snapshot *ps_snapshot_get(struct ps_snapshot *s);
void ps_snapshot_put(struct ps_snapshot *s);

/* free what the members own (not the struct itself: it may be on the stack) */
void ps_snapshot_free(struct ps_snapshot *s);

/* fill the header: host, kernel, time, source, root, version, iface */
void ps_snapshot_fill_header(struct ps_snapshot *s,
			     const struct ps_iface_choice *iface);

/* the JSON document (doc/snapshot.md); the caller owns it (json_object_put) */
struct json_object *ps_snapshot_to_json(const struct ps_snapshot *s);
/* the same as text, pretty-printed, xmalloc'ed */
char *ps_snapshot_to_string(const struct ps_snapshot *s);
/* its JSON text on one line, made once and kept with the snapshot (the
 * history and -J write the same far-end snapshot: one text, not two trees
 * of a snapshot that may hold 160000 IRQ cells); NULL for NULL */
const char *ps_snapshot_text(const struct ps_snapshot *s);

/*
 * Parse a snapshot document. 0, or -EINVAL with one line in err (bad JSON,
 * truncated, not a snapshot, newer version, malformed section); on error *s
 * holds nothing that needs freeing.
 */
int ps_snapshot_from_string(const char *text, size_t len, struct ps_snapshot *s,
			    char *err, size_t errlen);
/* the same from a parsed document (the caller keeps its reference); the
 * bounds of what a real machine writes apply (snapshot.c), and numbers out
 * of any reading's range are taken out of o (not known) */
int ps_snapshot_from_json(struct json_object *o, struct ps_snapshot *s,
			  char *err, size_t errlen);
/* the same from a file ("-" = stdin); on error prints one line (ps_err) */
int ps_snapshot_load(const char *file, struct ps_snapshot *s);

/*
 * The grouped human text of "pipescope probe": one short block per probe
 * (its brief form, one screen in all), or with verbose every detail.
 */
void ps_snapshot_print(FILE *out, const struct ps_snapshot *s, bool verbose);

#endif
