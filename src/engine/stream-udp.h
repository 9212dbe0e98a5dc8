/* stream-udp.h: the UDP side of a data stream (stream-udp.c), for stream.c */
#ifndef PS_STREAM_UDP_H
#define PS_STREAM_UDP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "test.h"

/* a UDP receiver's buffer: one datagram, or one GRO batch, at most, and
 * how many of them one receive takes */
#define PS_UDP_RX_BUF 65536
#define PS_UDP_RX_BATCH 8

/* the socket options of a new UDP stream (s->fd, s->sender, s->len set):
 * GSO segments (s->gso_segs) or GRO, and a deep receive buffer */
void ps_stream_udp_setup(struct ps_stream *s);
/* iperf3's datagram header: sec, usec, then the 32- or 64-bit number */
void ps_udp_stamp(struct ps_stream *s, char *pkt, uint64_t seq);
/* up to PS_UDP_RX_BATCH receives into s->buf, each datagram counted
 * (loss, order, jitter): the bytes, or -1 with errno */
ssize_t ps_udp_recv(struct ps_stream *s);

#endif
