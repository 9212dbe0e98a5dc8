/* nic-counters.h: the driver's own counters (ETHTOOL_GSTATS, "ethtool -S")
 * read by name: per-queue packets and bytes in the naming schemes of the
 * common drivers (rx_queue_N_packets, rx-N.packets, rxN_packets,
 * queue_N_rx_cnt, rx_qN_packets, "[N]: rx_ucast_packets", vmxnet3's
 * "Rx Queue#" blocks), drop classes and pause frames; and their rates
 * between two samples. Pure: names and values in, numbers out. */
#ifndef PS_NIC_COUNTERS_H
#define PS_NIC_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jsonutil.h"

#define PS_NIC_MAXQ 128 /* queues kept per direction (more are ignored) */

enum ps_nic_dir { PS_NIC_RX = 0, PS_NIC_TX, PS_NIC_NDIR };

/* what a driver counter that drops packets says about the cause */
enum ps_nic_drop {
	PS_NIC_MISSED = 0,    /* rx_missed_errors: the NIC had no descriptor */
	PS_NIC_NO_BUFFER,     /* rx_no_buffer_count, rx_drops_no_pbuf */
	PS_NIC_OUT_OF_BUFFER, /* mlx5 rx_out_of_buffer */
	PS_NIC_FIFO,	      /* rx_fifo_errors, fifo overflows */
	PS_NIC_DISCARDS,      /* rx_discards(_phy) */
	PS_NIC_DROPPED,	      /* rx_dropped, rx_queue_N_drops */
	PS_NIC_NDROP
};

/* what one counter name means */
enum ps_nic_kind {
	PS_NIC_K_NONE = 0,
	PS_NIC_K_QPACKETS, /* a queue's packets (q, dir) */
	PS_NIC_K_QBYTES,   /* a queue's bytes (q, dir) */
	PS_NIC_K_DROP,	   /* drop class cls (dir; q >= 0 per queue) */
	PS_NIC_K_PAUSE,	   /* pause frames (dir: rx received, tx sent) */
	PS_NIC_K_QMARK,	   /* vmxnet3 "Rx Queue#": the value is the queue
			    * the following counters belong to */
};

struct ps_nic_class {
	enum ps_nic_kind kind;
	enum ps_nic_dir dir;
	int q; /* queue, -1 for a port-wide counter */
	enum ps_nic_drop cls;
};

/* classify one raw name (any case, maybe padded); q_ctx is the queue of
 * the latest "Queue#" marker of dir_ctx (-1 none) */
void ps_nic_classify(const char *name, int q_ctx, enum ps_nic_dir dir_ctx,
		     struct ps_nic_class *out);

/* the counters of one sample; PS_NA where the driver has none */
struct ps_nic_counters {
	bool valid;		  /* classified from a driver's counters */
	unsigned nq[PS_NIC_NDIR]; /* queues with a packet counter */
	unsigned nq_bytes[PS_NIC_NDIR]; /* nq, or 0 without byte counters */
	int64_t packets[PS_NIC_NDIR][PS_NIC_MAXQ];
	int64_t bytes[PS_NIC_NDIR][PS_NIC_MAXQ];
	int64_t drops[PS_NIC_NDIR][PS_NIC_NDROP];
	int64_t pause[PS_NIC_NDIR]; /* frames received / sent */
};

/* rates between two samples; NaN where not reported */
struct ps_nic_rates {
	bool rated;
	double seconds;
	unsigned nq[PS_NIC_NDIR];
	double pps[PS_NIC_NDIR][PS_NIC_MAXQ]; /* packets/s, -1 not reported */
	double bps[PS_NIC_NDIR][PS_NIC_MAXQ]; /* bit/s, NaN without bytes */
	double drops[PS_NIC_NDIR][PS_NIC_NDROP];
	double pause[PS_NIC_NDIR];
};

void ps_nic_counters_init(struct ps_nic_counters *c);
void ps_nic_rates_init(struct ps_nic_rates *r);
/* classify n counters (names n * PS_ETH_STRLEN bytes, maybe unended) */
void ps_nic_counters_from(struct ps_nic_counters *c, const char *names,
			  size_t namelen, const uint64_t *vals, unsigned n);
/* cur - prev over seconds; a counter that went back (a reset) or is
 * missing on either side is not reported */
void ps_nic_rates_compute(const struct ps_nic_counters *prev,
			  const struct ps_nic_counters *cur, double seconds,
			  struct ps_nic_rates *out);

/* stable names: "missed", "no_buffer", ... and "rx"/"tx" */
const char *ps_nic_drop_name(enum ps_nic_drop d);
const char *ps_nic_dir_name(enum ps_nic_dir d);
/* the sum of the drop classes of a direction that are reported, NaN when
 * none is */
double ps_nic_rates_drops(const struct ps_nic_rates *r, enum ps_nic_dir d);
/* the same of the counters, PS_NA when none */
int64_t ps_nic_counters_drops(const struct ps_nic_counters *c,
			      enum ps_nic_dir d);

/* field tables for the snapshot (doc/snapshot.md "nic_counters") */
extern const struct ps_jfield ps_nic_counters_table[];
extern const struct ps_jfield ps_nic_rates_table[];

#endif
