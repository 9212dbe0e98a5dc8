/* check.c: the registry of the checks "pipescope check" evaluates, and the
 * helpers they share (rates as text, the interface, the test's cores) */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "nls.h"

/* the thresholds several check families share (check.h) */
const struct ps_rule ps_check_rules[PS_NCHECK_RULES] = {
	[PS_RULE_CORE_SATURATED] = {
		.name = "core_saturated",
		.value = 90,
		.unit = "%",
		.why = N_("a core at least this busy is saturated: it limits "
			  "what goes through it (CPU, NIC and far-end checks)"),
	},
	[PS_RULE_NOTHING_MOVED] = {
		.name = "nothing_moved",
		.value = 1e6,
		.unit = "bit/s",
		.why = N_("a test below this rate moved nothing: its CPU, "
			  "window and ceiling readings say nothing"),
	},
	[PS_RULE_FLOW_GROWTH] = {
		.name = "flow_growth",
		.value = 1.3,
		.unit = "ratio",
		.why = N_("more streams growing the sum by this factor (beyond "
			  "the spread of the runs): each flow is limited on "
			  "its own; an old iperf3 peer that did not is the "
			  "limit"),
	},
	[PS_RULE_CONTRADICTED] = {
		.name = "ceiling_contradicted",
		.value = 0.85,
		.unit = "ratio",
		.why = N_("a ceiling below this part of the rate it should "
			  "limit is contradicted by the measurement"),
	},
};
PS_RULE_FAMILY(check, ps_check_rules);

/* the list of check-list.h; its order is the order of the report's
 * "ruled out" */
#define PS_CHECK_REGISTER(NAME) &ps_check_##NAME,
const struct ps_check_ops *const ps_check_registry[] = { PS_CHECK_LIST(
	PS_CHECK_REGISTER) };
#undef PS_CHECK_REGISTER
const size_t ps_check_count =
	sizeof(ps_check_registry) / sizeof(ps_check_registry[0]);

const struct ps_check_ops *ps_check_find(const char *id)
{
	for (size_t i = 0; i < ps_check_count; i++)
		if (!strcmp(ps_check_registry[i]->id, id))
			return ps_check_registry[i];
	return NULL;
}

const char *ps_severity_name(enum ps_severity s)
{
	switch (s) {
	case PS_SEV_BOTTLENECK:
		return "bottleneck";
	case PS_SEV_WARNING:
		return "warning";
	case PS_SEV_INFO:
		break;
	}
	return "info";
}

const char *ps_severity_text(enum ps_severity s)
{
	switch (s) {
	case PS_SEV_BOTTLENECK:
		return _("BOTTLENECK");
	case PS_SEV_WARNING:
		return _("warning");
	case PS_SEV_INFO:
		break;
	}
	return _("info");
}

const char *ps_scope_name(enum ps_scope s)
{
	switch (s) {
	case PS_SCOPE_FLOW:
		return "flow";
	case PS_SCOPE_SHARED:
		return "shared";
	case PS_SCOPE_NONE:
		break;
	}
	return "none";
}

void ps_appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

int64_t ps_grew(int64_t d)
{
	return d > 0 && d <= PS_GREW_MAX ? d : 0;
}

void ps_fact(struct ps_finding *f, const char *key, double value,
	     const char *unit)
{
	int i = 0;

	if (!isfinite(value))
		return;
	while (i < f->nfacts && strcmp(f->facts[i].key, key))
		i++;
	if (i >= PS_MAX_FACTS)
		return;
	f->facts[i].key = key;
	f->facts[i].value = value;
	f->facts[i].unit = unit;
	if (i == f->nfacts)
		f->nfacts++;
}

double ps_fact_get(const struct ps_finding *f, const char *key)
{
	for (int i = 0; i < f->nfacts; i++)
		if (!strcmp(f->facts[i].key, key))
			return f->facts[i].value;
	return NAN;
}

