/* check-nic.c: the NIC checks of "pipescope check": RSS queues, where the
 * queue interrupts land, irqbalance, RPS, offloads, interrupt coalescing,
 * ring sizes with drops, and the kernel backlog (softnet drops, squeezes) */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "nls.h"

/* the thresholds of the NIC checks ("pipescope check --rules") */
enum {
	R_CORE_BUSY,
	R_IRQ_ONE_CPU,
	R_COALESCE_EXTREME,
	R_QUEUE_USED,
	R_RSS_HOT_SHARE,
	R_RSS_HOT_STREAMS,
	R_RSS_EVEN_SPLIT,
	R_RSS_HOT_IRQ,
};
static const struct ps_rule rules[] = {
	/* not core_saturated: a core this busy is not the limit yet, but
	 * work moved off it (RPS) or saved per packet (offloads) is won */
	[R_CORE_BUSY] = {
		.name = "core_busy",
		.value = 80,
		.unit = "%",
		.why = N_("a test's core at least this busy gains from RPS and "
			  "from offloads: their findings say so (RPS) or "
			  "become bottlenecks (offloads)"),
	},
	[R_IRQ_ONE_CPU] = {
		.name = "irq_one_cpu_share",
		.value = 0.8,
		.unit = "share",
		.why = N_("one CPU taking this share of the queue interrupts: "
			  "they are not spread"),
	},
	[R_COALESCE_EXTREME] = {
		.name = "coalesce_usecs_extreme",
		.value = 500,
		.unit = "us",
		.why = N_("rx-usecs above this lets packets wait long enough "
			  "to fill the ring and stretch the RTT"),
	},
	[R_QUEUE_USED] = {
		.name = "rss_queue_used",
		.value = 0.01,
		.unit = "share",
		.why = N_("a receive queue carrying more than this share of "
			  "the packets counts as used"),
	},
	[R_RSS_HOT_SHARE] = {
		.name = "rss_hot_share",
		.value = 0.5,
		.unit = "share",
		.why = N_("one receive queue carrying at least this share of "
			  "the packets is an RSS imbalance"),
	},
	[R_RSS_HOT_STREAMS] = {
		.name = "rss_hot_streams",
		.value = 3,
		.unit = "count",
		.why = N_("in a test of N streams one queue must carry this "
			  "÷ N of the packets to be an imbalance (a flow "
			  "lands on one queue)"),
	},
	[R_RSS_EVEN_SPLIT] = {
		.name = "rss_even_split",
		.value = 1.5,
		.unit = "ratio",
		.why = N_("with few queues the hot queue must carry this many "
			  "times an even split"),
	},
	[R_RSS_HOT_IRQ] = {
		.name = "rss_hot_irq_share",
		.value = 0.75,
		.unit = "share",
		.why = N_("without packet counters, one queue's interrupt line "
			  "taking this share of them is an RSS imbalance"),
	},
};
PS_RULE_FAMILY(nic, rules);

static const char *ifn_or(const struct ps_evidence *ev)
{
	const char *n = ps_ev_nicname(ev);

	return n[0] ? n : "IF";
}

/* the core of a test that was busiest, in % (0 when unknown) */
static double test_core_busy(const struct ps_evidence *ev)
{
	double top = 0;

	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *s = &ev->res->steps[i];
		int k;

		if (!ps_step_counts(ev->res, s))
			continue;
		k = ps_step_test_core(s, NULL);
		if (k >= 0 && s->cpu.cores[k].busy_pct > top)
			top = s->cpu.cores[k].busy_pct;
	}
	return top;
}

/* a bottleneck when the test's busiest core crossed rule r, else a
 * warning */
static enum ps_severity busy_severity(const struct ps_evidence *ev,
				      struct ps_finding *f,
				      const struct ps_rule *r)
{
	if (test_core_busy(ev) < r->value)
		return PS_SEV_WARNING;
	ps_crossed(f, r);
	return PS_SEV_BOTTLENECK;
}

/* ---- RSS: one queue in use of many ----------------------------------- */

static enum ps_check_state eval_rss(const struct ps_evidence *ev,
				    struct ps_finding *f)
{
	const struct ps_ethtool_info *e = ev->eth;
	int64_t cur = -1, max = -1;
	int ncores = ps_ev_ncores(ev), used = 0, want;
	bool table_one = false;

	if (ev->link && ev->link->status == PS_ST_OK &&
	    (ev->link->kind[0] || !strcmp(ev->link->ifname, "lo"))) {
		PS_SET(f->evidence,
		       _("%s is a software device (%s): its queues do not "
			 "steer receive work"),
		       ev->link->ifname,
		       ev->link->kind[0] ? ev->link->kind : "lo");
		return PS_CHECK_NA;
	}
	if (e && e->channels.status == PS_ST_OK) {
		if (e->channels.combined_max > 0) {
			cur = e->channels.combined > 0 ? e->channels.combined
						       : 0;
			max = e->channels.combined_max;
			if (e->channels.rx > 0)
				cur += e->channels.rx;
		} else if (e->channels.rx_max > 0) {
			cur = e->channels.rx;
			max = e->channels.rx_max;
		}
	}
	if (e && e->rss.status == PS_ST_OK && e->rss.n_indir > 1) {
		table_one = true;
		for (unsigned i = 1; i < e->rss.n_indir; i++)
			if (e->rss.indir[i] != e->rss.indir[0])
				table_one = false;
	}
	/* queues that took interrupts (a NIC with IRQ lines per queue) */
	if (ev->irq && ev->irq->status == PS_ST_OK && ev->irq->rated) {
		for (int i = 0; i < ev->irq->nlines; i++)
			if (ev->irq->lines[i].kind[0] &&
			    ev->irq->lines[i].total_rate > 1)
				used++;
	}
	if (cur < 0 && !table_one) {
		PS_SET(f->evidence, "%s",
		       e && e->channels.reason[0]
			       ? e->channels.reason
			       : _("the queue counts are unknown"));
		return PS_CHECK_NA;
	}
	ps_fact(f, "queues", (double)cur, "count");
	ps_fact(f, "queues_max", (double)max, "count");
	if (ncores > 0)
		ps_fact(f, "cores", ncores, "count");
	if (used)
		ps_fact(f, "queues_with_interrupts", used, "count");
	PS_SET(f->evidence,
	       P_("%s: %lld queue in use of %lld",
		  "%s: %lld queues in use of %lld", cur),
	       ifn_or(ev), (long long)cur, (long long)max);
	if (table_one)
		PS_APPEND(f->evidence,
			  _("; the RSS indirection table sends all %u entries "
			    "to queue %u"),
			  e->rss.n_indir, e->rss.indir[0]);
	if (!(cur == 1 && max > 1) && !table_one)
		return PS_CHECK_CLEAR;
	want = (int)max;
	if (ncores > 0 && ncores < want)
		want = ncores;
	if (ncores > 0)
		PS_APPEND(f->evidence, _(" on %d cores"), ncores);
	if (used)
		PS_APPEND(f->evidence,
			  P_("; %d queue took interrupts",
			     "; %d queues took interrupts", used),
			  used);
	PS_APPEND(f->evidence, "%s",
		  _(": every flow's receive work lands on one core"));
	f->severity = busy_severity(ev, f, PS_CHECK_RULE(CORE_SATURATED));
	PS_SET(f->title, _("RSS: one receive queue in use of %lld"),
	       (long long)max);
	if (table_one)
		PS_SET(f->remedy, _("ethtool -X %s equal %d"), ifn_or(ev),
		       want > 1 ? want : 2);
	else
		PS_SET(f->remedy, _("ethtool -L %s combined %d"), ifn_or(ev),
		       want > 1 ? want : 2);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_rss = {
	.id = "rss_one_queue",
	.family = "nic",
	.title = N_("RSS queues in use"),
	.weight = 75,
	.cpu_cause = true,
	.eval = eval_rss,
};

/* ---- all queue interrupts on one CPU --------------------------------- */

static enum ps_check_state eval_irq_cpu(const struct ps_evidence *ev,
					struct ps_finding *f)
{
	const struct ps_irq_info *q = ev->irq;
	const struct ps_step_result *during = NULL;
	int nq;

