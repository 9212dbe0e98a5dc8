/* check-host.c: the host checks of "pipescope check": the negotiated link
 * speed and duplex, a virtual NIC's speed, NUMA locality, the CPU frequency
 * governor and steal time (the PCIe link: check-pcie.c) */
#include "config.h"

#include <ctype.h>
#include <linux/ethtool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "nls.h"

/* the thresholds of the host checks ("pipescope check --rules") */
enum { R_SPEED_MARGIN, R_STEAL_INFO, R_STEAL_WARNING };
static const struct ps_rule rules[] = {
	[R_SPEED_MARGIN] = {
		.name = "link_speed_margin",
		.value = 0.99,
		.unit = "ratio",
		.why = N_("a link negotiated below this part of the speed both "
			  "ends support runs slower than it could"),
	},
	[R_STEAL_INFO] = {
		.name = "steal_info",
		.value = 1,
		.unit = "%",
		.why = N_("a VM whose hypervisor steals this much CPU time is "
			  "told so"),
	},
	[R_STEAL_WARNING] = {
		.name = "steal_warning",
		.value = 5,
		.unit = "%",
		.why = N_("steal time this high (now or during the fastest "
			  "test) is a warning"),
	},
};
PS_RULE_FAMILY(host, rules);

/* ---- link speed and duplex ------------------------------------------ */

/* "10000baseT/Full" -> 10000 (Mb/s), 0 when not a speed */
static long mode_mbps(const char *mode, bool *half)
{
	char *end;
	long v = strtol(mode, &end, 10);

	if (end == mode || strncmp(end, "base", 4))
		return 0;
	if (half)
		*half = strstr(end, "/Half") != NULL;
	return v;
}

static long max_mode(const struct ps_eth_names *n)
{
	long best = 0;

	for (unsigned i = 0; i < n->n; i++) {
		long v = mode_mbps(n->v[i], NULL);

		if (v > best)
			best = v;
	}
	return best;
}

static enum ps_check_state eval_link_speed(const struct ps_evidence *ev,
					   struct ps_finding *f)
{
	const struct ps_ethtool_info *e = ev->eth;
	long sup, adv, partner, both;
	double speed;
	char cur[32], cap[32];
	const char *ifn = ps_ev_nicname(ev);

	if (!e || e->linkmodes.status != PS_ST_OK) {
		PS_SET(f->evidence, "%s",
		       e ? e->linkmodes.reason : _("ethtool was not sampled"));
		return PS_CHECK_NA;
	}
	if (ps_ev_virtual(ev) || e->linkmodes.speed_bps <= 0) {
		PS_SET(f->evidence, "%s",
		       _("a virtual or unknown-speed interface has no "
			 "negotiated link"));
		return PS_CHECK_NA;
	}
	speed = (double)e->linkmodes.speed_bps;
	sup = max_mode(&e->linkmodes.supported);
	adv = max_mode(&e->linkmodes.advertised);
	partner = max_mode(&e->linkmodes.partner);
	both = sup;
	if (partner > 0 && partner < both)
		both = partner;
	ps_fmt_bps(cur, sizeof(cur), speed);
	ps_fmt_bps(cap, sizeof(cap), both * 1e6);
	ps_fact(f, "link_speed", speed, "bit/s");
	if (sup > 0)
		ps_fact(f, "supported_speed", sup * 1e6, "bit/s");
	if (adv > 0)
		ps_fact(f, "advertised_speed", adv * 1e6, "bit/s");
	if (partner > 0)
		ps_fact(f, "partner_speed", partner * 1e6, "bit/s");
	PS_SET(f->evidence, _("%s: %s, %s duplex"), ifn, cur,
	       e->linkmodes.duplex == DUPLEX_HALF   ? _("half")
	       : e->linkmodes.duplex == DUPLEX_FULL ? _("full")
						    : _("unknown"));
	if (sup > 0)
		PS_APPEND(f->evidence, _("; this port supports up to %ld Mb/s"),
			  sup);
	if (adv > 0)
		PS_APPEND(f->evidence, _(", advertises up to %ld Mb/s"), adv);
	if (partner > 0)
		PS_APPEND(f->evidence, _(", the link partner up to %ld Mb/s"),
			  partner);

