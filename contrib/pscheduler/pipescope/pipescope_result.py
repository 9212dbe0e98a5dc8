# pipescope_result.py: pipescope's -J document as pScheduler's throughput
# result, and the checklist's report (--diagnose FILE) as the result's
# diags text.
#
# Both documents come from a program and, through it, from the far end:
# they are untrusted. Sizes are bounded, every value's type is checked
# before use, numbers must be finite and text put in diags loses its
# control characters. The result carries only the keys the throughput
# test's result schema knows (it refuses any other).

import math
import unicodedata

from pipescope_tool import loads

# the most of a -J document or a report read
MAX_DOCUMENT = 32 << 20
MAX_REPORT = 4 << 20
# the most intervals and streams carried into the result
MAX_INTERVALS = 3600
MAX_STREAMS = 128
# the most characters of one text field, and of the diags as a whole
MAX_FIELD = 400
MAX_DIAGS = 16384
# the most findings listed besides the top one
MAX_OTHER_FINDINGS = 5


def number(v):
    """A finite number, or None (booleans are not numbers here)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def integer(v):
    """A whole number, or None."""
    n = number(v)
    if n is None or n != int(n) or abs(n) > 2 ** 63:
        return None
    return int(n)


def text(v, limit=MAX_FIELD):
    """A string fit for diags: control and format characters become
    spaces, runs of space one, at most LIMIT characters; None if not a
    string."""
    if not isinstance(v, str):
        return None
    out = []
    for ch in v[:limit * 4]:
        out.append(" " if unicodedata.category(ch)[0] == "C" else ch)
    s = " ".join("".join(out).split())
    if len(s) > limit:
        s = s[:limit - 1] + "\u2026"
    return s


def read_json_file(path, limit):
    """The JSON object in PATH, or (None, why)."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as ex:
        return None, "cannot read it (%s)" % (text(ex.strerror) or "error")
    if not data:
        return None, "it is empty"
    if len(data) > limit:
        return None, "it is larger than %d bytes" % limit
    try:
        obj = loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None, "it is not JSON"
    if not isinstance(obj, dict):
        return None, "it is not a JSON object"
    return obj, None


def _obj(v):
    return v if isinstance(v, dict) else {}


def _list(v, limit):
    return [x for x in v[:limit] if isinstance(x, dict)] \
        if isinstance(v, list) else []


# -J's keys, and the throughput result's: (key, result key, converter)
_FIELDS = (
    ("start", "start", number),
    ("end", "end", number),
    ("bits_per_second", "throughput-bits", number),
    # what pScheduler's tools and archives carry: the bytes moved
    ("bytes", "throughput-bytes", number),
    ("retransmits", "retransmits", integer),
    ("snd_cwnd", "tcp-window-size", integer),
    ("rtt", "rtt", number),
    ("mean_rtt", "rtt", number),
    ("packets", "sent", integer),
    ("lost_packets", "lost", integer),
    ("jitter_ms", "jitter", number),
)


def throughput_data(src, stream_id=None):
    """One of -J's interval or summary objects as throughput-data."""
    out = {}
    for key, rkey, conv in _FIELDS:
        v = conv(src.get(key))
        if v is not None and rkey not in out:
            out[rkey] = v
    if isinstance(src.get("omitted"), bool):
        out["omitted"] = src["omitted"]
    sid = integer(src.get("socket")) if stream_id is None else stream_id
    if sid is not None:
        out["stream-id"] = sid
    return out


def _summary(end, udp):
    """The whole test's summary: the sender's figures, the receiver's
    rate beside them."""
    if udp:
        whole = _obj(end.get("sum"))
    else:
        whole = _obj(end.get("sum_sent")) or _obj(end.get("sum"))
    summary = throughput_data(whole)
    if not udp:
        received = number(_obj(end.get("sum_received")).get("bits_per_second"))
        if received is not None:
            summary["receiver-throughput-bits"] = received
    streams = []
    for s in _list(end.get("streams"), MAX_STREAMS):
        part = _obj(s.get("udp")) or _obj(s.get("sender"))
        if part:
            streams.append(throughput_data(part))
    return {"streams": streams, "summary": summary}


def _intervals(doc):
    out = []
    for iv in _list(doc.get("intervals"), MAX_INTERVALS):
        out.append({
            "streams": [throughput_data(s)
                        for s in _list(iv.get("streams"), MAX_STREAMS)],
            "summary": throughput_data(_obj(iv.get("sum"))),
        })
    return out


def failed(error, diags):
    """A failed run's result: still the schema's required keys."""
    return {"succeeded": False, "error": text(error, 2000) or "failed",
            "diags": diags, "intervals": [],
            "summary": {"streams": [], "summary": {}}}


