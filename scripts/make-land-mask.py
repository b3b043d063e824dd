#!/usr/bin/env python3
"""Writes Sources/StratusDashboard/Modals/LandMask.swift: the world's land in 2-degree cells.

The source is NOAA's GLOBE land mask (public domain) as the PyPI package global-land-mask
carries it. Run it only to remake the table:
    python3 -m venv /tmp/landmask && /tmp/landmask/bin/pip install global-land-mask numpy
    /tmp/landmask/bin/python scripts/make-land-mask.py
"""
import pathlib
import numpy as np
from global_land_mask import globe

COLUMNS, ROWS = 180, 90  # 2-degree cells, west to east from 180 W, north to south from 90 N

def row_hex(row):
    north = 90 - row * 2
    value = 0
    for column in range(COLUMNS):
        west = -180 + column * 2
        # A cell is land when more than a third of its 64 samples (a quarter degree apart) are.
        lats = np.linspace(north - 0.125, north - 1.875, 8)
        lons = np.linspace(west + 0.125, west + 1.875, 8)
        grid_lats, grid_lons = np.meshgrid(lats, lons)
        land = globe.is_land(grid_lats, grid_lons).mean() > 1 / 3
        value = (value << 1) | int(land)
    return format(value, "045x")

lines = [f'        "{row_hex(row)}",' for row in range(ROWS)]
source = "\n".join([
    "/// The world's land in 2-degree cells: 90 rows from 90° N southwards, each 180 cells from",
    "/// 180° W eastwards as 45 hex digits (the first digit's high bit is the westmost cell).",
    "/// Made by `scripts/make-land-mask.py` from NOAA's GLOBE land mask (public domain).",
    "enum LandMask {",
    "    static let hexRows: [String] = [",
    *lines,
    "    ]",
    "}",
    "",
])
target = pathlib.Path(__file__).resolve().parent.parent / "Sources/StratusDashboard/Modals/LandMask.swift"
target.write_text(source)
print(f"wrote {target}")
