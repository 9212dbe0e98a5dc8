/* check-tenants.c: other work on this host during the tests: how much of
 * the cores it took beside the test, and which processes did it (the
 * step's busiest processes, from the procs probe's first and last reading
 * of the test) */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "nls.h"
#include "sanitize.h"

enum { R_OTHER_WORK, R_NAMED, R_SATURATED_OTHER, R_TEST_MIN };
static const struct ps_rule rules[] = {
	[R_OTHER_WORK] = {
		.name = "host_other_work",
		.value = 30,
		.unit = "%",
		.why = N_("other work keeping the cores this busy during the "
			  "tests makes the rates lower and noisier"),
	},
	[R_NAMED] = {
		.name = "other_process_named",
		.value = 5,
		.unit = "%",
		.why = N_("a process beside the test that used at least this "
			  "much of one core over a test is named as other "
			  "work"),
	},
	[R_SATURATED_OTHER] = {
		.name = "cpu_other_work_saturated",
		.value = 30,
		.unit = "%",
		.why = N_("with every core saturated, other work taking at "
			  "least this share of all cores is the CPU limit's "
			  "cause, said first (cpu_all_saturated defers to it)"),
	},
	[R_TEST_MIN] = {
		.name = "cpu_other_work_test_min",
		.value = 25,
		.unit = "%",
		.why = N_("other work is the cause of saturated cores only when "
			  "the test itself used at least this share of all "
			  "cores: a test that used less was not short of CPU "
			  "(something else bounds it, whatever the load beside "
			  "it)"),
	},
};
PS_RULE_FAMILY(tenants, rules);

/* "stress (pid 4242) 98% of a core, ..." of the step's busiest */
static void name_them(const struct ps_step_result *s, char *buf, size_t len)
{
	buf[0] = 0;
	for (int i = 0; i < s->nbusy && i < PS_STEP_MAX_PROCS &&
			s->busy[i].pct >= rules[R_NAMED].value;
	     i++)
		ps_appendf(buf, len, _("%s%s (pid %d) %.0f%% of a core"),
			   i ? ", " : "", ps_safe(s->busy[i].comm),
			   s->busy[i].pid, s->busy[i].pct);
}

static void busy_facts(struct ps_finding *f, const struct ps_step_result *s)
{
	double sum = 0;

	for (int i = 0; i < s->nbusy; i++)
		sum += s->busy[i].pct;
	ps_fact(f, "busy_processes", s->nbusy, "count");
	ps_fact(f, "busy_processes_cpu", sum, "%");
	if (s->nbusy > 0)
		ps_fact(f, "busiest_process_cpu", s->busy[0].pct, "%");
}

/* every core of the step at least saturated-busy */
static bool all_cores_saturated(const struct ps_step_result *s)
{
	int n;
	double min = ps_step_least_busy(s, &n);

	return n >= 1 && min >= PS_CHECK_RULE(CORE_SATURATED)->value;
}

static bool other_work_saturates(const struct ps_evidence *ev,
				 const struct ps_step_result *s)
{
	double own;

	if (!s->have_cpu || !s->cpu.all.pct_valid || s->cpu.ncores <= 0 ||
	    !all_cores_saturated(s))
		return false;
	/* the test pinned to fewer cores (taskset, -A) could not use the
	 * others: work there takes nothing from it (cpu_core_saturated) */
	if (ev->res && ev->res->affinity_ncpus > 0 &&
	    ev->res->affinity_ncpus < s->cpu.ncores)
		return false;
	own = ps_step_test_share(ev, s);
	return own >= rules[R_TEST_MIN].value &&
	       s->cpu.all.busy_pct - own >= rules[R_SATURATED_OTHER].value;
}

/* the fastest step whose cores were all saturated while other work still
 * had a share of them (at least a named process's): what the cores other
 * work left carried at best. Other tenants' share falls as the test adds
 * threads (the scheduler shares by thread), so the step where it passed
 * the threshold need not be the fastest the shared cores carried */
static const struct ps_step_result *
shared_cores_best(const struct ps_evidence *ev, const struct ps_step_result *s)
{
	const struct ps_step_result *best = s;

	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *x = &ev->res->steps[i];
		double own;

		if (!ps_step_counts(ev->res, x) || x->bps <= best->bps ||
		    !x->have_cpu || !x->cpu.all.pct_valid ||
		    x->cpu.ncores <= 0 || !all_cores_saturated(x))
			continue;
		own = ps_step_test_share(ev, x);
		if (own >= rules[R_TEST_MIN].value &&
		    x->cpu.all.busy_pct - own >= rules[R_NAMED].value)
			best = x;
	}
	return best;
}

const struct ps_step_result *ps_run_other_work(const struct ps_evidence *ev)
{
	const struct ps_step_result *best = NULL;

	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *x = &ev->res->steps[i];

		if (ps_step_counts(ev->res, x) &&
		    x->bps >= PS_CHECK_RULE(NOTHING_MOVED)->value &&
		    other_work_saturates(ev, x) &&
		    (!best || x->bps > best->bps))
			best = x;
	}
	return best;
}

static enum ps_check_state eval_host_busy(const struct ps_evidence *ev,
					  struct ps_finding *f)
{
	const struct ps_step_result *hit = NULL, *sat = ps_run_other_work(ev);
	double worst = -1, busy = 0, own = 0;
	char who[400];
	int n = 0;

	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *s = &ev->res->steps[i];
		double o, ownshare;

