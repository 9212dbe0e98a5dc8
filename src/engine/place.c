/* place.c: the NIC-local CPUs for a test's data threads (place.h) */
#include "config.h"

#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "nls.h"
#include "place.h"
#include "probe-cpu.h"
#include "sanitize.h"

#define SAY(o, ...) snprintf((o)->why, sizeof((o)->why), __VA_ARGS__)

/* the first line of /sys path (live or under the test tree): 0 or -1 */
static int read_sys(const char *path, char *buf, size_t len)
{
	const char *root = getenv("PIPESCOPE_PLACE_SYSROOT");
	char full[512];
	FILE *f;
	size_t n;

	if (snprintf(full, sizeof(full), "%s%s", root ? root : "", path) >=
	    (int)sizeof(full))
		return -1;
	f = fopen(full, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return n ? 0 : -1;
}

/* the interface holding the socket's local address; 0 or -1 */
static int local_ifname(int fd, char *name, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct ifaddrs *ifa, *i;
	int rc = -1;

	if (getsockname(fd, (struct sockaddr *)&ss, &sl))
		return -1;
	/* a dual-stack server's IPv4 client: ::ffff:a.b.c.d */
	if (ss.ss_family == AF_INET6 &&
	    IN6_IS_ADDR_V4MAPPED(&((struct sockaddr_in6 *)&ss)->sin6_addr)) {
		struct sockaddr_in v4 = { .sin_family = AF_INET };

		memcpy(&v4.sin_addr,
		       &((struct sockaddr_in6 *)&ss)->sin6_addr.s6_addr[12], 4);
		memcpy(&ss, &v4, sizeof(v4));
	}
	if (getifaddrs(&ifa))
		return -1;
	for (i = ifa; i && rc; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != ss.ss_family)
			continue;
		if (ss.ss_family == AF_INET &&
		    memcmp(&((struct sockaddr_in *)i->ifa_addr)->sin_addr,
			   &((struct sockaddr_in *)&ss)->sin_addr,
			   sizeof(struct in_addr)))
			continue;
		if (ss.ss_family == AF_INET6 &&
		    memcmp(&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr,
			   &((struct sockaddr_in6 *)&ss)->sin6_addr,
			   sizeof(struct in6_addr)))
			continue;
		if (ss.ss_family != AF_INET && ss.ss_family != AF_INET6)
			continue;
		snprintf(name, len, "%s", i->ifa_name);
		rc = 0;
	}
	freeifaddrs(ifa);
	return rc;
}

static void add_cpu(int id, void *arg)
{
	if (id < CPU_SETSIZE)
		CPU_SET(id, (cpu_set_t *)arg);
}

/* a cpu_set_t as a sysfs list, "0-3,8" ("" when it does not fit) */
static void set_list(const cpu_set_t *s, char *out, size_t len)
{
	size_t used = 0;

	out[0] = 0;
	for (int a = 0; a < CPU_SETSIZE; a++) {
		int b = a;

		if (!CPU_ISSET(a, s))
			continue;
		while (b + 1 < CPU_SETSIZE && CPU_ISSET(b + 1, s))
			b++;
		if (ps_cpu_list_add_range(out, len, &used, a, b))
			return;
		a = b;
	}
}

void ps_place_plan(int fd, bool off, bool pinned, struct ps_placement *o)
{
	char path[128], buf[256], name[IF_NAMESIZE + 1] = "";
	cpu_set_t local, allowed, both;
	long node;
	char *end;

	memset(o, 0, sizeof(*o));
	o->node = -1;
	if (off) {
		SAY(o, "%s",
		    _("--no-numa: the threads run where the kernel puts them"));
		return;
	}
	if (pinned) {
		SAY(o, "%s", _("-A chose the CPUs"));
		return;
	}
	if (local_ifname(fd, name, sizeof(name))) {
		SAY(o, "%s",
		    _("the interface of the test's address is unknown"));
		return;
	}
	ps_sanitize(o->ifname, sizeof(o->ifname), name, 0);
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/numa_node",
		 name);
	if (read_sys(path, buf, sizeof(buf))) {
		SAY(o,
		    _("%s is not a NIC with a PCI device (virtual): no NUMA "
		      "node to stay on"),
		    o->ifname);
		return;
	}
	node = strtol(buf, &end, 10);
	if (*end || node < 0 || node > 4096) {
		SAY(o, _("%s's NIC reports no NUMA node"), o->ifname);
		return;
	}
	o->node = (int)node;
	if (read_sys("/sys/devices/system/node/online", buf, sizeof(buf)) ||
	    ps_cpu_list_count(buf) <= 1) {
		SAY(o, "%s", _("one NUMA node: nothing to place"));
		return;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/local_cpulist",
		 name);
	CPU_ZERO(&local);
	if (read_sys(path, buf, sizeof(buf)) ||
	    ps_cpu_parse_list(buf, add_cpu, &local) || !CPU_COUNT(&local)) {
		SAY(o, _("%s's local CPUs are unknown"), o->ifname);
		return;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		SAY(o, "%s", _("the CPUs this process may use are unknown"));
		return;
	}
	CPU_AND(&both, &local, &allowed);
	set_list(&both, o->cpus, sizeof(o->cpus));
	if (!CPU_COUNT(&both)) {
		set_list(&local, buf, sizeof(buf));
		SAY(o,
		    _("none of %s's local CPUs (%s, node %d) is one this "
		      "process may use"),
		    o->ifname, buf, o->node);
		o->cpus[0] = 0;
		return;
	}
	if (CPU_EQUAL(&both, &allowed)) {
		SAY(o, _("every CPU this process may use is on %s's node %d"),
		    o->ifname, o->node);
		o->cpus[0] = 0;
		return;
	}
	o->set = both;
	o->applied = true;
	SAY(o, _("the data threads stay on CPUs %s, node %d, local to %s"),
	    o->cpus, o->node, o->ifname);
}
