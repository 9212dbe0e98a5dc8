/* ethtool-parse.c: one pure parser per reply of the ethtool netlink
 * family ("ethtool", "-k", "-l", "-g", "-c", "-a", "-x", "-S
 * --all-groups"), over the layers of ethnl.c: the bytes as received (or
 * recorded) into the groups of struct ps_ethtool_info */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/version.h>

#include "ethnl.h"
#include "ethtool-internal.h"
#include "log.h"
#include "nls.h"
#include "probe-ethtool.h"
#include "xmalloc.h"

/*
 * Newer than the installed uapi header (linux-libc-dev 6.1 here): RSS_GET
 * and LINKSTATE_EXT_DOWN_CNT came with kernel 6.2. They are enum members,
 * so #ifndef cannot see them; the header's version says whether they are
 * there. Values are the enum positions of the 6.2+ uapi header.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#ifndef ETHTOOL_MSG_RSS_GET
#define ETHTOOL_MSG_RSS_GET 38
#define ETHTOOL_MSG_RSS_GET_REPLY 38
#define ETHTOOL_A_RSS_HEADER 1
#define ETHTOOL_A_RSS_CONTEXT 2
#define ETHTOOL_A_RSS_HFUNC 3
#define ETHTOOL_A_RSS_INDIR 4
#define ETHTOOL_A_RSS_HKEY 5
#endif
#ifndef ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT
#define ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT 7
#endif
#endif

const struct ps_eth_request ps_eth_requests[PS_ETHG_COUNT] = {
	[PS_ETHG_LINKSTATE] = { ETHTOOL_MSG_LINKSTATE_GET,
				ETHTOOL_MSG_LINKSTATE_GET_REPLY,
				ETHTOOL_A_LINKSTATE_HEADER, 0,
				"LINKSTATE_GET" },
	[PS_ETHG_LINKMODES] = { ETHTOOL_MSG_LINKMODES_GET,
				ETHTOOL_MSG_LINKMODES_GET_REPLY,
				ETHTOOL_A_LINKMODES_HEADER, 0,
				"LINKMODES_GET" },
	[PS_ETHG_FEATURES] = { ETHTOOL_MSG_FEATURES_GET,
			       ETHTOOL_MSG_FEATURES_GET_REPLY,
			       ETHTOOL_A_FEATURES_HEADER, 0, "FEATURES_GET" },
	[PS_ETHG_CHANNELS] = { ETHTOOL_MSG_CHANNELS_GET,
			       ETHTOOL_MSG_CHANNELS_GET_REPLY,
			       ETHTOOL_A_CHANNELS_HEADER, 0, "CHANNELS_GET" },
	[PS_ETHG_RINGS] = { ETHTOOL_MSG_RINGS_GET, ETHTOOL_MSG_RINGS_GET_REPLY,
			    ETHTOOL_A_RINGS_HEADER, 0, "RINGS_GET" },
	[PS_ETHG_COALESCE] = { ETHTOOL_MSG_COALESCE_GET,
			       ETHTOOL_MSG_COALESCE_GET_REPLY,
			       ETHTOOL_A_COALESCE_HEADER, 0, "COALESCE_GET" },
	[PS_ETHG_PAUSE] = { ETHTOOL_MSG_PAUSE_GET, ETHTOOL_MSG_PAUSE_GET_REPLY,
			    ETHTOOL_A_PAUSE_HEADER, ETHTOOL_FLAG_STATS,
			    "PAUSE_GET" },
	[PS_ETHG_RSS] = { ETHTOOL_MSG_RSS_GET, ETHTOOL_MSG_RSS_GET_REPLY,
			  ETHTOOL_A_RSS_HEADER, 0, "RSS_GET" },
	[PS_ETHG_STATS] = { ETHTOOL_MSG_STATS_GET, ETHTOOL_MSG_STATS_GET_REPLY,
			    ETHTOOL_A_STATS_HEADER, 0, "STATS_GET" },
};

static int parse_linkstate(const struct nlmsghdr *nlh, void *data)
{
	struct ps_ethtool_info *i = data;
	struct ps_nl_table t;

	ps_nl_table_msg(nlh, &t);
	i->linkstate.link = ps_nl_bool(t.tb[ETHTOOL_A_LINKSTATE_LINK]);
	i->linkstate.sqi = ps_nl_u32(t.tb[ETHTOOL_A_LINKSTATE_SQI]);
	i->linkstate.sqi_max = ps_nl_u32(t.tb[ETHTOOL_A_LINKSTATE_SQI_MAX]);
	i->linkstate.ext_state = ps_nl_u8(t.tb[ETHTOOL_A_LINKSTATE_EXT_STATE]);
	i->linkstate.ext_substate =
		ps_nl_u8(t.tb[ETHTOOL_A_LINKSTATE_EXT_SUBSTATE]);
	i->linkstate.ext_down_cnt =
		ps_nl_u32(t.tb[ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT]);
	return 0;
}

static void names_from_bits(struct ps_eth_names *out, const uint32_t *words,
			    unsigned size, const struct ps_ethtool_strsets *ss)
{
	unsigned n = 0;

	ps_eth_names_free(out);
	for (unsigned b = 0; b < size; b++)
		n += ps_nl_bit_test(words, size, b);
	if (!n)
		return;
	out->v = xcalloc(n, PS_ETH_STRLEN);
	for (unsigned b = 0; b < size; b++) {
		const char *name;

		if (!ps_nl_bit_test(words, size, b))
			continue;
		name = ps_ethtool_strset_get(ss, ETH_SS_LINK_MODES, b);
		if (name)
			snprintf(out->v[out->n], PS_ETH_STRLEN, "%s", name);
		else
			snprintf(out->v[out->n], PS_ETH_STRLEN, "mode-%u", b);
		out->n++;
	}
}

struct parse_ctx {
	struct ps_ethtool_info *info;
	const struct ps_ethtool_strsets *ss;
};

static int parse_linkmodes(const struct nlmsghdr *nlh, void *data)
{
	struct parse_ctx *c = data;
	struct ps_ethtool_info *i = c->info;
	struct ps_nl_bitset bs;
	struct ps_nl_table t;
	int64_t speed;

	ps_nl_table_msg(nlh, &t);
	ps_eth_clear_linkmodes(i);
	i->linkmodes.autoneg = ps_nl_bool(t.tb[ETHTOOL_A_LINKMODES_AUTONEG]);
	speed = ps_nl_u32(t.tb[ETHTOOL_A_LINKMODES_SPEED]);
	/* SPEED_UNKNOWN is (u32)-1; 0 also means "no link" */
	if (speed > 0 && speed != (int64_t)(uint32_t)SPEED_UNKNOWN)
		i->linkmodes.speed_bps = speed * 1000000;
	i->linkmodes.duplex = ps_nl_u8(t.tb[ETHTOOL_A_LINKMODES_DUPLEX]);
	if (i->linkmodes.duplex != DUPLEX_HALF &&
	    i->linkmodes.duplex != DUPLEX_FULL)
		i->linkmodes.duplex = PS_ETH_NA;
	i->linkmodes.lanes = ps_nl_u32(t.tb[ETHTOOL_A_LINKMODES_LANES]);
	if (ps_nl_bitset_parse(t.tb[ETHTOOL_A_LINKMODES_OURS], &bs) == 0) {
		/* value: advertised, mask: supported */
		names_from_bits(&i->linkmodes.advertised, bs.value, bs.size,
				c->ss);
		names_from_bits(&i->linkmodes.supported, bs.mask, bs.size,
				c->ss);
		ps_nl_bitset_free(&bs);
	}
	if (ps_nl_bitset_parse(t.tb[ETHTOOL_A_LINKMODES_PEER], &bs) == 0) {
		names_from_bits(&i->linkmodes.partner, bs.value, bs.size,
				c->ss);
		ps_nl_bitset_free(&bs);
	}
	return 0;
}

