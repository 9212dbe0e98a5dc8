/* probe-path.c: the devices a test's packets cross on this host and what
 * shapes or drops on each ("ip -d link", "tc -s qdisc", "tc filter show
 * ingress", "bridge fdb get" of the path's devices only), over the probe
 * set's rtnetlink socket; the recorded form from a --sysroot tree */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/tc_act/tc_mirred.h>
#include <netlink/addr.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <netlink/route/link/vxlan.h>

#include "jsonutil.h"
#include "nls.h"
#include "probe-link.h"
#include "probe-path.h"
#include "probe-route.h"
#include "probe.h"
#include "rtnl.h"
#include "sysroot.h"
#include "xmalloc.h"

#ifndef IFF_UP
#define IFF_UP 0x1
#endif

#define LOWER_MAX 64

const char *const ps_path_role_names[] = {
	[PS_PATH_ROUTED] = "routed", [PS_PATH_LOWER] = "lower",
	[PS_PATH_PORT] = "port",     [PS_PATH_UNDERLAY] = "underlay",
	[PS_PATH_IFB] = "ifb",	     NULL,
};

struct ps_path_probe {
	struct ps_rtnl *rt;
	struct ps_rtnl own;
	struct ps_qdisc_probe *qp; /* on the same socket */
};

static void set_status(enum ps_status *st, char *reason, enum ps_status v,
		       const char *why)
{
	*st = v;
	snprintf(reason, PS_PATH_REASON, "%s", why ? why : "");
}

void ps_path_init(struct ps_path_info *info, const char *ifname)
{
	memset(info, 0, sizeof(*info));
	info->status = PS_ST_ERROR;
	ps_path_clean_name(info->ifname, ifname ? ifname : "");
}

void ps_path_free(struct ps_path_info *info)
{
	if (!info)
		return;
	for (unsigned k = 0; info->dev && k < info->n; k++)
		ps_qdisc_free(&info->dev[k].qdisc);
	free(info->dev);
	info->dev = NULL;
	info->n = 0;
}

void ps_path_clean_name(char *dst, const char *src)
{
	size_t k = 0;

	for (; src && src[k] && k + 1 < IF_NAMESIZE; k++) {
		unsigned char c = (unsigned char)src[k];

		dst[k] = (isalnum(c) || strchr("._@:-", c)) ? (char)c : '?';
	}
	dst[k] = 0;
}

/* ---- what the checks read --------------------------------------------- */

enum ps_path_dir ps_path_direction(const struct ps_path_info *info, unsigned i)
{
	if (!info || i >= info->n)
		return PS_PATH_EGRESS;
	return info->dev[i].role == PS_PATH_IFB ? PS_PATH_INGRESS
						: PS_PATH_EGRESS;
}

const char *ps_path_dir_name(enum ps_path_dir d)
{
	return d == PS_PATH_INGRESS ? "ingress" : "egress";
}

void ps_path_place(const struct ps_path_info *info, unsigned i, char *buf,
		   size_t len)
{
	const struct ps_path_dev *d;

	if (!info || i >= info->n) {
		snprintf(buf, len, "?");
		return;
	}
	d = &info->dev[i];
	switch (d->role) {
	case PS_PATH_IFB:
		snprintf(buf, len, _("ingress of %s, redirected to %s"), d->via,
			 d->name);
		break;
	case PS_PATH_PORT:
		snprintf(buf, len, _("bridge port %s of %s"), d->name, d->via);
		break;
	case PS_PATH_LOWER:
		snprintf(buf, len, _("%s under %s"), d->name, d->via);
		break;
	case PS_PATH_UNDERLAY:
		snprintf(buf, len, _("underlay %s of %s"), d->name, d->via);
		break;
	default:
		snprintf(buf, len, "%s", d->name);
		break;
	}
}

const struct ps_path_dev *ps_path_find(const struct ps_path_info *info,
				       const char *name)
{
	for (unsigned k = 0; info && name && k < info->n; k++)
		if (!strcmp(info->dev[k].name, name))
			return &info->dev[k];
	return NULL;
}

/* ---- pure parsers ------------------------------------------------------ */

/* the attributes of a nest, by type (NLA_F_NESTED and order masked) */
static void nest_parse(const struct nlattr *nest, struct nlattr **tb, int max)
{
	const struct nlattr *a;
	int rem;

	memset(tb, 0, sizeof(*tb) * (size_t)(max + 1));
	nla_for_each_nested(a, nest, rem)
	{
		int t = nla_type(a);

		if (t >= 0 && t <= max)
			tb[t] = (struct nlattr *)a;
	}
}

