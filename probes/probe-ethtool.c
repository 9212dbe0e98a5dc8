/* probe-ethtool.c: what "ethtool", "ethtool -k/-l/-g/-c/-a/-x/-S/-i" show
 * for one interface, read over generic netlink (family "ethtool"); the
 * ioctl only where netlink has no message (driver info and the driver's
 * own counters). The netlink layers (socket and transaction, reply walk,
 * attribute tables, bitsets, string sets) are in ethnl.c; here: one pure
 * parser per reply, the sampling, and the group tables of the snapshot. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/version.h>

#include "brief.h"
#include "ethnl.h"
#include "log.h"
#include "nls.h"
#include "probe-ethtool.h"
#include "probe.h"
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
		i->rss.rx_rings = PS_ETH_NA;
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
	ps_nic_counters_init(&info->nic);
	ps_nic_rates_init(&info->nic_rate);
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
	ps_nic_counters_init(&out->nic);
	if (n && (!names || !vals))
		return -EINVAL;
	ps_nic_counters_from(&out->nic, names, PS_ETH_STRLEN, vals, n);
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

int ps_ethtool_parse_stats_text(const char *text, size_t len,
				struct ps_ethtool_info *out)
{
	char(*names)[PS_ETH_STRLEN] = NULL;
	uint64_t *vals = NULL;
	unsigned n = 0, cap = 0;
	size_t indent = SIZE_MAX;

	for (int pass = 0; pass < 2; pass++) {
		const char *p = text, *end = text + len;

		while (p < end) {
			const char *eol = memchr(p, '\n', (size_t)(end - p));
			size_t l = eol ? (size_t)(eol - p) : (size_t)(end - p);
			size_t sp = 0, k, c;
			char line[256], *colon, *e;
			unsigned long long v;

			if (l >= sizeof(line))
				l = sizeof(line) - 1;
			memcpy(line, p, l);
			line[l] = '\0';
			p = eol ? eol + 1 : end;
			while (line[sp] == ' ' || line[sp] == '\t')
				sp++;
			colon = strrchr(line, ':');
			if (!colon || colon[1] != ' ' || colon == line + sp)
				continue;
			errno = 0;
			v = strtoull(colon + 2, &e, 10);
			if (e == colon + 2 || *e || errno || colon[2] == '-')
				continue;
			if (pass == 0) {
				if (sp < indent)
					indent = sp;
				continue;
			}
			if (n >= 65536)
				break;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				names = xrealloc(names, cap * sizeof(*names));
				vals = xrealloc(vals, cap * sizeof(*vals));
			}
			/* a recorded tree is untrusted: printable ASCII only */
			memset(names[n], 0, PS_ETH_STRLEN);
			for (k = indent, c = 0;
			     line + k < colon && c < PS_ETH_STRLEN - 1;
			     k++, c++)
				names[n][c] = line[k] >= 0x20 && line[k] < 0x7f
						      ? line[k]
						      : '?';
			vals[n++] = v;
		}
	}
	ps_ethtool_parse_drv_stats((const char *)names, vals, n, out);
	free(names);
	free(vals);
	return n ? 0 : -ENOENT;
}

/* "0d:1f:cb:..." into out->rss.hkey; false when not such a line */
static bool hkey_text(const char *line, struct ps_ethtool_info *out)
{
	size_t n = (strlen(line) + 1) / 3;
	uint8_t *k;

	if (n < 4 || n > 256)
		return false;
	k = xmalloc(n);
	for (size_t i = 0; i < n; i++) {
		unsigned b;
		const char *p = line + 3 * i;

		if (!isxdigit((unsigned char)p[0]) ||
		    !isxdigit((unsigned char)p[1]) ||
		    (p[2] != ':' && p[2] != '\0') ||
		    sscanf(p, "%2x", &b) != 1) {
			free(k);
			return false;
		}
		k[i] = (uint8_t)b;
	}
	free(out->rss.hkey);
	out->rss.hkey = k;
	out->rss.n_hkey = (unsigned)n;
	return true;
}

int ps_ethtool_parse_rss_text(const char *text, size_t len,
			      struct ps_ethtool_info *out)
{
	const char *p = text, *end = text + len;
	unsigned cap = 0;
	bool in_func = false;

	clear_group(out, PS_ETHG_RSS);
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t l = eol ? (size_t)(eol - p) : (size_t)(end - p);
		char line[512], *q, *e;
		const char *w;
		long idx;

