/* probe-link.c: what "ip -s -d link show IF" shows (MTU, state, qdisc,
 * queues, GSO/GRO limits, counters -> rates), the devices underneath
 * (vlan/bond/bridge/macvlan down to the NICs) and "ip route get PEER"
 * (which interface and path MTU reach a peer), over libnl-route-3 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <langinfo.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <netlink/route/route.h>
#include <netlink/socket.h>

#include "log.h"
#include "nls.h"
#include "probe-link.h"
#include "sysroot.h"
#include "xmalloc.h"

/* <linux/if.h> has it, but clashes with <net/if.h> */
#ifndef IFF_LOWER_UP
#define IFF_LOWER_UP 0x10000
#endif

#define MAX_LOWER 64
#define MAX_DEPTH 8

static struct {
	pthread_mutex_t lock;
	struct nl_sock *sk;
	char *record;
} ctx = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void set_status(enum ps_status *st, char *reason, enum ps_status v,
		       const char *text)
{
	*st = v;
	snprintf(reason, PS_LINK_REASON, "%s", text ? text : "");
}

void ps_link_init(struct ps_link_info *info, const char *ifname)
{
	memset(info, 0, sizeof(*info));
	info->status = PS_ST_ERROR;
	snprintf(info->ifname, sizeof(info->ifname), "%s",
		 ifname ? ifname : "");
	info->mtu = info->txqlen = PS_LINK_NA;
	info->num_rx_queues = info->num_tx_queues = PS_LINK_NA;
	info->gso_max_size = info->gso_max_segs = PS_LINK_NA;
	info->gro_max_size = PS_LINK_NA;
	info->counters.status = PS_ST_ERROR;
	info->lower.status = PS_ST_ERROR;
}

void ps_link_free(struct ps_link_info *info)
{
	if (!info)
		return;
	free(info->lower.v);
	info->lower.v = NULL;
	info->lower.n = 0;
}

/* ---- the pure parser ----------------------------------------------------- */

static void obj_cb(struct nl_object *obj, void *arg)
{
	struct rtnl_link **out = arg;

	if (!*out) {
		nl_object_get(obj);
		*out = (struct rtnl_link *)obj;
	}
}

static int64_t attr_u32(struct nlattr **tb, int type)
{
	if (!tb[type] || nla_len(tb[type]) < (int)sizeof(uint32_t))
		return PS_LINK_NA;
	return nla_get_u32(tb[type]);
}

static void fill_from_link(struct rtnl_link *l, struct ps_link_info *out)
{
	struct ps_link_counters *c = &out->counters.c;
	unsigned flags = rtnl_link_get_flags(l);
	uint32_t v;
	char *s;

	if (rtnl_link_get_name(l))
		snprintf(out->ifname, sizeof(out->ifname), "%s",
			 rtnl_link_get_name(l));
	out->ifindex = rtnl_link_get_ifindex(l);
	s = rtnl_link_get_type(l);
	snprintf(out->kind, sizeof(out->kind), "%s", s ? s : "");
	rtnl_link_operstate2str(rtnl_link_get_operstate(l), out->operstate,
				sizeof(out->operstate));
	out->admin_up = flags & IFF_UP;
	out->carrier = flags & IFF_LOWER_UP;
	s = rtnl_link_get_qdisc(l);
	snprintf(out->qdisc, sizeof(out->qdisc), "%s", s ? s : "");
	out->mtu = rtnl_link_get_mtu(l);
	out->txqlen = rtnl_link_get_txqlen(l);
	out->num_rx_queues = rtnl_link_get_num_rx_queues(l);
	out->num_tx_queues = rtnl_link_get_num_tx_queues(l);
	if (rtnl_link_get_gso_max_size(l, &v) == 0)
		out->gso_max_size = v;
	if (rtnl_link_get_gso_max_segs(l, &v) == 0)
		out->gso_max_segs = v;

	c->rx_bytes = rtnl_link_get_stat(l, RTNL_LINK_RX_BYTES);
	c->tx_bytes = rtnl_link_get_stat(l, RTNL_LINK_TX_BYTES);
	c->rx_packets = rtnl_link_get_stat(l, RTNL_LINK_RX_PACKETS);
	c->tx_packets = rtnl_link_get_stat(l, RTNL_LINK_TX_PACKETS);
	c->rx_errors = rtnl_link_get_stat(l, RTNL_LINK_RX_ERRORS);
	c->tx_errors = rtnl_link_get_stat(l, RTNL_LINK_TX_ERRORS);
	c->rx_dropped = rtnl_link_get_stat(l, RTNL_LINK_RX_DROPPED);
	c->tx_dropped = rtnl_link_get_stat(l, RTNL_LINK_TX_DROPPED);
	c->rx_missed = rtnl_link_get_stat(l, RTNL_LINK_RX_MISSED_ERR);
}

