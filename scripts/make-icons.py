#!/usr/bin/env python3
"""Draws the app icons (public/icons/*.png) with the standard library only.

A dark square with a lattice cube in perspective and a black and a white stone.
The maskable icon keeps everything inside the central 80 % safe zone.
Run: python3 scripts/make-icons.py
"""
import math, struct, zlib, os

BG = (11, 16, 32)
GRID = (96, 122, 170)
AX = [(239, 68, 68), (34, 197, 94), (59, 130, 246)]

def png(path, w, h, px):
    raw = b"".join(b"\x00" + bytes(px[y * w * 4:(y + 1) * w * 4]) for y in range(h))
    def chunk(t, d):
        c = struct.pack(">I", len(d)) + t + d
        return c + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

def draw(size, scale, rounded):
    px = bytearray(size * size * 4)
    def put(x, y, c, a=1.0):
        if 0 <= x < size and 0 <= y < size:
            i = (y * size + x) * 4
            for k in range(3):
                px[i + k] = int(px[i + k] * (1 - a) + c[k] * a)
            px[i + 3] = 255
    r = size * 0.18 if rounded else 0
    for y in range(size):
        for x in range(size):
            dx = max(r - x, 0, x - (size - 1 - r)); dy = max(r - y, 0, y - (size - 1 - r))
            if dx * dx + dy * dy <= r * r or r == 0:
                put(x, y, BG)
    c = size / 2; s = size * scale / 2
    def proj(p):  # simple oblique projection of a unit cube centred at 0
        x, y, z = p
        return (c + s * (x * 0.78 - z * 0.42), c + s * (-y * 0.78 + z * 0.30))
    def line(a, b, col, wdt):
        (x0, y0), (x1, y1) = proj(a), proj(b)
        n = int(max(abs(x1 - x0), abs(y1 - y0)) * 2) + 1
        for i in range(n + 1):
            t = i / n; x = x0 + (x1 - x0) * t; y = y0 + (y1 - y0) * t
            for ox in range(-wdt, wdt + 1):
                for oy in range(-wdt, wdt + 1):
                    if ox * ox + oy * oy <= wdt * wdt:
                        put(int(x + ox), int(y + oy), col)
    g = [-1, 0, 1]
    wdt = max(1, size // 128)
    for a in g:
        for b in g:
            line((-1, a, b), (1, a, b), GRID, wdt)
            line((a, -1, b), (a, 1, b), GRID, wdt)
            line((a, b, -1), (a, b, 1), GRID, wdt)
    o = (-1, 1, -1)
    line(o, (1, 1, -1), AX[0], wdt * 2); line(o, (-1, -1, -1), AX[1], wdt * 2); line(o, (-1, 1, 1), AX[2], wdt * 2)
    def stone(p, col, hi):
        cx, cy = proj(p); rad = size * scale * 0.13
        for y in range(int(cy - rad) - 1, int(cy + rad) + 2):
            for x in range(int(cx - rad) - 1, int(cx + rad) + 2):
                d = math.hypot(x - cx, y - cy)
                if d <= rad:
                    sh = max(0.0, 1 - math.hypot(x - cx + rad * .35, y - cy + rad * .35) / rad)
                    put(x, y, tuple(min(255, int(col[k] + hi * sh)) for k in range(3)), min(1.0, rad - d + 0.5))
    stone((0, 0, 1), (20, 20, 24), 90)
    stone((1, 0, 0), (225, 225, 220), 30)
    return px

here = os.path.join(os.path.dirname(__file__), "..", "public", "icons")
for name, size, scale, rounded in [("icon-192.png", 192, 0.64, True), ("icon-512.png", 512, 0.64, True),
                                   ("icon-maskable-512.png", 512, 0.50, False)]:
    png(os.path.join(here, name), size, size, draw(size, scale, rounded))
    print("wrote", name)
