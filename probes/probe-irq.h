/* probe-irq.h: the IRQ probe (sampling and deltas; the parsers of the
 * files it reads are in irq-parse.h): which CPUs take the NIC's interrupts,
 * softirqs and backlog (what /proc/interrupts, /proc/softirqs,
 * /proc/net/softnet_stat, RPS/XPS masks and irqbalance say about one interface)
 */
#ifndef PS_PROBE_IRQ_H
#define PS_PROBE_IRQ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "irq-parse.h"
#include "status.h"

struct json_object;

/* ---- the probe ------------------------------------------------------- */

/* one interrupt line of the NIC */
struct ps_irq_line {
	int irq;
	char name[128]; /* action name(s) */
	char chip[48];
	char kind[8];	 /* "rx", "tx", "rxtx", "" (misc/config) */
	int queue;	 /* queue index or -1 */
	uint64_t *count; /* per CPU id, ncpu entries */
	double *rate;	 /* per CPU id, interrupts/s */
	uint64_t total;
	double total_rate;
	enum ps_status aff_status;
	char affinity[96];  /* smp_affinity_list */
	char effective[96]; /* effective_affinity_list; "" = unsupported */
	/* the driver's affinity_hint as a list ("2"; "" when none, zero or
	 * unsupported): where the driver would have the line, its NUMA
	 * node's CPUs as a rule */
	char hint[96];
};

struct ps_irq_cpu {
	int cpu;
	bool online;	   /* has a column in /proc/interrupts */
	uint64_t nic_irqs; /* sum over the NIC's lines */
	double nic_irq_rate;
	uint64_t net_rx, net_tx; /* /proc/softirqs */
	double net_rx_rate, net_tx_rate;
	bool softnet; /* has a softnet_stat row */
	uint64_t processed, dropped, time_squeeze;
	double processed_rate, dropped_rate, squeeze_rate;
};

struct ps_irq_rxq {
	int index;
	char rps_cpus[300]; /* hex mask as in sysfs, "" when absent */
	bool rps_on;	    /* any bit set */
	long rps_flow_cnt;  /* -1 when absent */
};

struct ps_irq_txq {
	int index;
	char xps_cpus[300]; /* "" when absent (single-queue virtio) */
	bool xps_on;
};

struct ps_irq_info {
	char ifname[32];
	char bdf[16];	 /* PCI function, "" if none */
	char virtio[16]; /* "virtio2" for a virtio child device */

	/* the NIC's interrupt lines */
	enum ps_status status;
	char reason[160];
	char attribution[16]; /* "msi_irqs" or "names" */
	struct ps_irq_line *lines;
	int nlines;

	/* per CPU id (host-wide softirq/softnet + the NIC's share) */
	int ncpu;
	struct ps_irq_cpu *cpus;

	enum ps_status softirq_status;
	char softirq_reason[160];

	enum ps_status softnet_status;
	char softnet_reason[160];
	int softnet_cols;
	char softnet_cpu_basis[16]; /* "cpu_column" or "row_order" */

	/* /sys/class/net/IF/queues */
	enum ps_status queues_status;
	char queues_reason[160];
	/* the interface's NAPI deferral
	 * (/sys/class/net/IF/{napi_defer_hard_irqs, gro_flush_timeout}): -1
	 * unknown */
	long napi_defer_hard_irqs, gro_flush_timeout;
	struct ps_irq_rxq *rxq;
	int nrxq;
	struct ps_irq_txq *txq;
	int ntxq;

	enum ps_status irqbalance_status;
	char irqbalance_reason[160];
	bool irqbalance_running;
	int irqbalance_pid;

	/* summary for the checks */
	int queues_with_irqs; /* lines that serve a queue */
	int irq_cpus;	      /* distinct CPUs that took NIC interrupts */
	int busiest_cpu;      /* -1 when no NIC interrupts */
	double busiest_share; /* 0..1 of all NIC interrupts */
	char share_basis[8];  /* "counts" (since boot) or "rates" */
	uint64_t dropped_total, squeeze_total;
	double dropped_rate_total, squeeze_rate_total;
	bool rated;	 /* rate fields are filled */
	double interval; /* seconds between the two samples */
};

int ps_irq_sample(const char *ifname, struct ps_irq_info *out);
void ps_irq_rates(const struct ps_irq_info *prev, struct ps_irq_info *cur,
		  double seconds);
void ps_irq_free(struct ps_irq_info *info);
/* a deep copy (ps_irq_free both) */
void ps_irq_copy(struct ps_irq_info *dst, const struct ps_irq_info *src);
/* recompute the summary fields from lines and cpus */
void ps_irq_summarise(struct ps_irq_info *info);

struct json_object *ps_irq_to_json(const struct ps_irq_info *info);
int ps_irq_from_json(struct json_object *obj, struct ps_irq_info *out);
void ps_irq_print(FILE *out, const struct ps_irq_info *info);

#endif
