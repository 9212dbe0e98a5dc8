/* test-link.c: the link probe's RTM_NEWLINK parser on replies recorded from
 * this kernel (tests/fixtures/netlink/), its rates from two samples, the
 * device-chain text and the JSON round trip */
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
#include <sys/stat.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "fixture.h"
#include "probe-ethtool.h"
#include "probe-link.h"
#include "sysroot.h"

static void parse_dir(const char *dir, const char *ifname,
		      struct ps_link_info *info)
{
	size_t len;
	char *buf = netlink_fixture(dir, "link", &len);

	ps_link_init(info, ifname);
	assert_int_equal(ps_link_parse(buf, len, info), 0);
	free(buf);
}

static void test_veth(void **state)
{
	struct ps_link_info a;

	parse_dir("veth", "vA", &a);
	assert_int_equal(a.status, PS_ST_OK);
	assert_string_equal(a.ifname, "vA");
	assert_string_equal(a.kind, "veth");
	assert_string_equal(a.operstate, "up");
	assert_true(a.admin_up);
	assert_int_equal(a.mtu, 1500);
	assert_int_equal(a.txqlen, 1000);
	/* veth gets one queue per CPU: the recording VM had 2 */
	assert_int_equal(a.num_rx_queues, 2);
	assert_int_equal(a.num_tx_queues, 2);
	assert_int_equal(a.gso_max_size, 65536);
	assert_int_equal(a.gso_max_segs, 65535);
	assert_int_equal(a.gro_max_size, 65536);
	assert_int_equal(a.counters.status, PS_ST_OK);
	ps_link_free(&a);

	parse_dir("veth-tuned", "vA", &a);
	assert_int_equal(a.mtu, 9000);
	ps_link_free(&a);
}

static void test_lo(void **state)
{
	struct ps_link_info a;

	parse_dir("lo", "lo", &a);
	assert_int_equal(a.status, PS_ST_OK);
	assert_int_equal(a.ifindex, 1);
	assert_int_equal(a.mtu, 65536);
	assert_string_equal(a.kind, "");
	assert_string_equal(a.qdisc, "noqueue");
	/* lo carried traffic before the recording */
	assert_true(a.counters.c.rx_packets > 0);
	assert_true(a.counters.c.rx_bytes == a.counters.c.tx_bytes);
	ps_link_free(&a);
}

static void test_absent_and_odd(void **state)
{
	struct ps_link_info a;
	size_t len;
	char *buf;

	parse_dir("absent", "nosuch0", &a);
	assert_int_equal(a.status, PS_ST_ABSENT);
	assert_non_null(strstr(a.reason, "nosuch0"));
	assert_int_equal(a.counters.status, PS_ST_ABSENT);
	assert_int_equal(a.mtu, PS_LINK_NA);

	buf = netlink_fixture("veth", "link", &len);
	ps_link_init(&a, "vA");
	assert_int_equal(ps_link_parse(buf, len / 2, &a), -EBADMSG);
	assert_int_equal(a.status, PS_ST_ERROR);
	assert_int_equal(ps_link_parse(buf, 10, &a), -EBADMSG);
	assert_int_equal(ps_link_parse(NULL, 0, &a), -EBADMSG);
	/* a header that claims less than an ifinfomsg */
	((struct nlmsghdr *)buf)->nlmsg_len = NLMSG_LENGTH(4);
	assert_int_equal(ps_link_parse(buf, len, &a), -EBADMSG);
	free(buf);
	ps_link_free(&a);
}

static void test_rates(void **state)
{
	struct ps_link_info p, c;

	ps_link_init(&p, "x");
	ps_link_init(&c, "x");
	p.counters.status = c.counters.status = PS_ST_OK;
	p.counters.c.rx_bytes = 1000;
	c.counters.c.rx_bytes = 1000 + 125000000; /* 1 Gbit in 1 s */
	p.counters.c.tx_packets = 10;
	c.counters.c.tx_packets = 2010;
	p.counters.c.rx_dropped = 5;
	c.counters.c.rx_dropped = 9;
	c.counters.c.rx_missed = 2;
	c.counters.c.tx_bytes = 0; /* counter reset: no rate */
	p.counters.c.tx_bytes = 99999;
	ps_link_rates(&p, &c, 2.0);
	assert_true(c.rates.valid);
	assert_true(c.rates.rx_bps == 5e8);
	assert_true(c.rates.tx_pps == 1000.0);
	assert_true(c.rates.rx_drops_ps == 3.0);
	assert_true(c.rates.tx_bps == 0.0);

	ps_link_rates(&p, &c, 0);
	assert_false(c.rates.valid);
	p.counters.status = PS_ST_ABSENT;
	ps_link_rates(&p, &c, 1.0);
	assert_false(c.rates.valid);
}

