/* probe-ethtool.c: what "ethtool", "ethtool -k/-l/-g/-c/-a/-x/-S/-i" show
 * for one interface, read over generic netlink (family "ethtool"); the
 * ioctl only where netlink has no message (driver info and the driver's
 * own counters). The netlink layers (socket and transaction, reply walk,
 * attribute tables, bitsets, string sets) are in ethnl.c; one pure parser
 * per reply in ethtool-parse.c, the driver's counters and the recorded
 * text in ethtool-text.c, the group tables of the snapshot (JSON, text) in
 * ethtool-table.c; here: the snapshot member, the sampling and the ops. */
#include "config.h"

#include <errno.h>
#include <limits.h>
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
#include "ethtool-internal.h"
#include "log.h"
#include "nls.h"
#include "probe-ethtool.h"
#include "probe.h"
#include "sysroot.h"
#include "xmalloc.h"

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

/* a group's JSON key, also the name of its recorded reply */
const char *ps_ethtool_group_name(enum ps_ethtool_group g)
{
	if ((unsigned)g >= PS_ETHG_COUNT)
		return "unknown";
	return group_names[g];
}

/* ---- the snapshot struct ---------------------------------------------- */

struct ps_eth_grp_ref ps_eth_group_ref(struct ps_ethtool_info *i,
				       enum ps_ethtool_group g)
{
	switch (g) {
	case PS_ETHG_LINKSTATE:
		return (struct ps_eth_grp_ref){ &i->linkstate.status,
						i->linkstate.reason };
	case PS_ETHG_LINKMODES:
		return (struct ps_eth_grp_ref){ &i->linkmodes.status,
						i->linkmodes.reason };
	case PS_ETHG_FEATURES:
		return (struct ps_eth_grp_ref){ &i->features.status,
						i->features.reason };
	case PS_ETHG_CHANNELS:
		return (struct ps_eth_grp_ref){ &i->channels.status,
						i->channels.reason };
	case PS_ETHG_RINGS:
		return (struct ps_eth_grp_ref){ &i->rings.status,
						i->rings.reason };
	case PS_ETHG_COALESCE:
		return (struct ps_eth_grp_ref){ &i->coalesce.status,
						i->coalesce.reason };
	case PS_ETHG_PAUSE:
		return (struct ps_eth_grp_ref){ &i->pause.status,
						i->pause.reason };
	case PS_ETHG_RSS:
		return (struct ps_eth_grp_ref){ &i->rss.status, i->rss.reason };
	case PS_ETHG_STATS:
	default:
		return (struct ps_eth_grp_ref){ &i->std_stats.status,
						i->std_stats.reason };
	}
}

void ps_eth_set_status(enum ps_status *st, char *reason, enum ps_status v,
		       const char *text)
{
	*st = v;
	snprintf(reason, PS_ETH_REASON, "%s", text ? text : "");
}

void ps_eth_names_free(struct ps_eth_names *n)
{
	free(n->v);
	n->v = NULL;
	n->n = 0;
}

void ps_eth_clear_linkmodes(struct ps_ethtool_info *i)
{
	ps_eth_names_free(&i->linkmodes.supported);
	ps_eth_names_free(&i->linkmodes.advertised);
	ps_eth_names_free(&i->linkmodes.partner);
	i->linkmodes.autoneg = PS_ETH_NA;
	i->linkmodes.speed_bps = PS_ETH_NA;
	i->linkmodes.duplex = PS_ETH_NA;
	i->linkmodes.lanes = PS_ETH_NA;
}

void ps_eth_clear_group(struct ps_ethtool_info *i, enum ps_ethtool_group g)
{
	switch (g) {
	case PS_ETHG_LINKSTATE:
		i->linkstate.link = PS_ETH_NA;
		i->linkstate.sqi = i->linkstate.sqi_max = PS_ETH_NA;
		i->linkstate.ext_state = i->linkstate.ext_substate = PS_ETH_NA;
		i->linkstate.ext_down_cnt = PS_ETH_NA;
		break;
	case PS_ETHG_LINKMODES:
		ps_eth_clear_linkmodes(i);
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
		struct ps_eth_grp_ref r = ps_eth_group_ref(info, g);

		*r.st = PS_ST_ERROR;
		ps_eth_clear_group(info, g);
	}
}

