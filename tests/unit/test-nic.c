/* test-nic.c: the driver's counters read by name (probes/nic-counters.c)
 * on recorded "ethtool -S" outputs of many drivers (tests/fixtures/
 * counters, each file's first line names its source), their rates, and
 * the NIC checks that read them (src/check/check-nic.c) */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check.h"
#include "ceiling.h"
#include "checklist.h"
#include "fixture.h"
#include "nic-counters.h"
#include "probe-ethtool.h"
#include "report-check.h"
#include "step.h"
#include "sysroot.h"

static char *fixture_path(const char *name)
{
	const char *top = getenv("top_srcdir");
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s/tests/fixtures/counters/%s",
		 top && *top ? top : PS_TOP_SRCDIR, name);
	return buf;
}

/* loader of "ethtool -S" text into names/values (32-byte names) */
static unsigned load_ethtool_s(const char *path, char **names_out,
			       uint64_t **vals_out)
{
	FILE *f = fopen(path, "r");
	char line[512];
	unsigned n = 0, cap = 0;
	char *names = NULL;
	uint64_t *vals = NULL;
	size_t indent = SIZE_MAX;
	int pass;

	assert_non_null(f);
	for (pass = 0; pass < 2; pass++) {
		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			char *colon, *end;
			size_t sp = strspn(line, " \t");
			unsigned long long v;

			line[strcspn(line, "\r\n")] = '\0';
			if (line[sp] == '#' || line[sp] == '$' || !line[sp])
				continue;
			colon = strrchr(line, ':');
			if (!colon || colon[1] != ' ')
				continue;
			v = strtoull(colon + 2, &end, 10);
			if (end == colon + 2 || (*end && *end != ' '))
				continue;
			if (pass == 0) {
				if (sp < indent)
					indent = sp;
				continue;
			}
			*colon = '\0';
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				names = realloc(names, (size_t)cap * 32);
				vals = realloc(vals, cap * sizeof(*vals));
				assert_non_null(names);
				assert_non_null(vals);
			}
			memset(names + (size_t)n * 32, 0, 32);
			strncpy(names + (size_t)n * 32, line + indent, 31);
			vals[n++] = v;
		}
	}
	fclose(f);
	*names_out = names;
	*vals_out = vals;
	return n;
}

static void load(const char *name, struct ps_nic_counters *c)
{
	char *names;
	uint64_t *vals;
	unsigned n = load_ethtool_s(fixture_path(name), &names, &vals);

	assert_true(n > 0);
	ps_nic_counters_from(c, names, 32, vals, n);
	free(names);
	free(vals);
}

static void dump(const char *name, const struct ps_nic_counters *c)
{
	printf("%-50s rxq %u (bytes %u) txq %u (bytes %u)", name,
	       c->nq[PS_NIC_RX], c->nq_bytes[PS_NIC_RX], c->nq[PS_NIC_TX],
	       c->nq_bytes[PS_NIC_TX]);
	for (int d = 0; d < PS_NIC_NDIR; d++)
		for (int k = 0; k < PS_NIC_NDROP; k++)
			if (c->drops[d][k] != PS_NA)
				printf(" %s_%s=%lld", ps_nic_dir_name(d),
				       ps_nic_drop_name(k),
				       (long long)c->drops[d][k]);
	for (int d = 0; d < PS_NIC_NDIR; d++)
		if (c->pause[d] != PS_NA)
			printf(" pause_%s=%lld", ps_nic_dir_name(d),
			       (long long)c->pause[d]);
	printf("\n");
}

/* each driver's queues as its names count them, and one drop class */
struct want {
	const char *file;
	unsigned rxq, txq;
	enum ps_nic_dir dir;
	enum ps_nic_drop cls;
	long long value;	      /* of that class */
	long long pause_rx, pause_tx; /* PS_NA: not reported */
};