	if (!q || q->status != PS_ST_OK) {
		PS_SET(f->evidence, "%s",
		       q ? q->reason : _("the IRQ probe was not sampled"));
		return PS_CHECK_NA;
	}
	nq = q->queues_with_irqs;
	/* receive work is what lands on a core: count the receive queues */
	{
		int nrx = 0;

		for (int i = 0; i < q->nlines; i++)
			if (!strcmp(q->lines[i].kind, "rx") ||
			    !strcmp(q->lines[i].kind, "rxtx"))
				nrx++;
		if (nrx < 2) {
			PS_SET(f->evidence,
			       P_("%s has %d receive queue interrupt line: "
				  "nothing to spread",
				  "%s has %d receive queue interrupt lines: "
				  "nothing to spread",
				  nrx),
			       q->ifname, nrx);
			return PS_CHECK_NA;
		}
	}
	if (q->busiest_cpu < 0) {
		PS_SET(f->evidence,
		       _("%s: %d queue interrupt lines, no interrupts counted"),
		       q->ifname, nq);
		return PS_CHECK_NA;
	}
	ps_fact(f, "queue_lines", nq, "count");
	ps_fact(f, "busiest_cpu", q->busiest_cpu, "cpu");
	ps_fact(f, "busiest_share", q->busiest_share, "share");
	ps_fact(f, "irq_cpus", q->irq_cpus, "count");
	PS_SET(f->evidence,
	       P_("%s: %d queue interrupt lines; cpu%d took %.0f%% of their "
		  "interrupts (%s), %d CPU took any",
		  "%s: %d queue interrupt lines; cpu%d took %.0f%% of their "
		  "interrupts (%s), %d CPUs took any",
		  q->irq_cpus),
	       q->ifname, nq, q->busiest_cpu, 100 * q->busiest_share,
	       q->rated ? _("during the sample") : _("since boot"),
	       q->irq_cpus);
	/* the interrupts during the tests say it best */
	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *s = &ev->res->steps[i];

		if (!ps_step_counts(ev->res, s) || !s->have_irq ||
		    s->irq_rate <= 0)
			continue;
		if (!during || s->irq_rate > during->irq_rate)
			during = s;
	}
	if (during) {
		ps_fact(f, "test_irq_rate", during->irq_rate, "1/s");
		ps_fact(f, "test_busiest_share", during->irq_busiest_share,
			"share");
	}
	if (during)
		PS_APPEND(f->evidence,
			  _("; during the %d-stream test %.0f interrupts/s, "
			    "%.0f%% of them on cpu%d"),
			  during->streams, during->irq_rate,
			  100 * during->irq_busiest_share,
			  during->irq_busiest_cpu);
	if ((during ? during->irq_busiest_share : q->busiest_share) <
	    rules[R_IRQ_ONE_CPU].value)
		return PS_CHECK_CLEAR;
	ps_crossed(f, &rules[R_IRQ_ONE_CPU]);
	{
		/* a queue's line (the busiest), never the NIC's misc vector */
		const struct ps_irq_line *ql = NULL;

		for (int i = 0; i < q->nlines; i++) {
			const struct ps_irq_line *l = &q->lines[i];

			if (!l->kind[0] || !l->affinity[0])
				continue;
			if (!ql || l->total > ql->total)
				ql = l;
		}
		if (ql)
			PS_APPEND(f->evidence,
				  _("; affinity of queue %d's IRQ %d: %s, "
				    "effective %s"),
				  ql->queue, ql->irq, ql->affinity,
				  ql->effective[0] ? ql->effective
						   : _("not reported"));
	}
	f->severity = busy_severity(ev, f, PS_CHECK_RULE(CORE_SATURATED));
	PS_SET(f->title, _("All %d queue interrupts of %s land on cpu%d"), nq,
	       q->ifname, q->busiest_cpu);
	if (q->irqbalance_running)
		PS_SET(f->remedy,
		       _("irqbalance runs but does not spread them: systemctl "
			 "stop irqbalance, then set_irq_affinity -x local %s "
			 "(or echo CPU > /proc/irq/N/smp_affinity_list per "
			 "queue)"),
		       q->ifname);
	else
		PS_SET(f->remedy,
		       _("spread them: set_irq_affinity -x local %s, or echo "
			 "CPU > /proc/irq/N/smp_affinity_list for each queue "
			 "(or start irqbalance)"),
		       q->ifname);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_irq_cpu = {
	.id = "irq_one_cpu",
	.family = "nic",
	.title = N_("queue interrupts spread over CPUs"),
	.weight = 70,
	.cpu_cause = true,
	.eval = eval_irq_cpu,
};

/* ---- irqbalance ------------------------------------------------------ */

/* an affinity list naming one CPU ("3"): set by hand or by a script */
static bool single_cpu(const char *list)
{
	return list[0] && !strpbrk(list, "-,");
}

static enum ps_check_state eval_irqbalance(const struct ps_evidence *ev,
					   struct ps_finding *f)
{
	const struct ps_irq_info *q = ev->irq;
	int manual = 0, nq = 0;

