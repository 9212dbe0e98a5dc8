/* history.h: the run history: every test and check kept in a SQLite file
 * ($XDG_STATE_HOME/pipescope/history.db), listed by "pipescope history" and
 * compared by "pipescope compare" (doc/history.md) */
#ifndef PS_HISTORY_H
#define PS_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"

/* the schema's version (PRAGMA user_version); migrations lead up to it */
#define PS_HIST_SCHEMA 5

struct ps_hist;
struct json_object;

/*
 * The file: --history FILE, else $PIPESCOPE_HISTORY, else
 * $XDG_STATE_HOME/pipescope/history.db, else
 * ~/.local/state/pipescope/history.db. xmalloc'ed; NULL with --no-history,
 * PIPESCOPE_HISTORY=off or when no home is known.
 */
char *ps_hist_path(const struct ps_opts *o);

enum ps_hist_mode {
	PS_HIST_READ,	/* an existing file; migrated when it can be */
	PS_HIST_GLANCE, /* READ from within a test or the screen: given up
			 * after 2 s */
	PS_HIST_WRITE,	/* created (and its folder, 0700) when missing;
			 * given up after 5 s */
};

/* no value stored in a history (a document, a compressed snapshot) is
 * larger than this */
#define PS_HIST_VALUE_MAX (4 << 20)

/*
 * 0, or -errno with one translated line in err (-ENOENT: no such file).
 * A file in a folder others may write, or not this user's, is never
 * written: WRITE refuses it, READ reads it as it is. A signal
 * (ps_stop_requested) stops any statement.
 */
int ps_hist_open(const char *path, enum ps_hist_mode mode, struct ps_hist **h,
		 char *err, size_t errlen);
void ps_hist_close(struct ps_hist *h);

/* one end of a run */
struct ps_hist_end {
	char host[256];
	char boot_id[40];
	char kernel[128];
	char version[64]; /* "pipescope 0.1.0", "iperf3 3.12" */
};

/* one run record */
struct ps_hist_rec {
	int64_t id;
	int64_t time_ns; /* CLOCK_REALTIME at the end */
	char kind[16];	 /* "test", "screen", "check", "static" */
	char target[256];
	int port;
	char proto[8];	   /* "tcp", "udp" */
	char direction[8]; /* "forward", "reverse", "bidir", "none" */
	int streams;
	double bps;    /* the run's rate; NAN when none */
	double spread; /* relative spread of its rate, NAN unknown */
	double loss;   /* UDP: the share of its datagrams lost (0-1); NAN when
			* not UDP or not known */
	char top_finding[200]; /* "" when none */
	/* how a test ended: "done", "stopped" (by the user: the screen's s,
	 * a signal), "partial" (a fault); "" for a check or not known */
	char ended[12];
	struct ps_hist_end end[2]; /* [0] this end, [1] the far end */
	/* JSON texts, or NULL: the options, the -J document, pipescope's
	 * extras, the check report (doc/check.md), both ends' snapshots */
	char *params, *result, *extras, *check;
	char *snap[2];
	/* the parts read back larger than a record may be, left out
	 * (PS_HIST_LEFT_*); 0 when whole */
	unsigned left_out;
};

/*
 * What one record may hold, all its parts together, when it is read back
 * (and what a record is trimmed to when written): the largest real record
 * (two 256-CPU ends, one with 256 NIC queue interrupts, -P 128) is 1.9 MB
 * and 190000 values, and the worst record within the bounds keeps
 * history --export and compare under 64 MiB. One part (a document, a
 * snapshot) is at most 4 MiB.
 */
#define PS_HIST_REC_BYTES (8u << 20)
#define PS_HIST_REC_VALUES 400000u
#define PS_HIST_REC_CONTAINERS 12288u
enum {
	PS_HIST_LEFT_RESULT = 1,
	PS_HIST_LEFT_PARAMS = 2,
	PS_HIST_LEFT_EXTRAS = 4,
	PS_HIST_LEFT_CHECK = 8,
	PS_HIST_LEFT_SNAP_LOCAL = 16,
	PS_HIST_LEFT_SNAP_REMOTE = 32,
};
/* the parts r->left_out names, translated: "the far end's snapshot, the
 * check report" ("" when none) */
void ps_hist_left_out_text(const struct ps_hist_rec *r, char *buf, size_t len);

void ps_hist_rec_free(struct ps_hist_rec *r);

/* write r whole (one transaction) or not at all; 0 or -errno with err */
int ps_hist_write(struct ps_hist *h, const struct ps_hist_rec *r, int64_t *id,
		  char *err, size_t errlen);

/*
 * The newest `last` runs (0: all), to target (NULL: any), oldest first, as
 * *rows (xmalloc'ed, only the list's fields: no JSON texts); their count,
 * or -errno with err.
 */
int ps_hist_list(struct ps_hist *h, const char *target, int last,
		 struct ps_hist_rec **rows, char *err, size_t errlen);
/* one run whole; 0, -ENOENT (no such run) or -errno, with err */
int ps_hist_get(struct ps_hist *h, int64_t id, struct ps_hist_rec *r, char *err,
		size_t errlen);
/* the same without its snapshots (r->snap[] NULL): the documents only */
int ps_hist_get_docs(struct ps_hist *h, int64_t id, struct ps_hist_rec *r,
		     char *err, size_t errlen);
/* every run whole, oldest first, to fn (which must not keep r) */
int ps_hist_each(struct ps_hist *h,
		 void (*fn)(const struct ps_hist_rec *r, void *arg), void *arg,
		 char *err, size_t errlen);

/* "pipescope: this run is not in the history (WHY)" once a process */
void ps_hist_warn_once(const char *why);

/* the list's fields of r as JSON (the caller owns it): id, time_ns, kind,
 * target, port, protocol, direction, streams, bits_per_second, spread,
 * loss, ended, top_finding, host */
struct json_object *ps_hist_rec_json(const struct ps_hist_rec *r);
/* r's loss: a UDP run's share lost (0-1), NAN for TCP or not known */
double ps_hist_loss(const struct ps_hist_rec *r);
/* r's rate for a line: "19.50 Gbit/s", of UDP with its loss
 * ("19.50 Gbit/s, 2.4% lost"); "-" when none */
void ps_hist_rate_text(const struct ps_hist_rec *r, char *buf, size_t len);
/* r->ended for a list, translated: "done", "stopped", "partial", "-" */
const char *ps_hist_ended_text(const struct ps_hist_rec *r);
/* local time "2026-12-01 18:07[:07]" */
void ps_hist_when(int64_t ns, bool seconds, char *buf, size_t len);

#endif
