/* registry.c: the list of probes "pipescope probe" runs, one line each,
 * and the glue from each module's functions to the probe interface */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "brief.h"
#include "nls.h"
#include "probe.h"

/*
 * Every module follows the convention (probes/probe-NAME.h): its member of
 * struct ps_snapshot is named NAME and its functions ps_NAME_sample/
 * _to_json/_from_json/_print/_free. This macro writes the adapters.
 */
#define PS_PROBE_GLUE(NAME)                                                    \
	static int NAME##_sample(struct ps_probe *p, struct ps_snapshot *s)    \
	{                                                                      \
		const char *ifn = p->ifname ? p->ifname : "";                  \
		return ps_##NAME##_sample(ifn, &s->NAME);                      \
	}                                                                      \
	PS_PROBE_DATA(NAME)

/*
 * A module with state between samples (a socket) has, besides, its opened
 * probe struct ps_NAME_probe from ps_NAME_open() (never NULL), closed by
 * ps_NAME_close(), and samples with ps_NAME_sample_with(probe, ...): the
 * probe's priv, so each probe set has its own.
 */
#define PS_PROBE_STATE_GLUE(NAME)                                              \
	static int NAME##_open(struct ps_probe *p)                             \
	{                                                                      \
		p->priv = ps_##NAME##_open();                                  \
		return 0;                                                      \
	}                                                                      \
	static void NAME##_close(struct ps_probe *p)                           \
	{                                                                      \
		ps_##NAME##_close(p->priv);                                    \
		p->priv = NULL;                                                \
	}                                                                      \
	static int NAME##_sample(struct ps_probe *p, struct ps_snapshot *s)    \
	{                                                                      \
		const char *ifn = p->ifname ? p->ifname : "";                  \
		return ps_##NAME##_sample_with(p->priv, ifn, &s->NAME);        \
	}                                                                      \
	PS_PROBE_DATA(NAME)

/* the adapters of the member's JSON, text, free and status */
#define PS_PROBE_DATA(NAME)                                                    \
	static struct json_object *NAME##_to_json(const struct ps_snapshot *s) \
	{                                                                      \
		return ps_##NAME##_to_json(&s->NAME);                          \
	}                                                                      \
	static int NAME##_from_json(struct json_object *o,                     \
				    struct ps_snapshot *s)                     \
	{                                                                      \
		return ps_##NAME##_from_json(o, &s->NAME);                     \
	}                                                                      \
	static void NAME##_print(FILE *f, const struct ps_snapshot *s)         \
	{                                                                      \
		ps_##NAME##_print(f, &s->NAME);                                \
	}                                                                      \
	static void NAME##_free(struct ps_snapshot *s)                         \
	{                                                                      \
		ps_##NAME##_free(&s->NAME);                                    \
	}                                                                      \
	static void NAME##_mark(struct ps_snapshot *s, enum ps_status st,      \
				const char *why)                               \
	{                                                                      \
		s->NAME.status = st;                                           \
		snprintf(s->NAME.reason, sizeof(s->NAME.reason), "%s", why);   \
	}

/*
 * The member-wise adapter of a module's ps_NAME_rates(prev, cur, seconds):
 * the convention gives it two samples, so with one there is nothing to do.
 */
#define PS_PROBE_RATES(NAME)                                                   \
	static void NAME##_rates(const struct ps_snapshot *prev,               \
				 struct ps_snapshot *cur, double sec)          \
	{                                                                      \
		if (prev)                                                      \
			ps_##NAME##_rates(&prev->NAME, &cur->NAME, sec);       \
	}

#define PS_PROBE_OPS(NAME)                                                     \
	.name = #NAME, .sample = NAME##_sample, .to_json = NAME##_to_json,     \
	.from_json = NAME##_from_json, .print = NAME##_print,                  \
	.free = NAME##_free, .mark = NAME##_mark
/* the same for a module with PS_PROBE_STATE_GLUE */
#define PS_PROBE_STATE_OPS(NAME)                                               \
	PS_PROBE_OPS(NAME), .open = NAME##_open, .close = NAME##_close

PS_PROBE_STATE_GLUE(link)
PS_PROBE_RATES(link)
PS_PROBE_GLUE(ethtool)
PS_PROBE_GLUE(pci)
PS_PROBE_GLUE(irq)
PS_PROBE_RATES(irq)
PS_PROBE_GLUE(cpu)
PS_PROBE_GLUE(sysctl)

/*
 * The ethtool module keeps one process-wide genetlink socket (to move into
 * its own probe state like link's): it is shut when the last opened
 * ethtool probe closes, not under another probe set still using it.
 */
static struct {
	pthread_mutex_t lock;
	unsigned opened;
} ethtool_users = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int ethtool_open(struct ps_probe *p)
{
	pthread_mutex_lock(&ethtool_users.lock);
	ethtool_users.opened++;
	pthread_mutex_unlock(&ethtool_users.lock);
	return 0;
}

static void ethtool_close(struct ps_probe *p)
{
	pthread_mutex_lock(&ethtool_users.lock);
	if (ethtool_users.opened && !--ethtool_users.opened)
		ps_ethtool_shutdown();
	pthread_mutex_unlock(&ethtool_users.lock);
}

static int link_nic(const struct ps_snapshot *s, char *buf, size_t len)
{
	return ps_link_nic(&s->link, buf, len);
}

static const struct ps_probe_ops link_ops = {
	PS_PROBE_STATE_OPS(link),
	.title = N_("Link"),
	.needs_iface = true,
	.rates = link_rates,
	.nic = link_nic,
	.brief = ps_brief_link,
};

static const struct ps_probe_ops ethtool_ops = {
	PS_PROBE_OPS(ethtool),
	.title = N_("NIC (ethtool)"),
	.needs_iface = true,
	.on_nic = true,
	.open = ethtool_open,
	.close = ethtool_close,
	.brief = ps_brief_ethtool,
};

static const struct ps_probe_ops pci_ops = {
	PS_PROBE_OPS(pci),
	.title = N_("PCIe"),
	.needs_iface = true,
	.on_nic = true,
	.brief = ps_brief_pci,
};

static const struct ps_probe_ops irq_ops = {
	PS_PROBE_OPS(irq),
	.title = N_("Interrupts, softirqs and queues"),
	.needs_iface = true,
	.on_nic = true,
	.rates = irq_rates,
	.brief = ps_brief_irq,
};

/* with one sample the CPU probe gives the averages since boot */
static void cpu_rates(const struct ps_snapshot *prev, struct ps_snapshot *cur,
		      double sec)
{
	ps_cpu_rates(prev ? &prev->cpu : NULL, &cur->cpu, sec);
}

static const struct ps_probe_ops cpu_ops = {
	PS_PROBE_OPS(cpu),
	.title = N_("CPU"),
	.rates = cpu_rates,
};

static const struct ps_probe_ops sysctl_ops = {
	PS_PROBE_OPS(sysctl),
	.title = N_("TCP and socket settings"),
};

const struct ps_probe_ops *const ps_probe_registry[] = {
	&link_ops,
	&ethtool_ops,
	&pci_ops,
	&irq_ops,
	&cpu_ops,
	&sysctl_ops,
};

const size_t ps_probe_count =
	sizeof(ps_probe_registry) / sizeof(ps_probe_registry[0]);

const struct ps_probe_ops *ps_probe_find(const char *name)
{
	for (size_t i = 0; i < ps_probe_count; i++)
		if (!strcmp(ps_probe_registry[i]->name, name))
			return ps_probe_registry[i];
	return NULL;
}
