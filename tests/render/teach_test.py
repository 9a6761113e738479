#!/usr/bin/env python3
"""teach_test.py: how a lesson teaches, on screen (issue 29): the code panel
(the listing, the lit line, the step's watches), the inset, the step lines
of --report, and the tour (O, --tour N). Lesson 4 is the one that has them.

    teach_test.py RAYPICK [Class.test_name ...]    (all of them without a name)

Where things are drawn comes from the program's own --report (its "panel"
line after --screenshot: the panel's and the inset's rectangles, the lit
line's band); what they hold from the listing's source, printed by the
build's own script (src/lessons/listings/listing2c.py --print). Runs under
xvfb-run when there is no display (rp_render.main, as every render test).
"""
import os
import subprocess
import sys

from rp_render import RenderCase, ctx, layout, main, near, only, read_png, run

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LISTING = os.path.join(ROOT, "src", "lessons", "listings", "lesson4_xna_recipe.c")
W, H = 1280, 720
CLICK = (560, 440)          # landmark 1's slope at 1280x720 (scripts/screenshots' fig19 click)


def listing_lines():
    """the lines the code panel shows, as listing2c.py prints them"""
    out = subprocess.run([sys.executable, os.path.join(ROOT, "src", "lessons", "listings", "listing2c.py"),
                          "--print", LISTING], stdout=subprocess.PIPE, universal_newlines=True, check=True)
    return [line.split("  ", 1)[1] if "  " in line else "" for line in out.stdout.split("\n")[:-1]]


def lesson4(name, args):
    """Runs lesson 4 at W x H with --report and a screenshot: (JSON lines, image)."""
    path = os.path.join(ctx.tmp, name + ".png")
    lines, _ = run(["--lesson", 4, "--size", "%dx%d" % (W, H), "--report", "--screenshot", path] + list(args))
    return lines, read_png(path)


def steps(dots, extra=(), frames=5):
    """step mode, the click, `dots` presses of '.' (all before frame 3)"""
    args = ["--key", "h@0", "--key", "p@1", "--click", "%d,%d@2" % CLICK] + list(extra)
    for _ in range(dots):
        args += ["--key", ".@3"]
    return args + ["--frames", frames]


PANEL_BG = (5, 8, 15)        # (0.02, 0.03, 0.06): code_panel_draw.c
INSET_BG = (8, 10, 20)       # (0.03, 0.04, 0.08): lesson 4's figure
LIT_BAND = (89, 82, 26)      # (0.35, 0.32, 0.1)
PROFILE = (255, 217, 64)     # (1, 0.85, 0.25): the ground under the ray


class CodePanel(RenderCase):
    def test_panel_and_inset_are_drawn_where_the_layout_says(self):
        lines, img = lesson4("panel", steps(20))
        panel = only(lines, "panel")[-1]
        self.assertTrue(panel["shown"])
        code, fig = panel["code"], panel["figure"]
        self.assertGreater(code[0], W * 0.5)
        self.assertLessEqual(code[0] + code[2], W)
        self.assertLess(code[1] + code[3], fig[1])                  # the inset under the panel
        area = code[2] * code[3]
        bg = img.count(code, lambda p: near(p, PANEL_BG, 1))
        text = img.count(code, lambda p: p.sum(axis=-1) > 480)
        self.assertGreater(bg, 0.5 * area, "the panel's background")
        self.assertGreater(text, 0.01 * area, "the panel's text")
        inset_bg = img.count(fig, lambda p: near(p, INSET_BG, 1))
        profile = img.count(fig, lambda p: near(p, PROFILE, 30))
        self.assertGreater(inset_bg, 0.2 * fig[2] * fig[3], "the inset's background")
        self.assertGreater(profile, 100, "the inset's ground profile")
        lit = panel["lit"]
        self.assertGreater(lit[3], 0)
        self.assertGreater(img.count(lit, lambda p: near(p, LIT_BAND, 10)), 0.3 * lit[2] * lit[3], "the lit band")
        # C hides both: the scene is drawn there instead (the panels' exact
        # colours gone), and the step's sentence goes to the HUD
        lines, hidden = lesson4("panel-hidden", steps(20, ["--key", "c@3"]))
        self.assertFalse(only(lines, "panel")[-1]["shown"])
        self.assertLess(hidden.count(code, lambda p: near(p, PANEL_BG, 1)), 0.1 * area)
        self.assertLess(hidden.count(fig, lambda p: near(p, INSET_BG, 1)), 0.05 * fig[2] * fig[3])

    def test_the_lit_line_moves_with_the_step(self):
        listing = listing_lines()
        seen = {}
        for dots in (2, 6, 12, 28):
            lines, img = lesson4("lit-%d" % dots, steps(dots))
            step = only(lines, "step")[-1]
            panel = only(lines, "panel")[-1]
            self.assertEqual(step["index"], min(dots, step["count"] - 1))
            self.assertEqual(step["code"], listing[step["line"] - 1], "the step's line is the listing's")
            lit = panel["lit"]
            # the band lies where the lit line is shown
            row = (lit[1] + 1 - panel["code_y"]) / panel["line_h"]
            self.assertAlmostEqual(row + panel["first_line"], step["line"], delta=0.1)
            self.assertGreater(img.count(lit, lambda p: near(p, LIT_BAND, 10)), 0.3 * lit[2] * lit[3])
            seen[step["line"]] = lit[1]
        self.assertGreaterEqual(len(seen), 3, "the steps lit %s" % seen)

    def test_report_walks_the_steps_with_the_listing(self):
        listing = listing_lines()
        args = ["--key", "h@0", "--key", "p@1", "--click", "%d,%d@2" % CLICK]
        for f in range(3, 43):
            args += ["--key", ".@%d" % f]
        lines, _ = lesson4("walk", args + ["--frames", 44])
        walked = only(lines, "step")
        self.assertEqual([s["index"] for s in walked], list(range(len(walked))))
        self.assertEqual(len(walked), min(41, walked[0]["count"]))
        tags = [s["tag"].split(".")[-1] for s in walked]
        self.assertEqual(tags[:4], ["unproject", "pointer-ray", "clip", "linear-divide"])
        self.assertIn("shorter-ray", tags)
        for s in walked:
            self.assertEqual(s["code"], listing[s["line"] - 1])
            self.assertTrue(s["sentence"] and s["sentence"] != s["tag"], "a sentence for %s" % s["tag"])
            self.assertTrue(s["listing"].endswith("src/lessons/listings/lesson4_xna_recipe.c"))
        # the LinearSearch steps watch nextPoint above the ground
        for s in walked:
            if s["tag"].endswith(".linear"):
                y = float(s["watches"]["nextPoint"].strip("()").split(",")[1])
                self.assertGreater(y, float(s["watches"]["heightAtNextPoint"]))


