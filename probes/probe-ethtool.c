/* probe-ethtool.c: what "ethtool", "ethtool -k/-l/-g/-c/-a/-x/-S/-i" show
 * for one interface, read over generic netlink (family "ethtool"); the
 * ioctl only where netlink has no message (driver info and the driver's
 * own counters). The netlink layers (socket and transaction, reply walk,
 * attribute tables, bitsets, string sets) are in ethnl.c; here: one pure
 * parser per reply, the sampling, and the group tables of the snapshot. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/version.h>

#include "ethnl.h"
#include "log.h"
#include "nls.h"
#include "probe-ethtool.h"
#include "sysroot.h"
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

/* clang-format off */
static const char *const group_names[PS_ETHG_COUNT] = {
	[PS_ETHG_LINKSTATE] = "link_state",
	[PS_ETHG_LINKMODES] = "link_modes",
	[PS_ETHG_FEATURES] = "features",
	[PS_ETHG_CHANNELS] = "channels",
	[PS_ETHG_RINGS] = "rings",
	[PS_ETHG_COALESCE] = "coalesce",
	[PS_ETHG_PAUSE] = "pause",
	[PS_ETHG_RSS] = "rss",
	[PS_ETHG_STATS] = "std_stats",
};
/* clang-format on */

/* request, reply command and header attribute of each group */
static const struct {
	uint8_t cmd, reply;
	uint16_t hdr;
	uint32_t flags;
	const char *msg; /* for "this kernel has no ..." */
} requests[PS_ETHG_COUNT] = {
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

/*
 * The global string sets asked for once (all exist since kernel 5.13; the
 * first three since 5.6, asked alone when the kernel refuses the list)
 */
const char *ps_ethtool_group_name(enum ps_ethtool_group g)
{
	if ((unsigned)g >= PS_ETHG_COUNT)
		return "unknown";
	return group_names[g];
}

/* ---- the snapshot struct ---------------------------------------------- */

/* status and reason of each group, so loops can treat them alike */
struct grp_ref {
	enum ps_status *st;
	char *reason;
};

static struct grp_ref group_ref(struct ps_ethtool_info *i,
				enum ps_ethtool_group g)
{
	switch (g) {
	case PS_ETHG_LINKSTATE:
		return (struct grp_ref){ &i->linkstate.status,
					 i->linkstate.reason };
	case PS_ETHG_LINKMODES:
		return (struct grp_ref){ &i->linkmodes.status,
					 i->linkmodes.reason };
	case PS_ETHG_FEATURES:
		return (struct grp_ref){ &i->features.status,
					 i->features.reason };
	case PS_ETHG_CHANNELS:
		return (struct grp_ref){ &i->channels.status,
					 i->channels.reason };
	case PS_ETHG_RINGS:
		return (struct grp_ref){ &i->rings.status, i->rings.reason };
	case PS_ETHG_COALESCE:
		return (struct grp_ref){ &i->coalesce.status,
					 i->coalesce.reason };
	case PS_ETHG_PAUSE:
		return (struct grp_ref){ &i->pause.status, i->pause.reason };
	case PS_ETHG_RSS:
		return (struct grp_ref){ &i->rss.status, i->rss.reason };
	case PS_ETHG_STATS:
	default:
		return (struct grp_ref){ &i->std_stats.status,
					 i->std_stats.reason };
	}
}

static void set_status(enum ps_status *st, char *reason, enum ps_status v,
		       const char *text)
{
	*st = v;
	snprintf(reason, PS_ETH_REASON, "%s", text ? text : "");
}

static void names_free(struct ps_eth_names *n)
{
	free(n->v);
	n->v = NULL;
	n->n = 0;
}

static void clear_linkmodes(struct ps_ethtool_info *i)
{
	names_free(&i->linkmodes.supported);
	names_free(&i->linkmodes.advertised);
	names_free(&i->linkmodes.partner);
	i->linkmodes.autoneg = PS_ETH_NA;
	i->linkmodes.speed_bps = PS_ETH_NA;
	i->linkmodes.duplex = PS_ETH_NA;
	i->linkmodes.lanes = PS_ETH_NA;
}

static void clear_group(struct ps_ethtool_info *i, enum ps_ethtool_group g)
{
	switch (g) {
	case PS_ETHG_LINKSTATE:
		i->linkstate.link = PS_ETH_NA;
		i->linkstate.sqi = i->linkstate.sqi_max = PS_ETH_NA;
		i->linkstate.ext_state = i->linkstate.ext_substate = PS_ETH_NA;
		i->linkstate.ext_down_cnt = PS_ETH_NA;
		break;
	case PS_ETHG_LINKMODES:
		clear_linkmodes(i);
		break;
	case PS_ETHG_FEATURES:
		free(i->features.v);
		i->features.v = NULL;
		i->features.n = 0;
		memset(i->features.flag, 0, sizeof(i->features.flag));
		break;
	case PS_ETHG_CHANNELS:
		i->channels.rx = i->channels.tx = PS_ETH_NA;
		i->channels.other = i->channels.combined = PS_ETH_NA;
		i->channels.rx_max = i->channels.tx_max = PS_ETH_NA;
		i->channels.other_max = i->channels.combined_max = PS_ETH_NA;
		break;
	case PS_ETHG_RINGS:
		i->rings.rx = i->rings.rx_mini = PS_ETH_NA;
		i->rings.rx_jumbo = i->rings.tx = PS_ETH_NA;
		i->rings.rx_max = i->rings.rx_mini_max = PS_ETH_NA;
		i->rings.rx_jumbo_max = i->rings.tx_max = PS_ETH_NA;
		break;
	case PS_ETHG_COALESCE:
		i->coalesce.adaptive_rx = i->coalesce.adaptive_tx = PS_ETH_NA;
		i->coalesce.rx_usecs = i->coalesce.rx_frames = PS_ETH_NA;
		i->coalesce.tx_usecs = i->coalesce.tx_frames = PS_ETH_NA;
		break;
	case PS_ETHG_PAUSE:
		i->pause.autoneg = i->pause.rx = i->pause.tx = PS_ETH_NA;
		i->pause.tx_frames = i->pause.rx_frames = PS_ETH_NA;
		break;
	case PS_ETHG_RSS:
		free(i->rss.indir);
		free(i->rss.hkey);
		i->rss.indir = NULL;
		i->rss.hkey = NULL;
		i->rss.n_indir = i->rss.n_hkey = 0;
		i->rss.hfunc[0] = '\0';
		break;
	case PS_ETHG_STATS:
	default:
		free(i->std_stats.v);
		i->std_stats.v = NULL;
		i->std_stats.n = 0;
		break;
	}
}

void ps_ethtool_init(struct ps_ethtool_info *info, const char *ifname)
{
	memset(info, 0, sizeof(*info));
	info->status = PS_ST_ERROR;
	snprintf(info->ifname, sizeof(info->ifname), "%s",
		 ifname ? ifname : "");
	info->drvinfo.status = PS_ST_ERROR;
	info->drv_stats.status = PS_ST_ERROR;
	for (int g = 0; g < PS_ETHG_COUNT; g++) {
		struct grp_ref r = group_ref(info, g);

		*r.st = PS_ST_ERROR;
		clear_group(info, g);
	}
}

void ps_ethtool_free(struct ps_ethtool_info *info)
{
	if (!info)
		return;
	for (int g = 0; g < PS_ETHG_COUNT; g++)
		clear_group(info, g);
	free(info->drv_stats.v);
	info->drv_stats.v = NULL;
	info->drv_stats.n = 0;
}

/* ---- one parser per reply ------------------------------------------------ */

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

	names_free(out);
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
	clear_linkmodes(i);
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
		bool known = hw.mask ? ps_nl_bit_test(hw.mask, hw.size, b) : true;

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
	i->channels.combined_max = ps_nl_u32(t.tb[ETHTOOL_A_CHANNELS_COMBINED_MAX]);
	i->channels.rx = ps_nl_u32(t.tb[ETHTOOL_A_CHANNELS_RX_COUNT]);
	i->channels.tx = ps_nl_u32(t.tb[ETHTOOL_A_CHANNELS_TX_COUNT]);
	i->channels.other = ps_nl_u32(t.tb[ETHTOOL_A_CHANNELS_OTHER_COUNT]);
	i->channels.combined = ps_nl_u32(t.tb[ETHTOOL_A_CHANNELS_COMBINED_COUNT]);
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
	i->coalesce.rx_frames = ps_nl_u32(t.tb[ETHTOOL_A_COALESCE_RX_MAX_FRAMES]);
	i->coalesce.tx_usecs = ps_nl_u32(t.tb[ETHTOOL_A_COALESCE_TX_USECS]);
	i->coalesce.tx_frames = ps_nl_u32(t.tb[ETHTOOL_A_COALESCE_TX_MAX_FRAMES]);
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
	clear_group(i, PS_ETHG_RSS);
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

static void add_counter(struct ps_eth_counter **v, unsigned *n,
			const char *group, const char *name, uint64_t value)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
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

	clear_group(i, PS_ETHG_STATS);
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
			add_counter(&i->std_stats.v, &i->std_stats.n, gname,
				    name, mnl_attr_get_u64(v));
		}
	}
	return 0;
}

