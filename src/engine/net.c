/* net.c: connect/listen with iperf3's socket options (-w -M -N -C -S -B) */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl.h"
#include "log.h"
#include "net.h"
#include "nls.h"

#ifndef SO_MAX_PACING_RATE
#define SO_MAX_PACING_RATE 47
#endif
#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

/* linux/in6.h's flow label request (it clashes with netinet/in.h) */
struct ps_flowlabel_req {
	struct in6_addr flr_dst;
	uint32_t flr_label;
	uint8_t flr_action;
	uint8_t flr_share;
	uint16_t flr_flags;
	uint16_t flr_expires;
	uint16_t flr_linger;
	uint32_t __flr_pad;
};
#ifndef IPV6_FLOWLABEL_MGR
#define IPV6_FLOWLABEL_MGR 32
#endif
#ifndef IPV6_FLOWINFO_SEND
#define IPV6_FLOWINFO_SEND 33
#endif
#define PS_FL_A_GET 0
#define PS_FL_S_ANY 255
#define PS_FL_F_CREATE 1

static bool use_mptcp;

void ps_net_set_mptcp(bool on)
{
	use_mptcp = on;
}

/* a socket of this type: MPTCP for TCP under -m, said clearly if it fails */
static int new_socket(int family, int socktype)
{
	int proto = socktype == SOCK_STREAM && use_mptcp ? IPPROTO_MPTCP : 0;
	int fd = socket(family, socktype | SOCK_CLOEXEC, proto);

	if (fd < 0 && proto) {
		int e = errno;

		ps_err(_("-m: cannot open an MPTCP socket (%s): this kernel "
			 "lacks MPTCP or net.mptcp.enabled is 0"),
		       strerror(e));
		errno = e;
	}
	return fd;
}

int ps_set_keepalive(int fd, int idle, int interval, int count)
{
	int one = 1;

	if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one)))
		return -errno;
	if ((idle &&
	     setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle))) ||
	    (interval && setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval,
				    sizeof(interval))) ||
	    (count &&
	     setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof(count))))
		return -errno;
	return 0;
}

/* -L: lease the label for this destination and send it (IPv6 only) */
static int set_flowlabel(int fd, struct sockaddr_in6 *dst, int label)
{
	struct ps_flowlabel_req req = { 0 };
	int one = 1;

	req.flr_dst = dst->sin6_addr;
	req.flr_label = htonl((uint32_t)label & 0xfffff);
	req.flr_action = PS_FL_A_GET;
	req.flr_flags = PS_FL_F_CREATE;
	req.flr_share = PS_FL_S_ANY;
	if (setsockopt(fd, IPPROTO_IPV6, IPV6_FLOWLABEL_MGR, &req,
		       sizeof(req)) ||
	    setsockopt(fd, IPPROTO_IPV6, IPV6_FLOWINFO_SEND, &one, sizeof(one)))
		return -errno;
	dst->sin6_flowinfo = req.flr_label;
	return 0;
}

int ps_apply_sockopts(int fd, int family, bool tcp,
		      const struct ps_sockopts *so, char *warn, size_t warnlen)
{
	int one = 1;

	if (warn && warnlen)
		warn[0] = 0;
	if (!so)
		return 0;
	if (so->window) {
		int w = so->window > INT32_MAX ? INT32_MAX : (int)so->window;

		if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &w, sizeof(w)) ||
		    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof(w)))
			return -errno;
	}
	if (tcp && so->mss > 0 &&
	    setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &so->mss, sizeof(so->mss)))
		return -errno;
	if (tcp && so->nodelay &&
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		return -errno;
	if (tcp && so->congestion && *so->congestion &&
	    setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, so->congestion,
		       strlen(so->congestion)))
		return -errno;
	if (so->tos >= 0) {
		int rc = family == AF_INET6
				 ? setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS,
					      &so->tos, sizeof(so->tos))
				 : setsockopt(fd, IPPROTO_IP, IP_TOS, &so->tos,
					      sizeof(so->tos));
		if (rc)
			return -errno;
	}
	if (so->pacing_bps) {
		uint64_t bytes = so->pacing_bps / 8;

		/* 64-bit where the kernel takes it, else the old 32-bit */
		if (setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &bytes,
			       sizeof(bytes))) {
			unsigned b32 = bytes > UINT32_MAX ? UINT32_MAX
							  : (unsigned)bytes;

			if (setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &b32,
				       sizeof(b32)) &&
			    warn)
				snprintf(warn, warnlen,
					 _("pacing rate not set: %s"),
					 strerror(errno));
		}
	}
	if (tcp && so->snd_timeout_ms) {
		unsigned t = so->snd_timeout_ms;

		setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &t, sizeof(t));
	}
	if (!tcp && so->dont_fragment && family == AF_INET) {
		int v = IP_PMTUDISC_DO;

		setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &v, sizeof(v));
	}
	return 0;
}

