/* probe.c: one full sample of every probe, as "pipescope probe" and the
 * sampler thread take it */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "nls.h"
#include "probe.h"
#include "rtnl.h"
#include "xmalloc.h"

struct ps_probe_set {
	struct ps_probe_env env;
	struct ps_rtnl rtnl; /* the link and qdisc probes' socket */
	size_t n;
	struct ps_probe probes[];
};

struct ps_probe_set *ps_probes_open(const struct ps_probe_env *env)
{
	struct ps_probe_set *set;

	set = xcalloc(1,
		      sizeof(*set) + ps_probe_count * sizeof(set->probes[0]));
	set->env = *env;
	ps_rtnl_init(&set->rtnl, true);
	set->n = ps_probe_count;
	for (size_t i = 0; i < set->n; i++) {
		struct ps_probe *p = &set->probes[i];

		p->ops = ps_probe_registry[i];
		p->env = &set->env;
		p->rtnl = &set->rtnl;
		if (p->ops->open)
			p->open_rc = p->ops->open(p);
	}
	return set;
}

void ps_probes_close(struct ps_probe_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n; i++) {
		struct ps_probe *p = &set->probes[i];

		if (p->ops->close && !p->open_rc)
			p->ops->close(p);
	}
	ps_rtnl_fini(&set->rtnl);
	free(set);
}

static double seconds_between(const struct ps_snapshot *a,
			      const struct ps_snapshot *b)
{
	return (double)(b->hdr.mono_ns - a->hdr.mono_ns) / 1e9;
}

int ps_probes_sample(struct ps_probe_set *set, struct ps_snapshot *cur,
		     const struct ps_snapshot *prev)
{
	const struct ps_iface_choice *ifc = &set->env.iface;
	const char *nic = ifc->name;
	double secs = 0;

	ps_snapshot_fill_header(cur, ifc);
	for (size_t i = 0; i < set->n; i++) {
		struct ps_probe *p = &set->probes[i];
		const struct ps_probe_ops *ops = p->ops;
		char why[160];
		int rc;

		p->ifname = ops->on_nic ? nic : ifc->name;
		/*
		 * No interface, or one that is not there: the probe still
		 * runs (its groups say what they could not read, and the
		 * host-wide parts are real), and its section carries the
		 * same reason as the others.
		 */
		if (ops->needs_iface &&
		    (!ifc->name[0] || ifc->status == PS_ST_ABSENT)) {
			ops->sample(p, cur);
			ops->mark(cur, PS_ST_ABSENT,
				  ifc->reason[0]
					  ? ifc->reason
					  : _("no interface was chosen"));
			continue;
		}
		if (p->open_rc) {
			snprintf(why, sizeof(why), _("cannot start: %s"),
				 ps_strerror(-p->open_rc));
			ops->mark(cur,
				  p->open_rc == -EPERM || p->open_rc == -EACCES
					  ? PS_ST_NEEDS_ROOT
					  : PS_ST_ERROR,
				  why);
			continue;
		}
		rc = ops->sample(p, cur);
		(void)rc; /* the member's status says what happened */
		/* a vlan, bond or bridge: the NIC probes read the NIC under it
		 */
		if (ops->nic && !ops->nic(cur, cur->hdr.iface.nic,
					  sizeof(cur->hdr.iface.nic)))
			nic = cur->hdr.iface.nic;
	}
	if (prev && prev->hdr.seq && cur->hdr.mono_ns > prev->hdr.mono_ns) {
		secs = seconds_between(prev, cur);
		cur->hdr.rates = true;
		cur->hdr.interval_s = secs;
		cur->hdr.seq = prev->hdr.seq + 1;
	} else {
		prev = NULL;
		cur->hdr.rates = false;
		cur->hdr.seq = 1;
		snprintf(cur->hdr.rates_reason, sizeof(cur->hdr.rates_reason),
			 "%s",
			 cur->hdr.source == PS_SNAP_SYSROOT
				 ? _("one sample of a recorded tree: rates are "
				     "not available; CPU % is the average "
				     "since boot")
				 : _("one sample: rates are not available; CPU "
				     "% is the average since boot"));
	}
	for (size_t i = 0; i < set->n; i++)
		if (set->probes[i].ops->rates)
			set->probes[i].ops->rates(prev, cur, secs);
	return 0;
}