	if (!q || q->status != PS_ST_OK || q->irqbalance_status != PS_ST_OK) {
		PS_SET(f->evidence, "%s",
		       !q ? _("the IRQ probe was not sampled")
		       : q->status != PS_ST_OK && q->reason[0] ? q->reason
		       : q->irqbalance_reason[0]
			       ? q->irqbalance_reason
			       : _("whether irqbalance runs is unknown"));
		return PS_CHECK_NA;
	}
	for (int i = 0; i < q->nlines; i++) {
		if (!q->lines[i].kind[0])
			continue;
		nq++;
		if (single_cpu(q->lines[i].affinity))
			manual++;
	}
	if (nq < 2) {
		PS_SET(f->evidence,
		       P_("%d queue interrupt line", "%d queue interrupt lines",
			  nq),
		       nq);
		return PS_CHECK_NA;
	}
	if (q->irqbalance_running) {
		PS_SET(f->evidence,
		       _("irqbalance runs (pid %d); %d of %d queue interrupts "
			 "are pinned to one CPU each"),
		       q->irqbalance_pid, manual, nq);
		if (manual < nq)
			return PS_CHECK_CLEAR;
		f->severity = PS_SEV_WARNING;
		PS_SET(f->title, "%s",
		       _("irqbalance runs beside a manual interrupt affinity"));
		PS_APPEND(f->evidence, "%s",
			  _(": irqbalance may move them again"));
		PS_SET(f->remedy, "%s",
		       _("systemctl stop irqbalance && systemctl disable "
			 "irqbalance (keep the manual affinity), or ban the "
			 "NIC's IRQs: IRQBALANCE_BANNED_CPULIST / --banirq"));
		return PS_CHECK_FIRED;
	}
	ps_fact(f, "pinned_lines", manual, "count");
	ps_fact(f, "queue_lines", nq, "count");
	if (q->busiest_cpu >= 0)
		ps_fact(f, "busiest_share", q->busiest_share, "share");
	PS_SET(f->evidence,
	       _("irqbalance is not running; %d of %d queue interrupts are "
		 "pinned to one CPU each"),
	       manual, nq);
	if (q->busiest_cpu >= 0)
		PS_APPEND(f->evidence, _("; cpu%d took %.0f%%"), q->busiest_cpu,
			  100 * q->busiest_share);
	if (manual == nq || q->busiest_cpu < 0 ||
	    q->busiest_share < rules[R_IRQ_ONE_CPU].value)
		return PS_CHECK_CLEAR;
	f->severity = PS_SEV_WARNING;
	ps_crossed(f, &rules[R_IRQ_ONE_CPU]);
	PS_SET(f->title, "%s",
	       _("irqbalance is absent and nothing else spreads the queue "
		 "interrupts"));
	PS_SET(f->remedy,
	       _("systemctl start irqbalance, or set_irq_affinity -x local %s"),
	       q->ifname);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_irqbalance = {
	.id = "irqbalance",
	.family = "nic",
	.host_wide = true,
	.title = N_("irqbalance"),
	.weight = 65,
	.eval = eval_irqbalance,
};

/* ---- RPS ------------------------------------------------------------- */

static enum ps_check_state eval_rps(const struct ps_evidence *ev,
				    struct ps_finding *f)
{
	const struct ps_irq_info *q = ev->irq;
	int ncores = ps_ev_ncores(ev), on = 0;
	unsigned long long mask;

	if (q && !strcmp(q->ifname, "lo")) {
		PS_SET(f->evidence, "%s",
		       _("loopback: no receive queue to steer"));
		return PS_CHECK_NA;
	}
	if (!q || q->queues_status != PS_ST_OK || q->nrxq <= 0) {
		PS_SET(f->evidence, "%s",
		       q ? q->queues_reason
			 : _("the IRQ probe was not sampled"));
		return PS_CHECK_NA;
	}
	for (int i = 0; i < q->nrxq; i++)
		if (q->rxq[i].rps_on)
			on++;
	ps_fact(f, "rx_queues", q->nrxq, "count");
	ps_fact(f, "rps_queues", on, "count");
	ps_fact(f, "cores", ncores, "count");
	PS_SET(f->evidence,
	       P_("%s: %d receive queue, RPS on %d; %d cores",
		  "%s: %d receive queues, RPS on %d; %d cores", q->nrxq),
	       q->ifname, q->nrxq, on, ncores);
	if (q->nrxq > 1 || on || ncores < 2)
		return PS_CHECK_CLEAR;
	f->severity = PS_SEV_WARNING;
	PS_SET(f->title, _("RPS is off on the single receive queue of %s"),
	       q->ifname);
	PS_APPEND(f->evidence, "%s",
		  _(": all receive processing of every flow stays on the core "
		    "that takes the interrupt"));
	/* with a test: it helps only where the receive core was busy */
	{
		double rx_busy = -1;

		for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
			const struct ps_step_result *s = &ev->res->steps[i];

			if (!ps_step_counts(ev->res, s) || !s->have_cpu)
				continue;
			for (int k = 0; k < s->cpu.ncores; k++)
				for (int r = 0; r < s->nrx_cpu; r++)
					if (s->cpu.cores[k].id ==
						    s->rx_cpu[r] &&
					    s->cpu.cores[k].pct_valid &&
					    s->cpu.cores[k].busy_pct > rx_busy)
						rx_busy = s->cpu.cores[k]
								  .busy_pct;
		}
		if (rx_busy >= 0) {
			PS_APPEND(f->evidence,
				  _("; the busiest core that took the test's "
				    "packets was %.0f%% busy"),
				  rx_busy);
			if (rx_busy < rules[R_CORE_BUSY].value)
				f->severity = PS_SEV_INFO;
			else
				ps_crossed(f, &rules[R_CORE_BUSY]);
		}
	}
	mask = ncores >= 64 ? ~0ULL : (1ULL << ncores) - 1;
	PS_SET(f->remedy,
	       _("echo %llx > /sys/class/net/%s/queues/rx-0/rps_cpus (better "
		 "on the NIC's NUMA node, leaving out the interrupt's core)"),
	       mask, q->ifname);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_rps = {
	.id = "rps_off",
	.family = "nic",
	.title = N_("RPS on a single-queue device"),
	.weight = 55,
	.eval = eval_rps,
};

/* ---- offloads -------------------------------------------------------- */

static enum ps_check_state eval_offloads(const struct ps_evidence *ev,
					 struct ps_finding *f)
{
	static const enum ps_eth_flag_id want[] = {
		PS_ETH_TSO, PS_ETH_GSO,	    PS_ETH_GRO,
		PS_ETH_SG,  PS_ETH_TX_CSUM, PS_ETH_RX_CSUM
	};
	const struct ps_ethtool_info *e = ev->eth;
	char off[160] = "", cmd[160] = "";
	bool veth = ev->link && !strcmp(ev->link->kind, "veth");
	bool lo = !strcmp(ps_ev_nicname(ev), "lo");
	int noff = 0;
	double busy;

