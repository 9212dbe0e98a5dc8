#!/usr/bin/env python3
# ps-fakeclient.py HOST PORT MODE [SECONDS]: a scripted client that does the iperf3
# handshake as a pipescope client would (extension version 2, the server's
# probe snapshots asked for), then misbehaves. For tests/reliability-server.sh.
#   stall     one TCP stream it keeps sending on; it never reads its
#             control connection again (a small receive buffer: the
#             server's sends fill up soon)
#   udp-byte  a UDP test: after CREATE_STREAMS one stray byte on the
#             control connection, no stream hello; it then sits there
#   udp-silent  the same without the byte: it just sits in UDP set-up
# It prints "running" / "in-setup" when it has got there.
import json
import random
import socket
import struct
import sys
import time

host, port, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
seconds = int(sys.argv[4]) if len(sys.argv) > 4 else 30
cookie = ''.join(random.choice('abcdefghijklmnopqrstuvwxyz234567')
                 for _ in range(36)).encode() + b'\0'
c = socket.socket()
c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
c.connect((host, port))
c.sendall(cookie)


def state():
    b = c.recv(1)
    if not b:
        sys.exit('fake client: the server closed the connection')
    return struct.unpack('b', b)[0]


def skip_json():
    n = struct.unpack('!I', c.recv(4, socket.MSG_WAITALL))[0]
    c.recv(n, socket.MSG_WAITALL)


if state() != 9:
    sys.exit('fake client: no PARAM_EXCHANGE')
p = {"time": seconds, "parallel": 1, "len": 1024, "client_version": "fake",
     "pipescope": {"ext": 2, "probes": True}}
if mode.startswith('udp'):
    p.update(udp=True, bandwidth=1000000)
else:
    p['tcp'] = True
m = json.dumps(p).encode()
c.sendall(struct.pack('!I', len(m)) + m)
s = state()
if s == 100:		# EXT_ACK
    skip_json()
    s = state()
if s != 10:
    sys.exit('fake client: state %d, not CREATE_STREAMS' % s)
if mode.startswith('udp'):
    if mode == 'udp-byte':
        c.send(b'\x07')
    print('in-setup', flush=True)
    time.sleep(60)
    sys.exit(0)
d = socket.socket()
d.connect((host, port))
d.sendall(cookie)
if state() != 1 or state() != 2:
    sys.exit('fake client: no TEST_START, TEST_RUNNING')
print('running', flush=True)
buf = b'x' * 1024
end = time.time() + 60
while time.time() < end:
    try:
        d.send(buf)
    except OSError:
        break
    time.sleep(0.002)
