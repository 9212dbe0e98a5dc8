/* test-platform.c: the platform probe (SMT, idle states, IOMMU) on the
 * recorded Skylake-SP tree and on hostile text, its JSON round trip, the
 * checks it feeds (iommu, cstates, smt) and the clock under load
 * (busy_clock) from a session's readings */
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
#include <json-c/json.h>

#include "ceiling.h"
#include "check.h"
#include "fixture.h"
#include "probe-pci.h"
#include "probe-platform.h"
#include "session.h"
#include "snapshot.h"
#include "sysroot.h"
#include "xmalloc.h"

static void test_iommu_args(void **state)
{
	char out[160];

	(void)state;
	ps_platform_iommu_args("BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro "
			       "intel_iommu=on iommu=pt quiet",
			       out, sizeof(out));
	assert_string_equal(out, "intel_iommu=on iommu=pt");
	/* unknown keys, bare words, control characters and long values are
	 * not kept; a key must match whole */
	ps_platform_iommu_args(
		"myiommu=on iommu iommu=\x1b[31m "
		"amd_iommu=off\tiommu.passthrough=1\n"
		"iommu.strict=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		out, sizeof(out));
	assert_string_equal(out, "amd_iommu=off iommu.passthrough=1");
	/* a small buffer ends at a whole word */
	ps_platform_iommu_args("intel_iommu=on iommu=pt", out, 18);
	assert_string_equal(out, "intel_iommu=on");
	ps_platform_iommu_args(NULL, out, sizeof(out));
	assert_string_equal(out, "");
}

static void test_iommu_mode(void **state)
{
	struct ps_platform_info p;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.iommu_status = PS_ST_OK;
	p.iommu_groups = 40;
	/* the group's own type decides, whatever the command line says */
	strcpy(p.iommu_args, "intel_iommu=on iommu=pt");
	strcpy(p.nic_domain, "DMA");
	assert_string_equal(ps_platform_iommu_mode(&p), "translated");
	strcpy(p.nic_domain, "identity");
	assert_string_equal(ps_platform_iommu_mode(&p), "passthrough");
	/* without it: the words, and groups for an IOMMU being there */
	p.nic_domain[0] = 0;
	assert_string_equal(ps_platform_iommu_mode(&p), "passthrough");
	strcpy(p.iommu_args, "intel_iommu=on");
	assert_string_equal(ps_platform_iommu_mode(&p), "translated");
	strcpy(p.iommu_args, "iommu.passthrough=1 amd_iommu=on");
	assert_string_equal(ps_platform_iommu_mode(&p), "passthrough");
	p.iommu_args[0] = 0;
	assert_string_equal(ps_platform_iommu_mode(&p), "");
	p.iommu_groups = 0;
	assert_string_equal(ps_platform_iommu_mode(&p), "off");
	p.iommu_status = PS_ST_NOT_RECORDED;
	assert_string_equal(ps_platform_iommu_mode(&p), "");
}

static void sample_skx(struct ps_snapshot *s)
{
	ps_sysroot_set(machine_or_skip("platform-skx"));
	assert_int_equal(ps_platform_sample("eth0", &s->platform), 0);
	assert_int_equal(ps_cpu_sample("eth0", &s->cpu), 0);
	ps_sysroot_set(NULL);
}

static void test_recorded_tree(void **state)
{
	struct ps_snapshot s = { 0 }, back = { 0 };
	struct json_object *j;
	long deepest;

	(void)state;
	sample_skx(&s);
	assert_int_equal(s.platform.smt_status, PS_ST_OK);
	assert_true(s.platform.smt_active);
	assert_string_equal(s.platform.smt_control, "on");
	assert_string_equal(s.platform.idle_driver, "intel_idle");
	assert_int_equal(s.platform.nstates, 4);
	assert_string_equal(s.platform.states[3].name, "C6");
	assert_int_equal(s.platform.states[3].latency_us, 133);
	assert_int_equal(ps_platform_deep_states(&s.platform, 10, &deepest), 1);
	assert_int_equal(deepest, 133);
	assert_int_equal(ps_platform_deep_states(&s.platform, 1, &deepest), 3);
	assert_string_equal(s.platform.iommu_args, "intel_iommu=on");
	assert_int_equal(s.platform.iommu_groups, 40);
	assert_string_equal(s.platform.nic_domain, "DMA-FQ");
	assert_int_equal(s.cpu.cores[0].max_khz, 3700000);
	assert_int_equal(s.cpu.cores[0].cur_khz, 1200000);
	/* the JSON round trip keeps every reading */
	j = ps_platform_to_json(&s.platform);
	assert_int_equal(ps_platform_from_json(j, &back.platform), 0);
	json_object_put(j);
	assert_memory_equal(&back.platform, &s.platform, sizeof(s.platform));
	ps_cpu_free(&s.cpu);
}

static void test_hostile_json(void **state)
{
	struct ps_platform_info p;
	struct json_object *j = json_tokener_parse(
		"{\"status\":\"ok\",\"smt\":{\"status\":\"ok\",\"active\":true,"
		"\"control\":\"on\\u001b[2J\"},\"idle\":{\"status\":\"ok\","
		"\"driver\":\"x\\ny\",\"states\":[{\"name\":\"C6\\u001b\","
		"\"latency_us\":5,\"disabled\":false}]},\"iommu\":{\"status\":"
		"\"ok\",\"cmdline\":\"intel_iommu=on\\u001b[0m evil=1\","
		"\"groups\":3,\"nic_domain\":\"DMA\\r\"}}");

	(void)state;
	assert_non_null(j);
	assert_int_equal(ps_platform_from_json(j, &p), 0);
	json_object_put(j);
	assert_true(p.smt_active);
	assert_string_equal(p.smt_control, "");
	assert_string_equal(p.idle_driver, "");
	assert_string_equal(p.states[0].name, "state0");
	assert_string_equal(p.iommu_args, "");
	assert_string_equal(p.nic_domain, "");
	assert_int_equal(p.iommu_groups, 3);
	/* not an object: not recorded, nothing else */
	assert_int_not_equal(ps_platform_from_json(NULL, &p), 0);
	assert_int_equal(p.iommu_status, PS_ST_NOT_RECORDED);
}

static const struct ps_outcome *find(const struct ps_diagnosis *d,
				     const char *id)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->out[i].ops->id, id) && !d->out[i].far_end)
			return &d->out[i];
	return NULL;
}

