/* probe-route.c: the route lookup: which interface (and path MTU) the
 * kernel uses to reach a peer, and the default-route interface, as
 * "ip route get PEER" and "ip route show default" tell (libnl-route-3);
 * and the same answers from a recorded /proc/net/route and ipv6_route.
 * iface.c chooses the interface the probes watch from these answers. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <linux/rtnetlink.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <netlink/route/route.h>

#include "nls.h"
#include "probe-route.h"
#include "rtnl.h"

/* ---- recorded tables: /proc/net/route and /proc/net/ipv6_route -------- */

struct route {
	char ifname[16];
	uint32_t dst, mask;
	unsigned flags;
	long metric;
};

/* one data line of /proc/net/route: 0, 1 (not a route line), -EINVAL */
static int parse_route(const char *line, struct route *r)
{
	char ifn[64];
	unsigned dst, gw, flags, mask;
	int refcnt, use, metric;

	if (sscanf(line, "%63s %x %x %x %d %d %d %x", ifn, &dst, &gw, &flags,
		   &refcnt, &use, &metric, &mask) != 8)
		return -EINVAL;
	if (strlen(ifn) >= sizeof(r->ifname))
		return -EINVAL;
	snprintf(r->ifname, sizeof(r->ifname), "%s", ifn);
	/* the kernel prints the addresses as host-order hex of the network
	 * order value: convert to network order for comparisons */
	r->dst = dst;
	r->mask = mask;
	r->flags = flags;
	r->metric = metric;
	return 0;
}

/* walk the routes; pick the best match of addr (network order) */
static int route_best(const char *text, bool any, uint32_t addr, char *ifname,
		      size_t len)
{
	const char *line = text;
	bool found = false;
	uint32_t best_mask = 0;
	long best_metric = 0;
	int lineno = 0;

	if (!text)
		return -EINVAL;
	for (; *line; line = strchrnul(line, '\n'), line += *line ? 1 : 0) {
		struct route r;

		if (lineno++ == 0) {
			if (strncmp(line, "Iface", 5))
				return -EINVAL;
			continue;
		}
		if (*line == '\n' || !*line)
			continue;
		if (parse_route(line, &r))
			return -EINVAL;
		if (!(r.flags & 0x1)) /* RTF_UP */
			continue;
		if (any) {
			if (r.dst || r.mask)
				continue;
		} else if ((addr & r.mask) != (r.dst & r.mask)) {
			continue;
		}
		if (!found || ntohl(r.mask) > ntohl(best_mask) ||
		    (r.mask == best_mask && r.metric < best_metric)) {
			found = true;
			best_mask = r.mask;
			best_metric = r.metric;
			snprintf(ifname, len, "%s", r.ifname);
		}
	}
	if (lineno == 0)
		return -EINVAL;
	return found ? 0 : -ENOENT;
}

int ps_route_parse_default(const char *text, char *ifname, size_t len)
{
	return route_best(text, true, 0, ifname, len);
}

int ps_route_parse_lookup(const char *text, const char *ipv4, char *ifname,
			  size_t len)
{
	struct in_addr a;

	if (!ipv4 || inet_pton(AF_INET, ipv4, &a) != 1)
		return -EINVAL;
	/* /proc/net/route prints the raw 32-bit value in host order, so the
	 * in-memory value compares directly with s_addr */
	return route_best(text, false, a.s_addr, ifname, len);
}

int ps_route6_parse_default(const char *text, char *ifname, size_t len)
{
	const char *line = text;
	unsigned long best = 0;
	bool found = false;

	if (!text)
		return -EINVAL;
	for (; *line; line = strchrnul(line, '\n'), line += *line ? 1 : 0) {
		char dst[40], src[40], hop[40], dev[64];
		unsigned plen, splen;
		unsigned long metric, refcnt, use, flags;

		if (*line == '\n')
			continue;
		if (sscanf(line, "%39s %x %39s %x %39s %lx %lx %lx %lx %63s",
			   dst, &plen, src, &splen, hop, &metric, &refcnt, &use,
			   &flags, dev) != 10 ||
		    strlen(dst) != 32)
			return -EINVAL;
		if (plen || strspn(dst, "0") != 32)
			continue;
		/* RTF_UP, and not RTF_REJECT */
		if (!(flags & 0x1) || (flags & 0x200))
			continue;
		if (!found || metric < best) {
			found = true;
			best = metric;
			snprintf(ifname, len, "%s", dev);
		}
	}
	return found ? 0 : -ENOENT;
}

/* ---- the kernel's answer (live) -------------------------------------- */

/*
 * Each lookup has a socket of its own (rtnl.c), closed when it is answered:
 * a route is looked up once per interface choice, and nobody else's socket
 * (a probe's, or a lookup on another thread) is shared or shut.
 */