static const struct want wants[] = {
	{ "ethtool-S_be2net_ethq.txt", 0, 0, PS_NIC_RX, PS_NIC_DROPPED, 7419, 0,
	  0 },
	{ "ethtool-S_bnx2_ethq.txt", 0, 0, PS_NIC_RX, PS_NIC_DISCARDS, 0, 0,
	  332 },
	{ "ethtool-S_bnx2x_ethq.txt", 8, 8, PS_NIC_RX, PS_NIC_DISCARDS, 0, 0,
	  0 },
	{ "ethtool-S_bnxt_en_ethq.txt", 12, 12, PS_NIC_RX, PS_NIC_DISCARDS,
	  655479471, 0, 0 },
	{ "ethtool-S_e1000e_I219V_netdev2021.txt", 0, 0, PS_NIC_RX,
	  PS_NIC_MISSED, 0, 0, 0 },
	{ "ethtool-S_e1000e_node_exporter_PARTLY-SYNTHETIC.txt", 0, 0,
	  PS_NIC_RX, PS_NIC_MISSED, 401, PS_NA, PS_NA },
	{ "ethtool-S_ena_ethq.txt", 4, 4, PS_NIC_RX, PS_NIC_NDROP, 0, PS_NA,
	  PS_NA },
	{ "ethtool-S_ena_aws-gw_5.4-aws.txt", 2, 2, PS_NIC_RX, PS_NIC_NDROP, 0,
	  PS_NA, PS_NA },
	{ "ethtool-S_fsl_dpaa2_eth_ethq.txt", 0, 0, PS_NIC_RX, PS_NIC_NO_BUFFER,
	  0, 0, 0 },
	{ "ethtool-S_i40e-v2.3.2k_ethq.txt", 64, 64, PS_NIC_RX, PS_NIC_DROPPED,
	  179160, 0, 0 },
	{ "ethtool-S_i40e_ethq.txt", 12, 12, PS_NIC_RX, PS_NIC_DROPPED, 0, 0,
	  0 },
	{ "ethtool-S_iavf_ethq.txt", 16, 16, PS_NIC_RX, PS_NIC_DISCARDS, 0,
	  PS_NA, PS_NA },
	{ "ethtool-S_ice_ethq.txt", 128, 128, PS_NIC_RX, PS_NIC_DROPPED, 0, 0,
	  0 },
	{ "ethtool-S_ixgbe_82599ES_netdev2021.txt", 8, 8, PS_NIC_RX,
	  PS_NIC_DROPPED, 55706, 0, 0 },
	{ "ethtool-S_ixgbe_eth3_cn-blog.txt", 0, 0, PS_NIC_RX, PS_NIC_MISSED,
	  2538, 0, 51 },
	{ "ethtool-S_mlx5_core_ethq.txt", 16, 16, PS_NIC_RX,
	  PS_NIC_OUT_OF_BUFFER, 0, 0, 0 },
	{ "ethtool-S_mlx5_xdp_k5.15_bpf-list2024.txt", 1, 0, PS_NIC_RX,
	  PS_NIC_OUT_OF_BUFFER, 990473555, PS_NA, 5745055 },
	{ "ethtool-S_r8169_ethq.txt", 0, 0, PS_NIC_RX, PS_NIC_MISSED, 0, PS_NA,
	  PS_NA },
	{ "ethtool-S_sfc_ethq.txt", 12, 18, PS_NIC_RX, PS_NIC_DROPPED, 27, 0,
	  0 },
	{ "ethtool-S_tg3_ethq.txt", 0, 0, PS_NIC_TX, PS_NIC_DISCARDS, 0, 0, 0 },
	{ "ethtool-S_veth_docker_ubuntu20.txt", 0, 0, PS_NIC_RX, PS_NIC_DROPPED,
	  0, PS_NA, PS_NA },
	{ "ethtool-S_virtio_net_2q_tencent-cvm.txt", 2, 2, PS_NIC_RX,
	  PS_NIC_DROPPED, 0, PS_NA, PS_NA },
	{ "ethtool-S_virtio_net_4q_tx-skew_netdev2023.txt", 4, 4, PS_NIC_RX,
	  PS_NIC_DROPPED, 0, PS_NA, PS_NA },
	{ "ethtool-S_virtio_net_ethq.txt", 2, 2, PS_NIC_RX, PS_NIC_NDROP, 0,
	  PS_NA, PS_NA },
	{ "ethtool-S_vmxnet3_ethq.txt", 2, 2, PS_NIC_TX, PS_NIC_DISCARDS, 0,
	  PS_NA, PS_NA },
	{ "ethtool-S-grep_igb_rxqueue-imbalance_chyaohui.txt", 8, 0, PS_NIC_RX,
	  PS_NIC_NDROP, 0, PS_NA, PS_NA },
	{ "ethtool-S-grep_i40e_rx_dropped_openstack-compute5.txt", 0, 0,
	  PS_NIC_RX, PS_NIC_DROPPED, 4090, PS_NA, PS_NA },
	{ "ethtool-S-grep_mlx5_cx4lx_tx-pause_cn-note.txt", 0, 0, PS_NIC_RX,
	  PS_NIC_MISSED, 0, 0, 1266552 },
};

