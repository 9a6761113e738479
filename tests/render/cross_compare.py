#!/usr/bin/env python3
"""The Windows build against the native one, lesson by lesson (scripts/windows).

    cross_compare.py NATIVE_RAYPICK RAYPICK_EXE WRAPPER OUTDIR

Each lesson runs twice with the same script: the native program, and
raypick.exe through WRAPPER (Wine). Both click the same grid of points and
write a screenshot of the last frame. Both builds are gcc with SSE2 maths,
and what they draw and move is computed with steady_math.c's sine and
cosine, whose bits are the same on every CPU (the C runtimes' are not:
mingw-w64's go through the x87, which rounds differently on Intel and
AMD). So passing means agreement where agreement is owed:
  - the same camera and objects: --print-layout's eye, view and projection
    and every object's numbers equal within FLOAT_REL (the two C runtimes
    print the same floats; 1e-6 leaves room for the last printed digit);
  - the same picks: per click the same hit/miss, object id and name, and
    t, point and ray within FLOAT_REL (lesson 1's many-objects mode moves
    100,000 objects for the clicks' frames: the same positions or other
    picks);
  - the same scene: outside the HUD's panels (as the screenshot line of
    --report gives them for each build), every pixel the same. Both draw
    with Mesa's llvmpipe (Wine's opengl32 forwards to it) from the same
    numbers, so there is no cause for any difference. The HUD's panels are
    left out: they show wall-clock timings (the pick's, lesson 1's
    many-objects move and refit), different in any two runs, and their
    length moves where lines wrap. The HUD's drawing is checked by the
    render tests. Both draw the HUD in English with the same font file
    (RAYPICK_FONT: DejaVu Sans, Z: before its path for Wine).
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
FLOAT_REL = 1e-6
# the HUD's font for both builds; none found: both use the built-in font
FONTS = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
         "/usr/share/fonts/dejavu/DejaVuSans.ttf", "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf"]


def font_env(windows):
    """the environment a build runs in: English, the same font file"""
    font = next((f for f in FONTS if os.path.isfile(f)), "/nonexistent/raypick-font.ttf")
    return dict(os.environ, LC_ALL="C", RAYPICK_FONT=("Z:" + font) if windows else font)


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


def run_program(cmd, args):
    """the report lines of a run, in English with the same font file"""
    windows = cmd[-1].lower().endswith(".exe")
    proc = subprocess.run(cmd + args + ["--lang", "en"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=300, env=font_env(windows))
    if proc.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (" ".join(cmd), proc.returncode,
                                                  proc.stderr[-1000:]))
    lines = []
    for line in proc.stdout.split("\n"):
        if line.startswith("{"):
            if line.endswith("\r"):
                raise RuntimeError("%s: report line ends in CR" % cmd[-1])
            lines.append(json.loads(line))
    return lines


def run(cmd, lesson, extra, shot):
    """(the picks, the screenshot line) of one scripted run"""
    args = ["--lesson", str(lesson), "--size", "%dx%d" % (WIDTH, HEIGHT),
            "--frames", str(FRAMES), "--report", "--screenshot", shot] + extra + clicks()
    lines = run_program(cmd, args)
    picks = [l for l in lines if "lesson" in l]
    shots = [l["screenshot"] for l in lines if "screenshot" in l]
    if len(shots) != 1:
        raise RuntimeError("%s: %d screenshot lines in the report" % (cmd[-1], len(shots)))
    return picks, shots[0]


def layout(cmd, lesson):
    lines = run_program(cmd, ["--lesson", str(lesson), "--size", "%dx%d" % (WIDTH, HEIGHT),
                              "--print-layout"])
    if len(lines) != 1:
        raise RuntimeError("%s --print-layout: %d lines" % (cmd[-1], len(lines)))
    return lines[0]


def differences(a, b, path=""):
    """Where two parsed JSON values differ: numbers beyond FLOAT_REL,
    anything else at all. Keys in skip are not compared."""
    if isinstance(a, str) and isinstance(b, str) and b == "Z:" + a:
        return []       # a path as each build was given it (font_env)
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None or isinstance(a, str):
        return [] if a == b else ["%s %r != %r" % (path, a, b)]
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        ok = abs(a - b) <= FLOAT_REL * max(1.0, abs(a), abs(b))
        return [] if ok else ["%s %r != %r" % (path, a, b)]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return ["%s: %d != %d items" % (path, len(a), len(b))]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += differences(x, y, "%s[%d]" % (path, i))
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k in SKIP:
                continue
            if k not in a or k not in b:
                out.append("%s.%s only in one" % (path, k))
            else:
                out += differences(a[k], b[k], "%s.%s" % (path, k))
        return out
    return ["%s: %r vs %r" % (path, type(a).__name__, type(b).__name__)]


# fields that measure time, not geometry: "us" (the pick's time) and the
# GPU pick's own timings
SKIP = {"us", "gpu_us", "read_us"}


def hud_boxes(shot):
    """the HUD's panels of a screenshot line, as (x0, y0, x1, y1) pixels"""
    hud = shot.get("hud")
    boxes = []
    for name in ("top", "bottom"):
        if hud and hud[name][2] > 0 and hud[name][3] > 0:
            x, y, w, h = hud[name]
            boxes.append((int(x), int(y), int(x + w + 0.999), int(y + h + 0.999)))
    return boxes


