#!/usr/bin/env python3
"""teach_lessons25_test.py: how lessons 2 and 5 teach, on screen (issue 29),
in teach_test.py's manner: the code panel (the listing, the lit line, the
step's watches), the inset, framed steps, the step lines of --report and
the tour (--tour N, O).

    teach_lessons25_test.py RAYPICK [Class.test_name ...]    (all of them without a name)

Lesson 2's listing is src/lessons/listings/lesson2_phaser_tutorial.c (the
German tutorial's Sphere_Ray_Intersections), lesson 5's
lesson5_pick_sample.c (the DirectX SDK's Pick sample). Where things are
drawn comes from the program's --report (its "panel" line after
--screenshot); what the panel holds from listing2c.py --print. Runs under
xvfb-run when there is no display (rp_render.main, as every render test).
"""
import os
import subprocess
import sys

from rp_render import RenderCase, ctx, main, near, only, read_png, run

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LISTINGS = {2: "lesson2_phaser_tutorial.c", 5: "lesson5_pick_sample.c"}
W, H = 1280, 720


def listing_lines(lesson):
    """the lines the code panel shows, as listing2c.py prints them"""
    path = os.path.join(ROOT, "src", "lessons", "listings", LISTINGS[lesson])
    out = subprocess.run([sys.executable, os.path.join(ROOT, "src", "lessons", "listings", "listing2c.py"),
                          "--print", path], stdout=subprocess.PIPE, universal_newlines=True, check=True)
    return [line.split("  ", 1)[1] if "  " in line else "" for line in out.stdout.split("\n")[:-1]]


def shot(lesson, name, args):
    """lesson at W x H with --report and a screenshot: (JSON lines, image)"""
    path = os.path.join(ctx.tmp, "l%d-%s.png" % (lesson, name))
    lines, _ = run(["--lesson", lesson, "--size", "%dx%d" % (W, H), "--report", "--screenshot", path] + list(args))
    return lines, read_png(path)


def tour(n, back=0, extra=(), frames=None):
    """tour moment n staged at frame 0, then ',' back times (frames 2..)"""
    args = ["--tour", n, "--key", "h@0"]
    for i in range(back):
        args += ["--key", ",@%d" % (2 + i)]
    return args + list(extra) + ["--frames", frames or back + 4]


def picks(lines):
    return [line for line in lines if "hit" in line and "lesson" in line and "frame" in line]


PANEL_BG = (5, 8, 15)        # (0.02, 0.03, 0.06): code_panel_draw.c
INSET_BG = (8, 10, 20)       # (0.03, 0.04, 0.08): both lessons' figure
LIT_BAND = (89, 82, 26)      # (0.35, 0.32, 0.1)
PARABOLA = (115, 191, 255)   # lesson 2: (0.45, 0.75, 1): a l^2 + b l + c
GUN = (255, 217, 102)        # lesson 2: (1, 0.85, 0.4): l = 0, the gun A
EDGE = (255, 242, 89)        # lesson 5: (1, 0.95, 0.35): the triangle's edges
INSIDE = (77, 255, 102)      # lesson 5: (0.3, 1, 0.4): P in the triangle
OUTSIDE = (255, 77, 64)      # lesson 5: (1, 0.3, 0.25): P outside
RIGHT = (77, 255, 102)       # lesson 2: (0.3, 1, 0.4): the right root
RAY_HELP = (217, 115, 255)   # lesson 2: (0.85, 0.45, 1): RayHelp, the centre M to the gun A


