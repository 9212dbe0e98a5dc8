# pipescope_tool.py: what the pScheduler tool's methods share: JSON in and
# out, the configuration, ISO 8601 durations, the spec keys the tool takes
# and the pipescope command lines they become.
#
# Standard library only (no pscheduler module), Python 3.6 and later: the
# methods run on any perfSONAR host with a python3.

import configparser
import ipaddress
import json
import math
import os
import re
import shutil
import socket
import sys

# the highest throughput spec schema this tool knows (pScheduler 5: 7)
MAX_SPEC_SCHEMA = 7
# pipescope's own bound on -P
MAX_STREAMS = 128
# the largest stdin a method reads
MAX_INPUT = 4 << 20

# the configuration file, as pScheduler's tools keep theirs; the tests
# point PIPESCOPE_PSCHEDULER_CONF at their own
CONFIG_FILE = "/etc/pscheduler/tool/pipescope.conf"
# where "make install" put pipescope (pipescope_paths.py, made by make);
# from the source tree there is none and PATH tells
try:
    from pipescope_paths import PIPESCOPE_BIN
except ImportError:
    PIPESCOPE_BIN = None

DEFAULTS = {
    "pipescope_cmd": "",
    "server_port": 5201,
    # the history file the client records its diagnosed run in; empty:
    # pipescope's default; "off": none
    "history": "",
    # seconds the client keeps retrying a refused connection after the
    # start, while the far end's server comes up
    "server_wait": 5.0,
    "preference": 0,
    # a login for each run (openssl makes the keys): only the scheduled
    # client can use the server
    "auth": True,
}

# Every key of a throughput spec (schemas 1 to 7) and what pipescope does
# with it: an option of the client ("client"), of both ends ("both"), of
# the server ("server"), read by the tool itself ("tool"), or a reason it
# cannot run it.
SPEC_KEYS = {
    "schema": "tool",
    "source": "tool",
    "source-node": "tool",
    "dest": "tool",
    "dest-node": "tool",
    "duration": "client",
    "interval": "client",
    "link-rtt": "tool",
    "parallel": "client",
    "udp": "client",
    "bandwidth": "client",
    "burst-size": "client",
    "fq-rate": "client",
    "window-size": "client",
    "mss": "client",
    "buffer-length": "client",
    "ip-tos": "client",
    "ip-version": "both",
    "local-address": "client",
    "omit": "client",
    "no-delay": "client",
    "congestion": "client",
    "zero-copy": "client",
    "flow-label": "client",
    "client-cpu-affinity": "client",
    "server-cpu-affinity": "server",
    "reverse": "client",
}
UNSUPPORTED = {
    "single-ended": "pipescope runs both ends under pScheduler; "
                    "single-ended tests against a bare iperf3 server are "
                    "the iperf3 tool's",
    "single-ended-port": "pipescope runs both ends under pScheduler; "
                         "single-ended tests are the iperf3 tool's",
    "loopback": "pipescope's tool does not run loopback tests (use "
                "'pipescope' alone on the host: its self-test)",
    "bandwidth-strict": "pipescope paces -b by its own clock; it has no "
                        "strict mode",
    "reverse-connections": "pipescope's client always connects to the "
                           "server (use 'reverse' to turn the direction)",
}

_DURATION_RE = re.compile(
    r"^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?"
    r"(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$")


def fail(message, status=1):
    """A method's error: a line on stderr, a non-zero exit."""
    sys.stderr.write("pipescope tool: %s\n" % message)
    sys.exit(status)


def _no_constant(name):
    raise ValueError("%s is not JSON" % name)


def loads(text):
    """JSON without NaN or Infinity (pScheduler's parser refuses them)."""
    return json.loads(text, parse_constant=_no_constant)


def read_input():
    """The method's JSON object on stdin, bounded."""
    data = sys.stdin.buffer.read(MAX_INPUT + 1)
    if len(data) > MAX_INPUT:
        fail("input larger than %d bytes" % MAX_INPUT, 2)
    try:
        obj = loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as ex:
        fail("input is not JSON: %s" % ex, 2)
    if not isinstance(obj, dict):
        fail("input is not a JSON object", 2)
    return obj


def emit(obj):
    """The method's JSON answer on stdout, and success."""
    sys.stdout.write(json.dumps(obj, indent=2, sort_keys=True,
                                allow_nan=False) + "\n")
    sys.stdout.flush()
    sys.exit(0)


def config():
    """The configuration: defaults, then the INI file's [pipescope]."""
    conf = dict(DEFAULTS)
    path = os.environ.get("PIPESCOPE_PSCHEDULER_CONF", CONFIG_FILE)
    parser = configparser.ConfigParser()
    try:
        parser.read(path)
    except (configparser.Error, OSError, UnicodeDecodeError):
        return conf
    if not parser.has_section("pipescope"):
        return conf
    sect = parser["pipescope"]
    conf["pipescope_cmd"] = sect.get("pipescope_cmd", "").strip()
    conf["history"] = sect.get("history", "").strip()
    try:
        conf["auth"] = sect.getboolean("auth", True)
    except ValueError:
        pass
    for key, kind, low, high in (("server_port", int, 1, 65535),
                                 ("server_wait", float, 0, 60),
                                 ("preference", int, -100, 100)):
        try:
            value = kind(sect.get(key, conf[key]))
        except ValueError:
            continue
        if low <= value <= high:
            conf[key] = value
    return conf


