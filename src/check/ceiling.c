/* ceiling.c: the lead of the "pipescope check" answer: the measured rate,
 * the tightest ceiling that explains it, the next one after fixing it, and
 * the findings ranked; when nothing explains the rate it says so */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceiling.h"
#include "nls.h"
#include "xmalloc.h"

#define CONTRADICTED (PS_CHECK_RULE(CONTRADICTED)->value)
#define NOTHING_BPS (PS_CHECK_RULE(NOTHING_MOVED)->value)

/* the thresholds of the ceiling model ("pipescope check --rules") */
enum { R_CONFIGURED, R_LINK_FULL };
static const struct ps_rule rules[] = {
	[R_CONFIGURED] = {
		.name = "ceiling_configured",
		.value = 1.15,
		.unit = "ratio",
		.why = N_("a configured ceiling at most this many times the "
			  "measured rate (and not contradicted) explains it"),
	},
	[R_LINK_FULL] = {
		.name = "link_full",
		.value = 0.9,
		.unit = "share",
		.why = N_("tests reaching this share of the line rate found "
			  "the link full: nothing else is the limit"),
	},
};
PS_RULE_FAMILY(ceiling, rules);
#define CONFIGURED (rules[R_CONFIGURED].value)

struct ps_ceiling *ps_ceiling_add(struct ps_ceiling_model *m, const char *id,
				  const char *what, double bps,
				  enum ps_scope scope, int finding)
{
	struct ps_ceiling *c;

	if (!(bps > 0) || m->n >= PS_MAX_CEILINGS)
		return NULL;
	c = &m->c[m->n++];
	memset(c, 0, sizeof(*c));
	c->id = id;
	snprintf(c->what, sizeof(c->what), "%s", what ? what : "");
	c->bps = bps;
	c->scope = scope;
	c->finding = finding;
	return c;
}

/* what a ceiling is compared with */
static double reference(const struct ps_ceiling_model *m,
			const struct ps_ceiling *c)
{
	if (c->scope == PS_SCOPE_FLOW && m->flow_bps > 0)
		return m->flow_bps;
	if (c->scope == PS_SCOPE_FLOW && m->single_bps > 0)
		return m->single_bps;
	return m->measured_bps;
}

double ps_ceiling_closeness(const struct ps_ceiling_model *m, int i)
{
	double ref = reference(m, &m->c[i]), r;

	if (!(ref > 0))
		return 0;
	r = m->c[i].bps / ref;
	if (r < CONTRADICTED)
		return 0;
	if (r < 1)
		return 1;
	/* 1 at r = 1, 0.5 at r = 2, falling with the distance */
	return 1 / r;
}

bool ps_ceiling_explains_configured(const struct ps_ceiling_model *m, int i)
{
	const struct ps_ceiling *c = &m->c[i];
	double ref = reference(m, c);

	/* shared against the sum, a flow's (a window) against the rate a
	 * flow got: a receive window that explains each flow binds ahead of
	 * the per-flow plateau it causes */
	return !c->measured && ref > 0 && c->bps >= CONTRADICTED * ref &&
	       c->bps <= CONFIGURED * ref;
}

