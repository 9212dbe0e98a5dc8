/* probe-irq.h: which CPUs take the NIC's interrupts, softirqs and backlog
 * (what /proc/interrupts, /proc/softirqs, /proc/net/softnet_stat, RPS/XPS
 * masks and irqbalance say about one interface) */
#ifndef PS_PROBE_IRQ_H
#define PS_PROBE_IRQ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "status.h"

struct json_object;

/* ---- pure parser of /proc/interrupts --------------------------------- */

struct ps_irq_row {
	int irq;	   /* -1 for named rows (NMI, LOC, ERR ...) */
	char label[16];	   /* "33" or "NMI" */
	uint64_t *count;   /* ncount values, one per header column */
	int ncount;	   /* < ncol for ERR/MIS-like rows */
	char chip[48];	   /* "IR-PCI-MSI", "PCI-MSIX-0000:00:03.0" */
	char hwirq[24];	   /* "1-edge", "" on old kernels */
	char actions[128]; /* "i40e-eth0-TxRx-0", "ehci_hcd:usb1, radeon" */
};

struct ps_irq_table {
	int ncol;     /* CPU columns in the header */
	int *col_cpu; /* CPU id of each column ("CPU5" -> 5) */
	int max_cpu;  /* highest CPU id in the header */
	struct ps_irq_row *rows;
	int nrows;
};

int ps_irq_parse_interrupts(const char *text, struct ps_irq_table *out);
void ps_irq_table_free(struct ps_irq_table *t);
/* the action names of a row, split at ", ": 1 if @name is one of them */
bool ps_irq_row_has_action(const struct ps_irq_row *row, const char *name);

/*
 * Queue of an interrupt action name: kind "rx", "tx", "rxtx" or "" (not a
 * queue vector: misc, config, async eq), *index the queue number or -1.
 * Knows IF-TxRx-N, IF-rx-N, IF-tx-N, IF-Tx-Rx-N, IF-rxtx-N, i40e-IF-TxRx-N,
 * mlx5_compN@pci:BDF, virtioM-input.N / output.N, gve-ntfy-blkN, mana_qN.
 */
void ps_irq_queue_of(const char *action, char *kind, size_t klen, int *index);
/*
 * Does this action name belong to the interface @ifname, the PCI function
 * @bdf (may be NULL) or the virtio device @virtio ("virtio2", may be NULL)?
 */
bool ps_irq_action_matches(const char *action, const char *ifname,
			   const char *bdf, const char *virtio);

/* ---- pure parsers of /proc/softirqs and /proc/net/softnet_stat ------- */

struct ps_softirq_counts {
	int ncpu; /* indexed by CPU id */
	uint64_t *net_rx, *net_tx;
	bool *present;
};
int ps_irq_parse_softirqs(const char *text, struct ps_softirq_counts *out);

struct ps_softnet_row {
	int cpu;
	uint64_t processed, dropped, time_squeeze;
};
struct ps_softnet_table {
	int ncols;	 /* 10, 11, 13 or 15 */
	bool cpu_column; /* CPU id read from column 13 (else row order) */
	struct ps_softnet_row *rows;
	int nrows;
};
int ps_irq_parse_softnet(const char *text, struct ps_softnet_table *out);

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
/* recompute the summary fields from lines and cpus */
void ps_irq_summarise(struct ps_irq_info *info);

struct json_object *ps_irq_to_json(const struct ps_irq_info *info);
int ps_irq_from_json(struct json_object *obj, struct ps_irq_info *out);
void ps_irq_print(FILE *out, const struct ps_irq_info *info);

#endif
