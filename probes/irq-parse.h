/* irq-parse.h: the pure parsers of the IRQ probe (text in, structs out):
 * /proc/interrupts, /proc/softirqs, /proc/net/softnet_stat and the queue
 * directories and RPS/XPS masks of /sys/class/net/IF/queues */
#ifndef PS_IRQ_PARSE_H
#define PS_IRQ_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
/* the same over a row's ", "-separated action names: any of them */
bool ps_irq_actions_match(const char *actions, const char *ifname,
			  const char *bdf, const char *virtio);
/* the queue of the first of a row's action names that names one */
void ps_irq_actions_queue(const char *actions, char *kind, size_t klen,
			  int *index);

/* ---- pure parsers of /proc/softirqs and /proc/net/softnet_stat ------- */

struct ps_softirq_counts {
	int ncpu; /* indexed by CPU id */
	uint64_t *net_rx, *net_tx;
	bool *present;
};
int ps_irq_parse_softirqs(const char *text, struct ps_softirq_counts *out);
void ps_irq_softirqs_free(struct ps_softirq_counts *s);

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

/* ---- /sys/class/net/IF/queues ---------------------------------------- */

/* "rx-3" with pfx "rx-": 3; -1 when the name is not such a queue */
int ps_irq_queue_dir_index(const char *name, const char *pfx);
/* an RPS/XPS mask as sysfs prints it ("00000000,0000000f"): any CPU set */
bool ps_irq_mask_nonzero(const char *mask);

#endif
