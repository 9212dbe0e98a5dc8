/* test-irq.c: the IRQ probe's parsers (/proc/interrupts, /proc/softirqs,
 * softnet_stat, queue names, attribution) and its samples of the recorded
 * machines in tests/fixtures/machines */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "clock.h"
#include "probe-irq.h"
#include "sysroot.h"
#include "xmalloc.h"
#include "fixture.h"

/* the trees are not in the release tarball (tar would dereference their
 * symlinks): skip there, with the reason */
static bool have_machines(void)
{
	return have_machines_at("i40e-4cpu/sys");
}

static const struct ps_irq_row *row(const struct ps_irq_table *t, int irq)
{
	for (int i = 0; i < t->nrows; i++)
		if (t->rows[i].irq == irq)
			return &t->rows[i];
	return NULL;
}

static const struct ps_irq_row *named(const struct ps_irq_table *t,
				      const char *label)
{
	for (int i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i].label, label))
			return &t->rows[i];
	return NULL;
}

/* ---- /proc/interrupts ---------------------------------------------- */

static void test_interrupts_i40e(void **state)
{
	struct ps_irq_table t;
	const struct ps_irq_row *r;
	char *text;

	if (!have_machines())
		skip();
	text = slurp("i40e-4cpu", "proc/interrupts");
	assert_int_equal(ps_irq_parse_interrupts(text, &t), 0);
	assert_int_equal(t.ncol, 4);
	assert_int_equal(t.max_cpu, 3);
	r = row(&t, 33);
	assert_non_null(r);
	assert_int_equal(r->ncount, 4);
	assert_true(r->count[0] == 732696843ULL);
	assert_true(r->count[3] == 242948054ULL);
	assert_string_equal(r->chip, "IR-PCI-MSI-edge");
	assert_string_equal(r->hwirq, "");
	assert_string_equal(r->actions, "i40e-eth0-TxRx-0");
	/* a line without an action name */
	r = row(&t, 7);
	assert_non_null(r);
	assert_string_equal(r->actions, "");
	assert_true(r->count[0] == 17);
	/* named rows: NMI with 4 columns, ERR with one */
	r = named(&t, "NMI");
	assert_non_null(r);
	assert_int_equal(r->irq, -1);
	assert_int_equal(r->ncount, 4);
	assert_string_equal(r->actions, "Non-maskable interrupts");
	r = named(&t, "ERR");
	assert_non_null(r);
	assert_int_equal(r->ncount, 1);
	assert_true(r->count[0] == 17);
	ps_irq_table_free(&t);
	free(text);
}

static void test_interrupts_new_format(void **state)
{
	struct ps_irq_table t;
	const struct ps_irq_row *r;
	char *text;

	if (!have_machines())
		skip();
	text = slurp("virtio-2cpu", "proc/interrupts");
	assert_int_equal(ps_irq_parse_interrupts(text, &t), 0);
	assert_int_equal(t.ncol, 2);
	r = row(&t, 38);
	assert_non_null(r);
	assert_string_equal(r->chip, "PCI-MSIX-0000:00:03.0");
	assert_string_equal(r->hwirq, "1-edge");
	assert_string_equal(r->actions, "virtio2-input.0");
	assert_true(r->count[1] == 399);
	r = row(&t, 24);
	assert_string_equal(r->chip, "IO-APIC");
	assert_string_equal(r->actions, "ACPI:Ged");
	/* rows after the numbered ones with fewer columns */
	assert_non_null(named(&t, "PIW"));
	assert_int_equal(named(&t, "MIS")->ncount, 1);
	ps_irq_table_free(&t);
	free(text);
}

