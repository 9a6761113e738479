#!/usr/bin/env python3
"""check_listings.py: the lessons' listings (src/lessons/listings/) and the
script that embeds them (listing2c.py), and the notes that print them.

    python3 tests/check_listings.py [SOURCE_ROOT]

Checked here:
- listing2c.py on listings written by the test: the instrumentation
  (LISTING_ statements, one or several lines) is left out, the shown lines
  are numbered from 1, a hidden line stands for the statement shown above
  it (its first line), or below it when none is, one in a plain else's
  body the if whose condition chose it (a condition over several lines
  included); a file without markers or
  with a statement that never ends is refused with FILE:LINE, and the C
  table it writes says the same;
- every listing of src/lessons/listings/ shows no instrumentation and is
  listed in src/lessons/meson.build;
- the comments of the shown part: each comment (a "//" after code, or a
  run of "//" lines indented alike) is one catalogue entry,
  listing.NAME.comment.K, its English text the comment's lines; the C
  table gives each line's comment and where its text starts (in bytes);
  "/*" comments are refused; --sync-po writes the entries into a po
  directory, keeping a translation with its English text (also when the
  comment's number changes) and dropping it when the English changed;
- po/raypick.pot holds exactly the listings' comments, with their English
  text, and every language of po/LINGUAS translates each, in as many lines
  as the comment has, each within the room the code panel gives it (the
  listing's widest line; an ideograph takes two columns);
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
sys.path.insert(0, os.path.join(ROOT, "po"))
sys.path.insert(0, os.path.dirname(SCRIPT))
import listing2c  # noqa: E402
import po2c  # noqa: E402

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

    def test_an_else_lights_its_condition(self):
        body = ("/* LISTING BEGIN */\n"
                "bool Near(listing_trace *t, float d2, float a, float b)\n"
                "{\n"
                "    float sum = a +\n"
                "                b;\n"
                "    if (d2 < sum +\n"
                "             a) {\n"
                "        LISTING_STEP(t, \"fixture.yes\", WATCH_F(\"d2\", d2));\n"
                "        return true;\n"
                "    } else if (d2 < b) {\n"
                "        LISTING_STEP(t, \"fixture.small\", WATCH_F(\"b\", b));\n"
                "        return true;\n"
                "    } else {\n"
                "        LISTING_STEP(t, \"fixture.no\", WATCH_F(\"d2\", d2));\n"
                "        return false;\n"
                "    }\n"
                "    if (a < b) {\n"
                "        return true;\n"
                "    }\n"
                "    else {\n"
                "        LISTING_STEP(t, \"fixture.late\", WATCH_F(\"a\", a));\n"
                "    }\n"
                "}\n"
                "/* LISTING END */\n")
        path = os.path.join(self.tmp.name, "fixture.c")
        with open(path, "w") as f:
            f.write(body)
        lines, display = self.table()
        src = body.split("\n")

        def lit(tag):
            return lines[display[next(i for i, s in enumerate(src) if tag in s) + 1] - 1]
        self.assertEqual(lit("fixture.yes"), "    if (d2 < sum +")      # a condition over two lines
        self.assertEqual(lit("fixture.small"), "    } else if (d2 < b) {")
        self.assertEqual(lit("fixture.no"), "    } else if (d2 < b) {")  # the last condition tested
        self.assertEqual(lit("fixture.late"), "    if (a < b) {")         # else on its own line

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


COMMENTED = """/* not shown: // nor this */
/* LISTING BEGIN */
// First comment, line one
// line two with "quotes" and 100%
int Walk(int n)  // after code: its own comment
{
    const char *s = "http://no.comment/*";   // a real one
    // an indented comment
    // of two lines
    //
	const char *u = "\u00fc"; // after a tab and an umlaut
    return n;
}
/* LISTING END */
"""


class Comments(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "fixture.c")
        self.write(COMMENTED)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, text):
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(text)

    def test_each_comment_is_one_entry(self):
        entries = listing2c.pot_entries(self.path)
        self.assertEqual([e["ctxt"] for e in entries], ["listing.fixture.comment.%d" % k for k in range(1, 6)])
        self.assertEqual([e["id"] for e in entries], [
            'First comment, line one\nline two with "quotes" and 100%%',     # a printf format: %%
            "after code: its own comment",
            "a real one",
            "an indented comment\nof two lines\n",                           # "//" alone: an empty line
            "after a tab and an umlaut"])
        # what --pot prints po2c reads back as the same entries
        pot = os.path.join(self.tmp.name, "out.pot")
        res = run_script("--pot", self.path)
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(pot, "w", encoding="utf-8") as f:
            f.write(res.stdout)
        self.assertEqual([(e["ctxt"], e["id"]) for e in po2c.parse_po(pot)],
                         [(e["ctxt"], e["id"]) for e in entries])
        self.assertIn("lines 1-2: 2 lines, each at most", res.stdout)

    def test_the_table_says_where_each_lines_comment_starts(self):
        out = os.path.join(self.tmp.name, "fixture_listing.c")
        res = run_script(out, self.path, self.tmp.name)
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(out, encoding="utf-8") as f:
            c = f.read()
        lines = [bytes(t, "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")
                 for t in re.findall(r'^    "(.*)",$', c.split("display_of_source")[0], re.M)]
        table = re.findall(r'^    \{(NULL|"[^"]*"), (\d+), (\d+), (\d+)\},$', c.split("comments[] = {")[1], re.M)
        self.assertEqual(len(table), len(lines))
        for line, (cid, column, part, parts) in zip(lines, table):
            if cid == "NULL":
                self.assertNotIn("// ", line)
                continue
            text = line.encode("utf-8")[int(column):].decode("utf-8")
            self.assertTrue(line.encode("utf-8")[:int(column)].decode("utf-8").rstrip().endswith("//"), line)
            english = next(e["id"] for e in listing2c.pot_entries(self.path) if '"%s"' % e["ctxt"] == cid)
            self.assertEqual(english.replace("%%", "%").split("\n")[int(part)], text)
            self.assertEqual(len(english.split("\n")), int(parts))
        # the tab is four spaces in the table; the umlaut two bytes before the comment
        umlaut = table[lines.index(next(t for t in lines if "after a tab" in t))]
        self.assertEqual(int(umlaut[1]), len('    const char *u = "\u00fc"; // '.encode("utf-8")))

    def test_block_comments_are_refused(self):
        self.write("/* LISTING BEGIN */\nint x;\nint y; /* why */\n/* LISTING END */\n")
        for args in (["--print", self.path], ["--pot", self.path], [os.path.join(self.tmp.name, "o.c"), self.path]):
            res = run_script(*args)
            self.assertEqual(res.returncode, 1, args)
            self.assertIn("fixture.c:3: a /* */ comment", res.stderr)

    def test_sync_keeps_moves_and_drops_translations(self):
        po = os.path.join(self.tmp.name, "po")
        os.mkdir(po)
        head = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: %s\\n"\n\nmsgctxt "hud.x"\nmsgid "x"\nmsgstr "%s"\n'
        with open(os.path.join(po, "LINGUAS"), "w") as f:
            f.write("de\n")
        for name, lang, text in (("raypick.pot", "en", ""), ("de.po", "de", "ix")):
            with open(os.path.join(po, name), "w", encoding="utf-8") as f:
                f.write(head % (lang, text))

        def sync():
            res = run_script("--sync-po", po, self.path)
            self.assertEqual(res.returncode, 0, res.stderr)
            return ({e["ctxt"]: e["id"] for e in po2c.parse_po(os.path.join(po, "raypick.pot"))},
                    {e["ctxt"]: e["str"] for e in po2c.parse_po(os.path.join(po, "de.po"))})

        pot, de = sync()
        self.assertEqual(pot["listing.fixture.comment.3"], "a real one")
        self.assertEqual(de["listing.fixture.comment.3"], "")
        self.assertEqual(de["hud.x"], "ix")                     # other entries stay
        with open(os.path.join(po, "de.po"), encoding="utf-8") as f:
            text = f.read()
        with open(os.path.join(po, "de.po"), "w", encoding="utf-8") as f:
            f.write(text.replace('msgid "a real one"\nmsgstr ""', 'msgid "a real one"\nmsgstr "ein echter"'))
        self.assertEqual(sync()[1]["listing.fixture.comment.3"], "ein echter")     # kept
        self.write(COMMENTED.replace("int Walk", "int z;  // new\nint Walk"))
        pot, de = sync()
        self.assertEqual(de["listing.fixture.comment.4"], "ein echter")            # moved with its English
        self.assertEqual(pot["listing.fixture.comment.6"], "after a tab and an umlaut")
        self.assertEqual(len([k for k in pot if (k or "").startswith("listing.")]), 6)
        self.write(COMMENTED.replace("a real one", "a changed one"))
        pot, de = sync()
        self.assertEqual(pot["listing.fixture.comment.3"], "a changed one")
        self.assertEqual(de["listing.fixture.comment.3"], "")                       # the English changed
        self.assertEqual(de["hud.x"], "ix")
        # a second run changes nothing
        before = [open(os.path.join(po, n), encoding="utf-8").read() for n in ("raypick.pot", "de.po")]
        sync()
        self.assertEqual([open(os.path.join(po, n), encoding="utf-8").read() for n in ("raypick.pot", "de.po")], before)


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

    def test_the_catalogue_translates_every_comment(self):
        """po/raypick.pot holds the listings' comments, no more, no fewer, with
        their English text; each language translates each in the comment's
        number of lines, each line within its room on the panel."""
        sync = ("python3 src/lessons/listings/listing2c.py --sync-po po src/lessons/listings/lesson*.c "
                "(po/README.md)")
        want = {}
        for path in self.listings():
            for e in listing2c.pot_entries(path):
                want[e["ctxt"]] = (e["id"], int(re.search(r"at most (\d+) columns", e["note"]).group(1)))
        self.assertGreater(len(want), 20)
        pot = {e["ctxt"]: e["id"] for e in po2c.parse_po(os.path.join(ROOT, "po", "raypick.pot"))
               if (e["ctxt"] or "").startswith("listing.")}
        self.assertEqual(sorted(set(want) - set(pot)), [], "comments missing in po/raypick.pot: run " + sync)
        self.assertEqual(sorted(set(pot) - set(want)), [], "po/raypick.pot has comments no listing has: run " + sync)
        for cid, (english, room) in want.items():
            self.assertEqual(pot[cid], english, "%s: po/raypick.pot has another English text than the listing: "
                             "run %s, then translate it anew" % (cid, sync))
        with open(os.path.join(ROOT, "po", "LINGUAS")) as f:
            codes = [w.strip() for w in f if w.strip() and not w.startswith("#")]
        self.assertEqual(sorted(codes), ["de", "zh"])
        for code in codes:
            po = {e["ctxt"]: e for e in po2c.parse_po(os.path.join(ROOT, "po", code + ".po"))}
            for cid, (english, room) in want.items():
                where = "po/%s.po: %s" % (code, cid)
                self.assertIn(cid, po, where + ": missing: run " + sync)
                e = po[cid]
                self.assertEqual(e["id"], english, where + ": translates an old English text: run " + sync)
                self.assertFalse(e["fuzzy"], where + ": fuzzy")
                self.assertNotEqual(e["str"], "", where + ": not translated")
                lines = e["str"].split("\n")
                self.assertEqual(len(lines), len(english.split("\n")),
                                 where + ": the translation needs as many lines as the comment")
                for line in lines:
                    self.assertLessEqual(listing2c.display_width(line), room,
                                         "%s: %r is wider than the %d columns the panel has for it" % (where, line,
                                                                                                      room))

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
