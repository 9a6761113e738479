#!/usr/bin/env python3
"""test_web.py: the lessons in headless Chromium, checked against the native program.

    python3 tests/web/test_web.py --build-web build-web --native build/src/app/raypick \
        [--out DIR] [WebTest.test_NAME ...]

For every lesson of the registry (the native program's --list-lessons, read
as every script reads it: tests/lesson_registry.py):
  * real clicks: the page runs in script mode (fixed time step, so the scene
    depends on the frame number only); the test sends real mouse events
    (Input.dispatchMouseEvent) at the projected centres of the lesson's
    objects and one empty spot, reads the report lines from <pre id="report">,
    then runs the native program with the same clicks at the frames the
    reports name. Same hit, same object id, t within 1e-4 relative.
  * the URL's own script (click=X,Y@F&frames=N): the page's last frame is
    compared with the native --screenshot of the same script: not blank
    (grey-level spread above 12), and alike: both shrunk to 32x18 block
    means, the mean absolute difference per channel below 3 of 255 (a
    different lesson is far above it: checked too, so the measure can fail).
    The same for lesson 1's many-objects mode (A): its clicks must hit the
    belt, and its frame must look like the native one and unlike plain
    lesson 1's.
Then: picks at devicePixelRatio 2 (drawable twice the CSS size) agree with
the native ones; GPU picking (key G) in the lessons with pick ids gives the ray's
object and triangle, as natively (WebGL 2 has no gl_PrimitiveID and reads
no depth buffer: the ID pass takes its other path there); bad query values are reported on the page with the native
program's message.
Files: the page is served from a folder of its own (build-web's three
files copied) with a grey-scale PNG terrain and a Wavefront .obj model
beside it. For each file option of the registry, heightmap=NAME (lesson 4)
and mesh=NAME (lesson 5) now, and the page's FILE_OPTIONS alike: real clicks
pick as the native program's with --heightmap NAME / --mesh NAME; the
page's file pickers, given the same files as a file dialog would
(DOM.setFileInputFiles), restart the URL's script in their lesson and pick
as natively; a missing or broken file is reported on the page with the
native message, a name with a directory in it with the page's own.

The tests are methods of WebTest (unittest), sharing one browser and one
server; each prints a line per check and fails at its end when any check
failed, listing them, or when a page it loaded threw an uncaught
exception. Writes OUT/summary.json ({"passed", "failed"}: test methods,
what scripts/web --test reports); needs python3-websocket and python3-pil."""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import cdp  # noqa: E402
import images  # noqa: E402
import lesson_registry  # noqa: E402  (tests/lesson_registry.py)

WIDTH, HEIGHT = 640, 360
T_RELATIVE = 1e-4
SIMILAR = 3.0        # mean abs block difference, 0..255 (seen: 0.1-0.4; another lesson: 14)
NOT_BLANK = 12.0     # grey-level standard deviation
SCRIPT_FRAMES = 12
REAL_CLICK_FRAMES = 100000   # script mode (fixed dt) that outlasts the clicks
ASYNC_FRAMES = 30    # frames after a GPU pick's last click, for its pixel-buffer read


# ------------------------------------------------------------ native program

def run_native(native, args, tmp):
    cmd = [native] + args
    if not os.environ.get("DISPLAY"):
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1920x1200x24"] + cmd
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=tmp)
    return p.returncode, p.stdout, p.stderr


def reports(text):
    return [json.loads(line) for line in text.splitlines() if line.startswith("{\"lesson\"")]


def project(layout, point):
    """Window pixel (x, y) of a world point, from --print-layout's matrices (column-major)."""
    view, proj = layout["view"], layout["proj"]

    def mul(m, v):
        return [sum(m[c * 4 + r] * v[c] for c in range(4)) for r in range(4)]
    clip = mul(proj, mul(view, point + [1.0]))
    if clip[3] <= 0:
        return None
    x = (clip[0] / clip[3] + 1) / 2 * layout["width"]
    y = (1 - clip[1] / clip[3]) / 2 * layout["height"]
    if 4 <= x < layout["width"] - 4 and 4 <= y < layout["height"] - 4:
        return int(x), int(y)
    return None


