/* test-ethtool.c: the ethtool probe's parsers on netlink replies recorded
 * from this kernel (tests/fixtures/netlink/, see record.sh there), plus
 * odd inputs the kernel never sends (truncated, missing groups), which are
 * built here with libmnl because no recording can contain them. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>

#include "ethnl.h"
#include "fixture.h"
#include "probe-ethtool.h"

static struct ps_ethtool_strsets ss;

static int setup(void **state)
{
	size_t len;
	char *buf = netlink_fixture("lo", "strsets", &len);

	assert_int_equal(ps_ethtool_parse_strsets(buf, len, &ss), 0);
	free(buf);
	return 0;
}

static int teardown(void **state)
{
	ps_ethtool_strsets_free(&ss);
	return 0;
}

/* parse one recorded group of one recording into *info */
static int parse_rec(const char *dir, enum ps_ethtool_group g,
		     struct ps_ethtool_info *info)
{
	size_t len;
	char *buf = netlink_fixture(dir, ps_ethtool_group_name(g), &len);
	int ret = ps_ethtool_parse(g, buf, len, &ss, info);

	free(buf);
	return ret;
}

static void parse_all(const char *dir, struct ps_ethtool_info *info)
{
	ps_ethtool_init(info, "vA");
	info->status = PS_ST_OK;
	for (int g = 0; g < PS_ETHG_COUNT; g++)
		assert_int_equal(parse_rec(dir, g, info), 0);
}

static void test_strsets(void **state)
{
	const char *s;
	bool found = false;

	/* names come from the kernel, not from a table of ours */
	assert_string_equal(ps_ethtool_strset_get(&ss, ETH_SS_FEATURES, 0),
			    "tx-scatter-gather");
	assert_string_equal(
		ps_ethtool_strset_get(&ss, ETH_SS_RSS_HASH_FUNCS, 0),
		"toeplitz");
	assert_string_equal(ps_ethtool_strset_get(&ss, ETH_SS_STATS_STD, 1),
			    "eth-mac");
	for (unsigned i = 0; i < 200; i++) {
		s = ps_ethtool_strset_get(&ss, ETH_SS_LINK_MODES, i);
		if (s && !strcmp(s, "10000baseT/Full"))
			found = true;
	}
	assert_true(found);
	assert_null(ps_ethtool_strset_get(&ss, ETH_SS_FEATURES, 100000));
	assert_null(ps_ethtool_strset_get(&ss, 999, 0));
	assert_null(ps_ethtool_strset_get(NULL, ETH_SS_FEATURES, 0));
}

static void test_features_veth(void **state)
{
	struct ps_ethtool_info a, b;
	const struct ps_eth_feature *f;

	ps_ethtool_init(&a, "vA");
	assert_int_equal(parse_rec("veth", PS_ETHG_FEATURES, &a), 0);
	assert_int_equal(a.features.status, PS_ST_OK);
	assert_true(a.features.n > 40);
	/* a fresh veth: GRO off, TSO on, LRO off and fixed */
	assert_true(a.features.flag[PS_ETH_GRO].known);
	assert_false(a.features.flag[PS_ETH_GRO].on);
	assert_true(a.features.flag[PS_ETH_TSO].on);
	assert_false(a.features.flag[PS_ETH_LRO].on);
	assert_true(a.features.flag[PS_ETH_LRO].fixed);
	assert_true(a.features.flag[PS_ETH_GSO].on);
	f = ps_ethtool_feature(&a, "rx-gro");
	assert_non_null(f);
	assert_false(f->active);
	assert_false(f->fixed);
	assert_null(ps_ethtool_feature(&a, "no-such-feature"));

	/* after ethtool -K vA gro on tso off */
	ps_ethtool_init(&b, "vA");
	assert_int_equal(parse_rec("veth-tuned", PS_ETHG_FEATURES, &b), 0);
	assert_true(b.features.flag[PS_ETH_GRO].on);
	assert_false(b.features.flag[PS_ETH_TSO].on);
	f = ps_ethtool_feature(&b, "tx-tcp-segmentation");
	assert_non_null(f);
	assert_false(f->active);
	assert_false(f->wanted);
	assert_false(f->requested_on);
	ps_ethtool_free(&a);
	ps_ethtool_free(&b);
}

