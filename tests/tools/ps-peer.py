#!/usr/bin/env python3
# ps-peer.py: a scripted hostile iperf3 peer on 127.0.0.1 for the
# reliability tests: one test, then it exits.
#
#   ps-peer.py server PORT strings   a server whose EXT_ACK version, results'
#                                    congestion_used and server_output_text
#                                    carry escape sequences (TCP test)
#   ps-peer.py client PORT strings   a client whose client_version and
#                                    results' congestion_used do (TCP test)
#   ps-peer.py client PORT udp-jump [64]  a UDP client whose datagrams are
#                                    numbered 1, 2, 2^32-1 (2^63 with 64),
#                                    3, 4, ... 50, then 61 ... 70
#   ps-peer.py client PORT udp-jump-late [64]  unlimited: 1 ... 50, a
#                                    pause, 5e7, then 61 ... 70
#   ps-peer.py server PORT udp-jump-late  the same from a -R UDP server
import json
import socket
import struct
import sys
import threading
import time

TEST_START, TEST_RUNNING, TEST_END = 1, 2, 4
PARAM_EXCHANGE, CREATE_STREAMS = 9, 10
EXCHANGE_RESULTS, DISPLAY_RESULTS, IPERF_DONE = 13, 14, 16
EXT_ACK = 100
COOKIE = b"pipescopehostilepeer0123456789abcdef\0"  # 37 bytes
EVIL = "\x1b]0;owned\x07\x1b[2J\x1b[31m\u009b"


