#!/usr/bin/env python3
"""teach_spheres_test.py: how lessons 1 and 3 teach, on screen (issue 29):
the code panel with their listings (the lit line, the step's watches), the
insets (CalculateRay's viewport -> NDC -> z = 1 and the quadratic's roots;
the two circles with ra + rb and sqrt(ra^2 + rb^2)), the framed steps, the
step lines of --report, the tours (--tour N), and the beginner's first
screen (the details behind X). teach_test.py is the same for lesson 4.

    teach_spheres_test.py RAYPICK [Class.test_name ...]    (all of them without a name)

Where things are drawn comes from the program's own --report (its "panel"
line after --screenshot), what the panel holds from the listings' source
printed by the build's own script (listing2c.py --print). Runs under
xvfb-run when there is no display, as render_test.py does.
"""
import os
import subprocess
import sys

from rp_render import Camera, RenderCase, ctx, layout, main, near, only, read_png, run

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LISTINGS = os.path.join(ROOT, "src", "lessons", "listings")
W, H = 1280, 720

PANEL_BG = (5, 8, 15)        # (0.02, 0.03, 0.06): code_panel_draw.c
INSET_BG = (8, 10, 20)       # (0.03, 0.04, 0.08): the lessons' figures
LIT_BAND = (89, 82, 26)      # (0.35, 0.32, 0.1)
BOX = (77, 217, 255)         # lesson 1's CalculateRay boxes (0.3, 0.85, 1)
ROOT_GREEN = (102, 255, 128)  # lesson 1's roots (0.4, 1, 0.5)
RA_BLUE = (115, 204, 255)    # lesson 3's circle a (0.45, 0.8, 1)
BLIND = (255, 51, 230)       # lesson 3's blind band (1, 0.2, 0.9) over the inset


def listing_lines(name):
    """the lines the code panel shows, as listing2c.py prints them"""
    out = subprocess.run([sys.executable, os.path.join(LISTINGS, "listing2c.py"), "--print",
                          os.path.join(LISTINGS, name)], stdout=subprocess.PIPE, universal_newlines=True, check=True)
    return [line.split("  ", 1)[1] if "  " in line else "" for line in out.stdout.split("\n")[:-1]]


def shot(lesson, name, args):
    """runs a lesson at W x H with --report and a screenshot: (JSON lines, image)"""
    path = os.path.join(ctx.tmp, "l%d-%s.png" % (lesson, name))
    lines, _ = run(["--lesson", lesson, "--size", "%dx%d" % (W, H), "--report", "--screenshot", path] + list(args))
    return lines, read_png(path)


def picks(lines):
    return [line for line in lines if "hit" in line and "lesson" in line]


def click_of(lesson, object_id):
    """the pixel over an object's centre at W x H, from the start camera"""
    lay = layout(lesson, W, H)
    obj = [o for o in lay["objects"] if o["id"] == object_id][0]
    x, y = Camera(lay).click_for(obj["center"])
    return int(x), int(y)


def stepped(click, dots, extra=(), frames=5):
    """help hidden, step mode, the click, `dots` presses of '.' (all before frame 3)"""
    args = ["--key", "h@0", "--key", "p@1", "--click", "%d,%d@2" % click] + list(extra)
    for _ in range(dots):
        args += ["--key", ".@3"]
    return args + ["--frames", frames]


def walk(lesson, click, extra=()):
    """every step of the click, one a frame: the report's step lines"""
    args = ["--key", "h@0", "--key", "p@1", "--click", "%d,%d@2" % click] + list(extra)
    for f in range(3, 43):
        args += ["--key", ".@%d" % f]
    lines, _ = run(["--lesson", lesson, "--size", "%dx%d" % (W, H), "--report"] + args + ["--frames", 44])
    return only(lines, "step")