/* from an errno (and the kernel's extack text) to status and reason */
static void group_error(enum ps_status *st, char *reason, int err,
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
			 strerror(-err));
		break;
	}
	if (ext && *ext)
		snprintf(reason, PS_ETH_REASON, _("%s (kernel: %s)"), base,
			 ext);
	else
		snprintf(reason, PS_ETH_REASON, "%s", base);
}

static const char *group_what(enum ps_ethtool_group g)
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
	struct grp_ref r;
	struct ps_nl_walk w;
	int ret;

	if ((unsigned)g >= PS_ETHG_COUNT)
		return -EINVAL;
	r = group_ref(out, g);
	clear_group(out, g);
	w.want_cmd = requests[g].reply;
	w.cb = parsers[g];
	/* the parsers that need string sets take the context */
	w.data = (g == PS_ETHG_LINKMODES || g == PS_ETHG_FEATURES ||
		  g == PS_ETHG_RSS || g == PS_ETHG_STATS)
			 ? (void *)&c
			 : (void *)out;
	ret = ps_nl_walk_reply(buf, len, &w);
	if (ret < 0) {
		clear_group(out, g);
		group_error(r.st, r.reason, ret, w.ext, group_what(g));
		return ret == -EBADMSG ? ret : 0;
	}
	set_status(r.st, r.reason, PS_ST_OK, NULL);
	if (g == PS_ETHG_STATS && out->std_stats.n == 0)
		set_status(r.st, r.reason, PS_ST_UNSUPPORTED,
			   _("the driver reports no standard (IEEE/RMON) "
			     "statistics"));
	if (g == PS_ETHG_RSS && !out->rss.n_indir && !out->rss.hfunc[0] &&
	    !out->rss.n_hkey)
		set_status(r.st, r.reason, PS_ST_UNSUPPORTED,
			   _("the driver reports no RSS table"));
	return 0;
}

/* ---- feature summary (the legacy "ethtool -k" flags) --------------------- */

static const struct {
	const char *name;    /* JSON key */
	const char *pattern; /* fnmatch over kernel feature names */
	const char *label;   /* as "ethtool -k" prints it */
} flag_defs[PS_ETH_NFLAGS] = {
	[PS_ETH_TSO] = { "tso", "tx-tcp*-segmentation",
			 N_("TCP segmentation offload (tso)") },
	[PS_ETH_GSO] = { "gso", "tx-generic-segmentation",
			 N_("generic segmentation offload (gso)") },
	[PS_ETH_GRO] = { "gro", "rx-gro", N_("generic receive offload (gro)") },
	[PS_ETH_GRO_HW] = { "gro_hw", "rx-gro-hw",
			    N_("hardware GRO (rx-gro-hw)") },
	[PS_ETH_LRO] = { "lro", "rx-lro", N_("large receive offload (lro)") },
	[PS_ETH_RX_CSUM] = { "rx_checksum", "rx-checksum",
			     N_("rx checksumming") },
	[PS_ETH_TX_CSUM] = { "tx_checksum", "tx-checksum-*",
			     N_("tx checksumming") },
	[PS_ETH_SG] = { "scatter_gather", "tx-scatter-gather*",
			N_("scatter-gather (sg)") },
	[PS_ETH_RXHASH] = { "rxhash", "rx-hashing",
			    N_("receive hashing (rxhash)") },
	[PS_ETH_NTUPLE] = { "ntuple", "rx-ntuple-filter",
			    N_("ntuple filters (ntuple)") },
};