int ps_link_parse(const void *buf, size_t len, struct ps_link_info *out)
{
	const struct nlmsghdr *nlh = buf;
	int rem = (int)len;

	if (!buf || len < sizeof(*nlh))
		return -EBADMSG;
	for (; NLMSG_OK(nlh, rem); nlh = NLMSG_NEXT(nlh, rem)) {
		struct nlattr *tb[IFLA_MAX + 1];
		struct rtnl_link *l = NULL;
		struct nl_msg *msg;
		int err;

		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(nlh);
			char msgbuf[PS_LINK_REASON];

			if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
				return -EBADMSG;
			if (e->error == 0)
				continue;
			if (e->error == -ENODEV) {
				snprintf(msgbuf, sizeof(msgbuf),
					 _("no network interface named %s"),
					 out->ifname);
				set_status(&out->status, out->reason,
					   PS_ST_ABSENT, msgbuf);
			} else {
				/* any int may arrive: -INT_MIN does not exist */
				int code = e->error == INT_MIN ? EPROTO :
					   e->error < 0 ? -e->error : e->error;

				snprintf(msgbuf, sizeof(msgbuf),
					 _("reading the link failed: %s"),
					 strerror(code));
				set_status(&out->status, out->reason,
					   PS_ST_ERROR, msgbuf);
			}
			set_status(&out->counters.status, out->counters.reason,
				   out->status, msgbuf);
			return 0;
		}
		if (nlh->nlmsg_type != RTM_NEWLINK)
			continue;
		if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(struct ifinfomsg)))
			return -EBADMSG;
		/* libnl's own link parser, on a copy of these bytes */
		msg = nlmsg_convert((struct nlmsghdr *)nlh);
		if (!msg)
			return -ENOMEM;
		nlmsg_set_proto(msg, NETLINK_ROUTE);
		err = nl_msg_parse(msg, obj_cb, &l);
		if (err < 0 || !l) {
			nlmsg_free(msg);
			return -EBADMSG;
		}
		fill_from_link(l, out);
		/* what this libnl does not know yet (kernel 5.19+) */
		if (nlmsg_parse(nlmsg_hdr(msg), sizeof(struct ifinfomsg), tb,
				IFLA_MAX, NULL) == 0)
			out->gro_max_size = attr_u32(tb, IFLA_GRO_MAX_SIZE);
		rtnl_link_put(l);
		nlmsg_free(msg);
		set_status(&out->status, out->reason, PS_ST_OK, NULL);
		set_status(&out->counters.status, out->counters.reason,
			   PS_ST_OK, NULL);
		return 0;
	}
	return -EBADMSG;
}

/* ---- rates
 * ------------------------------------------------------------------- */

static double delta(uint64_t a, uint64_t b, double s)
{
	return b >= a ? (double)(b - a) / s : 0.0; /* reset: no rate */
}

void ps_link_rates(const struct ps_link_info *prev, struct ps_link_info *cur,
		   double seconds)
{
	const struct ps_link_counters *p = &prev->counters.c;
	const struct ps_link_counters *c = &cur->counters.c;
	struct ps_link_rates *r = &cur->rates;

	memset(r, 0, sizeof(*r));
	if (seconds <= 0 || prev->counters.status != PS_ST_OK ||
	    cur->counters.status != PS_ST_OK || prev->ifindex != cur->ifindex)
		return;
	r->valid = true;
	r->seconds = seconds;
	r->rx_bps = 8 * delta(p->rx_bytes, c->rx_bytes, seconds);
	r->tx_bps = 8 * delta(p->tx_bytes, c->tx_bytes, seconds);
	r->rx_pps = delta(p->rx_packets, c->rx_packets, seconds);
	r->tx_pps = delta(p->tx_packets, c->tx_packets, seconds);
	r->rx_drops_ps = delta(p->rx_dropped + p->rx_missed,
			       c->rx_dropped + c->rx_missed, seconds);
	r->tx_drops_ps = delta(p->tx_dropped, c->tx_dropped, seconds);
	r->rx_errors_ps = delta(p->rx_errors, c->rx_errors, seconds);
	r->tx_errors_ps = delta(p->tx_errors, c->tx_errors, seconds);
}

/* ---- live
 * ---------------------------------------------------------------------- */

