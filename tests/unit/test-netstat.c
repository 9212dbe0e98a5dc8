/* test-netstat.c: the kernel-counter probe's parsers (/proc/net/snmp,
 * /proc/net/netstat, sockstat, tcp_mem) on outputs recorded on other
 * machines, hostile text, a recorded tree read through --sysroot, the
 * deltas and the JSON round trip */
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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "fixture.h"
#include "jsonutil.h"
#include "probe-netstat.h"
#include "sysroot.h"
#include "xmalloc.h"

static void parse_fixture(const char *name, struct ps_netstat_counters *c)
{
	struct ps_netstat_info info;
	char *text = counters_fixture(name);

	ps_netstat_init(&info);
	*c = info.c;
	assert_true(ps_netstat_parse(text, c) > 0);
	free(text);
}

static void test_snmp(void **state)
{
	struct ps_netstat_counters a, b, d;

	(void)state;
	parse_fixture("proc-net-snmp_netutils_snap1.txt", &a);
	assert_true(a.ip_in_hdr_errors == 64);
	assert_true(a.ip_in_discards == 0);
	assert_true(a.tcp_retrans_segs == 133674663);
	assert_true(a.tcp_out_segs == 16338441124LL);
	assert_true(a.udp_in_errors == 76);
	/* not in /proc/net/snmp: netstat's */
	assert_true(a.tcp_timeouts == PS_NA);
	parse_fixture("proc-net-snmp_netutils_snap2.txt", &b);
	ps_netstat_diff(&a, &b, &d);
	assert_true(d.tcp_retrans_segs == 133674769 - 133674663);
	assert_true(d.tcp_out_segs == 16338454400LL - 16338441124LL);
	assert_true(d.tcp_timeouts == PS_NA);
	/* a counter that went back (a reset, another host) is no delta */
	ps_netstat_diff(&b, &a, &d);
	assert_true(d.tcp_retrans_segs == PS_NA);
}

static void test_udp_grep(void **state)
{
	struct ps_netstat_counters c;

	(void)state;
	/* Udp lines only, a shell prompt line before them */
	parse_fixture("proc-net-snmp_Udp-grep_vector-syslog.txt", &c);
	assert_true(c.udp_in_errors == 145418581);
	assert_true(c.udp_rcvbuf_errors == 143350293);
	assert_true(c.udp_in_csum_errors == 0);
	assert_true(c.ip_in_discards == PS_NA);
	/* two snapshots in one file, an old kernel without InCsumErrors:
	 * the first pair counts */
	parse_fixture("proc-net-snmp_Udp-grep_carbon-relay_2snaps.txt", &c);
	assert_true(c.udp_in_errors == 58326748);
	assert_true(c.udp_rcvbuf_errors == 77046);
	assert_true(c.udp_in_csum_errors == PS_NA);
}

static void test_netstat(void **state)
{
	struct ps_netstat_counters c;

	(void)state;
	parse_fixture("proc-net-netstat_procfs.txt", &c);
	assert_true(c.tcp_rcvq_drop == 92425);
	assert_true(c.tcp_backlog_drop == 6);
	assert_true(c.tcp_memory_pressures == 7);
	assert_true(c.tcp_dsack_recv == 2421);
	assert_true(c.tcp_loss_probes == 32);
	parse_fixture("proc-net-netstat_dynport-metrix.txt", &c);
	assert_true(c.tcp_prune_called == 210);
	assert_true(c.tcp_timeouts == 1213);
	assert_true(c.tcp_backlog_drop == 10);
	/* a 3.x kernel: no loss probes, no TCPRcvQDrop */
	assert_true(c.tcp_loss_probes == PS_NA);
	assert_true(c.tcp_rcvq_drop == PS_NA);
	parse_fixture("proc-net-netstat_mackerel-plugin.txt", &c);
	assert_true(c.tcp_loss_probes == 818);
	assert_true(c.tcp_timeouts == 61);
	parse_fixture("proc-net-netstat_melisai_SYNTHETIC.txt", &c);
	assert_true(c.tcp_prune_called == 42);
	parse_fixture("proc-net-netstat_node_exporter.txt", &c);
	assert_true(c.tcp_timeouts == 115);
	parse_fixture("proc-net-snmp_procfs.txt", &c);
	parse_fixture("proc-net-snmp_node_exporter.txt", &c);
	assert_true(c.tcp_retrans_segs == 227);
}