def jdoc_error(doc):
    """Why the -J document is no test's result, or None."""
    if doc is None:
        return "pipescope wrote no JSON document"
    if "error" in doc:
        return "pipescope: %s" % (text(doc.get("error")) or "an error")
    if not isinstance(doc.get("end"), dict) or \
            not isinstance(doc.get("intervals"), list):
        return "pipescope's JSON document has no results"
    return None


def result_of(doc, spec, diags):
    """The throughput result of a -J document (checked by jdoc_error)."""
    end = doc["end"]
    udp = spec.get("udp") is True
    result = {"succeeded": True, "diags": diags,
              "intervals": _intervals(doc), "summary": _summary(end, udp)}
    sockets = _list(_obj(doc.get("pipescope")).get("sockets"), MAX_STREAMS)
    mss = integer(sockets[0].get("mss")) if sockets and not udp else None
    if mss:
        result["mss"] = mss
    if integer(spec.get("window-size")):
        result["requested-tcp-window-size"] = spec["window-size"]
    return result


# ---- the diags: the checklist's report as text ----

def rate(bps):
    """A rate for people: 9.41 Gbit/s."""
    v = number(bps)
    if v is None:
        return "?"
    for div, unit in ((1e12, "Tbit/s"), (1e9, "Gbit/s"), (1e6, "Mbit/s"),
                      (1e3, "kbit/s")):
        if abs(v) >= div:
            return "%.3g %s" % (v / div, unit)
    return "%.3g bit/s" % v


def _end_name(v):
    return {"local": "this end", "far": "the far end"}.get(v, None)


def _finding_line(f):
    title = text(f.get("title")) or text(f.get("id"), 64) or "a finding"
    tags = [t for t in (text(f.get("severity"), 16), _end_name(f.get("end")))
            if t]
    return "%s [%s]" % (title, ", ".join(tags)) if tags else title


def _ceiling_line(c):
    what = text(c.get("what")) or text(c.get("id"), 64) or "a ceiling"
    line = "%s at %s" % (what, rate(c.get("bps")))
    scope = text(c.get("scope"), 16)
    return line + (" (%s)" % scope if scope else "")


def _readings(who, host, cpu_pct):
    """One end's key readings on one line."""
    host = _obj(host)
    settings = _obj(host.get("settings"))
    sysctl = _obj(settings.get("sysctl"))
    parts = []
    for label, v in (("host", host.get("hostname")),
                     ("kernel", host.get("kernel"))):
        t = text(v, 80)
        if t:
            parts.append("%s %s" % (label, t))
    iface = text(host.get("iface"), 32)
    if iface:
        nic = text(host.get("nic"), 32)
        driver = text(settings.get("driver"), 32)
        extra = [x for x in (nic if nic and nic != iface else None, driver)
                 if x]
        parts.append("iface %s%s" % (iface, " (%s)" % ", ".join(extra)
                                     if extra else ""))
    if integer(settings.get("mtu")):
        parts.append("MTU %d" % settings["mtu"])
    for label, key in (("line rate", "line_bps"),
                       ("PCIe usable", "pcie_usable_bps")):
        if number(settings.get(key)):
            parts.append("%s %s" % (label, rate(settings[key])))
    qdisc = text(settings.get("qdisc"), 32)
    if qdisc:
        parts.append("qdisc %s" % qdisc)
    if integer(host.get("cores")):
        parts.append("%d cores" % host["cores"])
    for key, label in (("net.ipv4.tcp_congestion_control", "congestion"),
                       ("net.ipv4.tcp_rmem", "tcp_rmem"),
                       ("net.ipv4.tcp_wmem", "tcp_wmem")):
        t = text(sysctl.get(key), 64)
        if t:
            parts.append("%s %s" % (label, t))
    if number(cpu_pct) is not None:
        parts.append("CPU %.1f%% during the test" % cpu_pct)
    if not parts:
        return "%s: no readings" % who
    return "%s: %s" % (who, ", ".join(parts))