	if (!e || e->features.status != PS_ST_OK) {
		PS_SET(f->evidence, "%s",
		       e ? e->features.reason : _("ethtool was not sampled"));
		return PS_CHECK_NA;
	}
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct ps_eth_flag *fl = &e->features.flag[want[i]];
		const char *name = ps_ethtool_flag_name(want[i]);

		if (!fl->known || fl->on)
			continue;
		/* veth and lo leave GRO off by default: not a finding */
		if (want[i] == PS_ETH_GRO && (veth || lo) && !fl->requested_on)
			continue;
		if (fl->fixed && !fl->requested_on)
			continue;
		PS_APPEND(off, "%s%s%s", noff ? ", " : "", name,
			  fl->requested_on ? _(" (requested on)") : "");
		PS_APPEND(cmd, " %s on",
			  !strcmp(name, "scatter_gather") ? "sg"
			  : !strcmp(name, "tx_checksum")  ? "tx"
			  : !strcmp(name, "rx_checksum")  ? "rx"
							  : name);
		noff++;
	}
	if (!noff) {
		PS_SET(f->evidence,
		       _("%s: TSO, GSO, GRO, scatter-gather and checksums are "
			 "on (or fixed)"),
		       ps_ev_nicname(ev));
		return PS_CHECK_CLEAR;
	}
	busy = test_core_busy(ev);
	ps_fact(f, "offloads_off", noff, "count");
	if (ev->res)
		ps_fact(f, "test_core_busy", busy, "%");
	f->severity = busy_severity(ev, f, &rules[R_CORE_BUSY]);
	PS_SET(f->title, _("Offloads off on %s: %s"), ps_ev_nicname(ev), off);
	PS_SET(f->evidence,
	       _("%s: off: %s; without them the kernel handles every MTU-sized "
		 "packet on its own (segmentation, checksums, merging), which "
		 "costs CPU per byte"),
	       ps_ev_nicname(ev), off);
	if (busy > 0)
		PS_APPEND(f->evidence,
			  _("; the busiest core of the test was %.0f%% busy"),
			  busy);
	{
		const struct ps_step_result *s = ps_run_single(ev->res);

		if (s && s->mss > 0 && s->bps > 0)
			PS_APPEND(f->evidence,
				  _("; one stream at %.2f Gbit/s is %.0f "
				    "thousand segments/s of %u bytes"),
				  s->bps / 1e9, s->bps / 8 / s->mss / 1e3,
				  s->mss);
	}
	PS_SET(f->remedy, "ethtool -K %s%s", ifn_or(ev), cmd);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_offloads = {
	.id = "offloads_off",
	.family = "nic",
	.title = N_("offloads (TSO, GSO, GRO, checksums, scatter-gather)"),
	.weight = 85,
	.cpu_cause = true,
	.eval = eval_offloads,
};

/* ---- coalescing ------------------------------------------------------ */

static enum ps_check_state eval_coalesce(const struct ps_evidence *ev,
					 struct ps_finding *f)
{
	const struct ps_ethtool_info *e = ev->eth;
	int64_t us, fr;

	if (!e || e->coalesce.status != PS_ST_OK) {
		PS_SET(f->evidence, "%s",
		       e ? e->coalesce.reason : _("ethtool was not sampled"));
		return PS_CHECK_NA;
	}
	us = e->coalesce.rx_usecs;
	fr = e->coalesce.rx_frames;
	ps_fact(f, "rx_usecs", (double)us, "us");
	ps_fact(f, "rx_frames", (double)fr, "count");
	PS_SET(f->evidence,
	       _("%s: rx-usecs %lld, rx-frames %lld, adaptive-rx %s"),
	       ps_ev_nicname(ev), (long long)us, (long long)fr,
	       e->coalesce.adaptive_rx == 1   ? _("on")
	       : e->coalesce.adaptive_rx == 0 ? _("off")
					      : _("not reported"));
	if (ps_ev_virtual(ev)) {
		PS_APPEND(f->evidence, "%s",
			  _(" (a virtual NIC: not tuned here)"));
		return PS_CHECK_CLEAR;
	}
	if (e->coalesce.adaptive_rx != 1 && us == 0 && fr <= 1) {
		f->severity = PS_SEV_WARNING;
		PS_SET(f->title,
		       _("Interrupt coalescing off on %s: one interrupt per "
			 "packet"),
		       ps_ev_nicname(ev));
		PS_SET(f->remedy,
		       _("ethtool -C %s adaptive-rx on (or rx-usecs 50)"),
		       ifn_or(ev));
		return PS_CHECK_FIRED;
	}
	if (us > rules[R_COALESCE_EXTREME].value) {
		f->severity = PS_SEV_WARNING;
		ps_crossed(f, &rules[R_COALESCE_EXTREME]);
		PS_SET(f->title,
		       _("Interrupt coalescing extreme on %s: rx-usecs %lld"),
		       ps_ev_nicname(ev), (long long)us);
		PS_APPEND(f->evidence, "%s",
			  _(": packets wait long enough to fill the ring and "
			    "to stretch the RTT"));
		PS_SET(f->remedy,
		       _("ethtool -C %s adaptive-rx on (or rx-usecs 50)"),
		       ifn_or(ev));
		return PS_CHECK_FIRED;
	}
	return PS_CHECK_CLEAR;
}

const struct ps_check_ops ps_check_coalesce = {
	.id = "coalescing",
	.family = "nic",
	.title = N_("interrupt coalescing"),
	.weight = 45,
	.cpu_cause = true,
	.eval = eval_coalesce,
};

/* ---- rings below max with drops -------------------------------------- */

static const struct ps_step_result *nic_step(const struct ps_evidence *ev);

/* the drop classes that say the receive ring ran out of descriptors */
static const enum ps_nic_drop ring_classes[] = {
	PS_NIC_MISSED,
	PS_NIC_NO_BUFFER,
	PS_NIC_OUT_OF_BUFFER,
	PS_NIC_FIFO,
};
/* their fact keys and counter names */
static const char *const ring_keys[] = {
	"rx_missed",
	"rx_no_buffer",
	"rx_out_of_buffer",
	"rx_fifo",
};

static double ring_drop_rate(const struct ps_evidence *ev, const char **when)
{
	const struct ps_step_result *s = nic_step(ev);
	const struct ps_ethtool_info *e = ev->eth;
	double sum = NAN;

	for (size_t k = 0; k < sizeof(ring_classes) / sizeof(ring_classes[0]);
	     k++) {
		double v =
			s ? s->nic_drops[PS_NIC_RX][ring_classes[k]]
			: e && e->nic_rate.rated
				? e->nic_rate.drops[PS_NIC_RX][ring_classes[k]]
				: NAN;

		if (isfinite(v))
			sum = (isnan(sum) ? 0 : sum) + v;
	}
	*when = s ? _("during the test") : _("during the sample");
	return sum;
}

static enum ps_check_state eval_rings(const struct ps_evidence *ev,
				      struct ps_finding *f)
{
	const struct ps_ethtool_info *e = ev->eth;
	uint64_t drops = 0;
	double rate = 0;
	bool rated = false;
	const char *when = NULL;
	char classes[200] = "";