void ps_ceiling_solve(struct ps_ceiling_model *m)
{
	bool configured = false;
	double best = 0;

	m->binding = -1;
	m->next = -1;
	/* a configured limit that explains the sum is why it plateaued:
	 * the plateau itself (a measured ceiling) does not bind then */
	for (int i = 0; i < m->n; i++)
		if (ps_ceiling_explains_configured(m, i))
			configured = true;
	if (m->measured_bps > 0) {
		for (int i = 0; i < m->n; i++) {
			double cl = ps_ceiling_closeness(m, i);

			if (configured && m->c[i].measured)
				continue;
			if (cl > best) {
				best = cl;
				m->binding = i;
			}
		}
	} else {
		for (int i = 0; i < m->n; i++)
			if (m->c[i].scope == PS_SCOPE_SHARED &&
			    (m->binding < 0 ||
			     m->c[i].bps < m->c[m->binding].bps))
				m->binding = i;
	}
	if (m->binding < 0)
		return;
	/* next: the lowest shared ceiling above the binding one */
	for (int i = 0; i < m->n; i++) {
		if (i == m->binding || m->c[i].scope != PS_SCOPE_SHARED)
			continue;
		if (m->c[i].bps <= m->c[m->binding].bps * 1.01 &&
		    m->c[m->binding].scope == PS_SCOPE_SHARED)
			continue;
		if (m->c[m->binding].scope == PS_SCOPE_FLOW &&
		    m->c[i].bps <= m->measured_bps)
			continue;
		if (m->next < 0 || m->c[i].bps < m->c[m->next].bps)
			m->next = i;
	}
}

/* explains values this close rank as equal (then severity, then weight) */
#define RANK_STEP 0.1

static int explains_bucket(double e)
{
	if (!(e > 0))
		return 0;
	return (int)floor(e / RANK_STEP + 0.5);
}

int ps_rank_cmp(const struct ps_outcome *a, const struct ps_outcome *b)
{
	int ea = explains_bucket(a->explains),
	    eb = explains_bucket(b->explains);

	/* what the rate went past comes after everything else */
	if (a->contradicted != b->contradicted)
		return a->contradicted ? 1 : -1;
	if (ea != eb)
		return ea > eb ? -1 : 1;
	if (a->f.severity != b->f.severity)
		return a->f.severity > b->f.severity ? -1 : 1;
	if (a->ops->weight != b->ops->weight)
		return a->ops->weight > b->ops->weight ? -1 : 1;
	/* this end before the far end's copy of the same check */
	if (a->far_end != b->far_end)
		return a->far_end ? 1 : -1;
	return 0;
}

static int cmp_rank(const void *a, const void *b, void *arg)
{
	const struct ps_diagnosis *d = arg;
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	int c = ps_rank_cmp(&d->out[ia], &d->out[ib]);

	/* equal: the registry's order, so the ranking is stable */
	return c ? c : ia < ib ? -1 : ia > ib ? 1 : 0;
}

void ps_diagnosis_rank(struct ps_diagnosis *d)
{
	d->nrank = 0;
	for (size_t i = 0; i < d->n; i++)
		if (d->out[i].state == PS_CHECK_FIRED && !d->out[i].folded_into)
			d->rank[d->nrank++] = i;
	qsort_r(d->rank, d->nrank, sizeof(d->rank[0]), cmp_rank, d);
}

static const struct ps_check_ops unexplained_ops = {
	.id = "unexplained",
	.family = "summary",
	.title = N_("What explains the rate"),
	.weight = 0,
};

static const struct ps_check_ops link_full_ops = {
	.id = "link_full",
	.family = "summary",
	.title = N_("The link is full"),
	.weight = 0,
};

/* one more finding of the diagnosis itself (no check's), or NULL when the
 * table is full */
static struct ps_outcome *add_own(struct ps_diagnosis *d,
				  const struct ps_check_ops *ops,
				  enum ps_severity sev)
{
	struct ps_outcome *o;

	if (d->n >= sizeof(d->out) / sizeof(d->out[0]))
		return NULL;
	o = &d->out[d->n++];
	memset(o, 0, sizeof(*o));
	o->ops = ops;
	o->state = PS_CHECK_FIRED;
	o->f.id = ops->id;
	o->f.severity = sev;
	return o;
}

/* what nothing explained: what was ruled out and where to look next */
static void add_unexplained(const struct ps_evidence *ev,
			    struct ps_diagnosis *d)
{
	struct ps_outcome *o = add_own(d, &unexplained_ops, PS_SEV_WARNING);
	char rate[32];
	int nclear = 0;

