/* probe-ethtool.h: what "ethtool", "ethtool -k/-l/-g/-c/-a/-x/-S/-i" show,
 * read over the "ethtool" generic netlink family (ioctl only for driver
 * info and the driver's own counters, which netlink does not carry) */
#ifndef PS_PROBE_ETHTOOL_H
#define PS_PROBE_ETHTOOL_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "ethnl.h" /* string sets, PS_ETH_STRLEN */
#include "jsonutil.h"
#include "nic-counters.h"
#include "status.h"

#define PS_ETH_NA PS_NA /* an integer field the device did not report */
#define PS_ETH_REASON 160

/* a list of kernel names (link modes) */
struct ps_eth_names {
	unsigned n;
	char (*v)[PS_ETH_STRLEN];
};

/* one entry of "ethtool -k" */
struct ps_eth_feature {
	char name[PS_ETH_STRLEN];
	bool active;	   /* dev->features */
	bool wanted;	   /* what was asked for */
	bool fixed;	   /* not in hw_features, or in NOCHANGE */
	bool requested_on; /* wanted but not active: "[requested on]" */
};

/* the legacy "ethtool -k" flags, each summarising a family of features */
struct ps_eth_flag {
	bool known;	   /* the kernel has a feature of this family */
	bool on;	   /* any feature of the family is active */
	bool fixed;	   /* every feature of the family is fixed */
	bool requested_on; /* some feature is wanted but not active */
};

enum ps_eth_flag_id {
	PS_ETH_TSO,	/* tx-tcp*-segmentation */
	PS_ETH_GSO,	/* tx-generic-segmentation */
	PS_ETH_GRO,	/* rx-gro */
	PS_ETH_GRO_HW,	/* rx-gro-hw */
	PS_ETH_LRO,	/* rx-lro */
	PS_ETH_RX_CSUM, /* rx-checksum */
	PS_ETH_TX_CSUM, /* tx-checksum-* */
	PS_ETH_SG,	/* tx-scatter-gather* */
	PS_ETH_RXHASH,	/* rx-hashing */
	PS_ETH_NTUPLE,	/* rx-ntuple-filter */
	PS_ETH_NFLAGS
};

/* a named 64-bit counter; group is "" for driver counters */
struct ps_eth_counter {
	char group[16];
	char name[PS_ETH_STRLEN];
	uint64_t value;
};

struct ps_ethtool_info {
	enum ps_status status; /* ok, absent (no such interface), error */
	char reason[PS_ETH_REASON];
	char ifname[IF_NAMESIZE];
	int ifindex;

	struct { /* ETHTOOL_GDRVINFO ioctl: "ethtool -i" */
		enum ps_status status;
		char reason[PS_ETH_REASON];
		char driver[32], version[32], firmware[32], bus_info[32];
	} drvinfo;

	struct { /* LINKSTATE_GET */
		enum ps_status status;
		char reason[PS_ETH_REASON];
		int link; /* 1 up, 0 down, PS_ETH_NA */
		int64_t sqi, sqi_max;
		int ext_state, ext_substate; /* PS_ETH_NA when absent */
		int64_t ext_down_cnt;
	} linkstate;

	struct { /* LINKMODES_GET */
		enum ps_status status;
		char reason[PS_ETH_REASON];
		int autoneg;	   /* 1, 0, PS_ETH_NA */
		int64_t speed_bps; /* PS_ETH_NA when unknown */
		int duplex;	   /* DUPLEX_HALF/FULL, PS_ETH_NA unknown */
		int64_t lanes;
		struct ps_eth_names supported, advertised, partner;
	} linkmodes;

	struct { /* FEATURES_GET */
		enum ps_status status;
		char reason[PS_ETH_REASON];
		unsigned n;
		struct ps_eth_feature *v;
		struct ps_eth_flag flag[PS_ETH_NFLAGS]; /* from v */
	} features;

	struct { /* CHANNELS_GET: current vs max, PS_ETH_NA = "n/a" */
		enum ps_status status;
		char reason[PS_ETH_REASON];
		int64_t rx, tx, other, combined;
		int64_t rx_max, tx_max, other_max, combined_max;
	} channels;

	struct { /* RINGS_GET */
		enum ps_status status;
		char reason[PS_ETH_REASON];
		int64_t rx, rx_mini, rx_jumbo, tx;
		int64_t rx_max, rx_mini_max, rx_jumbo_max, tx_max;
	} rings;

