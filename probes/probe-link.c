/* probe-link.c: what "ip -s -d link show IF" shows (MTU, state, qdisc,
 * queues, GSO/GRO limits, counters -> rates), the devices underneath
 * (vlan/bond/bridge/macvlan down to the NICs), over libnl-route-3; the
 * route lookup ("ip route get PEER") is probe-route.c */
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

#include "brief.h"
#include "ethnl.h"
#include "jsonutil.h"
#include "log.h"
#include "nls.h"
#include "probe-link.h"
#include "probe.h"
#include "rtnl.h"
#include "sysroot.h"
#include "xmalloc.h"

/* <linux/if.h> has it, but clashes with <net/if.h> */
#ifndef IFF_LOWER_UP
#define IFF_LOWER_UP 0x10000
#endif

#define MAX_LOWER 64
#define MAX_DEPTH 8

/* an opened link probe: an rtnetlink socket (rtnl.c) connected raw */
struct ps_link_probe {
	struct ps_rtnl *rt; /* own, or the probe set's */
	struct ps_rtnl own;
};

/* where the raw replies are recorded (ps_link_record), for every probe */
static struct {
	pthread_mutex_t lock;
	char *dir;
} rec = { .lock = PTHREAD_MUTEX_INITIALIZER };

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
				/* any int may arrive: -INT_MIN does not exist
				 */
				int code = e->error == INT_MIN ? EPROTO
					   : e->error < 0      ? -e->error
							       : e->error;

				snprintf(msgbuf, sizeof(msgbuf),
					 _("reading the link failed: %s"),
					 ps_strerror(code));
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
	pthread_mutex_lock(&rec.lock);
	free(rec.dir);
	rec.dir = dir ? xstrdup(dir) : NULL;
	pthread_mutex_unlock(&rec.lock);
}

struct ps_link_probe *ps_link_open_on(struct ps_rtnl *rt)
{
	struct ps_link_probe *lp = xcalloc(1, sizeof(*lp));

	ps_rtnl_init(&lp->own, true);
	lp->rt = rt ? rt : &lp->own;
	return lp;
}

struct ps_link_probe *ps_link_open(void)
{
	return ps_link_open_on(NULL);
}

void ps_link_close(struct ps_link_probe *lp)
{
	if (!lp)
		return;
	ps_rtnl_fini(&lp->own);
	free(lp);
}

static void record(const char *name, const void *buf, size_t len)
{
	char *dir;

	pthread_mutex_lock(&rec.lock);
	dir = rec.dir ? xstrdup(rec.dir) : NULL;
	pthread_mutex_unlock(&rec.lock);
	ps_nl_record_file(dir, name, buf, len);
	free(dir);
}

/* one RTM_GETLINK by name; the raw reply bytes in *out (free them) */
static int getlink_raw(struct nl_sock *sk, const char *ifname,
		       unsigned char **out, int *outlen)
{
	struct nl_msg *msg;
	int err;

	if (rtnl_link_build_get_request(0, ifname, &msg) < 0)
		return -ENOMEM;
	err = ps_rtnl_get(sk, msg, out, outlen);
	nlmsg_free(msg);
	return err;
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

static void add_lower(struct nl_sock *sk, struct ps_link_info *info,
		      const char *name, int depth)
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
	    rtnl_link_get_kernel(sk, 0, name, &link) == 0) {
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
 * every run. The count, or -errno.
 */
static int sysfs_names(const char *name, char (*names)[IF_NAMESIZE], int max)
{
	char path[512];
	struct dirent *de;
	DIR *d;
	int found = 0;

	snprintf(path, sizeof(path), "/sys/class/net/%s", name);
	d = ps_opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && found < max) {
		if (strncmp(de->d_name, "lower_", 6) || !de->d_name[6] ||
		    strlen(de->d_name + 6) >= IF_NAMESIZE)
			continue;
		snprintf(names[found++], IF_NAMESIZE, "%s", de->d_name + 6);
	}
	closedir(d);
	qsort(names, (size_t)found, IF_NAMESIZE, name_cmp);
	return found;
}