const char *ps_ethtool_flag_name(enum ps_eth_flag_id id)
{
	return (unsigned)id < PS_ETH_NFLAGS ? flag_defs[id].name : "?";
}

void ps_ethtool_features_summarise(struct ps_ethtool_info *info)
{
	for (int f = 0; f < PS_ETH_NFLAGS; f++) {
		struct ps_eth_flag *fl = &info->features.flag[f];

		memset(fl, 0, sizeof(*fl));
		fl->fixed = true;
		for (unsigned k = 0; k < info->features.n; k++) {
			const struct ps_eth_feature *x = &info->features.v[k];

			if (fnmatch(flag_defs[f].pattern, x->name, 0))
				continue;
			fl->known = true;
			fl->on |= x->active;
			fl->fixed &= x->fixed;
			fl->requested_on |= x->requested_on;
		}
		if (!fl->known)
			fl->fixed = false;
	}
}

const struct ps_eth_feature *
ps_ethtool_feature(const struct ps_ethtool_info *info, const char *name)
{
	for (unsigned k = 0; k < info->features.n; k++)
		if (!strcmp(info->features.v[k].name, name))
			return &info->features.v[k];
	return NULL;
}

/* ---- the driver's own counters ------------------------------------------- */

static bool drv_stat_wanted(const char *name)
{
	static const char *const words[] = {
		"drop", "miss", "discard", "no_buf", "nobuf", "fifo", "error",
	};
	const char *p;

	for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (strcasestr(name, words[k]))
			return true;
	/* "rx_wqe_err", "err_frames": the short form, as a whole word */
	for (p = name; (p = strcasestr(p, "err")); p += 3)
		if ((p == name || p[-1] == '_' || p[-1] == '.') &&
		    (p[3] == '\0' || p[3] == '_'))
			return true;
	return false;
}

int ps_ethtool_parse_drv_stats(const char *names, const uint64_t *vals,
			       unsigned n, struct ps_ethtool_info *out)
{
	free(out->drv_stats.v);
	out->drv_stats.v = NULL;
	out->drv_stats.n = 0;
	out->drv_stats.total = n;
	if (n && (!names || !vals))
		return -EINVAL;
	for (unsigned k = 0; k < n; k++) {
		char name[PS_ETH_STRLEN];

		/* kernel strings are ETH_GSTRING_LEN bytes, maybe unended */
		memcpy(name, names + (size_t)k * PS_ETH_STRLEN, PS_ETH_STRLEN);
		name[PS_ETH_STRLEN - 1] = '\0';
		if (drv_stat_wanted(name))
			add_counter(&out->drv_stats.v, &out->drv_stats.n, "",
				    name, vals[k]);
	}
	set_status(&out->drv_stats.status, out->drv_stats.reason, PS_ST_OK,
		   NULL);
	return 0;
}

void ps_ethtool_record(const char *dir)
{
	ps_ethnl_record_to(dir);
}

void ps_ethtool_shutdown(void)
{
	ps_ethnl_close();
}

static void sample_group(const char *ifname, enum ps_ethtool_group g,
			 struct ps_ethtool_info *out)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct grp_ref r = group_ref(out, g);
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	char *reply = NULL;
	size_t len = 0;
	int ret;

	if (!ps_ethnl_op_known(requests[g].cmd)) {
		char msg[PS_ETH_REASON];

		snprintf(msg, sizeof(msg),
			 _("this kernel has no ETHTOOL_MSG_%s request"),
			 requests[g].msg);
		set_status(r.st, r.reason, PS_ST_UNSUPPORTED, msg);
		return;
	}
	nlh = ps_ethnl_req(buf, requests[g].cmd);
	nest = mnl_attr_nest_start(nlh, requests[g].hdr);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS,
			 ETHTOOL_FLAG_COMPACT_BITSETS | requests[g].flags);
	mnl_attr_nest_end(nlh, nest);
	if (g == PS_ETHG_STATS) {
		/* every group this header knows, as a compact bit list */
		uint32_t all = (1u << __ETHTOOL_STATS_CNT) - 1;

		nest = mnl_attr_nest_start(nlh, ETHTOOL_A_STATS_GROUPS);
		mnl_attr_put(nlh, ETHTOOL_A_BITSET_NOMASK, 0, NULL);
		mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE,
				 __ETHTOOL_STATS_CNT);
		mnl_attr_put(nlh, ETHTOOL_A_BITSET_VALUE, sizeof(all), &all);
		mnl_attr_nest_end(nlh, nest);
	}
	ret = ps_ethnl_transact(nlh, &reply, &len);
	if (ret < 0) {
		group_error(r.st, r.reason, ret, NULL, group_what(g));
		return;
	}
	ps_ethnl_record(group_names[g], reply, len);
	ps_ethtool_parse(g, reply, len, ps_ethnl_strsets(), out);
	free(reply);
}

static void sample_drvinfo(const char *ifname, struct ps_ethtool_info *out)
{
	struct ethtool_drvinfo d = { .cmd = ETHTOOL_GDRVINFO };
	int ret = ps_ethnl_ioctl(ifname, &d);

	if (ret < 0) {
		group_error(&out->drvinfo.status, out->drvinfo.reason, ret,
			    NULL, _("driver information"));
		return;
	}
	snprintf(out->drvinfo.driver, sizeof(out->drvinfo.driver), "%.31s",
		 d.driver);
	snprintf(out->drvinfo.version, sizeof(out->drvinfo.version), "%.31s",
		 d.version);
	snprintf(out->drvinfo.firmware, sizeof(out->drvinfo.firmware), "%.31s",
		 d.fw_version);
	snprintf(out->drvinfo.bus_info, sizeof(out->drvinfo.bus_info), "%.31s",
		 d.bus_info);
	set_status(&out->drvinfo.status, out->drvinfo.reason, PS_ST_OK, NULL);
}