	f->scope = PS_SCOPE_SHARED;
	if (e->linkmodes.duplex == DUPLEX_HALF) {
		f->id = "link_half_duplex";
		f->severity = PS_SEV_BOTTLENECK;
		f->ceiling_bps = speed / 2;
		PS_SET(f->ceiling_what, _("half duplex at %s"), cur);
		PS_SET(f->title, _("%s runs half duplex at %s"), ifn, cur);
		PS_SET(f->remedy,
		       _("set both ends to autonegotiate (ethtool -s %s "
			 "autoneg on) or force the same speed and full duplex "
			 "on both (ethtool -s %s speed %.0f duplex full "
			 "autoneg off); check the cable"),
		       ifn, ifn, speed / 1e6);
		return PS_CHECK_FIRED;
	}
	if (both > 0 && speed < both * 1e6 * rules[R_SPEED_MARGIN].value) {
		f->id = "link_speed";
		f->severity = PS_SEV_BOTTLENECK;
		ps_crossed(f, &rules[R_SPEED_MARGIN]);
		f->ceiling_bps = speed;
		PS_SET(f->ceiling_what, _("negotiated link speed %s"), cur);
		PS_SET(f->title,
		       _("%s negotiated %s although both ends support %s"), ifn,
		       cur, cap);
		PS_SET(f->remedy,
		       _("check the cable/optic and the switch port, then: "
			 "ethtool -s %s autoneg on (or advertise %ld Mb/s on "
			 "both ends)"),
		       ifn, both);
		return PS_CHECK_FIRED;
	}
	return PS_CHECK_CLEAR;
}

const struct ps_check_ops ps_check_link_speed = {
	.id = "link_speed",
	.family = "host",
	.title = N_("negotiated link speed and duplex"),
	.weight = 95,
	.eval = eval_link_speed,
};

/* ---- virtual NIC ----------------------------------------------------- */

static enum ps_check_state eval_virtual(const struct ps_evidence *ev,
					struct ps_finding *f)
{
	const char *ifn = ps_ev_ifname(ev);
	const char *drv = "";
	char sp[32] = "";

	if (!ifn[0]) {
		PS_SET(f->evidence, "%s", _("no interface was chosen"));
		return PS_CHECK_NA;
	}
	if (!ps_ev_virtual(ev)) {
		PS_SET(f->evidence, _("%s is a physical NIC"), ifn);
		return PS_CHECK_CLEAR;
	}
	if (ev->eth && ev->eth->drvinfo.status == PS_ST_OK)
		drv = ev->eth->drvinfo.driver;
	else if (ev->link && ev->link->kind[0])
		drv = ev->link->kind;
	if (ev->eth && ev->eth->linkmodes.status == PS_ST_OK &&
	    ev->eth->linkmodes.speed_bps > 0)
		ps_fmt_bps(sp, sizeof(sp),
			   (double)ev->eth->linkmodes.speed_bps);
	if (sp[0])
		ps_fact(f, "reported_speed",
			(double)ev->eth->linkmodes.speed_bps, "bit/s");
	f->severity = PS_SEV_INFO;
	PS_SET(f->title,
	       _("%s is a virtual interface: its speed is not a physical "
		 "limit"),
	       ifn);
	PS_SET(f->evidence, _("%s (%s) reports %s"), ifn,
	       drv[0] ? drv : _("software device"), sp[0] ? sp : _("no speed"));
	PS_APPEND(f->evidence, "%s",
		  _("; the limit is the CPU that moves the packets, or on a VM "
		    "the host's or cloud instance's bandwidth allowance"));
	PS_SET(f->remedy, "%s",
	       _("compare with the instance type's documented network "
		 "bandwidth; test between two hosts on the same hypervisor to "
		 "separate the VM from the network"));
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_virtual_nic = {
	.id = "virtual_nic",
	.family = "host",
	.title = N_("virtual NIC"),
	.weight = 5,
	.eval = eval_virtual,
};

/* ---- NUMA ------------------------------------------------------------ */

static int core_node(const struct ps_cpu_info *c, int cpu)
{
	for (int i = 0; i < c->ncores; i++)
		if (c->cores[i].id == cpu)
			return c->cores[i].node;
	return -1;
}

static enum ps_check_state eval_numa(const struct ps_evidence *ev,
				     struct ps_finding *f)
{
	const struct ps_cpu_info *c = ev->snap ? &ev->snap->cpu : NULL;
	int node, far_irq = -1, far_thr = -1;
	const struct ps_step_result *best = ps_run_best(ev->res);