class Lesson1(RenderCase):
    LISTING = "lesson1_cgame_pick.c"

    def setUp(self):
        super().setUp()
        self.cone = click_of(1, 2)

    def test_panel_inset_and_lit_line_follow_the_steps(self):
        listing = listing_lines(self.LISTING)
        seen = {}
        for dots in (0, 3, 9):
            lines, img = shot(1, "panel-%d" % dots, stepped(self.cone, dots))
            panel, step = only(lines, "panel")[-1], only(lines, "step")[-1]
            self.assertTrue(panel["shown"])
            code, fig, lit = panel["code"], panel["figure"], panel["lit"]
            self.assertEqual(step["index"], dots)
            self.assertEqual(step["code"], listing[step["line"] - 1], "the step's line is the listing's")
            self.assertGreater(img.count(code, lambda p: near(p, PANEL_BG, 1)), 0.5 * code[2] * code[3])
            self.assertGreater(img.count(lit, lambda p: near(p, LIT_BAND, 10)), 0.3 * lit[2] * lit[3])
            self.assertGreater(img.count(fig, lambda p: near(p, INSET_BG, 1)), 0.2 * fig[2] * fig[3])
            seen[step["line"]] = lit[1]
            if dots == 0:   # CalculateRay: the viewport, NDC and z = 1 boxes
                self.assertEqual(step["tag"].split(".")[-1], "px")
                self.assertIn("px", step["watches"])
                self.assertIn("proj._11", step["watches"])
                self.assertGreater(img.count(fig, lambda p: near(p, BOX, 30)), 300, "the CalculateRay boxes")
        self.assertEqual(len(seen), 3, "three steps, three lit lines: %s" % seen)

    def test_report_walks_the_tutorials_code(self):
        listing = listing_lines(self.LISTING)
        walked = walk(1, self.cone)
        self.assertEqual([s["index"] for s in walked], list(range(len(walked))))
        tags = [s["tag"].split(".")[-1] for s in walked]
        self.assertEqual(tags[:5], ["px", "py", "view-ray", "transform", "sphere"])
        self.assertEqual(tags.count("sphere"), 6)
        self.assertIn("hit", tags)
        for s in walked:
            self.assertEqual(s["code"], listing[s["line"] - 1])
            self.assertTrue(s["sentence"] and s["sentence"] != s["tag"])
            self.assertTrue(s["listing"].endswith("src/lessons/listings/" + self.LISTING))

    def test_the_cones_roots_are_seen_from_the_side(self):
        walked = walk(1, self.cone)
        tags = [s["tag"].split(".")[-1] for s in walked]
        i = [k for k, s in enumerate(walked) if tags[k] == "sphere" and s["watches"]["i"] == "2"][0]
        roots = i + tags[i:].index("roots")
        lines, img = shot(1, "roots", stepped(self.cone, roots))
        panel = only(lines, "panel")[-1]
        room = (0, 0, panel["room_w"], H)
        green = img.where((0, 0, int(panel["room_w"]), H), lambda p: near(p, ROOT_GREEN, 40))
        self.assertGreater(len(green), 60, "the root points in the scene")
        xs = [x for x, _ in green]
        # two points apart: the ray seen from the side (end-on they were one dot)
        self.assertGreater(max(xs) - min(xs), 40, "the roots %s..%s" % (min(xs), max(xs)))
        self.assertLess(img.count(room, lambda p: near(p, PANEL_BG, 1)), 0.05 * panel["room_w"] * H)

    def test_the_report_names_calculate_rays_px(self):
        lines, _ = run(["--lesson", 1, "--size", "%dx%d" % (W, H), "--report", "--click", "%d,%d@1" % self.cone,
                        "--frames", 2])
        p = picks(lines)[-1]
        self.assertNotIn("tutorial_px", p)
        # px: the pixel; CalculateRay_px: the tutorial's view-space x
        self.assertAlmostEqual(p["px"], self.cone[0] + 0.5, places=3)
        self.assertLess(abs(p["CalculateRay_px"]), 1.0)
        self.assertEqual(p["m_bRotate"], [2])

    def test_the_first_screen_keeps_the_details_behind_x(self):
        plain, _ = shot(1, "first", ["--frames", 2])
        details, _ = shot(1, "details", ["--key", "x@0", "--frames", 2])
        plain_top = only(plain, "screenshot")[-1]["hud"]["top"]
        details_top = only(details, "screenshot")[-1]["hud"]["top"]
        self.assertLess(plain_top[3], 0.25 * H)
        self.assertGreater(details_top[3], plain_top[3] + 30, "X shows the counters")

    def test_each_tour_moment(self):
        for n in range(1, 5):
            lines, img = shot(1, "tour-%d" % n, ["--tour", n, "--frames", 3])
            tour = only(lines, "tour")
            self.assertEqual((tour[0]["moment"], tour[0]["count"]), (n, 4))
            self.assertTrue(tour[0]["text"] and tour[0]["text"] != tour[0]["sentence"])
            pick = picks(lines)[-1]
            panel = only(lines, "panel")[-1]
            if n == 1:      # the cone to its CheckIntersection's true
                self.assertEqual(pick["id"], 2)
                self.assertEqual(only(lines, "step")[-1]["tag"].split(".")[-1], "hit")
                self.assertTrue(panel["shown"])
            elif n == 2:    # the loop turns both spheres on the ray
                self.assertEqual(pick["toggled"], [1, 5])
            elif n == 3:    # OpenGL's matrices: the tutorial's ray runs backwards
                self.assertFalse(pick["left_handed"])
                self.assertEqual(pick["m_bRotate"], [])
                d, t = pick["pick_dir"], pick["TransformRay_dir"]
                self.assertLess(sum(a * b for a, b in zip(d, t)), 0.0)
                self.assertEqual(only(lines, "step")[-1]["tag"].split(".")[-1], "transform")
            else:           # the fix: the nearest only
                self.assertEqual(pick["toggled"], [1])
                self.assertFalse(panel["shown"])
            self.assertEqual((img.w, img.h), (W, H))