		if (s->state != PS_STEP_DONE || !s->have_cpu ||
		    !s->cpu.all.pct_valid || s->cpu.ncores <= 0)
			continue;
		n++;
		/* the test's processes and packet work as a share of all
		 * cores: what is left is other tenants' */
		ownshare = ps_step_test_share(ev, s);
		o = s->cpu.all.busy_pct - ownshare;
		if (o > worst) {
			worst = o;
			busy = s->cpu.all.busy_pct;
			own = ownshare;
			hit = s;
		}
	}
	if (!n) {
		PS_SET(f->evidence, "%s", _("no CPU readings of a test"));
		return PS_CHECK_NA;
	}
	/* the fastest test whose saturated cores other work shared speaks
	 * for the run (cpu_all_saturated defers to it) */
	if (sat) {
		hit = sat;
		busy = sat->cpu.all.busy_pct;
		own = ps_step_test_share(ev, sat);
		worst = busy - own;
	}
	ps_fact(f, "cores", hit->cpu.ncores, "count");
	ps_fact(f, "busy", busy, "%");
	ps_fact(f, "test_share", own, "%");
	ps_fact(f, "other_work", worst, "%");
	PS_SET(f->evidence,
	       _("during the busiest test the %d cores were %.0f%% busy, the "
		 "test's processes and its packets' softirq time account for "
		 "about %.0f%%"),
	       hit->cpu.ncores, busy, own);
	name_them(hit, who, sizeof(who));
	if (hit->have_busy)
		busy_facts(f, hit);
	if (sat) {
		/* the cores were the limit and other work took its share of
		 * them: that work is the cause. The test's own CPU cost per
		 * bit times the cores it could have had is what the CPU would
		 * allow it alone */
		char rate[32], alone[32], most[32];
		double a = own > 0 ? hit->bps * busy / own : 0;
		const struct ps_step_result *top = shared_cores_best(ev, hit);
		bool far;

		ps_fmt_bps(rate, sizeof(rate), hit->bps);
		ps_fmt_bps(alone, sizeof(alone), a);
		f->severity = PS_SEV_BOTTLENECK;
		ps_crossed(f, PS_CHECK_RULE(CORE_SATURATED));
		ps_crossed(f, &rules[R_SATURATED_OTHER]);
		f->scope = PS_SCOPE_SHARED;
		f->ceiling_bps = top->bps;
		f->ceiling_measured = true;
		ps_fact(f, "rate", hit->bps, "bit/s");
		ps_fact(f, "shared_cores_best", top->bps, "bit/s");
		ps_fact(f, "rate_alone", a, "bit/s");
		PS_SET(f->ceiling_what,
		       _("what the cores other work left carried"));
		PS_SET(f->title,
		       _("Other work took %.0f%% of the saturated cores: the "
			 "test had %.0f%% and moved %s"),
		       worst, own, rate);
		PS_APPEND(f->evidence,
			  _("; every core was saturated during the %d-stream "
			    "test"),
			  hit->streams);
		if (top != hit) {
			double o = ps_step_test_share(ev, top);

			ps_fmt_bps(most, sizeof(most), top->bps);
			PS_APPEND(f->evidence,
				  _("; with %d streams the cores were still "
				    "saturated and other work still had %.0f%% "
				    "of them: they carried %s"),
				  top->streams, top->cpu.all.busy_pct - o,
				  most);
		}
		if (who[0])
			PS_APPEND(f->evidence,
				  _("; the busiest other processes: %s"), who);
		if (a > 0)
			PS_APPEND(
				f->evidence,
				_("; at its own CPU cost per bit, the test "
				  "alone on these cores would reach about %s"),
				alone);
		/* where the far end may run decides which cores saturate:
		 * told whichever cause leads */
		far = ps_ev_far_placement(ev, f);
		if (who[0])
			PS_SET(f->remedy,
			       _("stop or move the other work (%s), or pin the "
				 "test to cores it leaves idle (-A), then run "
				 "the check again"),
			       who);
		else
			PS_SET(f->remedy, "%s",
			       _("find and stop the other work (top -o %CPU), "
				 "or pin the test to cores it leaves idle "
				 "(-A), "
				 "then run the check again"));
		if (far)
			ps_far_placement_remedy(f);
		return PS_CHECK_FIRED;
	}
	if (worst < rules[R_OTHER_WORK].value)
		return PS_CHECK_CLEAR;
	f->severity = PS_SEV_WARNING;
	ps_crossed(f, &rules[R_OTHER_WORK]);
	PS_SET(f->title,
	       _("Other work kept the CPUs %.0f%% busy during the tests"),
	       worst);
	if (who[0])
		PS_APPEND(f->evidence, _("; the busiest other processes: %s"),
			  who);
	PS_APPEND(f->evidence, "%s",
		  _("; the test's own softirq and interrupt time is not "
		    "counted as other work; rates measured beside other load "
		    "are lower and noisier than the host can do"));
	if (who[0])
		PS_SET(f->remedy,
		       _("stop or move the other work (%s), or pin the test "
			 "to idle cores (-A), then run the check again"),
		       who);
	else
		PS_SET(f->remedy, "%s",
		       _("run the check again when the host is quiet (top -o "
			 "%CPU shows who is busy), or pin the test to idle "
			 "cores (-A)"));
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_host_busy = {
	.id = "host_busy",
	.family = "tool",
	.title = N_("other work on the host during the tests"),
	/* a cause of saturated cores, above the CPU checks it explains */
	.weight = 63,
	.needs_test = true,
	.eval = eval_host_busy,
};
