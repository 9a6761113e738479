#!/usr/bin/env python3
"""Render test of lesson 4 with a real-size heightmap (issue 16).

    heightmap_big_test.py RAYPICK    (unittest: HeightmapBigTest.test_big_map)

Writes a 2049x2049 16-bit PNG itself: gentle hills plus ridges one sample
wide every 5 columns. The demo draws such a map decimated (every 16th
sample: most drawn vertices miss the ridges), but its clicks must land on the
exact full-resolution surface. The oracle here walks each click's ray (the
one the report prints) over the map's own samples in double precision and
finds its first crossing of the triangles (two per cell, split along the
(col,row)-(col+1,row+1) diagonal); the reported point must be that one,
and for some clicks it must be far from where the ray meets the drawn
(decimated) surface, so a demo that picked what it draws would fail. The
screenshot must show the marker at the picked point. --help must say what
the heightmap defaults are.
"""
import array
import math
import os
import sys

from PIL import Image as PILImage

from rp_render import (WRAPPER, ctx, Camera, RenderCase, check, dist, layout, main, read_png, run, run_program)

SIDE = 2049
RIDGE_EVERY = 5


def write_map(path):
    """the heights as 16-bit samples (row-major) and the PNG written from them"""
    hills = [0.35 + 0.2 * math.sin(c * 0.004) for c in range(SIDE)]
    rows = [0.15 * math.cos(r * 0.003) for r in range(SIDE)]
    ridge = [0.3 if c % RIDGE_EVERY == 2 else 0.0 for c in range(SIDE)]
    col_part = [hills[c] + ridge[c] for c in range(SIDE)]
    samples = array.array("H")
    for r in range(SIDE):
        rv = rows[r]
        samples.extend(min(65535, int(65535 * (v + rv))) for v in col_part)
    PILImage.frombytes("I;16", (SIDE, SIDE), samples.tobytes()).save(path)
    return samples


class Surface:
    """The map's triangles as the library defines them, from its samples."""

    def __init__(self, samples, info, stride=1):
        self.s = samples
        self.stride = stride
        self.n = (SIDE - 1) // stride + 1        # drawn vertices a side
        self.spacing = info["spacing"] * stride
        self.origin = info["origin"]
        self.k = info["height_scale"] / 65535.0

    def h(self, c, r):
        return self.s[(r * self.stride) * SIDE + c * self.stride] * self.k + self.origin[1]

    def height(self, x, z):
        fx = (x - self.origin[0]) / self.spacing
        fz = (z - self.origin[2]) / self.spacing
        if not (0 <= fx <= self.n - 1 and 0 <= fz <= self.n - 1):
            return None
        c, r = min(int(fx), self.n - 2), min(int(fz), self.n - 2)
        u, v = fx - c, fz - r
        h00, h10, h01, h11 = self.h(c, r), self.h(c + 1, r), self.h(c, r + 1), self.h(c + 1, r + 1)
        if u >= v:
            return h00 + u * (h10 - h00) + v * (h11 - h10)
        return h00 + v * (h01 - h00) + u * (h11 - h01)

    def first_hit(self, o, d):
        """smallest t where the ray o + t d comes down to the surface: steps
        of an eighth of a sample across the map bracket the first crossing
        (the height difference is piecewise linear), bisection finds it"""
        horiz = math.hypot(d[0], d[2])
        dt = (self.spacing / self.stride) / 8.0 / horiz
        t_far = 4.0 * (2 * SIDE * self.spacing) / horiz
        f = lambda t: o[1] + t * d[1] - (self.height(o[0] + t * d[0], o[2] + t * d[2]) or 0.0)
        t, prev, seen = 0.0, None, False
        while t < t_far:
            on_map = self.height(o[0] + t * d[0], o[2] + t * d[2]) is not None
            if seen and not on_map:
                return None         # out of the map on the far side
            seen |= on_map
            if on_map:
                ft = f(t)
                if ft <= 0.0 and prev is not None:
                    lo, hi = prev, t
                    for _ in range(60):
                        mid = 0.5 * (lo + hi)
                        if f(mid) > 0.0:
                            lo = mid
                        else:
                            hi = mid
                    return hi
                prev = t if ft > 0.0 else None
            t += dt
        return None


