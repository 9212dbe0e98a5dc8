/* probe-route.h: the route lookup: which interface reaches a peer and
 * which has the default route, from the kernel (netlink, live) or from a
 * recorded /proc/net/route and ipv6_route (pure parsers) */
#ifndef PS_PROBE_ROUTE_H
#define PS_PROBE_ROUTE_H

#include <stddef.h>

/*
 * Pure parsers of /proc/net/route (IPv4, hex in host order): the interface
 * of the default route with the lowest metric, and the longest-prefix match
 * for an IPv4 address. 0, -ENOENT (no such route) or -EINVAL.
 */
int ps_route_parse_default(const char *text, char *ifname, size_t len);
int ps_route_parse_lookup(const char *text, const char *ipv4, char *ifname,
			  size_t len);

/* the IPv6 default route of /proc/net/ipv6_route (lowest metric; reject
 * routes such as the kernel's "unreachable" on lo are skipped) */
int ps_route6_parse_default(const char *text, char *ifname, size_t len);

/*
 * Which interface the kernel uses for peer_addr (IPv4 or IPv6 literal), and
 * the path MTU (a cached PMTU exception, else the interface MTU; pmtu may
 * be NULL). 0, -EINVAL for a bad address, -ENETUNREACH without a route.
 */
int ps_route_iface_for(const char *peer_addr, char *ifname, size_t len,
		       unsigned *pmtu);
/*
 * The default-route interface (lowest metric, IPv4 before IPv6). Without
 * a default route it still fills "lo", returns -ENETUNREACH and says why
 * in reason (when given).
 */
int ps_route_default_iface(char *ifname, size_t len);
int ps_route_default_iface_reason(char *ifname, size_t len, char *reason,
				  size_t rlen);

#endif
