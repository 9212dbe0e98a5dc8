/* test-check-drops.c: the drop checks (UDP loss by where it happened, TCP
 * memory pressure and pruning), the retransmit causes, and the step's
 * kernel-counter deltas of both ends, on hand-built steps and on counters
 * recorded on other machines */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "check.h"
#include "fixture.h"
#include "jsonutil.h"
#include "step.h"
#include "sysroot.h"
#include "xmalloc.h"

static enum ps_check_state run(const struct ps_check_ops *ops,
			       const struct ps_evidence *ev,
			       struct ps_finding *f)
{
	memset(f, 0, sizeof(*f));
	f->id = ops->id;
	return ops->eval(ev, f);
}

/* every counter of the step's deltas "not reported" */
static void no_counters(struct ps_netstat_counters *c)
{
	struct ps_netstat_info i;

	ps_netstat_init(&i);
	*c = i.c;
}

/* a finished UDP step: sent datagrams, lost by the receiver's count */
static struct ps_step_result *udp_step(struct ps_run *r, int64_t sent,
				       int64_t lost, bool reverse)
{
	struct ps_step_result *s = &r->steps[r->nsteps++];

	memset(s, 0, sizeof(*s));
	snprintf(s->id, sizeof(s->id), "udp");
	s->state = PS_STEP_DONE;
	s->streams = 1;
	s->reverse = reverse;
	s->seconds = 2;
	s->udp = true;
	s->udp_sent = sent;
	s->udp_lost = lost;
	no_counters(&s->netstat);
	no_counters(&s->peer_netstat);
	return s;
}

