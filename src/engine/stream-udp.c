/* stream-udp.c: what a UDP data stream does that TCP does not: GSO/GRO and
 * a deep receive buffer, the datagram header iperf3 writes (time, sequence
 * number), and the receiver's loss, out-of-order and jitter accounting */
#include "config.h"

#include <arpa/inet.h>
#include <math.h>
#include <stdbool.h>
#include <netinet/udp.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "stream-udp.h"

void ps_stream_udp_setup(struct ps_stream *s)
{
	const struct ps_params *p = &s->t->p;
	int fd = s->fd;

	if (s->t->gsro) {
		int on = 1, seg = (int)s->len;

		/* many datagrams per system call; the kernel cuts them */
		if (s->sender && s->len <= 16384 &&
		    setsockopt(fd, SOL_UDP, UDP_SEGMENT, &seg, sizeof(seg)) ==
			    0) {
			s->gso_segs = 63000 / s->len;
			if (s->gso_segs > 64)
				s->gso_segs = 64;
			if (s->gso_segs < 1)
				s->gso_segs = 1;
		}
		if (!s->sender)
			setsockopt(fd, SOL_UDP, UDP_GRO, &on, sizeof(on));
	}
	/*
	 * A UDP receiver gets a deep buffer unless -w says otherwise: the
	 * default 208 KiB holds about 20 ms at 100 Mbit/s, and a scheduling
	 * hiccup longer than that is counted as network loss. Root may go
	 * past net.core.rmem_max (as iperf3 cannot); others get what it allows.
	 */
	if (!s->sender && !p->window) {
		int want = 8 * 1024 * 1024;

		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &want,
			       sizeof(want)))
			setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &want,
				   sizeof(want));
	}
}

void ps_udp_stamp(struct ps_stream *s, char *pkt, uint64_t seq)
{
	struct timespec ts;
	uint32_t sec, usec;

	clock_gettime(CLOCK_REALTIME, &ts);
	sec = htonl((uint32_t)ts.tv_sec);
	usec = htonl((uint32_t)(ts.tv_nsec / 1000));
	memcpy(pkt, &sec, 4);
	memcpy(pkt + 4, &usec, 4);
	if (s->t->p.udp64) {
		uint32_t hi = htonl((uint32_t)(seq >> 32)),
			 lo = htonl((uint32_t)seq);

		memcpy(pkt + 8, &hi, 4);
		memcpy(pkt + 12, &lo, 4);
	} else {
		uint32_t v = htonl((uint32_t)seq);

		memcpy(pkt + 8, &v, 4);
	}
}

/*
 * The most datagrams the sender can have numbered by now: the test began at
 * t->t0 (before the first datagram on either end; a second of slack for
 * the far end's clocks and start), at -b twice its rate per stream (a
 * sender that catches up after a stall stays under the rate on average),
 * else UDP_MAX_PPS, far above what one socket reaches (about 4 Mpps with
 * GSO on loopback), plus a burst. A number past it was never sent: a
 * forged or corrupt header, not billions of lost datagrams.
 */
#define UDP_MAX_PPS 1e8
#define UDP_SEQ_SLACK 1024

static bool seq_plausible(const struct ps_stream *s, uint64_t seq)
{
	const struct ps_params *p = &s->t->p;
	double pps = UDP_MAX_PPS, elapsed = ps_now() - s->t->t0 + 1.0;

	if (p->rate > 0 && s->len > 0 && 2.0 * p->rate / (8.0 * s->len) < pps)
		pps = 2.0 * p->rate / (8.0 * s->len);
	return (double)seq <= pps * elapsed + p->burst + UDP_SEQ_SLACK;
}

/*
 * RFC 1889 jitter and iperf3's loss / out-of-order accounting for one
 * datagram that arrived at now (seconds, CLOCK_REALTIME), in the
 * receiver's private counts (ps_udp_recv publishes them)
 */