static int bind_local(int fd, int family, const char *bind_addr,
		      const char *bind_dev, int port)
{
	if (bind_dev && *bind_dev &&
	    setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, bind_dev,
		       strlen(bind_dev)))
		return -errno;
	if ((bind_addr && *bind_addr) || port) {
		struct addrinfo hints = { .ai_family = family,
					  .ai_flags =
						  AI_PASSIVE | AI_NUMERICSERV };
		struct addrinfo *res;
		char ps[16];
		int rc;

		snprintf(ps, sizeof(ps), "%d", port);
		rc = getaddrinfo(bind_addr && *bind_addr ? bind_addr : NULL, ps,
				 &hints, &res);
		if (rc)
			return -EADDRNOTAVAIL;
		rc = bind(fd, res->ai_addr, res->ai_addrlen) ? -errno : 0;
		freeaddrinfo(res);
		return rc;
	}
	return 0;
}

static int connect_timeout(int fd, const struct sockaddr *sa, socklen_t len,
			   unsigned timeout_ms)
{
	int flags, err = 0;
	socklen_t elen = sizeof(err);
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	if (!timeout_ms)
		return connect(fd, sa, len) ? -errno : 0;
	flags = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	if (connect(fd, sa, len) == 0)
		goto done;
	if (errno != EINPROGRESS)
		return -errno;
	switch (poll(&p, 1, (int)timeout_ms)) {
	case 0:
		return -ETIMEDOUT;
	case -1:
		return -errno;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen))
		return -errno;
	if (err)
		return -err;
done:
	fcntl(fd, F_SETFL, flags);
	return 0;
}

int ps_connect(const char *host, int port, int family, int socktype,
	       const char *bind_addr, const char *bind_dev, int cport,
	       const struct ps_sockopts *so, unsigned timeout_ms,
	       const char **why)
{
	struct addrinfo hints = { 0 }, *res, *ai;
	char ps[16];
	int fd = -1, rc, last = -ECONNREFUSED, one = 1;

	*why = _("resolve");
	hints.ai_family = family == 4	? AF_INET
			  : family == 6 ? AF_INET6
					: AF_UNSPEC;
	hints.ai_socktype = socktype;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(ps, sizeof(ps), "%d", port);
	rc = getaddrinfo(host, ps, &hints, &res);
	if (rc)
		return rc == EAI_NONAME || rc == EAI_NODATA ? -EHOSTUNREACH
							    : -EINVAL;
	for (ai = res; ai; ai = ai->ai_next) {
		struct sockaddr_storage dst;

		*why = _("socket");
		fd = new_socket(ai->ai_family, ai->ai_socktype);
		if (fd < 0) {
			last = -errno;
			continue;
		}
		memcpy(&dst, ai->ai_addr, ai->ai_addrlen);
		if (cport)
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one,
				   sizeof(one));
		*why = _("socket options");
		rc = ps_apply_sockopts(fd, ai->ai_family,
				       socktype == SOCK_STREAM, so, NULL, 0);
		if (!rc) {
			*why = _("bind");
			rc = bind_local(fd, ai->ai_family, bind_addr, bind_dev,
					cport);
		}
		if (!rc && so && so->flowlabel && ai->ai_family == AF_INET6) {
			*why = _("flow label");
			rc = set_flowlabel(fd, (struct sockaddr_in6 *)&dst,
					   so->flowlabel);
		}
		if (!rc) {
			*why = _("connect");
			ps_debug("connecting to %s port %d (%s%s)", host, port,
				 socktype == SOCK_STREAM ? "TCP" : "UDP",
				 socktype == SOCK_STREAM && use_mptcp
					 ? ", MPTCP"
					 : "");
			rc = connect_timeout(fd, (struct sockaddr *)&dst,
					     ai->ai_addrlen, timeout_ms);
		}
		if (!rc)
			break;
		last = rc;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd >= 0 ? fd : last;
}

