/* probe.h: the one small interface every probe of "pipescope probe" has
 * (open / sample into a snapshot / close, and its JSON and text) */
#ifndef PS_PROBE_H
#define PS_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "iface.h"
#include "probe-list.h"
#include "snapshot.h"
#include "status.h"

struct json_object;

/* what every probe is opened with */
struct ps_probe_env {
	struct ps_iface_choice iface; /* the interface to watch */
};

struct ps_rtnl;

/* one opened probe */
struct ps_probe {
	const struct ps_probe_ops *ops;
	const struct ps_probe_env *env;
	struct ps_rtnl *rtnl; /* its set's rtnetlink socket (rtnl.h), which
			       * the probes that talk rtnetlink share */
	void *priv;	      /* the probe's own state (sockets ...) */
	const char *ifname;   /* what sample() reads: the interface,
			       * or the NIC under it (on_nic) */
	int open_rc;	      /* 0, or why open failed (-errno) */
};

struct ps_probe_ops {
	const char *name;  /* stable id, also the JSON key */
	const char *title; /* N_("CPU"): the heading of the text */
	bool needs_iface;  /* reads the chosen interface */
	bool on_nic;	   /* reads the physical NIC under it (a vlan,
			    * bond or bridge has no rings or PCIe) */

	/* optional: state kept between samples (a netlink socket) */
	int (*open)(struct ps_probe *p);
	void (*close)(struct ps_probe *p);

	/* fill this probe's member of *s; never prints; 0 or -errno (the
	 * member's status/reason say why whatever the return) */
	int (*sample)(struct ps_probe *p, struct ps_snapshot *s);
	/* optional: rate fields of cur from prev (NULL: only one sample) */
	void (*rates)(const struct ps_snapshot *prev, struct ps_snapshot *cur,
		      double seconds);

	struct json_object *(*to_json)(const struct ps_snapshot *s);
	int (*from_json)(struct json_object *obj, struct ps_snapshot *s);
	void (*print)(FILE *out, const struct ps_snapshot *s);
	/* optional: a few lines with their own heading, for the one-screen
	 * text of "pipescope probe" (print is the -V detail) */
	void (*brief)(FILE *out, const struct ps_snapshot *s);
	void (*free)(struct ps_snapshot *s);
	/* optional: the physical NIC under the interface, as this probe
	 * found it (0 and the name, or -ENOENT); later on_nic probes read it */
	int (*nic)(const struct ps_snapshot *s, char *buf, size_t len);
	/* set the member's top-level status and reason (e.g. not recorded) */
	void (*mark)(struct ps_snapshot *s, enum ps_status st,
		     const char *reason);
};

/* each probe's ops, in its own file (probe-NAME.c): ps_NAME_ops */
#define PS_PROBE_DECLARE_OPS(NAME)                                             \
	extern const struct ps_probe_ops ps_##NAME##_ops;
PS_PROBE_LIST(PS_PROBE_DECLARE_OPS)

/* the registry (registry.c): every ps_NAME_ops of PS_PROBE_LIST, in order */
extern const struct ps_probe_ops *const ps_probe_registry[];
extern const size_t ps_probe_count;
const struct ps_probe_ops *ps_probe_find(const char *name);

/* all registered probes, opened together */
struct ps_probe_set;

struct ps_probe_set *ps_probes_open(const struct ps_probe_env *env);
/*
 * One full sample into *cur (header included); with prev (an earlier sample
 * of the same set) the rates are computed over the time between them, else
 * the snapshot says that rates are not available. Returns 0; probe failures
 * are data in the snapshot, not errors.
 */
int ps_probes_sample(struct ps_probe_set *set, struct ps_snapshot *cur,
		     const struct ps_snapshot *prev);
void ps_probes_close(struct ps_probe_set *set);

/*
 * Writing a probe's ops, in its probe-NAME.c beside the functions they call:
 *
 *	PS_PROBE_GLUE(cpu)
 *	const struct ps_probe_ops ps_cpu_ops = {
 *		PS_PROBE_OPS(cpu),
 *		.title = N_("CPU"),
 *	};
 *
 * Every module follows the convention (probes/probe-NAME.h): its member of
 * struct ps_snapshot is named NAME and its functions ps_NAME_sample/
 * _to_json/_from_json/_print/_free. This macro writes the adapters
 * (static NAME_op_sample ...); an op a probe writes by hand is named so too.
 */
