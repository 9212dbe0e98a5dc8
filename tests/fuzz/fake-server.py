#!/usr/bin/env python3
"""fake-server.py: a scripted hostile iperf3/pipescope server on 127.0.0.1,
for the client's side of the protocol (tests/reliability-client.sh).

  fake-server.py script PIPESCOPE STEP... [-- CLIENT-ARGS...]
      serve one connection with the steps below while it runs
      "PIPESCOPE -c 127.0.0.1 -p PORT CLIENT-ARGS"; print the client's exit
      status, seconds and peak RSS, then its stderr and stdout
  fake-server.py fuzz PIPESCOPE RUNS SEED
      the property harness: RUNS random scripts (every state in many orders:
      shuffled, repeated, out of order, EXT_* early, oversized counts); each
      client must end by itself in bounded time, with status 0 or 1 and no
      signal, no sanitizer report, one "pipescope: " line when it fails, and
      -J output that strict JSON accepts (no NaN)

Steps: PE (PARAM_EXCHANGE, read the parameters), ACK (EXT_ACK), CS, TS, TR,
DR, TERM (the states), STATE=N (any byte), DATA=N (EXT_DATA, N streams),
PROBE=FILE (EXT_PROBE with a file's bytes), BIGLEN=N (a state 102 and a
length of N without the bytes), JSON=KIND (EXT_PROBE of a generated
message: values, containers, string), SNAP=KIND:BASE (EXT_PROBE of a
snapshot made from the file BASE: amplify, worst, counters), ERR[=I,E] (SERVER_ERROR: iperf3's
i_errno I and errno E, a number or a name such as EBUSY), END (wait for
TEST_END), XR[=N|nan] (EXCHANGE_RESULTS with N streams or NaN numbers),
SLEEP=S, SILENT (say nothing for 30 s), CLOSE.
"""
import errno
import json
import os
import random
import resource
import select
import socket
import struct
import subprocess
import sys
import threading
import time

ST = {"TS": 1, "TR": 2, "PE": 9, "CS": 10, "TERM": 11, "XR": 13, "DR": 14,
      "ACK": 100, "DATA": 101, "PROBE": 102}


class Conn:
    def __init__(self, sock):
        self.s = sock
        self.parallel = 1
        self.nstreams = 1

    def state(self, n):
        self.s.sendall(struct.pack("b", n))

    def frame(self, payload):
        if isinstance(payload, str):
            payload = payload.encode()
        self.s.sendall(struct.pack(">I", len(payload)) + payload)

    def read_exact(self, n, timeout=3.0):
        buf = b""
        end = time.time() + timeout
        while len(buf) < n:
            left = end - time.time()
            if left <= 0 or not select.select([self.s], [], [], left)[0]:
                raise TimeoutError
            b = self.s.recv(n - len(buf))
            if not b:
                raise EOFError
            buf += b
        return buf

    def read_json(self):
        (n,) = struct.unpack(">I", self.read_exact(4))
        return json.loads(self.read_exact(n))


def results(conn, arg):
    n = conn.nstreams
    bad = arg == "nan"
    if arg and arg != "nan":
        n = int(arg)
    ids = [1] + list(range(3, n + 2))
    num = float("nan") if bad else 1.5
    r = {"cpu_util_total": num, "cpu_util_user": float("inf") if bad else 1,
         "cpu_util_system": 0.5, "sender_has_retransmits": 0,
         "congestion_used": "cubic",
         "streams": [{"id": ids[i], "bytes": 1000, "retransmits": 0,
                      "jitter": num, "errors": 0, "packets": 0,
                      "start_time": 0, "end_time": 1} for i in range(n)]}
    return json.dumps(r)


def ext_data(n, bad=False):
    num = float("nan") if bad else 1e6
    return json.dumps({"streams": [
        {"id": 2 * i + 1, "sender": not bad, "bytes": 2 ** 62,
         "bits_per_second": num, "rtt": 2 ** 40, "snd_cwnd": 2 ** 60,
         "retransmits": -2 ** 62, "cpu": 2 ** 30, "rx_cpu": -5,
         "rx_batch": 100 << 20}
        for i in range(n)], "cpu_util_total": num})


