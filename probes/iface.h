/* iface.h: which network interface "pipescope probe" and the checks watch
 * (--iface, else the route to the peer, else the default route) */
#ifndef PS_IFACE_H
#define PS_IFACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "jsonutil.h"
#include "probe-route.h"
#include "status.h"

struct json_object;

enum ps_iface_source {
	PS_IFACE_NONE = 0,	/* no interface could be chosen */
	PS_IFACE_OPTION,	/* --iface */
	PS_IFACE_ROUTE_PEER,	/* the route to the test's peer */
	PS_IFACE_DEFAULT_ROUTE, /* the default route */
	PS_IFACE_LOOPBACK,	/* no default route: lo (the self-test's) */
};

struct ps_iface_choice {
	char name[16]; /* IFNAMSIZ; "" when none */
	enum ps_iface_source source;
	enum ps_status status; /* ok: the interface exists */
	char reason[160];
	char peer[256]; /* the peer the route was looked up for */
	unsigned pmtu;	/* path MTU to the peer, 0 unknown */
	/* the physical NIC under it that the NIC probes (ethtool, PCIe,
	 * IRQs) read: the interface itself for a NIC, "eth0" under a vlan
	 * or bond; "" when there is none (lo, veth) or it is not known */
	char nic[16];
};

const char *ps_iface_source_name(enum ps_iface_source s);

/* whether IF exists (sysfs under the sysroot; live: also if_nametoindex) */
bool ps_iface_exists(const char *ifname);

/*
 * Choose the interface: opt_iface when given (status says whether it
 * exists), else the route to peer (may be NULL), else the default route,
 * else lo (where the loopback self-test runs).
 * Live, with the netlink probes built in, the kernel is asked; with a
 * sysroot, the recorded /proc/net/route is read. Never fails: *out always
 * says what was chosen and why.
 */
void ps_iface_choose(const char *opt_iface, const char *peer,
		     struct ps_iface_choice *out);

/* the "interface: eth0 (default route), path MTU 1500" line of the text */
void ps_iface_print(FILE *out, const struct ps_iface_choice *c);

/* the snapshot's "iface": its JSON and loader (jsonutil.h) */
extern const struct ps_jfield ps_iface_table[];
struct json_object *ps_iface_to_json(const struct ps_iface_choice *c);
int ps_iface_from_json(struct json_object *obj, struct ps_iface_choice *out);

#endif