	if (!e || e->rings.status != PS_ST_OK || e->rings.rx <= 0) {
		PS_SET(f->evidence, "%s",
		       e ? e->rings.reason : _("ethtool was not sampled"));
		return PS_CHECK_NA;
	}
	if (e->nic.valid) {
		/* the driver's own classes: the ring ran out of room */
		for (size_t k = 0;
		     k < sizeof(ring_classes) / sizeof(ring_classes[0]); k++) {
			int64_t v = e->nic.drops[PS_NIC_RX][ring_classes[k]];

			if (v == PS_NA)
				continue;
			drops += (uint64_t)v;
			ps_fact(f, ring_keys[k], (double)v, "count");
			PS_APPEND(classes, "%s%s %lld", classes[0] ? ", " : "",
				  ring_keys[k], (long long)v);
		}
		rate = ring_drop_rate(ev, &when);
		rated = isfinite(rate);
		if (!rated)
			rate = 0;
	} else {
		if (ev->link && ev->link->counters.status == PS_ST_OK)
			drops = ev->link->counters.c.rx_dropped +
				ev->link->counters.c.rx_missed;
		if (ev->link && ev->link->rates.valid) {
			rated = true;
			rate = ev->link->rates.rx_drops_ps;
			when = _("during the sample");
		}
		for (unsigned i = 0;
		     e->drv_stats.status == PS_ST_OK && i < e->drv_stats.n;
		     i++) {
			const char *n = e->drv_stats.v[i].name;

			if (strstr(n, "rx") &&
			    (strstr(n, "miss") || strstr(n, "no_buf") ||
			     strstr(n, "discard")))
				drops += e->drv_stats.v[i].value;
		}
	}
	ps_fact(f, "rx_ring", (double)e->rings.rx, "count");
	ps_fact(f, "rx_ring_max", (double)e->rings.rx_max, "count");
	ps_fact(f, "tx_ring", (double)e->rings.tx, "count");
	ps_fact(f, "tx_ring_max", (double)e->rings.tx_max, "count");
	ps_fact(f, "rx_drops", (double)drops, "count");
	if (rated)
		ps_fact(f, "rx_drop_rate", rate, "1/s");
	PS_SET(f->evidence,
	       _("%s: rx ring %lld of %lld, tx ring %lld of %lld; %llu receive "
		 "drops/misses counted"),
	       ps_ev_nicname(ev), (long long)e->rings.rx,
	       (long long)e->rings.rx_max, (long long)e->rings.tx,
	       (long long)e->rings.tx_max, (unsigned long long)drops);
	if (classes[0])
		PS_APPEND(f->evidence, " (%s)", classes);
	if (rated)
		PS_APPEND(f->evidence, _(", %.0f/s %s"), rate, when);
	if (e->rings.rx_max <= e->rings.rx || !drops)
		return PS_CHECK_CLEAR;
	f->severity = rated && rate > 0 ? PS_SEV_BOTTLENECK : PS_SEV_WARNING;
	PS_SET(f->title, _("Receive ring %lld of %lld on %s, with drops"),
	       (long long)e->rings.rx, (long long)e->rings.rx_max,
	       ps_ev_nicname(ev));
	if (rated && rate > 0)
		PS_SET(f->title,
		       _("Receive ring %lld of %lld on %s drops %.0f "
			 "packets/s"),
		       (long long)e->rings.rx, (long long)e->rings.rx_max,
		       ps_ev_nicname(ev), rate);
	PS_SET(f->remedy, _("ethtool -G %s rx %lld tx %lld"), ifn_or(ev),
	       (long long)e->rings.rx_max,
	       (long long)(e->rings.tx_max > 0 ? e->rings.tx_max
					       : e->rings.tx));
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_rings = {
	.id = "rings_drops",
	.family = "nic",
	.title = N_("ring sizes and receive drops"),
	.weight = 68,
	.eval = eval_rings,
};

/* ---- softnet backlog drops, time squeeze ----------------------------- */

static enum ps_check_state eval_softnet(const struct ps_evidence *ev,
					struct ps_finding *f)
{
	const struct ps_irq_info *q = ev->irq;
	int worst = -1;
	uint64_t worst_sq = 0;