static void test_checks_on_tree(void **state)
{
	struct ps_snapshot s = { 0 };
	struct ps_evidence ev;
	struct ps_diagnosis *d = xcalloc(1, sizeof(*d));
	const struct ps_outcome *o;

	(void)state;
	sample_skx(&s);
	ps_evidence_of(&s, NULL, &ev);
	ps_diagnose(&ev, d);
	o = find(d, "iommu");
	assert_non_null(o);
	assert_int_equal(o->state, PS_CHECK_FIRED);
	assert_int_equal(o->f.severity, PS_SEV_WARNING);
	assert_non_null(strstr(o->f.evidence, "DMA-FQ"));
	assert_non_null(strstr(o->f.remedy, "iommu=pt"));
	o = find(d, "cstates");
	assert_int_equal(o->state, PS_CHECK_FIRED);
	assert_int_equal(o->f.severity, PS_SEV_INFO);
	assert_true(ps_fact_get(&o->f, "deepest_latency") == 133);
	o = find(d, "smt");
	assert_int_equal(o->state, PS_CHECK_FIRED);
	assert_int_equal(o->f.severity, PS_SEV_INFO);
	/* the clock under load needs a test */
	o = find(d, "busy_clock");
	assert_int_equal(o->state, PS_CHECK_NA);
	/* passed through, disabled deep states, SMT off: all clear */
	strcpy(s.platform.nic_domain, "identity");
	s.platform.states[3].disabled = true;
	s.platform.smt_active = false;
	ps_diagnose(&ev, d);
	assert_int_equal(find(d, "iommu")->state, PS_CHECK_CLEAR);
	assert_int_equal(find(d, "cstates")->state, PS_CHECK_CLEAR);
	assert_int_equal(find(d, "smt")->state, PS_CHECK_CLEAR);
	ps_cpu_free(&s.cpu);
	free(d);
}

/* a reading of 2 cores at busy% with the clocks given, its rates over
 * the second before it */
static struct ps_snapshot *reading(int64_t t_ms, double busy0, long khz0,
				   double busy1, long khz1)
{
	struct ps_snapshot *s = ps_snapshot_new();
	struct ps_cpu_info *c = &s->cpu;

	s->hdr.mono_ns = t_ms * 1000000LL;
	c->status = PS_ST_OK;
	c->basis = PS_CPU_BASIS_INTERVAL;
	c->ncores = 2;
	c->cores = xcalloc(2, sizeof(*c->cores));
	for (int i = 0; i < 2; i++) {
		c->cores[i].id = i;
		c->cores[i].pct_valid = true;
		c->cores[i].busy_pct = i ? busy1 : busy0;
		c->cores[i].cur_khz = i ? khz1 : khz0;
		c->cores[i].max_khz = 3000000;
	}
	return s;
}

