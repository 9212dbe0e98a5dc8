/* check-platform.c: the host checks of the platform probe and the clock
 * under load (probe-platform.h, the cpu probe's cpufreq): the IOMMU
 * translating the NIC's DMA, deep idle states, SMT, busy cores below
 * their maximum clock during the tests; and the socket buffers against
 * the research networks' table by line rate. Advice, never a ceiling: a
 * finding here is a warning or information and never outranks one whose
 * ceiling explains the rate (their family is "host": the far end's
 * snapshot is checked the same way) */
#include "config.h"

#include <math.h>
#include <string.h>

#include "check.h"
#include "nls.h"

enum {
	R_CSTATE_DEEP,
	R_CLOCK_LOW,
	R_BUFFERS_SLOW,
	R_BUFFERS_10G,
	R_BUFFERS_40G,
	R_MRRS_SMALL,
	R_BIG_TCP_LINE,
	R_TXQLEN_MIN
};
static const struct ps_rule rules[] = {
	[R_CSTATE_DEEP] = {
		.name = "cstate_deep_us",
		.value = 10,
		.unit = "us",
		.why = N_("an idle state whose exit latency is above this is "
			  "deep: a core asleep in it answers an interrupt that "
			  "much later (the Intel and NVIDIA tuning guides "
			  "disable them on throughput hosts)"),
	},
	[R_CLOCK_LOW] = {
		.name = "busy_clock_low",
		.value = 0.8,
		.unit = "ratio",
		.why = N_("busy cores (at least 50% in a reading of a test) "
			  "running on average below this part of their "
			  "maximum clock are slowed by power management or "
			  "heat (mlnx_tune warns on the current clock below "
			  "the maximum)"),
	},
	[R_BUFFERS_SLOW] = {
		.name = "buffers_table_slow",
		.value = 64.0 * 1024 * 1024,
		.unit = "bytes",
		.why = N_("below 10 Gbit/s, ESnet fasterdata's host tuning "
			  "(fasterdata_tuning.py) sets rmem_max and wmem_max "
			  "to this, tcp_rmem and tcp_wmem max to half"),
	},
	[R_BUFFERS_10G] = {
		.name = "buffers_table_10g",
		.value = 256.0 * 1024 * 1024,
		.unit = "bytes",
		.why = N_("the same at 10 Gbit/s and more"),
	},
	[R_BUFFERS_40G] = {
		.name = "buffers_table_40g",
		.value = 512.0 * 1024 * 1024,
		.unit = "bytes",
		.why = N_("the same at 40 Gbit/s and more"),
	},
	[R_MRRS_SMALL] = {
		.name = "pcie_read_request_small",
		.value = 512,
		.unit = "bytes",
		.why = N_("a NIC's MaxReadReq below this fetches transmit "
			  "buffers in many small reads (mlnx_tune reports it; "
			  "the vendors' guides set 4096)"),
	},
	[R_BIG_TCP_LINE] = {
		.name = "big_tcp_line",
		.value = 100e9,
		.unit = "bit/s",
		.why = N_("from this line rate a NIC at 64 KB GSO and GRO "
			  "sizes is told about BIG TCP (cilium's tuning "
			  "guide: 192 KB packets on mlx4, mlx5, ice)"),
	},
	[R_TXQLEN_MIN] = {
		.name = "txqueuelen_min",
		.value = 1000,
		.unit = "packets",
		.why = N_("a transmit queue shorter than this on a 10 Gbit/s "
			  "NIC or faster (fasterdata's pacing profile sets "
			  "10000)"),
	},
};
PS_RULE_FAMILY(platform, rules);

static const struct ps_platform_info *platform_of(const struct ps_evidence *ev)
{
	return ev->snap ? &ev->snap->platform : NULL;
}

/* ---- IOMMU ------------------------------------------------------------ */

static enum ps_check_state eval_iommu(const struct ps_evidence *ev,
				      struct ps_finding *f)
{
	const struct ps_platform_info *p = platform_of(ev);
	const char *mode, *nic = ps_ev_nicname(ev);

