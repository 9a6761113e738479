#!/usr/bin/env python3
"""Render tests of lesson 6 (hover, drag, select) through script mode.

    lesson6_test.py RAYPICK [Lesson6Test.test_TEST ...]    TEST: drag hover select steps

The program runs under an X server (xvfb-run when there is no DISPLAY);
every expectation comes from the test's side, through the camera
--print-layout prints (rp_render.Camera):
- drag: --drag from a unit to a point, and one ending outside the window
  (the app holds the mouse): every drag report's grabbed point (the unit's
  centre plus the grab offset the press reported) projects within half a
  pixel of the cursor's pixel centre; the screenshot shows the unit where
  it was left, not where it was;
- hover: --move onto each unit and each path's middle reports that object;
  a hovered path glows yellow on screen where it did not before;
- select: a rectangle dragged on the ground (any corner order) selects
  exactly the units a brute-force projection finds (each unit's centre
  inside the rectangle: selected; its projected disc clear of it: not;
  rectangles that leave a unit in between are not used);
- steps: step mode (P) and a rectangle: the release reports the listing's
  selection equal to the library's and its step count; the code panel
  shows listings/lesson6_xna_marquee.c with the step's line lit (the
  --report step line's code is that line of listing2c.py --print), the
  inset shows the step's unit in cyan, the units selected so far in
  green and the tested plane's side in amber; the rectangle stays drawn
  in the scene; C hides the panel.
"""
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rp_render import Camera, RenderCase, add, check, ctx, layout, main, read_png, run  # noqa: E402

LESSON = 6
W, H = 1280, 720


ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PANEL_BG = (5, 8, 15)           # (0.02, 0.03, 0.06): code_panel_draw.c
INSET_BG = (13, 15, 23)         # (0.05, 0.06, 0.09): lesson6_select.c, fig_bg
LIT_BAND = (89, 82, 26)         # (0.35, 0.32, 0.1)
STEP_CYAN = (89, 230, 255)      # (0.35, 0.9, 1): the step's unit, the rectangle in step mode
SELECT_GREEN = (89, 255, 115)   # (0.35, 1, 0.45): selected
PLANE_AMBER = (255, 179, 51)    # (1, 0.7, 0.2): the tested plane's side
# the tour's step-mode rectangle (moments 5 and 6: 0.03, 0.47 to 0.52, 0.72 of the window)
STEP_RECT = (38, 338, 666, 518)


def listing_lines():
    """the lines the code panel shows, as listing2c.py prints them"""
    script = os.path.join(ROOT, "src", "lessons", "listings", "listing2c.py")
    path = os.path.join(ROOT, "src", "lessons", "listings", "lesson6_xna_marquee.c")
    out = subprocess.run([sys.executable, script, "--print", path], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True)
    return [line.split("  ", 1)[1] if "  " in line else "" for line in out.stdout.split("\n")[:-1]]


def count(img, rect, test):
    x, y, w, h = [int(v) for v in rect]
    return sum(1 for yy in range(y, y + h) for xx in range(x, x + w) if test(img.pixel(xx, yy)))


def near(p, rgb, tol=14):
    return all(abs(a - b) <= tol for a, b in zip(p, rgb))


def last(lines, key):
    found = [line[key] for line in lines if key in line]
    check(bool(found), "a %r line" % key)
    return found[-1] if found else {}


def reports(out, event=None):
    """the pick lines of a run, only those of one event ("move", "drag",
    "release"; None: the clicks)"""
    return [r for r in out if "lesson" in r and "hit" in r and r.get("event") == event]


def units_and_paths():
    lay = layout(LESSON, W, H)
    cam = Camera(lay)
    units = [o for o in lay["objects"] if o["kind"] == "sphere"]
    paths = [o for o in lay["objects"] if o["kind"] == "point"]
    check(len(units) == 8 and len(paths) == 3, "lesson 6 lists 8 units and 3 paths: %d, %d" % (len(units), len(paths)))
    return cam, units, paths