static void test_interrupts_shared_line(void **state)
{
	struct ps_irq_table t;
	const struct ps_irq_row *r;
	char *text;

	if (!have_machines())
		skip();
	text = slurp("ixgbe-12cpu-cpu0", "proc/interrupts");
	assert_int_equal(ps_irq_parse_interrupts(text, &t), 0);
	assert_int_equal(t.ncol, 12);
	r = row(&t, 18);
	assert_string_equal(r->actions, "ehci_hcd:usb1, uhci_hcd:usb6");
	assert_true(ps_irq_row_has_action(r, "ehci_hcd:usb1"));
	assert_true(ps_irq_row_has_action(r, "uhci_hcd:usb6"));
	assert_false(ps_irq_row_has_action(r, "ehci_hcd"));
	r = row(&t, 63);
	assert_true(r->count[0] == 3489881715ULL);
	/* leading blanks before named rows (" NMI:") */
	assert_non_null(named(&t, "LOC"));
	assert_true(named(&t, "LOC")->count[11] == 7033295);
	ps_irq_table_free(&t);
	free(text);
}

static void test_interrupts_offline_cpu(void **state)
{
	/* CPU2 offline: three columns for CPU0, CPU1, CPU3 */
	const char *text = "           CPU0       CPU1       CPU3\n"
			   " 40:         10         20         30  PCI-MSI "
			   "1-edge  eth0-TxRx-0\n"
			   " 41:          1          2          3  PCI-MSI "
			   "2-edge  eth0-TxRx-1, eth0-x\n"
			   "NMI:          0          0          0   "
			   "Non-maskable interrupts\n"
			   "ERR:          0\n";
	struct ps_irq_table t;

	assert_int_equal(ps_irq_parse_interrupts(text, &t), 0);
	assert_int_equal(t.ncol, 3);
	assert_int_equal(t.col_cpu[2], 3);
	assert_int_equal(t.max_cpu, 3);
	assert_int_equal(t.nrows, 4);
	assert_true(row(&t, 40)->count[2] == 30);
	assert_string_equal(row(&t, 41)->actions, "eth0-TxRx-1, eth0-x");
	ps_irq_table_free(&t);
}

static void test_interrupts_wide(void **state)
{
	struct ps_irq_table t;
	int64_t t0;
	char *text;
	double ms;

	if (!have_machines())
		skip();
	text = slurp("wide-256cpu", "proc/interrupts");
	t0 = ps_mono_ns();
	assert_int_equal(ps_irq_parse_interrupts(text, &t), 0);
	ms = (ps_mono_ns() - t0) / 1e6;
	fprintf(stderr, "256-CPU /proc/interrupts parsed in %.3f ms\n", ms);
	assert_int_equal(t.ncol, 256);
	assert_int_equal(t.max_cpu, 255);
	assert_int_equal(row(&t, 33)->ncount, 256);
	assert_true(row(&t, 33)->count[255] == 3796063);
	assert_true(row(&t, 33)->count[4] == 732696843ULL / 64);
	assert_string_equal(row(&t, 33)->actions, "i40e-eth0-TxRx-0");
	assert_int_equal(named(&t, "ERR")->ncount, 1);
	/* generous bound so a loaded CI machine does not flap */
	assert_true(ms < 100);
	ps_irq_table_free(&t);
	free(text);
}

static void test_interrupts_odd(void **state)
{
	struct ps_irq_table t;

	assert_int_equal(ps_irq_parse_interrupts("", &t), -EINVAL);
	assert_int_equal(ps_irq_parse_interrupts("\n\n", &t), -EINVAL);
	assert_int_equal(ps_irq_parse_interrupts("garbage here\n 1: 2\n", &t),
			 -EINVAL);
	assert_int_equal(ps_irq_parse_interrupts("CPU0 CPUx\n", &t), -EINVAL);
	/* header only */
	assert_int_equal(ps_irq_parse_interrupts("   CPU0  CPU1\n", &t), 0);
	assert_int_equal(t.nrows, 0);
	ps_irq_table_free(&t);
	/* truncated row, non-numeric count, a line without a colon, no
	 * final newline */
	assert_int_equal(
		ps_irq_parse_interrupts(
			"   CPU0  CPU1\n 5: 7\nnonsense\n 6: 1x 2 chip\n"
			" 9: 18446744073709551615 1 X 1-edge big",
			&t),
		0);
	assert_int_equal(t.nrows, 3);
	assert_int_equal(row(&t, 5)->ncount, 1);
	assert_int_equal(row(&t, 6)->ncount, 0);
	assert_true(row(&t, 9)->count[0] == UINT64_MAX);
	assert_string_equal(row(&t, 9)->actions, "big");
	ps_irq_table_free(&t);
}

