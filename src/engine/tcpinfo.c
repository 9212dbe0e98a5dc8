/* tcpinfo.c: RTT, cwnd, retransmits and "why is it slow" from TCP_INFO */
#include "config.h"

#include <errno.h>
#include <linux/tcp.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include "tcpinfo.h"

/* does the kernel's reply (len bytes) reach the end of this field? */
#define HAS(field)                                                             \
	(len >= offsetof(struct tcp_info, field) +                             \
			sizeof(((struct tcp_info *)0)->field))

int ps_tcpinfo_read(int fd, struct ps_tcpinfo *ti)
{
	/* larger than any struct tcp_info so newer kernels fit */
	union {
		struct tcp_info i;
		unsigned char raw[512];
	} u;
	socklen_t len = sizeof(u);

	memset(ti, 0, sizeof(*ti));
	memset(&u, 0, sizeof(u));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &u, &len))
		return -errno;
	ti->valid = true;
	ti->len = len;
	ti->rtt_us = u.i.tcpi_rtt;
	ti->rttvar_us = u.i.tcpi_rttvar;
	ti->snd_cwnd = u.i.tcpi_snd_cwnd;
	ti->snd_mss = u.i.tcpi_snd_mss;
	ti->pmtu = u.i.tcpi_pmtu;
	ti->reordering = u.i.tcpi_reordering;
	ti->total_retrans = u.i.tcpi_total_retrans;
	if (HAS(tcpi_pacing_rate))
		ti->pacing_rate = u.i.tcpi_pacing_rate;
	if (HAS(tcpi_bytes_acked))
		ti->bytes_acked = u.i.tcpi_bytes_acked;
	if (HAS(tcpi_bytes_received))
		ti->bytes_received = u.i.tcpi_bytes_received;
	if (HAS(tcpi_min_rtt))
		ti->min_rtt_us = u.i.tcpi_min_rtt;
	if (HAS(tcpi_delivery_rate)) {
		ti->delivery_rate = u.i.tcpi_delivery_rate;
		ti->app_limited = u.i.tcpi_delivery_rate_app_limited;
	}
	if (HAS(tcpi_sndbuf_limited)) {
		ti->has_chrono = true;
		ti->busy_us = u.i.tcpi_busy_time;
		ti->rwnd_limited_us = u.i.tcpi_rwnd_limited;
		ti->sndbuf_limited_us = u.i.tcpi_sndbuf_limited;
	}
	if (HAS(tcpi_snd_wnd)) {
		ti->has_snd_wnd = true;
		ti->snd_wnd = u.i.tcpi_snd_wnd;
	}
	if (HAS(tcpi_reord_seen))
		ti->reord_seen = u.i.tcpi_reord_seen;
	return 0;
}