void ps_link_record(const char *dir)
{
	pthread_mutex_lock(&ctx.lock);
	free(ctx.record);
	ctx.record = dir ? xstrdup(dir) : NULL;
	pthread_mutex_unlock(&ctx.lock);
}

static int ctx_open(void)
{
	int err;

	if (ctx.sk)
		return 0;
	ctx.sk = nl_socket_alloc();
	if (!ctx.sk)
		return -ENOMEM;
	err = nl_connect(ctx.sk, NETLINK_ROUTE);
	if (err < 0) {
		nl_socket_free(ctx.sk);
		ctx.sk = NULL;
		return -EPROTO;
	}
	nl_socket_enable_msg_peek(ctx.sk);
	/*
	 * Every request here is a single GET answered by one message (or a
	 * dump ending in DONE): no ACK to leave behind for the next request,
	 * and our own raw GETLINK keeps libnl's sequence counter unaware.
	 */
	nl_socket_disable_auto_ack(ctx.sk);
	nl_socket_disable_seq_check(ctx.sk);
	return 0;
}

void ps_link_shutdown(void)
{
	pthread_mutex_lock(&ctx.lock);
	if (ctx.sk)
		nl_socket_free(ctx.sk);
	ctx.sk = NULL;
	free(ctx.record);
	ctx.record = NULL;
	pthread_mutex_unlock(&ctx.lock);
}

static void record(const char *name, const void *buf, size_t len)
{
	char *path;
	FILE *f;

	if (!ctx.record)
		return;
	xasprintf(&path, "%s/%s.bin", ctx.record, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len)
		ps_warn(_("cannot record %s: %s"), path, strerror(errno));
	if (f)
		fclose(f);
	free(path);
}

/* one RTM_GETLINK by name; the raw reply bytes in *out (free them) */
static int getlink_raw(const char *ifname, unsigned char **out, int *outlen)
{
	struct nl_msg *msg;
	uint32_t seq;
	int err;

	err = rtnl_link_build_get_request(0, ifname, &msg);
	if (err < 0)
		return -ENOMEM;
	nl_complete_msg(ctx.sk, msg);
	seq = nlmsg_hdr(msg)->nlmsg_seq;
	err = nl_send(ctx.sk, msg);
	nlmsg_free(msg);
	if (err < 0)
		return -EIO;
	for (;;) {
		struct sockaddr_nl nla;
		unsigned char *buf = NULL;
		int n = nl_recv(ctx.sk, &nla, &buf, NULL);
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

		if (n <= 0) {
			free(buf);
			return n == 0 ? -ENODATA : -EIO;
		}
		if (NLMSG_OK(nlh, n) && nlh->nlmsg_seq == seq) {
			*out = buf;
			*outlen = n;
			return 0;
		}
		free(buf); /* a stale reply of an earlier request */
	}
}

static bool is_physical(const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/class/net/%s/device", name);
	return ps_stat(path, &st) == 0;
}

static bool seen(const struct ps_link_info *info, const char *name)
{
	if (!strcmp(info->ifname, name))
		return true;
	for (unsigned k = 0; k < info->lower.n; k++)
		if (!strcmp(info->lower.v[k].name, name))
			return true;
	return false;
}

static void add_lower(struct ps_link_info *info, const char *name, int depth)
{
	struct ps_link_lower *l;
	struct rtnl_link *link = NULL;

	if (info->lower.n >= MAX_LOWER || seen(info, name))
		return;
	info->lower.v = xrealloc(info->lower.v,
				 (info->lower.n + 1) * sizeof(*info->lower.v));
	l = &info->lower.v[info->lower.n++];
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->depth = depth;
	l->physical = is_physical(name);
	if (ps_sysroot_is_live() &&
	    rtnl_link_get_kernel(ctx.sk, 0, name, &link) == 0) {
		char *kind = rtnl_link_get_type(link);

		snprintf(l->kind, sizeof(l->kind), "%s", kind ? kind : "");
		rtnl_link_put(link);
	}
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/*
 * The lower_* links of a device in sysfs: bond slaves, bridge ports, the
 * device under a vlan or macvlan. Sorted, so the chain reads the same on
 * every run.
 */
static int sysfs_lowers(struct ps_link_info *info, const char *name, int depth)
{
	char path[512];
	char names[MAX_LOWER][IF_NAMESIZE];
	struct dirent *de;
	DIR *d;
	int found = 0;

	snprintf(path, sizeof(path), "/sys/class/net/%s", name);
	d = ps_opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && found < MAX_LOWER) {
		if (strncmp(de->d_name, "lower_", 6) || !de->d_name[6])
			continue;
		snprintf(names[found++], IF_NAMESIZE, "%s", de->d_name + 6);
	}
	closedir(d);
	qsort(names, (size_t)found, IF_NAMESIZE, name_cmp);
	for (int k = 0; k < found; k++)
		add_lower(info, names[k], depth);
	return found;
}

