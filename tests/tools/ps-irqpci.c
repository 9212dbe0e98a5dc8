/* ps-irqpci.c: test driver for the IRQ and PCIe probes — prints
 * {"irq":…,"pci":…} for one interface (or the human text with --text),
 * live or on a recorded tree. "pipescope probe --sysroot DIR --iface IF
 * --json" gives the same members, but through the interface choice: there
 * an interface that is not there is the choice's "absent" for every probe,
 * while irqpci-*.sh check what the IRQ and PCIe probes themselves say about
 * a missing interface or an empty recording. This driver also takes the
 * rates over a chosen --interval (probe's is 1 s), samples --repeat times
 * (memory and cost) and times the /proc/interrupts parser (--parse-bench). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "clock.h"
#include "probe-irq.h"
#include "probe-pci.h"
#include "sysroot.h"

static void usage(void)
{
	fprintf(stderr, "usage: ps-irqpci [--sysroot DIR] [--text] "
			"[--interval SECONDS] [--repeat N] IFNAME\n"
			"       ps-irqpci --parse-bench FILE [N]\n");
	exit(2);
}

/* parse a /proc/interrupts file N times: mean and best time per parse */
static int parse_bench(const char *file, long n)
{
	struct ps_irq_table t;
	double best = 1e9, sum = 0;
	char *text = ps_read_file(file, NULL);

	if (!text) {
		perror(file);
		return 1;
	}
	for (long i = 0; i < n; i++) {
		int64_t t0 = ps_mono_ns();
		double ms;

		if (ps_irq_parse_interrupts(text, &t)) {
			fprintf(stderr, "%s: not /proc/interrupts\n", file);
			return 1;
		}
		ms = (ps_mono_ns() - t0) / 1e6;
		sum += ms;
		if (ms < best)
			best = ms;
		if (i == n - 1)
			printf("%d CPU columns, %d rows: mean %.3f ms, best "
			       "%.3f ms per parse over %ld parses\n",
			       t.ncol, t.nrows, sum / n, best, n);
		ps_irq_table_free(&t);
	}
	free(text);
	return 0;
}

int main(int argc, char **argv)
{
	const char *ifname = NULL;
	double interval = 0;
	bool text = false;
	long repeat = 1;
	struct ps_irq_info irq, prev;
	struct ps_pci_info pci;
	struct json_object *o;

	if (argc >= 3 && !strcmp(argv[1], "--parse-bench"))
		return parse_bench(argv[2], argc > 3 ? atol(argv[3]) : 1000);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--sysroot") && i + 1 < argc)
			ps_sysroot_set(argv[++i]);
		else if (!strcmp(argv[i], "--text"))
			text = true;
		else if (!strcmp(argv[i], "--interval") && i + 1 < argc)
			interval = atof(argv[++i]);
		else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
			repeat = atol(argv[++i]);
		else if (argv[i][0] == '-' || ifname)
			usage();
		else
			ifname = argv[i];
	}
	if (!ifname || repeat < 1)
		usage();

	/* --repeat: sample many times (memory and cost measurements) */
	for (long r = 1; r < repeat; r++) {
		ps_irq_sample(ifname, &irq);
		ps_irq_free(&irq);
		ps_pci_sample(ifname, &pci);
		ps_pci_free(&pci);
	}
	ps_irq_sample(ifname, &irq);
	if (interval > 0) {
		struct timespec ts = { (time_t)interval,
				       (long)((interval - (long)interval) *
					      1e9) };

		prev = irq;
		nanosleep(&ts, NULL);
		ps_irq_sample(ifname, &irq);
		ps_irq_rates(&prev, &irq, interval);
		ps_irq_free(&prev);
	}
	ps_pci_sample(ifname, &pci);
	if (text) {
		ps_irq_print(stdout, &irq);
		ps_pci_print(stdout, &pci);
	} else {
		o = json_object_new_object();
		json_object_object_add(o, "irq", ps_irq_to_json(&irq));
		json_object_object_add(o, "pci", ps_pci_to_json(&pci));
		puts(json_object_to_json_string_ext(
			o, JSON_C_TO_STRING_PRETTY |
				   JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	}
	ps_irq_free(&irq);
	ps_pci_free(&pci);
	return 0;
}