static void sample_drv_stats(const char *ifname, struct ps_ethtool_info *out)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} si = { .hdr = { .cmd = ETHTOOL_GSSET_INFO,
			  .sset_mask = 1ULL << ETH_SS_STATS } };
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *st = NULL;
	unsigned n;
	int ret;

	ret = ps_ethnl_ioctl(ifname, &si);
	if (ret == 0 && !(si.hdr.sset_mask & (1ULL << ETH_SS_STATS)))
		ret = -EOPNOTSUPP;
	if (ret < 0)
		goto out_err;
	n = si.len;
	if (n == 0 || n > 100000) {
		ps_ethtool_parse_drv_stats(NULL, NULL, 0, out);
		set_status(&out->drv_stats.status, out->drv_stats.reason,
			   PS_ST_UNSUPPORTED,
			   _("the driver has no counters of its own"));
		return;
	}
	gs = xcalloc(1, sizeof(*gs) + (size_t)n * ETH_GSTRING_LEN);
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = n;
	st = xcalloc(1, sizeof(*st) + (size_t)n * sizeof(uint64_t));
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	ret = ps_ethnl_ioctl(ifname, gs);
	if (ret == 0)
		ret = ps_ethnl_ioctl(ifname, st);
	if (ret < 0)
		goto out_err;
	/* the set may have changed between the calls: use the smaller */
	if (gs->len < n)
		n = gs->len;
	if (st->n_stats < n)
		n = st->n_stats;
	ps_ethtool_parse_drv_stats((const char *)gs->data,
				   (const uint64_t *)st->data, n, out);
	free(gs);
	free(st);
	return;

out_err:
	free(gs);
	free(st);
	group_error(&out->drv_stats.status, out->drv_stats.reason, ret, NULL,
		    _("the driver's counters"));
}

static void all_groups(struct ps_ethtool_info *out, enum ps_status st,
		       const char *reason)
{
	for (int g = 0; g < PS_ETHG_COUNT; g++) {
		struct grp_ref r = group_ref(out, g);

		set_status(r.st, r.reason, st, reason);
	}
	set_status(&out->drvinfo.status, out->drvinfo.reason, st, reason);
	set_status(&out->drv_stats.status, out->drv_stats.reason, st, reason);
}

int ps_ethtool_sample(const char *ifname, struct ps_ethtool_info *out)
{
	char msg[PS_ETH_REASON];
	int ret;

	ps_ethtool_init(out, ifname);
	if (!ifname || !*ifname || strlen(ifname) >= IF_NAMESIZE) {
		snprintf(msg, sizeof(msg), _("no valid interface name given"));
		set_status(&out->status, out->reason, PS_ST_ABSENT, msg);
		all_groups(out, PS_ST_ABSENT, msg);
		return 0;
	}
	if (!ps_sysroot_is_live()) {
		snprintf(msg, sizeof(msg),
			 _("netlink answers are not part of a --sysroot "
			   "recording"));
		set_status(&out->status, out->reason, PS_ST_NOT_RECORDED, msg);
		all_groups(out, PS_ST_NOT_RECORDED, msg);
		return 0;
	}
	out->ifindex = (int)if_nametoindex(ifname);
	if (!out->ifindex) {
		snprintf(msg, sizeof(msg), _("no network interface named %s"),
			 ifname);
		set_status(&out->status, out->reason, PS_ST_ABSENT, msg);
		all_groups(out, PS_ST_ABSENT, msg);
		return 0;
	}
	ps_ethnl_lock();
	ret = ps_ethnl_open();
	if (ret < 0) {
		ps_ethnl_unlock();
		if (ret == -ENOENT)
			snprintf(msg, sizeof(msg),
				 _("this kernel has no ethtool netlink "
				   "interface (needs Linux 5.6 or newer)"));
		else
			snprintf(msg, sizeof(msg),
				 _("cannot talk to the kernel over generic "
				   "netlink: %s"),
				 strerror(-ret));
		set_status(&out->status, out->reason,
			   ret == -ENOENT ? PS_ST_UNSUPPORTED : PS_ST_ERROR,
			   msg);
		all_groups(out, out->status, msg);
		return ret == -ENOENT ? 0 : ret;
	}
	for (int g = 0; g < PS_ETHG_COUNT; g++)
		sample_group(ifname, g, out);
	sample_drvinfo(ifname, out);
	sample_drv_stats(ifname, out);
	ps_ethnl_unlock();
	set_status(&out->status, out->reason, PS_ST_OK, NULL);
	/* vanished while we asked */
	if (out->features.status == PS_ST_ABSENT && !if_nametoindex(ifname)) {
		snprintf(msg, sizeof(msg), _("no network interface named %s"),
			 ifname);
		set_status(&out->status, out->reason, PS_ST_ABSENT, msg);
	}
	return 0;
}

/* ---- JSON ------------------------------------------------------------------
 */

static void j_status(struct json_object *o, enum ps_status st,
		     const char *reason)
{
	json_object_object_add(o, "status",
			       json_object_new_string(ps_status_name(st)));
	if (reason && *reason)
		json_object_object_add(o, "reason",
				       json_object_new_string(reason));
}

static void j_int(struct json_object *o, const char *key, int64_t v)
{
	if (v != PS_ETH_NA)
		json_object_object_add(o, key, json_object_new_int64(v));
}

static void j_bool(struct json_object *o, const char *key, int v)
{
	if (v != PS_ETH_NA)
		json_object_object_add(o, key, json_object_new_boolean(v));
}

static void j_str(struct json_object *o, const char *key, const char *s)
{
	json_object_object_add(o, key, json_object_new_string(s));
}

static struct json_object *j_names(const struct ps_eth_names *n)
{
	struct json_object *a = json_object_new_array();

	for (unsigned k = 0; k < n->n; k++)
		json_object_array_add(a, json_object_new_string(n->v[k]));
	return a;
}

static struct json_object *j_group(struct json_object *root, const char *key,
				   enum ps_status st, const char *reason)
{
	struct json_object *o = json_object_new_object();

	j_status(o, st, reason);
	json_object_object_add(root, key, o);
	return o;
}

static struct json_object *j_cur_max(int64_t cur, int64_t max)
{
	struct json_object *o = json_object_new_object();

	j_int(o, "current", cur);
	j_int(o, "max", max);
	return o;
}

static struct json_object *j_counters(const struct ps_eth_counter *v,
				      unsigned n, bool grouped)
{
	struct json_object *o = json_object_new_object();

	for (unsigned k = 0; k < n; k++) {
		struct json_object *dst = o;

		if (grouped) {
			if (!json_object_object_get_ex(o, v[k].group, &dst)) {
				dst = json_object_new_object();
				json_object_object_add(o, v[k].group, dst);
			}
		}
		json_object_object_add(
			dst, v[k].name,
			json_object_new_int64(v[k].value > INT64_MAX
						      ? INT64_MAX
						      : (int64_t)v[k].value));
	}
	return o;
}

