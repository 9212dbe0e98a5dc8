/* iface.c: the "interface: eth0 (default route)" line of "pipescope probe":
 * --iface, else the route to the peer, else the default route */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netdb.h>
#include <sys/socket.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "iface.h"
#include "jsonutil.h"
#include "nls.h"
#include "probe-route.h"
#include "sysroot.h"

static const char *const source_names[] = {
	[PS_IFACE_NONE] = "none",
	[PS_IFACE_OPTION] = "option",
	[PS_IFACE_ROUTE_PEER] = "route_to_peer",
	[PS_IFACE_DEFAULT_ROUTE] = "default_route",
	[PS_IFACE_LOOPBACK] = "loopback",
	NULL, /* the loader reads up to here */
};

const char *ps_iface_source_name(enum ps_iface_source s)
{
	if ((unsigned)s > PS_IFACE_LOOPBACK)
		s = PS_IFACE_NONE;
	return source_names[s];
}

bool ps_iface_exists(const char *ifname)
{
	char path[4096];
	struct stat st;

	if (!ifname || !*ifname || strchr(ifname, '/'))
		return false;
	snprintf(path, sizeof(path), "/sys/class/net/%s", ifname);
	if (!ps_stat(path, &st))
		return true;
	return ps_sysroot_is_live() && if_nametoindex(ifname) > 0;
}

/*
 * The peer as an address literal: as given, or (live only) resolved, IPv4
 * first since the routing table read here is IPv4's. 0 or -EINVAL.
 */
static int peer_literal(const char *peer, char *buf, size_t len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	unsigned char tmp[16];
	int rc = -EINVAL;

	if (inet_pton(AF_INET, peer, tmp) == 1 ||
	    inet_pton(AF_INET6, peer, tmp) == 1) {
		snprintf(buf, len, "%s", peer);
		return 0;
	}
	if (!ps_sysroot_is_live() || getaddrinfo(peer, NULL, &hints, &res))
		return -EINVAL;
	for (int fam = 0; fam < 2 && rc; fam++)
		for (ai = res; ai && rc; ai = ai->ai_next) {
			if (ai->ai_family != (fam ? AF_INET6 : AF_INET))
				continue;
			if (!getnameinfo(ai->ai_addr, ai->ai_addrlen, buf,
					 (socklen_t)len, NULL, 0,
					 NI_NUMERICHOST))
				rc = 0;
		}
	freeaddrinfo(res);
	return rc;
}

static void set_reason(struct ps_iface_choice *out, enum ps_status st,
		       const char *msg)
{
	out->status = st;
	snprintf(out->reason, sizeof(out->reason), "%s", msg);
}

/*
 * Live: the kernel's own answer (netlink: IPv4 and IPv6, the path MTU).
 * 0, -ENOENT (no route), or -ENOSYS to fall back to the tables.
 */
static int route_from_kernel(const char *addr, struct ps_iface_choice *out)
{
	unsigned pmtu = 0;
	int rc;

	if (addr) {
		rc = ps_route_iface_for(addr, out->name, sizeof(out->name),
					&pmtu);
		if (!rc) {
			out->source = PS_IFACE_ROUTE_PEER;
			out->pmtu = pmtu;
			return 0;
		}
	}
	rc = ps_route_default_iface(out->name, sizeof(out->name));
	if (!rc) {
		out->source = PS_IFACE_DEFAULT_ROUTE;
		return 0;
	}
	out->name[0] = 0;
	/* no default route; anything else: try the tables */
	return rc == -ENETUNREACH ? -ENOENT : -ENOSYS;
}

/* /proc/net/route (and ipv6_route): what a recorded tree has; 0, -ENOENT
 * (no route), -ENODATA (no table), -EINVAL (not a routing table) */
static int route_from_tables(const char *addr, struct ps_iface_choice *out)
{
	char *routes;
	int rc = -ENOENT;

	routes = ps_read_file("/proc/net/route", NULL);
	if (!routes) /* no table at all is not "no route" */
		return errno == ENOENT ? -ENODATA : -errno;
	if (addr) {
		rc = ps_route_parse_lookup(routes, addr, out->name,
					   sizeof(out->name));
		if (!rc)
			out->source = PS_IFACE_ROUTE_PEER;
	}
	if (rc) {
		rc = ps_route_parse_default(routes, out->name,
					    sizeof(out->name));
		if (!rc)
			out->source = PS_IFACE_DEFAULT_ROUTE;
	}
	free(routes);
	if (rc == -ENOENT) {
		/* an IPv6-only host */
		routes = ps_read_file("/proc/net/ipv6_route", NULL);
		if (routes && !ps_route6_parse_default(routes, out->name,
						       sizeof(out->name))) {
			out->source = PS_IFACE_DEFAULT_ROUTE;
			rc = 0;
		}
		free(routes);
	}
	return rc;
}

void ps_iface_choose(const char *opt_iface, const char *peer,
		     struct ps_iface_choice *out)
{
	bool live = ps_sysroot_is_live();
	char addr[64];
	int rc = -ENOSYS;