static int parse_features(const struct nlmsghdr *nlh, void *data)
{
	struct parse_ctx *c = data;
	struct ps_ethtool_info *i = c->info;
	struct ps_nl_bitset hw, wanted, active, nochange;
	struct ps_nl_table t;
	bool have_names;
	unsigned n;

	ps_nl_table_msg(nlh, &t);
	if (ps_nl_bitset_parse(t.tb[ETHTOOL_A_FEATURES_HW], &hw) < 0 ||
	    ps_nl_bitset_parse(t.tb[ETHTOOL_A_FEATURES_ACTIVE], &active) < 0) {
		ps_nl_bitset_free(&hw);
		return -EBADMSG;
	}
	ps_nl_bitset_parse(t.tb[ETHTOOL_A_FEATURES_WANTED], &wanted);
	ps_nl_bitset_parse(t.tb[ETHTOOL_A_FEATURES_NOCHANGE], &nochange);
	n = hw.size;
	have_names = ps_ethtool_strset_get(c->ss, ETH_SS_FEATURES, 0) != NULL;
	free(i->features.v);
	i->features.v = xcalloc(n ? n : 1, sizeof(*i->features.v));
	i->features.n = 0;
	for (unsigned b = 0; b < n; b++) {
		struct ps_eth_feature *f = &i->features.v[i->features.n];
		const char *name =
			ps_ethtool_strset_get(c->ss, ETH_SS_FEATURES, b);
		bool known =
			hw.mask ? ps_nl_bit_test(hw.mask, hw.size, b) : true;

		/* bits the kernel leaves unnamed are not features */
		if (!known || (!name && have_names))
			continue;
		if (name)
			snprintf(f->name, sizeof(f->name), "%s", name);
		else
			snprintf(f->name, sizeof(f->name), "feature-%u", b);
		f->active = ps_nl_bit_test(active.value, active.size, b);
		f->wanted = ps_nl_bit_test(wanted.value, wanted.size, b);
		f->fixed = !ps_nl_bit_test(hw.value, hw.size, b) ||
			   ps_nl_bit_test(nochange.value, nochange.size, b);
		f->requested_on = f->wanted && !f->active;
		i->features.n++;
	}
	ps_nl_bitset_free(&hw);
	ps_nl_bitset_free(&wanted);
	ps_nl_bitset_free(&active);
	ps_nl_bitset_free(&nochange);
	ps_ethtool_features_summarise(i);
	return 0;
}