/* the classifiers' own action list attribute */
static int act_attr(const char *kind)
{
	static const struct {
		const char *kind;
		int act;
	} k[] = {
		{ "u32", TCA_U32_ACT },	    { "matchall", TCA_MATCHALL_ACT },
		{ "bpf", TCA_BPF_ACT },	    { "flower", TCA_FLOWER_ACT },
		{ "basic", TCA_BASIC_ACT },
	};

	for (size_t i = 0; i < sizeof(k) / sizeof(*k); i++)
		if (!strcmp(kind, k[i].kind))
			return k[i].act;
	return -1;
}

static int mirred_of(const struct nlattr *acts, struct ps_path_redirect *out,
		     int n, int max)
{
	const struct nlattr *a;
	int rem;

	nla_for_each_nested(a, acts, rem)
	{
		struct nlattr *tb[TCA_ACT_MAX + 1], *ob[TCA_MIRRED_MAX + 1];
		const struct tc_mirred *m;
		char kind[16];

		if (n >= max)
			break;
		nest_parse(a, tb, TCA_ACT_MAX);
		if (!tb[TCA_ACT_KIND] || !tb[TCA_ACT_OPTIONS])
			continue;
		nla_strlcpy(kind, tb[TCA_ACT_KIND], sizeof(kind));
		if (strcmp(kind, "mirred"))
			continue;
		nest_parse(tb[TCA_ACT_OPTIONS], ob, TCA_MIRRED_MAX);
		if (!ob[TCA_MIRRED_PARMS] ||
		    nla_len(ob[TCA_MIRRED_PARMS]) < (int)sizeof(*m))
			continue;
		m = nla_data(ob[TCA_MIRRED_PARMS]);
		if ((m->eaction != TCA_EGRESS_REDIR &&
		     m->eaction != TCA_EGRESS_MIRROR) ||
		    !m->ifindex || m->ifindex > INT32_MAX)
			continue;
		out[n].ifindex = (int)m->ifindex;
		out[n].mirror = m->eaction == TCA_EGRESS_MIRROR;
		n++;
	}
	return n;
}

int ps_path_parse_filters(const void *buf, size_t len,
			  struct ps_path_redirect *out, int max)
{
	const struct nlmsghdr *nlh = buf;
	int rem = (int)len, n = 0;

	if (!buf || len > INT32_MAX)
		return 0;
	for (; NLMSG_OK(nlh, rem) && n < max; nlh = NLMSG_NEXT(nlh, rem)) {
		struct nlattr *tb[TCA_MAX + 1], *ob[TCA_U32_MAX + 16];
		char kind[16];
		int act;

		if (nlh->nlmsg_type != RTM_NEWTFILTER ||
		    nlh->nlmsg_len < NLMSG_LENGTH(sizeof(struct tcmsg)))
			continue;
		if (nlmsg_parse((struct nlmsghdr *)nlh, sizeof(struct tcmsg),
				tb, TCA_MAX, NULL) < 0 ||
		    !tb[TCA_KIND] || !tb[TCA_OPTIONS])
			continue;
		nla_strlcpy(kind, tb[TCA_KIND], sizeof(kind));
		act = act_attr(kind);
		if (act < 0)
			continue;
		nest_parse(tb[TCA_OPTIONS], ob, TCA_U32_MAX + 15);
		if (ob[act])
			n = mirred_of(ob[act], out, n, max);
	}
	return n;
}

int ps_path_parse_filter_text(const char *text, char (*names)[IF_NAMESIZE],
			      int max)
{
	const char *p = text;
	int n = 0;

	while (p && n < max && (p = strstr(p, "mirred (Egress "))) {
		const char *d = strstr(p, " to device ");
		const char *eol = strchr(p, '\n');
		char name[IF_NAMESIZE + 1];
		size_t k = 0;

		p += 15;
		if (!d || (eol && d > eol))
			continue;
		d += 11;
		while (d[k] && d[k] != ')' && !isspace((unsigned char)d[k]) &&
		       k < IF_NAMESIZE)
			k++;
		if (!k || k >= IF_NAMESIZE)
			continue;
		memcpy(name, d, k);
		name[k] = 0;
		ps_path_clean_name(names[n++], name);
	}
	return n;
}

