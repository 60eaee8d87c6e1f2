#!/usr/bin/env python3
# flame_png.py -- tone-map flame.s's density histogram into a PNG.  The input is an
# `umbra-sim --dump-mem hist:65536:FILE` dump (dump_to_png.py reads it: an address, a
# colon, then up to eight hex words per line); each word is one cell's hit count,
# row-major, WIDTH cells a row.  As in flam3, brightness is the log of the density:
# b = (log(1 + count) / log(1 + densest count)) ** POWER, so the densest cell is 1; a
# POWER above 1 dims the cells of a few stray hits (the walks' sparse halo), below 1
# lifts them.  A fire palette (black, red, orange, yellow, white) colours b; an empty
# cell is black.  Standard library only.
#
#   flame_png.py DUMP WIDTH OUT.png [--scale N] [--power P]
# e.g.  build/tools/umbra-sim --model iss examples/flame.s --domain 32x32 \
#           --dump-mem hist:65536:out/flame.txt
#       examples/flame_png.py out/flame.txt 128 out/flame.png --scale 2
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dump_to_png import png, read_words  # noqa: E402

# (brightness, (r, g, b)): the palette's stops, linearly interpolated between.
PALETTE = [
    (0.00, (0, 0, 0)),
    (0.20, (90, 6, 2)),
    (0.42, (200, 45, 8)),
    (0.62, (255, 130, 20)),
    (0.80, (255, 210, 90)),
    (1.00, (255, 255, 235)),
]


def colour(b):
    for (b0, c0), (b1, c1) in zip(PALETTE, PALETTE[1:]):
        if b <= b1:
            f = (b - b0) / (b1 - b0)
            return bytes(round(u + (v - u) * f) for u, v in zip(c0, c1))
    return bytes(PALETTE[-1][1])


def tone_map(counts, power):
    top = math.log1p(max(counts)) or 1.0
    return [colour((math.log1p(c) / top) ** power) if c else b"\x00\x00\x00" for c in counts]


def main():
    ap = argparse.ArgumentParser(description="tone-map a flame.s histogram dump into a PNG")
    ap.add_argument("dump")
    ap.add_argument("width", type=int)
    ap.add_argument("out")
    ap.add_argument("--scale", type=int, default=1, help="repeat each cell N x N times")
    ap.add_argument("--power", type=float, default=1.4, help="exponent of the log density (default 1.4)")
    a = ap.parse_args()
    counts = read_words(a.dump)
    if a.width <= 0 or a.scale <= 0 or a.power <= 0 or not counts or len(counts) % a.width:
        sys.exit(f"{a.dump}: {len(counts)} cells do not make rows of {a.width}")
    height = len(counts) // a.width
    pixels = tone_map(counts, a.power)
    rows = []
    for y in range(height):
        row = b"".join(p * a.scale for p in pixels[y * a.width:(y + 1) * a.width])
        rows.extend([row] * a.scale)
    with open(a.out, "wb") as f:
        f.write(png(a.width * a.scale, height * a.scale, rows))
    print(f"{a.out}: {a.width * a.scale}x{height * a.scale}, {sum(counts)} hits, densest cell {max(counts)}")


if __name__ == "__main__":
    main()