	if (!o)
		return;
	if (d->static_only) {
		PS_SET(o->f.title, "%s",
		       _("No static finding explains a limit; a snapshot "
			 "cannot measure one"));
	} else {
		ps_fmt_bps(rate, sizeof(rate), d->ceil.measured_bps);
		ps_fact(&o->f, "measured", d->ceil.measured_bps, "bit/s");
		PS_SET(o->f.title,
		       _("Nothing found explains %s: this is not an all clear"),
		       rate);
	}
	PS_APPEND(o->f.evidence, "%s", _("Ruled out:"));
	for (size_t i = 0; i + 1 < d->n; i++) {
		if (d->out[i].state != PS_CHECK_CLEAR)
			continue;
		PS_APPEND(o->f.evidence, "%s %s", nclear ? "," : "",
			  _(d->out[i].ops->title));
		nclear++;
	}
	if (!nclear)
		PS_APPEND(o->f.evidence, " %s", _("nothing"));
	PS_APPEND(o->f.evidence, ".");
	if (ev->res && ev->res->loopback)
		PS_APPEND(o->f.evidence, " %s",
			  _("The test ran over loopback: it measures this "
			    "host, not the link."));
	if (d->static_only)
		PS_SET(o->f.remedy, "%s",
		       _("run a test: pipescope check -c HOST (with pipescope "
			 "-s or iperf3 -s on the far end)"));
	else
		PS_SET(o->f.remedy, "%s",
		       _("look at the far end (run pipescope -s there so both "
			 "ends are measured), the path (switch ports, "
			 "policers, ECMP: test to a host on the same switch), "
			 "and storage when real transfers read or write "
			 "files"));
}

static void add_link_full(struct ps_diagnosis *d, double line)
{
	struct ps_outcome *o = add_own(d, &link_full_ops, PS_SEV_INFO);
	char a[32], b[32];

	if (!o)
		return;
	o->f.scope = PS_SCOPE_SHARED;
	o->f.ceiling_bps = line;
	ps_crossed(&o->f, &rules[R_LINK_FULL]);
	/* it explains as much as the line rate does */
	o->explains =
		d->ceil.measured_bps >= line ? 1 : d->ceil.measured_bps / line;
	ps_fmt_bps(a, sizeof(a), d->ceil.measured_bps);
	ps_fmt_bps(b, sizeof(b), line);
	ps_fact(&o->f, "measured", d->ceil.measured_bps, "bit/s");
	ps_fact(&o->f, "line_rate", line, "bit/s");
	PS_SET(o->f.title, _("The link is full: %s of %s"), a, b);
	PS_SET(o->f.evidence,
	       _("%s measured against a line rate of %s (%.0f%%); TCP/IP "
		 "headers take about 5%% at 1500 bytes"),
	       a, b, 100 * d->ceil.measured_bps / line);
	PS_SET(o->f.remedy, "%s",
	       _("nothing to fix on this host; a faster link or a second port "
		 "(bonding) is the next step"));
}

bool ps_ev_peer_same_host(const struct ps_evidence *ev)
{
	return ps_snapshot_same_host(ev->snap, ev->peer);
}

/*
 * The far end's host and NIC checks, on the snapshot a pipescope server
 * sent: only what fires is added (what is ruled out there is not listed
 * twice), marked as the far end's. On the same machine (namespaces) its
 * host settings and the kernel's own counters (softnet) are this host's:
 * only the NIC checks of its interface.
 */