static void test_features_lo(void **state)
{
	struct ps_ethtool_info a;
	const struct ps_eth_feature *f;

	ps_ethtool_init(&a, "lo");
	assert_int_equal(parse_rec("lo", PS_ETHG_FEATURES, &a), 0);
	f = ps_ethtool_feature(&a, "tx-scatter-gather");
	assert_non_null(f);
	assert_true(f->active);
	assert_true(f->fixed); /* not in lo's hw_features */
	assert_true(a.features.flag[PS_ETH_SG].on);
	/* no unnamed kernel bits show up as features */
	for (unsigned k = 0; k < a.features.n; k++)
		assert_null(strstr(a.features.v[k].name, "feature-"));
	ps_ethtool_free(&a);
}

static void test_features_without_names(void **state)
{
	struct ps_ethtool_info a;
	size_t len;
	char *buf = netlink_fixture("veth", "features", &len);

	ps_ethtool_init(&a, "vA");
	assert_int_equal(ps_ethtool_parse(PS_ETHG_FEATURES, buf, len, NULL, &a),
			 0);
	assert_int_equal(a.features.status, PS_ST_OK);
	assert_string_equal(a.features.v[0].name, "feature-0");
	/* without names the families cannot be told */
	assert_false(a.features.flag[PS_ETH_GRO].known);
	free(buf);
	ps_ethtool_free(&a);
}

static void test_channels_links(void **state)
{
	struct ps_ethtool_info a;

	ps_ethtool_init(&a, "vA");
	assert_int_equal(parse_rec("veth", PS_ETHG_CHANNELS, &a), 0);
	assert_int_equal(a.channels.status, PS_ST_OK);
	assert_int_equal(a.channels.rx, 1);
	assert_int_equal(a.channels.rx_max, 2);
	assert_int_equal(a.channels.tx_max, 2);
	assert_int_equal(a.channels.combined, PS_ETH_NA);
	assert_int_equal(parse_rec("veth-tuned", PS_ETHG_CHANNELS, &a), 0);
	assert_int_equal(a.channels.rx, 2);
	assert_int_equal(a.channels.tx, 2);

	assert_int_equal(parse_rec("veth", PS_ETHG_LINKMODES, &a), 0);
	assert_int_equal(a.linkmodes.status, PS_ST_OK);
	assert_true(a.linkmodes.speed_bps == 10000000000LL);
	assert_int_equal(a.linkmodes.duplex, DUPLEX_FULL);
	assert_int_equal(a.linkmodes.autoneg, 0);
	assert_int_equal(a.linkmodes.supported.n, 0);

	assert_int_equal(parse_rec("veth", PS_ETHG_LINKSTATE, &a), 0);
	assert_int_equal(a.linkstate.status, PS_ST_OK);
	assert_int_equal(a.linkstate.link, 1);
	ps_ethtool_free(&a);
}

static void test_unsupported(void **state)
{
	struct ps_ethtool_info a;

	ps_ethtool_init(&a, "lo");
	/* EOPNOTSUPP with the kernel's extack text kept in the reason */
	assert_int_equal(parse_rec("lo", PS_ETHG_LINKMODES, &a), 0);
	assert_int_equal(a.linkmodes.status, PS_ST_UNSUPPORTED);
	assert_non_null(
		strstr(a.linkmodes.reason, "failed to retrieve link settings"));
	assert_int_equal(a.linkmodes.speed_bps, PS_ETH_NA);
	/* EOPNOTSUPP without text */
	assert_int_equal(parse_rec("veth", PS_ETHG_RINGS, &a), 0);
	assert_int_equal(a.rings.status, PS_ST_UNSUPPORTED);
	assert_int_equal(a.rings.rx, PS_ETH_NA);
	assert_int_equal(parse_rec("veth", PS_ETHG_PAUSE, &a), 0);
	assert_int_equal(a.pause.status, PS_ST_UNSUPPORTED);
	assert_int_equal(parse_rec("veth", PS_ETHG_RSS, &a), 0);
	assert_int_equal(a.rss.status, PS_ST_UNSUPPORTED);
	/* STATS_GET answers, but with no group filled */
	assert_int_equal(parse_rec("veth", PS_ETHG_STATS, &a), 0);
	assert_int_equal(a.std_stats.status, PS_ST_UNSUPPORTED);
	assert_int_equal(a.std_stats.n, 0);
	ps_ethtool_free(&a);
}

