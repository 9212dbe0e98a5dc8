/* ui-guided.h: the guided run of "pipescope check" inside the workstation
 * (key g): the rows the checklist view shows live (each step pending,
 * running, done, skipped or failed, with progress, reason and summary), and
 * the worker thread that runs the steps and evaluates the checks */
#ifndef PS_UI_GUIDED_H
#define PS_UI_GUIDED_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checklist.h"
#include "iface.h"
#include "options.h"

/* ---- the rows: pure bookkeeping (unit-tested) ------------------------- */

enum ui_gstate {
	UI_G_PENDING,
	UI_G_RUNNING,
	UI_G_DONE,
	UI_G_SKIPPED,
	UI_G_FAILED,
};

#define UI_G_MAX_ROWS 32

struct ui_grow {
	int step;   /* 1..total, as ps_checklist_ui numbers the steps */
	int depth;  /* 0 a step, 1 one test of a step (the sweep's) */
	bool group; /* a step with tests of its own under it */
	enum ui_gstate state;
	char title[64];
	char reason[160];
	char summary[200]; /* done: the result; skipped/failed: why */
	double t0, t1;	   /* began, ended (the caller's clock, seconds) */
	double length;	   /* planned seconds; 0 none (no progress bar) */
	int streams;	   /* a finished test's streams, 0 none */
	double bps;	   /* a finished test's rate */
};

struct ui_guided {
	struct ui_grow rows[UI_G_MAX_ROWS];
	int nrows;
	int cur; /* the running row, -1 none */
};

void ui_guided_init(struct ui_guided *g);
/* plan a step: a pending row (in the order they are added) */
void ui_guided_plan(struct ui_guided *g, int step, const char *title,
		    const char *reason);
/*
 * A step begins (ps_checklist_ui.begin). The planned row of that step
 * starts; a second begin of a step already started is one test of it (the
 * sweep's "2 streams"): a row under it. A group whose step is over is
 * closed (state from its tests, summary the sweep text).
 */
void ui_guided_begin(struct ui_guided *g, int step, const char *title,
		     const char *reason, double now, double length);
/* the running row ends (ps_checklist_ui.end); streams/bps of a test */
void ui_guided_end(struct ui_guided *g, enum ui_gstate st, int streams,
		   double bps, const char *summary, double now);
/* the run is over: groups closed, a running row and every pending one
 * skipped with why */
void ui_guided_finish(struct ui_guided *g, const char *why, double now);
/* elapsed of length for a row, 0..1 (0 without a length) */
double ui_guided_progress(const struct ui_grow *r, double now);
/* rows in a state */
int ui_guided_count(const struct ui_guided *g, enum ui_gstate st);
/* the running row's index, or -1 */
int ui_guided_running(const struct ui_guided *g);

/* "1: 23.4, 2: 41.0, 4: 44.1 Gbit/s": rates by stream count in one unit */
void ui_guided_sweep_text(const int *streams, const double *bps, int n,
			  char *buf, size_t len);
/* "[#####.....]" of width cells (>= 3) for frac 0..1 */
void ui_guided_bar(double frac, int width, char *buf, size_t len);
/* the bytes of s that fit in cols columns, cut at a space when one is
 * there; at least one character */
size_t ui_wrap_cut(const char *s, int cols);
/* "pipescope-report-20261129-230501.md" for a broken-down local time */
void ui_guided_report_name(int year, int mon, int mday, int hour, int min,
			   int sec, char *buf, size_t len);
/* a report's path without its extension: stem, or stem-2, stem-3 ... the
 * first whose stem + ext names no file (a second report within the same
 * second gets a name of its own, never another's), into buf */
void ui_free_stem(char *buf, size_t len, const char *stem, const char *ext);

/* ---- the worker ------------------------------------------------------- */

struct ui_model;
struct ps_diagnosis;

enum ui_grun_phase {
	UI_GR_IDLE,    /* never started */
	UI_GR_RUNNING, /* the worker runs the steps */
	UI_GR_DONE,    /* findings ready (also after x) */
};

struct ui_grun {
	pthread_mutex_t lock; /* g, phase */
	struct ui_guided g;
	enum ui_grun_phase phase;
	uint64_t gen; /* bumped on every change */
	bool aborted; /* x ended it */

	/* the worker's until it finished, then the UI thread's */
	struct ps_checklist_cfg cfg;
	struct ps_opts client;
	struct ps_iface_choice iface;
	/* the host, the tests, the diagnosis (rc: ps_checklist_run's) */
	struct ps_guided run;
	/* the run history's line after the answer: "since the last run to
	 * HOST (2 h ago): ...", "" when there is none (src/history) */
	char since[512];

	struct ui_model *model; /* fed with each test's intervals */
	pthread_t th;
	bool th_live;
	atomic_bool finished, skip, abort;
};

void ui_grun_init(struct ui_grun *r, struct ui_model *m);
/*
 * Start a guided run on a new thread against client (the workstation's
 * target) with opts' --quick and -t; loopback: the in-process server.
 * -EBUSY while one runs.
 */
int ui_grun_start(struct ui_grun *r, const struct ps_opts *opts,
		  const struct ps_opts *client, bool loopback);
/* skip the running test: 0, or -EAGAIN when no test runs now */
int ui_grun_skip(struct ui_grun *r);
/* end the whole run (the findings come from what ran) */
void ui_grun_abort(struct ui_grun *r);
bool ui_grun_busy(struct ui_grun *r);
/* join the worker when it has returned; true when none is left */
bool ui_grun_reap(struct ui_grun *r);
/* a copy of the rows and the phase, under the lock */
void ui_grun_copy(struct ui_grun *r, struct ui_guided *g,
		  enum ui_grun_phase *phase);
/* write the markdown report of a finished run into dir (NULL: "."), as
 * "check --format markdown" prints it, through a temporary file and a
 * rename: 0 and the path, or -errno */
int ui_grun_write_report(struct ui_grun *r, const char *dir, char *path,
			 size_t len);
/* abort, wait, free (at exit) */
void ui_grun_destroy(struct ui_grun *r);

#endif