	if (!q || q->softnet_status != PS_ST_OK) {
		PS_SET(f->evidence, "%s",
		       q ? q->softnet_reason
			 : _("the IRQ probe was not sampled"));
		return PS_CHECK_NA;
	}
	for (int c = 0; c < q->ncpu; c++)
		if (q->cpus[c].softnet && q->cpus[c].time_squeeze > worst_sq) {
			worst_sq = q->cpus[c].time_squeeze;
			worst = c;
		}
	ps_fact(f, "backlog_drops", (double)q->dropped_total, "count");
	ps_fact(f, "time_squeezes", (double)q->squeeze_total, "count");
	if (q->rated) {
		ps_fact(f, "backlog_drop_rate", q->dropped_rate_total, "1/s");
		ps_fact(f, "time_squeeze_rate", q->squeeze_rate_total, "1/s");
	}
	PS_SET(f->evidence,
	       _("softnet_stat: %llu backlog drops, %llu time squeezes %s"),
	       (unsigned long long)q->dropped_total,
	       (unsigned long long)q->squeeze_total,
	       q->rated ? _("in all") : _("since boot"));
	if (q->rated)
		PS_APPEND(
			f->evidence,
			_(" (%.1f drops/s, %.1f squeezes/s during the sample)"),
			q->dropped_rate_total, q->squeeze_rate_total);
	if (worst >= 0)
		PS_APPEND(f->evidence, _("; most squeezes on cpu%d (%llu)"),
			  q->cpus[worst].cpu, (unsigned long long)worst_sq);
	if (!q->dropped_total && !q->squeeze_total)
		return PS_CHECK_CLEAR;
	if (q->rated && q->dropped_rate_total <= 0 &&
	    q->squeeze_rate_total <= 0) {
		f->severity = PS_SEV_INFO;
	} else {
		f->severity = q->rated && q->dropped_rate_total > 0
				      ? PS_SEV_BOTTLENECK
				      : PS_SEV_WARNING;
	}
	if (q->dropped_total) {
		f->id = "softnet_drops";
		PS_SET(f->title,
		       _("The kernel's receive backlog dropped %llu packets"),
		       (unsigned long long)q->dropped_total);
		PS_SET(f->remedy, "%s",
		       _("sysctl -w net.core.netdev_max_backlog=10000 (and "
			 "spread the receive work: RSS/RPS)"));
	} else {
		f->id = "softnet_squeeze";
		PS_SET(f->title,
		       _("Receive processing ran out of budget %llu times "
			 "(time_squeeze)"),
		       (unsigned long long)q->squeeze_total);
		PS_SET(f->remedy, "%s",
		       _("sysctl -w net.core.netdev_budget=600 "
			 "net.core.netdev_budget_usecs=8000, and spread the "
			 "receive work over more cores"));
	}
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_softnet = {
	.id = "softnet",
	.family = "nic",
	.host_wide = true,
	.title = N_("softnet backlog drops and time squeeze"),
	.weight = 60,
	.cpu_cause = true,
	.eval = eval_softnet,
};

/* ---- the NIC's own counters: which readings speak for a test ---------- */

/* receive packets per queue: the counting test that moved the most
 * through the NIC, else the snapshot's rates, else the counters since the
 * driver loaded (a recorded "ethtool -S") */
struct qload {
	int n;
	double v[PS_STEP_MAX_QUEUES];
	double sum;
	bool rate;   /* packets/s, else packets */
	int streams; /* the test's, 0 when not from a test */
	const char *when;
};

static void qload_sum(struct qload *l)
{
	l->sum = 0;
	for (int q = 0; q < l->n; q++)
		if (isfinite(l->v[q]) && l->v[q] > 0)
			l->sum += l->v[q];
}

static const struct ps_step_result *nic_step(const struct ps_evidence *ev)
{
	const struct ps_step_result *best = NULL;
	double top = 0;

	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *s = &ev->res->steps[i];
		struct qload l = { .n = s->nic_nrxq };

		if (!ps_step_counts(ev->res, s) || !s->have_nicstats)
			continue;
		if (l.n > PS_STEP_MAX_QUEUES)
			l.n = PS_STEP_MAX_QUEUES;
		memcpy(l.v, s->nic_rxq_pps, sizeof(l.v));
		qload_sum(&l);
		if (!best || l.sum > top) {
			best = s;
			top = l.sum;
		}
	}
	return best;
}

static bool rx_queue_load(const struct ps_evidence *ev, struct qload *l)
{
	const struct ps_step_result *s = nic_step(ev);
	const struct ps_ethtool_info *e = ev->eth;

	memset(l, 0, sizeof(*l));
	if (s && s->nic_nrxq >= 2) {
		l->n = s->nic_nrxq < PS_STEP_MAX_QUEUES ? s->nic_nrxq
							: PS_STEP_MAX_QUEUES;
		memcpy(l->v, s->nic_rxq_pps, sizeof(l->v));
		l->rate = true;
		l->streams = s->streams;
		l->when = _("during the test");
	} else if (e && e->nic_rate.rated && e->nic_rate.nq[PS_NIC_RX] >= 2) {
		l->n = (int)e->nic_rate.nq[PS_NIC_RX];
		if (l->n > PS_STEP_MAX_QUEUES)
			l->n = PS_STEP_MAX_QUEUES;
		for (int q = 0; q < l->n; q++)
			l->v[q] = e->nic_rate.pps[PS_NIC_RX][q];
		l->rate = true;
		l->when = _("during the sample");
	} else if (e && e->nic.valid && e->nic.nq[PS_NIC_RX] >= 2) {
		l->n = (int)e->nic.nq[PS_NIC_RX];
		if (l->n > PS_STEP_MAX_QUEUES)
			l->n = PS_STEP_MAX_QUEUES;
		for (int q = 0; q < l->n; q++)
			l->v[q] =
				e->nic.packets[PS_NIC_RX][q] == PS_NA
					? NAN
					: (double)e->nic.packets[PS_NIC_RX][q];
		l->when = _("since the driver loaded");
	} else {
		return false;
	}
	qload_sum(l);
	return true;
}

static int qload_top(const struct qload *l)
{
	int top = 0;

	for (int q = 1; q < l->n; q++)
		if (isfinite(l->v[q]) &&
		    (!isfinite(l->v[top]) || l->v[q] > l->v[top]))
			top = q;
	return top;
}

/* ---- RSS imbalance: one queue carries most packets -------------------- */

/* the busiest receive queue's interrupt line and its share of the NIC's
 * queue interrupts; -1 when fewer than two receive queue lines */
static int hot_irq_line(const struct ps_irq_info *q, double *share)
{
	double sum = 0, best = -1;
	int top = -1, nrx = 0;

	if (!q || q->status != PS_ST_OK)
		return -1;
	for (int i = 0; i < q->nlines; i++) {
		const struct ps_irq_line *l = &q->lines[i];
		double v = q->rated ? l->total_rate : (double)l->total;

		if (strcmp(l->kind, "rx") && strcmp(l->kind, "rxtx"))
			continue;
		nrx++;
		sum += v;
		if (v > best) {
			best = v;
			top = i;
		}
	}
	if (nrx < 2 || !(sum > 0))
		return -1;
	*share = best / sum;
	return top;
}

static enum ps_check_state eval_rss_balance(const struct ps_evidence *ev,
					    struct ps_finding *f)
{
	struct qload l;
	const struct ps_rule *hot;
	double share = 0, bar;
	int top = -1, line = -1, used = 0;
	bool by_packets = rx_queue_load(ev, &l);

