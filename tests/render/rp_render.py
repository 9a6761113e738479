"""Helpers the render tests share (tests/render/render_test.py,
lesson5_test.py, heightmap_big_test.py, exits_under_load.py): running the
demo in script mode, the camera it prints (projection, unprojection, where
to click), a double-precision oracle for rays against spheres and
ellipsoids, screenshots read with Pillow, and the unittest case and command
line every render test uses.

State for one test lives in `ctx`: the program's path, a scratch directory,
the failed checks.
"""
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lesson_registry  # noqa: E402  (tests/lesson_registry.py)
import watched  # noqa: E402  (tests/watched.py)


class _Context:
    raypick = None      # absolute path of the program under test
    tmp = None          # scratch directory of the running test
    failures = []       # messages of its checks that failed
    lessons = None      # the registry (lessons()), read once


ctx = _Context()


# ------------------------------------------------------------------ running

# A run of the program that hangs: HANG_CPU_S of CPU time (RLIMIT_CPU, the
# kernel sends SIGXCPU), a measure the machine's load does not change; the
# slowest run here takes a few seconds of CPU even under ASan. A program
# blocked without using CPU is stopped by tests/watched.py: no CPU for two
# minutes (a deadlock or a lost wake-up seen once in Mesa's threads).
HANG_CPU_S = 120


# RAYPICK_EXE_WRAPPER: the launcher of a cross build's program (scripts/windows:
# Wine), split in words; empty for a native build.
WRAPPER = os.environ.get("RAYPICK_EXE_WRAPPER", "").split()


def _limit_cpu():
    resource.setrlimit(resource.RLIMIT_CPU, (HANG_CPU_S, HANG_CPU_S + 5))


def run_program(cmd, env=None, text=True):
    """cmd (the program, through WRAPPER, with its arguments) run to its end
    under both hang detectors; a subprocess.CompletedProcess with stdout and
    stderr. Raises watched.Stalled when it blocks."""
    return watched.run(cmd, env=env, preexec_fn=_limit_cpu, text=text)


def _wine_diagnosis(cmd, proc):
    """A silent exit under a launcher (Wine) may be the launcher's (Wine
    without its preloader: F15 in docs/reliability.md): the failure stands,
    and the same command runs once more with Wine's error channels on so
    the log says what Wine saw."""
    if not WRAPPER or proc.returncode == 0 or proc.stderr.strip():
        return ""
    env = dict(os.environ, WINEDEBUG="err+all,warn+server,warn+process")
    again = run_program(cmd, env=env)
    return "\n(diagnosis: the same command with WINEDEBUG=err+all exited %d; its stderr:)\n%s" % (
        again.returncode, again.stderr[-3000:])


def run(args, expect=0):
    """Run raypick with args; returns (stdout lines parsed as JSON, stderr)."""
    cmd = WRAPPER + [ctx.raypick] + [str(a) for a in args]
    proc = run_program(cmd)
    if proc.returncode != expect:
        raise AssertionError("%s exited %d, expected %d\nstderr: %s%s" %
                             (" ".join(cmd), proc.returncode, expect, proc.stderr[-2000:],
                              _wine_diagnosis(cmd, proc)))
    lines = []
    for line in proc.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            lines.append(json.loads(line))
    return lines, proc.stderr


def check(cond, message):
    """A soft assertion: a failed check is noted (RenderCase fails the test
    at its end, naming every one) and the test goes on, so one run reports
    all that is wrong. Returns cond, for checks that guard later ones."""
    if not cond:
        ctx.failures.append(message)
        print("FAIL:", message, flush=True)
    return cond


def lessons():
    """The lesson registry of the program under test (--list-lessons, read
    as every script reads it: tests/lesson_registry.py)."""
    if ctx.lessons is None:
        ctx.lessons = lesson_registry.list_lessons(ctx.raypick, WRAPPER)
    return ctx.lessons