int ps_path_parse_neigh(const void *buf, size_t len, int ifindex,
			const void *addr, int alen, unsigned char mac[6])
{
	const struct nlmsghdr *nlh = buf;
	int rem = (int)len;

	if (!buf || len > INT32_MAX)
		return -ENOENT;
	for (; NLMSG_OK(nlh, rem); nlh = NLMSG_NEXT(nlh, rem)) {
		struct nlattr *tb[NDA_MAX + 1];
		const struct ndmsg *nd = NLMSG_DATA(nlh);

		if (nlh->nlmsg_type != RTM_NEWNEIGH ||
		    nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*nd)) ||
		    nd->ndm_ifindex != ifindex)
			continue;
		if (nlmsg_parse((struct nlmsghdr *)nlh, sizeof(*nd), tb,
				NDA_MAX, NULL) < 0 ||
		    !tb[NDA_DST] || !tb[NDA_LLADDR] ||
		    nla_len(tb[NDA_DST]) != alen ||
		    nla_len(tb[NDA_LLADDR]) != 6 ||
		    memcmp(nla_data(tb[NDA_DST]), addr, (size_t)alen))
			continue;
		memcpy(mac, nla_data(tb[NDA_LLADDR]), 6);
		return 0;
	}
	return -ENOENT;
}

int ps_path_parse_fdb(const void *buf, size_t len, int master,
		      const unsigned char mac[6])
{
	const struct nlmsghdr *nlh = buf;
	int rem = (int)len;

	if (!buf || len > INT32_MAX)
		return -ENOENT;
	for (; NLMSG_OK(nlh, rem); nlh = NLMSG_NEXT(nlh, rem)) {
		struct nlattr *tb[NDA_MAX + 1];
		const struct ndmsg *nd = NLMSG_DATA(nlh);

		if (nlh->nlmsg_type != RTM_NEWNEIGH ||
		    nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*nd)) ||
		    nd->ndm_family != AF_BRIDGE || nd->ndm_ifindex <= 0 ||
		    nd->ndm_ifindex == master)
			continue;
		if (nlmsg_parse((struct nlmsghdr *)nlh, sizeof(*nd), tb,
				NDA_MAX, NULL) < 0 ||
		    !tb[NDA_LLADDR] || nla_len(tb[NDA_LLADDR]) != 6 ||
		    memcmp(nla_data(tb[NDA_LLADDR]), mac, 6))
			continue;
		if (tb[NDA_MASTER] && nla_len(tb[NDA_MASTER]) >= 4 &&
		    (int)nla_get_u32(tb[NDA_MASTER]) != master)
			continue;
		return nd->ndm_ifindex;
	}
	return -ENOENT;
}

/* ---- the probe ---------------------------------------------------------- */

struct ps_path_probe *ps_path_open_on(struct ps_rtnl *rt)
{
	struct ps_path_probe *pp = xcalloc(1, sizeof(*pp));

	ps_rtnl_init(&pp->own, true);
	pp->rt = rt ? rt : &pp->own;
	pp->qp = ps_qdisc_open_on(pp->rt);
	return pp;
}

void ps_path_close(struct ps_path_probe *pp)
{
	if (!pp)
		return;
	ps_qdisc_close(pp->qp);
	ps_rtnl_fini(&pp->own);
	free(pp);
}

/* the device named so is on the path already */
static bool listed(const struct ps_path_info *i, const char *name)
{
	return ps_path_find(i, name) != NULL;
}

static struct ps_path_dev *add_dev(struct ps_path_info *i, const char *name,
				   enum ps_path_role role, const char *via)
{
	struct ps_path_dev *d;
	char clean[IF_NAMESIZE];