static void test_drivers(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(wants) / sizeof(wants[0]); i++) {
		const struct want *w = &wants[i];
		struct ps_nic_counters c;

		load(w->file, &c);
		if (getenv("NIC_DUMP"))
			dump(w->file, &c);
		print_message("%s\n", w->file);
		assert_true(c.valid);
		assert_int_equal(c.nq[PS_NIC_RX], w->rxq);
		assert_int_equal(c.nq[PS_NIC_TX], w->txq);
		if (w->cls < PS_NIC_NDROP)
			assert_int_equal(c.drops[w->dir][w->cls], w->value);
		assert_int_equal(c.pause[PS_NIC_RX], w->pause_rx);
		assert_int_equal(c.pause[PS_NIC_TX], w->pause_tx);
	}
}

/* the numbers of single queues, the XDP and per-priority names left out */
static void test_queue_values(void **state)
{
	struct ps_nic_counters c;

	(void)state;
	load("ethtool-S_bnxt_en_ethq.txt", &c);
	/* [0]: rx_ucast_packets + mcast + bcast */
	assert_int_equal(c.packets[PS_NIC_RX][0],
			 10198513532LL + 3854315 + 124570464);
	load("ethtool-S_ena_ethq.txt", &c);
	assert_int_equal(c.packets[PS_NIC_RX][0], 9300271);
	assert_int_equal(c.bytes[PS_NIC_TX][0], 293608419);
	load("ethtool-S_mlx5_core_ethq.txt", &c);
	assert_int_equal(c.packets[PS_NIC_RX][0], 53947906);
	assert_int_equal(c.packets[PS_NIC_TX][0], 101488959);
	load("ethtool-S_vmxnet3_ethq.txt", &c);
	assert_int_equal(c.packets[PS_NIC_TX][0], 54123 + 36 + 3);
	load("ethtool-S-grep_igb_rxqueue-imbalance_chyaohui.txt", &c);
	assert_int_equal(c.packets[PS_NIC_RX][7], 2403);
	assert_int_equal(c.bytes[PS_NIC_RX][0], PS_NA);
	load("ethtool-S_mlx5_xdp_k5.15_bpf-list2024.txt", &c);
	/* rx_xdp_drop (the program's verdict) is no loss */
	assert_int_equal(c.drops[PS_NIC_RX][PS_NIC_DROPPED], 0);
}

/* names are untrusted: unended, long, odd bytes, huge queue numbers */
static void test_hostile_names(void **state)
{
	char names[6][32];
	uint64_t vals[6] = { 1, 2, 3, UINT64_MAX, 5, 6 };
	struct ps_nic_counters c;

	(void)state;
	memset(names, 'x', sizeof(names));
	snprintf(names[1], 32, "rx_queue_999999_packets");
	snprintf(names[2], 32, "rx_queue_127_packets");
	snprintf(names[3], 32, "rx_missed_errors");
	snprintf(names[4], 32, "[12345678901]: rx_bytes");
	snprintf(names[5], 32, "rx-00000000000000001.packets");
	ps_nic_counters_from(&c, &names[0][0], 32, vals, 6);
	assert_int_equal(c.nq[PS_NIC_RX], 128);
	assert_int_equal(c.packets[PS_NIC_RX][127], 3);
	assert_true(c.drops[PS_NIC_RX][PS_NIC_MISSED] > 0);
	ps_nic_counters_from(&c, NULL, 32, vals, 6);
	assert_int_equal(c.nq[PS_NIC_RX], 0);
}

/* rates: a counter that went back is not reported, never 0 */
static void test_rates(void **state)
{
	struct ps_nic_counters a, b;
	struct ps_nic_rates r;

	(void)state;
	load("ethtool-S_ixgbe_82599ES_netdev2021.txt", &a);
	b = a;
	b.packets[PS_NIC_RX][0] += 20000;
	b.packets[PS_NIC_RX][1] -= 5;
	b.drops[PS_NIC_RX][PS_NIC_DROPPED] += 100;
	ps_nic_rates_compute(&a, &b, 2.0, &r);
	assert_true(r.rated);
	assert_int_equal(r.nq[PS_NIC_RX], 8);
	assert_true(r.pps[PS_NIC_RX][0] == 10000);
	assert_true(r.pps[PS_NIC_RX][1] == -1);
	assert_true(r.pps[PS_NIC_RX][2] == 0);
	assert_true(r.drops[PS_NIC_RX][PS_NIC_DROPPED] == 50);
	assert_true(isnan(r.drops[PS_NIC_RX][PS_NIC_OUT_OF_BUFFER]));
	assert_true(ps_nic_rates_drops(&r, PS_NIC_RX) == 50);
}

