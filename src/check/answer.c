/* answer.c: the answer of a diagnosis (the measured rate, the binding
 * ceiling, the next one, the verdict) and its one phrasing, in the styles
 * of the text report, the markdown report and the screen */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "answer.h"
#include "nls.h"
#include "sanitize.h"

/* the thresholds of the answer's confidence ("pipescope check --rules") */
enum { R_SPREAD_HIGH, R_SPREAD_MEDIUM };
static const struct ps_rule rules[] = {
	[R_SPREAD_HIGH] = {
		.name = "confidence_high_spread",
		.value = 0.10,
		.unit = "share",
		.why = N_("every step repeated and no step's spread above this "
			  "share of its rate: high confidence"),
	},
	[R_SPREAD_MEDIUM] = {
		.name = "confidence_medium_spread",
		.value = 0.25,
		.unit = "share",
		.why = N_("a step's spread above this share of its rate (or "
			  "one run): low confidence; between the two, medium"),
	},
};
PS_RULE_FAMILY(answer, rules);

static void ceiling_of(const struct ps_ceiling_model *m, int i,
		       struct ps_answer_ceiling *c)
{
	memset(c, 0, sizeof(*c));
	if (i < 0 || i >= m->n)
		return;
	c->id = m->c[i].id ? m->c[i].id : "";
	ps_sanitize(c->what, sizeof(c->what), m->c[i].what, 0);
	c->bps = m->c[i].bps;
	c->scope = m->c[i].scope;
}

void ps_answer_of(const struct ps_diagnosis *d, struct ps_answer *a)
{
	const struct ps_outcome *top = ps_diagnosis_ranked(d, 0);

	memset(a, 0, sizeof(*a));
	a->measured_bps = d->ceil.measured_bps > 0 ? d->ceil.measured_bps : 0;
	a->single_bps = d->ceil.single_bps > 0 ? d->ceil.single_bps : 0;
	ceiling_of(&d->ceil, d->ceil.binding, &a->binding);
	ceiling_of(&d->ceil, d->ceil.next, &a->next);
	a->verdict = d->bottleneck    ? PS_VERDICT_BOTTLENECK
		     : d->link_full   ? PS_VERDICT_LINK_FULL
		     : d->static_only ? PS_VERDICT_STATIC
				      : PS_VERDICT_UNEXPLAINED;
	a->top = top ? top->f.id : NULL;
	a->runs = d->static_only ? 0 : d->runs;
	a->spread = d->spread;
	a->reverse_bps = d->reverse_bps;
	for (int i = 0; i < PS_DIR_N; i++) {
		const struct ps_dir_answer *x = &d->dirs[i];
		struct ps_answer_dir *o = &a->dirs[a->ndirs];

		if (!x->have)
			continue;
		a->ndirs++;
		o->dir = x->dir;
		o->measured_bps = x->measured_bps;
		o->back_bps = x->back_bps;
		o->slower = x->slower;
		if (x->binding.id) {
			o->binding.id = x->binding.id;
			ps_sanitize(o->binding.what, sizeof(o->binding.what),
				    x->binding.what, 0);
			o->binding.bps = x->binding.bps;
			o->binding.scope = x->binding.scope;
		}
		o->verdict = x->bottleneck  ? PS_VERDICT_BOTTLENECK
			     : x->link_full ? PS_VERDICT_LINK_FULL
					    : PS_VERDICT_UNEXPLAINED;
		if (x->top_ops) {
			o->top = x->top.id;
			o->top_title = x->top.title;
			o->top_remedy = x->top.remedy;
			o->top_far = x->top.far || x->top_far_end;
		}
	}
}

const char *ps_dir_text(enum ps_dir d)
{
	switch (d) {
	case PS_DIR_IN:
		return _("the far end sending");
	case PS_DIR_BOTH:
		return _("both at once");
	default:
		break;
	}
	return _("this end sending");
}

/* "the far end sending: 645 Mbit/s, the slower direction; binding: rate
 * of htb 1:10 on the far end's veth, 700 Mbit/s; top: ..." */
static void direction_line(const struct ps_answer_dir *x,
			   enum ps_answer_style st, char *buf, size_t len)
{
	bool md = st == PS_ANSWER_MARKDOWN, tx = st == PS_ANSWER_TEXT;
	char r[32], b[32];
	const char *what = x->binding.what;