static void test_sockstat(void **state)
{
	struct ps_netstat_info info;
	char *text;

	(void)state;
	ps_netstat_init(&info);
	text = counters_fixture("proc-net-sockstat_procfs.txt");
	assert_int_equal(ps_sockstat_parse(text, &info.sock), 7);
	free(text);
	assert_true(info.sock.tcp_inuse == 35 && info.sock.tcp_tw == 4 &&
		    info.sock.tcp_alloc == 59 && info.sock.tcp_mem == 22);
	assert_true(info.sock.udp_inuse == 12 && info.sock.udp_mem == 62);
	/* tcp_mem, sockstat and tcp_max_orphans in one file: sockstat's
	 * lines are found among the others */
	ps_netstat_init(&info);
	text = counters_fixture(
		"sockstat_tcp_mem_orphans-over-limit_geekgao.txt");
	assert_true(ps_sockstat_parse(text, &info.sock) > 0);
	free(text);
	assert_true(info.sock.tcp_mem == 22016);
	assert_true(info.sock.tcp_orphan == 65738);
	assert_int_equal(
		ps_tcp_mem_parse("21180   28243   42360\n", &info.sock), 0);
	assert_true(info.sock.tcp_mem_low == 21180 &&
		    info.sock.tcp_mem_pressure == 28243 &&
		    info.sock.tcp_mem_high == 42360);
	assert_int_equal(ps_tcp_mem_parse("1 2\n", &info.sock), -EINVAL);
	assert_int_equal(ps_tcp_mem_parse("1 2 x\n", &info.sock), -EINVAL);
	assert_int_equal(ps_tcp_mem_parse(NULL, &info.sock), -EINVAL);
	/* sockstat6 has TCP6:, not TCP: */
	ps_netstat_init(&info);
	assert_int_equal(ps_sockstat_parse("TCP6: inuse 3\n", &info.sock),
			 -EINVAL);
}

/* what cannot be trusted: nothing set, no crash, no overread */
static void test_hostile(void **state)
{
	struct ps_netstat_info info;
	char *text, *big;
	size_t n = 0;

	(void)state;
	ps_netstat_init(&info);
	assert_int_equal(ps_netstat_parse(NULL, &info.c), -EINVAL);
	assert_int_equal(ps_netstat_parse("", &info.c), -EINVAL);
	/* counts that differ: the pair is skipped whole */
	assert_int_equal(ps_netstat_parse("Udp: InErrors RcvbufErrors\n"
					  "Udp: 5\n",
					  &info.c),
			 -EINVAL);
	assert_true(info.c.udp_in_errors == PS_NA);
	/* a value that is no number, or too long for one */
	assert_int_equal(ps_netstat_parse("Udp: InErrors\nUdp: 5x\n", &info.c),
			 -EINVAL);
	assert_int_equal(
		ps_netstat_parse(
			"Udp: InErrors\nUdp: 99999999999999999999999\n",
			&info.c),
		-EINVAL);
	/* a header without values, values of another section */
	assert_int_equal(ps_netstat_parse("Udp: InErrors\nIp: 5\n", &info.c),
			 -EINVAL);
	/* negative: not a counter */
	assert_int_equal(ps_netstat_parse("Udp: InErrors\nUdp: -3\n", &info.c),
			 0);
	assert_true(info.c.udp_in_errors == PS_NA);
	/* "netstat -s" is prose, not pairs */
	text = counters_fixture("netstat-s_cn-note_collapsed-34M_ofodrop.txt");
	assert_int_equal(ps_netstat_parse(text, &info.c), -EINVAL);
	free(text);
	/* more columns than the bound */
	big = xmalloc(2 * 4 * 600 + 32);
	n += (size_t)sprintf(big + n, "Udp:");
	for (int i = 0; i < 600; i++)
		n += (size_t)sprintf(big + n, " A");
	n += (size_t)sprintf(big + n, "\nUdp:");
	for (int i = 0; i < 600; i++)
		n += (size_t)sprintf(big + n, " 1");
	assert_int_equal(ps_netstat_parse(big, &info.c), -EINVAL);
	free(big);
	/* a section name too long, a line without a colon */
	assert_int_equal(
		ps_netstat_parse(
			"Uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuudp: "
			"InErrors\nUuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu"
			"uuudp: 1\n",
			&info.c),
		-EINVAL);
}