static void far_end_checks(const struct ps_evidence *ev, struct ps_diagnosis *d)
{
	const struct ps_snapshot *p = ev->peer;
	struct ps_evidence pev;
	bool same = ps_ev_peer_same_host(ev);
	const char *who = p->hdr.hostname[0] ? p->hdr.hostname : "?";

	ps_evidence_of(p, NULL, &pev);

	for (size_t i = 0; i < ps_check_count; i++) {
		const struct ps_check_ops *ops = ps_check_registry[i];
		struct ps_outcome o = { .ops = ops, .far_end = true };
		char t[sizeof(o.f.title)], e[sizeof(o.f.evidence)];

		if (ops->needs_test || (same && ops->host_wide) ||
		    (strcmp(ops->family, "nic") &&
		     (same || strcmp(ops->family, "host"))))
			continue;
		if (d->n >= sizeof(d->out) / sizeof(d->out[0]))
			break;
		o.f.id = ops->id;
		o.state = ops->eval(&pev, &o.f);
		if (o.state != PS_CHECK_FIRED)
			continue;
		if (!o.f.id)
			o.f.id = ops->id;
		snprintf(t, sizeof(t), _("far end (%s): %s"), who, o.f.title);
		snprintf(o.f.title, sizeof(o.f.title), "%s", t);
		snprintf(e, sizeof(e), _("on the far end, interface %s: %s"),
			 p->hdr.iface.name[0] ? p->hdr.iface.name : "?",
			 o.f.evidence);
		snprintf(o.f.evidence, sizeof(o.f.evidence), "%s", e);
		d->out[d->n++] = o;
	}
}

bool ps_ceiling_contradicted(const struct ps_ceiling_model *m, int i)
{
	double ref = reference(m, &m->c[i]);

	return ref > 0 && m->c[i].bps < CONTRADICTED * ref;
}

/*
 * A ceiling more than 15% below what was measured is contradicted: the
 * rate went past it, so it limits nothing. Its finding is never a
 * bottleneck (a warning at most) and says why.
 */
static void contradict(struct ps_diagnosis *d)
{
	const struct ps_ceiling_model *m = &d->ceil;

	for (int c = 0; c < m->n; c++) {
		struct ps_outcome *o;
		char a[32], b[32];

		if (m->c[c].finding < 0 || !ps_ceiling_contradicted(m, c))
			continue;
		o = &d->out[m->c[c].finding];
		o->contradicted = true;
		o->explains = 0;
		ps_crossed(&o->f, PS_CHECK_RULE(CONTRADICTED));
		if (o->f.severity == PS_SEV_BOTTLENECK)
			o->f.severity = PS_SEV_WARNING;
		ps_fmt_bps(a, sizeof(a), m->c[c].bps);
		ps_fmt_bps(b, sizeof(b), reference(m, &m->c[c]));
		PS_APPEND(o->f.evidence,
			  _("; contradicted: %s %s was measured, more than "
			    "%.0f%% above this ceiling of %s, so it limits "
			    "nothing"),
			  m->c[c].scope == PS_SCOPE_FLOW ? _("one stream")
							 : _("the sum"),
			  b, 100 * (1 - CONTRADICTED), a);
		ps_fact(&o->f, "contradicted_by", reference(m, &m->c[c]),
			"bit/s");
	}
}

/*
 * A CPU cost (a busy core, offloads off, IRQs on one CPU...) limits a test
 * that moves data; when the tests moved almost nothing, what keeps a core
 * busy is other work: such a finding is no bottleneck there.
 */
static void moved_nothing(struct ps_diagnosis *d)
{
	if (d->static_only || d->ceil.measured_bps >= NOTHING_BPS)
		return;
	for (size_t i = 0; i < d->n; i++) {
		struct ps_outcome *o = &d->out[i];

		if (o->state != PS_CHECK_FIRED ||
		    o->f.severity != PS_SEV_BOTTLENECK ||
		    (strcmp(o->ops->family, "cpu") && !o->ops->cpu_cause))
			continue;
		o->f.severity = PS_SEV_WARNING;
		o->explains = 0;
		PS_APPEND(o->f.evidence, "%s",
			  _("; the tests moved almost nothing, so a CPU cost "
			    "is not what limits them"));
	}
}