static void test_udp_split(void **state)
{
	struct ps_run r = { 0 };
	struct ps_evidence ev = { .res = &r };
	struct ps_step_result *s;
	struct ps_finding f;

	(void)state;
	assert_int_equal(run(&ps_check_udp_loss, &ev, &f), PS_CHECK_NA);
	/* 4.1% lost, the far end's socket buffer dropped 3.9% */
	s = udp_step(&r, 100000, 4100, false);
	assert_int_equal(run(&ps_check_udp_loss, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.title, "not known"));
	assert_non_null(strstr(f.remedy, "pipescope -s"));
	s->have_peer_netstat = true;
	s->peer_netstat.udp_rcvbuf_errors = 3900;
	s->peer_netstat.udp_in_errors = 3900;
	s->peer_netstat.ip_in_discards = 0;
	assert_int_equal(run(&ps_check_udp_loss, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_BOTTLENECK);
	assert_non_null(strstr(f.title, "Of 4.1% lost, 3.9% were dropped by "
					"the receiver's socket buffer "
					"(UdpRcvbufErrors +3900, far end)"));
	assert_true(f.far); /* the report's end too */
	assert_non_null(strstr(f.evidence, "the rest (0.20%) on the path"));
	assert_non_null(strstr(f.remedy, "-w"));
	assert_non_null(strstr(f.remedy, "rmem_max"));
	assert_true(ps_fact_get(&f, "udp_rcvbuf_errors") == 3900);
	assert_true(fabs(ps_fact_get(&f, "udp_loss_share") - 0.041) < 1e-9);
	assert_true(fabs(ps_fact_get(&f, "rcvbuf_share") - 0.039) < 1e-9);
	/* this end's counters do not speak for a forward test's receiver */
	s->have_peer_netstat = false;
	s->have_netstat = true;
	s->netstat = s->peer_netstat;
	assert_int_equal(run(&ps_check_udp_loss, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.title, "not known"));
	/* the far end on a loopback address shares this namespace */
	snprintf(r.peer, sizeof(r.peer), "127.0.0.1");
	assert_int_equal(run(&ps_check_udp_loss, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.title, "this end"));
	assert_false(f.far);
	r.peer[0] = 0;
	/* with -R this end receives */
	s->reverse = true;
	assert_int_equal(run(&ps_check_udp_loss, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.title, "this end"));
	assert_non_null(strstr(f.remedy, "with -R"));
	/* the receiver's kernel counted nothing: the path or the NIC */
	s->netstat.udp_rcvbuf_errors = 0;
	s->netstat.udp_in_errors = 0;
	assert_int_equal(run(&ps_check_udp_loss, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_WARNING);
	assert_non_null(strstr(f.title, "on the path or the NIC"));
	assert_non_null(strstr(f.remedy, "ethtool -S"));
	/* namespace-wide counters above the loss are capped by it */
	s->netstat.udp_rcvbuf_errors = 1000000;
	assert_int_equal(run(&ps_check_udp_loss, &ev, &f), PS_CHECK_FIRED);
	assert_true(fabs(ps_fact_get(&f, "rcvbuf_share") - 0.041) < 1e-9);
	/* GRO: the kernel counted 339 buffers of about 45 datagrams each
	 * (a veth test at 2 Gbit/s into a 16K buffer) */
	s->udp_sent = 357255;
	s->udp_lost = 15255;
	s->netstat.udp_rcvbuf_errors = 339;
	s->netstat.udp_in_errors = 339;
	s->netstat.udp_in_datagrams = 7601;
	assert_int_equal(run(&ps_check_udp_loss, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_BOTTLENECK);
	assert_non_null(strstr(f.title, "(UdpRcvbufErrors +339, this end)"));
	assert_non_null(strstr(f.evidence, "about 45 datagrams (GRO)"));
	/* nothing lost */
	s->udp_lost = 0;
	assert_int_equal(run(&ps_check_udp_loss, &ev, &f), PS_CHECK_CLEAR);
}

/* recorded: a host whose UDP receive errors grew by 1240 in 5 s while
 * RcvbufErrors stayed (carbon-relay): not the socket buffer */
static void test_udp_recorded(void **state)
{
	struct ps_run r = { 0 };
	struct ps_evidence ev = { .res = &r };
	struct ps_netstat_counters a, b;
	struct ps_step_result *s;
	struct ps_finding f;
	char *text = counters_fixture(
		"proc-net-snmp_Udp-grep_carbon-relay_2snaps.txt");
	char *second = strstr(text, "seconds later");

	(void)state;
	assert_non_null(second);
	no_counters(&a);
	no_counters(&b);
	assert_true(ps_netstat_parse(text, &a) > 0);
	assert_true(ps_netstat_parse(second, &b) > 0);
	free(text);
	s = udp_step(&r, 125000, 1240, true);
	s->have_netstat = true;
	ps_netstat_diff(&a, &b, &s->netstat);
	assert_true(s->netstat.udp_in_errors == 1240);
	assert_int_equal(run(&ps_check_udp_loss, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.title, "on the path or the NIC"));
	assert_non_null(strstr(f.evidence, "1240 UDP receive errors"));
	assert_true(ps_fact_get(&f, "udp_rcvbuf_errors") == 0);
	/* vector-syslog: RcvbufErrors is most of InErrors, the finding
	 * names the buffer with the counter's value */
	text = counters_fixture("proc-net-snmp_Udp-grep_vector-syslog.txt");
	no_counters(&b);
	assert_true(ps_netstat_parse(text, &b) > 0);
	free(text);
	no_counters(&a);
	a.udp_rcvbuf_errors = b.udp_rcvbuf_errors - 40000;
	a.udp_in_errors = b.udp_in_errors - 41000;
	ps_netstat_diff(&a, &b, &s->netstat);
	s->udp_sent = 1000000;
	s->udp_lost = 41000;
	assert_int_equal(run(&ps_check_udp_loss, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.title, "UdpRcvbufErrors +40000"));
}

static void test_tcp_memory(void **state)
{
	struct ps_run r = { 0 };
	struct ps_snapshot snap;
	struct ps_evidence ev = { .res = &r, .snap = &snap };
	struct ps_step_result *s;
	struct ps_finding f;

	(void)state;
	memset(&snap, 0, sizeof(snap));
	ps_netstat_init(&snap.netstat);
	assert_int_equal(run(&ps_check_tcp_memory, &ev, &f), PS_CHECK_NA);
	/* static: sockstat above the pressure threshold (recorded numbers:
	 * 22016 pages used of tcp_mem 21180 28243 42360 would be below) */
	snap.netstat.status = PS_ST_OK;
	snap.netstat.sock.tcp_mem = 22016;
	snap.netstat.sock.tcp_mem_low = 21180;
	snap.netstat.sock.tcp_mem_pressure = 28243;
	snap.netstat.sock.tcp_mem_high = 42360;
	assert_int_equal(run(&ps_check_tcp_memory, &ev, &f), PS_CHECK_CLEAR);
	snap.netstat.sock.tcp_mem = 30000;
	assert_int_equal(run(&ps_check_tcp_memory, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.title, "30000 of 28243 pages"));
	assert_false(f.far);
	snap.netstat.sock.tcp_mem = 22016;
	/* a test whose far end pruned its receive queues */
	s = udp_step(&r, 1, 0, false);
	s->udp = false;
	s->have_netstat = s->have_peer_netstat = true;
	s->netstat.tcp_rcv_pruned = 0;
	s->peer_netstat.tcp_prune_called = 3;
	s->peer_netstat.tcp_rcv_pruned = 120;
	s->peer_netstat.tcp_memory_pressures = 2;
	assert_int_equal(run(&ps_check_tcp_memory, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_WARNING);
	assert_non_null(strstr(f.title, "the far end"));
	assert_non_null(strstr(f.title, "2 memory-pressure events, 120 "
					"segments pruned"));
	assert_true(f.far);
	assert_true(ps_fact_get(&f, "tcp_rcv_pruned") == 120);
	assert_non_null(strstr(f.remedy, "tcp_rmem"));
	/* a hostile far end's numbers: past 2^48 not known (never told),
	 * no sum wraps (UBSan) */
	s->peer_netstat.tcp_rcv_pruned = INT64_MAX;
	s->peer_netstat.tcp_memory_pressures = INT64_MAX;
	s->peer_netstat.tcp_ofo_drop = INT64_MAX;
	s->peer_netstat.tcp_rcvq_drop = INT64_MAX;
	s->peer_netstat.tcp_backlog_drop = INT64_MAX;
	assert_int_equal(run(&ps_check_tcp_memory, &ev, &f), PS_CHECK_FIRED);
	assert_true(ps_fact_get(&f, "tcp_rcv_pruned") == 0);
	assert_null(strstr(f.title, "9223372036854775807"));
	assert_null(strstr(f.title, "281474976710656"));
	assert_false(ps_step_drops_grew(s));
	s->peer_netstat.tcp_ofo_drop = (int64_t)1 << 48;
	assert_true(ps_step_drops_grew(s));
	s->peer_netstat.tcp_ofo_drop = 0;
	s->peer_netstat.tcp_rcvq_drop = 0;
	s->peer_netstat.tcp_backlog_drop = 0;
	/* nothing grew */
	s->peer_netstat.tcp_prune_called = 0;
	s->peer_netstat.tcp_rcv_pruned = 0;
	s->peer_netstat.tcp_memory_pressures = 0;
	assert_int_equal(run(&ps_check_tcp_memory, &ev, &f), PS_CHECK_CLEAR);
}

static void test_retrans_causes(void **state)
{
	struct ps_run r = { 0 };
	struct ps_link_info l;
	struct ps_evidence ev = { .res = &r, .link = &l };
	struct ps_step_result *s;
	struct ps_finding f;

	(void)state;
	memset(&l, 0, sizeof(l));
	l.status = PS_ST_OK;
	strcpy(l.kind, "veth");
	strcpy(l.ifname, "veth0");
	s = udp_step(&r, 0, 0, false);
	s->udp = false;
	s->have_tcpinfo = true;
	s->mss = 1448;
	s->bytes = 1448ull * 100000;
	s->retrans = 2000; /* 2% */
	/* a software path, no counters: reordering, as before */
	assert_int_equal(run(&ps_check_retrans, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.title, "reordering, not loss"));
	/* the same with the far end's backlog dropping: not reordering */
	s->have_netstat = s->have_peer_netstat = true;
	s->netstat.tcp_timeouts = 3;
	s->netstat.tcp_fast_retrans = 1900;
	s->netstat.tcp_loss_probes = 40;
	s->netstat.tcp_dsack_recv = 0;
	s->peer_netstat.tcp_backlog_drop = 1800;
	assert_true(ps_step_drops_grew(s));
	assert_int_equal(run(&ps_check_retrans, &ev, &f), PS_CHECK_FIRED);
	assert_null(strstr(f.title, "reordering"));
	assert_non_null(strstr(f.title, "far end: TCPBacklogDrop +1800"));
	assert_non_null(
		strstr(f.evidence, "3 timeouts, 1900 fast retransmits"));
	assert_non_null(strstr(f.evidence, "40 tail-loss probes"));
	assert_true(ps_fact_get(&f, "tcp_fast_retrans") == 1900);
	assert_true(ps_fact_get(&f, "drops_grew") == 1);
	/* other sockets' UDP drops say nothing of a TCP test */
	s->peer_netstat.tcp_backlog_drop = 0;
	s->netstat.udp_rcvbuf_errors = 5000;
	assert_false(ps_step_drops_grew(s));
	s->udp = true;
	assert_true(ps_step_drops_grew(s));
	s->udp = false;
	s->netstat.udp_rcvbuf_errors = 0;
	/* no drop anywhere: reordering again */
	s->peer_netstat.tcp_backlog_drop = 0;
	assert_false(ps_step_drops_grew(s));
	assert_int_equal(run(&ps_check_retrans, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.title, "reordering, not loss"));
	/* this end's softirq backlog dropping is a drop too */
	s->have_irq = true;
	s->softnet_drop_rate = 50;
	assert_true(ps_step_drops_grew(s));
	s->have_irq = false;
	/* a physical NIC: DSACKs and reordering without drops */
	strcpy(l.kind, "");
	l.physical = true;
	s->netstat.tcp_dsack_recv = 1500;
	s->netstat.tcp_sack_reorder = 300;
	assert_int_equal(run(&ps_check_retrans, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.title, "reordering, not loss"));
	assert_non_null(strstr(f.remedy, "tcp_reordering"));
	/* timeouts dominate, nothing undone: loss of unknown place */
	s->netstat.tcp_dsack_recv = 0;
	s->netstat.tcp_sack_reorder = 0;
	s->netstat.tcp_timeouts = 1500;
	s->netstat.tcp_fast_retrans = 400;
	assert_int_equal(run(&ps_check_retrans, &ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.title, "mostly after timeouts (1500)"));
	/* with -R the far end sends: its counters are the causes */
	s->reverse = true;
	s->peer_netstat.tcp_timeouts = 7;
	assert_int_equal(run(&ps_check_retrans, &ev, &f), PS_CHECK_FIRED);
	assert_true(ps_fact_get(&f, "tcp_timeouts") == 7);
}

/* recorded: a host whose syslog receiver's buffers overflowed (vector),
 * read through a recorded tree: a finding from the fixture alone; the
 * same host with rates (now) is a warning */
static void test_udp_buffers_recorded(void **state)
{
	char dir[] = "/tmp/ps-udpbuf-XXXXXX", path[4200];
	struct ps_snapshot snap;
	struct ps_evidence ev = { .snap = &snap };
	struct ps_finding f;
	char *text =
		counters_fixture("proc-net-snmp_Udp-grep_vector-syslog.txt");
	FILE *out;

	(void)state;
	memset(&snap, 0, sizeof(snap));
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/net", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/net/snmp", dir);
	out = fopen(path, "w");
	assert_non_null(out);
	fputs(text, out);
	fclose(out);
	free(text);
	ps_sysroot_set(dir);
	assert_int_equal(ps_netstat_sample("", &snap.netstat), 0);
	ps_sysroot_set(NULL);
	assert_int_equal(run(&ps_check_udp_buffers, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_INFO);
	/* 143350293 of 653277009 + 143350293 */
	assert_non_null(strstr(f.title, "17.99% of the datagrams since boot "
					"(UdpRcvbufErrors 143350293)"));
	assert_non_null(strstr(f.remedy, "ss -uamp"));
	snap.netstat.rated = true;
	snap.netstat.r.udp_rcvbuf_errors = 1200;
	assert_int_equal(run(&ps_check_udp_buffers, &ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_WARNING);
	assert_non_null(strstr(f.title, "overflowing now: 1200 drops/s"));
	/* a quiet host (procfs fixture: no RcvbufErrors) */
	ps_netstat_init(&snap.netstat);
	snap.netstat.status = PS_ST_OK;
	text = counters_fixture("proc-net-snmp_procfs.txt");
	assert_true(ps_netstat_parse(text, &snap.netstat.c) > 0);
	free(text);
	assert_int_equal(run(&ps_check_udp_buffers, &ev, &f), PS_CHECK_CLEAR);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

/* the step's deltas: this end from two readings, the far end from the
 * first and last of its snapshots (an omitted interval's is the base) */
static void test_step_deltas(void **state)
{
	struct ps_step_result s;
	struct ps_netstat_info a, b;
	struct ps_step_peer p;
	struct ps_snapshot s0, s1, s2, s3;

	(void)state;
	memset(&s, 0, sizeof(s));
	ps_netstat_init(&a);
	a.status = PS_ST_OK;
	a.c.udp_rcvbuf_errors = 10;
	b = a;
	b.c.udp_rcvbuf_errors = 25;
	ps_step_set_netstat(&s, &a, &b);
	assert_true(s.have_netstat);
	assert_true(s.netstat.udp_rcvbuf_errors == 15);
	assert_true(s.netstat.tcp_timeouts == PS_NA);

	memset(&p, 0, sizeof(p));
	memset(&s, 0, sizeof(s));
	memset(&s0, 0, sizeof(s0));
	s0.netstat = a;
	s0.hdr.time_ns = 1000000000;
	s1 = s0;
	s1.netstat.c.udp_rcvbuf_errors = 100;
	s1.hdr.time_ns = 2000000000;
	s2 = s1;
	s2.netstat.c.udp_rcvbuf_errors = 400;
	s2.hdr.time_ns = 3000000000;
	s3 = s2;
	s3.netstat.c.udp_rcvbuf_errors = 450;
	s3.hdr.time_ns = 3500000000;
	/* s0 omitted, s1 the base of the step too (a later omitted one) */
	ps_step_peer_netstat(&p, &s0, true);
	ps_step_peer_netstat(&p, &s1, true);
	ps_step_peer_add(&p, &s2);
	ps_step_peer_netstat(&p, &s3, false); /* the summary's */
	ps_step_peer_netstat(&p, &s1, false); /* older: ignored */
	ps_step_peer_finish(&p, &s);
	assert_true(s.have_peer_netstat);
	assert_true(s.peer_netstat.udp_rcvbuf_errors == 350);
	assert_true(fabs(s.peer_netstat_s - 1.5) < 1e-9);
	ps_step_peer_free(&p);
	/* one reading only: no delta */
	memset(&s, 0, sizeof(s));
	ps_step_peer_add(&p, &s2);
	ps_step_peer_finish(&p, &s);
	assert_false(s.have_peer_netstat);
	ps_step_peer_free(&p);

	/* a far end whose counter grew 2^50 in a 1 s step (past what any
	 * host counts), another that went backwards: not known, the rest
	 * kept; its readings an hour apart by its clock: none of them */
	for (int k = 0; k < 2; k++) {
		memset(&p, 0, sizeof(p));
		memset(&s, 0, sizeof(s));
		s.seconds = 1;
		s1 = s0;
		s1.hdr.time_ns = s0.hdr.time_ns + (k ? 3600 : 1) * 1000000000LL;
		s0.netstat.c.tcp_timeouts = 7;
		s1.netstat.c.tcp_timeouts = 3;
		s1.netstat.c.udp_rcvbuf_errors += (int64_t)1 << 50;
		s0.netstat.c.udp_in_errors = 100;
		s1.netstat.c.udp_in_errors = 105;
		ps_step_peer_netstat(&p, &s0, true);
		ps_step_peer_netstat(&p, &s1, false);
		ps_step_peer_finish(&p, &s);
		assert_int_equal(s.have_peer_netstat, !k);
		if (!k) {
			assert_true(s.peer_netstat.udp_rcvbuf_errors == PS_NA);
			assert_true(s.peer_netstat.tcp_timeouts == PS_NA);
			assert_true(s.peer_netstat.udp_in_errors == 5);
		}
		ps_step_peer_free(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_udp_split),
		cmocka_unit_test(test_udp_recorded),
		cmocka_unit_test(test_tcp_memory),
		cmocka_unit_test(test_udp_buffers_recorded),
		cmocka_unit_test(test_retrans_causes),
		cmocka_unit_test(test_step_deltas),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