/* IFLA_LINK of a stacked device (vlan, macvlan, ...) in this namespace:
 * 1 and its name, else 0 */
static int iflink_name(struct nl_sock *sk, const char *name,
		       char lname[IF_NAMESIZE])
{
	static const char *const stacked[] = {
		"vlan", "macvlan", "macvtap", "ipvlan", "ipvtap",
	};
	struct rtnl_link *link = NULL;
	int32_t nsid;
	char *kind;
	int idx, found = 0;

	if (!sk || rtnl_link_get_kernel(sk, 0, name, &link) < 0)
		return 0;
	kind = rtnl_link_get_type(link);
	idx = rtnl_link_get_link(link);
	for (size_t k = 0; kind && k < sizeof(stacked) / sizeof(*stacked); k++)
		if (!strcmp(kind, stacked[k]) && idx > 0 &&
		    idx != rtnl_link_get_ifindex(link) &&
		    rtnl_link_get_link_netnsid(link, &nsid) < 0 &&
		    if_indextoname((unsigned)idx, lname))
			found = 1;
	rtnl_link_put(link);
	return found;
}

int ps_link_lowers(struct nl_sock *sk, const char *name,
		   char (*names)[IF_NAMESIZE], int max)
{
	int n = sysfs_names(name, names, max);

	if (n == 0 && max > 0 && ps_sysroot_is_live())
		n = iflink_name(sk, name, names[0]);
	return n;
}

static int sysfs_lowers(struct nl_sock *sk, struct ps_link_info *info,
			const char *name, int depth)
{
	char names[MAX_LOWER][IF_NAMESIZE];
	int found = sysfs_names(name, names, MAX_LOWER);

	for (int k = 0; k < found; k++)
		add_lower(sk, info, names[k], depth);
	return found;
}

static void iflink_lower(struct nl_sock *sk, struct ps_link_info *info,
			 const char *name, int depth)
{
	char lname[IF_NAMESIZE];

	if (iflink_name(sk, name, lname))
		add_lower(sk, info, lname, depth);
}

static void sample_lower(struct nl_sock *sk, struct ps_link_info *info)
{
	unsigned from = 0, to;
	int ret;

	ret = sysfs_lowers(sk, info, info->ifname, 1);
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
		iflink_lower(sk, info, info->ifname, 1);
	if (ret < 0 && ret != -ENOENT) {
		char msg[PS_LINK_REASON];

		snprintf(msg, sizeof(msg),
			 _("cannot read /sys/class/net/%s: %s"), info->ifname,
			 ps_strerror(-ret));
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
			if (sysfs_lowers(sk, info, name, depth) == 0 &&
			    ps_sysroot_is_live())
				iflink_lower(sk, info, name, depth);
		}
		from = to;
	}
	set_status(&info->lower.status, info->lower.reason, PS_ST_OK, NULL);
}

int ps_link_sample_with(struct ps_link_probe *lp, const char *ifname,
			struct ps_link_info *out)
{
	unsigned char *buf = NULL;
	char msg[PS_LINK_REASON];
	struct nl_sock *sk;
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
		out->physical = is_physical(out->ifname);
		sample_lower(NULL, out);
		return 0;
	}
	sk = ps_rtnl_lock(lp->rt, &ret);
	if (ret == 0)
		ret = getlink_raw(sk, ifname, &buf, &len);
	if (ret < 0) {
		ps_rtnl_unlock(lp->rt);
		snprintf(msg, sizeof(msg),
			 _("cannot talk to the kernel over rtnetlink: %s"),
			 ps_strerror(-ret));
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
		sample_lower(sk, out);
	}
	ps_rtnl_unlock(lp->rt);
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

int ps_link_sample(const char *ifname, struct ps_link_info *out)
{
	struct ps_link_probe *lp = ps_link_open();
	int ret = ps_link_sample_with(lp, ifname, out);

	ps_link_close(lp);
	return ret;
}

