#!/usr/bin/env python3
"""ps-help-options.py [--values | --formats OPT] PIPESCOPE SUB: the options `pipescope SUB --help` lists
for SUB (SUB "main": no sub-command), one a line, as the completion
(contrib/completion/pipescope) must offer them; with --values, the ones
that take the next word as their value; with --formats OPT, the values its
usage lines give OPT (--format text|json ...). ps-help-options.py --dump
DIR PIPESCOPE: every list, as files in DIR (opts.SUB, values,
formats.SUB.OPT).

The rule: every option at the head of a line of that --help (-x, --name),
less those whose line is marked for another sub-command ("(check) ..."),
and every option in SUB's usage lines ("pipescope SUB [--last N] ...");
check's tests take the client options, which its --help sends to
pipescope --help: the "Common options" and "Client options" blocks.
"""
import re
import subprocess
import sys

SUBS = ("probe", "check", "history", "compare")
OPT = re.compile(r"^(?:  -(\S), |      )--([a-z0-9-]+)(\[=[^\]]*\])?")


def option_line(line):
    """(short, name, optional, arg, description) of an option's line, or
    None. The description starts at column 28, or past two spaces after
    the names and their argument when they are longer: a word after the
    names is their argument when it ends before column 28 or two spaces
    (or the line's end) follow it"""
    m = OPT.match(line)
    if not m:
        return None
    a = re.match(r" (\S+)", line[m.end():])
    arg = None
    if a:
        end = m.end() + a.end()
        if end <= 27 or line[end:end + 2] == "  " or end == len(line):
            arg = a.group(1)
    desc = line[m.end() + (a.end() if arg else 0):]
    return m.group(1), m.group(2), m.group(3), arg, desc


def help_text(exe, sub):
    argv = [exe] + ([] if sub == "main" else [sub]) + ["--help"]
    return subprocess.run(argv, capture_output=True, text=True,
                          env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"}).stdout


def parse(text, sub, blocks=None):
    opts, values, formats = set(), set(), {}
    block = None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            block = line
        m = option_line(line)
        if m:
            if blocks is not None and not any(block.startswith(b) for b in blocks):
                continue
            short, name, _opt, arg, desc = m
            mark = re.match(r"\s*\((\w+)\)", desc)
            if mark and mark.group(1) in SUBS and mark.group(1) != sub:
                continue
            names = ["--" + name] + (["-" + short] if short else [])
            opts.update(names)
            if arg:
                values.update(names)
            continue
        # the usage lines of this sub-command ("Usage: pipescope check
        # ...", "       pipescope check ..."), or the main ones
        u = re.match(r"^(?:Usage:)?\s+pipescope(?: (probe|check|history|compare)\b)?(.*)$", line)
        if not u or blocks is not None or (u.group(1) or "main") != sub:
            continue
        for o, v in re.findall(r"(?<![\w-])(--?[a-zA-Z0-9][a-z0-9-]*)(?: ([^\]\s]+))?", u.group(2)):
            opts.add(o)
            if v and not v.startswith(("-", "[")):
                values.add(o)
                formats.setdefault(o, set()).update(v.split("|"))
    return opts, values, formats


def dump(exe, d):
    """every list into the folder d: opts.SUB, values (all sub-commands'),
    formats.SUB.OPT"""
    every = set()
    for sub in ("main",) + SUBS:
        opts, values, formats = lists(exe, sub)
        every |= values
        write("%s/opts.%s" % (d, sub), opts)
        for o, v in formats.items():
            write("%s/formats.%s.%s" % (d, sub, o.lstrip("-")), v)
    write(d + "/values", every)


def write(path, items):
    with open(path, "w") as f:
        f.writelines(o + "\n" for o in sorted(items))


def lists(exe, sub):
    opts, values, formats = parse(help_text(exe, sub), sub)
    if sub == "check":
        o2, v2, _ = parse(help_text(exe, "main"), "check",
                          blocks=("Common options", "Client options"))
        opts |= o2
        values |= v2
    return opts, values, formats


def main():
    args = sys.argv[1:]
    if args and args[0] == "--dump":
        dump(args[2], args[1])
        return
    mode = "opts"
    if args and args[0] in ("--values", "--formats"):
        mode = args.pop(0)
        fopt = args.pop(0) if mode == "--formats" else None
    exe, sub = args
    opts, values, formats = lists(exe, sub)
    if mode == "opts":
        out = opts
    elif mode == "--values":
        out = values
    else:
        out = formats.get(fopt, set())
    for o in sorted(out):
        print(o)


main()