static void test_virtio(void **state)
{
	struct ps_ethtool_info a;

	/* recorded on the VM's virtio_net; absent on other recorders */
	ps_ethtool_init(&a, "eth0");
	assert_int_equal(parse_rec("virtio", PS_ETHG_RINGS, &a), 0);
	assert_int_equal(a.rings.status, PS_ST_OK);
	assert_int_equal(a.rings.rx, 256);
	assert_int_equal(a.rings.rx_max, 256);
	/* the kernel leaves out a zero maximum: "n/a" */
	assert_int_equal(a.rings.rx_mini_max, PS_ETH_NA);
	assert_int_equal(parse_rec("virtio", PS_ETHG_COALESCE, &a), 0);
	assert_int_equal(a.coalesce.status, PS_ST_OK);
	assert_int_equal(a.coalesce.rx_frames, 1);
	assert_int_equal(a.coalesce.adaptive_rx, 0);
	assert_int_equal(parse_rec("virtio", PS_ETHG_RSS, &a), 0);
	assert_int_equal(a.rss.status, PS_ST_OK);
	assert_string_equal(a.rss.hfunc, "toeplitz");
	assert_int_equal(parse_rec("virtio", PS_ETHG_LINKMODES, &a), 0);
	assert_int_equal(a.linkmodes.speed_bps, PS_ETH_NA); /* unknown */
	assert_int_equal(a.linkmodes.duplex, PS_ETH_NA);
	assert_int_equal(parse_rec("virtio", PS_ETHG_FEATURES, &a), 0);
	assert_true(a.features.flag[PS_ETH_GRO_HW].on);
	assert_true(a.features.flag[PS_ETH_GRO_HW].fixed);
	ps_ethtool_free(&a);
}

/* a recorded error reply with its errno replaced (EPERM, ENODEV, ...) */
static void test_errno_mapping(void **state)
{
	static const struct {
		int err;
		enum ps_status st;
	} cases[] = {
		{ -EPERM, PS_ST_NEEDS_ROOT },
		{ -ENODEV, PS_ST_ABSENT },
		{ -EIO, PS_ST_ERROR },
		{ -EOPNOTSUPP, PS_ST_UNSUPPORTED },
	};
	struct ps_ethtool_info a;
	size_t len;
	char *buf = netlink_fixture("veth", "rings", &len);
	struct nlmsgerr *e = mnl_nlmsg_get_payload((struct nlmsghdr *)buf);

	ps_ethtool_init(&a, "vA");
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		e->error = cases[k].err;
		assert_int_equal(
			ps_ethtool_parse(PS_ETHG_RINGS, buf, len, &ss, &a), 0);
		assert_int_equal(a.rings.status, cases[k].st);
		assert_true(a.rings.reason[0] != '\0');
	}
	free(buf);
	ps_ethtool_free(&a);
}

static void test_truncated(void **state)
{
	struct ps_ethtool_info a;
	size_t len;
	char *buf = netlink_fixture("veth", "features", &len);

	ps_ethtool_init(&a, "vA");
	/* cut in the middle of the message: not a netlink message any more */
	assert_int_equal(
		ps_ethtool_parse(PS_ETHG_FEATURES, buf, len / 2, &ss, &a),
		-EBADMSG);
	assert_int_equal(a.features.status, PS_ST_ERROR);
	assert_non_null(strstr(a.features.reason, "malformed"));
	assert_int_equal(a.features.n, 0);
	assert_int_equal(ps_ethtool_parse(PS_ETHG_FEATURES, buf, 3, &ss, &a),
			 -EBADMSG);
	assert_int_equal(ps_ethtool_parse(PS_ETHG_FEATURES, NULL, 0, &ss, &a),
			 -EBADMSG);
	/* a reply of another request carries nothing for this one */
	free(buf);
	buf = netlink_fixture("veth", "channels", &len);
	assert_int_equal(ps_ethtool_parse(PS_ETHG_FEATURES, buf, len, &ss, &a),
			 -EBADMSG);
	free(buf);
	ps_ethtool_free(&a);
}

/* build a genl reply by hand: the kernel never sends these shapes */
static struct nlmsghdr *synth(char *buf, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *gh;

	nlh->nlmsg_type = 21;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = cmd;
	gh->version = 1;
	return nlh;
}