int ps_listen(const char *bind_addr, const char *bind_dev, int port, int family,
	      int socktype)
{
	struct addrinfo hints = { 0 }, *res, *ai;
	char ps[16];
	int fd = -1, rc, last = -EADDRNOTAVAIL, one = 1, zero = 0;

	hints.ai_family = family == 4	? AF_INET
			  : family == 6 ? AF_INET6
					: AF_INET6;
	hints.ai_socktype = socktype;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	snprintf(ps, sizeof(ps), "%d", port);
	rc = getaddrinfo(bind_addr && *bind_addr ? bind_addr : NULL, ps, &hints,
			 &res);
	if (rc && !bind_addr && family == 0) {
		hints.ai_family = AF_INET;
		rc = getaddrinfo(NULL, ps, &hints, &res);
	} else if (rc && bind_addr) {
		hints.ai_family = AF_UNSPEC;
		rc = getaddrinfo(bind_addr, ps, &hints, &res);
	}
	if (rc)
		return -EADDRNOTAVAIL;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = new_socket(ai->ai_family, ai->ai_socktype);
		if (fd < 0) {
			last = -errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		/* a v6 wildcard serves v4 clients too, unless -6 was given */
		if (ai->ai_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY,
				   family == 6 ? &one : &zero, sizeof(int));
		if (bind_dev && *bind_dev &&
		    setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, bind_dev,
			       strlen(bind_dev))) {
			last = -errno;
			close(fd);
			fd = -1;
			continue;
		}
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) ||
		    (socktype == SOCK_STREAM && listen(fd, 128))) {
			last = -errno;
			close(fd);
			fd = -1;
			continue;
		}
		ps_debug("listening on port %d (%s%s)", port,
			 socktype == SOCK_STREAM ? "TCP" : "UDP",
			 socktype == SOCK_STREAM && use_mptcp ? ", MPTCP" : "");
		break;
	}
	freeaddrinfo(res);
	return fd >= 0 ? fd : last;
}

int ps_read_full(int fd, void *buf, size_t len, int timeout_ms)
{
	return ps_read_full_stop(fd, buf, len, timeout_ms, NULL);
}

int ps_read_full_stop(int fd, void *buf, size_t len, int timeout_ms,
		      atomic_bool *stop)
{
	char *p = buf;
	double deadline = timeout_ms > 0 ? ps_now() + timeout_ms / 1000.0 : 0;

	while (len) {
		ssize_t n;

		if (stop && atomic_load(stop))
			return -EINTR;
		if (timeout_ms > 0 || stop) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };
			int wait = -1, r;

			if (timeout_ms > 0) {
				wait = (int)((deadline - ps_now()) * 1000);
				if (wait <= 0)
					return -ETIMEDOUT;
			}
			/* slices of 100 ms, to see *stop soon (a signal
			 * handler sets it; EINTR alone restarts the read) */
			if (stop && (wait < 0 || wait > 100))
				wait = 100;
			r = poll(&pfd, 1, wait);
			if (r < 0 && errno != EINTR)
				return -errno;
			if (r <= 0)
				continue; /* the deadline or *stop decides */
		}
		n = read(fd, p, len);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int ps_write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