	if (!p || p->iommu_status != PS_ST_OK) {
		PS_SET(f->evidence, "%s",
		       p && p->iommu_reason[0] ? p->iommu_reason
					       : _("the IOMMU was not read"));
		return PS_CHECK_NA;
	}
	mode = ps_platform_iommu_mode(p);
	if (p->iommu_groups >= 0)
		ps_fact(f, "iommu_groups", p->iommu_groups, "count");
	PS_SET(f->evidence, _("%d IOMMU groups; kernel command line: %s"),
	       p->iommu_groups,
	       p->iommu_args[0] ? p->iommu_args
				: _("no "
				    "IOMMU "
				    "words"));
	if (p->nic_domain[0])
		PS_APPEND(f->evidence, _("; %s's IOMMU group maps DMA as %s"),
			  nic, p->nic_domain);
	if (strcmp(mode, "translated")) {
		if (!*mode)
			PS_APPEND(f->evidence, "%s",
				  _("; how the NIC's DMA is mapped is not "
				    "known"));
		return *mode ? PS_CHECK_CLEAR : PS_CHECK_NA;
	}
	ps_fact(f, "translated", 1, "bool");
	f->severity = PS_SEV_WARNING;
	PS_SET(f->title,
	       _("The IOMMU translates every DMA of %s (%s): each packet's "
		 "buffers are mapped and unmapped"),
	       nic, p->nic_domain[0] ? p->nic_domain : _("translated"));
	if (!strcmp(p->nic_domain, "DMA"))
		PS_APPEND(f->evidence, "%s",
			  _(" (strict: every unmap waits for the IOTLB flush; "
			    "DMA-FQ batches them)"));
	PS_SET(f->remedy, "%s",
	       _("add iommu=pt to the kernel command line (GRUB_CMDLINE_LINUX "
		 "in /etc/default/grub, update-grub, reboot): the host's own "
		 "DMA passes through, while devices given to guests (VFIO, "
		 "SR-IOV) keep their IOMMU"));
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_iommu = {
	.id = "iommu",
	.family = "host",
	.title = N_("IOMMU mode"),
	.weight = 25,
	.host_wide = true,
	.eval = eval_iommu,
};

/* ---- idle states ------------------------------------------------------ */

static enum ps_check_state eval_cstates(const struct ps_evidence *ev,
					struct ps_finding *f)
{
	const struct ps_platform_info *p = platform_of(ev);
	long deepest;
	int n;

	if (!p || p->idle_status != PS_ST_OK) {
		PS_SET(f->evidence, "%s",
		       p && p->idle_reason[0] ? p->idle_reason
					      : _("the idle states were not "
						  "read"));
		return PS_CHECK_NA;
	}
	if (!p->nstates) {
		PS_SET(f->evidence, _("no idle states (cpuidle driver %s)"),
		       p->idle_driver[0] ? p->idle_driver : "?");
		return PS_CHECK_CLEAR;
	}
	n = ps_platform_deep_states(p, (long)rules[R_CSTATE_DEEP].value,
				    &deepest);
	ps_fact(f, "states", p->nstates, "count");
	ps_fact(f, "deep_enabled", n, "count");
	PS_SET(f->evidence, _("cpu0's idle states (%s):"),
	       p->idle_driver[0] ? p->idle_driver : "?");
	for (int i = 0; i < p->nstates; i++) {
		const struct ps_platform_cstate *s = &p->states[i];

		if (s->latency_us >= 0)
			PS_APPEND(f->evidence, _(" %s %ld us%s"), s->name,
				  s->latency_us,
				  s->disabled ? _(" (disabled)") : "");
		else
			PS_APPEND(f->evidence, " %s%s", s->name,
				  s->disabled ? _(" (disabled)") : "");
	}
	if (!n)
		return PS_CHECK_CLEAR;
	ps_fact(f, "deepest_latency", (double)deepest, "us");
	ps_crossed(f, &rules[R_CSTATE_DEEP]);
	f->severity = PS_SEV_INFO;
	PS_SET(f->title,
	       P_("%d deep idle state enabled: a sleeping core wakes up to "
		  "%ld us late for an interrupt",
		  "%d deep idle states enabled: a sleeping core wakes up to "
		  "%ld us late for an interrupt",
		  n),
	       n, deepest);
	PS_SET(f->remedy,
	       _("cpupower idle-set -D %.0f disables the idle states deeper "
		 "than %.0f us until the next boot (for good: "
		 "intel_idle.max_cstate=1 on the kernel command line, or the "
		 "BIOS's C-state setting); worth it on a host that moves "
		 "traffic, not on a laptop"),
	       rules[R_CSTATE_DEEP].value, rules[R_CSTATE_DEEP].value);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_cstates = {
	.id = "cstates",
	.family = "host",
	.title = N_("idle states (C-states)"),
	.weight = 15,
	.host_wide = true,
	.eval = eval_cstates,
};

/* ---- SMT -------------------------------------------------------------- */

static enum ps_check_state eval_smt(const struct ps_evidence *ev,
				    struct ps_finding *f)
{
	const struct ps_platform_info *p = platform_of(ev);
	int ncores = ev->snap ? ev->snap->cpu.ncores : 0;

