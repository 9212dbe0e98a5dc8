/* check-nic.c: the NIC checks of "pipescope check": RSS queues, where the
 * queue interrupts land, irqbalance, RPS, offloads, interrupt coalescing,
 * ring sizes with drops, and the kernel backlog (softnet drops, squeezes) */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "nls.h"

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
	PS_SET(f->evidence, _("%s: %lld queue%s in use of %lld"), ifn_or(ev),
	       (long long)cur, cur == 1 ? "" : "s", (long long)max);
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
		PS_APPEND(f->evidence, _("; %d queue%s took interrupts"), used,
			  used == 1 ? "" : "s");
	PS_APPEND(f->evidence, "%s",
		  _(": every flow's receive work lands on one core"));
	f->severity = test_core_busy(ev) >= PS_CORE_SATURATED
			      ? PS_SEV_BOTTLENECK
			      : PS_SEV_WARNING;
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
			       _("%s has %d receive queue interrupt line%s: "
				 "nothing to spread"),
			       q->ifname, nrx, nrx == 1 ? "" : "s");
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
	       _("%s: %d queue interrupt lines; cpu%d took %.0f%% of their "
		 "interrupts (%s), %d CPU%s took any"),
	       q->ifname, nq, q->busiest_cpu, 100 * q->busiest_share,
	       q->rated ? _("during the sample") : _("since boot"), q->irq_cpus,
	       q->irq_cpus == 1 ? "" : "s");
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
	if (during ? during->irq_busiest_share < 0.8 : q->busiest_share < 0.8)
		return PS_CHECK_CLEAR;
	if (q->nlines > 0 && q->lines[0].affinity[0])
		PS_APPEND(f->evidence,
			  _("; affinity of IRQ %d: %s, effective %s"),
			  q->lines[0].irq, q->lines[0].affinity,
			  q->lines[0].effective[0] ? q->lines[0].effective
						   : _("not reported"));
	f->severity = test_core_busy(ev) >= PS_CORE_SATURATED
			      ? PS_SEV_BOTTLENECK
			      : PS_SEV_WARNING;
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
		PS_SET(f->evidence, _("%d queue interrupt line%s"), nq,
		       nq == 1 ? "" : "s");
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
	if (manual == nq || q->busiest_cpu < 0 || q->busiest_share < 0.8)
		return PS_CHECK_CLEAR;
	f->severity = PS_SEV_WARNING;
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
	PS_SET(f->evidence, _("%s: %d receive queue%s, RPS on %d; %d cores"),
	       q->ifname, q->nrxq, q->nrxq == 1 ? "" : "s", on, ncores);
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
			if (rx_busy < 80)
				f->severity = PS_SEV_INFO;
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
	f->severity = busy >= 80 ? PS_SEV_BOTTLENECK : PS_SEV_WARNING;
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
	if (us > 500) {
		f->severity = PS_SEV_WARNING;
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

static enum ps_check_state eval_rings(const struct ps_evidence *ev,
				      struct ps_finding *f)
{
	const struct ps_ethtool_info *e = ev->eth;
	uint64_t drops = 0;
	double rate = 0;
	bool rated = false;

	if (!e || e->rings.status != PS_ST_OK || e->rings.rx <= 0) {
		PS_SET(f->evidence, "%s",
		       e ? e->rings.reason : _("ethtool was not sampled"));
		return PS_CHECK_NA;
	}
	if (ev->link && ev->link->counters.status == PS_ST_OK)
		drops = ev->link->counters.c.rx_dropped +
			ev->link->counters.c.rx_missed;
	if (ev->link && ev->link->rates.valid) {
		rated = true;
		rate = ev->link->rates.rx_drops_ps;
	}
	for (unsigned i = 0;
	     e->drv_stats.status == PS_ST_OK && i < e->drv_stats.n; i++) {
		const char *n = e->drv_stats.v[i].name;

		if (strstr(n, "rx") &&
		    (strstr(n, "miss") || strstr(n, "no_buf") ||
		     strstr(n, "discard")))
			drops += e->drv_stats.v[i].value;
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
	if (rated)
		PS_APPEND(f->evidence, _(", %.0f/s during the sample"), rate);
	if (e->rings.rx_max <= e->rings.rx || !drops)
		return PS_CHECK_CLEAR;
	f->severity = rated && rate > 0 ? PS_SEV_BOTTLENECK : PS_SEV_WARNING;
	PS_SET(f->title, _("Receive ring %lld of %lld on %s, with drops"),
	       (long long)e->rings.rx, (long long)e->rings.rx_max,
	       ps_ev_nicname(ev));
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
	.title = N_("softnet backlog drops and time squeeze"),
	.weight = 60,
	.cpu_cause = true,
	.eval = eval_softnet,
};
