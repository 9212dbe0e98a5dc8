/* rtnl.c: the rtnetlink socket the link, qdisc and route probes talk to
 * the kernel through ("ip link", "tc", "ip route" over libnl-route-3) */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netlink.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "rtnl.h"
#include "xmalloc.h"

int ps_rtnl_connect(struct nl_sock **out, bool raw)
{
	struct nl_sock *sk = nl_socket_alloc();

	*out = NULL;
	if (!sk)
		return -ENOMEM;
	if (nl_connect(sk, NETLINK_ROUTE) < 0) {
		nl_socket_free(sk);
		return -EPROTO;
	}
	if (raw) {
		nl_socket_enable_msg_peek(sk);
		/*
		 * Every raw request is a single GET answered by one message
		 * (or a dump ending in DONE): no ACK to leave behind for the
		 * next request, and the raw requests keep libnl's sequence
		 * counter unaware.
		 */
		nl_socket_disable_auto_ack(sk);
		nl_socket_disable_seq_check(sk);
	}
	*out = sk;
	return 0;
}

void ps_rtnl_disconnect(struct nl_sock *sk)
{
	if (sk)
		nl_socket_free(sk);
}

int ps_rtnl_get(struct nl_sock *sk, struct nl_msg *req, unsigned char **out,
		int *outlen)
{
	uint32_t seq;

	nl_complete_msg(sk, req);
	seq = nlmsg_hdr(req)->nlmsg_seq;
	if (nl_send(sk, req) < 0)
		return -EIO;
	for (;;) {
		struct sockaddr_nl nla;
		unsigned char *buf = NULL;
		int n = nl_recv(sk, &nla, &buf, NULL);
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

		if (n <= 0) {
			free(buf);
			return n == 0 ? -ENODATA : -EIO;
		}
		if (NLMSG_OK(nlh, n) && nlh->nlmsg_seq == seq) {
			*out = buf;
			*outlen = n;
			return 0;
		}
		free(buf); /* a stale reply of an earlier request */
	}
}

#define DUMP_MAX (4 << 20)

int ps_rtnl_dump(struct nl_sock *sk, struct nl_msg *req, unsigned char **out,
		 int *outlen)
{
	unsigned char *all = NULL;
	int len = 0;
	uint32_t seq;

	*out = NULL;
	*outlen = 0;
	nl_complete_msg(sk, req);
	seq = nlmsg_hdr(req)->nlmsg_seq;
	if (nl_send(sk, req) < 0)
		return -EIO;
	for (;;) {
		struct sockaddr_nl nla;
		unsigned char *buf = NULL;
		int n = nl_recv(sk, &nla, &buf, NULL), rem = n;
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		bool done = false;

		if (n <= 0) {
			free(buf);
			free(all);
			return n == 0 ? -ENODATA : -EIO;
		}
		if (!NLMSG_OK(nlh, n) || nlh->nlmsg_seq != seq) {
			free(buf); /* a stale reply of an earlier request */
			continue;
		}
		for (; NLMSG_OK(nlh, rem); nlh = NLMSG_NEXT(nlh, rem)) {
			if (nlh->nlmsg_type == NLMSG_DONE)
				done = true;
			if (nlh->nlmsg_type == NLMSG_ERROR &&
			    nlh->nlmsg_len >=
				    NLMSG_LENGTH(sizeof(struct nlmsgerr))) {
				const struct nlmsgerr *e = NLMSG_DATA(nlh);

				if (e->error < 0 && e->error > -4096) {
					free(buf);
					free(all);
					return e->error;
				}
				done = true;
			}
		}
		if (len + n > DUMP_MAX) {
			free(buf);
			free(all);
			return -E2BIG;
		}
		all = xrealloc(all, (size_t)(len + n));
		memcpy(all + len, buf, (size_t)n);
		len += n;
		free(buf);
		if (done)
			break;
	}
	*out = all;
	*outlen = len;
	return 0;
}

void ps_rtnl_init(struct ps_rtnl *r, bool raw)
{
	pthread_mutex_init(&r->lock, NULL);
	r->sk = NULL;
	r->raw = raw;
}

void ps_rtnl_fini(struct ps_rtnl *r)
{
	ps_rtnl_disconnect(r->sk);
	r->sk = NULL;
	pthread_mutex_destroy(&r->lock);
}

struct nl_sock *ps_rtnl_lock(struct ps_rtnl *r, int *err)
{
	pthread_mutex_lock(&r->lock);
	*err = r->sk ? 0 : ps_rtnl_connect(&r->sk, r->raw);
	return r->sk;
}

void ps_rtnl_unlock(struct ps_rtnl *r)
{
	pthread_mutex_unlock(&r->lock);
}