/* IFLA_LINK of a stacked device (vlan, macvlan, ...) in this namespace */
static void iflink_lower(struct ps_link_info *info, const char *name, int depth)
{
	static const char *const stacked[] = {
		"vlan", "macvlan", "macvtap", "ipvlan", "ipvtap",
	};
	struct rtnl_link *link = NULL;
	int32_t nsid;
	char lname[IF_NAMESIZE];
	char *kind;
	int idx;

	if (rtnl_link_get_kernel(ctx.sk, 0, name, &link) < 0)
		return;
	kind = rtnl_link_get_type(link);
	idx = rtnl_link_get_link(link);
	for (size_t k = 0; kind && k < sizeof(stacked) / sizeof(*stacked); k++)
		if (!strcmp(kind, stacked[k]) && idx > 0 &&
		    idx != rtnl_link_get_ifindex(link) &&
		    rtnl_link_get_link_netnsid(link, &nsid) < 0 &&
		    if_indextoname((unsigned)idx, lname))
			add_lower(info, lname, depth);
	rtnl_link_put(link);
}

static void sample_lower(struct ps_link_info *info)
{
	unsigned from = 0, to;
	int ret;

	ret = sysfs_lowers(info, info->ifname, 1);
	if (ret == -ENOENT && !ps_sysroot_is_live()) {
		char msg[PS_LINK_REASON];

		snprintf(msg, sizeof(msg),
			 _("/sys/class/net/%s is not in the recording"),
			 info->ifname);
		set_status(&info->lower.status, info->lower.reason,
			   PS_ST_NOT_RECORDED, msg);
		return;
	}
	if (ret == 0 && ps_sysroot_is_live())
		iflink_lower(info, info->ifname, 1);
	if (ret < 0 && ret != -ENOENT) {
		char msg[PS_LINK_REASON];

		snprintf(msg, sizeof(msg),
			 _("cannot read /sys/class/net/%s: %s"), info->ifname,
			 strerror(-ret));
		set_status(&info->lower.status, info->lower.reason, PS_ST_ERROR,
			   msg);
		return;
	}
	/* breadth first, one level at a time */
	for (int depth = 2; depth <= MAX_DEPTH; depth++) {
		to = info->lower.n;
		if (from == to)
			break;
		for (unsigned k = from; k < to; k++) {
			char name[IF_NAMESIZE];

			snprintf(name, sizeof(name), "%s",
				 info->lower.v[k].name);
			if (sysfs_lowers(info, name, depth) == 0 &&
			    ps_sysroot_is_live())
				iflink_lower(info, name, depth);
		}
		from = to;
	}
	set_status(&info->lower.status, info->lower.reason, PS_ST_OK, NULL);
}

int ps_link_sample(const char *ifname, struct ps_link_info *out)
{
	unsigned char *buf = NULL;
	char msg[PS_LINK_REASON];
	int len = 0, ret;

	ps_link_init(out, ifname);
	if (!ifname || !*ifname || strlen(ifname) >= IF_NAMESIZE) {
		set_status(&out->status, out->reason, PS_ST_ABSENT,
			   _("no valid interface name given"));
		goto out_absent;
	}
	if (!ps_sysroot_is_live()) {
		/* netlink cannot be recorded in a tree; the chain can */
		set_status(&out->status, out->reason, PS_ST_NOT_RECORDED,
			   _("netlink answers are not part of a --sysroot "
			     "recording"));
		set_status(&out->counters.status, out->counters.reason,
			   PS_ST_NOT_RECORDED, out->reason);
		pthread_mutex_lock(&ctx.lock);
		out->physical = is_physical(out->ifname);
		sample_lower(out);
		pthread_mutex_unlock(&ctx.lock);
		return 0;
	}
	pthread_mutex_lock(&ctx.lock);
	ret = ctx_open();
	if (ret == 0)
		ret = getlink_raw(ifname, &buf, &len);
	if (ret < 0) {
		pthread_mutex_unlock(&ctx.lock);
		snprintf(msg, sizeof(msg),
			 _("cannot talk to the kernel over rtnetlink: %s"),
			 strerror(-ret));
		set_status(&out->status, out->reason, PS_ST_ERROR, msg);
		set_status(&out->counters.status, out->counters.reason,
			   PS_ST_ERROR, msg);
		set_status(&out->lower.status, out->lower.reason, PS_ST_ERROR,
			   msg);
		return ret;
	}
	record("link", buf, (size_t)len);
	ret = ps_link_parse(buf, (size_t)len, out);
	free(buf);
	if (ret < 0) {
		set_status(&out->status, out->reason, PS_ST_ERROR,
			   _("malformed rtnetlink reply"));
		set_status(&out->counters.status, out->counters.reason,
			   PS_ST_ERROR, out->reason);
	}
	if (out->status == PS_ST_OK) {
		out->physical = is_physical(out->ifname);
		sample_lower(out);
	}
	pthread_mutex_unlock(&ctx.lock);
	if (out->status == PS_ST_ABSENT)
		goto out_absent;
	if (out->status != PS_ST_OK)
		set_status(&out->lower.status, out->lower.reason, out->status,
			   out->reason);
	return 0;

out_absent:
	set_status(&out->counters.status, out->counters.reason, PS_ST_ABSENT,
		   out->reason);
	set_status(&out->lower.status, out->lower.reason, PS_ST_ABSENT,
		   out->reason);
	return 0;
}