class Tour(RenderCase):
    def test_each_moment_stages_what_it_says(self):
        spire = [o for o in layout(4, W, H)["objects"] if o["kind"] == "spire"][0]

        def off_axis(p):
            return ((p[0] - spire["center"][0]) ** 2 + (p[2] - spire["center"][2]) ** 2) ** 0.5

        for n in range(1, 5):
            lines, img = lesson4("tour-%d" % n, ["--tour", n, "--frames", 3])
            tour = only(lines, "tour")
            self.assertEqual(len(tour), 1)
            self.assertEqual((tour[0]["moment"], tour[0]["count"]), (n, 4))
            self.assertTrue(tour[0]["text"] and tour[0]["text"] != tour[0]["sentence"])
            pick = [line for line in lines if "hit" in line and "lesson" in line][-1]
            panel = only(lines, "panel")[-1]
            if n == 1:      # the recipe's case, walked to pointerPos
                self.assertTrue(pick["hit"] and pick["methods_apart"] < 0.05)
                self.assertEqual(only(lines, "step")[-1]["tag"].split(".")[-1], "found")
                self.assertTrue(panel["shown"])
            elif n == 2:    # 8 steps stride over the spire
                self.assertEqual(pick["linear_steps"], 8)
                self.assertGreater(off_axis(pick["search_point"]), 2.0)
                self.assertLess(off_axis(pick["exact_point"]), 1.1)
                self.assertEqual(only(lines, "step")[-1]["tag"].split(".")[-1], "shorter-ray")
            elif n == 3:    # the endless loop, stopped
                self.assertFalse(pick["hit"])
                self.assertTrue(pick["search_stopped"])
                self.assertEqual(only(lines, "step")[-1]["tag"].split(".")[-1], "binary-bound")
            else:           # the exact method on the spire, no step mode
                self.assertEqual(pick["method"], "exact")
                self.assertLess(off_axis(pick["point"]), 1.1)
                self.assertFalse(panel["shown"])
            self.assertEqual((img.w, img.h), (W, H))

    def test_o_walks_the_moments(self):
        lines, _ = lesson4("o", ["--key", "o@1", "--key", "o@2", "--frames", 4])
        self.assertEqual([t["moment"] for t in only(lines, "tour")], [1, 2])

    def test_a_tour_the_lesson_has_not_is_refused(self):
        for args in (["--lesson", 4, "--tour", 5], ["--lesson", 4, "--tour", 0], ["--lesson", 1, "--tour", 5]):
            _, err = run(args + ["--frames", 1], expect=2)
            self.assertIn("--tour", err)


if __name__ == "__main__":
    sys.exit(main())
