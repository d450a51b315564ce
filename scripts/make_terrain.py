#!/usr/bin/python3
"""Writes the default terrain, assets/terrain/hills.png: a 256 x 256 16-bit grayscale PNG of
gentle rolling hills (docs/walker.md: Terrain). Deterministic: the same file every run.

Usage: /usr/bin/python3 scripts/make_terrain.py [OUTPUT.png]   (needs python3-pil)
"""
import math
import sys
from pathlib import Path

from PIL import Image

SIDE = 256
# Gaussian hills: (centre u, centre v, radius, height), u and v in [0, 1] across the image.
HILLS = [
    (0.22, 0.30, 0.16, 1.00), (0.70, 0.22, 0.12, 0.75), (0.78, 0.72, 0.18, 0.90),
    (0.30, 0.78, 0.13, 0.60), (0.52, 0.50, 0.10, 0.25), (0.05, 0.60, 0.10, 0.50),
    (0.95, 0.45, 0.09, 0.55), (0.50, 0.95, 0.12, 0.45), (0.45, 0.08, 0.08, 0.40),
]


def height(u, v):
    h = 0.0
    for cu, cv, r, a in HILLS:
        d2 = (u - cu) ** 2 + (v - cv) ** 2
        h += a * math.exp(-d2 / (2.0 * r * r))
    # Long low ripples so no area is perfectly flat.
    h += 0.08 * math.sin(2 * math.pi * (1.5 * u + 0.3 * v)) * math.cos(2 * math.pi * 1.2 * v)
    h += 0.04 * math.sin(2 * math.pi * (3.1 * u - 2.3 * v) + 1.0)
    return h


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else (
        Path(__file__).resolve().parent.parent / "assets" / "terrain" / "hills.png")
    raw = [height((i + 0.5) / SIDE, (j + 0.5) / SIDE) for j in range(SIDE) for i in range(SIDE)]
    lo, hi = min(raw), max(raw)
    values = [round((h - lo) / (hi - lo) * 65535) for h in raw]
    image = Image.new("I;16", (SIDE, SIDE))
    image.putdata(values)
    out.parent.mkdir(parents=True, exist_ok=True)
    image.save(out, format="PNG")
    print(f"wrote {out}: {SIDE} x {SIDE}, 16-bit gray")


if __name__ == "__main__":
    main()