def layout(lesson, width, height, extra=()):
    out, _ = run(["--lesson", lesson, "--size", "%dx%d" % (width, height), "--print-layout"] + list(extra))
    assert len(out) == 1, out
    return out[0]


def clicks_run(lesson, width, height, clicks, extra=(), frames=None):
    """clicks: list of (x, y, frame). Returns the report lines in order."""
    args = ["--lesson", lesson, "--size", "%dx%d" % (width, height), "--report"] + list(extra)
    last = 0
    for x, y, frame in clicks:
        args += ["--click", "%d,%d@%d" % (x, y, frame)]
        last = max(last, frame)
    args += ["--frames", frames if frames else last + 1]
    out, _ = run(args)
    reports = [r for r in out if "lesson" in r and "hit" in r]
    assert len(reports) == len(clicks), "expected %d reports, got %d" % (len(clicks), len(reports))
    return reports


# ------------------------------------------------------------------ math

def mat_from_json(a):
    """cglm mat4 printed column by column -> row-major nested list."""
    return [[a[c * 4 + r] for c in range(4)] for r in range(4)]


def mat_mul(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(4)) for c in range(4)] for r in range(4)]


def mat_vec(m, v):
    return [sum(m[r][k] * v[k] for k in range(4)) for r in range(4)]


def mat_inverse(m):
    n = 4
    a = [list(row) + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[piv] = a[piv], a[col]
        p = a[col][col]
        a[col] = [x / p for x in a[col]]
        for r in range(n):
            if r != col:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [row[n:] for row in a]


def sub(a, b): return [x - y for x, y in zip(a, b)]
def add(a, b): return [x + y for x, y in zip(a, b)]
def scale(a, s): return [x * s for x in a]
def dot(a, b): return sum(x * y for x, y in zip(a, b))
def norm(a): return math.sqrt(dot(a, a))
def dist(a, b): return norm(sub(a, b))
def unit(a): return scale(a, 1.0 / norm(a))


class Camera:
    def __init__(self, lay):
        self.w, self.h = lay["width"], lay["height"]
        self.view = mat_from_json(lay["view"])
        self.proj = mat_from_json(lay["proj"])
        self.vp = mat_mul(self.proj, self.view)
        self.inv = mat_inverse(self.vp)
        self.eye = lay["eye"]

    def project(self, p):
        """world point -> continuous window coordinates (top-left origin)"""
        c = mat_vec(self.vp, list(p) + [1.0])
        x, y = c[0] / c[3], c[1] / c[3]
        return ((x + 1) * 0.5 * self.w, (1 - y) * 0.5 * self.h)

    def ray(self, px, py):
        """the ray through continuous window coordinates (px, py)"""
        x, y = px / self.w * 2 - 1, 1 - py / self.h * 2
        pts = []
        for z in (-1.0, 1.0):
            v = mat_vec(self.inv, [x, y, z, 1.0])
            pts.append([v[i] / v[3] for i in range(3)])
        return pts[0], sub(pts[1], pts[0])

    def click_for(self, p):
        """the integer mouse position whose pixel centre is nearest p"""
        x, y = self.project(p)
        return int(math.floor(x)), int(math.floor(y))

    def click_ray(self, mx, my):
        return self.ray(mx + 0.5, my + 0.5)

    def pixels_per_unit(self, p):
        """how many pixels one world unit at p spans on screen"""
        return self.proj[1][1] * self.h * 0.5 / dist(p, self.eye)


def ray_sphere(o, d, c, r):
    """smallest t >= 0 (entry, or exit from inside), or None"""
    oc = sub(o, c)
    a, b, cc = dot(d, d), dot(oc, d), dot(oc, oc) - r * r
    disc = b * b - a * cc
    if disc < 0:
        return None
    s = math.sqrt(disc)
    t0, t1 = (-b - s) / a, (-b + s) / a
    if t1 < 0:
        return None
    return t0 if t0 >= 0 else t1


def quat_rotate(q, v):
    x, y, z, w = q
    if x == y == z == w == 0:
        return list(v)
    u = [x, y, z]
    t = scale([u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]], 2)
    cr = [u[1] * t[2] - u[2] * t[1], u[2] * t[0] - u[0] * t[2], u[0] * t[1] - u[1] * t[0]]
    return [v[i] + w * t[i] + cr[i] for i in range(3)]


