/* probe-netstat.h: the kernel's packet counters of this network namespace
 * in "pipescope probe" (what "nstat -az" and "cat /proc/net/sockstat" show):
 * IP, UDP and TCP drops and retransmit causes, socket memory */
#ifndef PS_PROBE_NETSTAT_H
#define PS_PROBE_NETSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "status.h"

struct json_object;

/*
 * X(key, section, name): one counter of /proc/net/snmp or /proc/net/netstat
 * ("Udp" "RcvbufErrors"); key is its member of struct ps_netstat_counters
 * and its JSON key. A counter the kernel does not have stays PS_NA.
 */
#define PS_NETSTAT_COUNTERS(X)                                                 \
	X(ip_in_receives, "Ip", "InReceives")                                  \
	X(ip_in_hdr_errors, "Ip", "InHdrErrors")                               \
	X(ip_in_addr_errors, "Ip", "InAddrErrors")                             \
	X(ip_in_discards, "Ip", "InDiscards")                                  \
	X(ip_in_delivers, "Ip", "InDelivers")                                  \
	X(ip_out_discards, "Ip", "OutDiscards")                                \
	X(tcp_in_segs, "Tcp", "InSegs")                                        \
	X(tcp_out_segs, "Tcp", "OutSegs")                                      \
	X(tcp_retrans_segs, "Tcp", "RetransSegs")                              \
	X(tcp_in_errs, "Tcp", "InErrs")                                        \
	X(udp_in_datagrams, "Udp", "InDatagrams")                              \
	X(udp_no_ports, "Udp", "NoPorts")                                      \
	X(udp_in_errors, "Udp", "InErrors")                                    \
	X(udp_out_datagrams, "Udp", "OutDatagrams")                            \
	X(udp_rcvbuf_errors, "Udp", "RcvbufErrors")                            \
	X(udp_sndbuf_errors, "Udp", "SndbufErrors")                            \
	X(udp_in_csum_errors, "Udp", "InCsumErrors")                           \
	X(tcp_timeouts, "TcpExt", "TCPTimeouts")                               \
	X(tcp_loss_probes, "TcpExt", "TCPLossProbes")                          \
	X(tcp_fast_retrans, "TcpExt", "TCPFastRetrans")                        \
	X(tcp_slow_start_retrans, "TcpExt", "TCPSlowStartRetrans")             \
	X(tcp_lost_retransmit, "TcpExt", "TCPLostRetransmit")                  \
	X(tcp_spurious_rtos, "TcpExt", "TCPSpuriousRTOs")                      \
	X(tcp_sack_reorder, "TcpExt", "TCPSACKReorder")                        \
	X(tcp_dsack_recv, "TcpExt", "TCPDSACKRecv")                            \
	X(tcp_backlog_drop, "TcpExt", "TCPBacklogDrop")                        \
	X(tcp_prune_called, "TcpExt", "PruneCalled")                           \
	X(tcp_rcv_pruned, "TcpExt", "RcvPruned")                               \
	X(tcp_ofo_pruned, "TcpExt", "OfoPruned")                               \
	X(tcp_ofo_drop, "TcpExt", "TCPOFODrop")                                \
	X(tcp_rcvq_drop, "TcpExt", "TCPRcvQDrop")                              \
	X(tcp_rcv_collapsed, "TcpExt", "TCPRcvCollapsed")                      \
	X(tcp_memory_pressures, "TcpExt", "TCPMemoryPressures")                \
	X(tcp_abort_on_memory, "TcpExt", "TCPAbortOnMemory")                   \
	X(tcp_listen_overflows, "TcpExt", "ListenOverflows")                   \
	X(tcp_listen_drops, "TcpExt", "ListenDrops")

/*
 * The layers of the receive path where the kernel counts a dropped packet,
 * from the bottom up (the NIC's ring and softnet's backlog below them are
 * probe-ethtool's and probe-irq's; the Drops view shows them all).
 */
enum ps_drop_layer {
	PS_DROP_IP,	     /* IP discarded it */
	PS_DROP_UDP_BUF,     /* a UDP socket's receive buffer was full */
	PS_DROP_UDP_ERR,     /* UDP's other receive errors */
	PS_DROP_TCP_BACKLOG, /* TCP's backlog: the socket was busy */
	PS_DROP_TCP_PRUNE,   /* TCP pruned a receive queue short of memory */
	PS_DROP_TCP_OFO,     /* TCP's out-of-order and receive-queue drops */
	PS_DROP_NLAYERS
};

/*
 * X(ID, key, name, layer): the kernel's drop counters, in the order they
 * are told ("UdpRcvbufErrors +12, IpInDiscards +3"): key is the counter's
 * member of PS_NETSTAT_COUNTERS, name as nstat calls it, layer where the
 * packet was lost. The one list of them: the checks' sums and texts
 * (check-drops.c) and the Drops view's layers read it.
 */
#define PS_NETSTAT_DROPS(X)                                                    \
	X(UDP_RCVBUF, udp_rcvbuf_errors, "UdpRcvbufErrors", PS_DROP_UDP_BUF)   \
	X(UDP_IN_ERRORS, udp_in_errors, "UdpInErrors", PS_DROP_UDP_ERR)        \
	X(IP_DISCARDS, ip_in_discards, "IpInDiscards", PS_DROP_IP)             \
	X(IP_HDR_ERRORS, ip_in_hdr_errors, "IpInHdrErrors", PS_DROP_IP)        \
	X(TCP_BACKLOG, tcp_backlog_drop, "TCPBacklogDrop",                     \
	  PS_DROP_TCP_BACKLOG)                                                 \
	X(TCP_PRUNED, tcp_rcv_pruned, "RcvPruned", PS_DROP_TCP_PRUNE)          \
	X(TCP_OFO, tcp_ofo_drop, "TCPOFODrop", PS_DROP_TCP_OFO)                \
	X(TCP_RCVQ, tcp_rcvq_drop, "TCPRcvQDrop", PS_DROP_TCP_OFO)