static void put(const char *dir, const char *rel, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* a recorded tree read through the sysroot layer, and the JSON round trip
 * of what it gave */
static void test_sysroot(void **state)
{
	char dir[] = "/tmp/ps-netstat-XXXXXX", path[4200];
	struct ps_netstat_info a, b, c;
	struct json_object *o;
	char *text;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/net", dir);
	mkdir(path, 0755);
	/* nothing there: not recorded, no counter */
	ps_sysroot_set(dir);
	assert_int_equal(ps_netstat_sample("", &a), 0);
	assert_int_equal(a.status, PS_ST_NOT_RECORDED);
	text = counters_fixture("proc-net-snmp_netutils_snap1.txt");
	ps_sysroot_set(dir);
	put(dir, "proc/net/snmp", text);
	free(text);
	text = counters_fixture("proc-net-netstat_procfs.txt");
	ps_sysroot_set(dir);
	put(dir, "proc/net/netstat", text);
	free(text);
	put(dir, "proc/net/sockstat",
	    "TCP: inuse 1 orphan 0 tw 2 alloc 3 "
	    "mem 4\nUDP: inuse 5 mem 6\n");
	assert_int_equal(ps_netstat_sample("", &a), 0);
	assert_int_equal(a.status, PS_ST_OK);
	assert_true(a.c.tcp_retrans_segs == 133674663);
	assert_true(a.c.tcp_rcvq_drop == 92425);
	assert_true(a.sock.udp_mem == 6);
	assert_true(a.sock.tcp_mem_high == PS_NA); /* no tcp_mem recorded */
	assert_non_null(strstr(a.reason, "tcp_mem"));
	/* rates from a second reading */
	b = a;
	b.c.udp_rcvbuf_errors = a.c.udp_rcvbuf_errors + 50;
	ps_netstat_rates(&a, &b, 2.0);
	assert_true(b.rated);
	assert_true(fabs(b.r.udp_rcvbuf_errors - 25.0) < 1e-9);
	assert_true(b.r.tcp_retrans_segs == 0);
	assert_true(isnan(b.r.tcp_lost_retransmit) ||
		    b.r.tcp_lost_retransmit == 0);
	/* JSON and back */
	o = ps_netstat_to_json(&b);
	assert_int_equal(ps_netstat_from_json(o, &c), 0);
	json_object_put(o);
	assert_int_equal(c.status, PS_ST_OK);
	assert_true(c.rated);
	assert_true(c.c.tcp_retrans_segs == b.c.tcp_retrans_segs);
	assert_true(c.c.udp_rcvbuf_errors == b.c.udp_rcvbuf_errors);
	assert_true(c.c.tcp_timeouts == b.c.tcp_timeouts);
	assert_true(fabs(c.r.udp_rcvbuf_errors - 25.0) < 1e-9);
	assert_true(c.sock.tcp_alloc == 3);
	assert_true(c.sock.tcp_mem_high == PS_NA);
	/* a hostile peer's section: wrong types and negatives are dropped */
	o = json_tokener_parse("{\"status\":\"ok\",\"counters\":{"
			       "\"udp_in_errors\":-5,\"udp_rcvbuf_errors\":"
			       "\"x\",\"tcp_timeouts\":7},\"rates\":{"
			       "\"udp_in_errors\":-1}}");
	assert_non_null(o);
	assert_int_equal(ps_netstat_from_json(o, &c), 0);
	json_object_put(o);
	assert_true(c.c.udp_in_errors == PS_NA);
	assert_true(c.c.udp_rcvbuf_errors == PS_NA);
	assert_true(c.c.tcp_timeouts == 7);
	assert_false(c.rated);
	ps_sysroot_set(NULL);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/* the live namespace: this kernel has the counters */
static void test_live(void **state)
{
	struct ps_netstat_info a;

	(void)state;
	ps_sysroot_set(NULL);
	if (access("/proc/net/snmp", R_OK))
		skip();
	assert_int_equal(ps_netstat_sample("", &a), 0);
	assert_int_equal(a.status, PS_ST_OK);
	assert_true(a.c.udp_in_errors >= 0);
	assert_true(a.c.tcp_out_segs >= 0);
	assert_true(a.c.ip_in_receives >= 0);
}

/* the Drops view's layers from the one list of drop counters: a layer is
 * its counters summed; UdpInErrors holds the buffer's drops, so the UDP
 * errors' layer is the rest */
static void test_layers(void **state)
{
	struct ps_netstat_info n;

	(void)state;
	ps_netstat_init(&n);
	assert_int_equal(ps_netstat_layer_count(&n.c, PS_DROP_IP), PS_NA);
	n.c.ip_in_discards = 5;
	n.c.ip_in_hdr_errors = 2;
	n.c.udp_in_errors = 120;
	n.c.udp_rcvbuf_errors = 100;
	n.c.tcp_ofo_drop = 3;
	n.c.tcp_rcvq_drop = 4;
	assert_int_equal(ps_netstat_layer_count(&n.c, PS_DROP_IP), 7);
	assert_int_equal(ps_netstat_layer_count(&n.c, PS_DROP_UDP_BUF), 100);
	assert_int_equal(ps_netstat_layer_count(&n.c, PS_DROP_UDP_ERR), 20);
	assert_int_equal(ps_netstat_layer_count(&n.c, PS_DROP_TCP_OFO), 7);
	assert_int_equal(ps_netstat_layer_count(&n.c, PS_DROP_TCP_PRUNE),
			 PS_NA);
	/* rates: only from a rated sample */
	assert_true(isnan(ps_netstat_layer_rate(&n, PS_DROP_UDP_BUF)));
	n.status = PS_ST_OK;
	n.rated = true;
	n.r.udp_in_errors = 12.5;
	n.r.udp_rcvbuf_errors = 10;
	assert_true(fabs(ps_netstat_layer_rate(&n, PS_DROP_UDP_ERR) - 2.5) <
		    1e-9);
	assert_true(fabs(ps_netstat_layer_rate(&n, PS_DROP_UDP_BUF) - 10) <
		    1e-9);
	assert_true(isnan(ps_netstat_layer_rate(&n, PS_DROP_TCP_PRUNE)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snmp),	cmocka_unit_test(test_udp_grep),
		cmocka_unit_test(test_netstat), cmocka_unit_test(test_sockstat),
		cmocka_unit_test(test_hostile), cmocka_unit_test(test_sysroot),
		cmocka_unit_test(test_layers),	cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