def ray_ellipsoid(o, d, obj):
    """obj has center, radii, orientation (x, y, z, w; zeros = none)"""
    q = obj.get("orientation", [0, 0, 0, 0])
    qi = [-q[0], -q[1], -q[2], q[3]]
    lo = quat_rotate(qi, sub(o, obj["center"]))
    ld = quat_rotate(qi, d)
    radii = obj["radii"]
    lo = [lo[i] / radii[i] for i in range(3)]
    ld = [ld[i] / radii[i] for i in range(3)]
    return ray_sphere(lo, ld, [0, 0, 0], 1.0)


def on_ellipsoid(p, obj):
    q = obj.get("orientation", [0, 0, 0, 0])
    lp = quat_rotate([-q[0], -q[1], -q[2], q[3]], sub(p, obj["center"]))
    return math.sqrt(sum((lp[i] / obj["radii"][i]) ** 2 for i in range(3)))


def nearest_sphere(o, d, objects):
    best = None
    for obj in objects:
        if obj["kind"] != "sphere":
            continue
        t = ray_sphere(o, d, obj["center"], obj["radius"])
        if t is not None and (best is None or t < best[0]):
            best = (t, obj)
    return best


# ------------------------------------------------------------------ images

def read_png(path):
    """a screenshot -> Image (RGB; alpha, if any, dropped)"""
    from PIL import Image as PILImage    # here: the tests that read no picture run without Pillow
    with PILImage.open(path) as im:
        return Image(im.convert("RGB"))


class Image:
    """A screenshot: pixel lookups clamped to the image, neighbourhoods."""

    def __init__(self, im):
        self.im = im
        self.w, self.h = im.size
        self._px = im.load()

    def pixel(self, x, y):
        """(r, g, b) at integer pixel (x, y), clamped onto the image"""
        x = min(max(int(x), 0), self.w - 1)
        y = min(max(int(y), 0), self.h - 1)
        return self._px[x, y]

    def pixels(self):
        """every pixel, row by row"""
        return list(self.im.getdata())

    def region(self, rect):
        """the pixels of rect (x, y, w, h), each place clamped onto the image
        as pixel() clamps it: a numpy array [row][column][r, g, b]"""
        import numpy as np      # here, as Pillow: the tests that read no picture need neither
        if getattr(self, "_array", None) is None:
            self._array = np.asarray(self.im, dtype=np.int16)
        xs, ys = self._places(rect)
        return self._array[np.ix_(ys, xs)]

    def _places(self, rect):
        """rect's columns and rows, clamped onto the image: numpy arrays"""
        import numpy as np
        x, y, w, h = [int(v) for v in rect]
        return (np.clip(np.arange(x, x + max(w, 0)), 0, self.w - 1),
                np.clip(np.arange(y, y + max(h, 0)), 0, self.h - 1))

    def count(self, rect, test):
        """how many pixels of rect pass test: a function of an array of
        pixels (region()'s) to an array of booleans, as near() is"""
        import numpy as np
        return int(np.count_nonzero(test(self.region(rect))))

    def where(self, rect, test):
        """[(x, y)] of rect's pixels that pass test (count()'s), row by row,
        each place clamped onto the image as region() clamps it"""
        import numpy as np
        xs, ys = self._places(rect)
        rows, cols = np.nonzero(test(self.region(rect)))
        return [(int(xs[c]), int(ys[r])) for r, c in zip(rows, cols)]

    def around(self, cx, cy, r_min, r_max):
        """pixels whose distance from (cx, cy) lies in [r_min, r_max]"""
        out = []
        for y in range(int(cy - r_max), int(cy + r_max) + 1):
            for x in range(int(cx - r_max), int(cx + r_max) + 1):
                d = math.hypot(x + 0.5 - cx, y + 0.5 - cy)
                if r_min <= d <= r_max and 0 <= x < self.w and 0 <= y < self.h:
                    out.append(self.pixel(x, y))
        return out