class Panel(RenderCase):
    def check_panel(self, lesson, args, inset_colours):
        lines, img = shot(lesson, "panel", args)
        panel = only(lines, "panel")[-1]
        self.assertTrue(panel["shown"])
        code, fig = panel["code"], panel["figure"]
        self.assertGreater(code[0], W * 0.5)
        self.assertLess(code[1] + code[3], fig[1])
        area = code[2] * code[3]
        self.assertGreater(img.count(code, lambda p: near(p, PANEL_BG, 1)), 0.5 * area, "the panel's background")
        self.assertGreater(img.count(code, lambda p: p.sum(axis=-1) > 480), 0.01 * area, "the panel's text")
        self.assertGreater(img.count(fig, lambda p: near(p, INSET_BG, 1)), 0.2 * fig[2] * fig[3],
                           "the inset's background")
        for name, rgb, least in inset_colours:
            self.assertGreater(img.count(fig, lambda p: near(p, rgb, 30)), least, "the inset's %s" % name)
        lit = panel["lit"]
        self.assertGreater(img.count(lit, lambda p: near(p, LIT_BAND, 10)), 0.3 * lit[2] * lit[3], "the lit band")
        # the step's line is the listing's, and the band is where that line is shown
        step = only(lines, "step")[-1]
        self.assertEqual(step["code"], listing_lines(lesson)[step["line"] - 1])
        row = (lit[1] + 1 - panel["code_y"]) / panel["line_h"]
        self.assertAlmostEqual(row + panel["first_line"], step["line"], delta=0.1)
        # C hides both: the scene is drawn there instead
        lines, hidden = shot(lesson, "panel-hidden", args[:-2] + ["--key", "c@%d" % (args[-1] - 1), "--frames",
                                                                  args[-1]])
        self.assertFalse(only(lines, "panel")[-1]["shown"])
        self.assertLess(hidden.count(code, lambda p: near(p, PANEL_BG, 1)), 0.1 * area)
        return step, panel

    def test_lesson2_panel_and_inset(self):
        # tour 3: the turret inside its shield, walked to FirePhaser's answer;
        # the inset: the parabola, the gun's line at l = 0
        step, _ = self.check_panel(2, tour(3), [("parabola", PARABOLA, 150), ("gun line", GUN, 60)])
        self.assertEqual(step["tag"], "lesson.phaser-shields.step.result-behind")
        self.assertLess(float(step["watches"]["*pBeamLength"]), 0)

    def test_lesson5_panel_and_inset(self):
        # tour 1: the loop on a face, walked to the texture coordinates; the
        # inset: the triangle in its plane, P inside it
        step, _ = self.check_panel(5, tour(1), [("triangle", EDGE, 150), ("point P", INSIDE, 20)])
        self.assertEqual(step["tag"], "lesson.picking-triangles.step.texture")
        # a near miss a few steps back: P outside the triangle, in red
        lines, img = shot(5, "near-miss", tour(1, back=2))
        step = only(lines, "step")[-1]
        self.assertEqual(step["tag"], "lesson.picking-triangles.step.v-out")
        fig = only(lines, "panel")[-1]["figure"]
        self.assertGreater(img.count(fig, lambda p: near(p, OUTSIDE, 30)), 20, "P outside, red")

    def test_report_walks_the_listings(self):
        for lesson, n, first in ((2, 1, "shield"), (5, 1, "screen-ray")):
            listing = listing_lines(lesson)
            start = only(shot(lesson, "walk-end", tour(n))[0], "step")[-1]
            back = start["count"] - 1
            lines, _ = shot(lesson, "walk", tour(n, back=back))
            walked = only(lines, "step")
            self.assertEqual([s["index"] for s in walked], list(range(start["count"] - 1, -1, -1)))
            self.assertEqual(walked[-1]["tag"].split(".")[-1], first)
            for s in walked:
                self.assertEqual(s["code"], listing[s["line"] - 1])
                self.assertTrue(s["sentence"] and s["sentence"] != s["tag"], "a sentence for %s" % s["tag"])
                self.assertTrue(s["listing"].endswith(LISTINGS[lesson]))


class Framed(RenderCase):
    def test_lesson2_step_camera_shows_the_chosen_root(self):
        # tour 1's last step: the tutorial's l (the entry point, right: green)
        # in the room left of the panel and below the HUD; with Z (the
        # user's camera) the picture is another one
        lines, img = shot(2, "framed", tour(1))
        room = only(lines, "panel")[-1]["room_w"]
        top = only(lines, "screenshot")[-1]["hud"]["top"]
        below = (0, top[1] + top[3], room, H - top[1] - top[3])
        green = lambda p: near(p, RIGHT, 40)
        self.assertGreater(img.count(below, green), 50, "the entry point, below the HUD")
        _, free = shot(2, "free", tour(1, extra=["--key", "z@2"]))

        def centre(image):
            xs = [(x, y) for y in range(int(below[1]), H, 2) for x in range(0, int(room), 2)
                  if green(image.pixel(x, y))]
            return (sum(x for x, _ in xs) / max(len(xs), 1), sum(y for _, y in xs) / max(len(xs), 1))

        (fx, fy), (gx, gy) = centre(img), centre(free)
        self.assertGreater(abs(fx - gx) + abs(fy - gy), 50, "the framed view is not the user's")

    def test_lesson2_rayhelp_drawn_while_abc_are_formed(self):
        # tour 1, 18 steps back: a, RayHelp, b, c of the cruiser; RayHelp is
        # the violet line from its centre to the gun, there and at no other step
        lines, img = shot(2, "abc", tour(1, back=18))
        self.assertEqual(only(lines, "step")[-1]["tag"], "lesson.phaser-shields.step.abc")
        room = only(lines, "panel")[-1]["room_w"]
        top = only(lines, "screenshot")[-1]["hud"]["top"]
        below = (0, top[1] + top[3], room, H - top[1] - top[3])
        violet = lambda p: near(p, RAY_HELP, 30)
        self.assertGreater(img.count(below, violet), 100, "RayHelp, violet")
        lines, roots = shot(2, "roots", tour(1, back=16))
        self.assertEqual(only(lines, "step")[-1]["tag"], "lesson.phaser-shields.step.roots")
        self.assertLess(roots.count(below, violet), 10, "no RayHelp once the roots are found")

    def test_lesson5_step_camera_frames_the_triangle(self):
        lines, img = shot(5, "framed", tour(1))
        room = only(lines, "panel")[-1]["room_w"]
        _, free = shot(5, "free", tour(1, extra=["--key", "z@2"]))
        rect = (0, 300, room, H - 300)         # under the HUD
        yellow = lambda p: near(p, EDGE, 40) | near(p, (255, 217, 51), 40)   # the edges, the highlight
        framed_px, free_px = img.count(rect, yellow), free.count(rect, yellow)
        self.assertGreater(framed_px, 2000, "the triangle under test, close")
        self.assertGreater(framed_px, 20 * max(free_px, 1))