/* ---- the checks on recorded outputs ---------------------------------- */

static enum ps_check_state run(const struct ps_check_ops *ops,
			       const struct ps_evidence *ev,
			       struct ps_finding *f)
{
	memset(f, 0, sizeof(*f));
	f->id = ops->id;
	return ops->eval(ev, f);
}

/* numbers, facts and a remedy: what every finding must carry */
static void assert_backed(const struct ps_finding *f)
{
	assert_true(f->title[0]);
	assert_true(f->remedy[0]);
	assert_true(f->nfacts > 0);
	assert_non_null(strpbrk(f->evidence, "0123456789"));
}

/* a physical NIC named eth9 whose driver counters are a recorded file */
static void nic_from(struct ps_ethtool_info *e, const char *file)
{
	ps_ethtool_init(e, "eth9");
	e->status = PS_ST_OK;
	e->drv_stats.status = PS_ST_OK;
	if (file)
		load(file, &e->nic);
}

static void test_check_imbalance(void **state)
{
	struct ps_ethtool_info e;
	struct ps_evidence ev = { .eth = &e };
	struct ps_finding f;

	(void)state;
	/* igb: queue 0 got 117947 of 143988 packets */
	nic_from(&e, "ethtool-S-grep_igb_rxqueue-imbalance_chyaohui.txt");
	assert_int_equal(run(&ps_check_rss_balance, &ev, &f), PS_CHECK_FIRED);
	assert_backed(&f);
	assert_true(ps_fact_get(&f, "hot_queue") == 0);
	assert_in_range((long)(100 * ps_fact_get(&f, "hot_queue_share")), 81,
			82);
	assert_true(ps_fact_get(&f, "hot_queue_packets") == 117947);
	assert_non_null(strstr(f.title, "82%"));
	assert_non_null(strstr(f.remedy, "ethtool -X eth9"));
	/* 2 virtio queues at 47.0M and 37.1M: spread enough */
	nic_from(&e, "ethtool-S_virtio_net_2q_tencent-cvm.txt");
	assert_int_equal(run(&ps_check_rss_balance, &ev, &f), PS_CHECK_CLEAR);
	/* during a 4-stream test all of them on queue 5 of 8 */
	{
		static struct ps_run r;
		struct ps_step_result *s = &r.steps[0];

		memset(&r, 0, sizeof(r));
		r.nsteps = 1;
		s->state = PS_STEP_DONE;
		s->streams = 4;
		s->bps = 9e9;
		s->have_nicstats = true;
		s->nic_nrxq = 8;
		for (int q = 0; q < PS_STEP_MAX_QUEUES; q++)
			s->nic_rxq_pps[q] = q < 8 ? 10 : NAN;
		s->nic_rxq_pps[5] = 800000;
		ev.res = &r;
		assert_int_equal(run(&ps_check_rss_balance, &ev, &f),
				 PS_CHECK_FIRED);
		assert_true(ps_fact_get(&f, "hot_queue") == 5);
		assert_true(ps_fact_get(&f, "hot_queue_pps") == 800000);
		assert_non_null(strstr(f.evidence, "during the test"));
		/* one stream on one queue is how RSS works */
		s->streams = 1;
		assert_int_equal(run(&ps_check_rss_balance, &ev, &f),
				 PS_CHECK_CLEAR);
		ev.res = NULL;
	}
	ps_ethtool_free(&e);
}

/* "ethtool -x" as a recorded tree carries it */
static void load_rss(const char *file, struct ps_ethtool_info *e)
{
	FILE *fp = fopen(fixture_path(file), "r");
	char buf[65536];
	size_t n;

	assert_non_null(fp);
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	assert_int_equal(ps_ethtool_parse_rss_text(buf, n, e), 0);
}