static int parse_channels(const struct nlmsghdr *nlh, void *data)
{
	struct ps_ethtool_info *i = data;
	struct ps_nl_table t;

	ps_nl_table_msg(nlh, &t);
	i->channels.rx_max = ps_nl_u32(t.tb[ETHTOOL_A_CHANNELS_RX_MAX]);
	i->channels.tx_max = ps_nl_u32(t.tb[ETHTOOL_A_CHANNELS_TX_MAX]);
	i->channels.other_max = ps_nl_u32(t.tb[ETHTOOL_A_CHANNELS_OTHER_MAX]);
	i->channels.combined_max =
		ps_nl_u32(t.tb[ETHTOOL_A_CHANNELS_COMBINED_MAX]);
	i->channels.rx = ps_nl_u32(t.tb[ETHTOOL_A_CHANNELS_RX_COUNT]);
	i->channels.tx = ps_nl_u32(t.tb[ETHTOOL_A_CHANNELS_TX_COUNT]);
	i->channels.other = ps_nl_u32(t.tb[ETHTOOL_A_CHANNELS_OTHER_COUNT]);
	i->channels.combined =
		ps_nl_u32(t.tb[ETHTOOL_A_CHANNELS_COMBINED_COUNT]);
	return 0;
}

static int parse_rings(const struct nlmsghdr *nlh, void *data)
{
	struct ps_ethtool_info *i = data;
	struct ps_nl_table t;

	ps_nl_table_msg(nlh, &t);
	i->rings.rx_max = ps_nl_u32(t.tb[ETHTOOL_A_RINGS_RX_MAX]);
	i->rings.rx_mini_max = ps_nl_u32(t.tb[ETHTOOL_A_RINGS_RX_MINI_MAX]);
	i->rings.rx_jumbo_max = ps_nl_u32(t.tb[ETHTOOL_A_RINGS_RX_JUMBO_MAX]);
	i->rings.tx_max = ps_nl_u32(t.tb[ETHTOOL_A_RINGS_TX_MAX]);
	i->rings.rx = ps_nl_u32(t.tb[ETHTOOL_A_RINGS_RX]);
	i->rings.rx_mini = ps_nl_u32(t.tb[ETHTOOL_A_RINGS_RX_MINI]);
	i->rings.rx_jumbo = ps_nl_u32(t.tb[ETHTOOL_A_RINGS_RX_JUMBO]);
	i->rings.tx = ps_nl_u32(t.tb[ETHTOOL_A_RINGS_TX]);
	return 0;
}

