/* check-cpu.c: the CPU checks of "pipescope check": one core saturated by
 * softirq or by the test's own thread while others idle, "more streams made
 * it worse", and the test tool itself (an iperf3 older than 3.16) */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceiling.h"
#include "check.h"
#include "nls.h"

/* the thresholds of the CPU checks ("pipescope check --rules") */
enum {
	R_OTHERS_MARGIN,
	R_ATTRIBUTED,
	R_IRQ_ATTRIBUTED,
	R_PINNED_SHARE,
	R_ALL_TEST_SHARE,
	R_RECEIVE_WORK,
	R_WORSE,
	R_NEAR,
};
static const struct ps_rule rules[] = {
	[R_OTHERS_MARGIN] = {
		.name = "cpu_others_margin",
		.value = 30,
		.unit = "%",
		.why = N_("a saturated core counts alone when the other cores "
			  "average at least this much less busy"),
	},
	[R_ATTRIBUTED] = {
		.name = "cpu_process_attributed",
		.value = 50,
		.unit = "%",
		.why = N_("the test's process using this much of a core makes "
			  "a saturated core the test's"),
	},
	[R_IRQ_ATTRIBUTED] = {
		.name = "cpu_softirq_attributed",
		.value = 30,
		.unit = "%",
		.why = N_("or the saturated core's softirq and interrupt time "
			  "reaching this makes it the test's"),
	},
	[R_PINNED_SHARE] = {
		.name = "cpu_pinned_share",
		.value = 20,
		.unit = "%",
		.why = N_("several streams on one core while both ends' "
			  "processes use this much CPU: the test is pinned "
			  "there"),
	},
	[R_ALL_TEST_SHARE] = {
		.name = "cpu_all_test_share",
		.value = 0.5,
		.unit = "ratio",
		.why = N_("every core saturated counts when the test accounts "
			  "for at least this part of the host's busy time"),
	},
	[R_RECEIVE_WORK] = {
		.name = "cpu_receive_work_share",
		.value = 0.5,
		.unit = "ratio",
		.why = N_("a saturated core whose softirq and interrupt time "
			  "is this part of its busy time is told to spread the "
			  "receive work"),
	},
	[R_WORSE] = {
		.name = "more_streams_worse",
		.value = 0.85,
		.unit = "ratio",
		.why = N_("a step with more streams below this part of an "
			  "earlier step's rate: more streams made it worse"),
	},
	[R_NEAR] = {
		.name = "cpu_saturated_resolution",
		.value = 3,
		.unit = "%",
		.why = N_("once every core was saturated in one step (of "
			  "either direction), a faster step whose least busy "
			  "core came within this many points of saturation "
			  "sets the saturated cores' ceiling (a core's busy "
			  "time over a 1 s step is read in 1% ticks, and the "
			  "scheduler's idle moments vary by as much)"),
	},
};
PS_RULE_FAMILY(cpu, rules);

#define SATURATED PS_CHECK_RULE(CORE_SATURATED)
#define NOTHING_BPS PS_CHECK_RULE(NOTHING_MOVED)->value

/* a step whose CPU readings can speak: it counts and it moved data */
static bool cpu_step(const struct ps_run *r, const struct ps_step_result *s)
{
	return ps_step_counts(r, s) && s->bps >= NOTHING_BPS;
}

/*
 * The CPU of the test's processes on this host's cores, in % of one core:
 * this end's, and the far end's when it runs here as a process of its own
 * (another namespace). The self-test's server is this process: its
 * figure is the same process measured again, never added.
 */
static double procs_here(const struct ps_evidence *ev,
			 const struct ps_step_result *s)
{
	double own = s->cpu_local > 0 ? s->cpu_local : 0;

	if (ev->res && !ev->res->loopback && ps_ev_peer_same_host(ev) &&
	    s->cpu_remote > 0)
		own += s->cpu_remote;
	return own;
}

/* "; this end's process used 80% CPU, the far end's 75%", or the one
 * process of the self-test */