struct json_object *ps_ethtool_to_json(const struct ps_ethtool_info *i)
{
	struct json_object *root = json_object_new_object();
	struct json_object *o, *a;

	j_str(root, "ifname", i->ifname);
	json_object_object_add(root, "ifindex",
			       json_object_new_int(i->ifindex));
	j_status(root, i->status, i->reason);

	o = j_group(root, "driver", i->drvinfo.status, i->drvinfo.reason);
	if (i->drvinfo.status == PS_ST_OK) {
		j_str(o, "driver", i->drvinfo.driver);
		j_str(o, "version", i->drvinfo.version);
		j_str(o, "firmware", i->drvinfo.firmware);
		j_str(o, "bus_info", i->drvinfo.bus_info);
	}

	o = j_group(root, "link_state", i->linkstate.status,
		    i->linkstate.reason);
	j_bool(o, "link", i->linkstate.link);
	j_int(o, "sqi", i->linkstate.sqi);
	j_int(o, "sqi_max", i->linkstate.sqi_max);
	j_int(o, "ext_state", i->linkstate.ext_state);
	j_int(o, "ext_substate", i->linkstate.ext_substate);
	j_int(o, "ext_down_cnt", i->linkstate.ext_down_cnt);

	o = j_group(root, "link_modes", i->linkmodes.status,
		    i->linkmodes.reason);
	j_bool(o, "autoneg", i->linkmodes.autoneg);
	j_int(o, "speed_bps", i->linkmodes.speed_bps);
	if (i->linkmodes.duplex != PS_ETH_NA)
		j_str(o, "duplex",
		      i->linkmodes.duplex == DUPLEX_FULL ? "full" : "half");
	j_int(o, "lanes", i->linkmodes.lanes);
	if (i->linkmodes.status == PS_ST_OK) {
		json_object_object_add(o, "supported",
				       j_names(&i->linkmodes.supported));
		json_object_object_add(o, "advertised",
				       j_names(&i->linkmodes.advertised));
		json_object_object_add(o, "partner",
				       j_names(&i->linkmodes.partner));
	}

	o = j_group(root, "features", i->features.status, i->features.reason);
	if (i->features.status == PS_ST_OK) {
		struct json_object *all = json_object_new_object();
		struct json_object *fl = json_object_new_object();

		for (int f = 0; f < PS_ETH_NFLAGS; f++) {
			const struct ps_eth_flag *x = &i->features.flag[f];
			struct json_object *e;

			if (!x->known)
				continue;
			e = json_object_new_object();
			j_bool(e, "on", x->on);
			j_bool(e, "fixed", x->fixed);
			j_bool(e, "requested_on", x->requested_on);
			json_object_object_add(fl, flag_defs[f].name, e);
		}
		json_object_object_add(o, "offloads", fl);
		for (unsigned k = 0; k < i->features.n; k++) {
			const struct ps_eth_feature *x = &i->features.v[k];
			struct json_object *e = json_object_new_object();

			j_bool(e, "active", x->active);
			j_bool(e, "wanted", x->wanted);
			j_bool(e, "fixed", x->fixed);
			j_bool(e, "requested_on", x->requested_on);
			json_object_object_add(all, x->name, e);
		}
		json_object_object_add(o, "all", all);
	}

	o = j_group(root, "channels", i->channels.status, i->channels.reason);
	if (i->channels.status == PS_ST_OK) {
		json_object_object_add(
			o, "rx", j_cur_max(i->channels.rx, i->channels.rx_max));
		json_object_object_add(
			o, "tx", j_cur_max(i->channels.tx, i->channels.tx_max));
		json_object_object_add(
			o, "other",
			j_cur_max(i->channels.other, i->channels.other_max));
		json_object_object_add(o, "combined",
				       j_cur_max(i->channels.combined,
						 i->channels.combined_max));
	}

	o = j_group(root, "rings", i->rings.status, i->rings.reason);
	if (i->rings.status == PS_ST_OK) {
		json_object_object_add(o, "rx",
				       j_cur_max(i->rings.rx, i->rings.rx_max));
		json_object_object_add(
			o, "rx_mini",
			j_cur_max(i->rings.rx_mini, i->rings.rx_mini_max));
		json_object_object_add(
			o, "rx_jumbo",
			j_cur_max(i->rings.rx_jumbo, i->rings.rx_jumbo_max));
		json_object_object_add(o, "tx",
				       j_cur_max(i->rings.tx, i->rings.tx_max));
	}

	o = j_group(root, "coalesce", i->coalesce.status, i->coalesce.reason);
	j_bool(o, "adaptive_rx", i->coalesce.adaptive_rx);
	j_bool(o, "adaptive_tx", i->coalesce.adaptive_tx);
	j_int(o, "rx_usecs", i->coalesce.rx_usecs);
	j_int(o, "rx_frames", i->coalesce.rx_frames);
	j_int(o, "tx_usecs", i->coalesce.tx_usecs);
	j_int(o, "tx_frames", i->coalesce.tx_frames);

	o = j_group(root, "pause", i->pause.status, i->pause.reason);
	j_bool(o, "autoneg", i->pause.autoneg);
	j_bool(o, "rx", i->pause.rx);
	j_bool(o, "tx", i->pause.tx);
	j_int(o, "tx_frames", i->pause.tx_frames);
	j_int(o, "rx_frames", i->pause.rx_frames);

	o = j_group(root, "rss", i->rss.status, i->rss.reason);
	if (i->rss.hfunc[0])
		j_str(o, "hfunc", i->rss.hfunc);
	if (i->rss.n_indir) {
		a = json_object_new_array();
		for (unsigned k = 0; k < i->rss.n_indir; k++)
			json_object_array_add(
				a, json_object_new_int64(i->rss.indir[k]));
		json_object_object_add(o, "indir", a);
	}
	if (i->rss.n_hkey) {
		char *hex = xmalloc(i->rss.n_hkey * 2 + 1);

		for (unsigned k = 0; k < i->rss.n_hkey; k++)
			sprintf(hex + 2 * k, "%02x", i->rss.hkey[k]);
		j_str(o, "hkey", hex);
		free(hex);
	}

	o = j_group(root, "std_stats", i->std_stats.status,
		    i->std_stats.reason);
	if (i->std_stats.n)
		json_object_object_add(
			o, "groups",
			j_counters(i->std_stats.v, i->std_stats.n, true));