	ps_fmt_bps(r, sizeof(r), x->measured_bps);
	snprintf(buf, len,
		 md   ? "- **%s:** "
		 : tx ? "  %s: "
		      : "%s: ",
		 ps_dir_text(x->dir));
	if (x->dir == PS_DIR_BOTH) {
		ps_fmt_bps(b, sizeof(b), x->back_bps);
		ps_appendf(buf, len, _("%s out + %s in"), r, b);
	} else {
		ps_appendf(buf, len, "%s", r);
	}
	if (x->slower)
		ps_appendf(buf, len, "%s", _(", the slower direction"));
	if (x->binding.id) {
		ps_fmt_bps(b, sizeof(b), x->binding.bps);
		ps_appendf(buf, len, _("; binding: %s, %s"),
			   md ? ps_md_safe(what) : what, b);
	}
	if (x->top_title)
		ps_appendf(buf, len, _("; top finding: %s"),
			   md ? ps_md_safe(x->top_title) : x->top_title);
	if (st != PS_ANSWER_SCREEN)
		ps_appendf(buf, len, "\n");
}

const char *ps_answer_confidence(const struct ps_answer *a)
{
	if (a->runs <= 0)
		return NULL;
	if (a->runs < 2 || a->spread > rules[R_SPREAD_MEDIUM].value)
		return "low";
	return a->spread > rules[R_SPREAD_HIGH].value ? "medium" : "high";
}

static const char *confidence_text(const char *c)
{
	if (!strcmp(c, "high"))
		return _("high");
	if (!strcmp(c, "medium"))
		return _("medium");
	return _("low");
}

const char *ps_verdict_name(enum ps_verdict v)
{
	switch (v) {
	case PS_VERDICT_BOTTLENECK:
		return "bottleneck";
	case PS_VERDICT_LINK_FULL:
		return "link_full";
	case PS_VERDICT_STATIC:
		return "static";
	case PS_VERDICT_UNEXPLAINED:
		break;
	}
	return "unexplained";
}

const char *ps_scope_text(enum ps_scope s)
{
	return s == PS_SCOPE_FLOW ? _("per flow") : _("shared");
}

static const char *verdict_text(enum ps_verdict v)
{
	switch (v) {
	case PS_VERDICT_BOTTLENECK:
		return _("A bottleneck was found.");
	case PS_VERDICT_LINK_FULL:
		return _("The link is full: no bottleneck on this host.");
	case PS_VERDICT_STATIC:
		return _("The static checks found no bottleneck; nothing was "
			 "measured, so this is not an all clear.");
	case PS_VERDICT_UNEXPLAINED:
		break;
	}
	return _("No bottleneck was found, and nothing explains the rate: see "
		 "below.");
}

static struct ps_answer_line *line(struct ps_answer_line *out, int *n,
				   enum ps_answer_part part)
{
	struct ps_answer_line *l = &out[(*n)++];

	l->part = part;
	l->text[0] = 0;
	return l;
}

int ps_answer_phrase(const struct ps_answer *a, enum ps_answer_style st,
		     struct ps_answer_line out[PS_ANSWER_MAX_LINES])
{
	bool md = st == PS_ANSWER_MARKDOWN, tx = st == PS_ANSWER_TEXT;
	struct ps_answer_line *l;
	char r1[32], r2[32];
	int n = 0;