def click_points(native, lesson, tmp, files=()):
    """Up to three objects' centres on screen and one empty corner. With a
    model (--mesh), its first four faces' centres: the centre of its
    bounding sphere may fall on a corner several faces share."""
    extra = [a for option, name in files for a in ("--" + option, name)]
    rc, out, err = run_native(native, ["--lesson", str(lesson), "--size", "%dx%d" % (WIDTH, HEIGHT),
                                       "--print-layout"] + extra, tmp)
    if rc != 0:
        raise RuntimeError("native --print-layout failed: " + err)
    layout = json.loads(out.splitlines()[-1])
    points = []
    model = "--mesh" in extra
    for o in layout["objects"]:
        if model and o["id"] < 0:
            continue
        p = project(layout, o["center"]) if "center" in o else None
        if o["kind"] == "map":
            p = (WIDTH // 2, HEIGHT * 2 // 3)
        if p and p not in points:
            points.append(p)
    return points[:4 if model else 3] + [(8, HEIGHT - 8)]


def same_pick(web, native):
    """'' when the two report lines pick the same, else what differs."""
    if web["hit"] != native["hit"] or web["id"] != native["id"] or web["what"] != native["what"]:
        return "web %s id %d, native %s id %d" % (web["what"], web["id"], native["what"], native["id"])
    if web["hit"]:
        tw, tn = web["t"], native["t"]
        if abs(tw - tn) > T_RELATIVE * max(abs(tn), 1e-30):
            return "t %.9g vs native %.9g" % (tw, tn)
    return ""


# ------------------------------------------------------------ the page

def load(browser, server, query, scale=1.0, timeout=90):
    browser.navigate(server.url("index.html?" + query))
    # the program runs once SDL has sized the canvas to the drawable (a
    # canvas starts at 300x150 before)
    browser.wait_for("(() => { const c = document.getElementById('canvas');"
                     " return c && c.width === %d && c.height === %d; })()"
                     % (round(WIDTH * scale), round(HEIGHT * scale)), timeout=timeout)


def report_lines(browser):
    text = browser.evaluate("document.getElementById('report').textContent") or ""
    return reports(text)


def click_reports(lines):
    """the picks of clicks: a lesson that picks on mouse moves and drags
    (6) adds lines with an "event" (move, drag, release) besides them"""
    return [r for r in lines if "event" not in r]


def canvas_shot(browser):
    shot = images.read_png(browser.screenshot())
    return images.crop(shot, 0, 0, WIDTH, HEIGHT)


def real_clicks(suite, browser, server, native, lesson, tmp, scale=1.0, files=()):
    """files: (option, name) pairs, heightmap=NAME on the page, --heightmap
    NAME natively (the same file, beside the page and in tmp)."""
    tag = "lesson %d%s%s" % (lesson, " dpr %g" % scale if scale != 1 else "",
                             "".join(" %s=%s" % f for f in files))
    points = click_points(native, lesson, tmp, files)
    browser.set_viewport(WIDTH + 160, HEIGHT + 240, scale)
    load(browser, server, "lesson=%d&size=%dx%d&frames=%d&report%s" % (
        lesson, WIDTH, HEIGHT, REAL_CLICK_FRAMES, "".join("&%s=%s" % f for f in files)), scale)
    for i, (x, y) in enumerate(points):
        browser.click(x, y)
        browser.wait_for("document.getElementById('report').textContent.split('\\n')"
                         ".filter(l => l.startsWith('{\"lesson\"') && !l.includes('\"event\"')).length > %d" % i,
                         timeout=60)
    web = click_reports(report_lines(browser))
    if not suite.check("%s: %d real clicks, %d reports" % (tag, len(points), len(web)), len(web) == len(points)):
        return
    vp_ok = all(r["viewport"] == [WIDTH * scale, HEIGHT * scale] for r in web)
    suite.check("%s: the pick viewport is the drawable (%gx%g)" % (tag, WIDTH * scale, HEIGHT * scale), vp_ok,
                "" if vp_ok else str([r["viewport"] for r in web]))
    args = ["--lesson", str(lesson), "--size", "%dx%d" % (WIDTH, HEIGHT), "--report",
            "--frames", str(max(r["frame"] for r in web) + 1)]
    args += [a for option, name in files for a in ("--" + option, name)]
    for r in web:
        args += ["--click", "%d,%d@%d" % (r["x"], r["y"], r["frame"])]
    rc, out, err = run_native(native, args, tmp)
    nat = click_reports(reports(out))
    if not suite.check("%s: native replay of the same clicks" % tag, rc == 0 and len(nat) == len(web), err.strip()):
        return
    for w, n in zip(web, nat):
        why = same_pick(w, n)
        what = "hit %s t=%s" % (w["what"], w["t"]) if w["hit"] else "miss"
        suite.check("%s: click (%g,%g) at frame %d: %s, as natively" % (tag, w["x"], w["y"], w["frame"], what),
                    not why, why)
    suite.check("%s: at least one click hits something" % tag, any(n["hit"] for n in nat))


def belt_points():
    """Clicks across lesson 1's asteroid belt (many-objects mode), and the sky."""
    return [(WIDTH // 2, HEIGHT * 11 // 20), (WIDTH // 3, HEIGHT * 3 // 5), (WIDTH * 2 // 3, HEIGHT // 2),
            (WIDTH // 4, HEIGHT * 7 // 10), (WIDTH // 2, 3)]


def scripted(suite, browser, server, native, lesson, tmp, many=False):
    """The URL's script against the native one: reports and the last frame.
    many: lesson 1's many-objects mode (A at frame 0), clicked in the belt:
    100,000 impostors drawn with WebGL 2 against the same natively."""
    tag = "lesson %d%s" % (lesson, " many objects" if many else "")
    name = "%d%s" % (lesson, "-many" if many else "")
    points = (belt_points() if many else click_points(native, lesson, tmp))[:2]
    clicks = ["%d,%d@%d" % (x, y, 2 + 3 * i) for i, (x, y) in enumerate(points)]
    keys = ["a@0"] if many else []
    query = "lesson=%d&size=%dx%d&%s&frames=%d&report" % (
        lesson, WIDTH, HEIGHT, "&".join("key=" + k for k in keys) + ("&" if keys else "")
        + "&".join("click=" + c for c in clicks), SCRIPT_FRAMES)
    browser.set_viewport(WIDTH + 160, HEIGHT + 240, 1.0)
    load(browser, server, query)
    browser.wait_for("document.body.getAttribute('data-finished')", timeout=120)
    web = report_lines(browser)
    shot = canvas_shot(browser)
    png = os.path.abspath(os.path.join(tmp, "native-%s.png" % name))
    args = ["--lesson", str(lesson), "--size", "%dx%d" % (WIDTH, HEIGHT), "--frames", str(SCRIPT_FRAMES),
            "--report", "--screenshot", png] + [a for k in keys for a in ("--key", k)]
    for c in clicks:
        args += ["--click", c]
    rc, out, err = run_native(native, args, tmp)
    nat = reports(out)
    ok = rc == 0 and len(web) == len(nat) == len(clicks)
    suite.check("%s: URL script with %d clicks: web and native report them" % (tag, len(clicks)), ok,
                "" if ok else "web %d, native %d, exit %d %s" % (len(web), len(nat), rc, err.strip()))
    if ok:
        whys = [same_pick(w, n) for w, n in zip(web, nat)]
        suite.check("%s: URL script picks as natively" % tag, not any(whys), "; ".join(w for w in whys if w))
        if many:
            suite.check("%s: the clicks hit objects in the belt" % tag, all(w["hit"] for w in web),
                        "; ".join(str(w.get("what")) for w in web))
    with open(os.path.join(tmp, "web-%s.png" % name), "wb") as f:
        f.write(browser.screenshot())
    s = images.spread(shot)
    suite.check("%s: the web frame is not blank (spread %.1f > %g)" % (tag, s, NOT_BLANK), s > NOT_BLANK)
    if rc == 0:
        with open(png, "rb") as f:
            native_shot = images.read_png(f.read())
        d = images.mean_abs_difference(shot, native_shot)
        suite.check("%s: the web frame looks like the native one (difference %.2f < %g)"
                    % (tag, d, SIMILAR), d < SIMILAR)
        return shot, native_shot
    return shot, None


def gpu_picks(suite, browser, server, native, lesson, tmp, many=False):
    """G, then clicks: the web ID buffer picks what the native one picks (same
    id, same depth), in lesson 5 the ray's own triangle at the ray's point,
    and frames later the asynchronous read (a pixel buffer copied with
    getBufferSubData) says the same. many: lesson 1's many-objects mode (A),
    its instanced copies ray-cast in the ID pass, clicked across the belt
    and on the sky."""
    tag = "lesson %d%s GPU" % (lesson, " many objects" if many else "")
    points = belt_points() if many else click_points(native, lesson, tmp)
    clicks = ["%d,%d@%d" % (x, y, 2 + 3 * i) for i, (x, y) in enumerate(points)]
    # frames after the last click for its asynchronous read to come back:
    # WebGL signals a fence only between frames, when SwiftShader is done
    frames = 2 + 3 * len(points) + ASYNC_FRAMES
    keys = ["g@0"] + (["a@0"] if many else [])
    query = "lesson=%d&size=%dx%d&%s&%s&frames=%d&report" % (
        lesson, WIDTH, HEIGHT, "&".join("key=" + k for k in keys), "&".join("click=" + c for c in clicks), frames)
    browser.set_viewport(WIDTH + 160, HEIGHT + 240, 1.0)
    load(browser, server, query)
    browser.wait_for("document.body.getAttribute('data-finished')", timeout=120)
    text = browser.evaluate("document.getElementById('report').textContent") or ""
    web = reports(text)
    later = [json.loads(line) for line in text.splitlines() if line.startswith("{\"gpu_async\"")]
    args = ["--lesson", str(lesson), "--size", "%dx%d" % (WIDTH, HEIGHT),
            "--frames", str(frames), "--report"] + [a for k in keys for a in ("--key", k)]
    for c in clicks:
        args += ["--click", c]
    rc, out, err = run_native(native, args, tmp)
    nat = reports(out)
    ok = len(web) == len(nat) == len(clicks) and all("gpu" in r for r in web + nat)
    if not suite.check("%s: %d clicks, a GPU answer in every web and native report" % (tag, len(clicks)), ok,
                       "web %d, native %d, exit %d %s" % (len(web), len(nat), rc, err.strip())):
        return
    for w, n in zip(web, nat):
        g, ng = w["gpu"], n["gpu"]
        what = "id %d" % g["id"] if g["hit"] else "nothing"
        same = g["hit"] == ng["hit"] and (not g["hit"] or (g["id"] == ng["id"] and abs(g["depth"] - ng["depth"]) < 1e-5))
        suite.check("%s: click (%g,%g): the web ID buffer says %s, as the native one (depth within 1e-5)"
                    % (tag, w["x"], w["y"], what), same, "web %s, native %s" % (g, ng))
        if lesson == 5:
            # triangles: the ray and the ID buffer see the same surface (lesson
            # 1's ray tests bounding volumes, so there they may differ)
            suite.check("%s: click (%g,%g): the ray's triangle, %.2g from the ray's point (< 5e-3)"
                        % (tag, w["x"], w["y"], g["distance"]),
                        g["agree"] and (not g["hit"] or 0 <= g["distance"] < 5e-3), "ray %s, gpu %s" % (w["what"], g))
    suite.check("%s: at least one click hits through the ID buffer" % tag, any(w["gpu"]["hit"] for w in web))
    if many:
        suite.check("%s: the sky: nothing, through the ray and the ID buffer" % tag,
                    not web[-1]["hit"] and not web[-1]["gpu"]["hit"], "ray %s, gpu %s" % (web[-1]["what"], web[-1]["gpu"]))
    # One read in flight at a time (render_pick_read_async): a read still
    # pending when the next click comes is dropped, the newest pick wins. So
    # each read that comes back is a click's and says what its synchronous
    # read said, and the last click's always comes back; how many of the
    # others do depends on how busy the GPU (SwiftShader) was.
    click_frames = [2 + 3 * i for i in range(len(points))]
    same = (all(a["gpu_async"]["click_frame"] in click_frames and a["gpu_async"]["same_as_sync"] for a in later)
            and len(set(a["gpu_async"]["click_frame"] for a in later)) == len(later)
            and any(a["gpu_async"]["click_frame"] == click_frames[-1] for a in later))
    suite.check("%s: the asynchronous reads (frames later) say the same as the synchronous ones, the last "
                "click's among them" % tag, same, "%d async reads for %d clicks: %s" % (len(later), len(web), later))


# ------------------------------------------------------------ files beside the page

TERRAIN = "test-terrain.png"
MODEL = "test-model.obj"
BROKEN_MODEL = "test-broken.obj"
# The file the test gives each file option of the registry (--list-lessons "files")
TEST_FILES = {"heightmap": TERRAIN, "mesh": MODEL}

# A 3 x 2 panel of unit squares facing the camera (+z), the faces in every
# form the reader takes: corners v//vn, negative v/vt/vn (triangles 0 and
# 1, the ones the clicks find first), then quads v/vt and v (fans of two),
# one of them over a T-junction.
MODEL_OBJ = """# raypick web test: a panel
o panel
v 0 0 0
v 1 0 0
v 2 0 0
v 3 0 0
v 0 1 0
v 1 1 0
v 2 1 0
v 3 1 0
v 0 2 0
v 1 2 0
v 2 2 0
v 3 2 0
vt 0 0
vt 1 0
vt 1 1
vn 0 0 1
usemtl panel
f 3//1 4//1 8//1
f -10/1/1 -5/3/1 -6/2/1
f 1/1 2/2 6/3 5/1
f 2 3 7 6
f 5 6 10 9
f 6 8 12 10
"""

# Line 4 names a vertex the file does not have.
BROKEN_OBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n"


def terrain_png():
    """48 x 40 samples: a ridge and a round hill, nothing like the default terrain."""
    def level(x, y):
        ridge = 90 * math.exp(-((x - 2 * y / 3 - 10) / 5.0) ** 2)
        hill = 150 * math.exp(-((x - 34) ** 2 + (y - 24) ** 2) / 60.0)
        return min(255, int(20 + ridge + hill))
    return images.grey_png(48, 40, level)


def make_site(build_web, tmp):
    """The page's three files and the test's own beside them, in a folder
    of their own (build-web stays as built); the test's files also in tmp,
    the native program's working directory."""
    site = os.path.join(tmp, "site")
    shutil.rmtree(site, ignore_errors=True)
    os.makedirs(site)
    for name in ("index.html", "raypick.js", "raypick.wasm"):
        shutil.copy(os.path.join(build_web, name), site)
    for name, data in ((TERRAIN, terrain_png()), (MODEL, MODEL_OBJ.encode()), (BROKEN_MODEL, BROKEN_OBJ.encode())):
        for folder in (site, tmp):
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
    return site


def file_options(lessons):
    """(option, lesson, the test's file) for every option of the registry
    that names a file and the test has a file for (test_file_options checks
    that it has one for each)."""
    return [(option, lesson_registry.for_file(lessons, option), TEST_FILES[option])
            for option in sorted({f for lesson in lessons for f in lesson["files"]}) if option in TEST_FILES]


def file_pickers(suite, browser, server, native, tmp, files):
    """A page running lesson 1's script; a file given to a picker restarts
    the script in the picker's lesson with that file: the same picks as
    natively. files: file_options(); the page's pickers are those."""
    browser.navigate(server.url("index.html"))
    page = browser.wait_for("JSON.stringify(FILE_OPTIONS)", timeout=60)
    want = {option: lesson for option, lesson, _ in files}
    suite.check("the page's FILE_OPTIONS are the registry's file options", json.loads(page) == want,
                "page %s, registry %s" % (page, want))
    for option, lesson, name in files:
        tag = "the %s picker" % option
        points = click_points(native, lesson, tmp, [(option, name)])[:3]
        clicks = ["%d,%d@%d" % (x, y, 2 + 3 * i) for i, (x, y) in enumerate(points)]
        frames = 4 + 3 * len(points)
        query = "lesson=1&size=%dx%d&%s&frames=%d&report" % (
            WIDTH, HEIGHT, "&".join("click=" + c for c in clicks), frames)
        browser.set_viewport(WIDTH + 160, HEIGHT + 240, 1.0)
        load(browser, server, query)
        browser.wait_for("document.body.getAttribute('data-finished')", timeout=120)
        before = report_lines(browser)
        browser.choose_files("document.getElementById('%s')" % option, [os.path.join(tmp, name)])
        # the restart empties the report and clears data-finished at once
        browser.wait_for("document.body.getAttribute('data-finished') && document.getElementById('report')"
                         ".textContent.includes('{\"lesson\":%d,')" % lesson, timeout=120)
        web = report_lines(browser)
        args = ["--lesson", str(lesson), "--size", "%dx%d" % (WIDTH, HEIGHT), "--frames", str(frames),
                "--report", "--" + option, name]
        for c in clicks:
            args += ["--click", c]
        rc, out, err = run_native(native, args, tmp)
        nat = reports(out)
        ok = (all(r["lesson"] == 1 for r in before) and all(r["lesson"] == lesson for r in web) and
              rc == 0 and len(web) == len(nat) == len(clicks))
        if not suite.check("%s: restarts the URL's %d clicks in lesson %d with %s" % (tag, len(clicks), lesson, name),
                           ok, "before %s, web %s, native %d, exit %d %s" % (
                               [r["lesson"] for r in before], [r["lesson"] for r in web], len(nat), rc,
                               err.strip())):
            continue
        whys = [same_pick(w, n) for w, n in zip(web, nat)]
        suite.check("%s: picks as natively with --%s (%s)" % (tag, option, ", ".join(
                    w["what"] if w["hit"] else "miss" for w in web)), not any(whys), "; ".join(w for w in whys if w))
        suite.check("%s: at least one click hits something" % tag, any(n["hit"] for n in nat))


def bad_files(suite, browser, server, native, tmp, files):
    """A file that is not there or cannot be read: the native message on
    the page; a name that is not a file beside the page: the page's own.
    files: file_options()."""
    bad = {"mesh": ["missing.obj", BROKEN_MODEL], "heightmap": ["missing.png", MODEL]}
    cases = [("lesson=%d&%s=%s" % (lesson, option, name), ["--lesson", str(lesson), "--" + option, name])
             for option, lesson, _ in files for name in bad.get(option, ["missing.dat"])]
    for query, args in cases:
        browser.navigate(server.url("index.html?" + query))
        text = browser.wait_for("document.getElementById('error').textContent", timeout=60)
        rc, _, err = run_native(native, args + ["--frames", "1"], tmp)
        first = err.splitlines()[0] if err else ""
        suite.check("bad file '%s': the page says '%s' as natively" % (query, first),
                    rc == 1 and first and text.splitlines()[0] == first, "page: " + text.splitlines()[0])
    for query in ("mesh=../index.html", "heightmap=.hidden"):
        browser.navigate(server.url("index.html?" + query))
        text = browser.wait_for("document.getElementById('error').textContent", timeout=60)
        option, name = query.split("=")
        want = "raypick: %s= takes the name of a file beside the page, not '%s'" % (option, name)
        suite.check("bad file name '%s': the page says so" % query, text.splitlines()[0] == want,
                    "page: " + text.splitlines()[0])


def bad_queries(suite, browser, server, native, tmp, lessons):
    past = len(lessons) + 1     # one past the registry's last lesson
    # the page hands each part to the program's parser as "--name=value"
    # (src/app/options.c): the same message as the command line's two words
    for query, args in (("lesson=%d" % past, ["--lesson", str(past)]), ("click=12@3", ["--click", "12@3"]),
                        ("size=10x10", ["--size", "10x10"]), ("frobnicate=1", ["--frobnicate", "1"]),
                        ("frobnicate", ["--frobnicate"]), ("lesson", ["--lesson"]),
                        ("lesson=1&lesson=2", ["--lesson", "1", "--lesson", "2"]),
                        ("frames=3&bench-frames=3", ["--frames", "3", "--bench-frames", "3"]),
                        ("report=1", ["--report=1"]), ("load-limit=64", ["--load-limit", "64"])):
        browser.navigate(server.url("index.html?" + query))
        text = browser.wait_for("document.getElementById('error').textContent", timeout=60)
        rc, _, err = run_native(native, args, tmp)
        first = err.splitlines()[0] if err else ""
        suite.check("bad query '%s': the page says '%s' as natively" % (query, first),
                    rc == 2 and first and text.splitlines()[0] == first, "page: " + text.splitlines()[0])


# ------------------------------------------------------------ the tests

class WebTest(unittest.TestCase):
    """One browser and one server for all the tests (opt: main()'s options)."""
    opt = None

    @classmethod
    def setUpClass(cls):
        opt = cls.opt
        cls.tmp = opt.out or opt.build_web + "-test"
        os.makedirs(cls.tmp, exist_ok=True)
        cls.native = os.path.abspath(opt.native)
        cls.lessons = lesson_registry.list_lessons(cls.native, [])
        cls.files = file_options(cls.lessons)
        site = make_site(opt.build_web, cls.tmp)
        cls.server = cdp.StaticServer(os.path.abspath(site))
        cls.addClassCleanup(cls.server.close)
        cls.browser = cdp.Browser()
        cls.addClassCleanup(cls.browser.close)

    def setUp(self):
        self.failed_checks = []
        self.exceptions_before = len(self.browser.exceptions)

    def tearDown(self):
        errors = self.browser.exceptions[self.exceptions_before:]
        self.check("no uncaught exceptions in the pages this test loaded", not errors, "; ".join(errors))
        if self.failed_checks:
            self.fail("%d check(s) failed:\n  %s" % (len(self.failed_checks), "\n  ".join(self.failed_checks)))

    def check(self, name, ok, detail=""):
        """A soft assertion: printed, noted when it fails (tearDown fails the
        test naming every one), and the test goes on."""
        line = "%s%s" % (name, (": " + detail) if detail else "")
        if not ok:
            self.failed_checks.append(line)
        print("%s %s" % ("ok  " if ok else "FAIL", line), flush=True)
        return ok

    def args(self):
        return self.browser, self.server, self.native

    def test_file_options(self):
        """every file option of the registry has a file of the test's"""
        options = sorted({f for lesson in self.lessons for f in lesson["files"]})
        self.assertTrue(options, "the registry names no file option")
        for option in options:
            self.check("file option --%s: the test has a file for it" % option, option in TEST_FILES,
                       "" if option in TEST_FILES else "add one to TEST_FILES")

    def test_real_clicks(self):
        for lesson in lesson_registry.numbers(self.lessons):
            real_clicks(self, *self.args(), lesson, self.tmp)

    def test_real_clicks_dpr2(self):
        real_clicks(self, *self.args(), 1, self.tmp, scale=2.0)

    def test_real_clicks_with_files(self):
        for option, lesson, name in self.files:
            real_clicks(self, *self.args(), lesson, self.tmp, files=[(option, name)])

    def test_scripted(self):
        shots = {}
        for lesson in lesson_registry.numbers(self.lessons):
            shots[lesson] = scripted(self, *self.args(), lesson, self.tmp)
        shots["1-many"] = scripted(self, *self.args(), 1, self.tmp, many=True)
        # the likeness measure tells lessons apart: it can fail
        self.assertTrue(shots[1][1] is not None and shots[2][1] is not None,
                        "no native frames of lessons 1 and 2 to compare")
        d = images.mean_abs_difference(shots[1][0], shots[2][1])
        self.check("control: lesson 1 on the web vs lesson 2 natively differ (%.2f >= %g)" % (d, SIMILAR),
                   d >= SIMILAR)
        # and the belt is not lesson 1's few spheres with something on top
        self.assertIsNotNone(shots["1-many"][1], "no native frame of the many-objects mode")
        d = images.mean_abs_difference(shots["1-many"][0], shots[1][1])
        self.check("control: lesson 1's many-objects mode on the web vs lesson 1 natively differ "
                   "(%.2f >= %g)" % (d, SIMILAR), d >= SIMILAR)

    def test_gpu_picks(self):
        for lesson in lesson_registry.with_pick_ids(self.lessons):
            gpu_picks(self, *self.args(), lesson, self.tmp)
        gpu_picks(self, *self.args(), 1, self.tmp, many=True)

    def test_file_pickers(self):
        file_pickers(self, *self.args(), self.tmp, self.files)

    def test_bad_queries(self):
        bad_queries(self, *self.args(), self.tmp, self.lessons)

    def test_bad_files(self):
        bad_files(self, *self.args(), self.tmp, self.files)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-web", default="build-web")
    ap.add_argument("--native", default="build/src/app/raypick")
    ap.add_argument("--out", default=None, help="keep screenshots (and summary.json) here")
    opt, rest = ap.parse_known_args()
    WebTest.opt = opt
    start = time.monotonic()
    result = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=2).result
    failed = len(result.failures) + len(result.errors) + len(result.skipped) + len(result.unexpectedSuccesses)
    passed = result.testsRun - failed
    if result.testsRun == 0:
        failed += 1
    out = opt.out or opt.build_web + "-test"
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump({"passed": passed, "failed": failed}, f)
    print("web tests took %.0f s; %d passed, %d failed; screenshots in %s"
          % (time.monotonic() - start, passed, failed, out))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