static void procs_text(struct ps_finding *f, const struct ps_evidence *ev,
		       const struct ps_step_result *s)
{
	if (ev->res && ev->res->loopback)
		PS_APPEND(f->evidence,
			  _("; the test's one process (both ends: the "
			    "self-test) used %.0f%% CPU"),
			  s->cpu_local);
	else
		PS_APPEND(f->evidence,
			  _("; this end's process used %.0f%% CPU, the far "
			    "end's %.0f%%"),
			  s->cpu_local, s->cpu_remote);
}

/*
 * The test's share of all cores during a step, in % of all of them: its
 * processes (the far end's too when it runs on this machine) and the
 * packet work of softirq and hard interrupt time, which is the test's
 * while it moves data. What is left is other tenants' work.
 */
double ps_step_test_share(const struct ps_evidence *ev,
			  const struct ps_step_result *s)
{
	double own = procs_here(ev, s);

	if (!s->have_cpu || s->cpu.ncores <= 0)
		return 0;
	own /= s->cpu.ncores;
	if (s->bps >= NOTHING_BPS)
		own += s->cpu.all.pct[PS_CPU_SOFTIRQ] +
		       s->cpu.all.pct[PS_CPU_IRQ];
	return own > s->cpu.all.busy_pct ? s->cpu.all.busy_pct : own;
}

bool ps_cpu_saturated(const struct ps_cpu_info *cpu)
{
	const struct ps_cpu_core *c;

	if (cpu->status != PS_ST_OK || cpu->busiest < 0 ||
	    cpu->busiest >= cpu->ncores)
		return false;
	c = &cpu->cores[cpu->busiest];
	return c->pct_valid && c->busy_pct >= SATURATED->value;
}

static bool all_on_one(const struct ps_step_result *s, int cpu)
{
	if (!s->nthread_cpu)
		return false;
	for (int i = 0; i < s->nthread_cpu; i++)
		if (s->thread_cpu[i] != cpu)
			return false;
	for (int i = 0; i < s->nrx_cpu; i++)
		if (s->rx_cpu[i] != cpu)
			return false;
	return true;
}

static bool in(const int *v, int n, int cpu)
{
	for (int i = 0; i < n; i++)
		if (v[i] == cpu)
			return true;
	return false;
}

/* the test itself (its processes and its packets' softirq time) is most
 * of a step's busy time, not a bystander */
static bool test_is_most(const struct ps_evidence *ev,
			 const struct ps_step_result *s)
{
	return ps_step_test_share(ev, s) >=
	       rules[R_ALL_TEST_SHARE].value * s->cpu.all.busy_pct;
}

/* a test of another direction that read these same cores all saturated,
 * its least busy core in *min: the readings here reach saturation */
static const struct ps_step_result *
saturated_elsewhere(const struct ps_evidence *ev, double *min)
{
	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *s = &ev->res->steps[i];
		int n;

		if (s->state != PS_STEP_DONE || ps_step_in_dir(ev->res, s) ||
		    s->bps < NOTHING_BPS || !s->have_cpu || s->cpu.ncores < 2)
			continue;
		*min = ps_step_least_busy(s, &n);
		if (n >= 2 && *min >= SATURATED->value && test_is_most(ev, s))
			return s;
	}
	return NULL;
}

/* every core busy during a step: the host's CPU is the limit */
static enum ps_check_state all_saturated(const struct ps_evidence *ev,
					 struct ps_finding *f)
{
	const struct ps_step_result *hit = NULL, *near = NULL, *other = NULL;
	double low = 0, sat_best = 0, near_min = 0, other_min = 0;
	char rate[32];

	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *s = &ev->res->steps[i];
		double min;
		int n;