/*
 * One finding per cause: a fired finding whose ceiling is only a measured
 * rate (a plateau, what a saturated core carried) is folded into the
 * bottleneck whose configured or computed ceiling of the same scope
 * explains that rate (within the ceiling_configured margin, not
 * contradicted): the shaper behind a shared plateau, the window behind a
 * per-flow limit. An effect (the fork's plateau) is folded into a measured
 * cause too: the saturated cores that carried that rate. The explaining
 * finding quotes it; it is not ranked.
 */
static void fold(struct ps_diagnosis *d)
{
	const struct ps_ceiling_model *m = &d->ceil;

	for (int x = 0; x < m->n; x++) {
		int fx = m->c[x].finding, by = -1;
		double best = 0;
		struct ps_outcome *ox, *ob;

		if (fx < 0 || !m->c[x].measured)
			continue;
		ox = &d->out[fx];
		if (ox->state != PS_CHECK_FIRED || ox->folded_into)
			continue;
		for (int c = 0; c < m->n; c++) {
			int fc = m->c[c].finding;
			double r;

			if (fc < 0 || fc == fx ||
			    m->c[c].scope != m->c[x].scope)
				continue;
			ob = &d->out[fc];
			if (m->c[c].measured &&
			    (!ox->ops->effect || ob->ops->effect))
				continue;
			if (ob->state != PS_CHECK_FIRED || ob->contradicted ||
			    ob->folded_into ||
			    ob->f.severity != PS_SEV_BOTTLENECK)
				continue;
			r = m->c[c].bps / m->c[x].bps;
			if (r < CONTRADICTED || r > CONFIGURED)
				continue;
			/* the nearest explains it */
			if (by < 0 || fabs(r - 1) < best) {
				by = fc;
				best = fabs(r - 1);
			}
		}
		if (by < 0)
			continue;
		ob = &d->out[by];
		ox->folded_into = by + 1;
		if (ob->explains < ox->explains)
			ob->explains = ox->explains;
		PS_APPEND(ob->f.evidence, _("; it explains what %s found: %s"),
			  ox->f.id, ox->f.title);
	}
}