def generated(kind, size):
    """a message of about size bytes built to cost the parser the most"""
    if kind == "values":	# as many scalars as fit
        k = size // 2
        return '{"a":[' + ",".join(["0"] * k) + "]}"
    if kind == "containers":	# as many objects as fit
        k = size // 3
        return '{"a":[' + ",".join(["{}"] * k) + "]}"
    if kind == "string":	# one long string
        return '{"a":"' + "x" * (size - 8) + '"}'
    raise ValueError(kind)


def budget(text):
    """(values, containers) as the client and server count them"""
    v = c = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "{[":
            v += 1
            c += 1
        elif ch in ",:":
            v += 1
    return v, c


def worst(size, values, containers):
    """the costliest tree within a limit: empty objects up to the
    containers, zeros up to the values, a string for the bytes left"""
    def build(nobj, nzero, nstr):
        return ('{"a":[' + ",".join(["{}"] * nobj) + '],"b":[' +
                ",".join(["0"] * nzero) + '],"server_output_text":"' +
                "x" * nstr + '","streams":[]}')
    nobj = containers - 4
    nzero = 1
    v, c = budget(build(nobj, nzero, 0))
    nzero += values - v
    text = build(nobj, nzero, 0)
    return build(nobj, nzero, size - len(text))


# what a snapshot may hold (probes/snapshot.c): entries in a list or an
# object, IRQ lines, cells (lines x CPUs) in the IRQ table
SNAP_ITEMS, SNAP_LINES, SNAP_CELLS = 16384, 640, 160 * 1024
# and the lists bounded by what hardware has (snap_lists there)
SNAP_QUEUES, SNAP_MODES, SNAP_LOWER = 2048, 512, 256