		if (!cpu_step(ev->res, s) || !s->have_cpu || s->cpu.ncores < 2)
			continue;
		min = ps_step_least_busy(s, &n);
		if (n >= 2 && min >= SATURATED->value && s->bps > sat_best)
			sat_best = s->bps;
		if (n >= 2 && min >= SATURATED->value - rules[R_NEAR].value &&
		    (!near || s->bps > near->bps)) {
			near = s;
			near_min = min;
		}
		if (n < 2 || min < SATURATED->value || !test_is_most(ev, s))
			continue;
		if (!hit || s->bps > hit->bps) {
			hit = s;
			low = min;
		}
	}
	/* no test of this direction read every core saturated, but one of
	 * the other direction did on the same cores: this direction's
	 * fastest within the readings' resolution of it is saturated too */
	if (!hit && near && test_is_most(ev, near) &&
	    (other = saturated_elsewhere(ev, &other_min))) {
		hit = near;
		low = near_min;
	}
	if (!hit)
		return PS_CHECK_CLEAR;
	/* other work took its share of the saturated cores: host_busy's */
	if (ps_run_other_work(ev)) {
		PS_SET(f->evidence, "%s",
		       _("every core was saturated, with other work taking its "
			 "share of them: host_busy says which"));
		return PS_CHECK_CLEAR;
	}
	ps_fmt_bps(rate, sizeof(rate), hit->bps);
	f->id = "cpu_all_saturated";
	f->severity = PS_SEV_BOTTLENECK;
	ps_crossed(f, SATURATED);
	ps_crossed(f, &rules[R_ALL_TEST_SHARE]);
	f->scope = PS_SCOPE_SHARED;
	/* the most the saturated cores carried, or a faster step's whose
	 * cores were within the readings' resolution of saturated */
	f->ceiling_bps = sat_best > hit->bps ? sat_best : hit->bps;
	if (near && near->bps > f->ceiling_bps)
		f->ceiling_bps = near->bps;
	else
		near = NULL;
	f->ceiling_measured = true;
	if (near)
		ps_crossed(f, &rules[R_NEAR]);
	ps_fact(f, "cores", hit->cpu.ncores, "count");
	ps_fact(f, "least_busy", low, "%");
	ps_fact(f, "streams", hit->streams, "count");
	ps_fact(f, "rate", hit->bps, "bit/s");
	ps_fact(f, "cpu_local", hit->cpu_local, "%");
	if (!ev->res || !ev->res->loopback)
		ps_fact(f, "cpu_remote", hit->cpu_remote, "%");
	PS_SET(f->ceiling_what, _("all %d cores saturated"), hit->cpu.ncores);
	PS_SET(f->title,
	       _("Every core saturated: %d cores at least %.0f%% busy at %s"),
	       hit->cpu.ncores, low, rate);
	PS_SET(f->evidence,
	       _("during the %d-stream test at %s every one of the %d cores "
		 "was at least %.0f%% busy (all cores: softirq %.0f%%, system "
		 "%.0f%%, user %.0f%%)"),
	       hit->streams, rate, hit->cpu.ncores, low,
	       hit->cpu.all.pct[PS_CPU_SOFTIRQ],
	       hit->cpu.all.pct[PS_CPU_SYSTEM], hit->cpu.all.pct[PS_CPU_USER]);
	procs_text(f, ev, hit);
	ps_fact(f, "test_share", ps_step_test_share(ev, hit), "%");
	PS_APPEND(f->evidence,
		  _("; the test's processes and its packets' softirq time "
		    "account for %.0f%% of all cores"),
		  ps_step_test_share(ev, hit));
	if (other) {
		ps_fact(f, "other_direction_least_busy", other_min, "%");
		PS_APPEND(f->evidence,
			  _("; no test this way read every core at %.0f%%, "
			    "but the %d-stream test the other way did on these "
			    "cores (at least %.0f%%), and this one came within "
			    "%.0f points of it"),
			  SATURATED->value, other->streams, other_min,
			  rules[R_NEAR].value);
		ps_crossed(f, &rules[R_NEAR]);
	}
	if (near) {
		ps_fmt_bps(rate, sizeof(rate), near->bps);
		ps_fact(f, "near_rate", near->bps, "bit/s");
		ps_fact(f, "near_least_busy", near_min, "%");
		PS_APPEND(f->evidence,
			  _("; the %d-stream test moved %s with its least busy "
			    "core at %.0f%%, within %.0f points of saturated: "
			    "that is the ceiling"),
			  near->streams, rate, near_min, rules[R_NEAR].value);
	}
	if (ev->res && ev->res->loopback)
		PS_APPEND(f->evidence, "%s",
			  _("; over loopback both ends share these cores"));
	PS_SET(f->remedy, "%s",
	       _("the host's CPU is the limit: fewer copies (-Z zero copy), "
		 "a larger MTU where the path allows it, or test between two "
		 "hosts so each end has its own cores"));
	if (ps_ev_far_placement(ev, f))
		ps_far_placement_remedy(f);
	return PS_CHECK_FIRED;
}