static void test_check_rss_table(void **state)
{
	struct ps_ethtool_info e;
	struct ps_evidence ev = { .eth = &e };
	struct ps_finding f;

	(void)state;
	nic_from(&e, NULL);
	load_rss("ethtool-x_ixgbe_82599ES_63rings-16rss_shopee.txt", &e);
	assert_int_equal(e.rss.n_indir, 128);
	assert_int_equal(run(&ps_check_rss_table, &ev, &f), PS_CHECK_FIRED);
	assert_backed(&f);
	assert_non_null(strstr(f.title, "16 of 63 rings"));
	assert_non_null(strstr(f.evidence, "rings 16-62"));
	assert_true(ps_fact_get(&f, "rings_in_rss") == 16);
	assert_true(ps_fact_get(&f, "rings") == 63);
	assert_int_equal(e.rss.indir[127], 15);
	/* the same table over 16 rings reaches them all */
	e.rss.rx_rings = 16;
	assert_int_equal(run(&ps_check_rss_table, &ev, &f), PS_CHECK_CLEAR);
	/* enetc: 2 rings, both in the table, a 40-byte Toeplitz key */
	load_rss("ethtool-x_enetc_eno0_with-key.txt", &e);
	assert_int_equal(e.rss.n_indir, 64);
	assert_int_equal(e.rss.rx_rings, 2);
	assert_int_equal(e.rss.n_hkey, 40);
	assert_int_equal(e.rss.hkey[0], 0x0d);
	assert_int_equal(e.rss.hkey[39], 0x01);
	assert_string_equal(e.rss.hfunc, "toeplitz");
	assert_int_equal(run(&ps_check_rss_table, &ev, &f), PS_CHECK_CLEAR);
	assert_non_null(strstr(f.evidence, "2 rings of 2"));
	/* virtio without RSS: no table */
	{
		FILE *fp = fopen(
			fixture_path("ethtool-x_virtio_net_no-rss.txt"), "r");
		char buf[4096];
		size_t n;

		assert_non_null(fp);
		n = fread(buf, 1, sizeof(buf), fp);
		fclose(fp);
		assert_int_equal(ps_ethtool_parse_rss_text(buf, n, &e),
				 -ENOENT);
		assert_int_equal(run(&ps_check_rss_table, &ev, &f),
				 PS_CHECK_NA);
	}
	ps_ethtool_free(&e);
}

static void test_check_ring_drops(void **state)
{
	struct ps_ethtool_info e;
	struct ps_evidence ev = { .eth = &e };
	struct ps_finding f;

	(void)state;
	/* ixgbe with rx_missed_errors 2538 since the driver loaded; the
	 * recording has no "ethtool -g": rings 512 of 4096 */
	nic_from(&e, "ethtool-S_ixgbe_eth3_cn-blog.txt");
	e.rings.status = PS_ST_OK;
	e.rings.rx = e.rings.tx = 512;
	e.rings.rx_max = e.rings.tx_max = 4096;
	assert_int_equal(run(&ps_check_rings, &ev, &f), PS_CHECK_FIRED);
	assert_backed(&f);
	assert_int_equal(f.severity, PS_SEV_WARNING);
	assert_true(ps_fact_get(&f, "rx_missed") == 2538);
	assert_non_null(strstr(f.evidence, "rx_missed 2538"));
	assert_string_equal(f.remedy, "ethtool -G eth9 rx 4096 tx 4096");
	/* growing during a test: the driver's counters a second later */
	{
		static struct ps_run r;
		struct ps_ethtool_info b;

		memset(&r, 0, sizeof(r));
		r.nsteps = 1;
		r.steps[0].state = PS_STEP_DONE;
		r.steps[0].streams = 4;
		r.steps[0].bps = 9e9;
		nic_from(&b, "ethtool-S_ixgbe_eth3_cn-blog.txt");
		b.nic.drops[PS_NIC_RX][PS_NIC_MISSED] += 3000;
		ps_ethtool_rates(&e, &b, 2.0);
		ps_step_set_nic(&r.steps[0], &b.nic_rate);
		assert_true(r.steps[0].have_nicstats);
		assert_true(ps_step_nic_drops(&r.steps[0]) == 1500);
		ev.res = &r;
		assert_int_equal(run(&ps_check_rings, &ev, &f), PS_CHECK_FIRED);
		assert_int_equal(f.severity, PS_SEV_BOTTLENECK);
		assert_true(ps_fact_get(&f, "rx_drop_rate") == 1500);
		assert_non_null(strstr(f.title, "1500 packets/s"));
		ev.res = NULL;
		ps_ethtool_free(&b);
	}
	/* at the maximum there is nothing to raise */
	e.rings.rx = 4096;
	assert_int_equal(run(&ps_check_rings, &ev, &f), PS_CHECK_CLEAR);
	ps_ethtool_free(&e);
}