int ps_link_nic(const struct ps_link_info *info, char *buf, size_t len)
{
	if (info->physical) {
		snprintf(buf, len, "%s", info->ifname);
		return 0;
	}
	if (info->lower.status != PS_ST_OK)
		return -ENOENT;
	for (unsigned i = 0; i < info->lower.n; i++)
		if (info->lower.v[i].physical) {
			snprintf(buf, len, "%s", info->lower.v[i].name);
			return 0;
		}
	return -ENOENT;
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

/* ---- JSON: one description of each group (jsonutil's tables) --------- */

#define LI struct ps_link_info
#define LL struct ps_link_lower
#define LINK_U64(m)                                                            \
	PS_JFIELD(LI, counters.c.m, #m, PS_JT_UINT, PS_JF_OK, NULL, NULL)
#define LINK_RATE(m) PS_JFIELD(LI, rates.m, #m, PS_JT_DOUBLE, 0, NULL, NULL)
/* a number of the link, and its line of the text ("MTU:  1500") */
#define LINK_NUM(m, lbl)                                                       \
	{                                                                      \
		.key = #m, .type = PS_JT_INT, .flags = PS_JF_NA,               \
		.off = offsetof(LI, m), .size = PS_JSIZE(LI, m),               \
		.label = (lbl), .width = TEXT_WIDTH                            \
	}
/* a line of the text only (the JSON has the value at its own place) */
#define LINK_TEXT(m, fl, lbl, na)                                              \
	{                                                                      \
		.type = PS_JT_STRING, .flags = (fl), .off = offsetof(LI, m),   \
		.size = PS_JSIZE(LI, m), .label = (lbl), .na_text = (na),      \
		.width = TEXT_WIDTH                                            \
	}
#define TEXT_WIDTH 22
#define LINK_OK(m, ty) PS_JFIELD(LI, m, #m, ty, PS_JF_OK, NULL, NULL)

static const struct ps_jfield counters_table[] = {
	PS_JSTATUS(LI, counters.status, counters.reason, PS_JF_NA),
	LINK_U64(rx_bytes),
	LINK_U64(tx_bytes),
	LINK_U64(rx_packets),
	LINK_U64(tx_packets),
	LINK_U64(rx_errors),
	LINK_U64(tx_errors),
	LINK_U64(rx_dropped),
	LINK_U64(tx_dropped),
	LINK_U64(rx_missed),
	PS_JEND
};

static const struct ps_jfield rates_table[] = {
	LINK_RATE(seconds),	 LINK_RATE(rx_bps),
	LINK_RATE(tx_bps),	 LINK_RATE(rx_pps),
	LINK_RATE(tx_pps),	 LINK_RATE(rx_drops_ps),
	LINK_RATE(tx_drops_ps),	 LINK_RATE(rx_errors_ps),
	LINK_RATE(tx_errors_ps), PS_JEND
};

/* "chain" is written for the reader, and computed again when loaded */
static void chain_put(struct json_object *obj, const struct ps_jfield *f,
		      const void *base)
{
	char chain[512];

	ps_link_chain_text(base, chain, sizeof(chain), true);
	ps_json_put_string(obj, f->key, chain);
}

static const struct ps_jcodec chain_codec = { .put = chain_put };

static const struct ps_jfield lower_dev_table[] = {
	PS_JFIELD(LL, name, "name", PS_JT_STRING, 0, NULL, NULL),
	PS_JFIELD(LL, kind, "kind", PS_JT_STRING, 0, NULL, NULL),
	PS_JFIELD(LL, depth, "depth", PS_JT_INT, 0, NULL, NULL),
	PS_JFIELD(LL, physical, "physical", PS_JT_BOOL, 0, NULL, NULL), PS_JEND
};

static const struct ps_jfield lower_table[] = {
	PS_JSTATUS(LI, lower.status, lower.reason, PS_JF_NA),
	PS_JARRAY_PTR(LI, lower.v, lower.n, "devices", PS_JT_OBJECT, 0,
		      lower_dev_table),
	{ .key = "chain",
	  .type = PS_JT_CUSTOM,
	  .flags = PS_JF_OK,
	  .codec = &chain_codec },
	PS_JEND
};

/* "state: up (no carrier)": the text's first line */
static void state_print(FILE *out, const struct ps_jfield *f, const void *base)
{
	const LI *i = base;

	(void)f;
	fprintf(out, "  %-*s %s%s%s\n", TEXT_WIDTH, _("state:"), i->operstate,
		i->admin_up ? "" : _(" (administratively down)"),
		i->carrier ? "" : _(" (no carrier)"));
}

static const struct ps_jcodec state_codec = { .print = state_print };

/* the JSON and the loader; the text of an ok link, the lines with a
 * label (ps_link_print writes the rest) */
static const struct ps_jfield link_table[] = {
	PS_JFIELD(LI, ifname, "ifname", PS_JT_STRING, 0, NULL, NULL),
	PS_JFIELD(LI, ifindex, "ifindex", PS_JT_INT, 0, NULL, NULL),
	PS_JSTATUS(LI, status, reason, PS_JF_NA),
	LINK_OK(kind, PS_JT_STRING),
	LINK_OK(operstate, PS_JT_STRING),
	LINK_OK(admin_up, PS_JT_BOOL),
	LINK_OK(carrier, PS_JT_BOOL),
	LINK_OK(physical, PS_JT_BOOL),
	LINK_OK(qdisc, PS_JT_STRING),
	{ .type = PS_JT_CUSTOM, .codec = &state_codec },
	LINK_TEXT(kind, PS_JF_NA | PS_JF_SKIPNA, N_("kind:"), NULL),
	LINK_NUM(mtu, N_("MTU:")),
	LINK_TEXT(qdisc, PS_JF_NA, N_("qdisc:"), N_("none")),
	LINK_NUM(txqlen, N_("txqueuelen:")),
	LINK_NUM(num_rx_queues, N_("RX queues:")),
	LINK_NUM(num_tx_queues, N_("TX queues:")),
	LINK_NUM(gso_max_size, N_("gso_max_size:")),
	LINK_NUM(gso_max_segs, N_("gso_max_segs:")),
	LINK_NUM(gro_max_size, N_("gro_max_size:")),
	PS_JOBJECT("counters", 0, counters_table, NULL),
	PS_JOBJECT_IF(struct ps_link_info, rates.valid, "rates", rates_table),
	PS_JOBJECT("lower", 0, lower_table, NULL),
	PS_JEND
};

struct json_object *ps_link_to_json(const struct ps_link_info *i)
{
	return ps_jtable_to_json(link_table, i);
}

int ps_link_from_json(struct json_object *obj, struct ps_link_info *i)
{
	if (!obj || !json_object_is_type(obj, json_type_object))
		return -EINVAL;
	ps_link_init(i, NULL);
	ps_jtable_get(obj, link_table, i);
	if (i->lower.n > MAX_LOWER)
		i->lower.n = MAX_LOWER;
	return 0;
}

/* ---- text
 * -------------------------------------------------------------------------------
 */

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
	ps_jtable_print(out, link_table, i);
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

/* the probe "pipescope probe" runs (probe.h), in PS_PROBE_LIST */
PS_PROBE_STATE_GLUE(link)
PS_PROBE_RATES(link)

static int link_op_nic(const struct ps_snapshot *s, char *buf, size_t len)
{
	return ps_link_nic(&s->link, buf, len);
}

/* clang-format would pack a list that starts with a macro */
/* clang-format off */
const struct ps_probe_ops ps_link_ops = {
	PS_PROBE_STATE_OPS(link),
	.title = N_("Link"),
	.needs_iface = true,
	.rates = link_op_rates,
	.nic = link_op_nic,
	.brief = ps_brief_link,
};
/* clang-format on */