def pipescope_cmd(conf):
    """The pipescope binary to run: the configured one, the installed one,
    or the one on PATH."""
    if conf["pipescope_cmd"]:
        return conf["pipescope_cmd"]
    if PIPESCOPE_BIN and os.access(PIPESCOPE_BIN, os.X_OK):
        return PIPESCOPE_BIN
    return shutil.which("pipescope") or "/usr/bin/pipescope"


def iso8601_seconds(text):
    """Seconds in a pScheduler Duration (PnWnDTnHnMnS), or None."""
    if not isinstance(text, str) or text in ("P", "PT") or text.endswith("T"):
        return None
    m = _DURATION_RE.match(text)
    if not m:
        return None
    weeks, days, hours, minutes, seconds = (float(g) if g else 0.0
                                            for g in m.groups())
    return (((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60 + seconds


def whole_seconds(value):
    """A count of seconds for pipescope's command line (no fraction)."""
    return str(int(math.ceil(value)))


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _host_ok(v):
    # a name or an address, never something the command line would take
    # for an option
    return (isinstance(v, str) and 0 < len(v) <= 255 and
            not v.startswith("-") and
            re.match(r"^[A-Za-z0-9_.:%\[\]-]+$", v) is not None)


# the checks of each value: (test, the reason when it fails)
_CARDINAL = (lambda v: _is_int(v) and v >= 1, "a whole number from 1")
_BOOL = (lambda v: isinstance(v, bool), "true or false")
_DURATION = (lambda v: iso8601_seconds(v) is not None,
             "an ISO 8601 duration (PT10S)")
_HOST = (_host_ok, "a host name or an address")
_VALUE_CHECKS = {
    "schema": _CARDINAL,
    "source": _HOST,
    "dest": _HOST,
    "local-address": _HOST,
    "source-node": (lambda v: isinstance(v, str), "a string"),
    "dest-node": (lambda v: isinstance(v, str), "a string"),
    "duration": (lambda v: (iso8601_seconds(v) or 0) >= 1,
                 "an ISO 8601 duration of at least a second"),
    "interval": _DURATION,
    "link-rtt": _DURATION,
    "omit": _DURATION,
    "parallel": (lambda v: _is_int(v) and 1 <= v <= MAX_STREAMS,
                 "1 to %d streams (pipescope's bound)" % MAX_STREAMS),
    "udp": _BOOL,
    "reverse": _BOOL,
    "no-delay": _BOOL,
    "zero-copy": _BOOL,
    "bandwidth": _CARDINAL,
    "burst-size": _CARDINAL,
    "fq-rate": _CARDINAL,
    "window-size": _CARDINAL,
    "mss": _CARDINAL,
    "buffer-length": _CARDINAL,
    "ip-tos": (lambda v: _is_int(v) and 0 <= v <= 255, "0 to 255"),
    "ip-version": (lambda v: v in (4, 6) and _is_int(v), "4 or 6"),
    "congestion": (lambda v: isinstance(v, str) and
                   re.match(r"^[A-Za-z0-9_]{1,15}$", v) is not None,
                   "a congestion control's name"),
    "flow-label": (lambda v: _is_int(v) and 0 <= v <= 0xFFFFF,
                   "an IPv6 flow label (0 to 1048575)"),
    "client-cpu-affinity": (lambda v: _is_int(v) and 0 <= v < 4096,
                            "a CPU number"),
    "server-cpu-affinity": (lambda v: _is_int(v) and 0 <= v < 4096,
                            "a CPU number"),
}


def spec_reasons(test):
    """Why this tool cannot run the test ({"type", "spec"}): [] if it can."""
    if not isinstance(test, dict):
        return ["the test is not a JSON object"]
    if test.get("type") != "throughput":
        return ["pipescope runs throughput tests only, not '%s'" %
                str(test.get("type"))[:40]]
    spec = test.get("spec")
    if not isinstance(spec, dict):
        return ["the test has no spec"]
    reasons = []
    schema = spec.get("schema", 1)
    if _is_int(schema) and schema > MAX_SPEC_SCHEMA:
        reasons.append("spec schema %d is newer than this tool knows (%d)" %
                       (schema, MAX_SPEC_SCHEMA))
    if "dest" not in spec:
        reasons.append("the spec has no dest")
    for key in sorted(spec):
        value = spec[key]
        if key in UNSUPPORTED:
            # a false boolean asks for nothing
            if value is not False:
                reasons.append("%s: %s" % (key, UNSUPPORTED[key]))
            continue
        if key not in SPEC_KEYS:
            reasons.append("pipescope does not support the '%s' option" %
                           key[:40])
            continue
        check, what = _VALUE_CHECKS.get(key, (lambda v: True, ""))
        if not check(value):
            reasons.append("%s must be %s" % (key, what))
    if "burst-size" in spec and "bandwidth" not in spec:
        reasons.append("burst-size needs a bandwidth")
    return reasons


def spec_of(obj):
    """The spec of a method's input (the test itself, or under "test")."""
    test = obj.get("test", obj)
    spec = test.get("spec") if isinstance(test, dict) else None
    if not isinstance(spec, dict):
        fail("the input has no test spec", 2)
    return spec


def seconds_of(spec, key, default):
    value = iso8601_seconds(spec.get(key)) if key in spec else None
    return default if value is None else value


def setup_seconds(spec):
    """How long connecting and ending a test take: the control
    connection's handshake, the streams' connects, the end's exchange of
    results and the far end's readings are about a dozen round trips;
    a second on top for the processes to start."""
    rtt = seconds_of(spec, "link-rtt", 0.2)
    return 1.0 + math.ceil(12 * rtt)


# the seconds after the test the client takes to judge it (--diagnose)
DIAGNOSE_SECONDS = 3
# the seconds the server takes to come up and to go away
SERVER_START_SECONDS = 1
SERVER_STOP_SECONDS = 1


def test_seconds(spec):
    """The test's own length: its duration (10 s by default) and omit."""
    return seconds_of(spec, "duration", 10.0) + seconds_of(spec, "omit", 0.0)


def bindable(name, version=None):
    """An address of this host that NAME is (so -B can take it), or None."""
    family = {4: socket.AF_INET, 6: socket.AF_INET6}.get(version, 0)
    try:
        infos = socket.getaddrinfo(name, None, family, socket.SOCK_DGRAM)
    except (socket.gaierror, UnicodeError, OSError):
        return None
    for fam, _, _, _, addr in infos:
        try:
            with socket.socket(fam, socket.SOCK_DGRAM) as s:
                s.bind((addr[0], 0))
            return addr[0]
        except OSError:
            continue
    return None


def _literal_version(name):
    try:
        return ipaddress.ip_address(name.split("%")[0]).version
    except ValueError:
        return None


def _family(spec):
    """The test's IP version: asked for, or the destination's address."""
    version = spec.get("ip-version")
    if version in (4, 6):
        return version
    return _literal_version(spec["dest"]) if "dest" in spec else None


def client_args(spec, port):
    """pipescope's client options for the spec (no -J, no auth)."""
    version = _family(spec)
    args = ["-c", spec["dest"], "-p", str(port)]
    if spec.get("ip-version") in (4, 6):
        args.append("-%d" % version)
    # the bind: the local address asked for, as it is; the source when the
    # family is known and it is an address of this host (a name of both
    # families could bind to the one the destination is not)
    if "local-address" in spec:
        addr = bindable(spec["local-address"], version)
        args += ["-B", addr or spec["local-address"]]
    elif "source" in spec and version:
        addr = bindable(spec["source"], version)
        if addr:
            args += ["-B", addr]
    args += ["-t", whole_seconds(seconds_of(spec, "duration", 10.0))]
    omit = seconds_of(spec, "omit", 0.0)
    if omit > 0:
        args += ["-O", whole_seconds(omit)]
    if "interval" in spec:
        args += ["-i", "%g" % seconds_of(spec, "interval", 1.0)]
    options = (("parallel", "-P"), ("window-size", "-w"), ("mss", "-M"),
               ("buffer-length", "-l"), ("ip-tos", "-S"),
               ("congestion", "-C"), ("flow-label", "-L"),
               ("fq-rate", "--fq-rate"), ("client-cpu-affinity", "-A"))
    for key, opt in options:
        if key in spec:
            args += [opt, str(spec[key])]
    if "bandwidth" in spec:
        rate = str(spec["bandwidth"])
        if "burst-size" in spec:
            rate += "/%d" % spec["burst-size"]
        args += ["-b", rate]
    for key, opt in (("udp", "-u"), ("no-delay", "-N"), ("zero-copy", "-Z"),
                     ("reverse", "-R")):
        if spec.get(key) is True:
            args.append(opt)
    return args


def server_args(spec, port, idle):
    """pipescope's server options for the spec: one test, then exit."""
    args = ["-s", "-1", "-p", str(port), "--idle-timeout",
            whole_seconds(idle), "-J"]
    version = _family(spec)
    if spec.get("ip-version") in (4, 6):
        args.append("-%d" % version)
    # listen on the destination's address when the family is known and it
    # is one of ours (else on every address, as iperf3's tool does)
    addr = bindable(spec["dest"], version) if version else None
    if addr:
        args += ["-B", addr]
    if "server-cpu-affinity" in spec:
        args += ["-A", str(spec["server-cpu-affinity"])]
    return args