	if (by_packets && l.sum > 0) {
		top = qload_top(&l);
		share = l.v[top] / l.sum;
		for (int q = 0; q < l.n; q++)
			if (isfinite(l.v[q]) &&
			    l.v[q] > rules[R_QUEUE_USED].value * l.sum)
				used++;
	} else {
		by_packets = false;
		line = hot_irq_line(ev->irq, &share);
		if (line < 0) {
			PS_SET(f->evidence, "%s",
			       _("no per-queue packet counters and fewer than "
				 "two receive queue interrupt lines"));
			return PS_CHECK_NA;
		}
	}
	if (by_packets) {
		ps_fact(f, "queues", l.n, "count");
		ps_fact(f, "queues_used", used, "count");
		ps_fact(f, "hot_queue", top, "count");
		ps_fact(f, "hot_queue_share", share, "share");
		ps_fact(f, l.rate ? "hot_queue_pps" : "hot_queue_packets",
			l.v[top], l.rate ? "1/s" : "count");
		if (l.streams)
			ps_fact(f, "streams", l.streams, "count");
		PS_SET(f->evidence,
		       P_("%s: receive queue %d carried %.0f%% of the packets "
			  "of %d queues %s (%.0f %s of %.0f); %d queue "
			  "carried any",
			  "%s: receive queue %d carried %.0f%% of the packets "
			  "of %d queues %s (%.0f %s of %.0f); %d queues "
			  "carried any",
			  used),
		       ifn_or(ev), top, 100 * share, l.n, l.when, l.v[top],
		       l.rate ? _("packets/s") : _("packets"), l.sum, used);
	} else {
		const struct ps_irq_line *il = &ev->irq->lines[line];

		ps_fact(f, "hot_queue", il->queue, "count");
		ps_fact(f, "hot_queue_irq", il->irq, "count");
		ps_fact(f, "hot_queue_irq_share", share, "share");
		PS_SET(f->evidence,
		       _("%s: queue %d (IRQ %d) took %.0f%% of the receive "
			 "queue interrupts %s"),
		       ifn_or(ev), il->queue, il->irq, 100 * share,
		       ev->irq->rated ? _("during the sample")
				      : _("since boot"));
		top = il->queue;
	}
	/* one flow lands on one queue: a test of few streams says nothing
	 * unless all of them share it */
	hot = &rules[R_RSS_HOT_SHARE];
	bar = hot->value;
	if (l.streams && rules[R_RSS_HOT_STREAMS].value / l.streams > bar) {
		hot = &rules[R_RSS_HOT_STREAMS];
		bar = hot->value / l.streams;
	}
	/* and with few queues an even split is already a large share */
	if (by_packets && rules[R_RSS_EVEN_SPLIT].value / l.n > bar) {
		hot = &rules[R_RSS_EVEN_SPLIT];
		bar = hot->value / l.n;
	}
	/* interrupts, not packets, are a coarser measure */
	if (!by_packets && rules[R_RSS_HOT_IRQ].value > bar) {
		hot = &rules[R_RSS_HOT_IRQ];
		bar = hot->value;
	}
	if (by_packets && l.streams == 1) {
		PS_APPEND(f->evidence, "%s",
			  _(" (one stream lands on one queue by design)"));
		return PS_CHECK_CLEAR;
	}
	if (share < bar)
		return PS_CHECK_CLEAR;
	ps_crossed(f, hot);
	f->severity =
		l.streams ? busy_severity(ev, f, PS_CHECK_RULE(CORE_SATURATED))
			  : PS_SEV_WARNING;
	f->scope = PS_SCOPE_SHARED;
	PS_SET(f->title,
	       _("RSS imbalance: queue %d of %s carries %.0f%% of "
		 "the receive work"),
	       top, ifn_or(ev), 100 * share);
	PS_SET(f->remedy,
	       _("see how flows hash: ethtool -n %s rx-flow-hash tcp4 (add "
		 "ports: ethtool -N %s rx-flow-hash tcp4 sdfn); spread the "
		 "table: ethtool -X %s equal N; or steer the hot flows with "
		 "RPS/RFS"),
	       ifn_or(ev), ifn_or(ev), ifn_or(ev));
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_rss_balance = {
	.id = "rss_imbalance",
	.family = "nic",
	.title = N_("receive work spread over the queues"),
	.weight = 66,
	.cpu_cause = true,
	.eval = eval_rss_balance,
};

/* ---- rings the RSS table does not reach ------------------------------- */

static enum ps_check_state eval_rss_table(const struct ps_evidence *ev,
					  struct ps_finding *f)
{
	const struct ps_ethtool_info *e = ev->eth;
	bool seen[PS_NIC_MAXQ * 2] = { false };
	int64_t rings = -1;
	int in_table = 0, top = -1;

	if (!e || e->rss.status != PS_ST_OK || e->rss.n_indir < 2) {
		PS_SET(f->evidence, "%s",
		       e && e->rss.reason[0] ? e->rss.reason
					     : _("no RSS indirection table"));
		return PS_CHECK_NA;
	}
	if (e->rss.rx_rings > 0) {
		rings = e->rss.rx_rings; /* ETHTOOL_GRXRINGS */
	} else if (e->channels.status == PS_ST_OK) {
		rings = e->channels.combined > 0 ? e->channels.combined : 0;
		if (e->channels.rx > 0)
			rings += e->channels.rx;
	}
	for (unsigned i = 0; i < e->rss.n_indir; i++) {
		uint32_t q = e->rss.indir[i];

		if (q < sizeof(seen) && !seen[q]) {
			seen[q] = true;
			in_table++;
			if ((int)q > top)
				top = (int)q;
		}
	}
	ps_fact(f, "indir_entries", e->rss.n_indir, "count");
	ps_fact(f, "rings_in_rss", in_table, "count");
	if (rings > 0)
		ps_fact(f, "rings", (double)rings, "count");
	PS_SET(f->evidence,
	       P_("%s: the RSS indirection table (%u entries) spreads over "
		  "%d ring",
		  "%s: the RSS indirection table (%u entries) spreads over "
		  "%d rings",
		  in_table),
	       ifn_or(ev), e->rss.n_indir, in_table);
	if (rings > 0)
		PS_APPEND(f->evidence, _(" of %lld"), (long long)rings);
	if (rings <= 0 || in_table >= rings || in_table < 2)
		return PS_CHECK_CLEAR; /* one ring: eval_rss says it */
	f->severity = PS_SEV_WARNING;
	PS_SET(f->title, _("RSS: %d of %lld rings in the indirection table"),
	       in_table, (long long)rings);
	PS_APPEND(f->evidence,
		  _(": rings %d-%lld get no hashed traffic (the driver's RSS "
		    "limit, or a table set by hand)"),
		  top + 1, (long long)rings - 1);
	PS_SET(f->remedy,
	       _("ethtool -X %s equal %lld if the driver allows it; else "
		 "ethtool -L %s combined %d so no ring sits idle"),
	       ifn_or(ev), (long long)rings, ifn_or(ev), in_table);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_rss_table = {
	.id = "rss_table",
	.family = "nic",
	.title = N_("rings reached by the RSS indirection table"),
	.weight = 64,
	.eval = eval_rss_table,
};

/* ---- pause frames ------------------------------------------------------ */

static enum ps_check_state eval_pause(const struct ps_evidence *ev,
				      struct ps_finding *f)
{
	const struct ps_step_result *s = nic_step(ev);
	const struct ps_ethtool_info *e = ev->eth;
	double rx = NAN, tx = NAN;
	const char *when = NULL;
	bool rate = true;

