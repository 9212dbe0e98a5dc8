/* ethtool-table.c: the ethtool member of the snapshot described once,
 * group by group (its JSON, its loader and the text of "pipescope probe
 * -V"), and the legacy "ethtool -k" flags summarised from the features */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool.h>

#include "ethtool-internal.h"
#include "jsonutil.h"
#include "nls.h"
#include "probe-ethtool.h"
#include "xmalloc.h"

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
			ps_eth_add_counter(v, n, group, key, value);
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