static int parse_coalesce(const struct nlmsghdr *nlh, void *data)
{
	struct ps_ethtool_info *i = data;
	struct ps_nl_table t;

	ps_nl_table_msg(nlh, &t);
	i->coalesce.rx_usecs = ps_nl_u32(t.tb[ETHTOOL_A_COALESCE_RX_USECS]);
	i->coalesce.rx_frames =
		ps_nl_u32(t.tb[ETHTOOL_A_COALESCE_RX_MAX_FRAMES]);
	i->coalesce.tx_usecs = ps_nl_u32(t.tb[ETHTOOL_A_COALESCE_TX_USECS]);
	i->coalesce.tx_frames =
		ps_nl_u32(t.tb[ETHTOOL_A_COALESCE_TX_MAX_FRAMES]);
	i->coalesce.adaptive_rx =
		ps_nl_bool(t.tb[ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX]);
	i->coalesce.adaptive_tx =
		ps_nl_bool(t.tb[ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX]);
	return 0;
}

static int parse_pause(const struct nlmsghdr *nlh, void *data)
{
	struct ps_ethtool_info *i = data;
	struct ps_nl_table t, s;

	ps_nl_table_msg(nlh, &t);
	i->pause.autoneg = ps_nl_bool(t.tb[ETHTOOL_A_PAUSE_AUTONEG]);
	i->pause.rx = ps_nl_bool(t.tb[ETHTOOL_A_PAUSE_RX]);
	i->pause.tx = ps_nl_bool(t.tb[ETHTOOL_A_PAUSE_TX]);
	ps_nl_table_nest(t.tb[ETHTOOL_A_PAUSE_STATS], &s);
	i->pause.tx_frames = ps_nl_u64(s.tb[ETHTOOL_A_PAUSE_STAT_TX_FRAMES]);
	i->pause.rx_frames = ps_nl_u64(s.tb[ETHTOOL_A_PAUSE_STAT_RX_FRAMES]);
	return 0;
}

static int parse_rss(const struct nlmsghdr *nlh, void *data)
{
	struct parse_ctx *c = data;
	struct ps_ethtool_info *i = c->info;
	const struct nlattr *a;
	struct ps_nl_table t;
	int64_t hf;

	ps_nl_table_msg(nlh, &t);
	ps_eth_clear_group(i, PS_ETHG_RSS);
	hf = ps_nl_u32(t.tb[ETHTOOL_A_RSS_HFUNC]);
	if (hf > 0) {
		unsigned b = (unsigned)__builtin_ctzll((unsigned long long)hf);
		const char *name =
			ps_ethtool_strset_get(c->ss, ETH_SS_RSS_HASH_FUNCS, b);

		if (name)
			snprintf(i->rss.hfunc, sizeof(i->rss.hfunc), "%s",
				 name);
		else
			snprintf(i->rss.hfunc, sizeof(i->rss.hfunc), "hfunc-%u",
				 b);
	}
	/* the table is u32 entries, as ethtool's netlink/rss.c reads it */
	a = t.tb[ETHTOOL_A_RSS_INDIR];
	if (a && mnl_attr_get_payload_len(a) >= sizeof(uint32_t)) {
		i->rss.n_indir = mnl_attr_get_payload_len(a) / sizeof(uint32_t);
		i->rss.indir = xcalloc(i->rss.n_indir, sizeof(uint32_t));
		memcpy(i->rss.indir, mnl_attr_get_payload(a),
		       i->rss.n_indir * sizeof(uint32_t));
	}
	a = t.tb[ETHTOOL_A_RSS_HKEY];
	if (a && mnl_attr_get_payload_len(a) > 0) {
		i->rss.n_hkey = mnl_attr_get_payload_len(a);
		i->rss.hkey = xmalloc(i->rss.n_hkey);
		memcpy(i->rss.hkey, mnl_attr_get_payload(a), i->rss.n_hkey);
	}
	return 0;
}