void ps_crossed(struct ps_finding *f, const struct ps_rule *r)
{
	for (int i = 0; i < f->ncrossed; i++)
		if (f->crossed[i] == r)
			return;
	if (f->ncrossed < PS_MAX_CROSSED)
		f->crossed[f->ncrossed++] = r;
}

const char *ps_ev_ifname(const struct ps_evidence *ev)
{
	if (ev->link && ev->link->ifname[0])
		return ev->link->ifname;
	if (ev->eth && ev->eth->ifname[0])
		return ev->eth->ifname;
	if (ev->irq && ev->irq->ifname[0])
		return ev->irq->ifname;
	if (ev->snap && ev->snap->hdr.iface.name[0])
		return ev->snap->hdr.iface.name;
	return "";
}

const char *ps_ev_nicname(const struct ps_evidence *ev)
{
	if (ev->eth && ev->eth->ifname[0])
		return ev->eth->ifname;
	if (ev->irq && ev->irq->ifname[0])
		return ev->irq->ifname;
	if (ev->snap && ev->snap->hdr.iface.nic[0])
		return ev->snap->hdr.iface.nic;
	return ps_ev_ifname(ev);
}

static bool driver_virtual(const char *drv)
{
	static const char *const v[] = {
		"virtio_net", "veth",	 "ena",	      "gve",
		"mana",	      "vmxnet3", "hv_netvsc", "xen_netfront",
		"tun",	      "bridge",	 "bonding",   "macvlan",
		"ipvlan",     "vxlan",	 "dummy",     NULL
	};

	for (int i = 0; v[i]; i++)
		if (!strcmp(drv, v[i]))
			return true;
	return false;
}

bool ps_ev_virtual(const struct ps_evidence *ev)
{
	const char *ifn = ps_ev_ifname(ev);

	if (!strcmp(ifn, "lo"))
		return true;
	if (ev->eth && ev->eth->drvinfo.status == PS_ST_OK &&
	    driver_virtual(ev->eth->drvinfo.driver))
		return true;
	/* a vlan, bond or bridge over a NIC with a real driver */
	if (ev->snap && ev->snap->hdr.iface.nic[0] && ev->eth &&
	    ev->eth->drvinfo.status == PS_ST_OK)
		return false;
	if (ev->link && ev->link->status == PS_ST_OK) {
		if (ev->link->kind[0] || !ev->link->physical)
			return true;
	}
	if (ev->pci && ev->pci->child[0] &&
	    !strncmp(ev->pci->child, "virtio", 6))
		return true;
	return false;
}

double ps_ev_line_bps(const struct ps_evidence *ev)
{
	if (!ev->eth || ev->eth->linkmodes.status != PS_ST_OK)
		return 0;
	if (ev->eth->linkmodes.speed_bps <= 0 || ps_ev_virtual(ev))
		return 0;
	return (double)ev->eth->linkmodes.speed_bps;
}

long long ps_ev_sysctl(const struct ps_evidence *ev, enum ps_sysctl_id id)
{
	if (!ev->snap || ev->snap->sysctl.val[id].status != PS_ST_OK)
		return -1;
	return ps_sysctl_get(&ev->snap->sysctl, id, -1);
}

int ps_ev_ncores(const struct ps_evidence *ev)
{
	if (ev->snap && ev->snap->cpu.status == PS_ST_OK)
		return ev->snap->cpu.ncores;
	return 0;
}

/* ---- results --------------------------------------------------------- */

void ps_evidence_of(const struct ps_snapshot *snap, const struct ps_run *res,
		    struct ps_evidence *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->snap = snap;
	if (snap) {
		/* every member says itself why it is empty */
		ev->irq = &snap->irq;
		ev->pci = &snap->pci;
		ev->eth = &snap->ethtool;
		ev->link = &snap->link;
	}
	ev->res = res;
}