	struct { /* COALESCE_GET: absent attribute = PS_ETH_NA */
		enum ps_status status;
		char reason[PS_ETH_REASON];
		int adaptive_rx, adaptive_tx;
		int64_t rx_usecs, rx_frames, tx_usecs, tx_frames;
	} coalesce;

	struct { /* PAUSE_GET with ETHTOOL_FLAG_STATS */
		enum ps_status status;
		char reason[PS_ETH_REASON];
		int autoneg, rx, tx;
		int64_t tx_frames, rx_frames;
	} pause;

	struct { /* RSS_GET (kernel 6.2+) */
		enum ps_status status;
		char reason[PS_ETH_REASON];
		char hfunc[PS_ETH_STRLEN]; /* "" when not reported */
		unsigned n_indir;
		uint32_t *indir; /* queue of each table entry */
		unsigned n_hkey;
		uint8_t *hkey;
		/* ETHTOOL_GRXRINGS: the rings the table may name ("with 63
		 * RX ring(s)"), PS_ETH_NA when not reported */
		int64_t rx_rings;
	} rss;

	struct { /* STATS_GET: standard (IEEE/RMON) groups */
		enum ps_status status;
		char reason[PS_ETH_REASON];
		unsigned n;
		struct ps_eth_counter *v; /* group = "eth-mac", ... */
	} std_stats;

	struct { /* ETHTOOL_GSTATS: the driver's drop/miss/error counters */
		enum ps_status status;
		char reason[PS_ETH_REASON];
		unsigned total; /* all counters of the driver */
		unsigned n;
		struct ps_eth_counter *v; /* raw names, group "" */
	} drv_stats;

	/* every driver counter read by name (nic-counters.h): per-queue
	 * packets, drop classes, pause frames; valid with drv_stats ok */
	struct ps_nic_counters nic;
	/* their rates since the previous sample (ps_ethtool_rates) */
	struct ps_nic_rates nic_rate;
};

/* the groups a reply can fill (one netlink request each) */
enum ps_ethtool_group {
	PS_ETHG_LINKSTATE,
	PS_ETHG_LINKMODES,
	PS_ETHG_FEATURES,
	PS_ETHG_CHANNELS,
	PS_ETHG_RINGS,
	PS_ETHG_COALESCE,
	PS_ETHG_PAUSE,
	PS_ETHG_RSS,
	PS_ETHG_STATS,
	PS_ETHG_COUNT
};

/* stable name of a group ("features"): JSON key and fixture file name */
const char *ps_ethtool_group_name(enum ps_ethtool_group g);

/* an empty snapshot: every field "not reported", status error */
void ps_ethtool_init(struct ps_ethtool_info *info, const char *ifname);

/*
 * Pure parsers over the raw bytes of a netlink reply (a sequence of
 * nlmsghdr as received, ending with the ACK or the error). An error
 * message sets the group's status from its errno (EOPNOTSUPP:
 * unsupported, ENODEV: absent, EPERM: needs_root) and keeps the kernel's
 * extack text in the reason. Return 0 when the bytes were understood
 * (also for an error reply), -EBADMSG when they were not.
 */
/* (the string sets' parser is in ethnl.h) */
int ps_ethtool_parse(enum ps_ethtool_group g, const void *buf, size_t len,
		     const struct ps_ethtool_strsets *ss,
		     struct ps_ethtool_info *out);
/*
 * The driver's counters (ETHTOOL_GSTATS): keep those whose raw name has
 * drop/miss/discard/no_buf/fifo/error in it. names: n * PS_ETH_STRLEN.
 */
int ps_ethtool_parse_drv_stats(const char *names, const uint64_t *vals,
			       unsigned n, struct ps_ethtool_info *out);
/* the text of "ethtool -S" ("name: value" lines, indented or not) as the
 * driver's counters; untrusted (a recorded tree): at most 65536 counters,
 * names cut to PS_ETH_STRLEN - 1 bytes of printable ASCII. 0 or -ENOENT
 * when no counter was found */
int ps_ethtool_parse_stats_text(const char *text, size_t len,
				struct ps_ethtool_info *out);
/* the text of "ethtool -x" (indirection table rows, "with N RX ring(s)",
 * the hash key and function) as the rss group; untrusted: at most 65536
 * entries, each below 65536. 0, or -ENOENT when there is no table */
int ps_ethtool_parse_rss_text(const char *text, size_t len,
			      struct ps_ethtool_info *out);