	o = j_group(root, "driver_stats", i->drv_stats.status,
		    i->drv_stats.reason);
	if (i->drv_stats.status == PS_ST_OK) {
		json_object_object_add(
			o, "total", json_object_new_int64(i->drv_stats.total));
		json_object_object_add(
			o, "counters",
			j_counters(i->drv_stats.v, i->drv_stats.n, false));
	}
	return root;
}

/* ---- from JSON (a saved snapshot)
 * -------------------------------------------- */

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

	if (!v || !(json_object_is_type(v, json_type_int) ||
		    json_object_is_type(v, json_type_double)))
		return PS_ETH_NA;
	return json_object_get_int64(v);
}

static int g_bool(struct json_object *o, const char *key)
{
	struct json_object *v = g_obj(o, key);

	if (!v || !json_object_is_type(v, json_type_boolean))
		return PS_ETH_NA;
	return json_object_get_boolean(v);
}

static void g_str(struct json_object *o, const char *key, char *dst, size_t len)
{
	struct json_object *v = g_obj(o, key);

	snprintf(dst, len, "%s",
		 v && json_object_is_type(v, json_type_string)
			 ? json_object_get_string(v)
			 : "");
}

/* status and reason of a group; a missing group reads "not recorded" */
static struct json_object *g_group(struct json_object *root, const char *key,
				   enum ps_status *st, char *reason)
{
	struct json_object *o = g_obj(root, key);
	char name[32];

	if (!o || !json_object_is_type(o, json_type_object)) {
		*st = PS_ST_NOT_RECORDED;
		snprintf(reason, PS_ETH_REASON, "%s",
			 _("not in the saved snapshot"));
		return NULL;
	}
	g_str(o, "status", name, sizeof(name));
	*st = ps_status_parse(name);
	g_str(o, "reason", reason, PS_ETH_REASON);
	return o;
}

static void g_names(struct json_object *o, const char *key,
		    struct ps_eth_names *n)
{
	struct json_object *a = g_obj(o, key);
	size_t len;

	names_free(n);
	if (!a || !json_object_is_type(a, json_type_array))
		return;
	len = json_object_array_length(a);
	if (!len)
		return;
	n->v = xcalloc(len, PS_ETH_STRLEN);
	for (size_t k = 0; k < len; k++) {
		const char *s =
			json_object_get_string(json_object_array_get_idx(a, k));

		snprintf(n->v[n->n++], PS_ETH_STRLEN, "%s", s ? s : "");
	}
}

static void g_cur_max(struct json_object *o, const char *key, int64_t *cur,
		      int64_t *max)
{
	struct json_object *v = g_obj(o, key);

	*cur = g_int(v, "current");
	*max = g_int(v, "max");
}

static void g_counters(struct json_object *o, const char *group,
		       struct ps_eth_counter **v, unsigned *n)
{
	if (!o || !json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, key, val)
	{
		if (!group) { /* grouped: one level more */
			g_counters(val, key, v, n);
			continue;
		}
		add_counter(v, n, group, key,
			    (uint64_t)json_object_get_int64(val));
	}
}