void ps_run_free(struct ps_run *r)
{
	for (int i = 0; i < r->nsteps; i++)
		if (r->steps[i].have_cpu)
			ps_cpu_free(&r->steps[i].cpu);
	r->nsteps = 0;
	ps_snapshot_put(r->peer_snap);
	r->peer_snap = NULL;
}

enum ps_dir ps_step_dir(const struct ps_step_result *s)
{
	return s->bidir ? PS_DIR_BOTH : s->reverse ? PS_DIR_IN : PS_DIR_OUT;
}

const char *ps_dir_name(enum ps_dir d)
{
	return d == PS_DIR_IN ? "in" : d == PS_DIR_BOTH ? "both" : "out";
}

bool ps_run_has_dir(const struct ps_run *r, enum ps_dir d)
{
	for (int i = 0; r && i < r->nsteps; i++)
		if (r->steps[i].state == PS_STEP_DONE &&
		    ps_step_dir(&r->steps[i]) == d)
			return true;
	return false;
}

bool ps_step_in_dir(const struct ps_run *r, const struct ps_step_result *s)
{
	return s->state == PS_STEP_DONE && ps_step_dir(s) == r->dir;
}

const struct ps_step_result *ps_run_single(const struct ps_run *r)
{
	if (!r)
		return NULL;
	for (int i = 0; i < r->nsteps; i++)
		if (ps_step_in_dir(r, &r->steps[i]) && r->steps[i].streams == 1)
			return &r->steps[i];
	return NULL;
}

size_t ps_run_sweep(const struct ps_run *r, const struct ps_step_result **out,
		    size_t max)
{
	size_t n = 0;

	if (!r)
		return 0;
	for (int i = 0; i < r->nsteps && n < max; i++)
		if (ps_step_in_dir(r, &r->steps[i]))
			out[n++] = &r->steps[i];
	return n;
}

const struct ps_step_result *ps_run_best(const struct ps_run *r)
{
	const struct ps_step_result *best = NULL;

	if (!r)
		return NULL;
	/* the run's direction first; out falls back to reverse only when
	 * it is all there is */
	for (int pass = 0; pass < 2 && !best; pass++) {
		if (pass && r->dir != PS_DIR_OUT)
			break;
		for (int i = 0; i < r->nsteps; i++) {
			const struct ps_step_result *s = &r->steps[i];

			if (s->state != PS_STEP_DONE || s->bidir ||
			    (!pass && !ps_step_in_dir(r, s)))
				continue;
			if (!best || s->bps > best->bps)
				best = s;
		}
	}
	return best;
}

double ps_run_flow_bps(const struct ps_run *r)
{
	double best = 0;

	for (int i = 0; r && i < r->nsteps; i++)
		if (ps_step_in_dir(r, &r->steps[i]) &&
		    r->steps[i].streams > 0 &&
		    r->steps[i].bps / r->steps[i].streams > best)
			best = r->steps[i].bps / r->steps[i].streams;
	return best;
}

bool ps_step_counts(const struct ps_run *r, const struct ps_step_result *s)
{
	if (s->state != PS_STEP_DONE)
		return false;
	if (ps_step_in_dir(r, s))
		return true;
	/* out: reverse and bidir count only when no forward test finished */
	return r->dir == PS_DIR_OUT && !ps_run_has_dir(r, PS_DIR_OUT);
}

double ps_step_spread(const struct ps_step_result *s)
{
	return s->nruns > 1 && s->bps_hi > s->bps_lo
		       ? (s->bps_hi - s->bps_lo) / 2
		       : 0;
}

bool ps_step_differs(const struct ps_step_result *a,
		     const struct ps_step_result *b)
{
	return fabs(a->bps - b->bps) > ps_step_spread(a) + ps_step_spread(b);
}

void ps_cpu_list_add(int *v, int *n, int cpu)
{
	if (cpu < 0)
		return;
	for (int i = 0; i < *n; i++)
		if (v[i] == cpu)
			return;
	if (*n < PS_STEP_MAX_CPUS)
		v[(*n)++] = cpu;
}