	if (!p || p->smt_status != PS_ST_OK) {
		PS_SET(f->evidence, "%s",
		       p && p->smt_reason[0] ? p->smt_reason
					     : _("SMT was not read"));
		return PS_CHECK_NA;
	}
	ps_fact(f, "smt_active", p->smt_active, "bool");
	PS_SET(f->evidence, _("SMT %s (control: %s)"),
	       p->smt_active ? _("active") : _("not active"),
	       p->smt_control[0] ? p->smt_control : "?");
	if (!p->smt_active)
		return PS_CHECK_CLEAR;
	f->severity = PS_SEV_INFO;
	PS_SET(f->title,
	       _("SMT is on: the %d CPUs are hardware threads, two to a core "
		 "sharing its execution units"),
	       ncores);
	PS_SET(f->remedy, "%s",
	       _("count a busy CPU as half a core when two of the test's "
		 "threads (or a thread and its softirq) are siblings (lscpu "
		 "-e shows them); on a dedicated test host, echo off > "
		 "/sys/devices/system/cpu/smt/control (until the next boot) "
		 "gives each thread a core"));
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_smt = {
	.id = "smt",
	.family = "host",
	.title = N_("SMT (hyper-threading)"),
	.weight = 5,
	.host_wide = true,
	.eval = eval_smt,
};

/* ---- the clock under load ---------------------------------------------- */

static enum ps_check_state eval_busy_clock(const struct ps_evidence *ev,
					   struct ps_finding *f)
{
	const struct ps_step_result *s = NULL;
	const struct ps_cpu_info *c = ev->snap ? &ev->snap->cpu : NULL;