def grab_error(cam, offset, r):
    """pixels between the cursor's pixel centre and the grabbed point"""
    gx, gy = cam.project(add(r["center"], offset))
    return math.hypot(gx - (r["x"] + 0.5), gy - (r["y"] + 0.5))


def brute_force(cam, units, rect):
    """ids selected for certain, and ids that the rectangle leaves in doubt"""
    x0, x1 = sorted((rect[0] + 0.5, rect[2] + 0.5))
    y0, y1 = sorted((rect[1] + 0.5, rect[3] + 0.5))
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    inside, doubt = set(), set()
    for u in units:
        cx, cy = cam.project(u["center"])
        # the sphere's radius on screen at its centre's depth, with room
        # for the projection's stretch off the axis
        ex, ey = cam.project(add(u["center"], [0, u["radius"], 0]))
        r = 1.6 * math.hypot(ex - cx, ey - cy)
        dx = max(x0 - cx, 0, cx - x1)
        dy = max(y0 - cy, 0, cy - y1)
        if dx == 0 and dy == 0:
            inside.add(u["id"])
        elif math.hypot(dx, dy) <= r:
            doubt.add(u["id"])
    return inside, doubt


class Lesson6Test(RenderCase):
    def test_drag(self):
        cam, units, _ = units_and_paths()
        u = units[1]
        x0, y0 = u["click"]
        shot = os.path.join(ctx.tmp, "drag.png")
        # one drag within the window, then one from unit 3 past the left edge
        v = units[2]
        out, _ = run(["--lesson", LESSON, "--size", "%dx%d" % (W, H), "--report",
                      "--drag", "%d,%d:%d,%d@1-13" % (x0, y0, x0 + 120, y0 - 90),
                      "--drag", "%d,%d:%d,%d@15-21" % (v["click"][0], v["click"][1], -60, v["click"][1] + 10),
                      "--frames", 23, "--screenshot", shot])
        presses = reports(out)
        check(len(presses) == 2, "two presses reported: %d" % len(presses))
        if len(presses) != 2:
            return
        check(presses[0]["id"] == 1 and presses[1]["id"] == 2,
              "the presses grab units 2 and 3: ids %s" % [p["id"] for p in presses])
        drags = reports(out, "drag")
        check(len(drags) == 12 + 6, "a drag report per frame of each drag: %d" % len(drags))
        moved = 0
        worst = 0.0
        for r in drags:
            press = presses[0] if r["frame"] <= 13 else presses[1]
            if not r["moved"]:
                continue
            moved += 1
            check(r["grab_offset"] == press["grab_offset"], "frame %d: the grab offset stays the press's" % r["frame"])
            worst = max(worst, grab_error(cam, press["grab_offset"], r))
        check(moved >= 16, "the units moved on most frames: %d of %d" % (moved, len(drags)))
        check(worst < 0.5, "the grabbed point stays within half a pixel of the cursor: %.4f px" % worst)
        print("drag: %d moves, the grabbed point at most %.4f px from the cursor" % (moved, worst))
        outside = [r for r in drags if r["x"] < 0 and r["moved"]]
        check(len(outside) >= 2, "the drag goes on with the cursor outside the window: %d reports" % len(outside))
        releases = reports(out, "release")
        check(len(releases) == 2, "two releases: %d" % len(releases))
        # the screenshot: unit 2 is drawn where it was left, blue; where it was,
        # the ground shows (no blue sphere)
        img = read_png(shot)
        end = [r for r in drags if r["frame"] == 13][0]
        ex, ey = cam.project(end["center"])
        p_end = img.pixel(ex, ey)
        p_start = img.pixel(*cam.project(u["center"]))
        blue = lambda p: p[2] > 150 and p[2] > p[0] + 60
        check(blue(p_end), "unit 2 drawn where the drag left it: %s at (%.0f, %.0f)" % (p_end, ex, ey))
        check(not blue(p_start), "nothing blue where unit 2 was: %s" % (p_start,))

    def test_hover(self):
        cam, units, paths = units_and_paths()
        args = ["--lesson", LESSON, "--size", "%dx%d" % (W, H), "--report"]
        objs = units + paths
        for i, o in enumerate(objs):
            args += ["--move", "%d,%d@%d" % (o["click"][0], o["click"][1], i + 1)]
        out, _ = run(args + ["--frames", len(objs) + 2])
        moves = reports(out, "move")
        check(len(moves) == len(objs), "a report per move: %d" % len(moves))
        for o, r in zip(objs, moves):
            check(r["hit"] and r["id"] == o["id"], "hover over %s picks it: %s (%s)" % (o["name"], r["what"], r["id"]))
        # on screen: the hovered path glows yellow near its middle
        p = paths[0]
        mx, my = p["click"]
        plain = os.path.join(ctx.tmp, "plain.png")
        lit = os.path.join(ctx.tmp, "lit.png")
        base = ["--lesson", LESSON, "--size", "%dx%d" % (W, H), "--frames", 3]
        run(base + ["--screenshot", plain])
        run(base + ["--screenshot", lit, "--move", "%d,%d@1" % (mx, my)])

        def yellow(img):
            n = 0
            for y in range(my - 6, my + 7):
                for x in range(mx - 6, mx + 7):
                    r, g, b = img.pixel(x, y)
                    n += r > 200 and g > 170 and b < 140
            return n
        a, b = yellow(read_png(plain)), yellow(read_png(lit))
        check(a == 0 and b >= 8, "the hovered path glows yellow: %d yellow pixels before, %d after" % (a, b))

    def test_select(self):
        cam, units, _ = units_and_paths()
        # rectangles: the press on bare ground, corners in every order, one past
        # the window's edges
        rects = [(700, 420, 1000, 640), (1000, 640, 700, 420), (60, 700, 700, 120), (1270, 10, 520, 300),
                 (300, 710, 1400, -50), (640, 360, 660, 380)]
        args = ["--lesson", LESSON, "--size", "%dx%d" % (W, H), "--report"]
        frame = 1
        for r in rects:
            args += ["--drag", "%d,%d:%d,%d@%d-%d" % (r[0], r[1], r[2], r[3], frame, frame + 3)]
            frame += 5
        out, _ = run(args + ["--frames", frame + 1])
        presses = reports(out)
        releases = reports(out, "release")
        check(len(releases) == len(rects), "a release per rectangle: %d" % len(releases))
        used = 0
        for rect, press, rel in zip(rects, presses, releases):
            if not check(not press["hit"], "rectangle %s starts on the ground, not on %s" % (rect, press["what"])):
                continue
            inside, doubt = brute_force(cam, units, rect)
            if doubt:
                print("rectangle %s leaves units %s in doubt: not compared" % (rect, sorted(doubt)))
                continue
            used += 1
            print("rectangle %s: selected %s" % (rect, rel["selected"]))
            check(set(rel["selected"]) == inside,
                  "rectangle %s selects %s, the loop %s" % (rect, rel["selected"], sorted(inside)))
            check(rel["selected"] == sorted(rel["selected"]), "in index order: %s" % rel["selected"])
        check(used >= 4, "at least four rectangles compared: %d" % used)
        check(any(len(rel["selected"]) >= 2 for rel in releases), "some rectangle selects several units")
        check(any(len(rel["selected"]) == 0 for rel in releases), "some rectangle selects none")

    def shot(self, name, args):
        path = os.path.join(ctx.tmp, "l6-%s.png" % name)
        out, _ = run(["--lesson", LESSON, "--size", "%dx%d" % (W, H), "--report", "--screenshot", path] + args)
        return out, read_png(path)

    def test_steps(self):
        listing = listing_lines()
        # P, then the rectangle: the release's report, the first step shown
        r = STEP_RECT
        out, img = self.shot("steps", ["--key", "h@0", "--key", "p@0",
                                       "--drag", "%d,%d:%d,%d@1-5" % r, "--frames", 8])
        rel = reports(out, "release")
        check(len(rel) == 1, "one release: %d" % len(rel))
        if rel:
            rel = rel[0]
            check(rel.get("listing_agrees") is True, "the listing selects what the library selects: %s" % rel)
            check(rel.get("listing_selected") == rel.get("selected"), "the same units: %s" % rel)
            check(len(rel.get("selected", [])) >= 2, "the rectangle selects units: %s" % rel)
        step = last(out, "step")
        check(step.get("index") == 0 and step.get("tag", "").endswith(".step.rectangle"),
              "the first step shown after the release: %s" % step)
        check(step.get("count", 0) == (rel.get("steps") if rel else -1), "the steps the release counted: %s" % step)
        panel = last(out, "panel")
        check(panel.get("shown") is True, "step mode shows the code panel")
        if panel.get("shown"):
            code, fig, lit = panel["code"], panel["figure"], panel["lit"]
            area = code[2] * code[3]
            check(code[0] > W * 0.5 and code[1] + code[3] < fig[1], "code above the inset, on the right: %s" % panel)
            check(count(img, code, lambda p: near(p, PANEL_BG, 1)) > 0.5 * area, "the panel's background")
            check(count(img, code, lambda p: sum(p) > 480) > 0.01 * area, "the panel's text")
            check(count(img, fig, lambda p: near(p, INSET_BG, 1)) > 0.2 * fig[2] * fig[3], "the inset's background")
            check(count(img, lit, lambda p: near(p, LIT_BAND, 10)) > 0.3 * lit[2] * lit[3], "the lit band")
            check(step.get("code") == listing[step["line"] - 1], "the step's line is the listing's: %s" % step)
            row = (lit[1] + 1 - panel["code_y"]) / panel["line_h"]
            check(abs(row + panel["first_line"] - step["line"]) < 0.1, "the band is on the step's line")
            # the rectangle stays drawn in the scene, in cyan: its left side
            side = (r[0] - 2, r[1] + 10, 5, r[3] - r[1] - 20)
            check(count(img, side, lambda p: near(p, STEP_CYAN, 30)) > 0.5 * side[3], "the rectangle's left side")
        # tour 6: the corner's unit in cyan in the inset, the two selected before it in green
        out, img = self.shot("corner", ["--tour", 6, "--key", "h@0", "--frames", 4])
        step = last(out, "step")
        check(step.get("tag", "").endswith(".step.exact-misses"), "tour 6 stops at the exact test: %s" % step)
        check(step.get("code") == listing[step.get("line", 1) - 1], "its line is the listing's")
        fig = last(out, "panel").get("figure", [0, 0, 1, 1])
        check(count(img, fig, lambda p: near(p, STEP_CYAN, 30)) > 60, "the step's unit and the rectangle, cyan")
        check(count(img, fig, lambda p: near(p, SELECT_GREEN, 30)) > 30, "the units selected so far, green")
        # tour 5 walked back to unit 0's Top plane: its side of the rectangle in amber
        out, img = self.shot("plane", ["--tour", 5, "--key", "h@0"] + ["--key", ",@2"] * 8 + ["--frames", 6])
        step = last(out, "step")
        check(step.get("tag", "").endswith(".step.plane-outside") and step.get("watches", {}).get("p") == "4",
              "unit 0's Top plane: %s" % step)
        fig = last(out, "panel").get("figure", [0, 0, 1, 1])
        check(count(img, fig, lambda p: near(p, PLANE_AMBER, 30)) > 60, "the Top side, amber")
        # C hides the panel: the scene is drawn there
        out, img = self.shot("hidden", ["--tour", 5, "--key", "h@0", "--key", "c@2", "--frames", 4])
        check(last(out, "panel").get("shown") is False, "C hides the panel")


if __name__ == "__main__":
    sys.exit(main())