/* recompute features.flag[] from features.v */
void ps_ethtool_features_summarise(struct ps_ethtool_info *info);
const char *ps_ethtool_flag_name(enum ps_eth_flag_id id); /* "tso" */
/* a feature by its kernel name, or NULL */
const struct ps_eth_feature *
ps_ethtool_feature(const struct ps_ethtool_info *info, const char *name);

/*
 * Sample the live machine (the current network namespace). Fills *out;
 * a missing interface is status absent, never an error. 0 or -errno
 * (-errno only when nothing could be asked at all, e.g. no netlink).
 */
int ps_ethtool_sample(const char *ifname, struct ps_ethtool_info *out);
void ps_ethtool_free(struct ps_ethtool_info *info);
/* only what changes during a test: the driver's counters and the pause
 * statistics (a step's start and end); 0 or -errno */
int ps_ethtool_sample_counters(const char *ifname, struct ps_ethtool_info *out);
/* close the cached netlink socket and string sets (tests, exit) */
void ps_ethtool_shutdown(void);
/*
 * Write every raw reply of the next samples to DIR/<group>.bin (and
 * DIR/strsets.bin), to record fixtures. NULL stops recording.
 */
void ps_ethtool_record(const char *dir);

/*
 * JSON: {"ifname","ifindex","status","reason"?,
 *   "driver":{status,reason?,driver,version,firmware,bus_info},
 *   "link_state":{status,link,sqi,sqi_max,ext_state,ext_substate,
 *                 ext_down_cnt},
 *   "link_modes":{status,autoneg,speed_bps,duplex:"full"|"half",lanes,
 *                 supported[],advertised[],partner[]},
 *   "features":{status,offloads:{tso|gso|gro|gro_hw|lro|rx_checksum|
 *               tx_checksum|scatter_gather|rxhash|ntuple:
 *               {on,fixed,requested_on}},
 *               all:{"<kernel name>":{active,wanted,fixed,requested_on}}},
 *   "channels":{status,rx|tx|other|combined:{current,max}},
 *   "rings":{status,rx|rx_mini|rx_jumbo|tx:{current,max}},
 *   "coalesce":{status,adaptive_rx,adaptive_tx,rx_usecs,rx_frames,
 *               tx_usecs,tx_frames},
 *   "pause":{status,autoneg,rx,tx,tx_frames,rx_frames},
 *   "rss":{status,hfunc,indir[],hkey:"hex",rx_rings},
 *   "std_stats":{status,groups:{"eth-mac":{"<kernel name>":n}}},
 *   "driver_stats":{status,total,counters:{"<raw driver name>":n}},
 *   "nic_counters":{rx_packets[],rx_bytes[],tx_packets[],tx_bytes[],
 *                   rx_missed,...,tx_dropped,pause_rx,pause_tx},
 *   "nic_rates":{seconds,rx_pps[],tx_pps[],rx_missed,...,pause_rx,
 *                pause_tx}}
 * Every group has "status" (ok/unsupported/absent/needs_root/not_recorded/
 * error) and, when not ok, "reason". A value the device did not report is
 * left out (PS_ETH_NA in the struct).
 */
struct json_object *ps_ethtool_to_json(const struct ps_ethtool_info *info);
int ps_ethtool_from_json(struct json_object *obj, struct ps_ethtool_info *out);

void ps_ethtool_print(FILE *out, const struct ps_ethtool_info *info);

/* nic_rate of cur from the driver counters of prev and cur (and the
 * netlink pause statistics, which win over the driver's names) */
void ps_ethtool_rates(const struct ps_ethtool_info *prev,
		      struct ps_ethtool_info *cur, double seconds);
/* the same rates into out, from any two samples seconds apart (a test's
 * first and last reading) */
void ps_ethtool_nic_rates(const struct ps_ethtool_info *prev,
			  const struct ps_ethtool_info *cur, double seconds,
			  struct ps_nic_rates *out);
/* the standard statistics' frames lost to the MAC's internal errors
 * (eth-mac FramesLostDueToIntMAC{Rcv,Xmit}Error) as the rx/tx fifo drop
 * class where the driver's own counters have none */
void ps_ethtool_nic_merge_std(struct ps_ethtool_info *info);
/* pause frames received / sent: the netlink statistics, else the
 * driver's counters; PS_NA when neither reports them */
int64_t ps_ethtool_pause_frames(const struct ps_ethtool_info *info,
				enum ps_nic_dir d);

#endif
