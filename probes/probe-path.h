/* probe-path.h: every device a test's packets cross on this host, from the
 * routed interface down to the NIC ("ip -d link", "tc -s qdisc", "tc
 * filter show ingress", "bridge fdb" of just those devices): the lowers
 * of a vlan/macvlan/bond, the bridge port toward the peer, a vxlan's
 * underlay, the ifb an ingress mirred redirect sends to, and on each what
 * can shape or drop there (its root qdisc tree and classes) */
#ifndef PS_PROBE_PATH_H
#define PS_PROBE_PATH_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "probe-qdisc.h"
#include "status.h"

struct json_object;

#define PS_PATH_MAX 24 /* devices kept on one path */
#define PS_PATH_GUESS_MAX                                                      \
	8 /* bridge ports listed when the one toward the                       \
	   * peer cannot be told */
#define PS_PATH_REASON 160

enum ps_path_role {
	PS_PATH_ROUTED = 0, /* the interface the route picks */
	PS_PATH_LOWER,	    /* under an upper: vlan/macvlan parent, bond
			     * slave ... down to the NIC */
	PS_PATH_PORT,	    /* the bridge port the peer's traffic crosses
			     * (every port that is up when it cannot be
			     * told: ports_guessed) */
	PS_PATH_UNDERLAY,   /* the device a vxlan's encapsulated packets
			     * leave by */
	PS_PATH_IFB,	    /* the target of an ingress mirred redirect */
	PS_PATH_NROLES
};

/* JSON names of the roles: "routed", "lower", "port", "underlay", "ifb" */
extern const char *const ps_path_role_names[];

struct ps_path_dev {
	char name[IF_NAMESIZE];
	int ifindex;   /* 0 unknown */
	char kind[16]; /* IFLA_INFO_KIND ("bridge", "vxlan", "ifb", "") */
	enum ps_path_role role;
	char via[IF_NAMESIZE]; /* the device it was reached from: the upper,
				* the bridge, the overlay, the redirecting
				* device; "" for the routed one */
	enum ps_status status; /* ok; absent: it went away (mid-test) */
	char reason[PS_PATH_REASON];
	int64_t mtu;	    /* PS_NA unknown */
	int encap_overhead; /* vxlan/geneve: 50 over IPv4, 70 over IPv6 */
	bool physical;	    /* a NIC (/sys/class/net/X/device) */
	bool up;	    /* IFF_UP (operstate up, recorded) */
	char redirect_to[IF_NAMESIZE];	/* its ingress redirects (mirred
					 * egress redirect/mirror) to it */
	bool has_ingress;		/* an ingress or clsact qdisc */
	struct ps_qdisc_info qdisc;	/* its qdiscs and classes: what it
					 * does to the packets it sends */
	int64_t rx_dropped, tx_dropped; /* link counters, PS_NA unknown */
};

struct ps_path_info {
	enum ps_status status;
	char reason[PS_PATH_REASON];
	char ifname[IF_NAMESIZE]; /* the routed interface */
	unsigned n;
	struct ps_path_dev *dev; /* heap, n of them; dev[0] the routed one */
	bool truncated;		 /* more than PS_PATH_MAX */
	bool ports_guessed;	 /* a bridge's port toward the peer could not
				  * be told: its up ports are listed */
};

/* the direction a device's shaping acts on, from its own end */
enum ps_path_dir {
	PS_PATH_EGRESS = 0, /* what this host sends (a root qdisc tree) */
	PS_PATH_INGRESS,    /* what it receives (an ifb's root qdisc behind
			     * an ingress redirect) */
};

void ps_path_init(struct ps_path_info *info, const char *ifname);
void ps_path_free(struct ps_path_info *info);

enum ps_path_dir ps_path_direction(const struct ps_path_info *info, unsigned i);
/* "egress" / "ingress" */
const char *ps_path_dir_name(enum ps_path_dir d);
/* where device i shapes, translated: "veth1", "ingress of veth1,
 * redirected to ifb0", "bridge port vp1 of br0", "eth0 under vlan10",
 * "underlay eth0 of vxlan0" */
void ps_path_place(const struct ps_path_info *info, unsigned i, char *buf,
		   size_t len);
/* the device named so, or NULL */
const struct ps_path_dev *ps_path_find(const struct ps_path_info *info,
				       const char *name);

/* a name as the kernel allows them: [A-Za-z0-9._@:-], under IF_NAMESIZE;
 * anything else becomes '?' */
void ps_path_clean_name(char *dst, const char *src);

/*
 * Pure parsers.
 * ps_path_parse_filters: the raw bytes of an RTM_GETTFILTER dump (u32,
 * matchall, bpf, flower and basic classifiers): the ifindex each mirred
 * action redirects or mirrors to (egress), at most max; the count.
 * ps_path_parse_filter_text: the same from the text of "tc -s filter show
 * dev IF ingress" ("mirred (Egress Redirect to device ifb0)"): names.
 * ps_path_parse_neigh: the lladdr of addr (alen 4 or 16) on ifindex in an
 * RTM_GETNEIGH dump; 0 or -ENOENT.
 * ps_path_parse_fdb: the port (ifindex) of mac in an AF_BRIDGE fdb dump
 * whose entries have master `master`; the ifindex or -ENOENT.
 */
struct ps_path_redirect {
	int ifindex;
	bool mirror; /* a copy (mirror), not the packet itself (redirect) */
};
int ps_path_parse_filters(const void *buf, size_t len,
			  struct ps_path_redirect *out, int max);
int ps_path_parse_filter_text(const char *text, char (*names)[IF_NAMESIZE],
			      int max);
int ps_path_parse_neigh(const void *buf, size_t len, int ifindex,
			const void *addr, int alen, unsigned char mac[6]);
int ps_path_parse_fdb(const void *buf, size_t len, int master,
		      const unsigned char mac[6]);

/*
 * Live: from ifname, one RTM_GETLINK per device, its qdiscs by one dump of
 * that device (ps_qdisc_sample_dev), its ingress filters when it has an
 * ingress/clsact qdisc, a bridge's fdb entry for the peer's (else the
 * gateway's) MAC; peer: the test's peer address literal ("" or NULL:
 * ports guessed). Recorded (--sysroot): DIR/sys/class/net, DIR/tc/IF.txt,
 * DIR/tc/IF.ingress.txt. Never reads a device off the path.
 */
struct ps_path_probe;
struct ps_rtnl;
struct ps_path_probe *ps_path_open_on(struct ps_rtnl *rt);
void ps_path_close(struct ps_path_probe *pp);
int ps_path_sample_peer(struct ps_path_probe *pp, const char *ifname,
			const char *peer, struct ps_path_info *out);

/*
 * JSON: {"ifname","status","reason"?,"truncated","ports_guessed",
 *   "devices":[{name,ifindex?,kind,role,via?,status,reason?,mtu?,
 *     encap_overhead,physical,up,redirect_to?,has_ingress,direction,
 *     rx_dropped?,tx_dropped?,qdisc:{as the qdisc section}}]}
 * From JSON (a far end, a file): names cleaned, at most PS_PATH_MAX.
 */
struct json_object *ps_path_to_json(const struct ps_path_info *info);
int ps_path_from_json(struct json_object *obj, struct ps_path_info *out);
void ps_path_print(FILE *out, const struct ps_path_info *info);

#endif