void ps_ethtool_free(struct ps_ethtool_info *info)
{
	if (!info)
		return;
	for (int g = 0; g < PS_ETHG_COUNT; g++)
		ps_eth_clear_group(info, g);
	free(info->drv_stats.v);
	info->drv_stats.v = NULL;
	info->drv_stats.n = 0;
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

void ps_ethtool_nic_rates(const struct ps_ethtool_info *prev,
			  const struct ps_ethtool_info *cur, double seconds,
			  struct ps_nic_rates *out)
{
	ps_nic_rates_compute(&prev->nic, &cur->nic, seconds, out);
	if (!(seconds > 0))
		return;
	for (int d = 0; d < PS_NIC_NDIR; d++) {
		int64_t a = ps_ethtool_pause_frames(prev, d);
		int64_t b = ps_ethtool_pause_frames(cur, d);

		if (a != PS_NA && b != PS_NA && b >= a) {
			out->rated = true;
			out->seconds = seconds;
			out->pause[d] = (double)(b - a) / seconds;
		}
	}
}

void ps_ethtool_rates(const struct ps_ethtool_info *prev,
		      struct ps_ethtool_info *cur, double seconds)
{
	ps_ethtool_nic_rates(prev, cur, seconds, &cur->nic_rate);
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
	struct ps_eth_grp_ref r = ps_eth_group_ref(out, g);
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	char *reply = NULL;
	size_t len = 0;
	int ret;

	if (!ps_ethnl_op_known(ps_eth_requests[g].cmd)) {
		char msg[PS_ETH_REASON];

		snprintf(msg, sizeof(msg),
			 _("this kernel has no ETHTOOL_MSG_%s request"),
			 ps_eth_requests[g].msg);
		ps_eth_set_status(r.st, r.reason, PS_ST_UNSUPPORTED, msg);
		return;
	}
	nlh = ps_ethnl_req(buf, ps_eth_requests[g].cmd);
	nest = mnl_attr_nest_start(nlh, ps_eth_requests[g].hdr);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, ifname);
	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS,
			 ETHTOOL_FLAG_COMPACT_BITSETS |
				 ps_eth_requests[g].flags);
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
		ps_eth_group_error(r.st, r.reason, ret, NULL,
				   ps_eth_group_what(g));
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
		ps_eth_group_error(&out->drvinfo.status, out->drvinfo.reason,
				   ret, NULL, _("driver information"));
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
	ps_eth_set_status(&out->drvinfo.status, out->drvinfo.reason, PS_ST_OK,
			  NULL);
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
		ps_eth_set_status(&out->drv_stats.status, out->drv_stats.reason,
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
	ps_eth_group_error(&out->drv_stats.status, out->drv_stats.reason, ret,
			   NULL, _("the driver's counters"));
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
		ps_eth_set_status(&out->status, out->reason, PS_ST_OK, NULL);
	free(text);
	snprintf(path, sizeof(path), "/ethtool/%s/S", ifname);
	text = ps_read_file(path, &len);
	if (!text)
		return;
	if (!ps_ethtool_parse_stats_text(text, len, out)) {
		ps_eth_set_status(&out->status, out->reason, PS_ST_OK, NULL);
		ps_eth_set_status(&out->drv_stats.status, out->drv_stats.reason,
				  PS_ST_OK, NULL);
	} else {
		ps_ethtool_parse_drv_stats(NULL, NULL, 0, out);
		ps_eth_set_status(&out->drv_stats.status, out->drv_stats.reason,
				  PS_ST_ERROR,
				  _("no counters in the recorded file"));
	}
	free(text);
}

static void all_groups(struct ps_ethtool_info *out, enum ps_status st,
		       const char *reason)
{
	for (int g = 0; g < PS_ETHG_COUNT; g++) {
		struct ps_eth_grp_ref r = ps_eth_group_ref(out, g);

		ps_eth_set_status(r.st, r.reason, st, reason);
	}
	ps_eth_set_status(&out->drvinfo.status, out->drvinfo.reason, st,
			  reason);
	ps_eth_set_status(&out->drv_stats.status, out->drv_stats.reason, st,
			  reason);
}

int ps_ethtool_sample(const char *ifname, struct ps_ethtool_info *out)
{
	char msg[PS_ETH_REASON];
	int ret;

	ps_ethtool_init(out, ifname);
	if (!ifname || !*ifname || strlen(ifname) >= IF_NAMESIZE) {
		snprintf(msg, sizeof(msg), _("no valid interface name given"));
		ps_eth_set_status(&out->status, out->reason, PS_ST_ABSENT, msg);
		all_groups(out, PS_ST_ABSENT, msg);
		return 0;
	}
	if (!ps_sysroot_is_live()) {
		snprintf(msg, sizeof(msg),
			 _("netlink answers are not part of a --sysroot "
			   "recording"));
		ps_eth_set_status(&out->status, out->reason, PS_ST_NOT_RECORDED,
				  msg);
		all_groups(out, PS_ST_NOT_RECORDED, msg);
		sample_recorded_stats(ifname, out);
		return 0;
	}
	out->ifindex = (int)if_nametoindex(ifname);
	if (!out->ifindex) {
		snprintf(msg, sizeof(msg), _("no network interface named %s"),
			 ifname);
		ps_eth_set_status(&out->status, out->reason, PS_ST_ABSENT, msg);
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
				 ps_strerror(-ret));
		ps_eth_set_status(
			&out->status, out->reason,
			ret == -ENOENT ? PS_ST_UNSUPPORTED : PS_ST_ERROR, msg);
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
	ps_eth_set_status(&out->status, out->reason, PS_ST_OK, NULL);
	/* vanished while we asked */
	if (out->features.status == PS_ST_ABSENT && !if_nametoindex(ifname)) {
		snprintf(msg, sizeof(msg), _("no network interface named %s"),
			 ifname);
		ps_eth_set_status(&out->status, out->reason, PS_ST_ABSENT, msg);
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
		ps_eth_set_status(&out->status, out->reason, PS_ST_OK, NULL);
	}
	ps_ethnl_unlock();
	return ret;
}

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