	/* the step with the most readings of busy cores */
	for (int i = 0; ev->res && i < ev->res->nsteps; i++) {
		const struct ps_step_result *x = &ev->res->steps[i];

		if (x->state == PS_STEP_DONE && x->freq_samples > 0 &&
		    (!s || x->freq_samples > s->freq_samples))
			s = x;
	}
	if (!s) {
		PS_SET(f->evidence, "%s",
		       !ev->res ? _("needs a test: the clock under load")
		       : c && c->freq_status != PS_ST_OK && c->freq_reason[0]
			       ? c->freq_reason
			       : _("no core was busy with a clock to read "
				   "(cpufreq) during the tests"));
		return PS_CHECK_NA;
	}
	ps_fact(f, "clock_ratio", s->freq_ratio, "ratio");
	ps_fact(f, "clock_ratio_min", s->freq_ratio_min, "ratio");
	ps_fact(f, "max_clock", (double)s->freq_max_khz * 1e3, "Hz");
	ps_fact(f, "readings", s->freq_samples, "count");
	PS_SET(f->evidence,
	       _("busy cores ran at %.0f%% of their maximum clock (%.0f MHz) "
		 "on average over %d core readings of a test, %.0f%% at the "
		 "lowest"),
	       s->freq_ratio * 100, s->freq_max_khz / 1e3, s->freq_samples,
	       s->freq_ratio_min * 100);
	if (s->freq_ratio >= rules[R_CLOCK_LOW].value)
		return PS_CHECK_CLEAR;
	ps_crossed(f, &rules[R_CLOCK_LOW]);
	f->severity = PS_SEV_WARNING;
	PS_SET(f->title,
	       _("Busy cores ran at %.0f%% of their maximum clock during the "
		 "tests"),
	       s->freq_ratio * 100);
	PS_SET(f->remedy, "%s",
	       _("cpupower frequency-set -g performance, the BIOS's maximum "
		 "performance power profile, and a look at the cooling (a "
		 "package that runs hot lowers its clock)"));
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_busy_clock = {
	.id = "busy_clock",
	.family = "host",
	.title = N_("CPU clock under load"),
	.weight = 32,
	.needs_test = true,
	.eval = eval_busy_clock,
};

/* ---- socket buffers against the research networks' table -------------- */

/* ESnet fasterdata's host-tuning table, by the NIC's line rate: the
 * largest socket buffer the kernel lets a socket have (net.core.rmem_max,
 * wmem_max) and TCP's autotuning maximum (tcp_rmem, tcp_wmem: half) */
static double table_core_max(double line_bps)
{
	return line_bps >= 40e9	  ? rules[R_BUFFERS_40G].value
	       : line_bps >= 10e9 ? rules[R_BUFFERS_10G].value
				  : rules[R_BUFFERS_SLOW].value;
}

static enum ps_check_state eval_buffers_table(const struct ps_evidence *ev,
					      struct ps_finding *f)
{
	static const enum ps_sysctl_id ids[4] = { PS_SYSCTL_RMEM_MAX,
						  PS_SYSCTL_WMEM_MAX,
						  PS_SYSCTL_TCP_RMEM,
						  PS_SYSCTL_TCP_WMEM };
	static const char *const keys[4] = { "rmem_max", "wmem_max",
					     "tcp_rmem_max", "tcp_wmem_max" };
	double line = ps_ev_line_bps(ev), core;
	long long v[4];
	char ls[32], want[2][32], have[32], fix[400] = "";
	int low = 0;