static void diagnose_one(const struct ps_evidence *ev, struct ps_diagnosis *d)
{
	const struct ps_step_result *single = ps_run_single(ev->res);
	const struct ps_step_result *best = ps_run_best(ev->res);
	struct ps_ceiling_model *m = &d->ceil;
	double line = ps_ev_line_bps(ev);

	memset(d, 0, sizeof(*d));
	d->static_only = !ev->res || !best;
	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *s = &ev->res->steps[i];
		int n = s->nruns > 1 ? s->nruns : 1;

		if (s->state != PS_STEP_DONE)
			continue;
		if (!d->runs || n < d->runs)
			d->runs = n;
		if (s->bps > 0 && ps_step_spread(s) / s->bps > d->spread)
			d->spread = ps_step_spread(s) / s->bps;
		if (s->reverse && !s->bidir && best && !best->reverse &&
		    s->bps > best->bps && s->bps > d->reverse_bps)
			d->reverse_bps = s->bps;
	}
	m->binding = m->next = -1;
	if (best)
		m->measured_bps = best->bps;
	if (single)
		m->single_bps = single->bps;
	m->flow_bps = ps_run_flow_bps(ev->res);

	for (size_t i = 0; i < ps_check_count; i++) {
		const struct ps_check_ops *ops = ps_check_registry[i];
		struct ps_outcome *o = &d->out[d->n++];

		o->ops = ops;
		o->f.id = ops->id;
		if (ops->needs_test && d->static_only) {
			o->state = PS_CHECK_NA;
			PS_SET(o->f.evidence, "%s",
			       _("needs a test (static checks only)"));
			continue;
		}
		o->state = ops->eval(ev, &o->f);
		if (!o->f.id)
			o->f.id = ops->id;
	}
	if (ev->peer)
		far_end_checks(ev, d);

	/* the ceilings: the line rate, then every finding's */
	if (line > 0) {
		char what[128];

		snprintf(what, sizeof(what), _("line rate of %s"),
			 ps_ev_ifname(ev));
		ps_ceiling_add(m, "line_rate", what, line, PS_SCOPE_SHARED, -1);
	}
	for (size_t i = 0; i < d->n; i++) {
		const struct ps_finding *f = &d->out[i].f;
		struct ps_ceiling *c;

		if (d->out[i].state != PS_CHECK_FIRED || !(f->ceiling_bps > 0))
			continue;
		c = ps_ceiling_add(m, f->id,
				   f->ceiling_what[0] ? f->ceiling_what
						      : _(d->out[i].ops->title),
				   f->ceiling_bps, f->scope, (int)i);
		if (c)
			c->measured = f->ceiling_measured;
	}
	ps_ceiling_solve(m);

	/* how much of the gap each finding explains */
	for (int c = 0; c < m->n; c++) {
		if (m->c[c].finding < 0)
			continue;
		d->out[m->c[c].finding].explains =
			d->static_only ? (c == m->binding ? 1 : 0.5)
				       : ps_ceiling_closeness(m, c);
	}
	/* a configured ceiling that binds explains what the plateau it
	 * stands behind explains */
	if (!d->static_only && m->binding >= 0 && !m->c[m->binding].measured &&
	    m->c[m->binding].finding >= 0) {
		struct ps_outcome *b = &d->out[m->c[m->binding].finding];

		for (int c = 0; c < m->n; c++)
			if (m->c[c].measured && m->c[c].finding >= 0 &&
			    d->out[m->c[c].finding].explains > b->explains)
				b->explains = d->out[m->c[c].finding].explains;
	}

	contradict(d);
	moved_nothing(d);

	/* a cause of the busy core explains what the busy core explains */
	{
		double cpu = 0;

		/* the busy core, and the stream-count fork: a per-packet CPU
		 * cost is what caps each flow (or the sum) there */
		for (size_t i = 0; i < d->n; i++)
			if (d->out[i].state == PS_CHECK_FIRED &&
			    (!strcmp(d->out[i].ops->family, "cpu") ||
			     d->out[i].ops == &ps_check_fork) &&
			    d->out[i].explains > cpu)
				cpu = d->out[i].explains;
		for (size_t i = 0; i < d->n; i++)
			if (d->out[i].state == PS_CHECK_FIRED &&
			    d->out[i].ops->cpu_cause &&
			    d->out[i].f.severity == PS_SEV_BOTTLENECK &&
			    d->out[i].explains < cpu)
				d->out[i].explains = cpu;
	}
	/* a cause of the per-flow limit explains what that limit explains */
	{
		double flow = 0;

		for (size_t i = 0; i < d->n; i++)
			if (d->out[i].state == PS_CHECK_FIRED &&
			    !strcmp(d->out[i].f.id, "per_flow_limit"))
				flow = d->out[i].explains;
		for (size_t i = 0; i < d->n; i++)
			if (d->out[i].state == PS_CHECK_FIRED &&
			    d->out[i].ops->flow_cause &&
			    d->out[i].f.severity == PS_SEV_BOTTLENECK &&
			    d->out[i].explains < flow)
				d->out[i].explains = flow;
	}
	for (size_t i = 0; i < d->n; i++) {
		if (d->out[i].state != PS_CHECK_FIRED)
			continue;
		if (d->out[i].f.severity == PS_SEV_BOTTLENECK)
			d->bottleneck = true;
	}
	if (!d->static_only && line > 0 &&
	    m->measured_bps >= rules[R_LINK_FULL].value * line)
		d->link_full = true;
	d->explained = d->bottleneck || d->link_full;
	fold(d);
	if (d->link_full)
		add_link_full(d, line);
	else if (!d->explained)
		add_unexplained(ev, d);

	ps_diagnosis_rank(d);
}

