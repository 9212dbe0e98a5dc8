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
enum { R_SPEED_MARGIN, R_STEAL_INFO, R_STEAL_WARNING, R_NUMA_REMOTE };
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
	[R_NUMA_REMOTE] = {
		.name = "numa_remote_share",
		.value = 0.25,
		.unit = "share",
		.why = N_("a NIC's interrupts, or the busy time of the cores the "
			  "test used, this much on another NUMA node than the "
			  "NIC's cross the interconnect for every packet"),
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

/* the CPUs of a list by node: on the NIC's, on another, of unknown node */
struct node_count {
	const struct ps_cpu_info *cpu;
	int node, local, remote;
};

static void count_node(int id, void *arg)
{
	struct node_count *nc = arg;
	int n = core_node(nc->cpu, id);

	if (n == nc->node)
		nc->local++;
	else if (n >= 0)
		nc->remote++;
}

/* 1: the list names CPUs only off the node, 0: some on it, -1: unknown */
static int list_remote(const struct ps_cpu_info *c, int node, const char *list)
{
	struct node_count nc = { .cpu = c, .node = node };

	if (!list || !list[0] || ps_cpu_parse_list(list, count_node, &nc) ||
	    nc.local + nc.remote == 0)
		return -1;
	return nc.local == 0;
}

/* one end's NUMA readings: its NIC's node, its queue interrupts' affinity
 * (the effective one where the kernel has it) against that node, and where
 * its process may run */
struct numa_end {
	const char *who; /* "this end", "the far end" */
	const struct ps_cpu_info *cpu;
	const struct ps_pci_info *pci;
	const struct ps_irq_info *irq;
	const char *affinity; /* the process's allowed CPUs, "" unknown */
	int node;
	int lines, remote_lines;	 /* queue lines, those off the node */
	const struct ps_irq_line *first; /* the first off the node */
	bool proc_remote;		 /* may run only off the node */
};

static bool numa_end_read(struct numa_end *e)
{
	e->node = -1;
	if (!e->cpu || e->cpu->status != PS_ST_OK || e->cpu->nnodes <= 1 ||
	    !e->pci || e->pci->status != PS_ST_OK || e->pci->numa_node < 0)
		return false;
	e->node = e->pci->numa_node;
	for (int i = 0;
	     e->irq && e->irq->status == PS_ST_OK && i < e->irq->nlines; i++) {
		const struct ps_irq_line *l = &e->irq->lines[i];
		const char *aff = l->effective[0] ? l->effective : l->affinity;

		if (l->queue < 0)
			continue;
		e->lines++;
		if (list_remote(e->cpu, e->node, aff) == 1) {
			if (!e->remote_lines)
				e->first = l;
			e->remote_lines++;
		}
	}
	e->proc_remote = list_remote(e->cpu, e->node, e->affinity) == 1;
	return true;
}

/* the NIC's interrupts during the step on CPUs off the node: their share
 * of all of them, -1 without the step's per-CPU rates */
static double step_irq_remote(const struct ps_step_result *s,
			      const struct numa_end *e)
{
	double all = 0, off = 0;

	for (int c = 0; s && c < s->irqm_cpus; c++) {
		int n = core_node(e->cpu, s->irqm_cpu[c]);

		for (int l = 0; l < s->irqm_lines; l++) {
			all += s->irqm_rate[l][c];
			if (n >= 0 && n != e->node)
				off += s->irqm_rate[l][c];
		}
	}
	return all > 0 ? off / all : -1;
}

/* the busy time of the cores the test's threads and softirqs used during
 * the step, the share of it on cores off the node; -1 unknown */
static double step_cpu_remote(const struct ps_step_result *s,
			      const struct numa_end *e)
{
	double all = 0, off = 0;

	for (int k = 0; s && s->have_cpu && k < s->cpu.ncores; k++) {
		const struct ps_cpu_core *c = &s->cpu.cores[k];
		bool used = false;
		int n;

		for (int i = 0; i < s->nthread_cpu; i++)
			used |= s->thread_cpu[i] == c->id;
		for (int i = 0; i < s->nrx_cpu; i++)
			used |= s->rx_cpu[i] == c->id;
		if (!used || !c->pct_valid)
			continue;
		n = core_node(e->cpu, c->id);
		all += c->busy_pct;
		if (n >= 0 && n != e->node)
			off += c->busy_pct;
	}
	return all > 0 ? off / all : -1;
}

/* one end's part of the finding; true when it is placed off the node */
static bool numa_end_tell(struct ps_finding *f, const struct numa_end *e,
			  double irq_off, double cpu_off, const char *ifname)
{
	bool off = false;

	PS_APPEND(f->evidence,
		  _("%s%s: %s is on NUMA node %d of %d (local CPUs %s)"),
		  f->evidence[0] ? "; " : "", e->who, e->pci->bdf, e->node,
		  e->cpu->nnodes, e->pci->local_cpulist);
	if (e->remote_lines) {
		const struct ps_irq_line *l = e->first;

		off = true;
		PS_APPEND(f->evidence,
			  _(", %d of its %d queue interrupts may run only off "
			    "it (IRQ %d on CPUs %s"),
			  e->remote_lines, e->lines, l->irq,
			  l->effective[0] ? l->effective : l->affinity);
		if (l->hint[0])
			PS_APPEND(f->evidence, _(", the driver's hint %s"),
				  l->hint);
		PS_APPEND(f->evidence, "%s", ")");
		PS_APPEND(f->remedy,
			  _("%sput %s's queue interrupts on node %d's CPUs "
			    "(echo %s > /proc/irq/%d/smp_affinity_list, each "
			    "line; irqbalance moves them back unless told "
			    "not to)"),
			  f->remedy[0] ? "; " : "", ifname, e->node,
			  e->pci->local_cpulist, l->irq);
	}
	if (irq_off >= rules[R_NUMA_REMOTE].value) {
		off = true;
		PS_APPEND(
			f->evidence,
			_(", %.0f%% of its interrupts during the fastest test "
			  "were taken off it"),
			100 * irq_off);
	}
	if (cpu_off >= rules[R_NUMA_REMOTE].value) {
		off = true;
		PS_APPEND(f->evidence,
			  _(", %.0f%% of the busy time of the cores the test's "
			    "threads and softirqs used was on other nodes"),
			  100 * cpu_off);
	}
	if (e->proc_remote) {
		off = true;
		PS_APPEND(f->evidence,
			  _(", its test may run only on CPUs %s, off it"),
			  e->affinity);
	}
	if (cpu_off >= rules[R_NUMA_REMOTE].value || e->proc_remote)
		PS_APPEND(f->remedy,
			  _("%srun %s's test on node %d (pipescope places its "
			    "threads there unless -A or --no-numa; numactl -N "
			    "%d for other tools)"),
			  f->remedy[0] ? "; " : "", e->who, e->node, e->node);
	return off;
}

static enum ps_check_state eval_numa(const struct ps_evidence *ev,
				     struct ps_finding *f)
{
	const struct ps_step_result *best = ps_run_best(ev->res);
	const struct ps_snapshot *p = ev->peer;
	struct numa_end here = {
		.who = _("this end"),
		.cpu = ev->snap ? &ev->snap->cpu : NULL,
		.pci = ev->pci,
		.irq = ev->irq,
		.affinity = ev->snap ? ev->snap->hdr.affinity : "",
	};
	struct numa_end far = {
		.who = _("the far end"),
		.cpu = p ? &p->cpu : NULL,
		.pci = p ? &p->pci : NULL,
		.irq = p ? &p->irq : NULL,
		/* where a pipescope server kept its data threads, else
		 * where its process may run */
		.affinity = !p			     ? ""
			    : p->hdr.data_threads[0] ? p->hdr.data_threads
						     : p->hdr.affinity,
	};
	bool h, r, off = false;
	double irq_off, cpu_off;

	/* one kernel at both ends (namespaces): its readings once */
	if (p && ev->snap && ps_snapshot_same_host(ev->snap, p))
		far.cpu = NULL;
	h = numa_end_read(&here);
	r = numa_end_read(&far);
	if (!h && !r) {
		if (here.cpu && here.cpu->status == PS_ST_OK &&
		    here.cpu->nnodes <= 1) {
			PS_SET(f->evidence, "%s",
			       _("one NUMA node: nothing is remote"));
			ps_fact(f, "nodes", here.cpu->nnodes, "count");
			return PS_CHECK_CLEAR;
		}
		PS_SET(f->evidence, "%s",
		       _("the NIC's NUMA node or the CPU topology is unknown "
			 "(a virtual NIC has none)"));
		return PS_CHECK_NA;
	}
	f->evidence[0] = 0;
	f->remedy[0] = 0;
	if (h) {
		irq_off = step_irq_remote(best, &here);
		cpu_off = step_cpu_remote(best, &here);
		ps_fact(f, "nic_node", here.node, "node");
		ps_fact(f, "nodes", here.cpu->nnodes, "count");
		ps_fact(f, "remote_irq_lines", here.remote_lines, "count");
		if (irq_off >= 0)
			ps_fact(f, "remote_irq_share", irq_off, "share");
		if (cpu_off >= 0)
			ps_fact(f, "remote_cpu_share", cpu_off, "share");
		off |= numa_end_tell(f, &here, irq_off, cpu_off,
				     ps_ev_ifname(ev));
	}
	if (r) {
		/* the far end's busiest core during the test, from its
		 * probes */
		cpu_off = -1;
		if (best && best->have_peer_cpu) {
			int n = core_node(far.cpu, best->peer_core);

			if (n >= 0)
				cpu_off = n != far.node;
		}
		ps_fact(f, "far_nic_node", far.node, "node");
		ps_fact(f, "far_remote_irq_lines", far.remote_lines, "count");
		off |= numa_end_tell(f, &far, -1, cpu_off,
				     p->pci.ifname[0] ? p->pci.ifname : "IF");
	}
	if (!off)
		return PS_CHECK_CLEAR;
	f->severity = PS_SEV_WARNING;
	ps_crossed(f, &rules[R_NUMA_REMOTE]);
	PS_SET(f->title, "%s",
	       _("Work runs on another NUMA node than the NIC's"));
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