static void test_busy_clock(void **state)
{
	struct ps_session sess;
	struct ps_test_info info = { .parallel = 1 };
	struct ps_run run = { 0 };
	struct ps_evidence ev;
	struct ps_snapshot *r[3];
	struct ps_finding f;
	const struct ps_check_ops *ops = ps_check_find("busy_clock");

	(void)state;
	assert_non_null(ops);
	ps_session_init(&sess);
	sess.begin_ns = 0;
	ps_session_begin(&sess, &info);
	sess.begin_ns = 0;
	/* the base, then two readings of the test: the busy cores at 1.5
	 * and 1.2 GHz of 3; the idle core's 0.8 GHz does not count */
	r[0] = reading(1000, 5, 800000, 5, 800000);
	r[1] = reading(2000, 90, 1500000, 10, 800000);
	r[2] = reading(3000, 95, 1200000, 60, 1800000);
	for (int i = 0; i < 3; i++)
		assert_true(ps_session_local(&sess, r[i]));
	run.nsteps = 1;
	ps_session_step(&sess, &run.steps[0]);
	assert_int_equal(run.steps[0].freq_samples, 3);
	assert_true(fabs(run.steps[0].freq_ratio - (0.5 + 0.4 + 0.6) / 3) <
		    1e-9);
	assert_true(fabs(run.steps[0].freq_ratio_min - 0.4) < 1e-9);
	run.steps[0].state = PS_STEP_DONE;
	memset(&ev, 0, sizeof(ev));
	ev.snap = r[2];
	ev.res = &run;
	memset(&f, 0, sizeof(f));
	assert_int_equal(ops->eval(&ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_WARNING);
	assert_non_null(strstr(f.title, "50%"));
	/* at full clock: clear */
	run.steps[0].freq_ratio = 0.97;
	memset(&f, 0, sizeof(f));
	assert_int_equal(ops->eval(&ev, &f), PS_CHECK_CLEAR);
	/* no busy core with a clock: not known */
	run.steps[0].freq_samples = 0;
	memset(&f, 0, sizeof(f));
	assert_int_equal(ops->eval(&ev, &f), PS_CHECK_NA);
	ps_step_result_free(&run.steps[0]);
	ps_session_free(&sess);
	for (int i = 0; i < 3; i++)
		ps_snapshot_put(r[i]);
}

static void set_sysctl(struct ps_snapshot *s, enum ps_sysctl_id id, long long a,
		       long long b, long long c)
{
	s->sysctl.val[id].status = PS_ST_OK;
	s->sysctl.val[id].v[0] = a;
	s->sysctl.val[id].v[1] = b;
	s->sysctl.val[id].v[2] = c;
}

static void test_buffers_table(void **state)
{
	struct ps_snapshot *s = ps_snapshot_new();
	struct ps_ethtool_info *eth = xcalloc(1, sizeof(*eth));
	struct ps_evidence ev;
	struct ps_finding f;
	const struct ps_check_ops *ops = ps_check_find("buffers_table");

	(void)state;
	assert_non_null(ops);
	s->sysctl.status = PS_ST_OK;
	/* Debian's defaults: rmem_max 208 KiB, tcp_rmem max 6 MiB */
	set_sysctl(s, PS_SYSCTL_RMEM_MAX, 212992, 0, 0);
	set_sysctl(s, PS_SYSCTL_WMEM_MAX, 268435456, 0, 0);
	set_sysctl(s, PS_SYSCTL_TCP_RMEM, 4096, 131072, 6291456);
	set_sysctl(s, PS_SYSCTL_TCP_WMEM, 4096, 16384, 4194304);
	ps_evidence_of(s, NULL, &ev);
	/* no line rate: nothing to size by */
	memset(&f, 0, sizeof(f));
	assert_int_equal(ops->eval(&ev, &f), PS_CHECK_NA);
	eth->linkmodes.status = PS_ST_OK;
	eth->linkmodes.speed_bps = 25000000000LL;
	ev.eth = eth;
	memset(&f, 0, sizeof(f));
	assert_int_equal(ops->eval(&ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_INFO);
	/* 25G: the 10G row, 256 MiB and 128 MiB; wmem_max is at it */
	assert_true(ps_fact_get(&f, "table_core_max") == 268435456.0);
	assert_non_null(strstr(f.title, "3 socket buffer limits"));
	assert_non_null(strstr(f.remedy, "net.core.rmem_max=268435456"));
	assert_null(strstr(f.remedy, "wmem_max"));
	/* the triple keeps its min and default, only the max is raised */
	assert_non_null(strstr(f.remedy, "tcp_rmem=\"4096 131072 134217728\""));
	/* at 100G the 40G row */
	eth->linkmodes.speed_bps = 100000000000LL;
	memset(&f, 0, sizeof(f));
	assert_int_equal(ops->eval(&ev, &f), PS_CHECK_FIRED);
	assert_true(ps_fact_get(&f, "table_core_max") == 536870912.0);
	/* set as the table says: clear */
	set_sysctl(s, PS_SYSCTL_RMEM_MAX, 536870912, 0, 0);
	set_sysctl(s, PS_SYSCTL_WMEM_MAX, 536870912, 0, 0);
	set_sysctl(s, PS_SYSCTL_TCP_RMEM, 4096, 131072, 268435456);
	set_sysctl(s, PS_SYSCTL_TCP_WMEM, 4096, 16384, 268435456);
	memset(&f, 0, sizeof(f));
	assert_int_equal(ops->eval(&ev, &f), PS_CHECK_CLEAR);
	free(eth);
	ps_snapshot_put(s);
}

static void test_pcie_payload(void **state)
{
	struct ps_pci_info pci;
	struct ps_evidence ev;
	struct ps_finding f;
	const struct ps_check_ops *ops = ps_check_find("pcie_payload");

	(void)state;
	assert_non_null(ops);
	memset(&ev, 0, sizeof(ev));
	memset(&pci, 0, sizeof(pci));
	ev.pci = &pci;
	pci.payload_status = PS_ST_NEEDS_ROOT;
	memset(&f, 0, sizeof(f));
	assert_int_equal(ops->eval(&ev, &f), PS_CHECK_NA);
	/* the common 256-byte payload and 512-byte reads: clear */
	strcpy(pci.bdf, "0000:01:00.0");
	pci.payload_status = PS_ST_OK;
	pci.mps = 256;
	pci.mps_cap = 512;
	pci.mrrs = 512;
	memset(&f, 0, sizeof(f));
	assert_int_equal(ops->eval(&ev, &f), PS_CHECK_CLEAR);
	/* 128 of 512 supported: 84% of each write is payload, 96% at 512 */
	pci.mps = 128;
	memset(&f, 0, sizeof(f));
	assert_int_equal(ops->eval(&ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_INFO);
	assert_non_null(strstr(f.evidence, "84% of each write"));
	assert_non_null(strstr(f.evidence, "at 512 bytes it would be 96%"));
	/* reads of 256 bytes are small whatever the payload */
	pci.mps = 256;
	pci.mrrs = 256;
	memset(&f, 0, sizeof(f));
	assert_int_equal(ops->eval(&ev, &f), PS_CHECK_FIRED);
	assert_true(ps_fact_get(&f, "max_read_request") == 256);
	assert_non_null(strstr(f.remedy, "MaxReadReq 4096"));
}

static void test_nic_features(void **state)
{
	struct ps_snapshot *s = ps_snapshot_new();
	struct ps_ethtool_info *eth = xcalloc(1, sizeof(*eth));
	struct ps_eth_feature feat[2] = { { .name = "rx-ntuple-filter" },
					  { .name = "tx-nocache-copy",
					    .active = true } };
	struct ps_irq_rxq rxq[2] = { { .index = 0, .rps_on = true },
				     { .index = 1, .rps_on = true } };
	struct ps_evidence ev;
	struct ps_finding f;
	const struct ps_check_ops *rfs = ps_check_find("rfs"),
				  *tun = ps_check_find("nic_tuning");

	(void)state;
	assert_non_null(rfs);
	assert_non_null(tun);
	s->sysctl.status = PS_ST_OK;
	set_sysctl(s, PS_SYSCTL_RPS_SOCK_FLOW_ENTRIES, 0, 0, 0);
	ps_evidence_of(s, NULL, &ev);
	s->irq.queues_status = PS_ST_OK;
	s->irq.rxq = rxq;
	s->irq.nrxq = 2;
	eth->features.status = PS_ST_OK;
	eth->features.v = feat;
	eth->features.n = 2;
	eth->linkmodes.status = PS_ST_OK;
	eth->linkmodes.speed_bps = 100000000000LL;
	ev.eth = eth;
	/* RPS on both queues, no flow table: RPS without RFS */
	memset(&f, 0, sizeof(f));
	assert_int_equal(rfs->eval(&ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.remedy, "rps_sock_flow_entries=32768"));
	/* RFS on, ntuple off: aRFS */
	set_sysctl(s, PS_SYSCTL_RPS_SOCK_FLOW_ENTRIES, 32768, 0, 0);
	rxq[0].rps_flow_cnt = rxq[1].rps_flow_cnt = 16384;
	memset(&f, 0, sizeof(f));
	assert_int_equal(rfs->eval(&ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.remedy, "ntuple on"));
	feat[0].active = true;
	memset(&f, 0, sizeof(f));
	assert_int_equal(rfs->eval(&ev, &f), PS_CHECK_CLEAR);
	/* a 100G NIC at 64 KB GSO/GRO, tx-nocache-copy on, txqueuelen 500 */
	s->link.status = PS_ST_OK;
	s->link.physical = true;
	s->link.gso_max_size = s->link.gro_max_size = 65536;
	s->link.txqlen = 500;
	memset(&f, 0, sizeof(f));
	assert_int_equal(tun->eval(&ev, &f), PS_CHECK_FIRED);
	assert_non_null(strstr(f.title, "3 settings"));
	assert_non_null(strstr(f.remedy, "gso_max_size 185000"));
	assert_non_null(strstr(f.remedy, "tx-nocache-copy off"));
	assert_non_null(strstr(f.remedy, "txqueuelen 10000"));
	/* as the guides say: clear */
	s->link.gso_max_size = s->link.gro_max_size = 185000;
	s->link.txqlen = 1000;
	feat[1].active = false;
	memset(&f, 0, sizeof(f));
	assert_int_equal(tun->eval(&ev, &f), PS_CHECK_CLEAR);
	s->irq.rxq = NULL;
	s->irq.nrxq = 0;
	free(eth);
	ps_snapshot_put(s);
}

/* XPS, NAPI deferral, busy polling: each told, clear when as the docs
 * say */
static void test_queue_tuning(void **state)
{
	struct ps_snapshot *s = ps_snapshot_new();
	struct ps_irq_txq txq[2] = { { .index = 0 }, { .index = 1 } };
	struct ps_evidence ev;
	struct ps_finding f;
	const struct ps_check_ops *ops = ps_check_find("queue_tuning");

	(void)state;
	assert_non_null(ops);
	s->sysctl.status = PS_ST_OK;
	set_sysctl(s, PS_SYSCTL_BUSY_READ, 0, 0, 0);
	set_sysctl(s, PS_SYSCTL_BUSY_POLL, 0, 0, 0);
	ps_evidence_of(s, NULL, &ev);
	memset(&f, 0, sizeof(f));
	assert_int_equal(ops->eval(&ev, &f), PS_CHECK_NA);
	s->irq.queues_status = PS_ST_OK;
	s->irq.txq = txq;
	s->irq.ntxq = 2;
	s->irq.napi_defer_hard_irqs = 2;
	s->irq.gro_flush_timeout = 0;
	set_sysctl(s, PS_SYSCTL_BUSY_READ, 50, 0, 0);
	memset(&f, 0, sizeof(f));
	assert_int_equal(ops->eval(&ev, &f), PS_CHECK_FIRED);
	assert_int_equal(f.severity, PS_SEV_INFO);
	assert_non_null(strstr(f.title, "no XPS, NAPI deferral without a "
					"flush timer, busy polling on"));
	assert_non_null(strstr(f.evidence, "XPS on 0 of 2"));
	assert_non_null(strstr(f.evidence, "busy_read 50"));
	assert_non_null(strstr(f.remedy, "gro_flush_timeout"));
	/* XPS on one queue, the timer set, no busy polling: clear */
	txq[1].xps_on = true;
	s->irq.gro_flush_timeout = 20000;
	set_sysctl(s, PS_SYSCTL_BUSY_READ, 0, 0, 0);
	memset(&f, 0, sizeof(f));
	assert_int_equal(ops->eval(&ev, &f), PS_CHECK_CLEAR);
	/* one queue: no XPS is no finding */
	txq[1].xps_on = false;
	s->irq.ntxq = 1;
	memset(&f, 0, sizeof(f));
	assert_int_equal(ops->eval(&ev, &f), PS_CHECK_CLEAR);
	s->irq.txq = NULL;
	s->irq.ntxq = 0;
	ps_snapshot_put(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iommu_args),
		cmocka_unit_test(test_iommu_mode),
		cmocka_unit_test(test_recorded_tree),
		cmocka_unit_test(test_hostile_json),
		cmocka_unit_test(test_checks_on_tree),
		cmocka_unit_test(test_busy_clock),
		cmocka_unit_test(test_buffers_table),
		cmocka_unit_test(test_pcie_payload),
		cmocka_unit_test(test_nic_features),
		cmocka_unit_test(test_queue_tuning),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
