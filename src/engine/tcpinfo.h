/* tcpinfo.h: TCP_INFO, read with a buffer newer kernels can fill */
#ifndef PS_TCPINFO_H
#define PS_TCPINFO_H

#include <stdbool.h>
#include <stdint.h>

struct ps_tcpinfo {
	bool valid;
	unsigned len; /* bytes the kernel returned */
	uint32_t rtt_us, rttvar_us, min_rtt_us;
	uint32_t snd_cwnd; /* segments */
	uint32_t snd_mss, pmtu, reordering;
	uint32_t total_retrans;
	uint64_t pacing_rate, delivery_rate; /* bytes/s */
	bool app_limited;
	bool has_chrono; /* busy/rwnd/sndbuf limited times (4.10+) */
	uint64_t busy_us, rwnd_limited_us, sndbuf_limited_us;
	bool has_snd_wnd;
	uint32_t snd_wnd;    /* bytes (5.4+) */
	uint32_t reord_seen; /* reordering events (4.19+), iperf3's reorder */
	uint64_t bytes_acked, bytes_received;
};

int ps_tcpinfo_read(int fd, struct ps_tcpinfo *ti);

#endif