	l = line(out, &n, PS_ANSWER_HEADING);
	snprintf(l->text, sizeof(l->text),
		 md   ? "### %s\n\n"
		 : tx ? "%s\n"
		      : "%s",
		 _("Answer"));
	if (a->measured_bps > 0) {
		ps_fmt_bps(r1, sizeof(r1), a->measured_bps);
		ps_fmt_bps(r2, sizeof(r2), a->single_bps);
		l = line(out, &n, PS_ANSWER_MEASURED);
		snprintf(
			l->text, sizeof(l->text),
			md   ? _("- **Measured:** %s at best, %s with one "
				   "stream\n")
			: tx ? _("  Measured:          %s at best, %s with one "
				 "stream\n")
			     : _("Measured: %s at best, %s with one stream"),
			r1, r2);
		if (a->reverse_bps > 0 && a->ndirs < 2) {
			/* a faster reverse step is not "the best": say why */
			size_t k = strlen(l->text);
			char r3[32];

			if (k && l->text[k - 1] == '\n')
				l->text[--k] = 0;
			ps_fmt_bps(r3, sizeof(r3), a->reverse_bps);
			snprintf(l->text + k, sizeof(l->text) - k,
				 _(" (this end sending; the far end sending "
				   "reached %s, which is the other direction's "
				   "rate: see direction_asymmetry)%s"),
				 r3, st == PS_ANSWER_SCREEN ? "" : "\n");
		}
	}
	l = line(out, &n, PS_ANSWER_BINDING);
	if (a->binding.id) {
		ps_fmt_bps(r1, sizeof(r1), a->binding.bps);
		snprintf(l->text, sizeof(l->text),
			 md   ? _("- **Binding ceiling:** %s, %s (%s)\n")
			 : tx ? _("  Binding ceiling:   %s, %s (%s)\n")
			      : _("Binding ceiling: %s, %s (%s)"),
			 r1, md ? ps_md_safe(a->binding.what) : a->binding.what,
			 ps_scope_text(a->binding.scope));
	} else {
		snprintf(l->text, sizeof(l->text), "%s",
			 md   ? _("- **Binding ceiling:** none computed\n")
			 : tx ? _("  Binding ceiling:   none computed\n")
			      : _("Binding ceiling: none computed"));
	}
	if (a->next.id) {
		ps_fmt_bps(r1, sizeof(r1), a->next.bps);
		l = line(out, &n, PS_ANSWER_NEXT);
		snprintf(l->text, sizeof(l->text),
			 md   ? _("- **Next after fixing it:** %s, %s\n")
			 : tx ? _("  Next after fixing: %s, %s\n")
			      : _("Next after fixing it: %s, %s"),
			 r1, md ? ps_md_safe(a->next.what) : a->next.what);
	} else if (a->binding.id && st != PS_ANSWER_SCREEN) {
		/* the screen leaves it out: the findings follow at once */
		l = line(out, &n, PS_ANSWER_NEXT);
		snprintf(l->text, sizeof(l->text), "%s",
			 md ? _("- **Next after fixing it:** not known (no "
				"higher ceiling was computed)\n")
			    : _("  Next after fixing: not known (no higher "
				"ceiling was computed)\n"));
	}
	for (int i = 0; a->ndirs > 1 && i < a->ndirs; i++) {
		l = line(out, &n, PS_ANSWER_DIRECTION);
		direction_line(&a->dirs[i], st, l->text, sizeof(l->text));
	}
	l = line(out, &n, PS_ANSWER_VERDICT);
	snprintf(l->text, sizeof(l->text),
		 md   ? "- **%s**\n\n"
		 : tx ? "  %s\n\n"
		      : "%s",
		 verdict_text(a->verdict));
	if (ps_answer_confidence(a)) {
		char why[200];
		size_t k = strlen(l->text);

		if (a->runs < 2)
			snprintf(why, sizeof(why), "%s",
				 _("each test ran once"));
		else
			snprintf(why, sizeof(why),
				 _("each test ran %d times; the runs of a step "
				   "differed by up to ±%.0f%%"),
				 a->runs, 100 * a->spread);
		/* the reports' verdict ends in a blank line: before it */
		if (k >= 2 && l->text[k - 1] == '\n' && l->text[k - 2] == '\n')
			l->text[k - 1] = 0;
		k = strlen(l->text);
		snprintf(l->text + k, sizeof(l->text) - k,
			 md   ? _("- **Confidence:** %s (%s)\n\n")
			 : tx ? _("  Confidence:        %s (%s)\n\n")
			      : _(" Confidence: %s (%s)"),
			 confidence_text(ps_answer_confidence(a)), why);
	}
	return n;
}

void ps_answer_print(FILE *out, const struct ps_answer *a, bool md)
{
	struct ps_answer_line l[PS_ANSWER_MAX_LINES];
	int n = ps_answer_phrase(a, md ? PS_ANSWER_MARKDOWN : PS_ANSWER_TEXT,
				 l);

	for (int i = 0; i < n; i++)
		fputs(l[i].text, out);
}