#define PS_PROBE_GLUE(NAME)                                                    \
	static int NAME##_op_sample(struct ps_probe *p, struct ps_snapshot *s) \
	{                                                                      \
		const char *ifn = p->ifname ? p->ifname : "";                  \
		return ps_##NAME##_sample(ifn, &s->NAME);                      \
	}                                                                      \
	PS_PROBE_DATA(NAME)

/*
 * A module with state between samples (a socket) has, besides, its opened
 * probe struct ps_NAME_probe from ps_NAME_open_on(rtnl) (never NULL: on
 * the set's rtnetlink socket), closed by ps_NAME_close(), and samples with
 * ps_NAME_sample_with(probe, ...): the probe's priv, so each probe set has
 * its own.
 */
#define PS_PROBE_STATE_GLUE(NAME)                                              \
	static int NAME##_op_open(struct ps_probe *p)                          \
	{                                                                      \
		p->priv = ps_##NAME##_open_on(p->rtnl);                        \
		return 0;                                                      \
	}                                                                      \
	static void NAME##_op_close(struct ps_probe *p)                        \
	{                                                                      \
		ps_##NAME##_close(p->priv);                                    \
		p->priv = NULL;                                                \
	}                                                                      \
	static int NAME##_op_sample(struct ps_probe *p, struct ps_snapshot *s) \
	{                                                                      \
		const char *ifn = p->ifname ? p->ifname : "";                  \
		return ps_##NAME##_sample_with(p->priv, ifn, &s->NAME);        \
	}                                                                      \
	PS_PROBE_DATA(NAME)

/* the adapters of the member's JSON, text, free and status */
#define PS_PROBE_DATA(NAME)                                                    \
	static struct json_object *NAME##_op_to_json(                          \
		const struct ps_snapshot *s)                                   \
	{                                                                      \
		return ps_##NAME##_to_json(&s->NAME);                          \
	}                                                                      \
	static int NAME##_op_from_json(struct json_object *o,                  \
				       struct ps_snapshot *s)                  \
	{                                                                      \
		return ps_##NAME##_from_json(o, &s->NAME);                     \
	}                                                                      \
	static void NAME##_op_print(FILE *f, const struct ps_snapshot *s)      \
	{                                                                      \
		ps_##NAME##_print(f, &s->NAME);                                \
	}                                                                      \
	static void NAME##_op_free(struct ps_snapshot *s)                      \
	{                                                                      \
		ps_##NAME##_free(&s->NAME);                                    \
	}                                                                      \
	static void NAME##_op_mark(struct ps_snapshot *s, enum ps_status st,   \
				   const char *why)                            \
	{                                                                      \
		s->NAME.status = st;                                           \
		snprintf(s->NAME.reason, sizeof(s->NAME.reason), "%s", why);   \
	}

/*
 * The member-wise adapter of a module's ps_NAME_rates(prev, cur, seconds):
 * the convention gives it two samples, so with one there is nothing to do.
 */
#define PS_PROBE_RATES(NAME)                                                   \
	static void NAME##_op_rates(const struct ps_snapshot *prev,            \
				    struct ps_snapshot *cur, double sec)       \
	{                                                                      \
		if (prev)                                                      \
			ps_##NAME##_rates(&prev->NAME, &cur->NAME, sec);       \
	}

#define PS_PROBE_OPS(NAME)                                                     \
	.name = #NAME, .sample = NAME##_op_sample,                             \
	.to_json = NAME##_op_to_json, .from_json = NAME##_op_from_json,        \
	.print = NAME##_op_print, .free = NAME##_op_free,                      \
	.mark = NAME##_op_mark
/* the same for a module with PS_PROBE_STATE_GLUE */
#define PS_PROBE_STATE_OPS(NAME)                                               \
	PS_PROBE_OPS(NAME), .open = NAME##_op_open, .close = NAME##_op_close

#endif