void ps_link_chain_text(const struct ps_link_info *info, char *buf, size_t len,
			bool utf8)
{
	const char *arrow = utf8 ? " \u2192 " : " -> ";
	size_t used;
	int depth = 0;

	if (!len)
		return;
	snprintf(buf, len, "%s", info->ifname);
	for (unsigned k = 0; k < info->lower.n; k++) {
		const struct ps_link_lower *l = &info->lower.v[k];

		used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s",
			 l->depth != depth ? arrow : ", ", l->name);
		depth = l->depth;
	}
}

/* ---- routes
 * ------------------------------------------------------------------------- */

static int link_mtu(const char *ifname, unsigned *mtu)
{
	struct rtnl_link *link = NULL;

	if (rtnl_link_get_kernel(ctx.sk, 0, ifname, &link) < 0)
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
	pthread_mutex_lock(&ctx.lock);
	ret = ctx_open();
	if (ret < 0)
		goto out_unlock;
	ret = rtnl_route_lookup(ctx.sk, dst, &route);
	if (ret < 0 || !route) {
		ret = -ENETUNREACH;
		goto out_unlock;
	}
	nh = rtnl_route_nexthop_n(route, 0);
	idx = nh ? rtnl_route_nh_get_ifindex(nh) : 0;
	if (idx <= 0 || !if_indextoname((unsigned)idx, name)) {
		ret = -ENETUNREACH;
		goto out_unlock;
	}
	snprintf(ifname, len, "%s", name);
	/* a cached PMTU exception, else the device MTU */
	if (rtnl_route_get_metric(route, RTAX_MTU, &mtu) < 0 || !mtu) {
		unsigned m = 0;

		if (link_mtu(name, &m) == 0)
			mtu = m;
	}
	if (pmtu)
		*pmtu = mtu;
	ret = 0;

out_unlock:
	pthread_mutex_unlock(&ctx.lock);
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
	char name[IF_NAMESIZE];
	int ret;

	if (!ifname || !len)
		return -EINVAL;
	if (reason && rlen)
		reason[0] = '\0';
	pthread_mutex_lock(&ctx.lock);
	ret = ctx_open();
	if (ret == 0 &&
	    rtnl_route_alloc_cache(ctx.sk, AF_UNSPEC, 0, &cache) < 0)
		ret = -EIO;
	if (ret == 0) {
		nl_cache_foreach(cache, pick_default, &p);
		nl_cache_free(cache);
	}
	pthread_mutex_unlock(&ctx.lock);
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

/* ---- JSON
 * ----------------------------------------------------------------------------
 */

static void j_int(struct json_object *o, const char *key, int64_t v)
{
	if (v != PS_LINK_NA)
		json_object_object_add(o, key, json_object_new_int64(v));
}

static void j_u64(struct json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(
		o, key,
		json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v));
}

static void j_status(struct json_object *o, enum ps_status st,
		     const char *reason)
{
	json_object_object_add(o, "status",
			       json_object_new_string(ps_status_name(st)));
	if (reason && *reason)
		json_object_object_add(o, "reason",
				       json_object_new_string(reason));
}

struct json_object *ps_link_to_json(const struct ps_link_info *i)
{
	struct json_object *root = json_object_new_object();
	struct json_object *o, *a;
	const struct ps_link_counters *c = &i->counters.c;
	char chain[512];