void ps_eth_add_counter(struct ps_eth_counter **v, unsigned *n,
			const char *group, const char *name, uint64_t value)
{
	*v = xgrow(*v, *n, sizeof(**v));
	memset(&(*v)[*n], 0, sizeof(**v));
	snprintf((*v)[*n].group, sizeof((*v)[*n].group), "%s", group);
	snprintf((*v)[*n].name, sizeof((*v)[*n].name), "%s", name);
	(*v)[*n].value = value;
	(*n)++;
}

static int parse_stats(const struct nlmsghdr *nlh, void *data)
{
	struct parse_ctx *c = data;
	struct ps_ethtool_info *i = c->info;
	const struct nlattr *grp;

	ps_eth_clear_group(i, PS_ETHG_STATS);
	mnl_attr_for_each(grp, nlh, GENL_HDRLEN)
	{
		const struct nlattr *st;
		const char *gname;
		char gbuf[16];
		struct ps_nl_table g;
		int64_t id, ssid;

		if (mnl_attr_get_type(grp) != ETHTOOL_A_STATS_GRP)
			continue;
		ps_nl_table_nest(grp, &g);
		id = ps_nl_u32(g.tb[ETHTOOL_A_STATS_GRP_ID]);
		ssid = ps_nl_u32(g.tb[ETHTOOL_A_STATS_GRP_SS_ID]);
		if (id < 0 || ssid < 0)
			continue;
		gname = ps_ethtool_strset_get(c->ss, ETH_SS_STATS_STD,
					      (unsigned)id);
		if (!gname) {
			snprintf(gbuf, sizeof(gbuf), "group-%u", (unsigned)id);
			gname = gbuf;
		}
		mnl_attr_for_each_nested(st, grp)
		{
			const struct nlattr *v;
			const char *name;
			char nbuf[PS_ETH_STRLEN];

			if (mnl_attr_get_type(st) != ETHTOOL_A_STATS_GRP_STAT)
				continue;
			/* one u64 whose attribute type is the stat's index */
			v = mnl_attr_get_payload(st);
			if (mnl_attr_get_payload_len(st) < sizeof(*v) ||
			    !mnl_attr_ok(v,
					 (int)mnl_attr_get_payload_len(st)) ||
			    mnl_attr_get_payload_len(v) < sizeof(uint64_t))
				continue;
			name = ps_ethtool_strset_get(c->ss, (unsigned)ssid,
						     mnl_attr_get_type(v));
			if (!name) {
				snprintf(nbuf, sizeof(nbuf), "stat-%u",
					 mnl_attr_get_type(v));
				name = nbuf;
			}
			ps_eth_add_counter(&i->std_stats.v, &i->std_stats.n,
					   gname, name, mnl_attr_get_u64(v));
		}
	}
	return 0;
}

