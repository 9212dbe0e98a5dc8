#!/usr/bin/env python3
# ps-contrast.py dark|light [TEXT...]: does the screen read on a dark
# (light grey on black) and on a light (black on white) terminal? Reads
# "tmux capture-pane -p -e" on stdin, follows its SGR codes (16 colours
# as xterm's, the 256-colour cube and greys, direct RGB; reverse; dim as
# half way to the background) and prints each line whose text has a cell
# of a contrast below 3:1 (WCAG's large text) in that palette, with the
# cell's colours; exit 1 when there is one. Blocks, braille dots and the
# bars' empty dots are pictures, not text: left out. Then for each TEXT,
# where it first is: "TEXT fg=F bg=B" as the SGR set them (-1: the
# terminal's own), or "TEXT absent". Used by tests/ui-manners.sh.
import re, sys

BASE = ["000000", "cd0000", "00cd00", "cdcd00", "0000ee", "cd00cd", "00cdcd",
        "e5e5e5", "7f7f7f", "ff0000", "00ff00", "ffff00", "5c5cff", "ff00ff",
        "00ffff", "ffffff"]
PALETTES = {"dark": ((0xd0, 0xd0, 0xd0), (0, 0, 0)),
            "light": ((0, 0, 0), (0xff, 0xff, 0xff))}


def rgb(n):
    if isinstance(n, tuple):
        return n
    if n < 16:
        h = BASE[n]
        return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return (steps[n // 36], steps[n // 6 % 6], steps[n % 6])
    g = 8 + 10 * (n - 232)
    return (g, g, g)


def lum(c):
    def ch(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])


def ratio(a, b):
    la, lb = lum(a), lum(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


# the codes that set a colour: 30-37 and 90-97 the foreground, 40-47 and
# 100-107 the background, 39 and 49 the terminal's own (-1)
COLOUR_CODES = {}
for key, base in (("fg", 30), ("bg", 40)):
    for n in range(8):
        COLOUR_CODES[base + n] = (key, n)
        COLOUR_CODES[base + 60 + n] = (key, n + 8)
    COLOUR_CODES[base + 9] = (key, -1)


def sgr(st, params):
    p = [int(x) if x else 0 for x in params.split(";")] if params else [0]
    i = 0
    while i < len(p):
        c = p[i]
        if c == 0:
            st.update(fg=-1, bg=-1, rev=False, dim=False)
        elif c == 2:
            st["dim"] = True
        elif c == 22:
            st["dim"] = False
        elif c == 7:
            st["rev"] = True
        elif c == 27:
            st["rev"] = False
        elif c in COLOUR_CODES:
            key, n = COLOUR_CODES[c]
            st[key] = n
        elif c in (38, 48) and i + 1 < len(p):
            key = "fg" if c == 38 else "bg"
            if p[i + 1] == 5 and i + 2 < len(p):
                st[key] = p[i + 2]
                i += 2
            elif p[i + 1] == 2 and i + 4 < len(p):
                st[key] = tuple(p[i + 2:i + 5])
                i += 4
        i += 1


def picture(ch):
    o = ord(ch)
    return 0x2580 <= o <= 0x259f or 0x2800 <= o <= 0x28ff or ch == "\u00b7"


def main():
    pal = PALETTES[sys.argv[1]]
    wanted = sys.argv[2:]
    found = {}
    bad = 0
    st = {"fg": -1, "bg": -1, "rev": False, "dim": False}
    screen = sys.stdin.buffer.read().decode("utf-8", "replace")
    for row, line in enumerate(screen.split("\n")):
        cells = []  # (char, fg, bg) as set
        low = []
        for m in re.finditer(r"\x1b\[([0-9;]*)m|\x1b[^\[]|([^\x1b])", line):
            if m.group(2) is None:
                if m.group(1) is not None:
                    sgr(st, m.group(1))
                continue
            ch = m.group(2)
            cells.append((ch, st["fg"], st["bg"]))
            if ch == " " or picture(ch):
                continue
            fg = pal[0] if st["fg"] == -1 else rgb(st["fg"])
            bg = pal[1] if st["bg"] == -1 else rgb(st["bg"])
            if st["rev"]:
                fg, bg = bg, fg
            if st["dim"]:
                fg = tuple((a + b) / 2 for a, b in zip(fg, bg))
            r = ratio(fg, bg)
            if r < 3:
                low.append("%r fg=%s bg=%s %.2f:1" %
                           (ch, st["fg"], st["bg"], r))
        text = "".join(c[0] for c in cells)
        if low:
            bad += 1
            print("line %d: %s" % (row + 1, text.rstrip()))
            print("  below 3:1: " + ", ".join(sorted(set(low))[:6]))
        for w in wanted:
            k = text.find(w)
            if w not in found and k >= 0:
                found[w] = cells[k]
    for w in wanted:
        if w in found:
            print("%s fg=%s bg=%s" % (w, found[w][1], found[w][2]))
        else:
            print("%s absent" % w)
    sys.exit(1 if bad else 0)


main()
