#!/usr/bin/env python3
"""ps-jsonshape.py REF OURS: compare the shape of two iperf3 JSON documents.

Each document becomes the set of its key paths (array indices collapsed to
[]) with the JSON type at each path. Every path iperf3 wrote (REF) must be
in OURS with the same type; a path of ours that REF lacks is allowed only
under a "pipescope" key. With --stream both files are --json-stream output:
the events are compared event by event (by name, in order of first seen).
Prints one line per difference and exits 1 if there is any.
"""
import json
import sys


def jtype(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def shape(v, path, out):
    out.setdefault(path, set()).add(jtype(v))
    if isinstance(v, dict):
        for k, w in v.items():
            shape(w, path + "." + k, out)
    elif isinstance(v, list):
        for w in v:
            shape(w, path + "[]", out)
    return out


def parent(p):
    return p[:-2] if p.endswith("[]") else p.rsplit(".", 1)[0]


def compare(ref, ours, where):
    a, b = shape(ref, "", {}), shape(ours, "", {})
    bad = []
    for p in sorted(a):
        if p and p not in b and parent(p) in a and parent(p) not in b:
            continue  # reported at its parent
        if p not in b:
            bad.append("%s: missing %s (%s)" % (where, p or ".",
                                               "/".join(sorted(a[p]))))
        elif not b[p] <= a[p] and not (a[p] == {"null"}):
            bad.append("%s: %s is %s, iperf3 writes %s" % (
                where, p, "/".join(sorted(b[p])), "/".join(sorted(a[p]))))
    for p in sorted(b):
        if p not in a and ".pipescope" not in p + ".":
            if parent(p) in b and parent(p) not in a:
                continue  # reported at its parent
            bad.append("%s: extra %s" % (where, p))
    return bad


def events(path):
    ev = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                o = json.loads(line)
                ev.setdefault(o.get("event"), []).append(o.get("data"))
    return ev


def main():
    args = sys.argv[1:]
    stream = args[:1] == ["--stream"]
    if stream:
        args = args[1:]
    if len(args) != 2:
        sys.stderr.write("usage: ps-jsonshape.py [--stream] REF OURS\n")
        return 2
    if stream:
        r, o = events(args[0]), events(args[1])
        bad = []
        for name in r:
            if name not in o:
                bad.append("missing event %s" % name)
            else:
                # all instances of an event merged into one shape
                bad += compare(r[name], o[name], "event " + name)
        for name in o:
            if name not in r:
                bad.append("extra event %s" % name)
    else:
        with open(args[0]) as f:
            r = json.load(f)
        with open(args[1]) as f:
            o = json.load(f)
        bad = compare(r, o, "document")
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