void ps_eth_group_error(enum ps_status *st, char *reason, int err,
			const char *ext, const char *what)
{
	char base[PS_ETH_REASON];

	switch (-err) {
	case EOPNOTSUPP:
		*st = PS_ST_UNSUPPORTED;
		snprintf(base, sizeof(base), _("the driver does not report %s"),
			 what);
		break;
	case ENODEV:
		*st = PS_ST_ABSENT;
		snprintf(base, sizeof(base), _("the interface is gone"));
		break;
	case EPERM:
	case EACCES:
		*st = PS_ST_NEEDS_ROOT;
		snprintf(base, sizeof(base),
			 _("reading %s needs CAP_NET_ADMIN (run as root)"),
			 what);
		break;
	case EBADMSG:
		*st = PS_ST_ERROR;
		snprintf(base, sizeof(base),
			 _("malformed netlink reply for %s"), what);
		break;
	default:
		*st = PS_ST_ERROR;
		snprintf(base, sizeof(base), _("reading %s failed: %s"), what,
			 ps_strerror(-err));
		break;
	}
	if (ext && *ext)
		snprintf(reason, PS_ETH_REASON, _("%s (kernel: %s)"), base,
			 ext);
	else
		snprintf(reason, PS_ETH_REASON, "%s", base);
}

const char *ps_eth_group_what(enum ps_ethtool_group g)
{
	static const char *const what[PS_ETHG_COUNT] = {
		[PS_ETHG_LINKSTATE] = N_("the link state"),
		[PS_ETHG_LINKMODES] = N_("speed and link modes"),
		[PS_ETHG_FEATURES] = N_("offload features"),
		[PS_ETHG_CHANNELS] = N_("channels"),
		[PS_ETHG_RINGS] = N_("ring sizes"),
		[PS_ETHG_COALESCE] = N_("interrupt coalescing"),
		[PS_ETHG_PAUSE] = N_("pause frames"),
		[PS_ETHG_RSS] = N_("the RSS table"),
		[PS_ETHG_STATS] = N_("standard statistics"),
	};

	return (unsigned)g < PS_ETHG_COUNT ? _(what[g]) : "?";
}

int ps_ethtool_parse(enum ps_ethtool_group g, const void *buf, size_t len,
		     const struct ps_ethtool_strsets *ss,
		     struct ps_ethtool_info *out)
{
	static int (*const parsers[PS_ETHG_COUNT])(const struct nlmsghdr *,
						   void *) = {
		[PS_ETHG_LINKSTATE] = parse_linkstate,
		[PS_ETHG_LINKMODES] = parse_linkmodes,
		[PS_ETHG_FEATURES] = parse_features,
		[PS_ETHG_CHANNELS] = parse_channels,
		[PS_ETHG_RINGS] = parse_rings,
		[PS_ETHG_COALESCE] = parse_coalesce,
		[PS_ETHG_PAUSE] = parse_pause,
		[PS_ETHG_RSS] = parse_rss,
		[PS_ETHG_STATS] = parse_stats,
	};
	struct parse_ctx c = { out, ss };
	struct ps_eth_grp_ref r;
	struct ps_nl_walk w;
	int ret;

	if ((unsigned)g >= PS_ETHG_COUNT)
		return -EINVAL;
	r = ps_eth_group_ref(out, g);
	ps_eth_clear_group(out, g);
	w.want_cmd = ps_eth_requests[g].reply;
	w.cb = parsers[g];
	/* the parsers that need string sets take the context */
	w.data = (g == PS_ETHG_LINKMODES || g == PS_ETHG_FEATURES ||
		  g == PS_ETHG_RSS || g == PS_ETHG_STATS)
			 ? (void *)&c
			 : (void *)out;
	ret = ps_nl_walk_reply(buf, len, &w);
	if (ret < 0) {
		ps_eth_clear_group(out, g);
		ps_eth_group_error(r.st, r.reason, ret, w.ext,
				   ps_eth_group_what(g));
		return ret == -EBADMSG ? ret : 0;
	}
	ps_eth_set_status(r.st, r.reason, PS_ST_OK, NULL);
	if (g == PS_ETHG_STATS && out->std_stats.n == 0)
		ps_eth_set_status(
			r.st, r.reason, PS_ST_UNSUPPORTED,
			_("the driver reports no standard (IEEE/RMON) "
			  "statistics"));
	if (g == PS_ETHG_RSS && !out->rss.n_indir && !out->rss.hfunc[0] &&
	    !out->rss.n_hkey)
		ps_eth_set_status(r.st, r.reason, PS_ST_UNSUPPORTED,
				  _("the driver reports no RSS table"));
	return 0;
}
