/*
 * fuzz-proc.c: libFuzzer harnesses for the /proc and /sys text parsers
 * behind "pipescope probe" (CPU, IRQ, softirq, softnet, PCIe link). Built
 * once per parser (FUZZ_CPU_STAT, FUZZ_INTERRUPTS, FUZZ_SOFTIRQS,
 * FUZZ_SOFTNET, FUZZ_PCI, FUZZ_NETSTAT: /proc/net/snmp, netstat, sockstat
 * and tcp_mem, FUZZ_NIC_STATS: a recorded "ethtool -S") by "make fuzz"
 * (configure --enable-fuzzing).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe-cpu.h"
#include "probe-ethtool.h"
#include "probe-irq.h"
#include "probe-netstat.h"
#include "probe-pci.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#if defined(FUZZ_CPU_STAT)
static void count_cpu(int id, void *arg)
{
	(void)id;
	(*(int *)arg)++;
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the kernel's files are text: the parsers take a C string */
	char *text = malloc(size + 1);

	memcpy(text, data, size);
	text[size] = 0;
#if defined(FUZZ_CPU_STAT)
	{
		struct ps_cpu_info info;
		int n = 0;

		ps_cpu_parse_stat(text, &info);
		ps_cpu_free(&info);
		ps_cpu_parse_list(text, count_cpu, &n);
	}
#elif defined(FUZZ_INTERRUPTS)
	{
		struct ps_irq_table t;

		if (ps_irq_parse_interrupts(text, &t) == 0) {
			for (int i = 0; i < t.nrows; i++) {
				char kind[16];
				int idx;

				ps_irq_queue_of(t.rows[i].actions, kind,
						sizeof(kind), &idx);
				ps_irq_row_has_action(&t.rows[i], "eth0");
				ps_irq_action_matches(t.rows[i].actions, "eth0",
						      "0000:00:03.0",
						      "virtio2");
			}
			ps_irq_table_free(&t);
		}
	}
#elif defined(FUZZ_SOFTIRQS)
	{
		struct ps_softirq_counts s;

		if (ps_irq_parse_softirqs(text, &s) == 0) {
			free(s.net_rx);
			free(s.net_tx);
			free(s.present);
		}
	}
#elif defined(FUZZ_SOFTNET)
	{
		struct ps_softnet_table t;

		if (ps_irq_parse_softnet(text, &t) == 0)
			free(t.rows);
	}
#elif defined(FUZZ_PCI)
	{
		struct ps_pci_lnk l;
		double gts;
		char *line = text, *nl;

		/* lspci -vv output, one LnkCap/LnkSta line at a time */
		do {
			nl = strchr(line, '\n');
			if (nl)
				*nl = 0;
			ps_pci_parse_lnk(line, &l);
			ps_pci_parse_speed(line, &gts);
			if (nl)
				line = nl + 1;
		} while (nl);
	}
#elif defined(FUZZ_NETSTAT)
	{
		struct ps_netstat_info info, prev;

		ps_netstat_init(&info);
		ps_netstat_parse(text, &info.c);
		ps_sockstat_parse(text, &info.sock);
		ps_tcp_mem_parse(text, &info.sock);
		info.status = PS_ST_OK;
		prev = info;
		ps_netstat_rates(&prev, &info, 1.0);
	}
#elif defined(FUZZ_NIC_STATS)
	{
		/* a recorded "ethtool -S" (DIR/ethtool/IF/S), its rates */
		static struct ps_ethtool_info a, b;

		ps_ethtool_init(&a, "eth0");
		ps_ethtool_parse_stats_text(text, size, &a);
		ps_ethtool_init(&b, "eth0");
		ps_ethtool_parse_stats_text(text, size / 2, &b);
		ps_ethtool_rates(&b, &a, 1.0);
		ps_ethtool_free(&a);
		ps_ethtool_free(&b);
	}
#else
#error "which parser? define FUZZ_CPU_STAT, FUZZ_INTERRUPTS, ..."
#endif
	free(text);
	return 0;
}
