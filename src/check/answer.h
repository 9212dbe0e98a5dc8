/* answer.h: the answer of a diagnosis, built once and phrased in one
 * place for every renderer (the text, markdown and JSON reports of
 * "pipescope check" and the workstation's checklist view): the measured
 * rate, the binding ceiling, the next one after fixing it, and the verdict */
#ifndef PS_ANSWER_H
#define PS_ANSWER_H

#include <stdbool.h>
#include <stdio.h>

#include "ceiling.h"

enum ps_verdict {
	PS_VERDICT_BOTTLENECK,	/* a finding of severity bottleneck */
	PS_VERDICT_LINK_FULL,	/* the rate reaches the line rate */
	PS_VERDICT_STATIC,	/* no test, no bottleneck: not an all clear */
	PS_VERDICT_UNEXPLAINED, /* measured, and nothing explains it */
};

struct ps_answer_ceiling {
	const char *id; /* the finding's id or "line_rate"; NULL: none */
	char what[128];
	double bps;
	enum ps_scope scope;
};

struct ps_answer {
	double measured_bps; /* the best sum; 0: nothing was measured */
	double single_bps;   /* one stream; 0 none */
	struct ps_answer_ceiling binding, next;
	enum ps_verdict verdict;
	const char *top; /* the first ranked finding's id, or NULL */
	/* how sure (ps_diagnosis runs, spread): 0 runs when nothing ran */
	int runs;
	double spread;
	double reverse_bps; /* a faster reverse step, 0 none */
	/* each direction the run measured (out, in, both at once), with its
	 * own answer; shown when there is more than one */
	int ndirs;
	struct ps_answer_dir {
		enum ps_dir dir;
		double measured_bps, back_bps; /* back: both's far end */
		bool slower; /* short of the other beyond the spread */
		struct ps_answer_ceiling binding;
		enum ps_verdict verdict;
		/* the top finding: id, title, remedy, end; NULL: none */
		const char *top, *top_title, *top_remedy;
		bool top_far;
	} dirs[PS_DIR_N];
};

/* the answer of d (which must outlive it: ids point into d) */
void ps_answer_of(const struct ps_diagnosis *d, struct ps_answer *a);
/* "this end sending", "the far end sending", "both at once" (translated) */
const char *ps_dir_text(enum ps_dir d);
/* "high", "medium", "low" (JSON), or NULL when nothing ran */
const char *ps_answer_confidence(const struct ps_answer *a);
/* "bottleneck", "link_full", "static", "unexplained" (JSON) */
const char *ps_verdict_name(enum ps_verdict v);

/* how the answer is phrased: the text report, markdown, the screen */
enum ps_answer_style {
	PS_ANSWER_TEXT,
	PS_ANSWER_MARKDOWN,
	PS_ANSWER_SCREEN,
};

enum ps_answer_part {
	PS_ANSWER_HEADING,
	PS_ANSWER_MEASURED,
	PS_ANSWER_BINDING,
	PS_ANSWER_NEXT,
	PS_ANSWER_DIRECTION, /* one line a direction, when more than one */
	PS_ANSWER_VERDICT,   /* and how sure, when tests ran */
};

#define PS_ANSWER_MAX_LINES (5 + PS_DIR_N)

struct ps_answer_line {
	enum ps_answer_part part;
	char text[512]; /* translated; the reports' lines end in newlines */
};

/* the answer's lines in a style, in order; returns how many */
int ps_answer_phrase(const struct ps_answer *a, enum ps_answer_style st,
		     struct ps_answer_line out[PS_ANSWER_MAX_LINES]);
/* the lines of the text or markdown report, written to out */
void ps_answer_print(FILE *out, const struct ps_answer *a, bool md);
/* the scope of a ceiling, translated: "per flow" or "shared" */
const char *ps_scope_text(enum ps_scope s);

#endif
