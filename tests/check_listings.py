#!/usr/bin/env python3
"""check_listings.py: the lessons' listings (src/lessons/listings/) and the
script that embeds them (listing2c.py), and the notes that print them.

    python3 tests/check_listings.py [SOURCE_ROOT]

Checked here:
- listing2c.py on listings written by the test: the instrumentation
  (LISTING_ statements, one or several lines) is left out, the shown lines
  are numbered from 1, a hidden line stands for the statement shown above
  it (its first line), or below it when none is; a file without markers or
  with a statement that never ends is refused with FILE:LINE, and the C
  table it writes says the same;
- every listing of src/lessons/listings/ shows no instrumentation and is
  listed in src/lessons/meson.build;
- the notes of its lesson (docs/lessons/lessonN-*.md for listings/lessonN_*.c)
  print it exactly as the code panel numbers it, so a line number quoted
  beside a step cannot drift from the code that runs.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-")
                       else os.path.join(os.path.dirname(__file__), ".."))
SCRIPT = os.path.join(ROOT, "src", "lessons", "listings", "listing2c.py")

FIXTURE = """/* header, not shown */
#include "listing.h"
static int helper(void) { return 0; }
/* LISTING BEGIN */
int Walk(listing_trace *t, int n)
{
    int total = 0,
        step = 2;
    LISTING_STEP(t, "fixture.start", WATCH_I("total", total));
    while (total < n) {
        LISTING_STEP(t, "fixture.turn",
                     WATCH_I("total", total),
                     WATCH_I("step", step));
        total += step;
    }
    return total;
}
/* LISTING END */
"""


def run_script(*args):
    return subprocess.run([sys.executable, SCRIPT] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


def shown_text(path):
    out = run_script("--print", path)
    if out.returncode != 0:
        raise AssertionError("listing2c.py --print %s: %s" % (path, out.stderr))
    return out.stdout


class Script(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "fixture.c")
        with open(self.path, "w") as f:
            f.write(FIXTURE)

    def tearDown(self):
        self.tmp.cleanup()

    def table(self):
        """(lines, display_of_source) from the C the script writes"""
        out = os.path.join(self.tmp.name, "fixture_listing.c")
        res = run_script(out, self.path, self.tmp.name)
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(out) as f:
            c = f.read()
        lines = re.findall(r'^    "(.*)",$', c.split("display_of_source")[0], re.M)
        numbers = [int(x) for x in re.findall(r"\d+", c.split("display_of_source[] = {")[1].split("};")[0])]
        self.assertIn("const listing listing_fixture", c)
        return lines, numbers

    def test_instrumentation_is_left_out_and_lines_numbered(self):
        text = shown_text(self.path)
        self.assertNotIn("LISTING_", text)
        self.assertNotIn("WATCH_", text)
        self.assertNotIn("header", text)
        numbered = text.splitlines()
        self.assertEqual(len(numbered), 9)
        self.assertEqual(numbered[0], "1  int Walk(listing_trace *t, int n)")
        self.assertEqual(numbered[4], "5      while (total < n) {")
        self.assertEqual(numbered[-1], "9  }")

    def test_a_hidden_line_lights_the_statement_above(self):
        lines, display = self.table()
        src = FIXTURE.split("\n")
        # source lines are 1-based; display_of_source[0] is unused
        def shown(source_line):
            return lines[display[source_line] - 1]
        start = src.index('    LISTING_STEP(t, "fixture.start", WATCH_I("total", total));') + 1
        self.assertEqual(shown(start), "    int total = 0,")      # the statement's first line, not "step = 2;"
        turn = src.index('        LISTING_STEP(t, "fixture.turn",') + 1
        for line in (turn, turn + 1, turn + 2):                     # every line of a multi-line statement
            self.assertEqual(shown(line), "    while (total < n) {")
        self.assertEqual(display[1], 0)                             # the header is not shown
        self.assertEqual(display[src.index("/* LISTING BEGIN */") + 1], 0)
        self.assertEqual(len(display), len(src))                    # one entry a source line (+1 unused, -1 the last "")

    def test_bad_listings_are_refused_with_where(self):
        cases = {   # name: (body, what stderr names)
            "no markers": ("int x;\n", "bad.c: needs one line with LISTING BEGIN"),
            "never ends": ("/* LISTING BEGIN */\nvoid f(void)\n{\n    LISTING_STEP(t, \"x\",\n}\n/* LISTING END */\n",
                           "bad.c:4: this LISTING_ statement never ends"),
            "nothing shown": ("/* LISTING BEGIN */\n    LISTING_STEP(t, \"x\", WATCH_I(\"a\", 1));\n/* LISTING END */\n",
                              "bad.c: nothing to show"),
        }
        for name, (body, said) in cases.items():
            path = os.path.join(self.tmp.name, "bad.c")
            with open(path, "w") as f:
                f.write(body)
            for args in (["--print", path], [os.path.join(self.tmp.name, "out.c"), path]):
                res = run_script(*args)
                self.assertEqual(res.returncode, 1, name)
                self.assertIn(said, res.stderr, name)


class Listings(unittest.TestCase):
    def listings(self):
        found = sorted(glob.glob(os.path.join(ROOT, "src", "lessons", "listings", "*.c")))
        self.assertTrue(found, "no listing in src/lessons/listings/")
        return found

    def test_every_listing_is_built(self):
        with open(os.path.join(ROOT, "src", "lessons", "meson.build")) as f:
            build = f.read()
        # listing_names = [...], and any listing_names += [...] after it
        names = " ".join(re.findall(r"listing_names \+?= \[([^\]]*)\]", build))
        for path in self.listings():
            name = os.path.splitext(os.path.basename(path))[0]
            self.assertIn("'%s'" % name, names, "%s is not in listing_names (src/lessons/meson.build)" % name)

    def test_the_notes_print_each_listing_as_the_panel_numbers_it(self):
        for path in self.listings():
            name = os.path.basename(path)
            m = re.match(r"lesson(\d+)_", name)
            self.assertIsNotNone(m, "%s: a listing's name starts with lessonN_" % name)
            notes = glob.glob(os.path.join(ROOT, "docs", "lessons", "lesson%s-*.md" % m.group(1)))
            self.assertEqual(len(notes), 1, "lesson %s's notes" % m.group(1))
            with open(notes[0], encoding="utf-8") as f:
                doc = f.read()
            text = shown_text(path)
            self.assertTrue("```c\n" + text + "```" in doc,
                          "%s does not print %s as the code panel numbers it: paste the output of\n"
                          "  python3 src/lessons/listings/listing2c.py --print %s" %
                          (os.path.relpath(notes[0], ROOT), name, os.path.relpath(path, ROOT)))


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]] + [a for a in sys.argv[1:] if a.startswith("-")])