static void test_chain(void **state)
{
	struct ps_link_lower low[] = {
		{ "bond0", "bond", 1, false },
		{ "eth0", "", 2, true },
		{ "eth1", "", 2, true },
	};
	struct ps_link_info a;
	char buf[128];

	ps_link_init(&a, "vlan100");
	ps_link_chain_text(&a, buf, sizeof(buf), false);
	assert_string_equal(buf, "vlan100");
	a.lower.v = low;
	a.lower.n = 3;
	ps_link_chain_text(&a, buf, sizeof(buf), false);
	assert_string_equal(buf, "vlan100 -> bond0 -> eth0, eth1");
	ps_link_chain_text(&a, buf, sizeof(buf), true);
	assert_string_equal(buf, "vlan100 \u2192 bond0 \u2192 eth0, eth1");
	ps_link_chain_text(&a, buf, 12, false);
	assert_string_equal(buf, "vlan100 -> ");
}

static void test_json_roundtrip(void **state)
{
	static const char *const dirs[] = { "lo", "veth", "veth-tuned",
					    "absent" };
	struct ps_link_info a, b;
	struct json_object *j1, *j2;

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		parse_dir(dirs[d], "vA", &a);
		a.lower.status = PS_ST_OK;
		a.lower.n = 1;
		a.lower.v = calloc(1, sizeof(*a.lower.v));
		strcpy(a.lower.v[0].name, "eth7");
		a.lower.v[0].depth = 1;
		a.lower.v[0].physical = true;
		a.rates.valid = true;
		a.rates.seconds = 1;
		a.rates.rx_bps = 12345.5;
		j1 = ps_link_to_json(&a);
		assert_int_equal(ps_link_from_json(j1, &b), 0);
		j2 = ps_link_to_json(&b);
		assert_true(json_object_equal(j1, j2));
		assert_int_equal(a.mtu, b.mtu);
		assert_true(a.counters.c.rx_bytes == b.counters.c.rx_bytes);
		assert_string_equal(b.lower.v[0].name, "eth7");
		assert_true(b.rates.valid && b.rates.rx_bps == 12345.5);
		json_object_put(j1);
		json_object_put(j2);
		/* no rates before a second sample: no "rates", none loaded */
		a.rates.valid = false;
		j1 = ps_link_to_json(&a);
		assert_false(json_object_object_get_ex(j1, "rates", NULL));
		ps_link_free(&b);
		assert_int_equal(ps_link_from_json(j1, &b), 0);
		assert_false(b.rates.valid);
		json_object_put(j1);
		ps_link_free(&a);
		ps_link_free(&b);
	}
	assert_int_equal(ps_link_from_json(NULL, &b), -EINVAL);
}

static void test_print(void **state)
{
	struct ps_link_info a;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	parse_dir("veth-tuned", "vA", &a);
	a.lower.status = PS_ST_OK;
	ps_link_print(f, &a);
	fclose(f);
	assert_non_null(strstr(text, "Interface vA (link)"));
	assert_non_null(strstr(text, "9000"));
	assert_non_null(strstr(text, "kind:                  veth"));
	assert_non_null(strstr(text, "device chain:          vA"));
	/* the lines of the table (link_table's labels), as before it */
	assert_non_null(strstr(text, "Interface vA (link)\n"
				     "  state:                 up\n"
				     "  kind:                  veth\n"
				     "  MTU:                   9000\n"
				     "  qdisc:                 noqueue\n"
				     "  txqueuelen:            1000\n"
				     "  RX queues:             2\n"
				     "  TX queues:             2\n"
				     "  gso_max_size:          65536\n"
				     "  gso_max_segs:          65535\n"
				     "  gro_max_size:          65536\n"
				     "  device chain:          vA\n"));
	free(text);
	/* not reported: n/a; no kind: no line; no qdisc: none */
	a.mtu = PS_LINK_NA;
	a.kind[0] = 0;
	a.qdisc[0] = 0;
	a.admin_up = false;
	text = NULL;
	f = open_memstream(&text, &len);
	ps_link_print(f, &a);
	fclose(f);
	assert_non_null(strstr(text, "  state:                 up "
				     "(administratively down)\n"
				     "  MTU:                   n/a\n"
				     "  qdisc:                 none\n"));
	free(text);
	ps_link_free(&a);
}