/*
 * All of a step's work on one core, and proof that it is the test's: the
 * process may run on that core only (taskset), or several streams ended up
 * there while the test's processes kept a fair share of a core busy (on a
 * host busy with other work the scheduler may stack idle threads anywhere).
 */
static bool pinned_to(const struct ps_evidence *ev,
		      const struct ps_step_result *s, int cpu)
{
	const struct ps_run *r = ev->res;

	if (!all_on_one(s, cpu))
		return false;
	if (r->affinity_ncpus == 1 && r->affinity_first == cpu)
		return true;
	return s->streams > 1 &&
	       procs_here(ev, s) >= rules[R_PINNED_SHARE].value;
}

static enum ps_check_state eval_cpu_core(const struct ps_evidence *ev,
					 struct ps_finding *f)
{
	const struct ps_step_result *hit = NULL;
	const struct ps_cpu_core *core = NULL;
	double others = 0, top_busy = 0;
	bool pinned = false, told;
	int nwith = 0;
	char rate[32];

	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *s = &ev->res->steps[i];
		double oth, busy;
		bool one;
		int k;

		if (!cpu_step(ev->res, s))
			continue;
		k = ps_step_test_core(s, &oth);
		if (k < 0)
			continue;
		nwith++;
		busy = s->cpu.cores[k].busy_pct;
		one = s->cpu.ncores > 1 && pinned_to(ev, s, s->cpu.cores[k].id);
		/* the test's threads crowded onto one core while other work
		 * saturated the rest, the process free to run anywhere: that
		 * work is the cause, host_busy's finding */
		if (one && ev->res->affinity_ncpus != 1 && !isnan(oth) &&
		    oth > busy - rules[R_OTHERS_MARGIN].value &&
		    ps_run_other_work(ev))
			one = false;
		if (busy > top_busy)
			top_busy = busy;
		if (busy < SATURATED->value)
			continue;
		if (!(s->cpu.ncores == 1 || isnan(oth) ||
		      oth <= busy - rules[R_OTHERS_MARGIN].value || one))
			continue;
		/* pinned work can only be the test's; otherwise the test's
		 * process or its softirqs must account for the core */
		if (!one && s->cpu_local < rules[R_ATTRIBUTED].value &&
		    s->cpu.cores[k].pct[PS_CPU_SOFTIRQ] +
				    s->cpu.cores[k].pct[PS_CPU_IRQ] <
			    rules[R_IRQ_ATTRIBUTED].value)
			continue;
		/* keep the most telling step: pinned first, then the fastest */
		if (!hit || (one && !pinned) ||
		    (one == pinned && s->bps > hit->bps)) {
			hit = s;
			core = &s->cpu.cores[k];
			others = oth;
			pinned = one;
		}
	}
	if (!nwith) {
		PS_SET(f->evidence, "%s",
		       _("no per-core CPU readings of a test"));
		return PS_CHECK_NA;
	}
	if (!hit) {
		if (all_saturated(ev, f) == PS_CHECK_FIRED)
			return PS_CHECK_FIRED;
		PS_SET(f->evidence,
		       _("the busiest core the test used was %.0f%% busy "
			 "(saturated means %.0f%% with the others idle)"),
		       top_busy, SATURATED->value);
		return PS_CHECK_CLEAR;
	}
	ps_fmt_bps(rate, sizeof(rate), hit->bps);
	f->severity = PS_SEV_BOTTLENECK;
	ps_crossed(f, SATURATED);
	if (pinned)
		ps_crossed(f, &rules[R_PINNED_SHARE]);
	else if (!isnan(others) && hit->cpu.ncores > 1)
		ps_crossed(f, &rules[R_OTHERS_MARGIN]);
	f->ceiling_bps = hit->bps;
	f->ceiling_measured = true;
	f->scope = pinned ? PS_SCOPE_SHARED : PS_SCOPE_FLOW;
	if (!pinned)
		f->ceiling_bps = hit->bps / hit->streams;
	/* pinned: the most any test got out of that one core */
	for (int i = 0; pinned && i < ev->res->nsteps; i++) {
		const struct ps_step_result *s = &ev->res->steps[i];

		if (ps_step_counts(ev->res, s) && s->bps > f->ceiling_bps &&
		    all_on_one(s, core->id))
			f->ceiling_bps = s->bps;
	}
	PS_SET(f->ceiling_what, _("cpu%d saturated"), core->id);
	PS_SET(f->title,
	       P_("One core saturated: cpu%d %.0f%% busy at %s (%d stream)",
		  "One core saturated: cpu%d %.0f%% busy at %s (%d streams)",
		  hit->streams),
	       core->id, core->busy_pct, rate, hit->streams);
	ps_fact(f, "core", core->id, "cpu");
	ps_fact(f, "core_busy", core->busy_pct, "%");
	ps_fact(f, "core_softirq", core->pct[PS_CPU_SOFTIRQ], "%");
	ps_fact(f, "core_irq", core->pct[PS_CPU_IRQ], "%");
	ps_fact(f, "core_system", core->pct[PS_CPU_SYSTEM], "%");
	ps_fact(f, "core_user", core->pct[PS_CPU_USER], "%");
	ps_fact(f, "streams", hit->streams, "count");
	ps_fact(f, "rate", hit->bps, "bit/s");
	if (!isnan(others) && hit->cpu.ncores > 1)
		ps_fact(f, "other_cores_busy", others, "%");
	PS_SET(f->evidence,
	       _("cpu%d was %.0f%% busy (softirq %.0f%%, irq %.0f%%, system "
		 "%.0f%%, user %.0f%%) during the %d-stream test at %s"),
	       core->id, core->busy_pct, core->pct[PS_CPU_SOFTIRQ],
	       core->pct[PS_CPU_IRQ], core->pct[PS_CPU_SYSTEM],
	       core->pct[PS_CPU_USER], hit->streams, rate);
	if (!isnan(others) && hit->cpu.ncores > 1)
		PS_APPEND(f->evidence,
			  _("; the other %d cores averaged %.0f%%"),
			  hit->cpu.ncores - 1, others);
	if (in(hit->thread_cpu, hit->nthread_cpu, core->id))
		PS_APPEND(f->evidence, "%s",
			  _("; a stream thread of the test ran there"));
	if (in(hit->rx_cpu, hit->nrx_cpu, core->id))
		PS_APPEND(f->evidence, "%s",
			  _("; its packets' softirq ran there"));
	told = ps_ev_far_placement(ev, f);
	if (pinned) {
		PS_APPEND(f->evidence,
			  _("; all %d stream threads and their softirqs ran on "
			    "this one core"),
			  hit->streams);
		if (ev->res->affinity_ncpus == 1)
			PS_APPEND(f->evidence,
				  _("; this process may only run on cpu%d"),
				  ev->res->affinity_first);
		PS_SET(f->remedy, "%s",
		       _("let the work spread: drop the CPU pinning "
			 "(taskset/-A), steer RPS to other cores (echo MASK > "
			 "/sys/class/net/IF/queues/rx-0/rps_cpus), use more "
			 "RSS queues (ethtool -L IF combined N)"));
	} else if (core->pct[PS_CPU_SOFTIRQ] + core->pct[PS_CPU_IRQ] >=
		   rules[R_RECEIVE_WORK].value * core->busy_pct) {
		PS_SET(f->remedy,
		       _("spread the receive work: more queues (ethtool -L %s "
			 "combined N), interrupts over several cores "
			 "(/proc/irq/N/smp_affinity_list), RPS for a single "
			 "queue; then more streams (-P)"),
		       ps_ev_ifname(ev)[0] ? ps_ev_ifname(ev) : "IF");
	} else {
		PS_SET(f->remedy, "%s",
		       _("the test's thread is CPU bound: use more streams (-P "
			 "4), zero copy (-Z), a larger MTU where the path "
			 "allows it, or a faster core"));
	}
	if (told)
		ps_far_placement_remedy(f);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_cpu_core = {
	.id = "cpu_core_saturated",
	.family = "cpu",
	.title = N_("one saturated core"),
	.weight = 60,
	.needs_test = true,
	.eval = eval_cpu_core,
};