static void test_synthetic(void **state)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct ps_ethtool_info a;
	struct nlmsghdr *nlh;
	struct nlattr *bad;

	ps_ethtool_init(&a, "x");
	/* a channels reply with one attribute: the rest is "n/a" */
	nlh = synth(buf, ETHTOOL_MSG_CHANNELS_GET_REPLY);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_COMBINED_MAX, 63);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_COMBINED_COUNT, 1);
	/* a short attribute (u16 where u32 is due) is ignored */
	mnl_attr_put_u16(nlh, ETHTOOL_A_CHANNELS_RX_COUNT, 7);
	assert_int_equal(ps_ethtool_parse(PS_ETHG_CHANNELS, buf, nlh->nlmsg_len,
					  &ss, &a),
			 0);
	assert_int_equal(a.channels.status, PS_ST_OK);
	assert_int_equal(a.channels.combined, 1);
	assert_int_equal(a.channels.combined_max, 63);
	assert_int_equal(a.channels.rx, PS_ETH_NA);
	assert_int_equal(a.channels.rx_max, PS_ETH_NA);

	/* an attribute whose length runs past the message: stop there */
	nlh = synth(buf, ETHTOOL_MSG_RINGS_GET_REPLY);
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX, 512);
	bad = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_TX, 1024);
	bad->nla_len = 200;
	assert_int_equal(
		ps_ethtool_parse(PS_ETHG_RINGS, buf, nlh->nlmsg_len, &ss, &a),
		0);
	assert_int_equal(a.rings.rx, 512);
	assert_int_equal(a.rings.tx, PS_ETH_NA);

	/* features without the HW bitset cannot be read */
	nlh = synth(buf, ETHTOOL_MSG_FEATURES_GET_REPLY);
	assert_int_equal(ps_ethtool_parse(PS_ETHG_FEATURES, buf, nlh->nlmsg_len,
					  &ss, &a),
			 -EBADMSG);
	assert_int_equal(a.features.status, PS_ST_ERROR);

	/* pause with its statistics nest (ETHTOOL_FLAG_STATS) */
	nlh = synth(buf, ETHTOOL_MSG_PAUSE_GET_REPLY);
	mnl_attr_put_u8(nlh, ETHTOOL_A_PAUSE_RX, 1);
	mnl_attr_put_u8(nlh, ETHTOOL_A_PAUSE_TX, 0);
	bad = mnl_attr_nest_start(nlh, ETHTOOL_A_PAUSE_STATS);
	mnl_attr_put_u64(nlh, ETHTOOL_A_PAUSE_STAT_RX_FRAMES, 4242);
	mnl_attr_nest_end(nlh, bad);
	assert_int_equal(
		ps_ethtool_parse(PS_ETHG_PAUSE, buf, nlh->nlmsg_len, &ss, &a),
		0);
	assert_int_equal(a.pause.rx, 1);
	assert_int_equal(a.pause.tx, 0);
	assert_int_equal(a.pause.autoneg, PS_ETH_NA);
	assert_int_equal(a.pause.rx_frames, 4242);
	assert_int_equal(a.pause.tx_frames, PS_ETH_NA);

	/* standard stats: one eth-mac group, stat index 0 */
	nlh = synth(buf, ETHTOOL_MSG_STATS_GET_REPLY);
	bad = mnl_attr_nest_start(nlh, ETHTOOL_A_STATS_GRP);
	mnl_attr_put_u32(nlh, ETHTOOL_A_STATS_GRP_ID, ETHTOOL_STATS_ETH_MAC);
	mnl_attr_put_u32(nlh, ETHTOOL_A_STATS_GRP_SS_ID, ETH_SS_STATS_ETH_MAC);
	{
		struct nlattr *st =
			mnl_attr_nest_start(nlh, ETHTOOL_A_STATS_GRP_STAT);

		mnl_attr_put_u64(nlh, ETHTOOL_A_STATS_ETH_MAC_2_TX_PKT, 99);
		mnl_attr_nest_end(nlh, st);
	}
	mnl_attr_nest_end(nlh, bad);
	assert_int_equal(
		ps_ethtool_parse(PS_ETHG_STATS, buf, nlh->nlmsg_len, &ss, &a),
		0);
	assert_int_equal(a.std_stats.status, PS_ST_OK);
	assert_int_equal(a.std_stats.n, 1);
	assert_string_equal(a.std_stats.v[0].group, "eth-mac");
	assert_string_equal(a.std_stats.v[0].name, "FramesTransmittedOK");
	assert_true(a.std_stats.v[0].value == 99);

	/* RSS: hash function bit 0 and a u32 indirection table */
	nlh = synth(buf, 38 /* ETHTOOL_MSG_RSS_GET_REPLY, kernel 6.2+ */);
	{
		uint32_t indir[4] = { 0, 1, 0, 1 };

		mnl_attr_put_u32(nlh, 3 /* HFUNC */, 1);
		mnl_attr_put(nlh, 4 /* INDIR */, sizeof(indir), indir);
	}
	assert_int_equal(
		ps_ethtool_parse(PS_ETHG_RSS, buf, nlh->nlmsg_len, &ss, &a), 0);
	assert_int_equal(a.rss.status, PS_ST_OK);
	assert_string_equal(a.rss.hfunc, "toeplitz");
	assert_int_equal(a.rss.n_indir, 4);
	assert_int_equal(a.rss.indir[3], 1);
	ps_ethtool_free(&a);
}