	for (int i = 0; i < 4; i++)
		v[i] = ps_ev_sysctl(ev, ids[i]);
	if (v[0] <= 0 || v[1] <= 0 || v[2] <= 0 || v[3] <= 0) {
		PS_SET(f->evidence, "%s",
		       _("the socket buffer settings were not read"));
		return PS_CHECK_NA;
	}
	if (!(line > 0)) {
		PS_SET(f->evidence, "%s",
		       _("no line rate (a virtual NIC, or ethtool not read) "
			 "to size the table's buffers by"));
		return PS_CHECK_NA;
	}
	core = table_core_max(line);
	ps_fmt_bps(ls, sizeof(ls), line);
	ps_fmt_bytes(want[0], sizeof(want[0]), core, 'A');
	ps_fmt_bytes(want[1], sizeof(want[1]), core / 2, 'A');
	ps_fact(f, "line_rate", line, "bit/s");
	ps_fact(f, "table_core_max", core, "bytes");
	ps_fact(f, "table_tcp_max", core / 2, "bytes");
	PS_SET(f->evidence,
	       _("at %s the fasterdata table has rmem_max and wmem_max %s, "
		 "tcp_rmem and tcp_wmem max %s; this end:"),
	       ls, want[0], want[1]);
	for (int i = 0; i < 4; i++) {
		double w = i < 2 ? core : core / 2;

		ps_fact(f, keys[i], (double)v[i], "bytes");
		ps_fmt_bytes(have, sizeof(have), (double)v[i], 'A');
		PS_APPEND(f->evidence, " %s %s%s", keys[i], have,
			  (double)v[i] < w ? _(" (below)") : "");
		if ((double)v[i] >= w)
			continue;
		low++;
		/* raise the maximum only: the triple keeps its min and default
		 */
		if (i < 2)
			ps_appendf(fix, sizeof(fix),
				   "%ssysctl -w net.core.%s=%.0f",
				   fix[0] ? "; " : "", keys[i], w);
		else
			ps_appendf(fix, sizeof(fix),
				   "%ssysctl -w net.ipv4.%s=\"%lld %lld %.0f\"",
				   fix[0] ? "; " : "",
				   i == 2 ? "tcp_rmem" : "tcp_wmem",
				   ev->snap->sysctl.val[ids[i]].v[0],
				   ev->snap->sysctl.val[ids[i]].v[1], w);
	}
	if (!low)
		return PS_CHECK_CLEAR;
	ps_crossed(f, &rules[line >= 40e9   ? R_BUFFERS_40G
			     : line >= 10e9 ? R_BUFFERS_10G
					    : R_BUFFERS_SLOW]);
	f->severity = PS_SEV_INFO;
	PS_SET(f->title,
	       P_("%d socket buffer limit below the fasterdata table for %s",
		  "%d socket buffer limits below the fasterdata table for %s",
		  low),
	       low, ls);
	PS_SET(f->remedy,
	       _("%s (and in /etc/sysctl.d/ to keep it); a long path needs "
		 "them: the measured window check says whether this one "
		 "did"),
	       fix);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_buffers_table = {
	.id = "buffers_table",
	.family = "host",
	.title = N_("socket buffers (fasterdata table)"),
	.weight = 10,
	.eval = eval_buffers_table,
};

/* ---- PCIe payload sizes ------------------------------------------------ */

/* a TLP's share of payload at this MaxPayload: 24 bytes of header,
 * sequence number and LCRC around each (pcie-bw.h's basis) */
static double tlp_efficiency(int mps)
{
	return (double)mps / (mps + 24);
}

static enum ps_check_state eval_pcie_payload(const struct ps_evidence *ev,
					     struct ps_finding *f)
{
	const struct ps_pci_info *p = ev->pci;
	double now, best;
	bool small_mps, small_mrrs;

	if (!p || p->payload_status != PS_ST_OK || p->mps <= 0) {
		PS_SET(f->evidence, "%s",
		       p && p->payload_reason[0] ? p->payload_reason
						 : _("the PCIe payload sizes "
						     "were not read"));
		return PS_CHECK_NA;
	}
	now = tlp_efficiency(p->mps);
	best = p->mps_cap > p->mps ? tlp_efficiency(p->mps_cap) : now;
	ps_fact(f, "max_payload", p->mps, "bytes");
	if (p->mps_cap > 0)
		ps_fact(f, "max_payload_cap", p->mps_cap, "bytes");
	if (p->mrrs > 0)
		ps_fact(f, "max_read_request", p->mrrs, "bytes");
	PS_SET(f->evidence,
	       _("%s: MaxPayload %d bytes (the device supports %d), "
		 "MaxReadReq %d bytes; %.0f%% of each write is payload"),
	       p->bdf, p->mps, p->mps_cap, p->mrrs, now * 100);
	/* the MaxPayload a port allows is the smallest on the path: below
	 * the device's own only when a bridge or the BIOS set it so */
	small_mps = p->mps < p->mps_cap && p->mps < 256;
	small_mrrs = p->mrrs > 0 && p->mrrs < rules[R_MRRS_SMALL].value;
	if (!small_mps && !small_mrrs)
		return PS_CHECK_CLEAR;
	if (small_mps)
		PS_APPEND(f->evidence,
			  _("; at %d bytes it would be %.0f%% (a %.0f%% larger "
			    "usable PCIe rate)"),
			  p->mps_cap, best * 100, (best / now - 1) * 100);
	if (small_mrrs) {
		ps_crossed(f, &rules[R_MRRS_SMALL]);
		PS_APPEND(f->evidence,
			  _("; reads of %d bytes: the NIC fetches each "
			    "transmit buffer in that many round trips to "
			    "memory"),
			  p->mrrs);
	}
	f->severity = PS_SEV_INFO;
	PS_SET(f->title,
	       _("PCIe payload sizes of %s are small: MaxPayload %d, "
		 "MaxReadReq %d bytes"),
	       p->bdf, p->mps, p->mrrs);
	PS_SET(f->remedy,
	       _("the BIOS's PCIe settings (MaxPayload \"auto\" or the "
		 "largest the root port takes; MaxReadReq 4096, as the NIC "
		 "vendors' tuning guides give it); setpci -s %s "
		 "CAP_EXP+8.w shows the device control word"),
	       p->bdf);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_pcie_payload = {
	.id = "pcie_payload",
	.family = "host",
	.title = N_("PCIe payload sizes"),
	.weight = 12,
	.eval = eval_pcie_payload,
};

/* ---- NIC features the tuning guides turn on or off -------------------- */

/* RFS: RPS steers by the flow's hash, RFS to the CPU where its reader
 * runs; aRFS has the NIC do it, with ntuple filters (scaling.rst) */
static enum ps_check_state eval_rfs(const struct ps_evidence *ev,
				    struct ps_finding *f)
{
	const struct ps_irq_info *q = ev->irq;
	const struct ps_ethtool_info *e = ev->eth;
	const struct ps_eth_feature *nt =
		e && e->features.status == PS_ST_OK
			? ps_ethtool_feature(e, "rx-ntuple-filter")
			: NULL;
	long long entries = ps_ev_sysctl(ev, PS_SYSCTL_RPS_SOCK_FLOW_ENTRIES);
	const char *ifn = ps_ev_ifname(ev);
	int rps = 0, flows = 0;