/* ---- more streams made it worse -------------------------------------- */

static enum ps_check_state eval_worse(const struct ps_evidence *ev,
				      struct ps_finding *f)
{
	const struct ps_step_result *sw[24];
	size_t n = ps_run_sweep(ev->res, sw, 24);
	const struct ps_step_result *peak = NULL, *low = NULL;
	char a[32], b[32];

	if (n < 2) {
		PS_SET(f->evidence, "%s", _("no stream sweep"));
		return PS_CHECK_NA;
	}
	for (size_t i = 0; i < n; i++) {
		if (!peak || sw[i]->bps > peak->bps)
			peak = sw[i];
		else if (sw[i]->streams > peak->streams &&
			 sw[i]->bps < rules[R_WORSE].value * peak->bps &&
			 ps_step_differs(sw[i], peak) &&
			 (!low || sw[i]->bps < low->bps))
			low = sw[i];
	}
	if (!low) {
		PS_SET(f->evidence,
		       _("no step with more streams fell more than %.0f%% "
			 "below an earlier one, beyond the spread of the "
			 "runs"),
		       100 * (1 - rules[R_WORSE].value));
		return PS_CHECK_CLEAR;
	}
	ps_fact(f, "peak_rate", peak->bps, "bit/s");
	ps_fact(f, "peak_streams", peak->streams, "count");
	ps_fact(f, "low_rate", low->bps, "bit/s");
	ps_fact(f, "low_streams", low->streams, "count");
	ps_fmt_bps(a, sizeof(a), peak->bps);
	ps_fmt_bps(b, sizeof(b), low->bps);
	f->severity = PS_SEV_WARNING;
	ps_crossed(f, &rules[R_WORSE]);
	PS_SET(f->title,
	       _("More streams made it worse: %s with %d, %s with %d"), a,
	       peak->streams, b, low->streams);
	PS_SET(f->evidence,
	       _("the sum fell from %s (%d streams) to %s (%d streams), %.0f%% "
		 "less: the endpoints' CPUs are contended (threads, softirqs "
		 "and interrupts fight for the same cores)"),
	       a, peak->streams, b, low->streams,
	       100 * (1 - low->bps / peak->bps));
	if (low->have_cpu)
		PS_APPEND(f->evidence, _("; all cores averaged %.0f%% busy"),
			  low->cpu.all.busy_pct);
	PS_SET(f->remedy,
	       _("use %d streams; spread interrupts and threads over separate "
		 "cores (-A, smp_affinity_list)"),
	       peak->streams);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_worse = {
	.id = "more_streams_worse",
	.family = "cpu",
	.title = N_("more streams made it worse"),
	.weight = 50,
	.needs_test = true,
	.eval = eval_worse,
};

/* ---- the test tool itself -------------------------------------------- */

static bool version_before(const char *v, int major, int minor)
{
	int a = 0, b = 0;

	/* "<=3.13": what its results told of it (iperf3's unsigned -1) */
	if (!strncmp(v, "<=", 2))
		v += 2;
	if (sscanf(v, "%d.%d", &a, &b) < 1)
		return false;
	return a < major || (a == major && b < minor);
}

/* the most streams one test of the run moved at once (both directions
 * of a bidir test: one thread of an old iperf3 serves them all) */
static int most_streams(const struct ps_run *r)
{
	int most = 0;

	for (int i = 0; i < r->nsteps; i++) {
		const struct ps_step_result *s = &r->steps[i];
		int n = s->streams * (s->bidir ? 2 : 1);

		if (ps_step_counts(r, s) && n > most)
			most = n;
	}
	return most;
}

static enum ps_check_state eval_peer_tool(const struct ps_evidence *ev,
					  struct ps_finding *f)
{
	const struct ps_run *r = ev->res;
	const struct ps_step_result *sw[24];
	size_t n = ps_run_sweep(r, sw, 24);
	const char *v;