static int link_mtu(struct nl_sock *sk, const char *ifname, unsigned *mtu)
{
	struct rtnl_link *link = NULL;

	if (rtnl_link_get_kernel(sk, 0, ifname, &link) < 0)
		return -ENODEV;
	*mtu = rtnl_link_get_mtu(link);
	rtnl_link_put(link);
	return 0;
}

int ps_route_iface_for(const char *peer_addr, char *ifname, size_t len,
		       unsigned *pmtu)
{
	struct rtnl_route *route = NULL;
	struct rtnl_nexthop *nh;
	struct nl_addr *dst = NULL;
	struct nl_sock *sk = NULL;
	char name[IF_NAMESIZE];
	uint32_t mtu = 0;
	int ret, idx;

	if (!peer_addr || !ifname || !len)
		return -EINVAL;
	if (nl_addr_parse(peer_addr, AF_UNSPEC, &dst) < 0)
		return -EINVAL;
	/* a bare "10.1.2.3" is a /32; the kernel wants a host address */
	if (nl_addr_get_family(dst) != AF_INET &&
	    nl_addr_get_family(dst) != AF_INET6) {
		nl_addr_put(dst);
		return -EINVAL;
	}
	ret = ps_rtnl_connect(&sk, false);
	if (ret < 0)
		goto out;
	ret = rtnl_route_lookup(sk, dst, &route);
	if (ret < 0 || !route) {
		ret = -ENETUNREACH;
		goto out;
	}
	nh = rtnl_route_nexthop_n(route, 0);
	idx = nh ? rtnl_route_nh_get_ifindex(nh) : 0;
	if (idx <= 0 || !if_indextoname((unsigned)idx, name)) {
		ret = -ENETUNREACH;
		goto out;
	}
	snprintf(ifname, len, "%s", name);
	/* a cached PMTU exception, else the device MTU */
	if (rtnl_route_get_metric(route, RTAX_MTU, &mtu) < 0 || !mtu) {
		unsigned m = 0;

		if (link_mtu(sk, name, &m) == 0)
			mtu = m;
	}
	if (pmtu)
		*pmtu = mtu;
	ret = 0;

out:
	ps_rtnl_disconnect(sk);
	if (route)
		rtnl_route_put(route);
	nl_addr_put(dst);
	return ret;
}

struct default_pick {
	int family;
	int ifindex;
	uint32_t prio;
};

static void pick_default(struct nl_object *obj, void *arg)
{
	struct rtnl_route *r = (struct rtnl_route *)obj;
	struct default_pick *p = arg;
	struct nl_addr *dst = rtnl_route_get_dst(r);
	struct rtnl_nexthop *nh;
	int fam = rtnl_route_get_family(r);
	int idx;

	if (rtnl_route_get_table(r) != RT_TABLE_MAIN ||
	    rtnl_route_get_type(r) != RTN_UNICAST ||
	    (dst && nl_addr_get_prefixlen(dst) != 0))
		return;
	nh = rtnl_route_nexthop_n(r, 0);
	idx = nh ? rtnl_route_nh_get_ifindex(nh) : 0;
	if (idx <= 0)
		return;
	/* IPv4 first, then the lowest metric */
	if (p->ifindex && p->family == AF_INET && fam != AF_INET)
		return;
	if (p->ifindex && p->family == fam &&
	    rtnl_route_get_priority(r) >= p->prio)
		return;
	p->family = fam;
	p->ifindex = idx;
	p->prio = rtnl_route_get_priority(r);
}

int ps_route_default_iface_reason(char *ifname, size_t len, char *reason,
				  size_t rlen)
{
	struct default_pick p = { 0 };
	struct nl_cache *cache = NULL;
	struct nl_sock *sk;
	char name[IF_NAMESIZE];
	int ret;

	if (!ifname || !len)
		return -EINVAL;
	if (reason && rlen)
		reason[0] = '\0';
	ret = ps_rtnl_connect(&sk, false);
	if (ret == 0 && rtnl_route_alloc_cache(sk, AF_UNSPEC, 0, &cache) < 0)
		ret = -EIO;
	if (ret == 0) {
		nl_cache_foreach(cache, pick_default, &p);
		nl_cache_free(cache);
	}
	ps_rtnl_disconnect(sk);
	if (ret == 0 && p.ifindex > 0 &&
	    if_indextoname((unsigned)p.ifindex, name)) {
		snprintf(ifname, len, "%s", name);
		return 0;
	}
	snprintf(ifname, len, "lo");
	if (reason && rlen)
		snprintf(reason, rlen, "%s",
			 ret < 0 ? _("the routing table cannot be read; "
				     "using the loopback interface")
				 : _("there is no default route; using the "
				     "loopback interface"));
	return ret < 0 ? ret : -ENETUNREACH;
}

int ps_route_default_iface(char *ifname, size_t len)
{
	return ps_route_default_iface_reason(ifname, len, NULL, 0);
}