enum ps_netstat_drop_id {
#define PS_NETSTAT_DROP_ID(id, k, name, layer) PS_ND_##id,
	PS_NETSTAT_DROPS(PS_NETSTAT_DROP_ID)
#undef PS_NETSTAT_DROP_ID
		PS_ND_COUNT
};

struct ps_netstat_drop {
	const char *key;  /* "udp_rcvbuf_errors": the member, the JSON key */
	const char *name; /* "UdpRcvbufErrors" */
	size_t off;	  /* the member in struct ps_netstat_counters */
	size_t roff;	  /* and in struct ps_netstat_rates */
	enum ps_drop_layer layer;
};

/* PS_NETSTAT_DROPS, by enum ps_netstat_drop_id */
extern const struct ps_netstat_drop ps_netstat_drops[PS_ND_COUNT];

/* the counters, PS_NA when not reported */
struct ps_netstat_counters {
#define PS_NETSTAT_MEMBER(k, sec, name) int64_t k;
	PS_NETSTAT_COUNTERS(PS_NETSTAT_MEMBER)
#undef PS_NETSTAT_MEMBER
};

/* the same, per second over the sampler's interval (NaN: not rated) */
struct ps_netstat_rates {
#define PS_NETSTAT_RATE(k, sec, name) double k;
	PS_NETSTAT_COUNTERS(PS_NETSTAT_RATE)
#undef PS_NETSTAT_RATE
};

/* /proc/net/sockstat and /proc/sys/net/ipv4/tcp_mem (pages, PS_NA) */
struct ps_sockstat {
	int64_t tcp_inuse, tcp_orphan, tcp_tw, tcp_alloc, tcp_mem;
	int64_t udp_inuse, udp_mem;
	int64_t tcp_mem_low, tcp_mem_pressure, tcp_mem_high; /* tcp_mem */
};

struct ps_netstat_info {
	enum ps_status status; /* ok when snmp or netstat was read */
	char reason[160];
	struct ps_netstat_counters c;
	bool rated; /* r holds rates */
	double interval_s;
	struct ps_netstat_rates r;
	struct ps_sockstat sock;
};

/* every field "not reported" (PS_NA, NaN), status not_recorded */
void ps_netstat_init(struct ps_netstat_info *info);

/*
 * Parse the text of /proc/net/snmp or /proc/net/netstat (pairs of lines
 * "Section: Name Name ..." then "Section: value value ..."): the counters
 * of the table are set, unknown names and other lines ignored. Returns how
 * many counters were set, or -EINVAL when no header/value pair is well
 * formed (a pair whose counts differ, or a value that is not a number, is
 * skipped whole). Untrusted text: every line and count is bounded.
 */
int ps_netstat_parse(const char *text, struct ps_netstat_counters *c);
/* "TCP: inuse 35 orphan 0 tw 4 alloc 59 mem 22" / "UDP: inuse 12 mem 62";
 * the number of values set, -EINVAL when none */
int ps_sockstat_parse(const char *text, struct ps_sockstat *s);
/* "21180 28243 42360"; 0 or -EINVAL */
int ps_tcp_mem_parse(const char *text, struct ps_sockstat *s);

/* drop counter id of c (PS_NA when not reported) */
int64_t ps_netstat_drop(const struct ps_netstat_counters *c,
			enum ps_netstat_drop_id id);
/* a UDP socket's drop counter (a TCP test's drops are not there) */
bool ps_netstat_drop_udp(enum ps_netstat_drop_id id);
/* what one layer dropped: its counters summed (PS_NA: none reported);
 * UdpInErrors counts the buffer's drops too, so the UDP errors' layer is
 * the rest of it */
int64_t ps_netstat_layer_count(const struct ps_netstat_counters *c,
			       enum ps_drop_layer l);
/* the same per second from a rated sample (NaN: not known) */
double ps_netstat_layer_rate(const struct ps_netstat_info *n,
			     enum ps_drop_layer l);
/* a TCP socket's drop counter */
bool ps_netstat_drop_tcp(enum ps_netstat_drop_id id);

/* cur - prev of one counter, PS_NA when either is missing or it went back */
int64_t ps_netstat_delta(int64_t prev, int64_t cur);
/* every counter's delta into d */
void ps_netstat_diff(const struct ps_netstat_counters *prev,
		     const struct ps_netstat_counters *cur,
		     struct ps_netstat_counters *d);
/* every delta of d past max (a count no host reaches in the interval)
 * made PS_NA; the number of them */
int ps_netstat_bound(struct ps_netstat_counters *d, int64_t max);

int ps_netstat_sample(const char *ifname, struct ps_netstat_info *out);
void ps_netstat_rates(const struct ps_netstat_info *prev,
		      struct ps_netstat_info *cur, double seconds);
void ps_netstat_free(struct ps_netstat_info *info);

struct json_object *ps_netstat_to_json(const struct ps_netstat_info *info);
/* the counters alone, as the "counters" object (the not reported left
 * out): a step's deltas in the check report */
struct json_object *
ps_netstat_counters_json(const struct ps_netstat_counters *c);
int ps_netstat_from_json(struct json_object *obj, struct ps_netstat_info *out);
void ps_netstat_print(FILE *out, const struct ps_netstat_info *info);
void ps_netstat_brief(FILE *out, const struct ps_netstat_info *info);

#endif
