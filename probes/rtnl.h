/* rtnl.h: the rtnetlink socket under the link, qdisc and route probes
 * (libnl-route-3), as iproute2's lib/libnetlink.c is under ip and tc:
 * opened, a request sent and its own reply taken, closed. What a reply
 * means is the probe's business (probe-link.c, probe-qdisc.c,
 * probe-route.c). */
#ifndef PS_RTNL_H
#define PS_RTNL_H

#include <pthread.h>
#include <stdbool.h>

struct nl_msg;
struct nl_sock;

/*
 * A connected NETLINK_ROUTE socket in *out: 0, -ENOMEM or -EPROTO (*out
 * NULL). raw: for requests whose reply bytes the caller reads itself
 * (ps_rtnl_get): no ACK asked for, no sequence check by libnl, and replies
 * peeked at their full size. Without raw, libnl's own requests (caches,
 * lookups) run as libnl sets them up.
 */
int ps_rtnl_connect(struct nl_sock **out, bool raw);
void ps_rtnl_disconnect(struct nl_sock *sk);

/*
 * Send req (completed with the socket's port and next sequence number) and
 * take the reply to it: its raw bytes in *out (free them), *outlen bytes of
 * whole netlink messages; replies to earlier requests are skipped. 0,
 * -EIO, or -ENODATA when the socket closed.
 */
int ps_rtnl_get(struct nl_sock *sk, struct nl_msg *req, unsigned char **out,
		int *outlen);

/*
 * The same for a dump request (NLM_F_DUMP): every reply message up to
 * NLMSG_DONE, concatenated in *out (free it), at most 4 MiB. 0, -EIO,
 * -ENODATA, -E2BIG, or the kernel's error (-errno) when it refused.
 */
int ps_rtnl_dump(struct nl_sock *sk, struct nl_msg *req, unsigned char **out,
		 int *outlen);

/*
 * A socket kept between samples: a probe set's, which its link and qdisc
 * probes share (each set has its own, so closing one set never shuts
 * another's), or a lone probe's. Opened at its first use, one user at a
 * time.
 */
struct ps_rtnl {
	pthread_mutex_t lock;
	struct nl_sock *sk; /* NULL until the first ps_rtnl_lock */
	bool raw;	    /* how it is connected (ps_rtnl_connect) */
};

void ps_rtnl_init(struct ps_rtnl *r, bool raw);
void ps_rtnl_fini(struct ps_rtnl *r);
/* lock it, connecting it if it is not yet: the socket, or NULL with *err
 * (-errno) set; locked either way, so ps_rtnl_unlock follows always */
struct nl_sock *ps_rtnl_lock(struct ps_rtnl *r, int *err);
void ps_rtnl_unlock(struct ps_rtnl *r);

#endif