static void test_drv_stats(void **state)
{
	static const char *const names[] = {
		"rx_packets",
		"rx_missed_errors",
		"tx_fifo_errors",
		"rx_no_buffer_count",
		"RxDrop",
		"tx_bytes",
		"port.rx_discards",
		"interrupts",
		"rx_wqe_err",
		/* 32 bytes, no NUL: the kernel may fill the slot */
		"rx_queue_10_long_name_drops_xxx",
	};
	const size_t n = sizeof(names) / sizeof(names[0]);
	char tab[10][PS_ETH_STRLEN];
	uint64_t vals[10];
	struct ps_ethtool_info a;

	memset(tab, 0, sizeof(tab));
	for (size_t k = 0; k < n; k++) {
		strncpy(tab[k], names[k], PS_ETH_STRLEN);
		vals[k] = 100 + k;
	}
	memset(tab[9], 'd', PS_ETH_STRLEN); /* "dropddd...d": no NUL */
	memcpy(tab[9], "drop", 4);
	ps_ethtool_init(&a, "x");
	assert_int_equal(ps_ethtool_parse_drv_stats(&tab[0][0], vals, n, &a),
			 0);
	assert_int_equal(a.drv_stats.status, PS_ST_OK);
	assert_int_equal(a.drv_stats.total, n);
	assert_int_equal(a.drv_stats.n, 7);
	assert_string_equal(a.drv_stats.v[0].name, "rx_missed_errors");
	assert_true(a.drv_stats.v[0].value == 101);
	assert_string_equal(a.drv_stats.v[1].name, "tx_fifo_errors");
	assert_string_equal(a.drv_stats.v[2].name, "rx_no_buffer_count");
	assert_string_equal(a.drv_stats.v[3].name, "RxDrop");
	assert_string_equal(a.drv_stats.v[4].name, "port.rx_discards");
	assert_string_equal(a.drv_stats.v[5].name, "rx_wqe_err");
	assert_int_equal(strlen(a.drv_stats.v[6].name), PS_ETH_STRLEN - 1);
	assert_int_equal(ps_ethtool_parse_drv_stats(NULL, NULL, 3, &a),
			 -EINVAL);
	ps_ethtool_free(&a);
}

static void test_json_roundtrip(void **state)
{
	struct ps_ethtool_info a, b;
	struct json_object *j1, *j2, *g;
	static const char *const dirs[] = { "veth", "veth-tuned", "lo",
					    "virtio" };

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		parse_all(dirs[d], &a);
		assert_int_equal(ps_ethtool_parse_drv_stats(NULL, NULL, 0, &a),
				 0);
		j1 = ps_ethtool_to_json(&a);
		assert_int_equal(ps_ethtool_from_json(j1, &b), 0);
		j2 = ps_ethtool_to_json(&b);
		assert_true(json_object_equal(j1, j2));
		/* and the struct itself */
		assert_int_equal(a.features.n, b.features.n);
		assert_int_equal(a.channels.rx, b.channels.rx);
		assert_true(a.linkmodes.speed_bps == b.linkmodes.speed_bps);
		assert_memory_equal(a.features.flag, b.features.flag,
				    sizeof(a.features.flag));
		json_object_put(j1);
		json_object_put(j2);
		ps_ethtool_free(&a);
		ps_ethtool_free(&b);
	}
	/* JSON keys an agent reads */
	parse_all("veth-tuned", &a);
	j1 = ps_ethtool_to_json(&a);
	assert_true(json_object_object_get_ex(j1, "features", &g));
	assert_true(json_object_object_get_ex(g, "offloads", &g));
	assert_true(json_object_object_get_ex(g, "gro", &g));
	assert_true(json_object_object_get_ex(g, "on", &g));
	assert_true(json_object_get_boolean(g));
	json_object_put(j1);
	ps_ethtool_free(&a);

	/* an old snapshot without some groups: "not recorded", not a crash */
	j1 = json_tokener_parse("{\"ifname\":\"eth9\",\"status\":\"ok\","
				"\"channels\":{\"status\":\"ok\",\"combined\":"
				"{\"current\":1,\"max\":63}}}");
	assert_int_equal(ps_ethtool_from_json(j1, &b), 0);
	assert_int_equal(b.channels.combined, 1);
	assert_int_equal(b.channels.combined_max, 63);
	assert_int_equal(b.channels.rx, PS_ETH_NA);
	assert_int_equal(b.rings.status, PS_ST_NOT_RECORDED);
	assert_int_equal(b.features.n, 0);
	json_object_put(j1);
	ps_ethtool_free(&b);
	assert_int_equal(ps_ethtool_from_json(NULL, &b), -EINVAL);
}