	if (!c || c->status != PS_ST_OK || !ev->pci ||
	    ev->pci->status != PS_ST_OK) {
		PS_SET(f->evidence, "%s",
		       _("the NIC's PCI function or the CPU topology is "
			 "unknown"));
		return PS_CHECK_NA;
	}
	node = ev->pci->numa_node;
	ps_fact(f, "nic_node", node, "node");
	ps_fact(f, "nodes", c->nnodes, "count");
	if (c->nnodes <= 1 || node < 0) {
		PS_SET(f->evidence, _("one NUMA node (NIC node %d)"), node);
		return PS_CHECK_CLEAR;
	}
	if (ev->irq && ev->irq->busiest_cpu >= 0 &&
	    core_node(c, ev->irq->busiest_cpu) >= 0 &&
	    core_node(c, ev->irq->busiest_cpu) != node)
		far_irq = ev->irq->busiest_cpu;
	if (best)
		for (int i = 0; i < best->nthread_cpu; i++)
			if (core_node(c, best->thread_cpu[i]) >= 0 &&
			    core_node(c, best->thread_cpu[i]) != node)
				far_thr = best->thread_cpu[i];
	PS_SET(f->evidence, _("%s is on NUMA node %d (local CPUs %s) of %d"),
	       ev->pci->bdf, node, ev->pci->local_cpulist, c->nnodes);
	if (far_irq < 0 && far_thr < 0)
		return PS_CHECK_CLEAR;
	if (far_irq >= 0)
		ps_fact(f, "far_irq_cpu", far_irq, "cpu");
	if (far_thr >= 0)
		ps_fact(f, "far_thread_cpu", far_thr, "cpu");
	if (far_irq >= 0)
		PS_APPEND(f->evidence,
			  _("; most NIC interrupts go to cpu%d on node %d"),
			  far_irq, core_node(c, far_irq));
	if (far_thr >= 0)
		PS_APPEND(f->evidence,
			  _("; a test thread ran on cpu%d on node %d"), far_thr,
			  core_node(c, far_thr));
	f->severity = PS_SEV_WARNING;
	PS_SET(f->title,
	       _("Work runs on the far NUMA node from the NIC (node %d)"),
	       node);
	PS_SET(f->remedy,
	       _("keep interrupts and threads on node %d: set_irq_affinity -x "
		 "local %s (or write /proc/irq/N/smp_affinity_list), and run "
		 "the test with numactl -N %d or -A with CPUs from %s"),
	       node, ps_ev_ifname(ev), node, ev->pci->local_cpulist);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_numa = {
	.id = "numa",
	.family = "host",
	.title = N_("NUMA locality"),
	.weight = 40,
	.eval = eval_numa,
};

/* ---- governor -------------------------------------------------------- */

static enum ps_check_state eval_governor(const struct ps_evidence *ev,
					 struct ps_finding *f)
{
	const struct ps_cpu_info *c = ev->snap ? &ev->snap->cpu : NULL;
	int nps = 0, nknown = 0;
	const char *other = NULL;

