/* net.h: sockets for the control connection and the data streams */
#ifndef PS_NET_H
#define PS_NET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "clock.h" /* ps_now, ps_wallclock: the engine's clocks */

struct ps_sockopts {
	uint64_t window; /* SO_SNDBUF/SO_RCVBUF; 0 = kernel default */
	int mss;	 /* TCP_MAXSEG; 0 = default */
	bool nodelay;
	const char *congestion;	 /* TCP_CONGESTION or NULL */
	int tos;		 /* IP_TOS / IPV6_TCLASS; -1 = unset */
	uint64_t pacing_bps;	 /* SO_MAX_PACING_RATE in bit/s; 0 = none */
	unsigned snd_timeout_ms; /* TCP_USER_TIMEOUT */
	bool dont_fragment;
	int flowlabel; /* IPv6 flow label (-L); 0 = none */
};

/* -m: TCP sockets from here on are MPTCP (IPPROTO_MPTCP) */
void ps_net_set_mptcp(bool on);
/* --cntl-ka: TCP keepalive; idle/interval/count 0 = the system's */
int ps_set_keepalive(int fd, int idle, int interval, int count);

/*
 * Resolve and connect with a timeout (0 = the system's). family is 0, 4 or
 * 6. bind_addr/bind_dev/cport may be NULL/0. Returns the fd or -errno; on
 * failure *why points to a static description of the failing step.
 */
int ps_connect(const char *host, int port, int family, int socktype,
	       const char *bind_addr, const char *bind_dev, int cport,
	       const struct ps_sockopts *so, unsigned timeout_ms,
	       const char **why);
/* a listening TCP socket (or bound UDP socket) on port; fd or -errno */
int ps_listen(const char *bind_addr, const char *bind_dev, int port, int family,
	      int socktype);

/* apply the options that must be set before connect/accept-inherit */
int ps_apply_sockopts(int fd, int family, bool tcp,
		      const struct ps_sockopts *so, char *warn, size_t warnlen);

/* full read/write with a deadline in ms (0 = block); 0, or -errno
 * (-ETIMEDOUT when the deadline passed, -EPIPE on EOF for reads) */
int ps_read_full(int fd, void *buf, size_t len, int timeout_ms);
/* the same, ending with -EINTR soon after *stop is set (NULL: never) */
int ps_read_full_stop(int fd, void *buf, size_t len, int timeout_ms,
		      atomic_bool *stop);
int ps_write_full(int fd, const void *buf, size_t len);

/* "addr" and port of either end of a socket, as text */
void ps_sock_name(int fd, bool peer, char *addr, size_t len, int *port);
int ps_sock_family(int fd);
/* the connection's far end is this host: a loopback address, or the
 * address this end has (so both share this machine's CPUs) */
bool ps_sock_peer_local(int fd);
/*
 * This kernel's boot id (/proc/sys/kernel/random/boot_id, always the live
 * one, never a --sysroot copy) into buf[PS_BOOT_ID_LEN + 1]: 0, or -1
 * with buf "". Two ends with the same one share the kernel, the CPUs and
 * their caches, whatever their network namespaces.
 */
#define PS_BOOT_ID_LEN 36
int ps_boot_id(char *buf, size_t n);
/* a far end's boot id: 36 of [0-9a-f-] */
bool ps_boot_id_valid(const char *s);
/* the far end said the boot id b: is it this kernel? */
bool ps_same_kernel(const char *b);
/* what the kernel applied on a socket: -1 where it cannot say */
void ps_sock_readback(int fd, int *nodelay, int *mss, int *sndbuf, int *rcvbuf,
		      int *tos, char *cc, size_t cclen);

#endif