static void test_print(void **state)
{
	struct ps_ethtool_info a;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	parse_all("veth-tuned", &a);
	ps_ethtool_print(f, &a);
	fclose(f);
	assert_non_null(strstr(text, "Channels (current / max):"));
	assert_non_null(strstr(text, "RX:                  2 / 2"));
	assert_non_null(strstr(text, "generic receive offload (gro): on"));
	assert_non_null(strstr(text, "TCP segmentation offload (tso): off"));
	assert_non_null(strstr(text, "10000 Mb/s"));
	assert_non_null(strstr(text, "Ring sizes (current / max): "
				     "not reported by the device"));
	free(text);
	ps_ethtool_free(&a);
}

/* a hand-edited snapshot: jsonutil's one type policy, never a crash */
static void test_load_types(void **state)
{
	struct ps_ethtool_info b;
	struct json_object *j;

	(void)state;
	j = json_tokener_parse(
		"{\"ifname\":\"eth9\",\"status\":\"ok\",\"ifindex\":-4,"
		"\"link_modes\":{\"status\":\"ok\",\"speed_bps\":1e9,"
		"\"duplex\":\"both\",\"autoneg\":1,\"lanes\":2,"
		"\"supported\":[\"1000baseT/Full\",7]},"
		"\"coalesce\":{\"status\":\"ok\",\"rx_usecs\":\"8\","
		"\"adaptive_rx\":true},"
		"\"std_stats\":{\"status\":\"ok\",\"groups\":{\"eth-mac\":"
		"{\"a\":5,\"b\":-1,\"c\":\"x\"},\"rmon\":3}},"
		"\"driver\":[]}");
	assert_non_null(j);
	assert_int_equal(ps_ethtool_from_json(j, &b), 0);
	json_object_put(j);
	assert_int_equal(b.ifindex, 0);
	/* a double, a string, an unknown name: not reported */
	assert_int_equal(b.linkmodes.speed_bps, PS_ETH_NA);
	assert_int_equal(b.linkmodes.duplex, PS_ETH_NA);
	assert_int_equal(b.linkmodes.autoneg, PS_ETH_NA);
	assert_int_equal(b.linkmodes.lanes, 2);
	assert_int_equal(b.linkmodes.supported.n, 2);
	assert_string_equal(b.linkmodes.supported.v[0], "1000baseT/Full");
	assert_string_equal(b.linkmodes.supported.v[1], "");
	assert_int_equal(b.coalesce.rx_usecs, PS_ETH_NA);
	assert_int_equal(b.coalesce.adaptive_rx, 1);
	/* only counters that are counters */
	assert_int_equal(b.std_stats.n, 1);
	assert_string_equal(b.std_stats.v[0].name, "a");
	/* a group that is not an object */
	assert_int_equal(b.drvinfo.status, PS_ST_NOT_RECORDED);
	ps_ethtool_free(&b);
}

