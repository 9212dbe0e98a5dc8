/* ceiling.h: the answer of "pipescope check": every check evaluated, the
 * ceilings they compute (line rate, PCIe, window / RTT, one core, a shared
 * limit), the binding one nearest the measured rate, the next one after
 * fixing it, and the findings ranked by how much of the gap they explain */
#ifndef PS_CEILING_H
#define PS_CEILING_H

#include <stdbool.h>
#include <stddef.h>

#include "check.h"

#define PS_MAX_CEILINGS 32

struct ps_ceiling {
	const char *id; /* finding id, or "line_rate" */
	char what[128];
	double bps; /* for a flow (scope flow) or the sum */
	enum ps_scope scope;
	int finding; /* index into diagnosis outcomes, -1 none */
	/* only a measured rate: a configured ceiling that explains the
	 * same rate binds ahead of it */
	bool measured;
};

struct ps_ceiling_model {
	struct ps_ceiling c[PS_MAX_CEILINGS];
	int n;
	double measured_bps; /* best sum of the run, 0 when static */
	double single_bps;   /* one stream, 0 when static */
	/* what one flow got at best: the most per stream of the forward
	 * steps (a flow ceiling is compared with it), 0 when static */
	double flow_bps;
	int binding; /* index, -1 none */
	int next;    /* the one after fixing the binding, -1 none */
};

/* add a ceiling; NULL (ignored) when bps <= 0 or the model is full */
struct ps_ceiling *ps_ceiling_add(struct ps_ceiling_model *m, const char *id,
				  const char *what, double bps,
				  enum ps_scope scope, int finding);
/*
 * Pick the binding ceiling: with a measured rate the one nearest above it
 * (a flow ceiling is compared with the one-stream rate, a shared one with
 * the best sum; a ceiling clearly below what was measured is contradicted
 * and never binds); a configured shared ceiling (a shaper, the line rate,
 * PCIe) within 15% of the best sum binds ahead of one that is only a
 * measured rate. Without a test the lowest. Then the next one.
 */
void ps_ceiling_solve(struct ps_ceiling_model *m);
/* the ceiling lies more than 15% below what it is compared with */
bool ps_ceiling_contradicted(const struct ps_ceiling_model *m, int i);
/* how close a ceiling is to what it is compared with: 0 far .. 1 equal */
double ps_ceiling_closeness(const struct ps_ceiling_model *m, int i);
/* a configured ceiling within 15% of what it is compared with (a shared
 * one: the best sum; a flow's: the rate a flow got), either side */
bool ps_ceiling_explains_configured(const struct ps_ceiling_model *m, int i);

struct ps_outcome {
	const struct ps_check_ops *ops;
	enum ps_check_state state;
	struct ps_finding f;
	double explains; /* 0..1: how much of the gap it explains */
	bool far_end;	 /* evaluated on the far end's snapshot */
	/* its ceiling lies more than 15% below what was measured: never a
	 * bottleneck, explains nothing */
	bool contradicted;
	/* one finding per cause: 1 + the index of the outcome whose
	 * configured ceiling explains this one's measured ceiling (a
	 * plateau, what a core carried), which carries it as evidence; 0
	 * none. A folded outcome is not ranked. */
	int folded_into;
};

/* the answer for one direction of the run (out, in, both at once): its
 * own measured rate, binding ceiling and top finding */
struct ps_dir_answer {
	bool have; /* a step of that direction finished */
	enum ps_dir dir;
	double measured_bps; /* its best sum; both: this end sending */
	double back_bps;     /* both: the far end sending at the same time */
	double single_bps;
	int runs;
	double spread;
	/* below the other one-way direction by more than their spreads */
	bool slower;
	/* out and in: the binding ceiling (id NULL: none) and verdict */
	struct ps_ceiling binding;
	bool bottleneck, link_full;
	/* the top finding (NULL: none), a copy of it */
	const struct ps_check_ops *top_ops;
	struct ps_finding top;
	bool top_far_end;
};

struct ps_diagnosis {
	bool static_only; /* no test: snapshot checks only */
	struct ps_outcome out[64];
	size_t n;
	size_t rank[64]; /* fired outcomes, best first */
	size_t nrank;
	struct ps_ceiling_model ceil;
	bool bottleneck; /* a finding of severity bottleneck */
	bool explained;	 /* the binding ceiling or a cause explains it */
	bool link_full;	 /* the rate reaches the line rate */
	/* how sure: the fewest runs of a finished step (1: not repeated,
	 * 0: no test) and the largest spread of one, relative to its rate */
	int runs;
	double spread;
	/* the fastest reverse step when it beat measured_bps (which is the
	 * direction asked about: this end sending), else 0 */
	double reverse_bps;
	/* the direction this diagnosis is about (out when a forward test
	 * finished, else in), and the answer of every direction the run
	 * measured, each diagnosed on its own (dirs[PS_DIR_OUT] ...) */
	enum ps_dir dir;
	struct ps_dir_answer dirs[PS_DIR_N];
};

/*
 * Evaluate every registered check on the evidence, build the ceiling model,
 * fold the findings another one explains into it, rank the rest, and add
 * the "unexplained" finding when nothing explains the rate (never a false
 * all clear). That for the direction asked about (out, or in when only
 * reverse tests finished); then each other direction the run measured is
 * diagnosed the same way on its own steps into d->dirs.
 */
void ps_diagnose(const struct ps_evidence *ev, struct ps_diagnosis *d);
/* the same machine: the far end's snapshot has this host's boot id (two
 * network namespaces), so its cores and host settings are this host's */
bool ps_ev_peer_same_host(const struct ps_evidence *ev);
/*
 * The one ranking of findings: a contradicted ceiling last, then how well
 * a finding explains the measured rate (explains, in steps of 0.1), then
 * severity, then the check's weight, then this end before the far end. <0: a
 * ranks before b.
 */
int ps_rank_cmp(const struct ps_outcome *a, const struct ps_outcome *b);
/* fill d->rank with the fired outcomes in that order */
void ps_diagnosis_rank(struct ps_diagnosis *d);
/* the outcome of the ranked position i */
const struct ps_outcome *ps_diagnosis_ranked(const struct ps_diagnosis *d,
					     size_t i);

#endif