static void test_check_pause(void **state)
{
	struct ps_ethtool_info e;
	struct ps_evidence ev = { .eth = &e };
	struct ps_finding f;

	(void)state;
	/* mlx5 sending pause: tx_pause_ctrl_phy 1266552 */
	nic_from(&e, "ethtool-S-grep_mlx5_cx4lx_tx-pause_cn-note.txt");
	assert_int_equal(run(&ps_check_pause, &ev, &f), PS_CHECK_FIRED);
	assert_backed(&f);
	assert_true(ps_fact_get(&f, "pause_tx_frames") == 1266552);
	assert_non_null(strstr(f.title, "sends pause frames (1266552)"));
	/* hibmcge: 100 received, as the netlink statistics say */
	nic_from(&e, "ethtool-I-a_hibmcge_rx-pause-100.txt");
	assert_true(e.nic.pause[PS_NIC_RX] == 100);
	e.pause.status = PS_ST_OK;
	e.pause.rx_frames = 100;
	e.pause.tx_frames = 0;
	assert_int_equal(run(&ps_check_pause, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.title, "switch has paused eth9: 100 pause"));
	assert_non_null(strstr(f.evidence, "100 received"));
	/* all zero: clear; none reported: cannot tell */
	nic_from(&e, "ethtool-a_and_pause-grep_mlx5-ixgbe-ice_cn-note.txt");
	assert_int_equal(run(&ps_check_pause, &ev, &f), PS_CHECK_CLEAR);
	nic_from(&e, "ethtool-S_virtio_net_ethq.txt");
	assert_int_equal(run(&ps_check_pause, &ev, &f), PS_CHECK_NA);
	ps_ethtool_free(&e);
}

/* issue 14: the hot queue by its interrupts, the misc vector is never
 * quoted as a queue's affinity, one TX queue beside 4 RX queues */
static void test_check_irq_lines(void **state)
{
	struct ps_irq_info q;
	struct ps_irq_line lines[6];
	struct ps_evidence ev = { .irq = &q };
	struct ps_finding f;
	uint64_t counts[6] = { 12, 960000, 10000, 15000, 15000, 500 };

	(void)state;
	memset(&q, 0, sizeof(q));
	memset(lines, 0, sizeof(lines));
	q.status = PS_ST_OK;
	snprintf(q.ifname, sizeof(q.ifname), "eth9");
	q.lines = lines;
	q.nlines = 6;
	for (int i = 0; i < 6; i++) {
		lines[i].irq = 90 + i;
		lines[i].total = counts[i];
		lines[i].queue = i - 1;
		snprintf(lines[i].kind, sizeof(lines[i].kind), "%s",
			 i == 0	  ? ""
			 : i == 5 ? "tx"
				  : "rx");
		snprintf(lines[i].affinity, sizeof(lines[i].affinity), "%s",
			 i == 0 ? "0-3" : "0");
	}
	q.queues_with_irqs = 5;
	q.busiest_cpu = 0;
	q.busiest_share = 1.0;
	q.irq_cpus = 1;
	assert_int_equal(run(&ps_check_rss_balance, &ev, &f), PS_CHECK_FIRED);
	assert_backed(&f);
	assert_true(ps_fact_get(&f, "hot_queue") == 0);
	assert_true(ps_fact_get(&f, "hot_queue_irq") == 91);
	assert_non_null(strstr(f.evidence, "queue 0 (IRQ 91) took 96%"));
	/* the affinity quoted is queue 0's (IRQ 91), not the misc IRQ 90 */
	assert_int_equal(run(&ps_check_irq_cpu, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.evidence, "IRQ 91"));
	assert_null(strstr(f.evidence, "IRQ 90"));
	/* 4 rx lines and one tx line */
	assert_int_equal(run(&ps_check_tx_queues, &ev, &f), PS_CHECK_FIRED);
	assert_backed(&f);
	assert_true(ps_fact_get(&f, "tx_queues") == 1);
	assert_true(ps_fact_get(&f, "rx_queues") == 4);
	assert_non_null(strstr(f.remedy, "ethtool -L eth9 tx 4"));
	lines[4].kind[0] = 't';
	lines[4].kind[1] = 'x';
	lines[4].kind[2] = 0;
	assert_int_equal(run(&ps_check_tx_queues, &ev, &f), PS_CHECK_CLEAR);
}