/* read as user nobody: the same answers as root, nothing needs root */
static void test_nobody(void **state)
{
	struct ps_ethtool_info r, n;

	parse_all("veth", &r);
	parse_all("nobody-veth", &n);
	for (int g = 0; g < PS_ETHG_COUNT; g++) {
		struct json_object *jr = ps_ethtool_to_json(&r);
		struct json_object *jn = ps_ethtool_to_json(&n);
		struct json_object *gr, *gn;

		assert_true(json_object_object_get_ex(
			jr, ps_ethtool_group_name(g), &gr));
		assert_true(json_object_object_get_ex(
			jn, ps_ethtool_group_name(g), &gn));
		assert_true(json_object_equal(gr, gn));
		json_object_put(jr);
		json_object_put(jn);
	}
	assert_int_equal(n.features.status, PS_ST_OK);
	assert_int_equal(n.channels.status, PS_ST_OK);
	assert_memory_equal(r.features.flag, n.features.flag,
			    sizeof(r.features.flag));
	ps_ethtool_free(&r);
	ps_ethtool_free(&n);
}

struct group_parse {
	enum ps_ethtool_group g;
	size_t len;
	struct ps_ethtool_info a;
};

static void parse_group(const char *p, size_t n, void *arg)
{
	struct group_parse *c = arg;

	ps_ethtool_parse(c->g, p, n, &ss, &c->a);
	if (n < c->len && c->a.features.status == PS_ST_OK)
		assert_true(c->a.features.n <= 64);
}

static void parse_strsets(const char *p, size_t n, void *arg)
{
	struct ps_ethtool_strsets s2;

	ps_ethtool_parse_strsets(p, n, &s2);
	ps_ethtool_strsets_free(&s2);
}

/*
 * Every prefix of every recorded reply, and replies with bytes flipped
 * (fixed seed): the parsers must answer, never crash or read past the end
 * (run under valgrind or ASan to see the latter).
 */
static void test_prefixes_and_flips(void **state)
{
	static const char *const dirs[] = { "lo", "veth", "veth-tuned",
					    "virtio", "nobody-veth" };
	unsigned seed = 12345;
	size_t len;
	char *buf;

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		for (int g = 0; g < PS_ETHG_COUNT; g++) {
			struct group_parse c = { .g = g };

			buf = netlink_fixture(dirs[d], ps_ethtool_group_name(g),
					      &c.len);
			ps_ethtool_init(&c.a, "x");
			feed_mangled(buf, c.len, 1, 200, &seed, parse_group,
				     &c);
			free(buf);
			ps_ethtool_free(&c.a);
		}
	}
	/* the string sets too */
	buf = netlink_fixture("lo", "strsets", &len);
	feed_mangled(buf, len, 7, 200, &seed, parse_strsets, NULL);
	free(buf);
}

static int count_msg(const struct nlmsghdr *nlh, void *data)
{
	(*(int *)data)++;
	return 0;
}

/*
 * Damaged lengths found by the fuzzer: a length near 2^32 (NLMSG_ALIGN's
 * 32-bit mask made it align to 0: the walk never moved) and an unaligned
 * last length without its padding (libmnl's attribute walk read past the
 * buffer). Both end at once as "not netlink".
 */
static void test_walk_damaged_lengths(void **state)
{
	uint32_t buf[16] = { 0 };
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	int n = 0;
	struct ps_nl_walk w = { .want_cmd = ETHTOOL_MSG_STRSET_GET_REPLY,
				.cb = count_msg,
				.data = &n };

	(void)state;
	nlh->nlmsg_type = 0x15;
	nlh->nlmsg_len = 0xfffffffe;
	assert_int_equal(ps_nl_walk_reply(buf, sizeof(buf), &w), -EBADMSG);
	nlh->nlmsg_len = 0xffffffff;
	assert_int_equal(ps_nl_walk_reply(buf, sizeof(buf), &w), -EBADMSG);
	/* 62 bytes of a 64-byte message, no padding: not a whole message */
	nlh->nlmsg_len = 62;
	assert_int_equal(ps_nl_walk_reply(buf, 62, &w), -EBADMSG);
	assert_false(ps_nl_msg_ok(nlh, 62));
	assert_true(ps_nl_msg_ok(nlh, 64));
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strsets),
		cmocka_unit_test(test_features_veth),
		cmocka_unit_test(test_features_lo),
		cmocka_unit_test(test_features_without_names),
		cmocka_unit_test(test_channels_links),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_virtio),
		cmocka_unit_test(test_errno_mapping),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_synthetic),
		cmocka_unit_test(test_drv_stats),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_load_types),
		cmocka_unit_test(test_nobody),
		cmocka_unit_test(test_prefixes_and_flips),
		cmocka_unit_test(test_walk_damaged_lengths),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