void ps_step_add_cpu(struct ps_step_result *s, bool rx, int cpu)
{
	if (rx)
		ps_cpu_list_add(s->rx_cpu, &s->nrx_cpu, cpu);
	else
		ps_cpu_list_add(s->thread_cpu, &s->nthread_cpu, cpu);
}

static bool step_uses(const struct ps_step_result *s, int cpu)
{
	for (int i = 0; i < s->nthread_cpu; i++)
		if (s->thread_cpu[i] == cpu)
			return true;
	for (int i = 0; i < s->nrx_cpu; i++)
		if (s->rx_cpu[i] == cpu)
			return true;
	return false;
}

double ps_step_least_busy(const struct ps_step_result *s, int *n)
{
	double min = 101;

	*n = 0;
	for (int k = 0; s->have_cpu && s->cpu.cores && k < s->cpu.ncores; k++)
		if (s->cpu.cores[k].pct_valid) {
			(*n)++;
			if (s->cpu.cores[k].busy_pct < min)
				min = s->cpu.cores[k].busy_pct;
		}
	return min;
}

int ps_step_test_core(const struct ps_step_result *s, double *others_avg)
{
	const struct ps_cpu_info *c = &s->cpu;
	int best = -1, nothers = 0;
	double sum = 0;

	if (!s->have_cpu || c->ncores <= 0)
		return -1;
	/* without placement data, any core may be the test's */
	for (int i = 0; i < c->ncores; i++) {
		if (!c->cores[i].pct_valid)
			continue;
		if (s->nthread_cpu + s->nrx_cpu &&
		    !step_uses(s, c->cores[i].id))
			continue;
		if (best < 0 || c->cores[i].busy_pct > c->cores[best].busy_pct)
			best = i;
	}
	if (best < 0)
		return -1;
	for (int i = 0; i < c->ncores; i++) {
		if (i == best || !c->cores[i].pct_valid)
			continue;
		sum += c->cores[i].busy_pct;
		nothers++;
	}
	if (others_avg)
		*others_avg = nothers ? sum / nothers : NAN;
	return best;
}

void ps_far_placement_remedy(struct ps_finding *f)
{
	PS_APPEND(f->remedy, "%s",
		  _("; on the far end: let its process run on more cores "
		    "(taskset) and spread its RPS mask"));
}

bool ps_ev_far_placement(const struct ps_evidence *ev, struct ps_finding *f)
{
	const struct ps_snapshot *p = ev->peer;
	bool told = false;

	if (!p || !ps_snapshot_same_host(ev->snap, p))
		return false;
	/* a process free to run on every core is no placement */
	if (p->hdr.data_threads[0]) {
		PS_APPEND(f->evidence,
			  _("; the far end keeps its data threads on cpus %s "
			    "(local to its NIC)"),
			  p->hdr.data_threads);
		told = true;
	} else if (p->hdr.affinity[0] &&
		   !(p->cpu.status == PS_ST_OK && p->cpu.ncores > 0 &&
		     ps_cpu_list_count(p->hdr.affinity) >= p->cpu.ncores)) {
		PS_APPEND(f->evidence,
			  _("; the far end's process may run on cpus %s"),
			  p->hdr.affinity);
		told = true;
	}
	for (int i = 0; p->irq.queues_status == PS_ST_OK && i < p->irq.nrxq;
	     i++) {
		if (!p->irq.rxq[i].rps_on)
			continue;
		PS_APPEND(f->evidence,
			  _("; RPS on its %s rx-%d steers receive work to cpu "
			    "mask %s"),
			  p->irq.ifname[0] ? p->irq.ifname : "?",
			  p->irq.rxq[i].index, p->irq.rxq[i].rps_cpus);
		told = true;
	}
	return told;
}