/* the counters travel in the snapshot: JSON out and back */
static void test_json_round_trip(void **state)
{
	struct ps_ethtool_info e, back, b;
	struct json_object *o;

	(void)state;
	nic_from(&e, "ethtool-S_ixgbe_82599ES_netdev2021.txt");
	nic_from(&b, "ethtool-S_ixgbe_82599ES_netdev2021.txt");
	b.nic.packets[PS_NIC_RX][3] += 4000;
	ps_ethtool_rates(&e, &b, 2.0);
	o = ps_ethtool_to_json(&b);
	assert_non_null(json_object_object_get(o, "nic_counters"));
	assert_non_null(json_object_object_get(o, "nic_rates"));
	assert_int_equal(ps_ethtool_from_json(o, &back), 0);
	assert_true(back.nic.valid);
	assert_int_equal(back.nic.nq[PS_NIC_RX], 8);
	assert_true(back.nic.packets[PS_NIC_RX][3] ==
		    b.nic.packets[PS_NIC_RX][3]);
	assert_true(back.nic.drops[PS_NIC_RX][PS_NIC_DROPPED] == 55706);
	assert_true(back.nic.drops[PS_NIC_RX][PS_NIC_OUT_OF_BUFFER] == PS_NA);
	assert_true(back.nic_rate.rated);
	assert_true(back.nic_rate.pps[PS_NIC_RX][3] == 2000);
	assert_true(back.nic_rate.pps[PS_NIC_RX][2] == 0);
	json_object_put(o);
	ps_ethtool_free(&e);
	ps_ethtool_free(&b);
	ps_ethtool_free(&back);
}

/* a recorded tree's "ethtool -S" text: untrusted, bounded */
static void test_stats_text(void **state)
{
	static const char text[] =
		"NIC statistics:\n"
		"     rx_queue_0_packets: 10\n"
		"     rx_queue_1_packets: 20\n"
		"     rx_missed_errors: 7\n"
		"     bad\033[31m_name: 5\n"
		"     negative: -3\n"
		"     huge: 99999999999999999999999\n"
		"     no value:\n"
		"     a_very_long_counter_name_that_goes_on_and_on: 1\n"
		"     rx_pause_frames: 4";
	struct ps_ethtool_info e;
	bool esc = false;

	(void)state;
	ps_ethtool_init(&e, "eth9");
	assert_int_equal(
		ps_ethtool_parse_stats_text(text, sizeof(text) - 1, &e), 0);
	assert_int_equal(e.drv_stats.total, 6);
	assert_int_equal(e.nic.nq[PS_NIC_RX], 2);
	assert_true(e.nic.drops[PS_NIC_RX][PS_NIC_MISSED] == 7);
	assert_true(e.nic.pause[PS_NIC_RX] == 4);
	for (unsigned i = 0; i < e.drv_stats.n; i++)
		if (strchr(e.drv_stats.v[i].name, 0x1b))
			esc = true;
	assert_false(esc);
	assert_int_equal(ps_ethtool_parse_stats_text("", 0, &e), -ENOENT);
	assert_int_equal(ps_ethtool_parse_stats_text("x: y\n: 3\n", 10, &e),
			 -ENOENT);
	ps_ethtool_free(&e);
}

/* a step takes the NIC's counters rated over it (session.c rates them
 * from the test's first reading to its latest) */
static void test_step_nic(void **state)
{
	struct ps_ethtool_info a, b;
	struct ps_step_result st;

	(void)state;
	memset(&st, 0, sizeof(st));
	nic_from(&a, "ethtool-S_virtio_net_4q_tx-skew_netdev2023.txt");
	nic_from(&b, "ethtool-S_virtio_net_4q_tx-skew_netdev2023.txt");
	b.nic.packets[PS_NIC_TX][3] += 1000;
	ps_step_set_nic(&st, &b.nic_rate); /* not rated: nothing */
	assert_false(st.have_nicstats);
	assert_true(isnan(ps_step_nic_drops(&st)));
	ps_ethtool_rates(&a, &b, 1.0);
	ps_step_set_nic(&st, &b.nic_rate);
	assert_true(st.have_nicstats);
	assert_int_equal(st.nic_nrxq, 4);
	assert_int_equal(st.nic_ntxq, 4);
	assert_true(st.nic_txq_pps[3] == 1000);
	assert_true(st.nic_rxq_pps[0] == 0);
	assert_true(isnan(st.nic_rxq_pps[4]));
	/* rx_drops did not move: 0 drops/s, reported */
	assert_true(ps_step_nic_drops(&st) == 0);
	assert_true(isnan(st.nic_pause_rx));
	ps_ethtool_free(&a);
	ps_ethtool_free(&b);
}