static void parse_link(const char *p, size_t n, void *arg)
{
	struct ps_link_info a;

	ps_link_init(&a, "x");
	ps_link_parse(p, n, &a);
	ps_link_free(&a);
}

/* every prefix and flipped bytes of the recorded replies: no crash */
static void test_prefixes_and_flips(void **state)
{
	static const char *const dirs[] = { "lo", "veth", "veth-tuned",
					    "absent", "virtio" };
	unsigned seed = 4242;

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		size_t len;
		char *buf = netlink_fixture(dirs[d], "link", &len);

		feed_mangled(buf, len, 1, 300, &seed, parse_link, NULL);
		free(buf);
	}
}

static void mkdirs(const char *root, const char *rel)
{
	char path[1024], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	assert_int_equal(mkdir(path, 0755), 0);
}

/* a recorded tree: vlan100 on bond0 on eth0 + eth1 (a loop back, too) */
static void test_sysroot_chain(void **state)
{
	char root[] = "/tmp/ps-test-link-XXXXXX";
	struct ps_link_info a;
	struct ps_ethtool_info e;
	char buf[128], cmd[256];

	assert_non_null(mkdtemp(root));
	mkdirs(root, "sys/class/net/vlan100/lower_bond0");
	mkdirs(root, "sys/class/net/bond0/lower_eth0");
	mkdirs(root, "sys/class/net/bond0/lower_eth1");
	mkdirs(root, "sys/class/net/eth0/device");
	mkdirs(root, "sys/class/net/eth1/device");
	mkdirs(root, "sys/class/net/eth1/lower_bond0"); /* a cycle */
	ps_sysroot_set(root);

	assert_int_equal(ps_link_sample("vlan100", &a), 0);
	assert_int_equal(a.status, PS_ST_NOT_RECORDED);
	assert_int_equal(a.counters.status, PS_ST_NOT_RECORDED);
	assert_int_equal(a.lower.status, PS_ST_OK);
	assert_false(a.physical);
	assert_int_equal(a.lower.n, 3);
	ps_link_chain_text(&a, buf, sizeof(buf), false);
	assert_string_equal(buf, "vlan100 -> bond0 -> eth0, eth1");
	assert_false(a.lower.v[0].physical);
	assert_true(a.lower.v[1].physical);
	assert_int_equal(a.lower.v[2].depth, 2);
	ps_link_free(&a);

	assert_int_equal(ps_link_sample("eth0", &a), 0);
	assert_true(a.physical);
	assert_int_equal(a.lower.n, 0);
	ps_link_free(&a);

	assert_int_equal(ps_link_sample("wlan7", &a), 0);
	assert_int_equal(a.lower.status, PS_ST_NOT_RECORDED);
	assert_non_null(strstr(a.lower.reason, "wlan7"));
	ps_link_free(&a);

	/* the ethtool probe has nothing to read in a tree */
	assert_int_equal(ps_ethtool_sample("eth0", &e), 0);
	assert_int_equal(e.status, PS_ST_NOT_RECORDED);
	assert_int_equal(e.features.status, PS_ST_NOT_RECORDED);
	ps_ethtool_free(&e);

	ps_sysroot_set(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_veth),
		cmocka_unit_test(test_lo),
		cmocka_unit_test(test_absent_and_odd),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_sysroot_chain),
		cmocka_unit_test(test_prefixes_and_flips),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
