/* stream-udp.h: the UDP side of a data stream (stream-udp.c), for stream.c */
#ifndef PS_STREAM_UDP_H
#define PS_STREAM_UDP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "test.h"

/* a UDP receiver's buffer: one datagram, or one GRO batch, at most */
#define PS_UDP_RX_BUF 65536

/* the socket options of a new UDP stream (s->fd, s->sender, s->len set):
 * GSO segments (s->gso_segs) or GRO, and a deep receive buffer */
void ps_stream_udp_setup(struct ps_stream *s);
/* iperf3's datagram header: sec, usec, then the 32- or 64-bit number */
void ps_udp_stamp(struct ps_stream *s, char *pkt, uint64_t seq);
/* one recvmsg into s->buf; *seg is the GRO segment size when there is one */
ssize_t ps_udp_recv(struct ps_stream *s, size_t *seg);
/* count the n bytes just received (datagrams of seg bytes, 0 = one) */
void ps_udp_received(struct ps_stream *s, size_t n, size_t seg);

#endif