def diagnosis_lines(report, cpu_local=None, cpu_remote=None):
    """The report's answer as diags lines: the top finding, the binding
    ceiling, the other findings, both ends' key readings."""
    lines = []
    answer = _obj(report.get("answer"))
    findings = _list(report.get("findings"), 200)
    top_id = answer.get("top")
    top = next((f for f in findings if f.get("id") == top_id), None)
    if top is None and findings:
        top = findings[0]
    if top is not None:
        lines.append("Top finding: " + _finding_line(top))
        for label, key in (("Evidence", "evidence"), ("Remedy", "remedy")):
            t = text(top.get(key))
            if t:
                lines.append("  %s: %s" % (label, t))
    else:
        lines.append("Top finding: none (nothing in the checklist fired)")
    binding = _obj(answer.get("binding"))
    lines.append("Binding ceiling: " + (_ceiling_line(binding) if binding
                                        else "none found"))
    verdict = []
    if isinstance(answer.get("bottleneck"), bool):
        verdict.append("a bottleneck" if answer["bottleneck"]
                       else "no bottleneck")
    if isinstance(answer.get("explained"), bool):
        verdict.append("rate explained" if answer["explained"]
                       else "rate not explained")
    if answer.get("link_full") is True:
        verdict.append("the link is full")
    if number(answer.get("measured_bps")):
        verdict.append("measured %s" % rate(answer["measured_bps"]))
    conf = text(answer.get("confidence"), 16)
    if conf:
        verdict.append("confidence %s" % conf)
    if verdict:
        lines.append("Answer: " + ", ".join(verdict))
    others = [f for f in findings if f is not top][:MAX_OTHER_FINDINGS]
    if others:
        lines.append("Other findings:")
        lines += ["  - " + _finding_line(f) for f in others]
    steps = _list(report.get("steps"), 16)
    step = steps[0] if steps else {}
    local_cpu = number(step.get("cpu_local_pct"))
    remote_cpu = number(step.get("cpu_remote_pct"))
    lines.append(_readings("This end", report.get("host"),
                           cpu_local if local_cpu is None else local_cpu))
    far = report.get("far_end")
    if isinstance(far, dict):
        lines.append(_readings("Far end", far, cpu_remote if remote_cpu
                               is None else remote_cpu))
    else:
        lines.append("Far end: no readings (its server shared none)")
    return lines


def join_diags(lines, limit=MAX_DIAGS):
    """The diags string, bounded."""
    s = "\n".join(lines)
    if len(s) > limit:
        s = s[:limit - 30] + "\n(diags cut at %d characters)" % limit
    return s


def cpu_of(doc):
    """-J's CPU use of this end and the far end (percent), or None."""
    cpu = _obj(_obj(_obj(doc).get("end")).get("cpu_utilization_percent"))
    return number(cpu.get("host_total")), number(cpu.get("remote_total"))


def rate_line(doc, spec):
    """The test's figures in one line, from its -J document."""
    end = _obj(doc.get("end"))
    if spec.get("udp") is True:
        s = _obj(end.get("sum"))
        parts = [rate(s.get("bits_per_second"))]
        lost, sent = integer(s.get("lost_packets")), integer(s.get("packets"))
        if lost is not None and sent is not None:
            parts.append("%d of %d datagrams lost" % (lost, sent))
        if number(s.get("jitter_ms")) is not None:
            parts.append("jitter %.3f ms" % s["jitter_ms"])
    else:
        sent = _obj(end.get("sum_sent"))
        recv = _obj(end.get("sum_received"))
        parts = ["sent %s" % rate(sent.get("bits_per_second")),
                 "received %s" % rate(recv.get("bits_per_second"))]
        if integer(sent.get("retransmits")) is not None:
            parts.append("%d retransmits" % sent["retransmits"])
    return "Throughput: " + ", ".join(parts)


# ---- a participant's result, as merged-results receives it ----

_DATA_TYPES = {
    "throughput-bits": number, "throughput-bytes": number,
    "receiver-throughput-bits": number, "start": number, "end": number,
    "rtt": number, "jitter": number, "sent": integer, "lost": integer,
    "tcp-window-size": integer, "retransmits": integer,
}


def _clean_data(d):
    out = {}
    for key, conv in _DATA_TYPES.items():
        v = conv(d.get(key))
        if v is not None:
            out[key] = v
    if isinstance(d.get("omitted"), bool):
        out["omitted"] = d["omitted"]
    sid = d.get("stream-id")
    if integer(sid) is not None:
        out["stream-id"] = integer(sid)
    elif isinstance(sid, str):
        out["stream-id"] = text(sid, 64)
    return out


def _clean_block(b):
    b = _obj(b)
    return {"streams": [_clean_data(s)
                        for s in _list(b.get("streams"), MAX_STREAMS)],
            "summary": _clean_data(_obj(b.get("summary")))}


def clean_result(r):
    """A participant's result with only the schema's keys, of its types
    (the other participant's result crossed the network)."""
    r = _obj(r)
    out = {"succeeded": r.get("succeeded") is True,
           "diags": r["diags"][:MAX_DIAGS]
           if isinstance(r.get("diags"), str) else "",
           "intervals": [_clean_block(i)
                         for i in _list(r.get("intervals"), MAX_INTERVALS)],
           "summary": _clean_block(r.get("summary"))}
    if isinstance(r.get("error"), str):
        out["error"] = r["error"][:4000]
    elif not out["succeeded"]:
        out["error"] = "no result"
    for key in ("mss", "mtu", "tcp-window-size", "requested-tcp-window-size"):
        if integer(r.get(key)) is not None:
            out[key] = integer(r[key])
    return out