	/* about the far end, whatever it finds there */
	f->far = true;
	if (!r || !r->peer_kind[0]) {
		PS_SET(f->evidence, "%s", _("the peer's kind is unknown"));
		return PS_CHECK_NA;
	}
	v = r->peer_version;
	if (strcmp(r->peer_kind, "iperf3")) {
		PS_SET(f->evidence,
		       _("the peer is %s %s, one thread per stream"),
		       r->peer_kind, v);
		return PS_CHECK_CLEAR;
	}
	if (v[0] && !version_before(v, 3, 16)) {
		PS_SET(f->evidence,
		       _("the peer is iperf3 %s: one thread per stream since "
			 "3.16"),
		       v);
		return PS_CHECK_CLEAR;
	}
	if (most_streams(r) <= 1) {
		PS_SET(f->evidence,
		       _("the peer is iperf3 %s, and every test had one "
			 "stream: one thread is all it takes"),
		       v[0] ? v : "");
		return PS_CHECK_CLEAR;
	}
	f->severity = PS_SEV_WARNING;
	PS_SET(f->title,
	       _("The far end is iperf3 %s: all streams in one thread"),
	       v[0] ? v : _("(version not told)"));
	PS_SET(f->evidence,
	       _("iperf3 before 3.16 runs all streams in one thread, so the "
		 "far end's sum is capped by one core"));
	if (!strncmp(v, "<=", 2))
		PS_APPEND(f->evidence, "%s",
			  _(" (its results wrote -1 as 18446744073709551615, "
			    "which iperf3 stopped doing in 3.14)"));
	if (n >= 2) {
		char a[32], b[32];

		ps_fact(f, "first_rate", sw[0]->bps, "bit/s");
		ps_fact(f, "first_streams", sw[0]->streams, "count");
		ps_fact(f, "last_rate", sw[n - 1]->bps, "bit/s");
		ps_fact(f, "last_streams", sw[n - 1]->streams, "count");
		ps_fmt_bps(a, sizeof(a), sw[0]->bps);
		ps_fmt_bps(b, sizeof(b), sw[n - 1]->bps);
		PS_APPEND(f->evidence,
			  P_("; %d stream: %s, %d streams: %s",
			     "; %d streams: %s, %d streams: %s",
			     sw[0]->streams),
			  sw[0]->streams, a, sw[n - 1]->streams, b);
		if (sw[n - 1]->bps <
		    PS_CHECK_RULE(FLOW_GROWTH)->value * sw[0]->bps) {
			f->severity = PS_SEV_BOTTLENECK;
			ps_crossed(f, PS_CHECK_RULE(FLOW_GROWTH));
		}
	}
	if (n && sw[n - 1]->cpu_remote > 0)
		PS_APPEND(f->evidence,
			  _("; the server's process used %.0f%% CPU"),
			  sw[n - 1]->cpu_remote);
	PS_SET(f->remedy, "%s",
	       _("run pipescope -s (or iperf3 3.16 or newer) on the far end, "
		 "or several iperf3 -s on different ports pinned to different "
		 "cores"));
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_peer_tool = {
	.id = "peer_tool",
	.family = "tool",
	.title = N_("the test tool on the far end"),
	.weight = 62,
	.needs_test = true,
	.cpu_cause = true, /* one core at the far end */
	.eval = eval_peer_tool,
};

/* ---- the far end's cores (a pipescope server that shares them) -------- */

static enum ps_check_state eval_far_cpu(const struct ps_evidence *ev,
					struct ps_finding *f)
{
	const struct ps_run *r = ev->res;
	const struct ps_step_result *hit = NULL;
	double top = -1;
	int nwith = 0;
	char rate[32];