	if (!c || c->status != PS_ST_OK) {
		PS_SET(f->evidence, "%s", _("the CPU probe was not sampled"));
		return PS_CHECK_NA;
	}
	for (int i = 0; i < c->ncores; i++) {
		const char *g = c->cores[i].governor;

		if (!g[0])
			continue;
		nknown++;
		if (!strcmp(g, "powersave"))
			nps++;
		else if (strcmp(g, "performance"))
			other = g;
	}
	ps_fact(f, "cores", c->ncores, "count");
	ps_fact(f, "governor_known", nknown, "count");
	ps_fact(f, "powersave", nps, "count");
	if (!nknown) {
		PS_SET(f->evidence, "%s",
		       c->freq_reason[0] ? c->freq_reason
					 : _("no cpufreq governor (a VM, or "
					     "frequency scaling is off)"));
		return PS_CHECK_NA;
	}
	if (!nps && !other) {
		PS_SET(f->evidence,
		       _("%d of %d cores use the performance governor"), nknown,
		       c->ncores);
		return PS_CHECK_CLEAR;
	}
	if (nps) {
		f->severity = PS_SEV_WARNING;
		PS_SET(f->title, _("CPU governor powersave on %d of %d cores"),
		       nps, c->ncores);
		PS_SET(f->evidence,
		       _("%d cores run the powersave governor: clocks ramp up "
			 "late and interrupts wake sleeping cores"),
		       nps);
	} else {
		f->severity = PS_SEV_INFO;
		PS_SET(f->title, _("CPU governor %s"), other);
		PS_SET(f->evidence,
		       _("the %s governor scales the clock with load; "
			 "benchmarks are steadier with performance"),
		       other);
	}
	PS_SET(f->remedy, "%s",
	       _("cpupower frequency-set -g performance (or tuned-adm profile "
		 "network-throughput; BIOS: maximum performance)"));
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_governor = {
	.id = "governor",
	.family = "host",
	.title = N_("CPU frequency governor"),
	.weight = 30,
	.eval = eval_governor,
};

/* ---- steal ----------------------------------------------------------- */

static enum ps_check_state eval_steal(const struct ps_evidence *ev,
				      struct ps_finding *f)
{
	const struct ps_cpu_info *c = ev->snap ? &ev->snap->cpu : NULL;
	const struct ps_step_result *best = ps_run_best(ev->res);
	double steal, during = -1;

	if (!c || c->status != PS_ST_OK || !c->all.pct_valid ||
	    c->ncolumns < 8) {
		PS_SET(f->evidence, "%s", _("no steal time column"));
		return PS_CHECK_NA;
	}
	steal = c->all.pct[PS_CPU_STEAL];
	if (best && best->have_cpu && best->cpu.all.pct_valid)
		during = best->cpu.all.pct[PS_CPU_STEAL];
	ps_fact(f, "steal", steal, "%");
	if (during >= 0)
		ps_fact(f, "steal_during_test", during, "%");
	PS_SET(f->evidence, _("steal %.1f%% of CPU time (%s)"), steal,
	       c->basis == PS_CPU_BASIS_INTERVAL ? _("over the last interval")
						 : _("since boot"));
	if (during >= 0)
		PS_APPEND(f->evidence, _(", %.1f%% during the fastest test"),
			  during);
	if (steal < rules[R_STEAL_INFO].value &&
	    during < rules[R_STEAL_INFO].value)
		return PS_CHECK_CLEAR;
	ps_crossed(f, &rules[R_STEAL_INFO]);
	f->severity = PS_SEV_INFO;
	if (steal >= rules[R_STEAL_WARNING].value ||
	    during >= rules[R_STEAL_WARNING].value) {
		f->severity = PS_SEV_WARNING;
		ps_crossed(f, &rules[R_STEAL_WARNING]);
	}
	PS_SET(f->title,
	       _("The hypervisor takes CPU time from this VM (steal %.1f%%)"),
	       during > steal ? during : steal);
	PS_SET(f->remedy, "%s",
	       _("a VM with dedicated cores, or fewer neighbours on the host; "
		 "steal time is CPU the guest wanted and did not get"));
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_steal = {
	.id = "steal",
	.family = "host",
	.title = N_("steal time"),
	.weight = 35,
	.eval = eval_steal,
};