	if (!q || q->queues_status != PS_ST_OK || q->nrxq <= 0 || entries < 0) {
		PS_SET(f->evidence, "%s",
		       _("the receive queues or rps_sock_flow_entries were "
			 "not read"));
		return PS_CHECK_NA;
	}
	for (int i = 0; i < q->nrxq; i++) {
		rps += q->rxq[i].rps_on;
		flows += q->rxq[i].rps_flow_cnt > 0;
	}
	ps_fact(f, "rps_sock_flow_entries", (double)entries, "count");
	ps_fact(f, "rx_queues", q->nrxq, "count");
	ps_fact(f, "queues_with_rps", rps, "count");
	ps_fact(f, "queues_with_flow_table", flows, "count");
	PS_SET(f->evidence,
	       _("%s: RPS on %d of %d receive queues, a flow table on %d; "
		 "rps_sock_flow_entries %lld"),
	       ifn, rps, q->nrxq, flows, entries);
	if (nt)
		PS_APPEND(f->evidence, _("; ntuple filters %s"),
			  nt->active ? _("on") : _("off"));
	if (!rps)
		return PS_CHECK_CLEAR; /* RPS off: rps_off's matter */
	f->severity = PS_SEV_INFO;
	if (!entries || !flows) {
		PS_SET(f->title,
		       _("RPS without RFS on %s: packets go to a CPU by hash, "
			 "not to the one their reader runs on"),
		       ifn);
		PS_SET(f->remedy,
		       _("sysctl -w net.core.rps_sock_flow_entries=32768, and "
			 "32768 ÷ %d in each /sys/class/net/%s/queues/rx-N/"
			 "rps_flow_cnt (kernel scaling.rst)"),
		       q->nrxq, ifn);
		return PS_CHECK_FIRED;
	}
	if (nt && !nt->active && !nt->fixed && q->nrxq > 1) {
		PS_SET(f->title,
		       _("RFS is on but %s's ntuple filters are off: the NIC "
			 "cannot steer flows itself (aRFS)"),
		       ifn);
		PS_SET(f->remedy, _("ethtool -K %s ntuple on"), ifn);
		return PS_CHECK_FIRED;
	}
	return PS_CHECK_CLEAR;
}

const struct ps_check_ops ps_check_rfs = {
	.id = "rfs",
	.family = "nic",
	.title = N_("receive flow steering (RFS, aRFS)"),
	.weight = 8,
	.eval = eval_rfs,
};

/* transmit steering, NAPI deferral and busy polling: the queue-level
 * settings of the kernel's scaling.rst and napi.rst. Advice only: none of
 * them is a measured cause */
static enum ps_check_state eval_queue_tuning(const struct ps_evidence *ev,
					     struct ps_finding *f)
{
	const struct ps_irq_info *q = ev->irq;
	long long br = ps_ev_sysctl(ev, PS_SYSCTL_BUSY_READ);
	long long bp = ps_ev_sysctl(ev, PS_SYSCTL_BUSY_POLL);
	const char *ifn = ps_ev_ifname(ev);
	char fix[400] = "", what[200] = "";
	int xps = 0, n = 0;

