/* test-nic.c: the driver's counters read by name (probes/nic-counters.c)
 * on recorded "ethtool -S" outputs of many drivers (tests/fixtures/
 * counters, each file's first line names its source), their rates, and
 * the NIC checks that read them (src/check/check-nic.c) */
#include "config.h"

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
#include "nic-counters.h"
#include "probe-ethtool.h"

#ifndef PS_TOP_SRCDIR
#define PS_TOP_SRCDIR "."
#endif

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drivers),
		cmocka_unit_test(test_queue_values),
		cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_rates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