int ps_ethtool_from_json(struct json_object *obj, struct ps_ethtool_info *i)
{
	struct json_object *o, *a;
	char name[32];

	if (!obj || !json_object_is_type(obj, json_type_object))
		return -EINVAL;
	g_str(obj, "ifname", name, sizeof(name));
	ps_ethtool_init(i, name);
	i->ifindex = (int)g_int(obj, "ifindex");
	if (i->ifindex < 0)
		i->ifindex = 0;
	g_str(obj, "status", name, sizeof(name));
	i->status = ps_status_parse(name);
	g_str(obj, "reason", i->reason, sizeof(i->reason));

	o = g_group(obj, "driver", &i->drvinfo.status, i->drvinfo.reason);
	g_str(o, "driver", i->drvinfo.driver, sizeof(i->drvinfo.driver));
	g_str(o, "version", i->drvinfo.version, sizeof(i->drvinfo.version));
	g_str(o, "firmware", i->drvinfo.firmware, sizeof(i->drvinfo.firmware));
	g_str(o, "bus_info", i->drvinfo.bus_info, sizeof(i->drvinfo.bus_info));

	o = g_group(obj, "link_state", &i->linkstate.status,
		    i->linkstate.reason);
	i->linkstate.link = g_bool(o, "link");
	i->linkstate.sqi = g_int(o, "sqi");
	i->linkstate.sqi_max = g_int(o, "sqi_max");
	i->linkstate.ext_state = (int)g_int(o, "ext_state");
	i->linkstate.ext_substate = (int)g_int(o, "ext_substate");
	i->linkstate.ext_down_cnt = g_int(o, "ext_down_cnt");

	o = g_group(obj, "link_modes", &i->linkmodes.status,
		    i->linkmodes.reason);
	i->linkmodes.autoneg = g_bool(o, "autoneg");
	i->linkmodes.speed_bps = g_int(o, "speed_bps");
	g_str(o, "duplex", name, sizeof(name));
	i->linkmodes.duplex = !strcmp(name, "full")   ? DUPLEX_FULL
			      : !strcmp(name, "half") ? DUPLEX_HALF
						      : PS_ETH_NA;
	i->linkmodes.lanes = g_int(o, "lanes");
	g_names(o, "supported", &i->linkmodes.supported);
	g_names(o, "advertised", &i->linkmodes.advertised);
	g_names(o, "partner", &i->linkmodes.partner);

	o = g_group(obj, "features", &i->features.status, i->features.reason);
	a = g_obj(o, "all");
	if (a && json_object_is_type(a, json_type_object)) {
		i->features.v = xcalloc(json_object_object_length(a) + 1,
					sizeof(*i->features.v));
		json_object_object_foreach(a, key, val)
		{
			struct ps_eth_feature *f =
				&i->features.v[i->features.n++];

			snprintf(f->name, sizeof(f->name), "%s", key);
			f->active = g_bool(val, "active") == 1;
			f->wanted = g_bool(val, "wanted") == 1;
			f->fixed = g_bool(val, "fixed") == 1;
			f->requested_on = g_bool(val, "requested_on") == 1;
		}
	}
	ps_ethtool_features_summarise(i);

	o = g_group(obj, "channels", &i->channels.status, i->channels.reason);
	g_cur_max(o, "rx", &i->channels.rx, &i->channels.rx_max);
	g_cur_max(o, "tx", &i->channels.tx, &i->channels.tx_max);
	g_cur_max(o, "other", &i->channels.other, &i->channels.other_max);
	g_cur_max(o, "combined", &i->channels.combined,
		  &i->channels.combined_max);

	o = g_group(obj, "rings", &i->rings.status, i->rings.reason);
	g_cur_max(o, "rx", &i->rings.rx, &i->rings.rx_max);
	g_cur_max(o, "rx_mini", &i->rings.rx_mini, &i->rings.rx_mini_max);
	g_cur_max(o, "rx_jumbo", &i->rings.rx_jumbo, &i->rings.rx_jumbo_max);
	g_cur_max(o, "tx", &i->rings.tx, &i->rings.tx_max);

	o = g_group(obj, "coalesce", &i->coalesce.status, i->coalesce.reason);
	i->coalesce.adaptive_rx = g_bool(o, "adaptive_rx");
	i->coalesce.adaptive_tx = g_bool(o, "adaptive_tx");
	i->coalesce.rx_usecs = g_int(o, "rx_usecs");
	i->coalesce.rx_frames = g_int(o, "rx_frames");
	i->coalesce.tx_usecs = g_int(o, "tx_usecs");
	i->coalesce.tx_frames = g_int(o, "tx_frames");

	o = g_group(obj, "pause", &i->pause.status, i->pause.reason);
	i->pause.autoneg = g_bool(o, "autoneg");
	i->pause.rx = g_bool(o, "rx");
	i->pause.tx = g_bool(o, "tx");
	i->pause.tx_frames = g_int(o, "tx_frames");
	i->pause.rx_frames = g_int(o, "rx_frames");

	o = g_group(obj, "rss", &i->rss.status, i->rss.reason);
	g_str(o, "hfunc", i->rss.hfunc, sizeof(i->rss.hfunc));
	a = g_obj(o, "indir");
	if (a && json_object_is_type(a, json_type_array) &&
	    json_object_array_length(a)) {
		i->rss.n_indir = (unsigned)json_object_array_length(a);
		i->rss.indir = xcalloc(i->rss.n_indir, sizeof(uint32_t));
		for (unsigned k = 0; k < i->rss.n_indir; k++)
			i->rss.indir[k] = (uint32_t)json_object_get_int64(
				json_object_array_get_idx(a, k));
	}
	a = g_obj(o, "hkey");
	if (a && json_object_is_type(a, json_type_string)) {
		const char *hex = json_object_get_string(a);
		size_t n = strlen(hex) / 2;

		if (n) {
			i->rss.hkey = xmalloc(n);
			for (size_t k = 0; k < n; k++) {
				unsigned byte = 0;

				sscanf(hex + 2 * k, "%2x", &byte);
				i->rss.hkey[k] = (uint8_t)byte;
			}
			i->rss.n_hkey = (unsigned)n;
		}
	}

	o = g_group(obj, "std_stats", &i->std_stats.status,
		    i->std_stats.reason);
	g_counters(g_obj(o, "groups"), NULL, &i->std_stats.v, &i->std_stats.n);

	o = g_group(obj, "driver_stats", &i->drv_stats.status,
		    i->drv_stats.reason);
	i->drv_stats.total =
		(unsigned)(g_int(o, "total") < 0 ? 0 : g_int(o, "total"));
	g_counters(g_obj(o, "counters"), "", &i->drv_stats.v, &i->drv_stats.n);
	return 0;
}

/* ---- text
 * ----------------------------------------------------------------------- */

static const char *onoff(int v)
{
	return v == PS_ETH_NA ? _("n/a") : v ? _("on") : _("off");
}

static void p_num(FILE *out, int64_t v)
{
	if (v == PS_ETH_NA)
		fputs(_("n/a"), out);
	else
		fprintf(out, "%" PRId64, v);
}

/* a group that has nothing to show prints why, and returns false */
static bool p_group(FILE *out, const char *title, enum ps_status st,
		    const char *reason)
{
	fprintf(out, "%s:", title);
	if (st == PS_ST_OK) {
		fputc('\n', out);
		return true;
	}
	fprintf(out, " %s", ps_status_text(st));
	if (reason && *reason)
		fprintf(out, " (%s)", reason);
	fputc('\n', out);
	return false;
}

static void p_cur_max(FILE *out, const char *label, int64_t cur, int64_t max)
{
	if (cur == PS_ETH_NA && max == PS_ETH_NA)
		return;
	fprintf(out, "  %-20s ", label);
	p_num(out, cur);
	fputs(" / ", out);
	p_num(out, max);
	fputc('\n', out);
}

static void p_names(FILE *out, const char *label, const struct ps_eth_names *n)
{
	fprintf(out, "  %-20s", label);
	if (!n->n)
		fprintf(out, " %s", _("none"));
	for (unsigned k = 0; k < n->n; k++)
		fprintf(out, " %s", n->v[k]);
	fputc('\n', out);
}

static void p_kv(FILE *out, const char *label, int64_t v, const char *unit)
{
	fprintf(out, "  %-20s ", label);
	p_num(out, v);
	if (v != PS_ETH_NA && unit)
		fprintf(out, " %s", unit);
	fputc('\n', out);
}

static void p_flag(FILE *out, const char *label, int on, bool fixed,
		   bool requested_on)
{
	fprintf(out, "  %s: %s%s%s\n", label, onoff(on),
		fixed ? _(" [fixed]") : "",
		requested_on ? _(" [requested on]") : "");
}