	if (!q || q->queues_status != PS_ST_OK || q->ntxq <= 0) {
		PS_SET(f->evidence, "%s",
		       _("the transmit queues were not read"));
		return PS_CHECK_NA;
	}
	for (int i = 0; i < q->ntxq; i++)
		xps += q->txq[i].xps_on;
	ps_fact(f, "tx_queues", q->ntxq, "count");
	ps_fact(f, "queues_with_xps", xps, "count");
	PS_SET(f->evidence, _("%s: XPS on %d of %d transmit queues"), ifn, xps,
	       q->ntxq);
	if (q->napi_defer_hard_irqs >= 0)
		PS_APPEND(f->evidence,
			  _("; napi_defer_hard_irqs %ld, gro_flush_timeout %ld "
			    "ns"),
			  q->napi_defer_hard_irqs, q->gro_flush_timeout);
	if (br >= 0 && bp >= 0)
		PS_APPEND(f->evidence,
			  _("; busy_read %lld µs, busy_poll %lld µs"), br, bp);
	/* a multiqueue NIC without XPS: a sender's packets take a queue by
	 * hash, and their completions come back on other CPUs */
	if (q->ntxq > 1 && !xps) {
		n++;
		ps_appendf(what, sizeof(what), "%s", _("no XPS"));
		ps_appendf(fix, sizeof(fix),
			   _("XPS: one CPU (or the NIC node's CPUs) per queue "
			     "in /sys/class/net/%s/queues/tx-N/xps_cpus "
			     "(scaling.rst)"),
			   ifn);
	}
	/* napi.rst: the deferral needs the timer to re-arm the poll */
	if (q->napi_defer_hard_irqs > 0 && q->gro_flush_timeout == 0) {
		n++;
		ps_fact(f, "napi_defer_hard_irqs", q->napi_defer_hard_irqs,
			"count");
		ps_appendf(what, sizeof(what), "%s%s", what[0] ? ", " : "",
			   _("NAPI deferral without a flush timer"));
		ps_appendf(fix, sizeof(fix),
			   _("%snapi_defer_hard_irqs %ld does nothing without "
			     "gro_flush_timeout: echo 20000 > "
			     "/sys/class/net/%s/gro_flush_timeout (napi.rst)"),
			   fix[0] ? "; " : "", q->napi_defer_hard_irqs, ifn);
	}
	/* busy polling spins a reader on the queue: latency bought with
	 * cores; told, never undone for the user */
	if (br > 0 || bp > 0) {
		n++;
		ps_fact(f, "busy_read", (double)br, "us");
		ps_fact(f, "busy_poll", (double)bp, "us");
		ps_appendf(what, sizeof(what), "%s%s", what[0] ? ", " : "",
			   _("busy polling on"));
		ps_appendf(fix, sizeof(fix), "%s%s", fix[0] ? "; " : "",
			   _("busy polling spins the reading core: where "
			     "latency does not matter, compare a check with "
			     "busy_read and busy_poll at 0"));
	}
	if (!n)
		return PS_CHECK_CLEAR;
	f->severity = PS_SEV_INFO;
	PS_SET(f->title, _("%s's queue settings: %s"), ifn, what);
	PS_SET(f->remedy, "%s", fix);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_queue_tuning = {
	.id = "queue_tuning",
	.family = "nic",
	.title = N_("transmit steering, NAPI deferral and busy polling (XPS, "
		    "napi_defer_hard_irqs, busy_read)"),
	.weight = 5,
	.eval = eval_queue_tuning,
};

/* BIG TCP, tx-nocache-copy and the transmit queue length: a fast NIC's
 * settings the vendors' guides give (cilium's tuning guide, mlnx_tune,
 * fasterdata) */
static enum ps_check_state eval_nic_tuning(const struct ps_evidence *ev,
					   struct ps_finding *f)
{
	const struct ps_link_info *l = ev->link;
	const struct ps_ethtool_info *e = ev->eth;
	const struct ps_eth_feature *nc =
		e && e->features.status == PS_ST_OK
			? ps_ethtool_feature(e, "tx-nocache-copy")
			: NULL;
	const char *ifn = ps_ev_nicname(ev);
	double line = ps_ev_line_bps(ev);
	char ls[32], fix[400] = "";
	int n = 0;