def near(p, rgb, tol=14):
    """each channel of p within tol of rgb's: p one (r, g, b), or an array of
    them (Image.region()), answered for each"""
    import numpy as np
    return np.all(np.abs(np.asarray(p, dtype=np.int16) - np.asarray(rgb, dtype=np.int16)) <= tol, axis=-1)


def only(lines, key):
    """the values of key in the --report lines that have it (at least one)"""
    found = [line[key] for line in lines if key in line]
    if not found:
        raise AssertionError("no %r line in %s" % (key, lines))
    return found


def brightness(p):
    return sum(p) / 3.0


def mean_brightness(pixels):
    return sum(brightness(p) for p in pixels) / max(len(pixels), 1)


def screenshot(name, lesson, width, height, frames, clicks=(), keys=(), extra=()):
    path = os.path.join(ctx.tmp, name + ".png")
    args = ["--lesson", lesson, "--size", "%dx%d" % (width, height), "--frames", frames,
            "--screenshot", path] + list(extra)
    for x, y, frame in clicks:
        args += ["--click", "%d,%d@%d" % (x, y, frame)]
    for k, frame in keys:
        args += ["--key", "%s@%d" % (k, frame)]
    run(args)
    img = read_png(path)
    check(img.w == width and img.h == height, "%s: screenshot is %dx%d" % (name, img.w, img.h))
    return img


def sky_click(cam, objects_hit):
    """a window position near the top centre whose ray hits nothing"""
    for my in (3, 8, 15):
        for mx in (cam.w // 2, cam.w // 4, 3 * cam.w // 4):
            o, d = cam.click_ray(mx, my)
            if not objects_hit(o, d):
                return mx, my
    raise AssertionError("no empty sky found")


# ------------------------------------------------------------------ the test runner

class RenderCase(unittest.TestCase):
    """A render test: each test method runs the program and checks what it
    says and draws with check(); the test fails at its end when any check
    failed, listing them all. An AssertionError (a run that exits with the
    wrong status, too few reports) ends it at once."""

    def setUp(self):
        ctx.failures = []
        ctx.tmp = tempfile.mkdtemp(prefix="raypick-render-")
        self.addCleanup(shutil.rmtree, ctx.tmp, True)

    def tearDown(self):
        failures, ctx.failures = ctx.failures, []
        if failures:
            self.fail("%d check(s) failed:\n  %s" % (len(failures), "\n  ".join(failures)))


def main():
    """The command line of every render test:

        SCRIPT RAYPICK [unittest arguments: Class.test_name ...]

    Without a display it runs itself again under xvfb-run (a screen large
    enough for 1920x1080 windows)."""
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.stderr.write("usage: %s RAYPICK [Class.test_name ...]\n" % os.path.basename(sys.argv[0]))
        return 2
    if not os.environ.get("DISPLAY") and not os.environ.get("RAYPICK_NO_XVFB"):
        xvfb = shutil.which("xvfb-run")
        if not xvfb:
            sys.stderr.write("%s: no DISPLAY and no xvfb-run\n" % os.path.basename(sys.argv[0]))
            return 1
        env = dict(os.environ, RAYPICK_NO_XVFB="1")
        return subprocess.call([xvfb, "-a", "-s", "-screen 0 1920x1200x24", sys.executable,
                                os.path.abspath(sys.argv[0])] + sys.argv[1:], env=env)
    ctx.raypick = os.path.abspath(sys.argv[1])
    program = unittest.main(module="__main__", argv=[sys.argv[0]] + sys.argv[2:], exit=False, verbosity=2)
    result = program.result
    return 0 if result.wasSuccessful() and result.testsRun > 0 and not result.skipped else 1