void ps_ethtool_print(FILE *out, const struct ps_ethtool_info *i)
{
	fprintf(out, _("Interface %s (ethtool)"), i->ifname);
	fputc('\n', out);
	if (i->status != PS_ST_OK) {
		fprintf(out, "  %s", ps_status_text(i->status));
		if (i->reason[0])
			fprintf(out, ": %s", i->reason);
		fputc('\n', out);
		return;
	}
	if (p_group(out, _("Driver"), i->drvinfo.status, i->drvinfo.reason)) {
		fprintf(out, "  %-20s %s\n", _("driver:"), i->drvinfo.driver);
		fprintf(out, "  %-20s %s\n", _("version:"), i->drvinfo.version);
		fprintf(out, "  %-20s %s\n", _("firmware:"),
			i->drvinfo.firmware);
		fprintf(out, "  %-20s %s\n", _("bus:"), i->drvinfo.bus_info);
	}
	if (p_group(out, _("Link"), i->linkmodes.status, i->linkmodes.reason)) {
		fprintf(out, "  %-20s ", _("speed:"));
		if (i->linkmodes.speed_bps == PS_ETH_NA)
			fputs(_("unknown"), out);
		else
			fprintf(out, _("%" PRId64 " Mb/s"),
				i->linkmodes.speed_bps / 1000000);
		fputc('\n', out);
		fprintf(out, "  %-20s %s\n", _("duplex:"),
			i->linkmodes.duplex == DUPLEX_FULL   ? _("full")
			: i->linkmodes.duplex == DUPLEX_HALF ? _("half")
							     : _("unknown"));
		fprintf(out, "  %-20s %s\n", _("autonegotiation:"),
			onoff(i->linkmodes.autoneg));
		p_kv(out, _("lanes:"), i->linkmodes.lanes, NULL);
		p_names(out, _("supported modes:"), &i->linkmodes.supported);
		p_names(out, _("advertised modes:"), &i->linkmodes.advertised);
		p_names(out, _("partner modes:"), &i->linkmodes.partner);
	}
	if (p_group(out, _("Link state"), i->linkstate.status,
		    i->linkstate.reason)) {
		fprintf(out, "  %-20s %s\n", _("link detected:"),
			i->linkstate.link == PS_ETH_NA ? _("n/a")
			: i->linkstate.link	       ? _("yes")
						       : _("no"));
		if (i->linkstate.ext_down_cnt != PS_ETH_NA)
			p_kv(out, _("link down events:"),
			     i->linkstate.ext_down_cnt, NULL);
	}
	if (p_group(out, _("Offloads"), i->features.status,
		    i->features.reason)) {
		for (int f = 0; f < PS_ETH_NFLAGS; f++) {
			const struct ps_eth_flag *x = &i->features.flag[f];

			if (x->known)
				p_flag(out, _(flag_defs[f].label), x->on,
				       x->fixed, x->requested_on);
		}
		fprintf(out, "%s:\n", _("Features (all)"));
		for (unsigned k = 0; k < i->features.n; k++) {
			const struct ps_eth_feature *x = &i->features.v[k];

			p_flag(out, x->name, x->active, x->fixed,
			       x->requested_on);
		}
	}
	if (p_group(out, _("Channels (current / max)"), i->channels.status,
		    i->channels.reason)) {
		p_cur_max(out, _("RX:"), i->channels.rx, i->channels.rx_max);
		p_cur_max(out, _("TX:"), i->channels.tx, i->channels.tx_max);
		p_cur_max(out, _("Other:"), i->channels.other,
			  i->channels.other_max);
		p_cur_max(out, _("Combined:"), i->channels.combined,
			  i->channels.combined_max);
	}
	if (p_group(out, _("Ring sizes (current / max)"), i->rings.status,
		    i->rings.reason)) {
		p_cur_max(out, _("RX:"), i->rings.rx, i->rings.rx_max);
		p_cur_max(out, _("RX mini:"), i->rings.rx_mini,
			  i->rings.rx_mini_max);
		p_cur_max(out, _("RX jumbo:"), i->rings.rx_jumbo,
			  i->rings.rx_jumbo_max);
		p_cur_max(out, _("TX:"), i->rings.tx, i->rings.tx_max);
	}
	if (p_group(out, _("Interrupt coalescing"), i->coalesce.status,
		    i->coalesce.reason)) {
		fprintf(out, "  %-20s %s\n", _("adaptive RX:"),
			onoff(i->coalesce.adaptive_rx));
		fprintf(out, "  %-20s %s\n", _("adaptive TX:"),
			onoff(i->coalesce.adaptive_tx));
		p_kv(out, _("rx-usecs:"), i->coalesce.rx_usecs, _("us"));
		p_kv(out, _("rx-frames:"), i->coalesce.rx_frames, NULL);
		p_kv(out, _("tx-usecs:"), i->coalesce.tx_usecs, _("us"));
		p_kv(out, _("tx-frames:"), i->coalesce.tx_frames, NULL);
	}
	if (p_group(out, _("Pause frames"), i->pause.status, i->pause.reason)) {
		fprintf(out, "  %-20s %s\n", _("autonegotiate:"),
			onoff(i->pause.autoneg));
		fprintf(out, "  %-20s %s\n", _("RX:"), onoff(i->pause.rx));
		fprintf(out, "  %-20s %s\n", _("TX:"), onoff(i->pause.tx));
		p_kv(out, _("pause frames sent:"), i->pause.tx_frames, NULL);
		p_kv(out, _("pause frames received:"), i->pause.rx_frames,
		     NULL);
	}
	if (p_group(out, _("RSS"), i->rss.status, i->rss.reason)) {
		fprintf(out, "  %-20s %s\n", _("hash function:"),
			i->rss.hfunc[0] ? i->rss.hfunc : _("n/a"));
		fprintf(out, "  %-20s %u\n", _("table entries:"),
			i->rss.n_indir);
		for (unsigned k = 0; k < i->rss.n_indir; k++)
			fprintf(out, "%s%5u%s", k % 8 ? "" : "   ",
				i->rss.indir[k],
				k % 8 == 7 || k + 1 == i->rss.n_indir ? "\n"
								      : "");
		if (i->rss.n_hkey)
			fprintf(out, "  %-20s %u\n", _("hash key bytes:"),
				i->rss.n_hkey);
	}
	if (p_group(out, _("Standard statistics"), i->std_stats.status,
		    i->std_stats.reason)) {
		for (unsigned k = 0; k < i->std_stats.n; k++)
			fprintf(out, "  %s %-32s %" PRIu64 "\n",
				i->std_stats.v[k].group, i->std_stats.v[k].name,
				i->std_stats.v[k].value);
	}
	if (p_group(out, _("Driver drop/miss/error counters"),
		    i->drv_stats.status, i->drv_stats.reason)) {
		if (!i->drv_stats.n)
			fprintf(out, _("  none among the driver's %u counters"),
				i->drv_stats.total);
		if (!i->drv_stats.n)
			fputc('\n', out);
		for (unsigned k = 0; k < i->drv_stats.n; k++)
			fprintf(out, "  %-32s %" PRIu64 "\n",
				i->drv_stats.v[k].name,
				i->drv_stats.v[k].value);
	}
}