	if (!l || l->status != PS_ST_OK || !(line > 0)) {
		PS_SET(f->evidence, "%s",
		       _("no physical NIC with a line rate, or its link was "
			 "not read"));
		return PS_CHECK_NA;
	}
	ps_fmt_bps(ls, sizeof(ls), line);
	PS_SET(f->evidence, _("%s at %s: txqueuelen %lld"), ifn, ls,
	       (long long)l->txqlen);
	if (l->gso_max_size > 0)
		PS_APPEND(f->evidence, _(", gso_max_size %lld"),
			  (long long)l->gso_max_size);
	if (l->gro_max_size > 0)
		PS_APPEND(f->evidence, _(", gro_max_size %lld"),
			  (long long)l->gro_max_size);
	if (nc)
		PS_APPEND(f->evidence, _(", tx-nocache-copy %s"),
			  nc->active ? _("on") : _("off"));
	if (line >= rules[R_BIG_TCP_LINE].value && l->gso_max_size > 0 &&
	    l->gso_max_size <= 65536 && l->gro_max_size > 0 &&
	    l->gro_max_size <= 65536) {
		n++;
		ps_fact(f, "gso_max_size", (double)l->gso_max_size, "bytes");
		ps_crossed(f, &rules[R_BIG_TCP_LINE]);
		ps_appendf(fix, sizeof(fix),
			   _("BIG TCP: ip link set dev %s gso_max_size 185000 "
			     "gro_max_size 185000 (IPv6; kernel 5.19+, "
			     "gso_ipv4_max_size from 6.3)"),
			   ifn);
	}
	if (nc && nc->active && !nc->fixed) {
		n++;
		ps_fact(f, "tx_nocache_copy", 1, "bool");
		ps_appendf(fix, sizeof(fix),
			   _("%sethtool -K %s tx-nocache-copy off"),
			   fix[0] ? "; " : "", ifn);
	}
	if (l->txqlen >= 0 && l->txqlen < rules[R_TXQLEN_MIN].value &&
	    line >= 10e9) {
		n++;
		ps_fact(f, "txqueuelen", (double)l->txqlen, "packets");
		ps_crossed(f, &rules[R_TXQLEN_MIN]);
		ps_appendf(fix, sizeof(fix),
			   _("%sip link set dev %s txqueuelen 10000"),
			   fix[0] ? "; " : "", ifn);
	}
	if (!n)
		return PS_CHECK_CLEAR;
	f->severity = PS_SEV_INFO;
	PS_SET(f->title,
	       P_("%d setting of %s differs from the tuning guides' for %s",
		  "%d settings of %s differ from the tuning guides' for %s", n),
	       n, ifn, ls);
	PS_SET(f->remedy, "%s", fix);
	return PS_CHECK_FIRED;
}

const struct ps_check_ops ps_check_nic_tuning = {
	.id = "nic_tuning",
	.family = "nic",
	.title = N_("NIC settings of the tuning guides (BIG TCP, "
		    "tx-nocache-copy, txqueuelen)"),
	.weight = 6,
	.eval = eval_nic_tuning,
};
