#!/usr/bin/env python3
# ps-pngcheck.py FILE.png: is a browser's screenshot of a report a picture?
# Decodes the PNG (zlib, the five filters; 8-bit RGB or RGBA) and prints
# "WxH, N% not white, N colours, N blue, N red"; exit 0 when more than 2%
# is not white, there are more than 50 colours and more than 40 pixels each
# of the first series' blue (#1f77b4) and a red (the hottest heat cells,
# the second series' #d62728), else 1. Shared by check-html.sh and
# compare-html.sh.
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), "PNG type %d/%d" % (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
nonwhite, colours, blue, red, seen = 0, set(), 0, 0, 0
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    if f == 2:
        line = bytearray((p + q) & 255 for p, q in zip(line, prev))
    elif f == 1:
        for i in range(bpp, stride):
            line[i] = (line[i] + line[i - bpp]) & 255
    elif f == 3:
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + ((a + prev[i]) >> 1)) & 255
    elif f == 4:
        for i in range(stride):
            if i >= bpp:
                a, b, c = line[i - bpp], prev[i], prev[i - bpp]
            else:
                a, b, c = 0, prev[i], 0
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
            line[i] = (line[i] + pr) & 255
    prev = line
    for x in range(0, stride, bpp):
        px = bytes(line[x:x + 3])
        seen += 1
        if px == b"\xff\xff\xff":
            continue
        nonwhite += 1
        colours.add(px)
        # the first series' blue, the hottest cells' red
        if abs(px[0] - 0x1f) < 24 and abs(px[1] - 0x77) < 24 and abs(px[2] - 0xb4) < 24:
            blue += 1
        elif px[0] > 150 and px[1] < 80 and px[2] < 80:
            red += 1
share = nonwhite / float(seen)
print("%dx%d, %.1f%% not white, %d colours, %d blue, %d red" %
      (w, h, 100 * share, len(colours), blue, red))
sys.exit(0 if share > 0.02 and len(colours) > 50 and blue > 40 and red > 40 else 1)