	if (s && (isfinite(s->nic_pause_rx) || isfinite(s->nic_pause_tx))) {
		rx = s->nic_pause_rx;
		tx = s->nic_pause_tx;
		when = _("during the test");
	} else if (e && e->nic_rate.rated &&
		   (isfinite(e->nic_rate.pause[0]) ||
		    isfinite(e->nic_rate.pause[1]))) {
		rx = e->nic_rate.pause[PS_NIC_RX];
		tx = e->nic_rate.pause[PS_NIC_TX];
		when = _("during the sample");
	} else if (e) {
		int64_t a = ps_ethtool_pause_frames(e, PS_NIC_RX);
		int64_t b = ps_ethtool_pause_frames(e, PS_NIC_TX);

		rx = a == PS_NA ? NAN : (double)a;
		tx = b == PS_NA ? NAN : (double)b;
		rate = false;
		when = _("since the driver loaded");
	}
	if (!isfinite(rx) && !isfinite(tx)) {
		PS_SET(f->evidence, "%s",
		       _("the NIC reports no pause frame counters"));
		return PS_CHECK_NA;
	}
	if (isfinite(rx))
		ps_fact(f, rate ? "pause_rx_rate" : "pause_rx_frames", rx,
			rate ? "1/s" : "count");
	if (isfinite(tx))
		ps_fact(f, rate ? "pause_tx_rate" : "pause_tx_frames", tx,
			rate ? "1/s" : "count");
	PS_SET(f->evidence, _("%s: pause frames %s: "), ifn_or(ev), when);
	if (isfinite(rx))
		PS_APPEND(f->evidence,
			  rate ? _("%.1f/s received") : _("%.0f received"), rx);
	if (isfinite(rx) && isfinite(tx))
		PS_APPEND(f->evidence, ", ");
	if (isfinite(tx))
		PS_APPEND(f->evidence, rate ? _("%.1f/s sent") : _("%.0f sent"),
			  tx);
	if (!(rx > 0) && !(tx > 0))
		return PS_CHECK_CLEAR;
	f->severity = rate ? PS_SEV_WARNING : PS_SEV_INFO;
	if (rx > 0 && (!(tx > 0) || rx >= tx)) {
		if (rate)
			PS_SET(f->title,
			       _("The switch is pausing %s: %.1f pause "
				 "frames/s received"),
			       ifn_or(ev), rx);
		else
			PS_SET(f->title,
			       _("The switch has paused %s: %.0f pause frames "
				 "received since the driver loaded"),
			       ifn_or(ev), rx);
		PS_SET(f->remedy,
		       _("the switch port or the far end is congested: look at "
			 "its buffers and queues; ethtool -A %s rx off turns "
			 "the pauses into visible drops"),
		       ifn_or(ev));
	} else {
		PS_SET(f->title,
		       _("%s sends pause frames (%.*f%s): its receive side "
			 "falls behind"),
		       ifn_or(ev), rate ? 1 : 0, tx, rate ? "/s" : "");
		PS_SET(f->remedy,
		       _("give the receive side room: ethtool -G %s rx <max>, "
			 "more queues or cores for its interrupts; ethtool -A "
			 "%s tx off stops pausing the switch (drops instead)"),
		       ifn_or(ev), ifn_or(ev));
	}
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_pause = {
	.id = "pause_frames",
	.family = "nic",
	.title = N_("Ethernet pause frames"),
	.weight = 62,
	.eval = eval_pause,
};

/* ---- one transmit queue beside several receive queues ----------------- */

static enum ps_check_state eval_tx_queues(const struct ps_evidence *ev,
					  struct ps_finding *f)
{
	const struct ps_ethtool_info *e = ev->eth;
	const struct ps_irq_info *q = ev->irq;
	int rx = -1, tx = -1;
	const char *from = NULL;

	if (q && q->status == PS_ST_OK) {
		int nrx = 0, ntx = 0, both = 0;

		for (int i = 0; i < q->nlines; i++) {
			nrx += !strcmp(q->lines[i].kind, "rx");
			ntx += !strcmp(q->lines[i].kind, "tx");
			both += !strcmp(q->lines[i].kind, "rxtx");
		}
		if (!both && nrx && ntx) {
			rx = nrx;
			tx = ntx;
			from = _("queue interrupt lines");
		}
	}
	if (!from && e && e->channels.status == PS_ST_OK &&
	    e->channels.combined <= 0 && e->channels.rx > 0 &&
	    e->channels.tx > 0) {
		rx = (int)e->channels.rx;
		tx = (int)e->channels.tx;
		from = _("channels");
	}
	if (!from && e && e->nic.valid && e->nic.nq[PS_NIC_RX] > 0 &&
	    e->nic.nq[PS_NIC_TX] > 0) {
		rx = (int)e->nic.nq[PS_NIC_RX];
		tx = (int)e->nic.nq[PS_NIC_TX];
		from = _("per-queue counters");
	}
	if (!from) {
		PS_SET(f->evidence, "%s",
		       _("the transmit and receive queue counts are unknown"));
		return PS_CHECK_NA;
	}
	ps_fact(f, "rx_queues", rx, "count");
	ps_fact(f, "tx_queues", tx, "count");
	PS_SET(f->evidence,
	       P_("%s: %d receive and %d transmit queue (%s)",
		  "%s: %d receive and %d transmit queues (%s)", tx),
	       ifn_or(ev), rx, tx, from);
	if (tx != 1 || rx < 2)
		return PS_CHECK_CLEAR;
	f->severity = PS_SEV_WARNING;
	PS_SET(f->title,
	       _("%s has one transmit queue beside %d receive "
		 "queues"),
	       ifn_or(ev), rx);
	PS_APPEND(f->evidence, "%s",
		  _(": every sending thread shares one queue, its lock and "
		    "its completion interrupt"));
	PS_SET(f->remedy, _("ethtool -L %s tx %d (or combined %d)"), ifn_or(ev),
	       rx, rx);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_tx_queues = {
	.id = "single_tx_queue",
	.family = "nic",
	.title = N_("transmit queues"),
	.weight = 58,
	.eval = eval_tx_queues,
};