		if (l >= sizeof(line))
			l = sizeof(line) - 1;
		memcpy(line, p, l);
		line[l] = '\0';
		p = eol ? eol + 1 : end;
		for (w = line; *w == ' ' || *w == '\t'; w++)
			;
		if ((q = strstr(line, " with ")) && strstr(q, "RX ring")) {
			long r = strtol(q + 6, &e, 10);

			if (e != q + 6 && r > 0 && r < 65536)
				out->rss.rx_rings = r;
			continue;
		}
		if (!strncmp(w, "RSS hash function:", 18)) {
			in_func = true;
			continue;
		}
		if (in_func) {
			/* "    toeplitz: on" */
			q = strstr(line, ": on");
			if (q && q > w && (size_t)(q - w) < PS_ETH_STRLEN) {
				char f[PS_ETH_STRLEN];
				size_t k;

				for (k = 0; w + k < q; k++)
					f[k] = isalnum((unsigned char)w[k])
						       ? w[k]
						       : '?';
				f[k] = '\0';
				snprintf(out->rss.hfunc, sizeof(out->rss.hfunc),
					 "%s", f);
			}
			continue;
		}
		if (hkey_text(w, out))
			continue;
		errno = 0;
		idx = strtol(w, &e, 10);
		if (e == w || *e != ':' || idx != (long)out->rss.n_indir)
			continue;
		for (q = e + 1;;) {
			long v = strtol(q, &e, 10);

			if (e == q || v < 0 || v >= 65536 ||
			    out->rss.n_indir >= 65536)
				break;
			if (out->rss.n_indir == cap) {
				cap = cap ? 2 * cap : 64;
				out->rss.indir = xrealloc(
					out->rss.indir, cap * sizeof(uint32_t));
			}
			out->rss.indir[out->rss.n_indir++] = (uint32_t)v;
			q = e;
		}
	}
	if (!out->rss.n_indir) {
		clear_group(out, PS_ETHG_RSS);
		return -ENOENT;
	}
	set_status(&out->rss.status, out->rss.reason, PS_ST_OK, NULL);
	return 0;
}

void ps_ethtool_nic_merge_std(struct ps_ethtool_info *info)
{
	static const struct {
		const char *name;
		enum ps_nic_dir dir;
	} lost[] = {
		{ "FramesLostDueToIntMACRcvError", PS_NIC_RX },
		{ "FramesLostDueToIntMACXmitError", PS_NIC_TX },
	};

	if (info->std_stats.status != PS_ST_OK)
		return;
	for (unsigned i = 0; i < info->std_stats.n; i++) {
		const struct ps_eth_counter *c = &info->std_stats.v[i];

		if (strcmp(c->group, "eth-mac"))
			continue;
		for (size_t k = 0; k < sizeof(lost) / sizeof(lost[0]); k++) {
			int64_t *slot;

			if (strcmp(c->name, lost[k].name))
				continue;
			if (!info->nic.valid) {
				ps_nic_counters_init(&info->nic);
				info->nic.valid = true;
			}
			/* the driver's own fifo counter says it first */
			slot = &info->nic.drops[lost[k].dir][PS_NIC_FIFO];
			if (*slot == PS_NA)
				*slot = c->value > INT64_MAX / 2
						? INT64_MAX / 2
						: (int64_t)c->value;
		}
	}
}

int64_t ps_ethtool_pause_frames(const struct ps_ethtool_info *info,
				enum ps_nic_dir d)
{
	int64_t nl =
		d == PS_NIC_TX ? info->pause.tx_frames : info->pause.rx_frames;

	if (info->pause.status == PS_ST_OK && nl != PS_ETH_NA)
		return nl;
	return info->nic.valid ? info->nic.pause[d] : PS_NA;
}

void ps_ethtool_rates(const struct ps_ethtool_info *prev,
		      struct ps_ethtool_info *cur, double seconds)
{
	ps_nic_rates_compute(&prev->nic, &cur->nic, seconds, &cur->nic_rate);
	if (!(seconds > 0))
		return;
	for (int d = 0; d < PS_NIC_NDIR; d++) {
		int64_t a = ps_ethtool_pause_frames(prev, d);
		int64_t b = ps_ethtool_pause_frames(cur, d);

		if (a != PS_NA && b != PS_NA && b >= a) {
			cur->nic_rate.rated = true;
			cur->nic_rate.seconds = seconds;
			cur->nic_rate.pause[d] = (double)(b - a) / seconds;
		}
	}
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

/* a recorded tree may carry "ethtool -S IF" as DIR/ethtool/IF/S */
static void sample_recorded_stats(const char *ifname,
				  struct ps_ethtool_info *out)
{
	char path[PATH_MAX];
	size_t len = 0;
	char *text;