def snapshot(base, kind):
    """a far end's snapshot from a real one (base: a file of "probe
    --json"): "amplify", the IRQ table of a hostile server (60000 CPUs by
    25000 lines of zeros, 170 KB); "worst", what the client still accepts,
    every list the loaders turn into structs at its bound (zeros: the least
    text for the most memory), the IRQ table at its cells, and the rest of
    the message's values in lists no loader reads; "counters", every
    counter at 2^64-1, 2^63-1 or 2^62+1 in turn"""
    with open(base) as f:
        d = json.load(f)
    irq = d["irq"]
    if kind == "amplify":
        irq["cpus"], irq["lines"] = [0] * 60000, [0] * 25000
        return json.dumps(d, separators=(",", ":"))
    if kind == "counters":
        big = [2 ** 64 - 1, 2 ** 63 - 1, 2 ** 62 + 1]
        k = [0]

        def walk(o):
            for key in list(o) if isinstance(o, dict) else range(len(o)):
                v = o[key]
                if isinstance(v, (dict, list)):
                    walk(v)
                elif (isinstance(v, int) and not isinstance(v, bool) and
                      key != "snapshot_version"):
                    o[key] = big[k[0] % 3]
                    k[0] += 1
        walk(d)
        return json.dumps(d, separators=(",", ":"))
    n, q, m = SNAP_ITEMS, SNAP_QUEUES, SNAP_MODES
    irq["status"] = "ok"
    irq["lines"] = [0] * SNAP_LINES
    irq["cpus"] = [0] * (SNAP_CELLS // SNAP_LINES)
    irq["queues"] = {"status": "ok", "rx": [0] * q, "tx": [0] * q}
    d["link"]["status"] = "ok"
    d["link"]["lower"] = {"status": "ok", "devices": [0] * SNAP_LOWER}
    eth = d["ethtool"]
    eth["status"] = "ok"
    eth["link_modes"] = {"status": "ok", "supported": [0] * m,
                         "advertised": [0] * m, "partner": [0] * m}
    eth["features"] = {"status": "ok",
                       "all": {"f%d" % i: 0 for i in range(m)}}
    eth["driver_stats"] = {"status": "ok", "total": n,
                           "counters": {"c%d" % i: 0 for i in range(n)}}
    eth["std_stats"] = {"status": "ok", "groups": {
        "g%d" % g: {"s%d" % i: 0 for i in range(m)} for g in range(8)}}
    eth["rss"] = {"status": "ok", "indir": [0] * n}
    b, v, c = LIMITS["probe"]
    text = json.dumps(d, separators=(",", ":"))
    used, _ = budget(text)
    d["filler"] = [[0] * n for _ in range((v - used) // (n + 1) - 1)]
    return json.dumps(d, separators=(",", ":"))


# what each message may hold (src/engine/proto.c): bytes, values, containers
LIMITS = {"probe": (4 << 20, 327680, 4096),
          "results": (4 << 20, (4 << 20) // 128 + 256, (4 << 20) // 2048 + 16),
          "data": (512 << 10, 32768, 2048)}


def drain(lst):
    """accept the data streams and read whatever they send"""
    socks = [lst]
    while True:
        try:
            r = select.select(socks, [], [], 0.2)[0]
        except (ValueError, OSError):
            return
        for s in r:
            try:
                if s is lst:
                    c, _ = lst.accept()
                    socks.append(c)
                elif not s.recv(1 << 16):
                    socks.remove(s)
                    s.close()
            except OSError:
                if s is lst:
                    return
                socks.remove(s)


def serve(lst, steps, log):
    lst.settimeout(10)
    try:
        sock, _ = lst.accept()
    except OSError:
        return
    threading.Thread(target=drain, args=(lst,), daemon=True).start()
    conn = Conn(sock)
    try:
        conn.read_exact(37)
        for step in steps:
            name, _, arg = step.partition("=")
            if name == "PE":
                conn.state(9)
                p = conn.read_json()
                conn.parallel = int(p.get("parallel", 1))
                conn.nstreams = conn.parallel * (2 if p.get("bidirectional") else 1)
            elif name == "ACK":
                conn.state(100)
                conn.frame(arg or '{"version":"fake","ext":2}')
            elif name in ("CS", "TS", "TR", "DR", "TERM"):
                conn.state(ST[name])
            elif name == "STATE":
                conn.state(int(arg))
            elif name == "DATA":
                conn.state(101)
                conn.frame(ext_data(int(arg) if arg else conn.nstreams))
            elif name == "DATANAN":
                conn.state(101)
                conn.frame(ext_data(conn.nstreams, True))
            elif name == "PROBE":
                conn.state(102)
                with open(arg, "rb") as f:
                    conn.frame(f.read())
            elif name == "SNAP":	# SNAP=KIND:BASE (snapshot())
                kind, _, base = arg.partition(":")
                conn.state(102)
                conn.frame(snapshot(base, kind))
            elif name == "JSON":
                kind, _, size = arg.partition(":")
                conn.state(102)
                conn.frame(generated(kind, int(size)))
            elif name == "WORST":	# WORST=KIND[+1]: at (or over) a limit
                kind, plus = arg.rstrip("+1"), arg.endswith("+1")
                b, v, c = LIMITS[kind]
                conn.state({"probe": 102, "data": 101}.get(kind, 102))
                conn.frame(worst(b, v + plus, c))
            elif name == "BIGLEN":
                conn.state(102)
                conn.s.sendall(struct.pack(">I", int(arg)) + b"{")
            elif name == "ERR":
                ierr, err = (arg or "7,0").split(",")
                err = getattr(errno, err) if err.isalpha() else int(err)
                conn.state(-2)
                conn.s.sendall(struct.pack(">ii", int(ierr), err))
            elif name == "END":
                while conn.read_exact(1, 10) != b"\x04":
                    pass
            elif name == "XR":
                conn.state(13)
                conn.read_json()
                if arg.startswith("worst"):
                    b, v, c = LIMITS["results"]
                    conn.frame(worst(b, v + (arg == "worst+1"), c))
                else:
                    conn.frame(results(conn, arg))
            elif name == "SLEEP":
                time.sleep(float(arg))
            elif name == "SILENT":
                time.sleep(30)
            elif name == "CLOSE":
                break
            else:
                raise ValueError("unknown step " + step)
            log.append(step)
    except (OSError, EOFError, TimeoutError, ValueError) as e:
        log.append("stopped: %s" % type(e).__name__)
    finally:
        time.sleep(0.2)
        sock.close()


def listener():
    # a TCP port whose UDP twin is free too: the kernel picks the TCP port,
    # and another process may hold the same number for UDP, so try again
    for _ in range(100):
        lst = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        lst.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        lst.bind(("127.0.0.1", 0))
        lst.listen(1024)
        # and a UDP socket on the same port that never answers the hello
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            udp.bind(("127.0.0.1", lst.getsockname()[1]))
        except OSError:
            udp.close()
            lst.close()
            continue
        while len(SILENT_UDP) > 8:
            SILENT_UDP.pop(0).close()
        SILENT_UDP.append(udp)
        return lst
    raise OSError("no TCP port with a free UDP twin")


SILENT_UDP = []


def run(pipescope, steps, args, timeout=15, signal_after=None):
    """serve steps to one client; (status, seconds, peak KiB, out, err)"""
    lst = listener()
    port = lst.getsockname()[1]
    log = []
    th = threading.Thread(target=serve, args=(lst, steps, log), daemon=True)
    th.start()
    t0 = time.time()
    p = subprocess.Popen([pipescope, "-c", "127.0.0.1", "-p", str(port)] + args,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if signal_after:
        sig, after = signal_after
        time.sleep(after)
        t0 = time.time()
        p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        status = "timeout"
    else:
        status = p.returncode
    secs = time.time() - t0
    # wait4's ru_maxrss of the one child just reaped
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    lst.close()
    return status, secs, peak, out.decode("utf-8", "replace"), \
        err.decode("utf-8", "replace")


def strict_json(text):
    def no(c):
        raise ValueError("bare " + c)
    return json.loads(text, parse_constant=no)


SAN = ("AddressSanitizer", "LeakSanitizer", "runtime error:",
       "UndefinedBehaviorSanitizer", "ThreadSanitizer")


def judge(status, secs, out, err, json_out):
    """what is wrong with one client run, or None"""
    if status == "timeout":
        return "did not end by itself"
    if status not in (0, 1):
        return "exit status %s" % status
    for s in SAN:
        if s in err:
            return "sanitizer report: " + s
    lines = [l for l in err.splitlines() if l.strip()]
    if "\x1b" in err:
        return "raw escape in stderr"
    if json_out:	# -J: the error is the document's "error"
        try:
            doc = strict_json(out)
        except ValueError as e:
            return "-J output is not strict JSON: %s" % e
        if status == 1 and not doc.get("error"):
            return "failed without an error in the -J document"
    elif status == 1 and not any(l.startswith("pipescope: ") for l in lines):
        return "failed without a 'pipescope: ' line"
    return None


def random_script(rng, probe_file):
    good = ["PE", "ACK", "CS", "TS", "TR", "DATA", "END", "XR", "DR"]
    extra = ["PE", "ACK", "CS", "TS", "TR", "DR", "TERM", "ERR", "XR",
             "XR=nan", "XR=9", "DATA", "DATA=0", "DATA=9", "DATA=1000",
             "DATANAN", "STATE=%d" % rng.randrange(-128, 128), "END",
             "BIGLEN=%d" % rng.choice([0, 5, 1 << 24, 0xffffffff]),
             "JSON=values:%d" % rng.choice([1000, 1 << 20]),
             "JSON=containers:%d" % rng.choice([1000, 1 << 20]),
             "SLEEP=0.1", "CLOSE"]
    if probe_file:
        extra.append("PROBE=" + probe_file)
    s = list(good)
    how = rng.randrange(5)
    if how == 0:		# shuffled
        rng.shuffle(s)
    elif how == 1:		# one state repeated
        i = rng.randrange(len(s))
        s.insert(i, s[i])
    elif how == 2:		# mutations
        for _ in range(rng.randrange(1, 4)):
            s.insert(rng.randrange(len(s) + 1), rng.choice(extra))
    elif how == 3:		# one state left out
        del s[rng.randrange(len(s))]
    else:			# anything
        s = [rng.choice(good + extra) for _ in range(rng.randrange(1, 12))]
    return s


def fuzz(pipescope, runs, seed, probe_file=None):
    rng = random.Random(seed)
    bad = 0
    for i in range(runs):
        steps = random_script(rng, probe_file)
        json_out = rng.random() < 0.5
        args = ["-t", "0.3", "-i", "0", "--rcv-timeout", "3000",
                "-P", str(rng.choice([1, 2, 3]))]
        if json_out:
            args.append("-J")
        if rng.random() < 0.3:
            args.append(rng.choice(["-R", "--bidir"]))
        status, secs, _, out, err = run(pipescope, steps, args, timeout=15)
        why = judge(status, secs, out, err, json_out)
        if why is None and secs > 8:
            why = "took %.1f s" % secs
        verdict = "ok" if why is None else "FAIL: " + why
        print("run %d: %s %s -> %s in %.1f s: %s" % (
            i, " ".join(steps), " ".join(args), status, secs, verdict))
        if why:
            bad += 1
            sys.stdout.write(err[-2000:])
    print("%d runs, %d failed" % (runs, bad))
    return 1 if bad else 0


def peak_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def hostile_client(port, pid, kind):
    """a client whose results are the costliest the server accepts (kind
    worst) or one value over (worst+1); prints the server's VmHWM"""
    import uuid
    cookie = (uuid.uuid4().hex + "abcd")[:36].encode() + b"\0"
    s = socket.create_connection(("127.0.0.1", port))
    conn = Conn(s)
    s.sendall(cookie)
    before = peak_kib(pid)
    want = {9: True}
    while True:
        st = struct.unpack("b", conn.read_exact(1, 10))[0]
        if st == 9:
            conn.frame('{"tcp":true,"omit":0,"time":1,"num":0,"blockcount":0,'
                       '"parallel":1,"len":16384,"client_version":"3.12"}')
        elif st == 10:
            d = socket.create_connection(("127.0.0.1", port))
            d.sendall(cookie)
        elif st == 2:
            time.sleep(0.5)
            conn.state(4)
        elif st == 13:
            b, v, c = LIMITS["results"]
            conn.frame(worst(b, v + (kind == "worst+1"), c))
            try:
                conn.read_json()
            except (EOFError, TimeoutError, OSError):
                break
        elif st == 14:
            conn.state(16)
            break
        elif st in (1, 100):
            if st == 100:
                conn.read_json()
        else:
            break
    time.sleep(0.5)
    print("server VmHWM before %d KiB after %d KiB" % (before, peak_kib(pid)))


def trickle_client(port, seconds):
    """a 1 s upload that says TEST_END and then keeps its data stream open,
    one byte every 20 ms for seconds, and never answers the results; prints
    "trickling", then how long the server kept its control connection"""
    import uuid
    cookie = (uuid.uuid4().hex + "abcd")[:36].encode() + b"\0"
    s = socket.create_connection(("127.0.0.1", port))
    conn = Conn(s)
    s.sendall(cookie)
    d = None
    while True:
        st = struct.unpack("b", conn.read_exact(1, 10))[0]
        if st == 9:
            conn.frame('{"tcp":true,"omit":0,"time":1,"num":0,'
                       '"blockcount":0,"parallel":1,"len":16384,'
                       '"client_version":"3.12"}')
        elif st == 10:
            d = socket.create_connection(("127.0.0.1", port))
            d.sendall(cookie)
        elif st == 1:
            continue
        elif st == 2:
            d.sendall(b"x" * 65536)
            time.sleep(0.5)
            conn.state(4)
            break
        else:
            print("state %d before the test ran" % st, flush=True)
            return
    t0 = time.time()
    print("trickling", flush=True)
    s.setblocking(False)
    while time.time() - t0 < seconds:
        try:
            d.send(b"x")
        except OSError:
            break
        try:
            if s.recv(1 << 16) == b"":
                break
        except BlockingIOError:
            pass
        except OSError:
            break
        time.sleep(0.02)
    print("held %.1f s after TEST_END" % (time.time() - t0), flush=True)


def main(argv):
    if len(argv) >= 5 and argv[1] == "client":
        hostile_client(int(argv[2]), int(argv[3]), argv[4])
        return 0
    if len(argv) >= 4 and argv[1] == "trickle":
        trickle_client(int(argv[2]), float(argv[3]))
        return 0
    if len(argv) >= 3 and argv[1] == "script":
        steps, args = argv[3:], []
        if "--" in steps:
            i = steps.index("--")
            steps, args = steps[:i], steps[i + 1:]
        sig = None
        if steps and steps[0].startswith("SIGNAL="):
            name, after = steps.pop(0)[7:].split("@")
            sig = (getattr(__import__("signal"), name), float(after))
        status, secs, peak, out, err = run(
            argv[2], steps, args, signal_after=sig,
            timeout=float(os.environ.get("FAKE_TIMEOUT", "15")))
        print("status %s seconds %.2f peak_kib %d" % (status, secs, peak))
        sys.stdout.write(err)
        sys.stdout.write(out)
        return 0
    if len(argv) >= 5 and argv[1] == "fuzz":
        return fuzz(argv[2], int(argv[3]), int(argv[4]),
                    argv[5] if len(argv) > 5 else None)
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