	/* about the far end, whatever it finds there */
	f->far = true;
	if (!r || r->loopback || ps_ev_peer_same_host(ev)) {
		PS_SET(f->evidence, "%s",
		       _("the far end is this machine (loopback or another "
			 "network namespace): its cores are this host's"));
		return PS_CHECK_NA;
	}
	for (int i = 0; i < r->nsteps; i++) {
		const struct ps_step_result *s = &r->steps[i];

		if (!s->have_peer_cpu || !cpu_step(r, s))
			continue;
		nwith++;
		if (s->peer_busy > top)
			top = s->peer_busy;
		if (s->peer_busy < SATURATED->value ||
		    s->peer_busy - s->peer_others <
			    rules[R_OTHERS_MARGIN].value)
			continue;
		if (!hit || s->bps > hit->bps)
			hit = s;
	}
	if (!nwith) {
		PS_SET(f->evidence, "%s",
		       _("the far end sent no core readings (an iperf3 "
			 "server, or pipescope -s --no-share-probes)"));
		return PS_CHECK_NA;
	}
	ps_fact(f, "far_busiest", top, "%");
	if (!hit) {
		PS_SET(f->evidence,
		       _("the far end's busiest core was %.0f%% busy "
			 "(saturated means %.0f%% with the others idle)"),
		       top, SATURATED->value);
		return PS_CHECK_CLEAR;
	}
	ps_fmt_bps(rate, sizeof(rate), hit->bps);
	f->severity = PS_SEV_BOTTLENECK;
	ps_crossed(f, SATURATED);
	ps_crossed(f, &rules[R_OTHERS_MARGIN]);
	f->scope = PS_SCOPE_FLOW;
	f->ceiling_bps = hit->bps / (hit->streams > 0 ? hit->streams : 1);
	f->ceiling_measured = true;
	ps_fact(f, "far_core", hit->peer_core, "cpu");
	ps_fact(f, "far_core_busy", hit->peer_busy, "%");
	ps_fact(f, "far_core_softirq", hit->peer_softirq, "%");
	ps_fact(f, "far_core_irq", hit->peer_irq, "%");
	ps_fact(f, "far_other_cores", hit->peer_others, "%");
	ps_fact(f, "streams", hit->streams, "count");
	ps_fact(f, "rate", hit->bps, "bit/s");
	PS_SET(f->ceiling_what, _("far end's cpu%d saturated"), hit->peer_core);
	PS_SET(f->title,
	       _("A core of the far end saturated: cpu%d %.0f%% busy at %s"),
	       hit->peer_core, hit->peer_busy, rate);
	PS_SET(f->evidence,
	       _("on the far end cpu%d was %.0f%% busy on average (softirq "
		 "%.0f%%, irq %.0f%%, system %.0f%%, user %.0f%%) during the "
		 "%d-stream test at %s; its other %d cores averaged %.0f%%"),
	       hit->peer_core, hit->peer_busy, hit->peer_softirq, hit->peer_irq,
	       hit->peer_system, hit->peer_user, hit->streams, rate,
	       hit->peer_ncores - 1, hit->peer_others);
	if (hit->peer_softirq + hit->peer_irq >=
	    rules[R_RECEIVE_WORK].value * hit->peer_busy) {
		const char *pif = ev->peer && ev->peer->hdr.iface.name[0]
					  ? ev->peer->hdr.iface.name
					  : "IF";

		PS_SET(f->remedy,
		       _("on the far end, spread the receive work: more queues "
			 "(ethtool -L %s combined N), interrupts over several "
			 "cores (/proc/irq/N/smp_affinity_list), RPS for a "
			 "single queue"),
		       pif);
	} else {
		PS_SET(f->remedy, "%s",
		       _("the far end's test thread is CPU bound: more streams "
			 "(-P 4), a larger MTU where the path allows it, or a "
			 "faster core there"));
	}
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_far_cpu = {
	.id = "far_end_cpu_saturated",
	.family = "cpu",
	.title = N_("one saturated core on the far end"),
	/* below this host's own: with equal evidence, look here first */
	.weight = 59,
	.needs_test = true,
	.eval = eval_far_cpu,
};