	if (strchr(ifname, '/'))
		return;
	snprintf(path, sizeof(path), "/ethtool/%s/x", ifname);
	text = ps_read_file(path, &len);
	if (text && !ps_ethtool_parse_rss_text(text, len, out))
		set_status(&out->status, out->reason, PS_ST_OK, NULL);
	free(text);
	snprintf(path, sizeof(path), "/ethtool/%s/S", ifname);
	text = ps_read_file(path, &len);
	if (!text)
		return;
	if (!ps_ethtool_parse_stats_text(text, len, out)) {
		set_status(&out->status, out->reason, PS_ST_OK, NULL);
		set_status(&out->drv_stats.status, out->drv_stats.reason,
			   PS_ST_OK, NULL);
	} else {
		ps_ethtool_parse_drv_stats(NULL, NULL, 0, out);
		set_status(&out->drv_stats.status, out->drv_stats.reason,
			   PS_ST_ERROR, _("no counters in the recorded file"));
	}
	free(text);
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
		sample_recorded_stats(ifname, out);
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
	ps_ethtool_nic_merge_std(out);
	if (out->rss.status == PS_ST_OK) {
		struct ethtool_rxnfc nfc = { .cmd = ETHTOOL_GRXRINGS };

		if (!ps_ethnl_ioctl(ifname, &nfc) && nfc.data > 0 &&
		    nfc.data < 65536)
			out->rss.rx_rings = (int64_t)nfc.data;
	}
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

int ps_ethtool_sample_counters(const char *ifname, struct ps_ethtool_info *out)
{
	int ret;

	ps_ethtool_init(out, ifname);
	if (!ifname || !*ifname || strlen(ifname) >= IF_NAMESIZE ||
	    !ps_sysroot_is_live() ||
	    !(out->ifindex = (int)if_nametoindex(ifname)))
		return -ENOENT;
	ps_ethnl_lock();
	ret = ps_ethnl_open();
	if (ret == 0) {
		sample_group(ifname, PS_ETHG_PAUSE, out);
		sample_drv_stats(ifname, out);
		set_status(&out->status, out->reason, PS_ST_OK, NULL);
	}
	ps_ethnl_unlock();
	return ret;
}

/* ---- the snapshot: each group described once (JSON, loader, text) -------- */

#define EI struct ps_ethtool_info

static const char *const yesno_texts[] = { N_("no"), N_("yes") };
static const char *const duplex_names[] = { "half", "full", NULL };
static const char *const duplex_texts[] = { N_("half"), N_("full") };
_Static_assert(DUPLEX_HALF == 0 && DUPLEX_FULL == 1,
	       "duplex_names are indexed by the kernel's DUPLEX_*");

/* "rx":{"current":n,"max":n} and "  RX:   n / n"; current at .off, max at
 * .off2, both int64_t, PS_ETH_NA when not reported */
static void cur_max_put(struct json_object *obj, const struct ps_jfield *f,
			const void *base)
{
	struct json_object *o = json_object_new_object();
	int64_t cur = *PS_JAT_C(base, f->off, int64_t);
	int64_t max = *PS_JAT_C(base, f->off2, int64_t);

	if (cur != PS_ETH_NA)
		ps_json_put_int64(o, "current", cur);
	if (max != PS_ETH_NA)
		ps_json_put_int64(o, "max", max);
	json_object_object_add(obj, f->key, o);
}

static void cur_max_get(struct json_object *obj, const struct ps_jfield *f,
			void *base)
{
	struct json_object *o = ps_json_get_obj(obj, f->key, json_type_object);

	ps_json_get_int64(o, "current", PS_JAT(base, f->off, int64_t));
	ps_json_get_int64(o, "max", PS_JAT(base, f->off2, int64_t));
}

static void p_num(FILE *out, int64_t v)
{
	if (v == PS_ETH_NA)
		fputs(_("n/a"), out);
	else
		fprintf(out, "%" PRId64, v);
}

static void cur_max_print(FILE *out, const struct ps_jfield *f,
			  const void *base)
{
	int64_t cur = *PS_JAT_C(base, f->off, int64_t);
	int64_t max = *PS_JAT_C(base, f->off2, int64_t);

	if (cur == PS_ETH_NA && max == PS_ETH_NA)
		return;
	fprintf(out, "  %-20s ", _(f->label));
	p_num(out, cur);
	fputs(" / ", out);
	p_num(out, max);
	fputc('\n', out);
}

static const struct ps_jcodec cur_max_codec = { cur_max_put, cur_max_get,
						cur_max_print };

/* clang-format off */
#define CUR_MAX(grp, m, k, lbl)                                               \
	{ .key = (k), .type = PS_JT_CUSTOM, .flags = PS_JF_OK,                \
	  .off = offsetof(EI, grp.m), .off2 = offsetof(EI, grp.m##_max),      \
	  .label = (lbl), .codec = &cur_max_codec }
#define NA_INT(m, k, lbl, un)                                                 \
	PS_JFIELD(EI, m, k, PS_JT_INT, PS_JF_NA, lbl, un)
#define NA_BOOL(m, k, lbl)                                                    \
	PS_JFIELD(EI, m, k, PS_JT_TRIBOOL, PS_JF_NA, lbl, NULL)
#define OK_STR(m, k, lbl) PS_JFIELD(EI, m, k, PS_JT_STRING, PS_JF_OK, lbl, NULL)
#define STATUS(grp) PS_JSTATUS(EI, grp.status, grp.reason, PS_JF_NA)
/* clang-format on */

/* clang-format off */
static const struct ps_jfield drvinfo_table[] = {
	STATUS(drvinfo),
	OK_STR(drvinfo.driver, "driver", N_("driver:")),
	OK_STR(drvinfo.version, "version", N_("version:")),
	OK_STR(drvinfo.firmware, "firmware", N_("firmware:")),
	OK_STR(drvinfo.bus_info, "bus_info", N_("bus:")),
	PS_JEND
};
/* clang-format on */

/* clang-format off */
static const struct ps_jfield linkstate_table[] = {
	STATUS(linkstate),
	{ .key = "link", .type = PS_JT_TRIBOOL, .flags = PS_JF_NA,
	  .off = offsetof(EI, linkstate.link),
	  .size = PS_JSIZE(EI, linkstate.link), .texts = yesno_texts,
	  .label = N_("link detected:") },
	NA_INT(linkstate.sqi, "sqi", NULL, NULL),
	NA_INT(linkstate.sqi_max, "sqi_max", NULL, NULL),
	NA_INT(linkstate.ext_state, "ext_state", NULL, NULL),
	NA_INT(linkstate.ext_substate, "ext_substate", NULL, NULL),
	PS_JFIELD(EI, linkstate.ext_down_cnt, "ext_down_cnt", PS_JT_INT,
		  PS_JF_NA | PS_JF_SKIPNA, N_("link down events:"), NULL),
	PS_JEND
};
/* clang-format on */

static void speed_print(FILE *out, const struct ps_jfield *f, const void *base)
{
	int64_t bps = *PS_JAT_C(base, f->off, int64_t);

	fprintf(out, "  %-20s ", _(f->label));
	if (bps == PS_ETH_NA)
		fputs(_("unknown"), out);
	else
		fprintf(out, _("%" PRId64 " Mb/s"), bps / 1000000);
	fputc('\n', out);
}

static const struct ps_jcodec speed_codec = { .print = speed_print };

/* clang-format off */
#define NAMES(m, k, lbl)                                                      \
	{ .key = (k), .type = PS_JT_ARRAY, .flags = PS_JF_OK,                 \
	  .off = offsetof(EI, linkmodes.m.v), .size2 = sizeof(unsigned),      \
	  .off2 = offsetof(EI, linkmodes.m.n), .elem = PS_JT_STRING,          \
	  .elem_size = PS_ETH_STRLEN, .label = (lbl) }
/* clang-format on */

/* clang-format off */
static const struct ps_jfield linkmodes_table[] = {
	STATUS(linkmodes),
	NA_BOOL(linkmodes.autoneg, "autoneg", NULL),
	{ .key = "speed_bps", .type = PS_JT_INT, .flags = PS_JF_NA,
	  .off = offsetof(EI, linkmodes.speed_bps),
	  .size = PS_JSIZE(EI, linkmodes.speed_bps), .label = N_("speed:"),
	  .codec = &speed_codec },
	{ .key = "duplex", .type = PS_JT_ENUM, .flags = PS_JF_NA,
	  .off = offsetof(EI, linkmodes.duplex),
	  .size = PS_JSIZE(EI, linkmodes.duplex), .names = duplex_names,
	  .texts = duplex_texts, .na_text = N_("unknown"),
	  .label = N_("duplex:") },
	/* the text shows autonegotiation here, JSON before the speed */
	{ .type = PS_JT_TRIBOOL, .flags = PS_JF_NOJSON,
	  .off = offsetof(EI, linkmodes.autoneg),
	  .size = PS_JSIZE(EI, linkmodes.autoneg),
	  .label = N_("autonegotiation:") },
	NA_INT(linkmodes.lanes, "lanes", N_("lanes:"), NULL),
	NAMES(supported, "supported", N_("supported modes:")),
	NAMES(advertised, "advertised", N_("advertised modes:")),
	NAMES(partner, "partner", N_("partner modes:")),
	PS_JEND
};
/* clang-format on */

/* features: the legacy flags ("offloads") and every kernel feature
 * ("all", keyed by its kernel name); the flags are summarised again from
 * "all" when loaded */
static void p_flag(FILE *out, const char *label, bool on, bool fixed,
		   bool requested_on)
{
	fprintf(out, "  %s: %s%s%s\n", label, on ? _("on") : _("off"),
		fixed ? _(" [fixed]") : "",
		requested_on ? _(" [requested on]") : "");
}

static void offloads_put(struct json_object *obj, const struct ps_jfield *f,
			 const void *base)
{
	const EI *i = base;
	struct json_object *fl = json_object_new_object();

	for (int k = 0; k < PS_ETH_NFLAGS; k++) {
		const struct ps_eth_flag *x = &i->features.flag[k];
		struct json_object *e;

		if (!x->known)
			continue;
		e = json_object_new_object();
		ps_json_put_bool(e, "on", x->on);
		ps_json_put_bool(e, "fixed", x->fixed);
		ps_json_put_bool(e, "requested_on", x->requested_on);
		json_object_object_add(fl, flag_defs[k].name, e);
	}
	json_object_object_add(obj, f->key, fl);
}

static void offloads_print(FILE *out, const struct ps_jfield *f,
			   const void *base)
{
	const EI *i = base;

	(void)f;
	for (int k = 0; k < PS_ETH_NFLAGS; k++) {
		const struct ps_eth_flag *x = &i->features.flag[k];

		if (x->known)
			p_flag(out, _(flag_defs[k].label), x->on, x->fixed,
			       x->requested_on);
	}
}

static const struct ps_jcodec offloads_codec = { .put = offloads_put,
						 .print = offloads_print };

static void all_put(struct json_object *obj, const struct ps_jfield *f,
		    const void *base)
{
	const EI *i = base;
	struct json_object *all = json_object_new_object();

	for (unsigned k = 0; k < i->features.n; k++) {
		const struct ps_eth_feature *x = &i->features.v[k];
		struct json_object *e = json_object_new_object();

		ps_json_put_bool(e, "active", x->active);
		ps_json_put_bool(e, "wanted", x->wanted);
		ps_json_put_bool(e, "fixed", x->fixed);
		ps_json_put_bool(e, "requested_on", x->requested_on);
		json_object_object_add(all, x->name, e);
	}
	json_object_object_add(obj, f->key, all);
}

static void all_get(struct json_object *obj, const struct ps_jfield *f,
		    void *base)
{
	struct json_object *a = ps_json_get_obj(obj, f->key, json_type_object);
	EI *i = base;

	if (a) {
		i->features.v = xcalloc(json_object_object_length(a) + 1,
					sizeof(*i->features.v));
		json_object_object_foreach(a, key, val)
		{
			struct ps_eth_feature *x =
				&i->features.v[i->features.n++];

			snprintf(x->name, sizeof(x->name), "%s", key);
			ps_json_get_bool(val, "active", &x->active);
			ps_json_get_bool(val, "wanted", &x->wanted);
			ps_json_get_bool(val, "fixed", &x->fixed);
			ps_json_get_bool(val, "requested_on", &x->requested_on);
		}
	}
	ps_ethtool_features_summarise(i);
}

static void all_print(FILE *out, const struct ps_jfield *f, const void *base)
{
	const EI *i = base;

	(void)f;
	fprintf(out, "%s:\n", _("Features (all)"));
	for (unsigned k = 0; k < i->features.n; k++) {
		const struct ps_eth_feature *x = &i->features.v[k];

		p_flag(out, x->name, x->active, x->fixed, x->requested_on);
	}
}

static const struct ps_jcodec all_codec = { all_put, all_get, all_print };

/* clang-format off */
static const struct ps_jfield features_table[] = {
	STATUS(features),
	{ .key = "offloads", .type = PS_JT_CUSTOM, .flags = PS_JF_OK,
	  .codec = &offloads_codec },
	{ .key = "all", .type = PS_JT_CUSTOM, .flags = PS_JF_OK,
	  .codec = &all_codec },
	PS_JEND
};
/* clang-format on */

/* clang-format off */
static const struct ps_jfield channels_table[] = {
	STATUS(channels),
	CUR_MAX(channels, rx, "rx", N_("RX:")),
	CUR_MAX(channels, tx, "tx", N_("TX:")),
	CUR_MAX(channels, other, "other", N_("Other:")),
	CUR_MAX(channels, combined, "combined", N_("Combined:")),
	PS_JEND
};
/* clang-format on */

/* clang-format off */
static const struct ps_jfield rings_table[] = {
	STATUS(rings),
	CUR_MAX(rings, rx, "rx", N_("RX:")),
	CUR_MAX(rings, rx_mini, "rx_mini", N_("RX mini:")),
	CUR_MAX(rings, rx_jumbo, "rx_jumbo", N_("RX jumbo:")),
	CUR_MAX(rings, tx, "tx", N_("TX:")),
	PS_JEND
};
/* clang-format on */

/* clang-format off */
static const struct ps_jfield coalesce_table[] = {
	STATUS(coalesce),
	NA_BOOL(coalesce.adaptive_rx, "adaptive_rx", N_("adaptive RX:")),
	NA_BOOL(coalesce.adaptive_tx, "adaptive_tx", N_("adaptive TX:")),
	NA_INT(coalesce.rx_usecs, "rx_usecs", N_("rx-usecs:"), N_("us")),
	NA_INT(coalesce.rx_frames, "rx_frames", N_("rx-frames:"), NULL),
	NA_INT(coalesce.tx_usecs, "tx_usecs", N_("tx-usecs:"), N_("us")),
	NA_INT(coalesce.tx_frames, "tx_frames", N_("tx-frames:"), NULL),
	PS_JEND
};
/* clang-format on */

/* clang-format off */
static const struct ps_jfield pause_table[] = {
	STATUS(pause),
	NA_BOOL(pause.autoneg, "autoneg", N_("autonegotiate:")),
	NA_BOOL(pause.rx, "rx", N_("RX:")),
	NA_BOOL(pause.tx, "tx", N_("TX:")),
	NA_INT(pause.tx_frames, "tx_frames", N_("pause frames sent:"), NULL),
	NA_INT(pause.rx_frames, "rx_frames", N_("pause frames received:"),
	       NULL),
	PS_JEND
};
/* clang-format on */

/* the indirection table, eight queues a line */
static void indir_print(FILE *out, const struct ps_jfield *f, const void *base)
{
	const EI *i = base;

	(void)f;
	for (unsigned k = 0; k < i->rss.n_indir; k++)
		fprintf(out, "%s%5u%s", k % 8 ? "" : "   ", i->rss.indir[k],
			k % 8 == 7 || k + 1 == i->rss.n_indir ? "\n" : "");
}

static const struct ps_jcodec indir_codec = { .print = indir_print };

/* the hash key as one hex string */
static void hkey_put(struct json_object *obj, const struct ps_jfield *f,
		     const void *base)
{
	const EI *i = base;
	char *hex;

	if (!i->rss.n_hkey)
		return;
	hex = xmalloc(i->rss.n_hkey * 2 + 1);
	for (unsigned k = 0; k < i->rss.n_hkey; k++)
		sprintf(hex + 2 * k, "%02x", i->rss.hkey[k]);
	ps_json_put_string(obj, f->key, hex);
	free(hex);
}

static void hkey_get(struct json_object *obj, const struct ps_jfield *f,
		     void *base)
{
	struct json_object *v = ps_json_get_obj(obj, f->key, json_type_string);
	const char *hex = v ? json_object_get_string(v) : "";
	size_t n = strlen(hex) / 2;
	EI *i = base;

	if (!n)
		return;
	i->rss.hkey = xmalloc(n);
	for (size_t k = 0; k < n; k++) {
		unsigned byte = 0;

		sscanf(hex + 2 * k, "%2x", &byte);
		i->rss.hkey[k] = (uint8_t)byte;
	}
	i->rss.n_hkey = (unsigned)n;
}

static void hkey_print(FILE *out, const struct ps_jfield *f, const void *base)
{
	const EI *i = base;

	if (i->rss.n_hkey)
		fprintf(out, "  %-20s %u\n", _(f->label), i->rss.n_hkey);
}

static const struct ps_jcodec hkey_codec = { hkey_put, hkey_get, hkey_print };

/* clang-format off */
static const struct ps_jfield rss_table[] = {
	STATUS(rss),
	PS_JFIELD(EI, rss.hfunc, "hfunc", PS_JT_STRING, PS_JF_NA,
		  N_("hash function:"), NULL),
	PS_JFIELD(EI, rss.n_indir, NULL, PS_JT_UINT, PS_JF_NOJSON,
		  N_("table entries:"), NULL),
	{ .key = "indir", .type = PS_JT_ARRAY, .flags = PS_JF_NA,
	  .off = offsetof(EI, rss.indir), .off2 = offsetof(EI, rss.n_indir),
	  .size2 = PS_JSIZE(EI, rss.n_indir), .elem = PS_JT_UINT,
	  .elem_size = sizeof(uint32_t), .codec = &indir_codec },
	{ .key = "hkey", .type = PS_JT_CUSTOM, .label = N_("hash key bytes:"),
	  .codec = &hkey_codec },
	NA_INT(rss.rx_rings, "rx_rings", N_("RX rings:"), NULL),
	PS_JEND
};
/* clang-format on */

/* counters: {"<name>": n}, grouped {"<group>": {"<name>": n}} when the
 * codec's .data is non-NULL; the vector at .off, its count at .off2 */
static void counters_put(struct json_object *obj, const struct ps_jfield *f,
			 const void *base)
{
	const struct ps_eth_counter *v =
		*PS_JAT_C(base, f->off, struct ps_eth_counter *const);
	unsigned n = *PS_JAT_C(base, f->off2, unsigned);
	struct json_object *o;

	if (!n && (f->flags & PS_JF_NA))
		return;
	o = json_object_new_object();
	for (unsigned k = 0; k < n; k++) {
		struct json_object *dst = o;

		if (f->data &&
		    !json_object_object_get_ex(o, v[k].group, &dst)) {
			dst = json_object_new_object();
			json_object_object_add(o, v[k].group, dst);
		}
		ps_json_put_uint64(dst, v[k].name, v[k].value);
	}
	json_object_object_add(obj, f->key, o);
}

static void counters_load(struct json_object *o, const char *group,
			  struct ps_eth_counter **v, unsigned *n)
{
	json_object_object_foreach(o, key, val)
	{
		uint64_t value;

		if (!group) { /* grouped: one level more */
			if (json_object_is_type(val, json_type_object))
				counters_load(val, key, v, n);
			continue;
		}
		if (!ps_json_get_uint64(o, key, &value))
			add_counter(v, n, group, key, value);
	}
}

static void counters_get(struct json_object *obj, const struct ps_jfield *f,
			 void *base)
{
	struct json_object *o = ps_json_get_obj(obj, f->key, json_type_object);

	if (o)
		counters_load(o, f->data ? NULL : "",
			      PS_JAT(base, f->off, struct ps_eth_counter *),
			      PS_JAT(base, f->off2, unsigned));
}

static void std_stats_print(FILE *out, const struct ps_jfield *f,
			    const void *base)
{
	const EI *i = base;

	(void)f;
	for (unsigned k = 0; k < i->std_stats.n; k++)
		fprintf(out, "  %s %-32s %" PRIu64 "\n",
			i->std_stats.v[k].group, i->std_stats.v[k].name,
			i->std_stats.v[k].value);
}

static void drv_stats_print(FILE *out, const struct ps_jfield *f,
			    const void *base)
{
	const EI *i = base;

	(void)f;
	if (!i->drv_stats.n) {
		fprintf(out, _("  none among the driver's %u counters"),
			i->drv_stats.total);
		fputc('\n', out);
	}
	for (unsigned k = 0; k < i->drv_stats.n; k++)
		fprintf(out, "  %-32s %" PRIu64 "\n", i->drv_stats.v[k].name,
			i->drv_stats.v[k].value);
}

static const struct ps_jcodec std_stats_codec = { counters_put, counters_get,
						  std_stats_print };
static const struct ps_jcodec drv_stats_codec = { counters_put, counters_get,
						  drv_stats_print };

/* clang-format off */
static const struct ps_jfield std_stats_table[] = {
	STATUS(std_stats),
	{ .key = "groups", .type = PS_JT_CUSTOM, .flags = PS_JF_NA,
	  .off = offsetof(EI, std_stats.v), .off2 = offsetof(EI, std_stats.n),
	  .codec = &std_stats_codec, .data = "grouped" },
	PS_JEND
};
/* clang-format on */

/* clang-format off */
static const struct ps_jfield drv_stats_table[] = {
	STATUS(drv_stats),
	PS_JFIELD(EI, drv_stats.total, "total", PS_JT_UINT, PS_JF_OK, NULL,
		  NULL),
	{ .key = "counters", .type = PS_JT_CUSTOM, .flags = PS_JF_OK,
	  .off = offsetof(EI, drv_stats.v), .off2 = offsetof(EI, drv_stats.n),
	  .codec = &drv_stats_codec },
	PS_JEND
};
/* clang-format on */

/* "nic_counters" / "nic_rates": the tables of nic-counters.c over the
 * member at .off; written only when classified / rated */
static void nic_put(struct json_object *obj, const struct ps_jfield *f,
		    const void *base)
{
	const void *m = PS_JAT_C(base, f->off, char);
	bool have = f->data ? ((const struct ps_nic_rates *)m)->rated
			    : ((const struct ps_nic_counters *)m)->valid;

	if (have)
		json_object_object_add(obj, f->key,
				       ps_jtable_to_json(f->sub, m));
}

static void nic_get(struct json_object *obj, const struct ps_jfield *f,
		    void *base)
{
	struct json_object *o = ps_json_get_obj(obj, f->key, json_type_object);
	void *m = PS_JAT(base, f->off, char);

	if (!o)
		return;
	ps_jtable_get(o, f->sub, m);
	if (f->data)
		((struct ps_nic_rates *)m)->rated = true;
	else
		((struct ps_nic_counters *)m)->valid = true;
}

static void nic_print(FILE *out, const struct ps_jfield *f, const void *base)
{
	const void *m = PS_JAT_C(base, f->off, char);
	bool have = f->data ? ((const struct ps_nic_rates *)m)->rated
			    : ((const struct ps_nic_counters *)m)->valid;

	if (!have)
		return;
	ps_text_group(out, _(f->label), PS_ST_OK, NULL);
	ps_jtable_print(out, f->sub, m);
}

static const struct ps_jcodec nic_codec = { nic_put, nic_get, nic_print };

/* the whole section; the text shows the link modes before the link state */
/* clang-format off */
static const struct ps_jfield ethtool_table[] = {
	PS_JFIELD(EI, ifname, "ifname", PS_JT_STRING, 0, NULL, NULL),
	PS_JFIELD(EI, ifindex, "ifindex", PS_JT_INT, 0, NULL, NULL),
	PS_JSTATUS(EI, status, reason, PS_JF_NA),
	PS_JOBJECT("driver", 0, drvinfo_table, N_("Driver")),
	{ .type = PS_JT_OBJECT, .flags = PS_JF_NOJSON, .sub = linkmodes_table,
	  .label = N_("Link") },
	PS_JOBJECT("link_state", 0, linkstate_table, N_("Link state")),
	PS_JOBJECT("link_modes", PS_JF_NOTEXT, linkmodes_table, NULL),
	PS_JOBJECT("features", 0, features_table, N_("Offloads")),
	PS_JOBJECT("channels", 0, channels_table,
		   N_("Channels (current / max)")),
	PS_JOBJECT("rings", 0, rings_table, N_("Ring sizes (current / max)")),
	PS_JOBJECT("coalesce", 0, coalesce_table, N_("Interrupt coalescing")),
	PS_JOBJECT("pause", 0, pause_table, N_("Pause frames")),
	PS_JOBJECT("rss", 0, rss_table, N_("RSS")),
	PS_JOBJECT("std_stats", 0, std_stats_table, N_("Standard statistics")),
	PS_JOBJECT("driver_stats", 0, drv_stats_table,
		   N_("Driver drop/miss/error counters")),
	{ .key = "nic_counters", .type = PS_JT_CUSTOM,
	  .off = offsetof(EI, nic), .sub = ps_nic_counters_table,
	  .codec = &nic_codec, .label = N_("Queues and drop classes") },
	{ .key = "nic_rates", .type = PS_JT_CUSTOM,
	  .off = offsetof(EI, nic_rate), .sub = ps_nic_rates_table,
	  .codec = &nic_codec, .data = "rates",
	  .label = N_("Queue and drop rates") },
	PS_JEND
};
/* clang-format on */

struct json_object *ps_ethtool_to_json(const struct ps_ethtool_info *i)
{
	return ps_jtable_to_json(ethtool_table, i);
}

int ps_ethtool_from_json(struct json_object *obj, struct ps_ethtool_info *i)
{
	if (!obj || !json_object_is_type(obj, json_type_object))
		return -EINVAL;
	ps_ethtool_init(i, NULL);
	ps_jtable_get(obj, ethtool_table, i);
	if (i->ifindex < 0)
		i->ifindex = 0;
	return 0;
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
	ps_jtable_print(out, ethtool_table, i);
}

/* the probe "pipescope probe" runs (probe.h), in PS_PROBE_LIST */
PS_PROBE_GLUE(ethtool)
PS_PROBE_RATES(ethtool)

/*
 * The module keeps one process-wide genetlink socket (to move into its own
 * probe state like link's): it is shut when the last opened ethtool probe
 * closes, not under another probe set still using it.
 */
static struct {
	pthread_mutex_t lock;
	unsigned opened;
} ethtool_users = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int ethtool_op_open(struct ps_probe *p)
{
	pthread_mutex_lock(&ethtool_users.lock);
	ethtool_users.opened++;
	pthread_mutex_unlock(&ethtool_users.lock);
	return 0;
}

static void ethtool_op_close(struct ps_probe *p)
{
	pthread_mutex_lock(&ethtool_users.lock);
	if (ethtool_users.opened && !--ethtool_users.opened)
		ps_ethtool_shutdown();
	pthread_mutex_unlock(&ethtool_users.lock);
}

/* clang-format would pack a list that starts with a macro */
/* clang-format off */
const struct ps_probe_ops ps_ethtool_ops = {
	PS_PROBE_OPS(ethtool),
	.title = N_("NIC (ethtool)"),
	.needs_iface = true,
	.on_nic = true,
	.rates = ethtool_op_rates,
	.open = ethtool_op_open,
	.close = ethtool_op_close,
	.brief = ps_brief_ethtool,
};
/* clang-format on */