class Tour(RenderCase):
    def test_lesson2_moments(self):
        for n in range(1, 6):
            lines, img = shot(2, "tour-%d" % n, ["--tour", n, "--frames", 3])
            t = only(lines, "tour")
            self.assertEqual((t[0]["moment"], t[0]["count"]), (n, 5))
            self.assertTrue(t[0]["text"] and t[0]["text"] != t[0]["sentence"])
            pick = picks(lines)[-1]
            tag = only(lines, "step")[-1]["tag"].split(".")[-1]
            if n == 1:      # the entry point: the tutorial is right
                self.assertTrue(pick["hit"] and pick["t"] > 0 and abs(pick["t"] - pick["t_enter"]) < 1e-3)
                self.assertEqual(tag, "result")
            elif n == 2:    # the shield behind the gun: a hit at l < 0, the library: none
                self.assertTrue(pick["hit"] and pick["t"] < 0 and "exact_shield" not in pick)
                self.assertEqual(tag, "result-behind")
            elif n == 3:    # inside: l = s2 < 0, the exit point at t_exit
                self.assertTrue(pick["hit"] and pick["t"] < 0 < pick["t_exit"] and pick["inside"])
            elif n == 4:    # the turned carrier: the tutorial's l is not the entry point
                self.assertEqual((pick["tutorial_shield"], pick["exact_shield"]), (1, 1))
                self.assertGreater(abs(pick["tutorial_l"] - pick["t_enter"]), 0.5)
            else:           # the fix: the smallest root >= 0, the exit point
                self.assertEqual(pick["method"], "smallest-root")
                self.assertAlmostEqual(pick["t"], pick["t_exit"], places=5)
            self.assertEqual((img.w, img.h), (W, H))

    def test_lesson5_moments(self):
        behind = None
        for n in range(1, 5):
            lines, _ = shot(5, "tour-%d" % n, ["--tour", n, "--frames", 3])
            t = only(lines, "tour")
            self.assertEqual((t[0]["moment"], t[0]["count"]), (n, 4))
            pick = picks(lines)[-1]
            if n == 1:      # the loop on a face: its steps to tu, tv
                self.assertEqual(pick["method"], "triangle-loop")
                self.assertTrue(pick["hit"] and abs(pick["u"] - 1 / 3) < 0.01)
                self.assertEqual(only(lines, "step")[-1]["tag"].split(".")[-1], "texture")
            elif n == 2:    # a face behind the eye kept
                self.assertTrue(pick["hit"] and pick["t"] < 0 and pick["fDist"] < 0)
                behind = pick["id"]
            elif n == 3:    # the bounding sphere's false positive; the panel at D3DXIntersect's no
                self.assertEqual(pick["method"], "sphere")
                self.assertTrue(pick["hit"] and pick["false_positive"])
                step = only(lines, "step")[-1]
                self.assertEqual(step["tag"].split(".")[-1], "d3dx-miss")
                self.assertEqual(step["watches"]["bHit"], "false")
                self.assertTrue(only(lines, "panel")[-1]["shown"])
            else:           # the fix: in front, another face
                self.assertEqual(pick["method"], "mesh")
                self.assertTrue(pick["hit"] and pick["t"] > 0 and pick["id"] != behind)

    def test_o_walks_the_moments(self):
        for lesson in (2, 5):
            lines, _ = run(["--lesson", lesson, "--size", "640x360", "--report", "--key", "o@1", "--key", "o@2",
                            "--frames", 4])
            self.assertEqual([t["moment"] for t in only(lines, "tour")], [1, 2])

    def test_a_tour_moment_the_lesson_has_not_is_refused(self):
        for args in (["--lesson", 2, "--tour", 6], ["--lesson", 5, "--tour", 5]):
            _, err = run(args + ["--frames", 1], expect=2)
            self.assertIn("--tour", err)


if __name__ == "__main__":
    sys.exit(main())
