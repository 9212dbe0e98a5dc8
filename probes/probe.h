/* probe.h: the one small interface every probe of "pipescope probe" has
 * (open / sample into a snapshot / close, and its JSON and text) */
#ifndef PS_PROBE_H
#define PS_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "iface.h"
#include "snapshot.h"
#include "status.h"

struct json_object;

/* what every probe is opened with */
struct ps_probe_env {
	struct ps_iface_choice iface;	/* the interface to watch */
};

/* one opened probe */
struct ps_probe {
	const struct ps_probe_ops *ops;
	const struct ps_probe_env *env;
	void *priv;			/* the probe's own state (sockets ...) */
	const char *ifname;		/* what sample() reads: the interface,
					 * or the NIC under it (on_nic) */
	int open_rc;			/* 0, or why open failed (-errno) */
};

struct ps_probe_ops {
	const char *name;	/* stable id, also the JSON key */
	const char *title;	/* N_("CPU"): the heading of the text */
	bool needs_iface;	/* reads the chosen interface */
	bool on_nic;		/* reads the physical NIC under it (a vlan,
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

/* the registry: one line per probe in probes/registry.c, in display order */
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

#endif