	json_object_object_add(root, "ifname",
			       json_object_new_string(i->ifname));
	json_object_object_add(root, "ifindex",
			       json_object_new_int(i->ifindex));
	j_status(root, i->status, i->reason);
	if (i->status == PS_ST_OK) {
		json_object_object_add(root, "kind",
				       json_object_new_string(i->kind));
		json_object_object_add(root, "operstate",
				       json_object_new_string(i->operstate));
		json_object_object_add(root, "admin_up",
				       json_object_new_boolean(i->admin_up));
		json_object_object_add(root, "carrier",
				       json_object_new_boolean(i->carrier));
		json_object_object_add(root, "physical",
				       json_object_new_boolean(i->physical));
		json_object_object_add(root, "qdisc",
				       json_object_new_string(i->qdisc));
	}
	j_int(root, "mtu", i->mtu);
	j_int(root, "txqlen", i->txqlen);
	j_int(root, "num_rx_queues", i->num_rx_queues);
	j_int(root, "num_tx_queues", i->num_tx_queues);
	j_int(root, "gso_max_size", i->gso_max_size);
	j_int(root, "gso_max_segs", i->gso_max_segs);
	j_int(root, "gro_max_size", i->gro_max_size);

	o = json_object_new_object();
	j_status(o, i->counters.status, i->counters.reason);
	if (i->counters.status == PS_ST_OK) {
		j_u64(o, "rx_bytes", c->rx_bytes);
		j_u64(o, "tx_bytes", c->tx_bytes);
		j_u64(o, "rx_packets", c->rx_packets);
		j_u64(o, "tx_packets", c->tx_packets);
		j_u64(o, "rx_errors", c->rx_errors);
		j_u64(o, "tx_errors", c->tx_errors);
		j_u64(o, "rx_dropped", c->rx_dropped);
		j_u64(o, "tx_dropped", c->tx_dropped);
		j_u64(o, "rx_missed", c->rx_missed);
	}
	json_object_object_add(root, "counters", o);

	if (i->rates.valid) {
		o = json_object_new_object();
		json_object_object_add(
			o, "seconds", json_object_new_double(i->rates.seconds));
		json_object_object_add(o, "rx_bps",
				       json_object_new_double(i->rates.rx_bps));
		json_object_object_add(o, "tx_bps",
				       json_object_new_double(i->rates.tx_bps));
		json_object_object_add(o, "rx_pps",
				       json_object_new_double(i->rates.rx_pps));
		json_object_object_add(o, "tx_pps",
				       json_object_new_double(i->rates.tx_pps));
		json_object_object_add(
			o, "rx_drops_ps",
			json_object_new_double(i->rates.rx_drops_ps));
		json_object_object_add(
			o, "tx_drops_ps",
			json_object_new_double(i->rates.tx_drops_ps));
		json_object_object_add(
			o, "rx_errors_ps",
			json_object_new_double(i->rates.rx_errors_ps));
		json_object_object_add(
			o, "tx_errors_ps",
			json_object_new_double(i->rates.tx_errors_ps));
		json_object_object_add(root, "rates", o);
	}

	o = json_object_new_object();
	j_status(o, i->lower.status, i->lower.reason);
	a = json_object_new_array();
	for (unsigned k = 0; k < i->lower.n; k++) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(
			e, "name", json_object_new_string(i->lower.v[k].name));
		json_object_object_add(
			e, "kind", json_object_new_string(i->lower.v[k].kind));
		json_object_object_add(
			e, "depth", json_object_new_int(i->lower.v[k].depth));
		json_object_object_add(
			e, "physical",
			json_object_new_boolean(i->lower.v[k].physical));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "devices", a);
	if (i->lower.status == PS_ST_OK) {
		ps_link_chain_text(i, chain, sizeof(chain), true);
		json_object_object_add(o, "chain",
				       json_object_new_string(chain));
	}
	json_object_object_add(root, "lower", o);
	return root;
}