/* the summary of a diagnosis of its own direction */
static void dir_answer(const struct ps_diagnosis *x, struct ps_dir_answer *a)
{
	const struct ps_outcome *top = ps_diagnosis_ranked(x, 0);

	memset(a, 0, sizeof(*a));
	a->have = x->ceil.measured_bps > 0;
	a->dir = x->dir;
	a->measured_bps = x->ceil.measured_bps;
	a->single_bps = x->ceil.single_bps;
	a->runs = x->runs;
	a->spread = x->spread;
	if (x->ceil.binding >= 0)
		a->binding = x->ceil.c[x->ceil.binding];
	a->bottleneck = x->bottleneck;
	a->link_full = x->link_full;
	if (top) {
		a->top_ops = top->ops;
		a->top = top->f;
		a->top_far_end = top->far_end;
	}
}

/* both at once: the bidir step with the highest sum, and the finding that
 * compares it with the directions alone */
static void both_answer(const struct ps_run *r, const struct ps_diagnosis *d,
			struct ps_dir_answer *a)
{
	const struct ps_step_result *best = NULL;

	memset(a, 0, sizeof(*a));
	a->dir = PS_DIR_BOTH;
	for (int i = 0; i < r->nsteps; i++) {
		const struct ps_step_result *s = &r->steps[i];

		if (s->state == PS_STEP_DONE && s->bidir &&
		    (!best ||
		     s->bps + s->bps_back > best->bps + best->bps_back))
			best = s;
	}
	if (!best)
		return;
	a->have = true;
	a->measured_bps = best->bps;
	a->back_bps = best->bps_back;
	a->runs = best->nruns > 1 ? best->nruns : 1;
	a->spread = best->bps > 0 ? ps_step_spread(best) / best->bps : 0;
	for (size_t i = 0; i < d->nrank; i++) {
		const struct ps_outcome *o = ps_diagnosis_ranked(d, i);

		if (o->ops == &ps_check_bidir) {
			a->top_ops = o->ops;
			a->top = o->f;
			a->bottleneck = o->f.severity == PS_SEV_BOTTLENECK;
		}
	}
}

void ps_diagnose(const struct ps_evidence *ev, struct ps_diagnosis *d)
{
	struct ps_run *view = NULL;
	struct ps_evidence vev = *ev;
	enum ps_dir main = PS_DIR_OUT;

	if (ev->res) {
		if (!ps_run_has_dir(ev->res, PS_DIR_OUT) &&
		    ps_run_has_dir(ev->res, PS_DIR_IN))
			main = PS_DIR_IN;
		/* a view of the run whose steps of that direction count */
		view = xmalloc(sizeof(*view));
		*view = *ev->res;
		view->dir = main;
		vev.res = view;
	}
	diagnose_one(&vev, d);
	d->dir = main;
	if (!view)
		return;
	dir_answer(d, &d->dirs[main]);
	if (main == PS_DIR_OUT && ps_run_has_dir(ev->res, PS_DIR_IN)) {
		struct ps_diagnosis *x = xcalloc(1, sizeof(*x));

		view->dir = PS_DIR_IN;
		diagnose_one(&vev, x);
		x->dir = PS_DIR_IN;
		dir_answer(x, &d->dirs[PS_DIR_IN]);
		free(x);
	}
	both_answer(ev->res, d, &d->dirs[PS_DIR_BOTH]);
	/* the one-way direction that falls short of the other */
	{
		const struct ps_step_result *o, *i;

		view->dir = PS_DIR_OUT;
		o = ps_run_has_dir(view, PS_DIR_OUT) ? ps_run_best(view) : NULL;
		view->dir = PS_DIR_IN;
		i = ps_run_best(view);
		if (o && i && ps_step_differs(o, i)) {
			if (o->bps < i->bps)
				d->dirs[PS_DIR_OUT].slower = true;
			else
				d->dirs[PS_DIR_IN].slower = true;
		}
	}
	free(view);
}

const struct ps_outcome *ps_diagnosis_ranked(const struct ps_diagnosis *d,
					     size_t i)
{
	return i < d->nrank ? &d->out[d->rank[i]] : NULL;
}