	ps_path_clean_name(clean, name);
	if (!clean[0] || listed(i, clean))
		return NULL;
	if (i->n >= PS_PATH_MAX) {
		i->truncated = true;
		return NULL;
	}
	i->dev = xrealloc(i->dev, (i->n + 1) * sizeof(*i->dev));
	d = &i->dev[i->n++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", clean);
	d->role = role;
	ps_path_clean_name(d->via, via ? via : "");
	d->mtu = d->rx_dropped = d->tx_dropped = PS_NA;
	d->status = PS_ST_OK;
	ps_qdisc_init(&d->qdisc, d->name);
	return d;
}

static bool is_physical(const char *name)
{
	char path[96];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/class/net/%s/device", name);
	return ps_stat(path, &st) == 0;
}

static int64_t sys_num(const char *name, const char *what, int64_t max)
{
	char path[128];
	long v;

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", name, what);
	if (ps_read_long(path, &v) || v < 0 || v > max)
		return PS_NA;
	return v;
}

/* the recorded device: kind from its sysfs (bridge/, bonding/, uevent) */
static void recorded_dev(struct ps_path_dev *d)
{
	char path[128], state[32];
	struct stat st;
	char *ue;

	snprintf(path, sizeof(path), "/sys/class/net/%s", d->name);
	if (ps_stat(path, &st)) {
		set_status(&d->status, d->reason, PS_ST_NOT_RECORDED,
			   _("the device is not in the recording"));
		return;
	}
	d->ifindex = (int)sys_num(d->name, "ifindex", INT32_MAX);
	if (d->ifindex < 0)
		d->ifindex = 0;
	d->mtu = sys_num(d->name, "mtu", 1 << 20);
	d->rx_dropped = sys_num(d->name, "statistics/rx_dropped", INT64_MAX);
	d->tx_dropped = sys_num(d->name, "statistics/tx_dropped", INT64_MAX);
	snprintf(path, sizeof(path), "/sys/class/net/%s/operstate", d->name);
	d->up = !ps_read_line(path, state, sizeof(state)) &&
		(!strcmp(state, "up") || !strcmp(state, "unknown"));
	snprintf(path, sizeof(path), "/sys/class/net/%s/bridge", d->name);
	if (!ps_stat(path, &st)) {
		snprintf(d->kind, sizeof(d->kind), "bridge");
		return;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/bonding", d->name);
	if (!ps_stat(path, &st)) {
		snprintf(d->kind, sizeof(d->kind), "bond");
		return;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/uevent", d->name);
	ue = ps_read_file(path, NULL);
	if (ue) {
		const char *t = strstr(ue, "DEVTYPE=");
		char kind[16] = "";
		size_t k = 0;

		for (t = t ? t + 8 : ""; t[k] && t[k] != '\n' && k < 15; k++)
			kind[k] = islower((unsigned char)t[k]) ? t[k] : '?';
		kind[k] = 0;
		snprintf(d->kind, sizeof(d->kind), "%s", kind);
		free(ue);
	}
}

static int encap_for(const char *kind, bool v6)
{
	if (!strcmp(kind, "vxlan") || !strcmp(kind, "geneve"))
		return v6 ? 70 : 50;
	return 0;
}

/* live: one RTM_GETLINK; a vxlan's underlay name in underlay */
static void live_dev(struct nl_sock *sk, struct ps_path_dev *d,
		     char underlay[IF_NAMESIZE])
{
	struct rtnl_link *l = NULL;
	char *kind;
	int err;

	underlay[0] = 0;
	err = rtnl_link_get_kernel(sk, 0, d->name, &l);
	if (err < 0) {
		set_status(&d->status, d->reason, PS_ST_ABSENT,
			   _("the device went away"));
		return;
	}
	d->ifindex = rtnl_link_get_ifindex(l);
	kind = rtnl_link_get_type(l);
	ps_path_clean_name(d->kind, kind ? kind : "");
	d->kind[sizeof(d->kind) - 1] = 0;
	d->mtu = rtnl_link_get_mtu(l);
	d->up = rtnl_link_get_flags(l) & IFF_UP;
	d->rx_dropped = (int64_t)rtnl_link_get_stat(l, RTNL_LINK_RX_DROPPED);
	d->tx_dropped = (int64_t)rtnl_link_get_stat(l, RTNL_LINK_TX_DROPPED);
	if (!strcmp(d->kind, "vxlan")) {
		struct nl_addr *a = NULL;
		uint32_t idx = 0;
		bool v6 = false;

		if (!rtnl_link_vxlan_get_group(l, &a) && a) {
			v6 = nl_addr_get_family(a) == AF_INET6;
			if (!(rtnl_link_vxlan_get_link(l, &idx) == 0 && idx)) {
				char txt[INET6_ADDRSTRLEN + 8];

				nl_addr2str(a, txt, sizeof(txt));
				if (ps_route_iface_for(txt, underlay,
						       IF_NAMESIZE, NULL))
					underlay[0] = 0;
			}
			nl_addr_put(a);
		}
		if (!rtnl_link_vxlan_get_local(l, &a) && a) {
			v6 = v6 || nl_addr_get_family(a) == AF_INET6;
			nl_addr_put(a);
		}
		if (!rtnl_link_vxlan_get_link(l, &idx) && idx &&
		    !if_indextoname(idx, underlay))
			underlay[0] = 0;
		d->encap_overhead = encap_for(d->kind, v6);
	} else {
		d->encap_overhead = encap_for(d->kind, false);
	}
	rtnl_link_put(l);
}

static int raw_dump(struct nl_sock *sk, int type, int family, const void *hdr,
		    size_t hlen, int attr, uint32_t val, unsigned char **buf,
		    int *len)
{
	struct nl_msg *req = nlmsg_alloc_simple(type, NLM_F_DUMP);
	int err;

	(void)family;
	if (!req)
		return -ENOMEM;
	if (nlmsg_append(req, (void *)hdr, hlen, NLMSG_ALIGNTO) < 0 ||
	    (attr && nla_put_u32(req, attr, val) < 0)) {
		nlmsg_free(req);
		return -ENOMEM;
	}
	err = ps_rtnl_dump(sk, req, buf, len);
	nlmsg_free(req);
	return err;
}

/* live: the devices its ingress filters redirect to */
static int live_redirects(struct nl_sock *sk, int ifindex,
			  char (*names)[IF_NAMESIZE], int max)
{
	struct tcmsg tcm = {
		.tcm_family = AF_UNSPEC,
		.tcm_ifindex = ifindex,
		.tcm_parent = TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_INGRESS),
	};
	struct ps_path_redirect r[8];
	unsigned char *buf = NULL;
	int len = 0, n, k = 0;

	if (raw_dump(sk, RTM_GETTFILTER, AF_UNSPEC, &tcm, sizeof(tcm), 0, 0,
		     &buf, &len) < 0)
		return 0;
	n = ps_path_parse_filters(buf, (size_t)len, r, 8);
	free(buf);
	for (int i = 0; i < n && k < max; i++)
		if (if_indextoname((unsigned)r[i].ifindex, names[k]))
			k++;
	return k;
}

/* live: the bridge port toward the peer: its MAC from the bridge's
 * neighbours, its port from the fdb; 0 and the name, or -ENOENT */
static int live_port(struct nl_sock *sk, const struct ps_path_dev *br,
		     const char *peer, char port[IF_NAMESIZE])
{
	unsigned char addr[16], mac[6], *buf = NULL;
	struct ndmsg nd = { .ndm_family = AF_INET };
	int len = 0, alen = 4, idx, err;

	if (!peer || !*peer)
		return -ENOENT;
	if (inet_pton(AF_INET, peer, addr) != 1) {
		if (inet_pton(AF_INET6, peer, addr) != 1)
			return -ENOENT;
		nd.ndm_family = AF_INET6;
		alen = 16;
	}
	err = raw_dump(sk, RTM_GETNEIGH, nd.ndm_family, &nd, sizeof(nd),
		       NDA_IFINDEX, (uint32_t)br->ifindex, &buf, &len);
	if (err < 0)
		return -ENOENT;
	err = ps_path_parse_neigh(buf, (size_t)len, br->ifindex, addr, alen,
				  mac);
	free(buf);
	if (err)
		return -ENOENT;
	memset(&nd, 0, sizeof(nd));
	nd.ndm_family = AF_BRIDGE;
	buf = NULL;
	if (raw_dump(sk, RTM_GETNEIGH, AF_BRIDGE, &nd, sizeof(nd), NDA_MASTER,
		     (uint32_t)br->ifindex, &buf, &len) < 0)
		return -ENOENT;
	idx = ps_path_parse_fdb(buf, (size_t)len, br->ifindex, mac);
	free(buf);
	if (idx <= 0 || !if_indextoname((unsigned)idx, port))
		return -ENOENT;
	return 0;
}

static bool has_ingress_qdisc(const struct ps_qdisc_info *q)
{
	for (unsigned k = 0; q->status == PS_ST_OK && k < q->n; k++)
		if (!strcmp(q->q[k].kind, "ingress") ||
		    !strcmp(q->q[k].kind, "clsact"))
			return true;
	return false;
}

/* the devices under device k (by role), the ifb its ingress feeds */
static void expand(struct ps_path_probe *pp, struct ps_path_info *i, unsigned k,
		   const char *peer, const char *underlay)
{
	char names[LOWER_MAX][IF_NAMESIZE], name[IF_NAMESIZE];
	char kind[16], port[IF_NAMESIZE] = "";
	bool live = ps_sysroot_is_live();
	struct nl_sock *sk = NULL;
	int n, err = 0;

	snprintf(name, sizeof(name), "%s", i->dev[k].name);
	snprintf(kind, sizeof(kind), "%s", i->dev[k].kind);
	if (i->dev[k].status != PS_ST_OK || i->dev[k].role == PS_PATH_IFB)
		return;
	if (live) {
		sk = ps_rtnl_lock(pp->rt, &err);
		if (!sk) {
			ps_rtnl_unlock(pp->rt);
			return;
		}
	}
	/* an ingress that redirects */
	if (i->dev[k].has_ingress) {
		char(*r)[IF_NAMESIZE] = names;

		if (live) {
			n = live_redirects(sk, i->dev[k].ifindex, r, 4);
		} else {
			char path[96], *text;

			snprintf(path, sizeof(path), "/tc/%s.ingress.txt",
				 name);
			text = ps_read_file(path, NULL);
			n = text ? ps_path_parse_filter_text(text, r, 4) : 0;
			free(text);
		}
		if (n > 0)
			snprintf(i->dev[k].redirect_to,
				 sizeof(i->dev[k].redirect_to), "%.15s", r[0]);
		for (int j = 0; j < n; j++)
			add_dev(i, r[j], PS_PATH_IFB, name);
	}
	if (underlay && *underlay)
		add_dev(i, underlay, PS_PATH_UNDERLAY, name);
	n = ps_link_lowers(sk, name, names, LOWER_MAX);
	if (!strcmp(kind, "bridge") && n > 0) {
		if (live && !live_port(sk, &i->dev[k], peer, port)) {
			add_dev(i, port, PS_PATH_PORT, name);
		} else {
			int added = 0;

			/* which port cannot be told: the ports that are up */
			i->ports_guessed = true;
			for (int j = 0; j < n && added < PS_PATH_GUESS_MAX;
			     j++) {
				char path[96], st[16] = "";

				snprintf(path, sizeof(path),
					 "/sys/class/net/%.15s/operstate",
					 names[j]);
				if (ps_read_line(path, st, sizeof(st)) ||
				    (strcmp(st, "up") && strcmp(st, "unknown")))
					continue;
				if (add_dev(i, names[j], PS_PATH_PORT, name))
					added++;
			}
		}
	} else {
		for (int j = 0; j < n; j++)
			add_dev(i, names[j], PS_PATH_LOWER, name);
	}
	if (live)
		ps_rtnl_unlock(pp->rt);
}

int ps_path_sample_peer(struct ps_path_probe *pp, const char *ifname,
			const char *peer, struct ps_path_info *out)
{
	bool live = ps_sysroot_is_live();

	ps_path_init(out, ifname);
	if (!ifname || !*ifname || strlen(ifname) >= IF_NAMESIZE ||
	    strchr(ifname, '/')) {
		set_status(&out->status, out->reason, PS_ST_ABSENT,
			   _("no valid interface name given"));
		return 0;
	}
	add_dev(out, ifname, PS_PATH_ROUTED, "");
	/* breadth first: each device once, at most PS_PATH_MAX */
	for (unsigned k = 0; k < out->n; k++) {
		struct ps_path_dev *d = &out->dev[k];
		char underlay[IF_NAMESIZE] = "";

		if (live) {
			int err;
			struct nl_sock *sk = ps_rtnl_lock(pp->rt, &err);

			if (sk)
				live_dev(sk, d, underlay);
			else
				set_status(&d->status, d->reason, PS_ST_ERROR,
					   _("cannot talk to the kernel over "
					     "rtnetlink"));
			ps_rtnl_unlock(pp->rt);
		} else {
			recorded_dev(d);
		}
		d->physical = is_physical(d->name);
		if (d->status != PS_ST_OK)
			continue;
		ps_qdisc_sample_dev(pp->qp, d->name, d->ifindex, &d->qdisc);
		if (d->qdisc.status == PS_ST_ABSENT && live &&
		    d->qdisc.reason[0] &&
		    !strcmp(d->qdisc.reason, _("the interface went away")))
			set_status(&d->status, d->reason, PS_ST_ABSENT,
				   _("the device went away"));
		d->has_ingress = has_ingress_qdisc(&d->qdisc);
		expand(pp, out, k, peer, underlay);
	}
	if (out->dev[0].status == PS_ST_OK)
		set_status(&out->status, out->reason, PS_ST_OK, NULL);
	else
		set_status(&out->status, out->reason, out->dev[0].status,
			   out->dev[0].reason);
	return 0;
}

/* ---- JSON and text ----------------------------------------------------- */

#define PD struct ps_path_dev
#define PI struct ps_path_info

static bool dev_ifb(const void *base)
{
	return ((const PD *)base)->role == PS_PATH_IFB;
}

static void qdisc_put(struct json_object *obj, const struct ps_jfield *f,
		      const void *base)
{
	json_object_object_add(obj, f->key,
			       ps_qdisc_to_json(&((const PD *)base)->qdisc));
}

static void qdisc_get(struct json_object *obj, const struct ps_jfield *f,
		      void *base)
{
	PD *d = base;
	struct json_object *q = ps_json_get_obj(obj, f->key, json_type_object);

	if (!q || ps_qdisc_from_json(q, &d->qdisc))
		ps_qdisc_init(&d->qdisc, d->name);
	if (!q)
		d->qdisc.status = PS_ST_NOT_RECORDED;
}

static void dir_put(struct json_object *obj, const struct ps_jfield *f,
		    const void *base)
{
	ps_json_put_string(obj, f->key, dev_ifb(base) ? "ingress" : "egress");
}

static const struct ps_jcodec qdisc_codec = { .put = qdisc_put,
					      .get = qdisc_get };
static const struct ps_jcodec dir_codec = { .put = dir_put };

/* clang-format off */
static const struct ps_jfield dev_table[] = {
	PS_JFIELD(PD, name, "name", PS_JT_STRING, 0, N_("device:"), NULL),
	PS_JFIELD(PD, ifindex, "ifindex", PS_JT_INT, PS_JF_POSITIVE, NULL,
		  NULL),
	PS_JFIELD(PD, kind, "kind", PS_JT_STRING, 0, N_("kind:"), NULL),
	PS_JENUM(PD, role, "role", 0, ps_path_role_names, NULL, N_("role:")),
	PS_JFIELD(PD, via, "via", PS_JT_STRING, PS_JF_NA, N_("via:"), NULL),
	PS_JSTATUS(PD, status, reason, PS_JF_NA),
	PS_JFIELD(PD, mtu, "mtu", PS_JT_INT, PS_JF_NA | PS_JF_SKIPNA,
		  N_("MTU:"), NULL),
	PS_JFIELD(PD, encap_overhead, "encap_overhead", PS_JT_INT, 0,
		  N_("encapsulation:"), N_("bytes")),
	PS_JFIELD(PD, physical, "physical", PS_JT_BOOL, 0, N_("physical:"),
		  NULL),
	PS_JFIELD(PD, up, "up", PS_JT_BOOL, 0, N_("up:"), NULL),
	PS_JFIELD(PD, redirect_to, "redirect_to", PS_JT_STRING,
		  PS_JF_NA | PS_JF_SKIPNA, N_("ingress redirected to:"), NULL),
	PS_JFIELD(PD, has_ingress, "has_ingress", PS_JT_BOOL, 0,
		  N_("ingress qdisc:"), NULL),
	{ .key = "direction", .type = PS_JT_CUSTOM, .codec = &dir_codec },
	PS_JFIELD(PD, rx_dropped, "rx_dropped", PS_JT_INT,
		  PS_JF_NA | PS_JF_SKIPNA, N_("RX dropped:"), NULL),
	PS_JFIELD(PD, tx_dropped, "tx_dropped", PS_JT_INT,
		  PS_JF_NA | PS_JF_SKIPNA, N_("TX dropped:"), NULL),
	{ .key = "qdisc", .type = PS_JT_CUSTOM, .codec = &qdisc_codec },
	PS_JEND
};
/* clang-format on */

static void devs_put(struct json_object *obj, const struct ps_jfield *f,
		     const void *base)
{
	const PI *i = base;

	json_object_object_add(
		obj, f->key,
		ps_jtable_array(dev_table, i->dev, sizeof(*i->dev), i->n));
}

/* at most PS_PATH_MAX, each cleaned again */
static void devs_get(struct json_object *obj, const struct ps_jfield *f,
		     void *base)
{
	PI *i = base;
	struct json_object *a = ps_json_get_obj(obj, f->key, json_type_array);
	size_t n = a ? json_object_array_length(a) : 0;

	if (n > PS_PATH_MAX) {
		n = PS_PATH_MAX;
		i->truncated = true;
	}
	i->n = 0;
	i->dev = n ? xcalloc(n, sizeof(*i->dev)) : NULL;
	for (size_t k = 0; k < n; k++) {
		struct json_object *e = json_object_array_get_idx(a, k);
		PD *d = &i->dev[i->n];
		char name[IF_NAMESIZE];

		if (!json_object_is_type(e, json_type_object))
			continue;
		d->mtu = d->rx_dropped = d->tx_dropped = PS_NA;
		d->role = PS_PATH_LOWER;
		ps_jtable_get(e, dev_table, d);
		ps_path_clean_name(name, d->name);
		memcpy(d->name, name, sizeof(name));
		ps_path_clean_name(name, d->via);
		memcpy(d->via, name, sizeof(name));
		ps_path_clean_name(name, d->redirect_to);
		memcpy(d->redirect_to, name, sizeof(name));
		for (size_t c = 0; c < sizeof(d->kind) && d->kind[c]; c++)
			if (!islower((unsigned char)d->kind[c]) &&
			    !isdigit((unsigned char)d->kind[c]) &&
			    d->kind[c] != '_' && d->kind[c] != '-')
				d->kind[c] = '?';
		if ((unsigned)d->role >= PS_PATH_NROLES)
			d->role = PS_PATH_LOWER;
		if (d->mtu > (1 << 20))
			d->mtu = PS_NA;
		if (d->encap_overhead < 0 || d->encap_overhead > 256)
			d->encap_overhead = 0;
		if (d->ifindex < 0)
			d->ifindex = 0;
		i->n++;
	}
}

static const struct ps_jcodec devs_codec = { .put = devs_put, .get = devs_get };

static const struct ps_jfield path_table[] = {
	PS_JFIELD(PI, ifname, "ifname", PS_JT_STRING, 0, NULL, NULL),
	PS_JSTATUS(PI, status, reason, PS_JF_NA),
	PS_JFIELD(PI, truncated, "truncated", PS_JT_BOOL, PS_JF_OK, NULL, NULL),
	PS_JFIELD(PI, ports_guessed, "ports_guessed", PS_JT_BOOL, PS_JF_OK,
		  NULL, NULL),
	{ .key = "devices",
	  .type = PS_JT_CUSTOM,
	  .flags = PS_JF_OK,
	  .codec = &devs_codec },
	PS_JEND
};

struct json_object *ps_path_to_json(const struct ps_path_info *i)
{
	return ps_jtable_to_json(path_table, i);
}

int ps_path_from_json(struct json_object *obj, struct ps_path_info *i)
{
	char name[IF_NAMESIZE];

	if (!obj || !json_object_is_type(obj, json_type_object))
		return -EINVAL;
	ps_path_init(i, NULL);
	ps_jtable_get(obj, path_table, i);
	ps_path_clean_name(name, i->ifname);
	memcpy(i->ifname, name, sizeof(name));
	return 0;
}

void ps_path_print(FILE *out, const struct ps_path_info *i)
{
	fprintf(out, _("Path from %s"), i->ifname);
	fputc('\n', out);
	if (i->status != PS_ST_OK) {
		fprintf(out, "  %s%s%s\n", ps_status_text(i->status),
			i->reason[0] ? ": " : "", i->reason);
		return;
	}
	for (unsigned k = 0; k < i->n; k++) {
		const struct ps_path_dev *d = &i->dev[k];
		char place[96];

		ps_path_place(i, k, place, sizeof(place));
		fprintf(out, "%s (%s)\n", place, ps_path_role_names[d->role]);
		ps_jtable_print(out, dev_table + 1, d);
		ps_qdisc_print(out, &d->qdisc);
	}
	if (i->ports_guessed)
		fprintf(out, "%s\n",
			_("  (the bridge port toward the peer could not be "
			  "told: its ports that are up are listed)"));
	if (i->truncated)
		fprintf(out, _("  (more than %d devices: the rest left out)\n"),
			PS_PATH_MAX);
}

/* the one-screen text: a line per device, its shaper when it has one */
static void path_op_brief(FILE *out, const struct ps_snapshot *s)
{
	const struct ps_path_info *i = &s->path;

	fprintf(out, "\n%s\n", _("Path"));
	if (i->status != PS_ST_OK) {
		fprintf(out, "  %s%s%s\n", ps_status_text(i->status),
			i->reason[0] ? ": " : "", i->reason);
		return;
	}
	for (unsigned k = 0; k < i->n; k++) {
		const struct ps_path_dev *d = &i->dev[k];
		struct ps_qdisc_shaper sh;
		const struct ps_qdisc_entry *r = ps_qdisc_root(&d->qdisc);
		char place[96];

		ps_path_place(i, k, place, sizeof(place));
		fprintf(out, "  %s [%s]", place, d->kind[0] ? d->kind : "-");
		if (d->mtu > 0)
			fprintf(out, _(", MTU %lld"), (long long)d->mtu);
		if (d->encap_overhead)
			fprintf(out, _(", %d bytes of encapsulation"),
				d->encap_overhead);
		if (ps_qdisc_shaper(&d->qdisc, &sh))
			fprintf(out, _(", %s %.1f Mbit/s (%s)"), sh.q->kind,
				sh.rate_bps / 1e6,
				ps_path_dir_name(ps_path_direction(i, k)));
		else if (r)
			fprintf(out, ", %s", r->kind);
		if (d->status != PS_ST_OK)
			fprintf(out, ": %s", ps_status_text(d->status));
		fputc('\n', out);
	}
	if (i->ports_guessed)
		fprintf(out, "  %s\n",
			_("(bridge port toward the peer not known: its up "
			  "ports listed)"));
}

/* the probe "pipescope probe" runs (probe.h), in PS_PROBE_LIST */
static int path_op_open(struct ps_probe *p)
{
	p->priv = ps_path_open_on(p->rtnl);
	return 0;
}

static void path_op_close(struct ps_probe *p)
{
	ps_path_close(p->priv);
	p->priv = NULL;
}

static int path_op_sample(struct ps_probe *p, struct ps_snapshot *s)
{
	ps_path_free(&s->path);
	return ps_path_sample_peer(p->priv, p->ifname ? p->ifname : "",
				   p->env ? p->env->iface.peer : NULL,
				   &s->path);
}

PS_PROBE_DATA(path)

/* clang-format off */
const struct ps_probe_ops ps_path_ops = {
	PS_PROBE_OPS(path),
	.open = path_op_open,
	.close = path_op_close,
	.title = N_("Path"),
	.needs_iface = true,
	.brief = path_op_brief,
};
/* clang-format on */
