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

enum { R_OTHER_WORK, R_NAMED };
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

static enum ps_check_state eval_host_busy(const struct ps_evidence *ev,
					  struct ps_finding *f)
{
	const struct ps_step_result *hit = NULL;
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
	.weight = 10,
	.needs_test = true,
	.eval = eval_host_busy,
};
