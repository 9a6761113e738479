#!/usr/bin/env python3
"""The Windows build against the native one, lesson by lesson (scripts/windows).

    cross_compare.py NATIVE_RAYPICK RAYPICK_EXE WRAPPER OUTDIR

Each lesson runs twice with the same script: the native program, and
raypick.exe through WRAPPER (Wine). Both click the same grid of points and
write a screenshot of the last frame. Passing means:
  - the same picks: per click the same hit/miss, object id and name, and the
    same t within 1e-4 relative (both builds are gcc with SSE2 maths, but
    different C runtimes print floats);
  - the same picture: the mean absolute difference per channel below
    MAX_MEAN_DIFF (of 255), and at most MAX_OFF_FRACTION of the pixels off
    by more than 32 in some channel. Both draw with Mesa's llvmpipe (Wine's
    opengl32 forwards to it), so only the HUD's timing digits may differ:
    measured in three runs, at most 0.087 mean and 0.0004 of the pixels off.
    The many-objects mode, measured in three runs: at most 0.086 mean and
    0.0004 off, the HUD's digits and a few single pixels at the belt's
    objects' edges (4 of 230,400 in one run).
The lessons are the registry's (--list-lessons), which both builds must
list alike. Writes OUTDIR/summary.json {"passed", "failed", "lessons": [...]}, prints one
line per lesson, and exits 1 when any lesson failed.
"""
import json
import os
import subprocess
import sys

from PIL import Image, ImageChops, ImageStat

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lesson_registry import list_lessons  # noqa: E402  (tests/lesson_registry.py)

# Runs besides one per lesson, (name, lesson, extra arguments): lesson 1's
# many-objects mode (A at frame 2: 100,000 moving objects in a scene BVH,
# moved by the script's fixed time step, so both builds pick among the same
# positions)
MORE_RUNS = [("1-many", 1, ["--key", "a@2"])]
WIDTH, HEIGHT, FRAMES = 640, 360, 40
MAX_MEAN_DIFF = 0.5
MAX_OFF_FRACTION = 0.002


def clicks():
    """A 5 x 3 grid of clicks, one every two frames from frame 4."""
    out, frame = [], 4
    for j in range(3):
        for i in range(5):
            x = int(WIDTH * (i + 1) / 6)
            y = int(HEIGHT * (j + 1) / 4)
            out += ["--click", "%d,%d@%d" % (x, y, frame)]
            frame += 2
    return out


def runs(native, exe, wrapper):
    """(name, lesson, extra arguments): every lesson of the registry, then
    MORE_RUNS. Raises RuntimeError when the two builds list other lessons."""
    lessons = list_lessons(native, [])
    windows = list_lessons(exe, wrapper.split())
    if lessons != windows:
        raise RuntimeError("the builds list other lessons: native %s, Windows %s" % (
            [x["name"] for x in lessons], [x["name"] for x in windows]))
    return [(str(x["number"]), x["number"], []) for x in lessons] + MORE_RUNS


def run(cmd, lesson, extra, shot):
    args = ["--lesson", str(lesson), "--size", "%dx%d" % (WIDTH, HEIGHT),
            "--frames", str(FRAMES), "--report", "--screenshot", shot] + extra + clicks()
    proc = subprocess.run(cmd + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (" ".join(cmd), proc.returncode,
                                                  proc.stderr[-1000:]))
    picks = []
    for line in proc.stdout.split("\n"):
        if line.startswith("{"):
            if line.endswith("\r"):
                raise RuntimeError("%s: report line ends in CR" % cmd[-1])
            picks.append(json.loads(line))
    return picks


def same_pick(a, b):
    for key in ("frame", "x", "y", "hit", "id", "what"):
        if a.get(key) != b.get(key):
            return "%s %r != %r" % (key, a.get(key), b.get(key))
    if a["hit"]:
        ta, tb = a["t"], b["t"]
        if abs(ta - tb) > 1e-4 * max(1.0, abs(ta)):
            return "t %r != %r" % (ta, tb)
    return None


def image_difference(path_a, path_b):
    """(mean absolute difference per channel, fraction of pixels off by > 32)."""
    a = Image.open(path_a).convert("RGB")
    b = Image.open(path_b).convert("RGB")
    if a.size != b.size:
        return None, None
    diff = ImageChops.difference(a, b)
    mean = max(ImageStat.Stat(diff).mean)
    # a pixel is off when any channel differs by more than 32
    r, g, b_ = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b_)
    off_mask = worst.point(lambda v: 255 if v > 32 else 0)
    off = ImageStat.Stat(off_mask).mean[0] / 255.0
    return mean, off


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    native, exe, wrapper, outdir = argv
    os.makedirs(outdir, exist_ok=True)
    passed = failed = 0
    results = []
    try:
        lessons = runs(native, exe, wrapper)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        print("FAIL the lesson registry: %s" % e)
        with open(os.path.join(outdir, "summary.json"), "w") as f:
            json.dump({"passed": 0, "failed": 1, "lessons": [{"lesson": "registry", "ok": False,
                                                              "problems": [str(e)]}]}, f, indent=1)
        return 1
    for name, lesson, extra in lessons:
        problems = []
        shot_n = os.path.join(outdir, "lesson%s-native.png" % name)
        shot_w = os.path.join(outdir, "lesson%s-windows.png" % name)
        mean = off = None
        picks_n = []
        try:
            picks_n = run([native], lesson, extra, shot_n)
            picks_w = run(wrapper.split() + [exe], lesson, extra, shot_w)
            if len(picks_n) != len(picks_w):
                problems.append("%d picks native, %d Windows" % (len(picks_n), len(picks_w)))
            elif not picks_n:
                problems.append("no picks reported")
            for a, b in zip(picks_n, picks_w):
                why = same_pick(a, b)
                if why:
                    problems.append("click at frame %s: %s" % (a.get("frame"), why))
            mean, off = image_difference(shot_n, shot_w)
            if mean is None:
                problems.append("screenshots differ in size")
            else:
                if mean >= MAX_MEAN_DIFF:
                    problems.append("mean difference %.3f >= %.1f" % (mean, MAX_MEAN_DIFF))
                if off > MAX_OFF_FRACTION:
                    problems.append("%.4f of the pixels off by > 32" % off)
        except (RuntimeError, OSError, subprocess.TimeoutExpired, ValueError) as e:
            problems.append(str(e))
        ok = not problems
        passed += ok
        failed += not ok
        hits = sum(1 for p in picks_n if p.get("hit"))
        print("%s lesson %s: mean difference per channel %s, pixels off %s, %s" % (
            "ok  " if ok else "FAIL", name,
            "%.4f" % mean if mean is not None else "-",
            "%.5f" % off if off is not None else "-",
            "; ".join(problems) if problems else "same %d picks (%d hits)" % (len(picks_n), hits)))
        results.append({"lesson": name, "ok": ok, "mean_diff": mean, "off_fraction": off,
                        "problems": problems})
    with open(os.path.join(outdir, "summary.json"), "w") as f:
        json.dump({"passed": passed, "failed": failed, "lessons": results}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