static void udp_account(struct ps_stream *s, const char *pkt, size_t n,
			double now)
{
	uint32_t sec, usec;
	uint64_t seq;
	double transit;

	if (n < (s->t->p.udp64 ? 16u : 12u))
		return;
	memcpy(&sec, pkt, 4);
	memcpy(&usec, pkt + 4, 4);
	if (s->t->p.udp64) {
		uint32_t hi, lo;

		memcpy(&hi, pkt + 8, 4);
		memcpy(&lo, pkt + 12, 4);
		seq = ((uint64_t)ntohl(hi) << 32) | ntohl(lo);
	} else {
		uint32_t v;

		memcpy(&v, pkt + 8, 4);
		seq = ntohl(v);
	}
	transit = now - (ntohl(sec) + ntohl(usec) / 1e6);
	if (seq > s->udp_last_seq + 1 && !seq_plausible(s, seq)) {
		/* counted as out of order: received, but neither loss nor
		 * the new highest number, and its time stamp not trusted */
		s->udp_ooo++;
		s->udp_packets++;
		return;
	}
	if (seq >= s->udp_last_seq + 1) {
		s->udp_lost += (int64_t)(seq - 1 - s->udp_last_seq);
		s->udp_last_seq = seq;
	} else {
		s->udp_ooo++;
		if (s->udp_lost > 0)
			s->udp_lost--;
	}
	if (s->udp_packets > 0)
		s->udp_jitter +=
			(fabs(transit - s->udp_prev_transit) - s->udp_jitter) /
			16.0;
	s->udp_prev_transit = transit;
	s->udp_packets++;
}

/* the GRO segment size a receive's control message gives, or 0 */
static size_t gro_seg(struct msghdr *mh)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO) {
			int v;

			memcpy(&v, CMSG_DATA(c), sizeof(v));
			return v > 0 ? (size_t)v : 0;
		}
	}
	return 0;
}

/*
 * Up to PS_UDP_RX_BATCH datagrams (or GRO batches) in one system call,
 * each PS_UDP_RX_BUF apart in s->buf, counted as they are: the bytes, or
 * -1 with errno. Datagrams that arrive together are read together (one
 * clock reading for all of them) and the counts are published once for
 * the call: at 4.7 Mpps, a system call a batch, a clock reading and four
 * atomic operations a datagram cost the receiver a quarter of a core and
 * it dropped 1-10% of a loopback flood. -F writes s->buf as it is: one at
 * a time then.
 */
ssize_t ps_udp_recv(struct ps_stream *s)
{
	struct mmsghdr mm[PS_UDP_RX_BATCH];
	struct iovec iov[PS_UDP_RX_BATCH];
	char ctrl[PS_UDP_RX_BATCH][CMSG_SPACE(sizeof(int))];
	unsigned want = s->file_fd >= 0 ? 1 : PS_UDP_RX_BATCH;
	struct timespec ts;
	ssize_t total = 0;
	double now;
	int got;

	memset(mm, 0, sizeof(mm));
	for (unsigned i = 0; i < want; i++) {
		iov[i].iov_base = s->buf + (size_t)i * PS_UDP_RX_BUF;
		iov[i].iov_len = PS_UDP_RX_BUF;
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
		mm[i].msg_hdr.msg_control = ctrl[i];
		mm[i].msg_hdr.msg_controllen = sizeof(ctrl[i]);
	}
	got = recvmmsg(s->fd, mm, want, MSG_WAITFORONE, NULL);
	if (got <= 0)
		return got;
	clock_gettime(CLOCK_REALTIME, &ts);
	now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	for (int i = 0; i < got; i++) {
		const char *p = iov[i].iov_base;
		size_t n = mm[i].msg_len, seg = gro_seg(&mm[i].msg_hdr);

		/* a GRO buffer holds several datagrams of seg bytes */
		if (!seg || seg > n)
			seg = n;
		for (size_t off = 0; off < n; off += seg)
			udp_account(s, p + off, n - off < seg ? n - off : seg,
				    now);
		total += (ssize_t)n;
	}
	atomic_store_explicit(&s->lost, s->udp_lost, memory_order_relaxed);
	atomic_store_explicit(&s->ooo, s->udp_ooo, memory_order_relaxed);
	atomic_store_explicit(&s->jitter_ns, (uint64_t)(s->udp_jitter * 1e9),
			      memory_order_relaxed);
	atomic_store_explicit(&s->packets, s->udp_packets,
			      memory_order_relaxed);
	return total;
}