def readn(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise EOFError("closed after %d of %d bytes" % (len(b), n))
        b += c
    return b


def state(s):
    return struct.unpack("b", readn(s, 1))[0]


def send_state(s, st):
    s.sendall(struct.pack("b", st))


def send_json(s, obj):
    b = json.dumps(obj).encode()
    s.sendall(struct.pack("!I", len(b)) + b)


def recv_json(s):
    n = struct.unpack("!I", readn(s, 4))[0]
    return json.loads(readn(s, n))


def results(streams, cc):
    return {"cpu_util_total": 1.0, "cpu_util_user": 0.5,
            "cpu_util_system": 0.5, "sender_has_retransmits": 0,
            "congestion_used": cc, "streams": streams}


def drain(s):
    try:
        while s.recv(65536):
            pass
    except OSError:
        pass


def accept_test(port):
    """listen, take a client's control connection and its parameters"""
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", port))
    ls.listen(4)
    c, _ = ls.accept()
    readn(c, 37)
    send_state(c, PARAM_EXCHANGE)
    return ls, c, recv_json(c)


def server(port):
    ls, c, _ = accept_test(port)
    send_state(c, EXT_ACK)
    send_json(c, {"version": "9.9" + EVIL, "ext": 1})
    send_state(c, CREATE_STREAMS)
    d, _ = ls.accept()
    readn(d, 37)
    t = threading.Thread(target=drain, args=(d,), daemon=True)
    t.start()
    send_state(c, TEST_START)
    send_state(c, TEST_RUNNING)
    while state(c) != TEST_END:
        pass
    send_state(c, EXCHANGE_RESULTS)
    recv_json(c)
    r = results([{"id": 1, "bytes": 1000, "retransmits": 0, "jitter": 0,
                  "errors": 0, "packets": 0, "start_time": 0,
                  "end_time": 1}], "cubic" + EVIL)
    r["server_output_text"] = "a line" + EVIL + "\nanother line\n"
    send_json(c, r)
    send_state(c, DISPLAY_RESULTS)
    try:
        state(c)
    except EOFError:
        pass
    d.close()
    c.close()


def control(port, params):
    c = socket.create_connection(("127.0.0.1", port))
    c.sendall(COOKIE)
    st = state(c)
    if st != PARAM_EXCHANGE:
        sys.exit("ps-peer: the server sent state %d, not PARAM_EXCHANGE" % st)
    send_json(c, params)
    while True:
        st = state(c)
        if st == CREATE_STREAMS:
            return c
        if st == EXT_ACK:
            recv_json(c)
        else:
            sys.exit("ps-peer: the server sent state %d" % st)


def wait_running(c):
    for want in (TEST_START, TEST_RUNNING):
        st = state(c)
        if st != want:
            sys.exit("ps-peer: state %d, wanted %d" % (st, want))


def finish(c, streams, cc):
    send_state(c, TEST_END)
    while state(c) != EXCHANGE_RESULTS:
        pass
    send_json(c, results(streams, cc))
    recv_json(c)
    while state(c) != DISPLAY_RESULTS:
        pass
    send_state(c, IPERF_DONE)
    c.close()


def client_strings(port):
    c = control(port, {"tcp": True, "omit": 0, "time": 1, "num": 0,
                       "blockcount": 0, "parallel": 1, "len": 65536,
                       "client_version": "3.12" + EVIL})
    d = socket.create_connection(("127.0.0.1", port))
    d.sendall(COOKIE)
    wait_running(c)
    buf = b"x" * 65536
    end = time.time() + 0.3
    sent = 0
    while time.time() < end:
        d.sendall(buf)
        sent += len(buf)
    d.close()
    finish(c, [{"id": 1, "bytes": sent, "retransmits": 0, "jitter": 0,
                "errors": 0, "packets": 0, "start_time": 0,
                "end_time": 0.3}], "reno" + EVIL)


def client_udp_jump(port, bits, late=False):
    """1, 2, a jump, 3 ... 50, then 61 ... 70; late: unlimited,
    jump_seqs()"""
    params = {"udp": True, "omit": 0, "time": 1, "num": 0, "blockcount": 0,
              "parallel": 1, "len": 1460,
              "bandwidth": 0 if late else 1000000, "client_version": "3.12"}
    if bits == 64:
        params["udp_counters_64bit"] = True
    c = control(port, params)
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.connect(("127.0.0.1", port))
    u.send(b"9876")
    u.settimeout(5)
    u.recv(4)
    wait_running(c)
    if late:
        seqs = jump_seqs()
    else:
        jump = (1 << 63) if bits == 64 else 0xffffffff
        seqs = [1, 2, jump] + list(range(3, 51)) + list(range(61, 71))
    sent = send_seqs(u, seqs, bits)
    time.sleep(0.2)
    finish(c, [{"id": 1, "bytes": 1460 * sent, "retransmits": -1,
                "jitter": 0, "errors": 0, "packets": sent,
                "start_time": 0, "end_time": 0.3}], "")
    u.close()


def jump_seqs():
    """1 ... 50, a pause, 5e7 (the rate rule alone accepts it in an
    unlimited test), 61 ... 70: 51 ... 60 stand for what the network lost"""
    return list(range(1, 51)) + [None, 50000000] + list(range(61, 71))


def send_seqs(u, seqs, bits):
    for seq in seqs:
        if seq is None:
            time.sleep(0.5)
            continue
        now = time.time()
        head = struct.pack("!II", int(now), int(now % 1 * 1e6))
        head += struct.pack("!Q", seq) if bits == 64 else \
            struct.pack("!I", seq)
        u.send(head + b"\0" * (1460 - len(head)))
        time.sleep(0.002)
    # the ten the network lost were sent too
    return len([s for s in seqs if s is not None]) + 10


def server_udp_jump(port):
    """a -R UDP server that sends jump_seqs() to the client"""
    ls, c, params = accept_test(port)
    bits = 64 if params.get("udp_counters_64bit") else 32
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u.bind(("127.0.0.1", port))
    send_state(c, CREATE_STREAMS)
    u.settimeout(5)
    _, peer = u.recvfrom(64)
    u.connect(peer)
    u.send(b"6789")
    send_state(c, TEST_START)
    send_state(c, TEST_RUNNING)
    sent = send_seqs(u, jump_seqs(), bits)
    while state(c) != TEST_END:
        pass
    send_state(c, EXCHANGE_RESULTS)
    theirs = recv_json(c)
    ids = [st.get("id", 1) for st in theirs.get("streams", [])] or [1]
    send_json(c, results([{"id": ids[0], "bytes": 1460 * sent,
                           "retransmits": -1, "jitter": 0, "errors": 0,
                           "packets": sent, "start_time": 0,
                           "end_time": 1}], ""))
    send_state(c, DISPLAY_RESULTS)
    try:
        state(c)
    except EOFError:
        pass
    u.close()
    c.close()
    ls.close()


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__ or "usage: ps-peer.py server|client PORT MODE")
    role, port, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if role == "server" and mode == "strings":
        server(port)
    elif role == "client" and mode == "strings":
        client_strings(port)
    elif role == "server" and mode == "udp-jump-late":
        server_udp_jump(port)
    elif role == "client" and mode in ("udp-jump", "udp-jump-late"):
        client_udp_jump(port, int(sys.argv[4]) if len(sys.argv) > 4 else 32,
                        mode == "udp-jump-late")
    else:
        sys.exit("ps-peer.py: unknown role or mode")


if __name__ == "__main__":
    main()