void ps_sock_name(int fd, bool peer, char *addr, size_t len, int *port)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int rc = peer ? getpeername(fd, (struct sockaddr *)&ss, &sl)
		      : getsockname(fd, (struct sockaddr *)&ss, &sl);

	*port = 0;
	snprintf(addr, len, "?");
	if (rc)
		return;
	if (ss.ss_family == AF_INET) {
		struct sockaddr_in *s = (struct sockaddr_in *)&ss;

		inet_ntop(AF_INET, &s->sin_addr, addr, (socklen_t)len);
		*port = ntohs(s->sin_port);
	} else if (ss.ss_family == AF_INET6) {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)&ss;

		inet_ntop(AF_INET6, &s->sin6_addr, addr, (socklen_t)len);
		/* v4-mapped peers print as plain IPv4, as iperf3 does */
		if (!strncmp(addr, "::ffff:", 7) && strchr(addr, '.'))
			memmove(addr, addr + 7, strlen(addr + 7) + 1);
		*port = ntohs(s->sin6_port);
	}
}

int ps_sock_family(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &sl))
		return AF_UNSPEC;
	return ss.ss_family;
}

bool ps_sock_peer_local(int fd)
{
	struct sockaddr_storage me, peer;
	socklen_t ml = sizeof(me), pl = sizeof(peer);

	if (getsockname(fd, (struct sockaddr *)&me, &ml) ||
	    getpeername(fd, (struct sockaddr *)&peer, &pl))
		return false;
	if (peer.ss_family == AF_INET) {
		const struct sockaddr_in *v4 =
			(const struct sockaddr_in *)&peer;

		if ((ntohl(v4->sin_addr.s_addr) >> 24) == 127)
			return true;
	} else if (peer.ss_family == AF_INET6) {
		const struct in6_addr *a =
			&((const struct sockaddr_in6 *)&peer)->sin6_addr;

		if (IN6_IS_ADDR_LOOPBACK(a) ||
		    (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127))
			return true;
	}
	return ps_same_host((struct sockaddr *)&me, (struct sockaddr *)&peer);
}

bool ps_boot_id_valid(const char *s)
{
	size_t i;

	for (i = 0; s[i] && i <= PS_BOOT_ID_LEN; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f') || s[i] == '-'))
			return false;
	return i == PS_BOOT_ID_LEN;
}

int ps_boot_id(char *buf, size_t n)
{
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	ssize_t got = -1;

	if (n > 0)
		buf[0] = 0;
	if (fd >= 0) {
		got = read(fd, buf, n > 0 ? n - 1 : 0);
		close(fd);
	}
	if (got < 0 || n == 0)
		return -1;
	buf[got] = 0;
	buf[strcspn(buf, "\n")] = 0;
	if (!ps_boot_id_valid(buf)) {
		buf[0] = 0;
		return -1;
	}
	return 0;
}

bool ps_same_kernel(const char *b)
{
	char me[PS_BOOT_ID_LEN + 2];

	return b && ps_boot_id_valid(b) && !ps_boot_id(me, sizeof(me)) &&
	       !strcmp(me, b);
}

void ps_sock_readback(int fd, int *nodelay, int *mss, int *sndbuf, int *rcvbuf,
		      int *tos, char *cc, size_t cclen)
{
	socklen_t l;
	int fam = ps_sock_family(fd);

#define GET(level, opt, out)                                                   \
	do {                                                                   \
		l = sizeof(*(out));                                            \
		if (getsockopt(fd, level, opt, out, &l))                       \
			*(out) = -1;                                           \
	} while (0)
	GET(IPPROTO_TCP, TCP_NODELAY, nodelay);
	GET(IPPROTO_TCP, TCP_MAXSEG, mss);
	GET(SOL_SOCKET, SO_SNDBUF, sndbuf);
	GET(SOL_SOCKET, SO_RCVBUF, rcvbuf);
	if (fam == AF_INET6)
		GET(IPPROTO_IPV6, IPV6_TCLASS, tos);
	else
		GET(IPPROTO_IP, IP_TOS, tos);
#undef GET
	cc[0] = 0;
	l = (socklen_t)cclen;
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, &l) == 0 && l > 0)
		cc[cclen - 1] = 0;
	else
		cc[0] = 0;
}
