/* probe-link.h: what "ip -s -d link show IF" shows: MTU, state, qdisc,
 * queues, GSO/GRO limits, counters and their rates, and the devices
 * underneath (vlan/bond/bridge/macvlan down to the NICs), over
 * libnl-route-3 (the route lookup is probe-route.h) */
#ifndef PS_PROBE_LINK_H
#define PS_PROBE_LINK_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "status.h"

#define PS_LINK_NA (-1) /* a value the kernel did not report */
#define PS_LINK_REASON 160

/* one device under the probed one (depth 1 = directly underneath) */
struct ps_link_lower {
	char name[IF_NAMESIZE];
	char kind[16]; /* IFLA_INFO_KIND ("bond", "bridge", "") */
	int depth;
	bool physical; /* has a device (/sys/class/net/X/device) */
};

struct ps_link_counters {
	uint64_t rx_bytes, tx_bytes;
	uint64_t rx_packets, tx_packets;
	uint64_t rx_errors, tx_errors;
	uint64_t rx_dropped, tx_dropped;
	uint64_t rx_missed; /* rx_missed_errors: the NIC had no buffer */
};

struct ps_link_rates {
	bool valid; /* two samples were compared */
	double seconds;
	double rx_bps, tx_bps;		 /* bit/s */
	double rx_pps, tx_pps;		 /* packets/s */
	double rx_drops_ps, tx_drops_ps; /* dropped + missed, /s */
	double rx_errors_ps, tx_errors_ps;
};

struct ps_link_info {
	enum ps_status status; /* ok, absent (no such interface), error */
	char reason[PS_LINK_REASON];
	char ifname[IF_NAMESIZE];
	int ifindex;
	char kind[16];	    /* IFLA_INFO_KIND; "" for a plain NIC */
	char operstate[16]; /* "up", "down", "unknown", ... */
	bool admin_up;	    /* IFF_UP */
	bool carrier;	    /* IFF_LOWER_UP */
	bool physical;	    /* a NIC itself (/sys/class/net/IF/device) */
	char qdisc[32];
	int64_t mtu, txqlen;
	int64_t num_rx_queues, num_tx_queues;
	int64_t gso_max_size, gso_max_segs, gro_max_size;

	struct {
		enum ps_status status;
		char reason[PS_LINK_REASON];
		struct ps_link_counters c;
	} counters;
	struct ps_link_rates rates;

	struct { /* vlan100 -> bond0 -> eth0, eth1 */
		enum ps_status status;
		char reason[PS_LINK_REASON];
		unsigned n;
		struct ps_link_lower *v; /* breadth first */
	} lower;
};

void ps_link_init(struct ps_link_info *info, const char *ifname);

/*
 * Pure parser over the raw bytes of an RTM_GETLINK reply (nlmsghdr as
 * received). Fills everything but the lower chain. An error message
 * (ENODEV) sets status absent. 0, or -EBADMSG when not understood.
 */
int ps_link_parse(const void *buf, size_t len, struct ps_link_info *out);

/*
 * An opened link probe samples on an rtnetlink socket (rtnl.h, opened at
 * its first live sample): ps_link_open's is its own, closed with it;
 * ps_link_open_on(rt) uses rt (a probe set's, which the set's qdisc probe
 * shares and the set closes; NULL: its own). Two probe sets, or two threads
 * with a probe each, never share or shut each other's. Never fails.
 */
struct ps_link_probe;
struct ps_rtnl;
struct ps_link_probe *ps_link_open(void);
struct ps_link_probe *ps_link_open_on(struct ps_rtnl *rt);
void ps_link_close(struct ps_link_probe *lp);

/*
 * Sample the live machine: one RTM_GETLINK, then the lower chain from
 * /sys/class/net/IF/lower_* (through the sysroot) and IFLA_LINK. A missing
 * interface is status absent. 0 or -errno when netlink is unusable.
 * ps_link_sample is one sample on a probe of its own (opened and closed).
 */
int ps_link_sample_with(struct ps_link_probe *lp, const char *ifname,
			struct ps_link_info *out);
int ps_link_sample(const char *ifname, struct ps_link_info *out);
void ps_link_free(struct ps_link_info *info);
/* write the next raw RTM_GETLINK replies (of every link probe) to
 * DIR/link.bin; NULL stops */
void ps_link_record(const char *dir);

/*
 * The devices directly under one: its /sys/class/net/NAME/lower_* links
 * (through the sysroot; sorted), else, live, the IFLA_LINK of a vlan or
 * macvlan in this namespace (sk: a raw rtnetlink socket, rtnl.h; NULL:
 * sysfs only). At most max names; the count or -errno (-ENOENT: no such
 * device in sysfs). What sample_lower walks; the path probe too.
 */
struct nl_sock;
int ps_link_lowers(struct nl_sock *sk, const char *name,
		   char (*names)[IF_NAMESIZE], int max);

/* fill cur->rates from the counters of two samples `seconds` apart */
void ps_link_rates(const struct ps_link_info *prev, struct ps_link_info *cur,
		   double seconds);

/* the first physical device of the chain (vlan100 -> bond0 -> eth0, eth1):
 * 0 and its name, or -ENOENT */
int ps_link_nic(const struct ps_link_info *info, char *buf, size_t len);

/*
 * The chain as text, e.g. "vlan100 → bond0 → eth0, eth1" (arrow "->"
 * when !utf8). Just the name when nothing is underneath.
 */
void ps_link_chain_text(const struct ps_link_info *info, char *buf, size_t len,
			bool utf8);

/*
 * JSON: {"ifname","ifindex","status","reason"?,"kind","operstate",
 *   "admin_up","carrier","physical","qdisc","mtu","txqlen","num_rx_queues",
 *   "num_tx_queues","gso_max_size","gso_max_segs","gro_max_size",
 *   "counters":{status,rx_bytes,tx_bytes,rx_packets,tx_packets,rx_errors,
 *               tx_errors,rx_dropped,tx_dropped,rx_missed},
 *   "rates":{seconds,rx_bps,tx_bps,rx_pps,tx_pps,rx_drops_ps,tx_drops_ps,
 *            rx_errors_ps,tx_errors_ps}   (only after ps_link_rates),
 *   "lower":{status,devices:[{name,kind,depth,physical}],
 *            chain:"vlan100 → bond0 → eth0, eth1"}}
 */
struct json_object *ps_link_to_json(const struct ps_link_info *info);
int ps_link_from_json(struct json_object *obj, struct ps_link_info *out);

void ps_link_print(FILE *out, const struct ps_link_info *info);

#endif