/* ---- names --------------------------------------------------------- */

static void test_queue_names(void **state)
{
	static const struct {
		const char *action, *kind;
		int index;
	} cases[] = {
		{ "i40e-eth0-TxRx-3", "rxtx", 3 },
		{ "eth0-TxRx-12", "rxtx", 12 },
		{ "eth0-rx-2", "rx", 2 },
		{ "eth0-tx-1", "tx", 1 },
		{ "eth0-Tx-Rx-0", "rxtx", 0 },
		{ "ens192-rxtx-4", "rxtx", 4 },
		{ "virtio2-input.0", "rx", 0 },
		{ "virtio2-output.5", "tx", 5 },
		{ "mlx5_comp7@pci:0000:01:00.0", "rxtx", 7 },
		{ "gve-ntfy-blk3@pci:0000:00:04.0", "rxtx", 3 },
		/* not queues */
		{ "i40e-0000:01:00.0:fdir-TxRx-0", "", -1 },
		{ "i40e-0000:01:00.0:misc", "", -1 },
		{ "mlx5_async_eq@pci:0000:01:00.0", "", -1 },
		{ "virtio2-config", "", -1 },
		{ "eth0", "", -1 },
		{ "hpsa6-msix3", "", -1 },
		{ "", "", -1 },
		{ "eth0-TxRx-", "", -1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char kind[8];
		int ix;

		ps_irq_queue_of(cases[i].action, kind, sizeof(kind), &ix);
		assert_string_equal(kind, cases[i].kind);
		assert_int_equal(ix, cases[i].index);
	}
}

static void test_attribution_names(void **state)
{
	const char *bdf = "0000:01:00.0";

	/* fires */
	assert_true(ps_irq_action_matches("eth0-TxRx-0", "eth0", NULL, NULL));
	assert_true(
		ps_irq_action_matches("i40e-eth0-TxRx-0", "eth0", NULL, NULL));
	assert_true(ps_irq_action_matches("eth0", "eth0", NULL, NULL));
	assert_true(ps_irq_action_matches("mlx5_comp0@pci:0000:01:00.0", "x",
					  bdf, NULL));
	assert_true(ps_irq_action_matches("i40e-0000:01:00.0:misc", "x", bdf,
					  NULL));
	assert_true(ps_irq_action_matches("virtio2-input.0", "eth0", NULL,
					  "virtio2"));
	/* must not fire */
	assert_false(ps_irq_action_matches("eth10-TxRx-0", "eth1", NULL, NULL));
	assert_false(ps_irq_action_matches("eth1-TxRx-0", "eth10", NULL, NULL));
	assert_false(
		ps_irq_action_matches("i40e-eth10-TxRx-0", "eth1", NULL, NULL));
	assert_false(ps_irq_action_matches("mlx5_comp0@pci:0000:01:00.1", "x",
					   bdf, NULL));
	assert_false(ps_irq_action_matches("virtio20-input.0", "eth0", NULL,
					   "virtio2"));
	assert_false(
		ps_irq_action_matches("virtio2-input.0", "eth0", NULL, NULL));
	assert_false(
		ps_irq_action_matches("ehci_hcd:usb1", "eth0", bdf, "virtio2"));
	assert_false(ps_irq_action_matches("eth0", "", NULL, NULL));
}

/* ---- softirqs and softnet ------------------------------------------ */

static void test_softirqs(void **state)
{
	const char *text = "                    CPU0       CPU1       CPU2\n"
			   "          HI:          0          0          0\n"
			   "      NET_TX:          4          0          7\n"
			   "      NET_RX:        300        387          9\n"
			   "         RCU:      17539      18688          1\n";
	struct ps_softirq_counts s;

	assert_int_equal(ps_irq_parse_softirqs(text, &s), 0);
	assert_int_equal(s.ncpu, 3);
	assert_true(s.net_rx[1] == 387);
	assert_true(s.net_tx[2] == 7);
	free(s.net_rx);
	free(s.net_tx);
	free(s.present);
	/* odd: no NET rows, no header */
	assert_int_equal(ps_irq_parse_softirqs("   CPU0\n  HI: 0\n", &s),
			 -EINVAL);
	assert_int_equal(ps_irq_parse_softirqs("NET_RX: 1\n", &s), -EINVAL);
	assert_int_equal(ps_irq_parse_softirqs("", &s), -EINVAL);
}

static void test_softnet_10col(void **state)
{
	struct ps_softnet_table t;
	char *text;

	if (!have_machines())
		skip();
	text = slurp("softnet-squeeze", "proc/net/softnet_stat");
	assert_int_equal(ps_irq_parse_softnet(text, &t), 0);
	assert_int_equal(t.ncols, 10);
	assert_false(t.cpu_column);
	assert_int_equal(t.nrows, 8);
	assert_true(t.rows[0].processed == 0x1ba0fbc3);
	assert_true(t.rows[0].time_squeeze == 0x1b3);
	assert_true(t.rows[7].time_squeeze == 0xc3);
	assert_int_equal(t.rows[7].cpu, 7);
	free(t.rows);
	free(text);
}

static void test_softnet_cpu_column(void **state)
{
	/* 13 columns, CPU 2 offline: the third row is CPU 3 */
	const char *text13 = "0000000a 00000001 00000002 00000000 00000000 "
			     "00000000 00000000 00000000 00000000 00000000 "
			     "00000000 00000000 00000000\n"
			     "0000000b 00000000 00000000 00000000 00000000 "
			     "00000000 00000000 00000000 00000000 00000000 "
			     "00000000 00000000 00000001\n"
			     "0000000c 00000005 00000006 00000000 00000000 "
			     "00000000 00000000 00000000 00000000 00000000 "
			     "00000000 00000000 00000003\n";
	struct ps_softnet_table t;
	char *text;

	assert_int_equal(ps_irq_parse_softnet(text13, &t), 0);
	assert_int_equal(t.ncols, 13);
	assert_true(t.cpu_column);
	assert_int_equal(t.rows[2].cpu, 3);
	assert_true(t.rows[2].dropped == 5);
	free(t.rows);

	if (!have_machines())
		skip();
	text = slurp("virtio-2cpu", "proc/net/softnet_stat");
	assert_int_equal(ps_irq_parse_softnet(text, &t), 0);
	assert_int_equal(t.ncols, 15);
	assert_true(t.cpu_column);
	assert_int_equal(t.rows[1].cpu, 1);
	assert_true(t.rows[1].processed == 0x0082e731);
	free(t.rows);
	free(text);
}

static void test_softnet_odd(void **state)
{
	struct ps_softnet_table t;

	assert_int_equal(ps_irq_parse_softnet("", &t), -EINVAL);
	assert_int_equal(ps_irq_parse_softnet("zz 00 00\n", &t), -EINVAL);
	assert_int_equal(ps_irq_parse_softnet("0001 0002\n", &t), -EINVAL);
	/* rows of different widths */
	assert_int_equal(
		ps_irq_parse_softnet("1 2 3 4 5 6 7 8 9 a\n1 2 3\n", &t),
		-EINVAL);
	/* a value wider than 32 bits */
	assert_int_equal(ps_irq_parse_softnet("1ffffffff 0 0\n", &t), -EINVAL);
	/* blank lines are fine */
	assert_int_equal(ps_irq_parse_softnet("\n1 2 3\n\n", &t), 0);
	assert_int_equal(t.nrows, 1);
	free(t.rows);
}

/* ---- the probe on recorded machines --------------------------------- */

static void sample(const char *tree, const char *ifname,
		   struct ps_irq_info *info)
{
	char *dir = machine(tree);

	ps_sysroot_set(dir);
	assert_int_equal(ps_irq_sample(ifname, info), 0);
	ps_sysroot_set(NULL);
	free(dir);
}

static void test_sample_ixgbe_cpu0(void **state)
{
	struct ps_irq_info i;

	if (!have_machines())
		skip();
	sample("ixgbe-12cpu-cpu0", "eth0", &i);
	assert_int_equal(i.status, PS_ST_OK);
	assert_string_equal(i.attribution, "msi_irqs");
	assert_string_equal(i.bdf, "0000:04:00.0");
	assert_int_equal(i.nlines, 9);
	assert_int_equal(i.queues_with_irqs, 8);
	assert_int_equal(i.ncpu, 12);
	/* every queue counted on CPU0 only */
	for (int l = 0; l < i.nlines; l++)
		for (int c = 1; c < i.ncpu; c++)
			assert_true(i.lines[l].count[c] == 0);
	assert_int_equal(i.irq_cpus, 1);
	assert_int_equal(i.busiest_cpu, 0);
	assert_true(i.busiest_share == 1.0);
	assert_string_equal(i.lines[0].affinity, "0-11");
	assert_string_equal(i.lines[0].effective, "");
	assert_int_equal(i.softnet_cols, 10);
	assert_string_equal(i.softnet_cpu_basis, "row_order");
	assert_int_equal(i.irqbalance_status, PS_ST_OK);
	assert_false(i.irqbalance_running);
	assert_int_equal(i.nrxq, 8);
	assert_int_equal(i.ntxq, 8);
	ps_irq_free(&i);
}

static void test_sample_i40e_spread(void **state)
{
	struct ps_irq_info i;

	if (!have_machines())
		skip();
	sample("i40e-4cpu", "eth0", &i);
	assert_int_equal(i.status, PS_ST_OK);
	assert_string_equal(i.attribution, "msi_irqs");
	assert_int_equal(i.nlines, 6);
	assert_int_equal(i.queues_with_irqs, 4);
	assert_int_equal(i.irq_cpus, 4);
	assert_int_equal(i.busiest_cpu, 1);
	assert_true(i.busiest_share > 0.35 && i.busiest_share < 0.45);
	/* eth3's TxRx lines (another NIC) are not taken */
	for (int l = 0; l < i.nlines; l++)
		assert_null(strstr(i.lines[l].name, "eth3"));
	assert_true(i.irqbalance_running);
	assert_int_equal(i.irqbalance_pid, 977);
	assert_int_equal(i.softnet_cols, 11);
	assert_true(i.squeeze_total == 0x40 + 0x41 + 0x42 + 0x43);
	assert_true(i.txq[3].xps_on);
	assert_false(i.rxq[0].rps_on);
	ps_irq_free(&i);
}

static void test_sample_names_route(void **state)
{
	struct ps_irq_info i;

	if (!have_machines())
		skip();
	/* mlx5: no msi_irqs, the lines are named by PCI address */
	sample("mlx5-4cpu", "ens1f0", &i);
	assert_int_equal(i.status, PS_ST_OK);
	assert_string_equal(i.attribution, "names");
	assert_int_equal(i.nlines, 7);
	assert_int_equal(i.queues_with_irqs, 4);
	assert_int_equal(i.busiest_cpu, 0);
	assert_true(i.busiest_share > 0.9);
	for (int l = 0; l < i.nlines; l++)
		assert_non_null(strstr(i.lines[l].name, "@pci:0000:01:00.0"));
	assert_string_equal(i.softnet_cpu_basis, "cpu_column");
	assert_int_equal(i.irqbalance_status, PS_ST_NOT_RECORDED);
	ps_irq_free(&i);

	/* igb-style separate rx/tx vectors */
	sample("softnet-squeeze", "eth0", &i);
	assert_int_equal(i.nlines, 8);
	assert_string_equal(i.lines[0].kind, "rx");
	assert_string_equal(i.lines[7].kind, "tx");
	assert_int_equal(i.irq_cpus, 8);
	assert_true(i.squeeze_total == 1913);
	assert_true(i.rxq[0].rps_on);
	assert_int_equal(i.rxq[0].rps_flow_cnt, 4096);
	ps_irq_free(&i);
}

static void test_sample_virtio_and_lo(void **state)
{
	struct ps_irq_info i;

	if (!have_machines())
		skip();
	sample("virtio-2cpu", "eth0", &i);
	assert_int_equal(i.status, PS_ST_OK);
	assert_string_equal(i.virtio, "virtio2");
	assert_int_equal(i.nlines, 3);
	assert_string_equal(i.lines[1].name, "virtio2-input.0");
	assert_string_equal(i.lines[1].kind, "rx");
	assert_string_equal(i.lines[1].effective, "1");
	assert_false(i.txq[0].xps_cpus[0]);
	ps_irq_free(&i);

	sample("virtio-2cpu", "lo", &i);
	assert_int_equal(i.status, PS_ST_ABSENT);
	assert_string_equal(i.reason, "virtual interface: no interrupt lines");
	assert_int_equal(i.nlines, 0);
	/* host-wide data still there */
	assert_int_equal(i.softnet_status, PS_ST_OK);
	assert_int_equal(i.softirq_status, PS_ST_OK);
	assert_true(i.cpus[1].net_rx == 387);
	ps_irq_free(&i);

	sample("virtio-2cpu", "nosuch0", &i);
	assert_int_equal(i.status, PS_ST_ERROR);
	assert_non_null(strstr(i.reason, "nosuch0"));
	ps_irq_free(&i);
}

/* a tree made here: a non-PCI device, an offline CPU, missing files */
static void test_sample_offline_and_missing(void **state)
{
	char tmpl[] = "/tmp/ps-test-irq-XXXXXX", path[512];
	struct ps_irq_info i;
	FILE *f;

	assert_non_null(mkdtemp(tmpl));
#define MK(rel) (snprintf(path, sizeof(path), "%s/%s", tmpl, rel), path)
	assert_int_equal(system(NULL) != 0, 1);
	snprintf(
		path, sizeof(path),
		"mkdir -p %s/proc %s/sys/devices/platform/soc/net/eth9 "
		"%s/sys/class/net && ln -s ../../devices/platform/soc/net/eth9 "
		"%s/sys/class/net/eth9 && ln -s ../.. "
		"%s/sys/devices/platform/soc/net/eth9/device",
		tmpl, tmpl, tmpl, tmpl, tmpl);
	assert_int_equal(system(path), 0);
	f = fopen(MK("proc/interrupts"), "w");
	fputs("       CPU0  CPU1  CPU3\n"
	      " 50:   1  2  3   GIC 27 Level   eth9\n"
	      " 51:   4  5  6   GIC 28 Level   eth90\n",
	      f);
	fclose(f);
	ps_sysroot_set(tmpl);
	assert_int_equal(ps_irq_sample("eth9", &i), 0);
	ps_sysroot_set(NULL);
	assert_int_equal(i.status, PS_ST_OK);
	assert_string_equal(i.attribution, "names");
	assert_string_equal(i.bdf, "");
	assert_int_equal(i.nlines, 1);
	assert_string_equal(i.lines[0].kind, "rxtx");
	assert_int_equal(i.ncpu, 4);
	assert_true(i.lines[0].count[3] == 3);
	assert_true(i.lines[0].count[2] == 0);
	assert_false(i.cpus[2].online);
	assert_true(i.cpus[3].online);
	assert_int_equal(i.busiest_cpu, 3);
	/* the files not recorded say so */
	assert_int_equal(i.softirq_status, PS_ST_NOT_RECORDED);
	assert_non_null(strstr(i.softirq_reason, "/proc/softirqs"));
	assert_int_equal(i.softnet_status, PS_ST_NOT_RECORDED);
	assert_int_equal(i.queues_status, PS_ST_NOT_RECORDED);
	assert_int_equal(i.lines[0].aff_status, PS_ST_NOT_RECORDED);
	assert_int_equal(i.irqbalance_status, PS_ST_NOT_RECORDED);
	ps_irq_free(&i);
	snprintf(path, sizeof(path), "rm -rf %s", tmpl);
	assert_int_equal(system(path), 0);
#undef MK
}

static void test_rates(void **state)
{
	struct ps_irq_info prev, cur;
	struct json_object *o;

	if (!have_machines())
		skip();
	sample("i40e-4cpu", "eth0", &cur);
	/* the earlier sample: 200 fewer interrupts of TxRx-1 on CPU2,
	 * 6 fewer squeezes on CPU3, two seconds before */
	o = ps_irq_to_json(&cur);
	assert_int_equal(ps_irq_from_json(o, &prev), 0);
	json_object_put(o);
	prev.lines[2].count[2] -= 200;
	prev.cpus[3].time_squeeze -= 6;
	ps_irq_rates(&prev, &cur, 2.0);
	assert_true(cur.rated);
	assert_true(cur.lines[2].rate[2] == 100.0);
	assert_true(cur.lines[2].rate[1] == 0.0);
	assert_true(cur.lines[2].total_rate == 100.0);
	assert_true(cur.cpus[3].squeeze_rate == 3.0);
	assert_true(cur.squeeze_rate_total == 3.0);
	assert_string_equal(cur.share_basis, "rates");
	assert_int_equal(cur.irq_cpus, 1);
	assert_int_equal(cur.busiest_cpu, 2);
	assert_true(cur.busiest_share == 1.0);
	/* a counter that went backwards (wrap, reset) is no negative rate */
	prev.lines[2].count[0] += 1000;
	ps_irq_rates(&prev, &cur, 2.0);
	assert_true(cur.lines[2].rate[0] == 0.0);
	ps_irq_free(&prev);
	ps_irq_free(&cur);
}

static void roundtrip(const char *tree, const char *ifname)
{
	struct ps_irq_info a, b;
	struct json_object *o1, *o2, *parsed;
	char *s1;

	sample(tree, ifname, &a);
	o1 = ps_irq_to_json(&a);
	s1 = xstrdup(json_object_to_json_string(o1));
	parsed = json_tokener_parse(s1);
	assert_non_null(parsed);
	assert_int_equal(ps_irq_from_json(parsed, &b), 0);
	o2 = ps_irq_to_json(&b);
	assert_string_equal(s1, json_object_to_json_string(o2));
	assert_int_equal(b.nlines, a.nlines);
	assert_int_equal(b.ncpu, a.ncpu);
	json_object_put(o1);
	json_object_put(o2);
	json_object_put(parsed);
	free(s1);
	ps_irq_free(&a);
	ps_irq_free(&b);
}

static void test_json_roundtrip(void **state)
{
	struct ps_irq_info x;

	if (!have_machines())
		skip();
	roundtrip("i40e-4cpu", "eth0");
	roundtrip("ixgbe-12cpu-cpu0", "eth0");
	roundtrip("mlx5-4cpu", "ens1f0");
	roundtrip("virtio-2cpu", "eth0");
	roundtrip("virtio-2cpu", "lo");
	roundtrip("softnet-squeeze", "eth0");
	roundtrip("pcie-downgraded", "enp5s0f0");
	roundtrip("wide-256cpu", "eth0");
	assert_int_equal(ps_irq_from_json(NULL, &x), -EINVAL);
	ps_irq_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interrupts_i40e),
		cmocka_unit_test(test_interrupts_new_format),
		cmocka_unit_test(test_interrupts_shared_line),
		cmocka_unit_test(test_interrupts_offline_cpu),
		cmocka_unit_test(test_interrupts_wide),
		cmocka_unit_test(test_interrupts_odd),
		cmocka_unit_test(test_queue_names),
		cmocka_unit_test(test_attribution_names),
		cmocka_unit_test(test_softirqs),
		cmocka_unit_test(test_softnet_10col),
		cmocka_unit_test(test_softnet_cpu_column),
		cmocka_unit_test(test_softnet_odd),
		cmocka_unit_test(test_sample_ixgbe_cpu0),
		cmocka_unit_test(test_sample_i40e_spread),
		cmocka_unit_test(test_sample_names_route),
		cmocka_unit_test(test_sample_virtio_and_lo),
		cmocka_unit_test(test_sample_offline_and_missing),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_json_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