def at(o, d, t):
    return [o[i] + t * d[i] for i in range(3)]


class HeightmapBigTest(RenderCase):
    def test_big_map(self):
        w, h = 640, 360
        path = os.path.join(ctx.tmp, "big.png")
        samples = write_map(path)
        lay = layout(4, w, h, ["--heightmap", path])
        cam = Camera(lay)
        info = [o for o in lay["objects"] if o["kind"] == "map"][0]
        check((info["cols"], info["rows"]) == (SIDE, SIDE), "the map object is %dx%d" % (info["cols"], info["rows"]))
        check(abs(info["spacing"] - 48.0 / (SIDE - 1)) < 1e-7, "fit to 48 units: spacing %g" % info["spacing"])
        exact = Surface(samples, info)
        drawn = Surface(samples, info, stride=16)       # what the demo draws (terrain_mesh: 129 a side)

        spots = [(w // 2, h // 2), (w // 2 + 37, h // 2 + 20), (w // 3, 2 * h // 3), (2 * w // 3, h // 2 - 15),
                 (w // 2 - 80, h // 2 + 60), (w // 2 + 120, h // 2 + 45)]
        args = ["--lesson", "4", "--size", "%dx%d" % (w, h), "--report", "--heightmap", path, "--key", "m@0"]
        for i, (x, y) in enumerate(spots):
            args += ["--click", "%d,%d@%d" % (x, y, i + 1)]
        out, err = run(args + ["--frames", len(spots) + 2])
        reports = [r for r in out if "lesson" in r and "hit" in r]
        check(len(reports) == len(spots), "expected %d reports, got %d" % (len(spots), len(reports)))
        far_from_drawn = 0
        for (x, y), rep in zip(spots, reports):
            where = "click %d,%d" % (x, y)
            check(rep["method"] == "exact", where + ": method %s" % rep["method"])
            if not check(rep["hit"], where + ": expected a hit"):
                continue
            o, d = rep["pick_origin"], rep["pick_dir"]
            t = exact.first_hit(o, d)
            if not check(t is not None, where + ": the oracle finds no hit"):
                continue
            p = at(o, d, t)
            check(dist(rep["point"], p) < 0.02,
                  where + ": point %s, the exact first hit is %s" % (rep["point"], p))
            check(abs(rep["t"] - t) * math.sqrt(sum(v * v for v in d)) < 0.02,
                  where + ": t %g, the exact first hit's %g" % (rep["t"], t))
            s = exact.height(rep["point"][0], rep["point"][2])
            check(s is not None and abs(rep["point"][1] - s) < 0.01,
                  where + ": point %s is off the full-resolution surface (%s)" % (rep["point"], s))
            td = drawn.first_hit(o, d)
            if td is None or dist(at(o, d, td), p) > 0.1:
                far_from_drawn += 1
        check(far_from_drawn >= 2, "the clicks never tell the exact surface from the drawn one (%d)" % far_from_drawn)

        # the screenshot: the marker (red cone) at the picked point, lifted where the drawing is coarser
        if reports and reports[0]["hit"]:
            x, y = spots[0]
            px, py = cam.project(reports[0]["point"])
            shots = {}
            for name, extra in (("click", ["--click", "%d,%d@1" % (x, y)]), ("base", [])):
                shot = os.path.join(ctx.tmp, name + ".png")
                run(["--lesson", "4", "--size", "%dx%d" % (w, h), "--heightmap", path, "--key", "m@0",
                     "--frames", 3, "--screenshot", shot] + extra)
                img = read_png(shot)
                shots[name] = [p for p in img.around(px, py - 6, 0, 9) if p[0] > 170 and p[1] < 110 and p[2] < 90]
            check(len(shots["click"]) >= 3, "no marker at the picked point %.1f,%.1f" % (px, py))
            check(len(shots["base"]) < len(shots["click"]), "the marker colours are there without a click")

        # --help says what the defaults are
        proc = run_program(WRAPPER + [ctx.raypick, "--help"])
        check("--heightmap-spacing" in proc.stdout and "48" in proc.stdout and "--heightmap-scale" in proc.stdout
              and "default 7" in proc.stdout, "--help does not say the heightmap defaults")


if __name__ == "__main__":
    sys.exit(main())
