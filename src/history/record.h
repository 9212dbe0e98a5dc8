/* record.h: what a run leaves in the history: the reporter that records
 * each finished test (text, -J, multi-target, the screen) and the record
 * of a check */
#ifndef PS_RECORD_H
#define PS_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "checklist.h"
#include "engine.h"
#include "history.h"
#include "report-check.h"

/* how much a run's interval rates vary */
struct ps_hist_spread {
	int n;
	double sum, sumsq;
};

void ps_hist_spread_add(struct ps_hist_spread *s, const struct ps_interval *iv);
/* stdev / mean of the rates added (0.05: 5%); NAN with fewer than 2 */
double ps_hist_spread_get(const struct ps_hist_spread *s);

/*
 * Wrap *rep so that each test that ends is recorded as `kind` ("test",
 * "screen") in the history o names, after rep has seen the end. rep's own
 * output is untouched; a record that cannot be written is said once on
 * stderr. Nothing changes with --no-history. The options must outlive rep.
 */
void ps_hist_wrap_reporter(struct ps_reporter *rep, const struct ps_opts *o,
			   const char *kind);

/*
 * What a test's record carries besides the test (--diagnose): the check
 * report of the test (its JSON text, owned: the record takes it) and its
 * top finding. A reporter inside the wrap fills it at the test's end,
 * before the record is made; the wrap reads it then.
 */
struct ps_hist_attach {
	char *check;
	char top[200];
};
void ps_hist_wrap_reporter_attach(struct ps_reporter *rep,
				  const struct ps_opts *o, const char *kind,
				  struct ps_hist_attach *att);

/*
 * Record a check: the report r (its evidence names the host and the run),
 * the spread of the best step's rate (NAN unknown). Returns the record's
 * id, or 0 when none was written (said why once).
 */
int64_t ps_hist_record_check(const struct ps_opts *o,
			     const struct ps_check_report *r, double spread);

/* a run with these options is recorded (not --no-history, a file known) */
bool ps_hist_enabled(const struct ps_opts *o);

/* write r to o's history; its id, or 0 (said why once, or --no-history) */
int64_t ps_hist_save(const struct ps_opts *o, const struct ps_hist_rec *r);

#endif