/* the report carries the step's NIC numbers; the ring finding leads */
static void test_report(void **state)
{
	struct ps_host h;
	struct ps_iface_choice iface;
	struct ps_evidence ev;
	struct ps_diagnosis *d = calloc(1, sizeof(*d));
	struct ps_check_report rep = { 0 };
	static struct ps_run r;
	struct ps_ethtool_info *e, b;
	struct json_object *j, *st, *nic;
	char *buf = NULL, *dir;
	size_t len = 0;
	FILE *mem;

	(void)state;
	if (!have_machines_at("i40e-4cpu/sys"))
		skip();
	dir = machine("i40e-4cpu");
	ps_sysroot_set(dir);
	ps_iface_choose("eth0", NULL, &iface);
	assert_int_equal(ps_host_sample(&h, &iface, 0), 0);
	ps_sysroot_set(NULL);
	free(dir);
	e = &h.snap->ethtool;
	load("ethtool-S_ixgbe_eth3_cn-blog.txt", &e->nic);
	e->rings.status = PS_ST_OK;
	e->rings.rx = e->rings.tx = 512;
	e->rings.rx_max = e->rings.tx_max = 4096;
	memset(&r, 0, sizeof(r));
	r.nsteps = 1;
	snprintf(r.steps[0].id, sizeof(r.steps[0].id), "sweep");
	r.steps[0].state = PS_STEP_DONE;
	r.steps[0].streams = 4;
	r.steps[0].seconds = 2;
	r.steps[0].bps = 9.1e9;
	ps_ethtool_init(&b, "eth0");
	b.nic = e->nic;
	b.nic.drops[PS_NIC_RX][PS_NIC_MISSED] += 3000;
	ps_ethtool_rates(e, &b, 2.0);
	ps_step_set_nic(&r.steps[0], &b.nic_rate);
	ps_host_evidence(&h, &r, &ev);
	ps_diagnose(&ev, d);
	rep.ev = &ev;
	rep.d = d;
	j = ps_check_report_json(&rep);
	st = json_object_array_get_idx(json_object_object_get(j, "steps"), 0);
	nic = json_object_object_get(st, "nic");
	assert_non_null(nic);
	assert_true(json_object_get_double(json_object_object_get(
			    json_object_object_get(nic, "drops_per_s"),
			    "rx_missed")) == 1500);
	assert_int_equal(json_object_array_length(
				 json_object_object_get(nic, "rx_queue_pps")),
			 0);
	json_object_put(j);
	mem = open_memstream(&buf, &len);
	ps_check_report_print(mem, PS_FORMAT_TEXT, &rep);
	fclose(mem);
	assert_non_null(strstr(buf, "; drops: NIC ring 1500/s"));
	/* the drops grew: retransmits are not "reordering, not loss" */
	assert_true(ps_step_drops_grew(&r.steps[0]));
	assert_non_null(strstr(buf, "drops 1500 packets/s"));
	free(buf);
	ps_ethtool_free(&b);
	ps_host_free(&h);
	free(d);
}

/* the standard statistics fill a drop class the driver leaves out */
static void test_std_merge(void **state)
{
	struct ps_ethtool_info e;
	struct ps_eth_counter v[2] = {
		{ "eth-mac", "FramesReceivedOK", 339 },
		{ "eth-mac", "FramesLostDueToIntMACRcvError", 12 },
	};

	(void)state;
	ps_ethtool_init(&e, "eth9");
	e.std_stats.status = PS_ST_OK;
	e.std_stats.v = v;
	e.std_stats.n = 2;
	ps_ethtool_nic_merge_std(&e);
	assert_true(e.nic.valid);
	assert_true(e.nic.drops[PS_NIC_RX][PS_NIC_FIFO] == 12);
	assert_true(e.nic.drops[PS_NIC_TX][PS_NIC_FIFO] == PS_NA);
	/* the driver's rx_fifo_errors (0 here) wins */
	load("ethtool-S_ixgbe_82599ES_netdev2021.txt", &e.nic);
	ps_ethtool_nic_merge_std(&e);
	assert_true(e.nic.drops[PS_NIC_RX][PS_NIC_FIFO] == 0);
	e.std_stats.v = NULL;
	e.std_stats.n = 0;
	ps_ethtool_free(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drivers),
		cmocka_unit_test(test_queue_values),
		cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_check_imbalance),
		cmocka_unit_test(test_check_rss_table),
		cmocka_unit_test(test_check_ring_drops),
		cmocka_unit_test(test_check_pause),
		cmocka_unit_test(test_check_irq_lines),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_stats_text),
		cmocka_unit_test(test_step_nic),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_std_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