static struct json_object *g_obj(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static int64_t g_int(struct json_object *o, const char *key)
{
	struct json_object *v = g_obj(o, key);

	if (!v || !json_object_is_type(v, json_type_int))
		return PS_LINK_NA;
	return json_object_get_int64(v);
}

static uint64_t g_u64(struct json_object *o, const char *key)
{
	int64_t v = g_int(o, key);

	return v < 0 ? 0 : (uint64_t)v;
}

static double g_dbl(struct json_object *o, const char *key)
{
	struct json_object *v = g_obj(o, key);

	return v ? json_object_get_double(v) : 0.0;
}

static void g_str(struct json_object *o, const char *key, char *dst, size_t len)
{
	struct json_object *v = g_obj(o, key);

	snprintf(dst, len, "%s",
		 v && json_object_is_type(v, json_type_string)
			 ? json_object_get_string(v)
			 : "");
}

static void g_status(struct json_object *o, enum ps_status *st, char *reason)
{
	char name[32];

	if (!o) {
		*st = PS_ST_NOT_RECORDED;
		snprintf(reason, PS_LINK_REASON, "%s",
			 _("not in the saved snapshot"));
		return;
	}
	g_str(o, "status", name, sizeof(name));
	*st = ps_status_parse(name);
	g_str(o, "reason", reason, PS_LINK_REASON);
}

int ps_link_from_json(struct json_object *obj, struct ps_link_info *i)
{
	struct ps_link_counters *c = &i->counters.c;
	struct json_object *o, *a;
	char name[IF_NAMESIZE];

	if (!obj || !json_object_is_type(obj, json_type_object))
		return -EINVAL;
	g_str(obj, "ifname", name, sizeof(name));
	ps_link_init(i, name);
	i->ifindex =
		(int)(g_int(obj, "ifindex") < 0 ? 0 : g_int(obj, "ifindex"));
	g_status(obj, &i->status, i->reason);
	g_str(obj, "kind", i->kind, sizeof(i->kind));
	g_str(obj, "operstate", i->operstate, sizeof(i->operstate));
	g_str(obj, "qdisc", i->qdisc, sizeof(i->qdisc));
	o = g_obj(obj, "admin_up");
	i->admin_up = o && json_object_get_boolean(o);
	o = g_obj(obj, "carrier");
	i->carrier = o && json_object_get_boolean(o);
	o = g_obj(obj, "physical");
	i->physical = o && json_object_get_boolean(o);
	i->mtu = g_int(obj, "mtu");
	i->txqlen = g_int(obj, "txqlen");
	i->num_rx_queues = g_int(obj, "num_rx_queues");
	i->num_tx_queues = g_int(obj, "num_tx_queues");
	i->gso_max_size = g_int(obj, "gso_max_size");
	i->gso_max_segs = g_int(obj, "gso_max_segs");
	i->gro_max_size = g_int(obj, "gro_max_size");

	o = g_obj(obj, "counters");
	g_status(o, &i->counters.status, i->counters.reason);
	c->rx_bytes = g_u64(o, "rx_bytes");
	c->tx_bytes = g_u64(o, "tx_bytes");
	c->rx_packets = g_u64(o, "rx_packets");
	c->tx_packets = g_u64(o, "tx_packets");
	c->rx_errors = g_u64(o, "rx_errors");
	c->tx_errors = g_u64(o, "tx_errors");
	c->rx_dropped = g_u64(o, "rx_dropped");
	c->tx_dropped = g_u64(o, "tx_dropped");
	c->rx_missed = g_u64(o, "rx_missed");

	o = g_obj(obj, "rates");
	if (o) {
		i->rates.valid = true;
		i->rates.seconds = g_dbl(o, "seconds");
		i->rates.rx_bps = g_dbl(o, "rx_bps");
		i->rates.tx_bps = g_dbl(o, "tx_bps");
		i->rates.rx_pps = g_dbl(o, "rx_pps");
		i->rates.tx_pps = g_dbl(o, "tx_pps");
		i->rates.rx_drops_ps = g_dbl(o, "rx_drops_ps");
		i->rates.tx_drops_ps = g_dbl(o, "tx_drops_ps");
		i->rates.rx_errors_ps = g_dbl(o, "rx_errors_ps");
		i->rates.tx_errors_ps = g_dbl(o, "tx_errors_ps");
	}

	o = g_obj(obj, "lower");
	g_status(o, &i->lower.status, i->lower.reason);
	a = g_obj(o, "devices");
	if (a && json_object_is_type(a, json_type_array)) {
		size_t n = json_object_array_length(a);

		if (n > MAX_LOWER)
			n = MAX_LOWER;
		if (n)
			i->lower.v = xcalloc(n, sizeof(*i->lower.v));
		for (size_t k = 0; k < n; k++) {
			struct json_object *e = json_object_array_get_idx(a, k);
			struct ps_link_lower *l = &i->lower.v[i->lower.n++];
			struct json_object *p = g_obj(e, "physical");

			g_str(e, "name", l->name, sizeof(l->name));
			g_str(e, "kind", l->kind, sizeof(l->kind));
			l->depth = (int)g_int(e, "depth");
			l->physical = p && json_object_get_boolean(p);
		}
	}
	return 0;
}

/* ---- text
 * -------------------------------------------------------------------------------
 */

static void p_num(FILE *out, const char *label, int64_t v)
{
	fprintf(out, "  %-22s ", label);
	if (v == PS_LINK_NA)
		fputs(_("n/a"), out);
	else
		fprintf(out, "%" PRId64, v);
	fputc('\n', out);
}

static void p_rate(FILE *out, const char *label, double bps, double pps,
		   double drops)
{
	fprintf(out, _("  %-6s %10.3f Mbit/s %12.1f pkt/s %10.1f drops/s\n"),
		label, bps / 1e6, pps, drops);
}

static bool codeset_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

void ps_link_print(FILE *out, const struct ps_link_info *i)
{
	const struct ps_link_counters *c = &i->counters.c;
	char chain[512];

	fprintf(out, _("Interface %s (link)"), i->ifname);
	fputc('\n', out);
	if (i->status != PS_ST_OK) {
		fprintf(out, "  %s", ps_status_text(i->status));
		if (i->reason[0])
			fprintf(out, ": %s", i->reason);
		fputc('\n', out);
		/* a --sysroot tree still has the chain */
		if (i->lower.status == PS_ST_OK) {
			ps_link_chain_text(i, chain, sizeof(chain),
					   codeset_utf8());
			fprintf(out, "  %-22s %s\n", _("device chain:"), chain);
		}
		return;
	}
	fprintf(out, "  %-22s %s%s%s\n", _("state:"), i->operstate,
		i->admin_up ? "" : _(" (administratively down)"),
		i->carrier ? "" : _(" (no carrier)"));
	if (i->kind[0])
		fprintf(out, "  %-22s %s\n", _("kind:"), i->kind);
	p_num(out, _("MTU:"), i->mtu);
	fprintf(out, "  %-22s %s\n", _("qdisc:"),
		i->qdisc[0] ? i->qdisc : _("none"));
	p_num(out, _("txqueuelen:"), i->txqlen);
	p_num(out, _("RX queues:"), i->num_rx_queues);
	p_num(out, _("TX queues:"), i->num_tx_queues);
	p_num(out, _("gso_max_size:"), i->gso_max_size);
	p_num(out, _("gso_max_segs:"), i->gso_max_segs);
	p_num(out, _("gro_max_size:"), i->gro_max_size);
	if (i->lower.status == PS_ST_OK) {
		ps_link_chain_text(i, chain, sizeof(chain), codeset_utf8());
		fprintf(out, "  %-22s %s\n", _("device chain:"), chain);
		if (i->physical)
			fprintf(out, "  %-22s %s\n", _("physical NIC:"),
				i->ifname);
		for (unsigned k = 0; k < i->lower.n; k++)
			if (i->lower.v[k].physical)
				fprintf(out, "  %-22s %s\n", _("physical NIC:"),
					i->lower.v[k].name);
	} else {
		fprintf(out, "  %-22s %s (%s)\n", _("device chain:"),
			ps_status_text(i->lower.status), i->lower.reason);
	}
	if (i->counters.status != PS_ST_OK) {
		fprintf(out, "%s: %s\n", _("Counters"),
			ps_status_text(i->counters.status));
		return;
	}
	fprintf(out, "%s:\n", _("Counters"));
	fprintf(out, _("  %-6s %16s %14s %10s %10s %10s\n"), "", _("bytes"),
		_("packets"), _("errors"), _("dropped"), _("missed"));
	fprintf(out,
		"  %-6s %16" PRIu64 " %14" PRIu64 " %10" PRIu64 " %10" PRIu64
		" %10" PRIu64 "\n",
		_("RX:"), c->rx_bytes, c->rx_packets, c->rx_errors,
		c->rx_dropped, c->rx_missed);
	fprintf(out,
		"  %-6s %16" PRIu64 " %14" PRIu64 " %10" PRIu64 " %10" PRIu64
		"\n",
		_("TX:"), c->tx_bytes, c->tx_packets, c->tx_errors,
		c->tx_dropped);
	if (i->rates.valid) {
		fprintf(out, _("Rates over %.1f s:"), i->rates.seconds);
		fputc('\n', out);
		p_rate(out, _("RX:"), i->rates.rx_bps, i->rates.rx_pps,
		       i->rates.rx_drops_ps);
		p_rate(out, _("TX:"), i->rates.tx_bps, i->rates.tx_pps,
		       i->rates.tx_drops_ps);
	}
}