class Lesson3(RenderCase):
    LISTING = "lesson3_sphere_tests.c"

    def setUp(self):
        super().setUp()
        self.freighter = click_of(3, 0)

    def test_panel_and_the_two_circles(self):
        listing = listing_lines(self.LISTING)
        # D: the pair in the shortcut's blind band; the German verdict
        lines, img = shot(3, "circles", stepped(self.freighter, 3, ["--key", "d@2"]))
        panel, step = only(lines, "panel")[-1], only(lines, "step")[-1]
        self.assertTrue(panel["shown"])
        self.assertEqual(step["tag"].split(".")[-1], "ssc-apart")
        self.assertEqual(step["code"], listing[step["line"] - 1])
        self.assertIn("if (D3DXVec3LengthSq(&DistanceVector) < SphereSquareRadius1 +", step["code"])
        fig, lit = panel["figure"], panel["lit"]
        self.assertGreater(img.count(lit, lambda p: near(p, LIT_BAND, 10)), 0.3 * lit[2] * lit[3])
        self.assertGreater(img.count(fig, lambda p: near(p, INSET_BG, 1)), 0.2 * fig[2] * fig[3])
        self.assertGreater(img.count(fig, lambda p: near(p, RA_BLUE, 40)), 100, "circle a")
        self.assertGreater(img.count(fig, lambda p: (p[..., 0] > 150) & (p[..., 2] > 130) & (p[..., 1] < 110)), 150,
                           "the blind band (magenta)")

    def test_report_walks_the_articles_code(self):
        listing = listing_lines(self.LISTING)
        walked = walk(3, self.freighter)
        tags = [s["tag"].split(".")[-1] for s in walked]
        self.assertEqual(len(walked), 9)
        self.assertEqual(tags[0], "overlap-distance")
        self.assertEqual(tags[2], "ssc-distance")
        self.assertEqual(tags[6], "hit-distance")
        for s in walked:
            self.assertEqual(s["code"], listing[s["line"] - 1])

    def test_the_picture_follows_the_step(self):
        """the pair's steps and the projectile's are framed apart (the old
        step mode showed one picture for every step)"""
        _, pair = shot(3, "step-pair", stepped(self.freighter, 1))
        lines, projectile = shot(3, "step-shot", stepped(self.freighter, 7))
        room_w = int(only(lines, "panel")[-1]["room_w"])
        differ = sum(1 for y in range(0, H, 4) for x in range(0, room_w, 4)
                     if sum(abs(a - b) for a, b in zip(pair.pixel(x, y), projectile.pixel(x, y))) > 60)
        self.assertGreater(differ, 0.1 * (H // 4) * (room_w // 4))

    def test_each_test_lays_its_bound_on_the_ground(self):
        """the pair's steps differ by test: overlapSpheres lays ra (blue)
        and rb (orange) beside d on the ground, the German shortcut its
        shorter sqrt(ra^2 + rb^2) (magenta); both framed alike (D: the pair
        in the shortcut's blind band)"""
        lines, exact = shot(3, "ground-exact", stepped(self.freighter, 1, ["--key", "d@2"]))
        _, shortcut = shot(3, "ground-shortcut", stepped(self.freighter, 3, ["--key", "d@2"]))
        room = (0, 0, int(only(lines, "panel")[-1]["room_w"]), H)
        orange = lambda p: (p[..., 0] > 200) & (p[..., 1] > 110) & (p[..., 1] < 190) & (p[..., 2] < 110)
        magenta = lambda p: (p[..., 0] > 180) & (p[..., 1] < 110) & (p[..., 2] > 160)
        self.assertGreater(exact.count(room, orange), 40, "rb on the ground")
        self.assertLess(shortcut.count(room, orange), 10)
        self.assertGreater(shortcut.count(room, magenta), exact.count(room, magenta) + 40,
                           "sqrt(ra^2 + rb^2) on the ground")

    def test_each_tour_moment(self):
        want = {1: "overlap-yes", 2: "ssc-apart", 3: "ssc-collision", 4: "ssc-collision", 5: "overlap-yes"}
        for n in range(1, 6):
            lines, _ = shot(3, "tour-%d" % n, ["--tour", n, "--frames", 3])
            tour = only(lines, "tour")
            self.assertEqual((tour[0]["moment"], tour[0]["count"]), (n, 5))
            step = only(lines, "step")[-1]
            self.assertEqual(step["tag"].split(".")[-1], want[n])
            w = step["watches"]
            if n == 5:      # touching: distance equals radiusSum squared, <= says contact
                self.assertEqual(w["distance"], w["radiusSum * radiusSum"])
            if n in (2, 3):  # the blind band: d^2 between r1^2 + r2^2 and (r1 + r2)^2
                d2 = float(w["D3DXVec3LengthSq(&DistanceVector)"])
                self.assertGreater(d2, 2.92)
                self.assertLess(d2, 4.84)
            self.assertTrue(only(lines, "panel")[-1]["shown"])


if __name__ == "__main__":
    sys.exit(main())
