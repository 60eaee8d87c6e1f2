#!/usr/bin/env python3
# dump_to_png.py -- turn an `umbra-sim --dump-mem` dump of an 8888 framebuffer into a
# PNG you can look at.  The dump is text (an address, a colon, then up to eight hex
# words per line); each word is one 0xAARRGGBB pixel, row-major.  Standard library
# only (zlib, struct), so it runs wherever Python 3 does; alpha is dropped.
#
#   dump_to_png.py DUMP WIDTH OUT.png [--scale N]
# e.g. after the README demo:  examples/dump_to_png.py out/mandelbrot.txt 96 out/mandelbrot.png --scale 4
import argparse
import struct
import sys
import zlib


def read_words(path):
    words = []
    with open(path) as f:
        for line in f:
            fields = line.split()
            if not fields:
                continue
            if not fields[0].endswith(":"):
                sys.exit(f"{path}: not an umbra-sim memory dump: {line.strip()!r}")
            words.extend(int(w, 16) for w in fields[1:])
    return words


def png(width, height, rows):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 on every row
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("dump")
    ap.add_argument("width", type=int)
    ap.add_argument("out")
    ap.add_argument("--scale", type=int, default=1, help="repeat each pixel N x N times")
    a = ap.parse_args()
    words = read_words(a.dump)
    if a.width <= 0 or a.scale <= 0 or len(words) % a.width:
        sys.exit(f"{a.dump}: {len(words)} pixels do not make rows of {a.width}")
    height = len(words) // a.width
    rows = []
    for y in range(height):
        row = bytearray()
        for w in words[y * a.width:(y + 1) * a.width]:
            row += bytes(((w >> 16) & 0xFF, (w >> 8) & 0xFF, w & 0xFF)) * a.scale
        rows.extend([bytes(row)] * a.scale)
    with open(a.out, "wb") as f:
        f.write(png(a.width * a.scale, height * a.scale, rows))
    print(f"{a.out}: {a.width * a.scale}x{height * a.scale}")


if __name__ == "__main__":
    main()