def scene_difference(path_a, path_b, boxes):
    """(mean absolute difference per channel, fraction of pixels off by > 32)
    over the pixels outside every box"""
    a = Image.open(path_a).convert("RGB")
    b = Image.open(path_b).convert("RGB")
    if a.size != b.size:
        return None, None
    mask = Image.new("L", a.size, 255)
    for box in boxes:
        mask.paste(0, box)
    diff = ImageChops.difference(a, b)
    scene = ImageStat.Stat(mask).sum[0] / 255.0
    if scene == 0:
        return None, None
    masked = ImageChops.multiply(diff, Image.merge("RGB", (mask, mask, mask)))
    mean = max(ImageStat.Stat(masked).sum) / scene
    # a pixel is off when any channel differs by more than 32
    r, g, b_ = masked.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b_)
    off_mask = worst.point(lambda v: 255 if v > 32 else 0)
    off = ImageStat.Stat(off_mask).sum[0] / 255.0 / scene
    return mean, off


def compare_lesson(native, windows, lesson, extra, shot_n, shot_w):
    """(problems, native picks, mean, off)"""
    problems = []
    for why in differences(layout(native, lesson), layout(windows, lesson), "layout"):
        problems.append(why)
    picks_n, screen_n = run(native, lesson, extra, shot_n)
    picks_w, screen_w = run(windows, lesson, extra, shot_w)
    if len(picks_n) != len(picks_w):
        problems.append("%d picks native, %d Windows" % (len(picks_n), len(picks_w)))
    elif not picks_n:
        problems.append("no picks reported")
    for a, b in zip(picks_n, picks_w):
        for why in differences(a, b, "click at frame %s" % a.get("frame")):
            problems.append(why)
    mean, off = scene_difference(shot_n, shot_w, hud_boxes(screen_n) + hud_boxes(screen_w))
    if mean is None:
        problems.append("screenshots differ in size, or the HUD covers all")
    else:
        if mean > 0:
            problems.append("the scenes differ: mean difference %.4f per channel, %.5f of the pixels "
                            "off by > 32" % (mean, off))
    return problems, picks_n, mean, off


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
        shot_n = os.path.join(outdir, "lesson%s-native.png" % name)
        shot_w = os.path.join(outdir, "lesson%s-windows.png" % name)
        mean = off = None
        picks_n = []
        try:
            problems, picks_n, mean, off = compare_lesson([native], wrapper.split() + [exe], lesson,
                                                          extra, shot_n, shot_w)
        except (RuntimeError, OSError, subprocess.TimeoutExpired, ValueError, KeyError) as e:
            problems = [str(e)]
        ok = not problems
        passed += ok
        failed += not ok
        hits = sum(1 for p in picks_n if p.get("hit"))
        print("%s lesson %s: scene's mean difference per channel %s, pixels off %s, %s" % (
            "ok  " if ok else "FAIL", name,
            "%.4f" % mean if mean is not None else "-",
            "%.5f" % off if off is not None else "-",
            "; ".join(problems[:8]) if problems else "same layout and %d picks (%d hits)" % (len(picks_n), hits)))
        results.append({"lesson": name, "ok": ok, "mean_diff": mean, "off_fraction": off,
                        "problems": problems})
    with open(os.path.join(outdir, "summary.json"), "w") as f:
        json.dump({"passed": passed, "failed": failed, "lessons": results}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
