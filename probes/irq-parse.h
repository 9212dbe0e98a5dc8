/* irq-parse.h: the pure parsers of the IRQ probe (text in, structs out):
 * /proc/interrupts, /proc/softirqs, /proc/net/softnet_stat and the queue
 * directories and RPS/XPS masks of /sys/class/net/IF/queues */
#ifndef PS_IRQ_PARSE_H
#define PS_IRQ_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- pure parser of /proc/interrupts --------------------------------- */

/*
 * Bounds on what a recorded tree may make the parsers hold. CPU ids: the
 * caller passes the CPUs the tree says it has (ps_cpu_known_ids), never
 * more than PS_IRQ_MAX_CPUS, the largest NR_CPUS the kernel's Kconfig
 * allows (x86-64 MAXSMP and ppc64: 8192; arm64: 4096). Rows: a 256-CPU
 * host with eight 64-queue NICs and sixteen 128-queue NVMe drives shows
 * about 2600; 16384 is six times that. Values: the kernel prints each as
 * "%10u " (11 characters), so a real file within PS_READ_MAX (32 MiB)
 * holds at most 3M of them; PS_IRQ_MAX_CELLS keeps a hostile "0 0 0 ..."
 * to as many (24 MiB of counts).
 */
#define PS_IRQ_MAX_CPUS 8192
#define PS_IRQ_MAX_ROWS 16384
#define PS_IRQ_MAX_CELLS (3L << 20)

struct ps_irq_row {
	int irq;	   /* -1 for named rows (NMI, LOC, ERR ...) */
	char label[16];	   /* "33" or "NMI" */
	uint64_t *count;   /* ncount values, one per kept header column */
	int ncount;	   /* < ncol for ERR/MIS-like rows */
	char chip[48];	   /* "IR-PCI-MSI", "PCI-MSIX-0000:00:03.0" */
	char hwirq[24];	   /* "1-edge", "" on old kernels */
	char actions[128]; /* "i40e-eth0-TxRx-0", "ehci_hcd:usb1, radeon" */
};

struct ps_irq_table {
	int ncol;	 /* CPU columns kept (ids below the bound) */
	int header_cols; /* CPU columns in the header, kept or not */
	int *col_cpu;	 /* CPU id of each kept column ("CPU5" -> 5) */
	int max_cpu;	 /* highest CPU id kept */
	struct ps_irq_row *rows;
	int nrows;
	bool truncated; /* rows past PS_IRQ_MAX_ROWS / _CELLS not kept */
};

/*
 * Parse /proc/interrupts keeping the header's columns up to the first whose
 * CPU id is @ncpu or more (at most PS_IRQ_MAX_CPUS; <= 0: that maximum):
 * their values are skipped on every row. 0, or -EINVAL without a header.
 */
int ps_irq_parse_interrupts_n(const char *text, int ncpu,
			      struct ps_irq_table *out);
/* the same with @ncpu PS_IRQ_MAX_CPUS */
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
/* CPU ids at or past @ncpu (bounded as above) are not kept */
int ps_irq_parse_softirqs_n(const char *text, int ncpu,
			    struct ps_softirq_counts *out);
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
/* rows of CPUs at or past @ncpu, and rows past @ncpu, are not kept */
int ps_irq_parse_softnet_n(const char *text, int ncpu,
			   struct ps_softnet_table *out);
int ps_irq_parse_softnet(const char *text, struct ps_softnet_table *out);

/* ---- /sys/class/net/IF/queues ---------------------------------------- */

/* "rx-3" with pfx "rx-": 3; -1 when the name is not such a queue */
int ps_irq_queue_dir_index(const char *name, const char *pfx);
/* an RPS/XPS mask as sysfs prints it ("00000000,0000000f"): any CPU set */
bool ps_irq_mask_nonzero(const char *mask);

#endif