	memset(out, 0, sizeof(*out));
	if (peer)
		snprintf(out->peer, sizeof(out->peer), "%s", peer);
	if (opt_iface && *opt_iface) {
		snprintf(out->name, sizeof(out->name), "%s", opt_iface);
		out->source = PS_IFACE_OPTION;
		if (ps_iface_exists(opt_iface)) {
			out->status = PS_ST_OK;
			return;
		}
		out->status = PS_ST_ABSENT;
		snprintf(out->reason, sizeof(out->reason),
			 live ? _("there is no interface named '%s'")
			      : _("the recorded tree has no interface named "
				  "'%s'"),
			 opt_iface);
		return;
	}
	if (!peer || !*peer || peer_literal(peer, addr, sizeof(addr)))
		addr[0] = 0;
	if (live)
		rc = route_from_kernel(*addr ? addr : NULL, out);
	if (rc == -ENOSYS)
		rc = route_from_tables(*addr ? addr : NULL, out);
	if (rc == -ENOENT && ps_iface_exists("lo")) {
		/* no default route: the loopback self-test's interface */
		snprintf(out->name, sizeof(out->name), "lo");
		out->source = PS_IFACE_LOOPBACK;
		out->status = PS_ST_OK;
		return;
	}
	if (rc) {
		out->name[0] = 0;
		out->source = PS_IFACE_NONE;
		if (rc == -ENOENT)
			set_reason(out, PS_ST_ABSENT,
				   _("there is no default route; use --iface"));
		else if (rc == -EINVAL)
			set_reason(out, PS_ST_ERROR,
				   _("the routing table could not be read; use "
				     "--iface"));
		else if (!live)
			set_reason(out, PS_ST_NOT_RECORDED,
				   _("no routing table in the recorded tree; "
				     "use --iface"));
		else
			set_reason(out, PS_ST_ERROR,
				   _("cannot read the routing table; use "
				     "--iface"));
		return;
	}
	if (ps_iface_exists(out->name)) {
		out->status = PS_ST_OK;
		return;
	}
	out->status = live ? PS_ST_ABSENT : PS_ST_NOT_RECORDED;
	snprintf(out->reason, sizeof(out->reason),
		 _("the route names '%s', but it has no entry in "
		   "/sys/class/net"),
		 out->name);
}

void ps_iface_print(FILE *out, const struct ps_iface_choice *ic)
{
	fprintf(out, "%s: ", _("interface"));
	if (ic->name[0]) {
		static const char *const how[] = {
			[PS_IFACE_NONE] = "",
			[PS_IFACE_OPTION] = N_("--iface"),
			[PS_IFACE_ROUTE_PEER] = N_("route to the peer"),
			[PS_IFACE_DEFAULT_ROUTE] = N_("default route"),
			[PS_IFACE_LOOPBACK] =
				N_("no default route: the loopback interface"),
		};

		fprintf(out, "%s (%s)", ic->name, _(how[ic->source]));
		if (ic->pmtu)
			fprintf(out, _(", path MTU %u"), ic->pmtu);
		if (ic->nic[0] && strcmp(ic->nic, ic->name))
			fprintf(out, _(", on the NIC %s"), ic->nic);
		if (ic->status != PS_ST_OK)
			fprintf(out, ": %s", ic->reason);
	} else {
		fprintf(out, "%s", ic->reason[0] ? ic->reason : _("none"));
	}
	fputc('\n', out);
}

/* the snapshot's "iface" (doc/snapshot.md) */
const struct ps_jfield ps_iface_table[] = {
	PS_JFIELD(struct ps_iface_choice, name, "name", PS_JT_STRING,
		  PS_JF_REQUIRED, NULL, NULL),
	PS_JENUM(struct ps_iface_choice, source, "source", PS_JF_REQUIRED,
		 source_names, NULL, NULL),
	PS_JSTATUS(struct ps_iface_choice, status, reason, PS_JF_NA),
	PS_JFIELD(struct ps_iface_choice, peer, "peer", PS_JT_STRING, PS_JF_NA,
		  NULL, NULL),
	{ .key = "pmtu",
	  .type = PS_JT_UINT,
	  .flags = PS_JF_POSITIVE,
	  .off = offsetof(struct ps_iface_choice, pmtu),
	  .size = PS_JSIZE(struct ps_iface_choice, pmtu),
	  .max = 1u << 20 },
	PS_JFIELD(struct ps_iface_choice, nic, "nic", PS_JT_STRING, PS_JF_NA,
		  NULL, NULL),
	PS_JEND
};

struct json_object *ps_iface_to_json(const struct ps_iface_choice *c)
{
	return ps_jtable_to_json(ps_iface_table, c);
}

int ps_iface_from_json(struct json_object *obj, struct ps_iface_choice *out)
{
	memset(out, 0, sizeof(*out));
	return ps_jtable_load(obj, ps_iface_table, out) ? -EINVAL : 0;
}
