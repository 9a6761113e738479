#!/usr/bin/env python3
"""check_po2c.py: po/po2c.py, the catalogue's compiler, refuses what it
cannot read with the file and line, and warns about translations it
leaves out. (What the program does with its tables: tests/test_msg.c and
tests/test_msg_fixture.c.)

    python3 tests/check_po2c.py SOURCE_ROOT
"""
import os
import shutil
import sys
import tempfile
import unittest

HEADER = 'msgid ""\nmsgstr ""\n"Language: %s\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


class Po2c(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="raypick-po2c-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, name, text, lang=None):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write((HEADER % lang if lang else "") + text)
        return path

    def pot(self, body='msgctxt "a.b"\nmsgid "text %d"\nmsgstr ""\n'):
        return self.write("t.pot", body, "en")

    def refused(self, po_body, needle, lang="de", name="de.po"):
        pot = self.pot()
        po = self.write(name, po_body, lang)
        with self.assertRaises(po2c.PoError) as e:
            po2c.load(pot, [po], lambda w: None)
        self.assertIn(needle, str(e.exception))
        self.assertIn(po, str(e.exception))
        return str(e.exception)

    def test_a_good_catalogue_loads(self):
        warnings = []
        langs = po2c.load(self.pot(), [self.write("de.po", 'msgctxt "a.b"\nmsgid "text %d"\nmsgstr "Text %d"\n',
                                                 "de")], warnings.append)
        self.assertEqual(langs, [("en", {"a.b": "text %d"}), ("de", {"a.b": "Text %d"})])
        self.assertEqual(warnings, [])

    def test_syntax_errors_name_the_line(self):
        msg = self.refused('msgctxt "a.b"\nmsgid "x\nmsgstr "y"\n', "expected a quoted string")
        self.assertIn(":7:", msg)      # the header and a blank line, msgctxt, then msgid
        self.refused('msgctxt "a.b"\nmsgid "x \\q"\nmsgstr "y"\n', "unknown escape")
        self.refused('msgctxt "a.b"\nmsgid "x"\nmsgid_plural "xs"\nmsgstr "y"\n', "unknown keyword")
        self.refused('msgctxt "a.b"\nmsgid "x"\n\n', "needs msgid and msgstr")
        self.refused('msgctxt "a.b"\nmsgstr "y"\n', "msgstr before msgid")
        self.refused('"orphan"\n', "continues nothing")
        self.refused('msgid "x"\nmsgstr "y"\n', "without msgctxt")
        self.refused('msgctxt "A b"\nmsgid "x"\nmsgstr "y"\n', "id 'A b'")
        self.refused('msgctxt "a.b"\nmsgid "x"\nmsgstr "y"\n\nmsgctxt "a.b"\nmsgid "x"\nmsgstr "z"\n',
                     "appears twice")

    def test_headers_are_checked(self):
        self.refused('msgctxt "a.b"\nmsgid "text %d"\nmsgstr "Text %d"\n', "file's name says", lang="fr")
        pot = self.pot()
        bare = self.write("de.po", 'msgctxt "a.b"\nmsgid "text %d"\nmsgstr "Text %d"\n')
        with self.assertRaises(po2c.PoError) as e:
            po2c.load(pot, [bare], lambda w: None)
        self.assertIn("no header", str(e.exception))
        latin = os.path.join(self.dir, "zh.po")
        with open(latin, "wb") as f:
            f.write((HEADER % "zh").encode() + 'msgctxt "a.b"\nmsgid "x"\nmsgstr "Gr\xf6\xdfe"\n'.encode("latin-1"))
        with self.assertRaises(po2c.PoError) as e:
            po2c.load(pot, [latin], lambda w: None)
        self.assertIn("not UTF-8", str(e.exception))

    def test_left_out_translations_are_named(self):
        pot = self.pot('msgctxt "a.b"\nmsgid "new"\nmsgstr ""\n\nmsgctxt "c.d"\nmsgid "two"\nmsgstr ""\n'
                       '\nmsgctxt "e.f"\nmsgid "three"\nmsgstr ""\n')
        po = self.write("de.po", 'msgctxt "a.b"\nmsgid "old"\nmsgstr "alt"\n\n#, fuzzy\nmsgctxt "c.d"\n'
                                 'msgid "two"\nmsgstr "zwei"\n\nmsgctxt "x.y"\nmsgid "gone"\nmsgstr "weg"\n', "de")
        warnings = []
        langs = po2c.load(pot, [po], warnings.append)
        self.assertEqual(langs[1][1], {"a.b": None, "c.d": None})
        text = "\n".join(warnings)
        for needle in ("'a.b' translates an older English text", "'c.d' marked fuzzy", "'e.f' is missing",
                       "'x.y' is not in"):
            self.assertIn(needle, text)

    def test_c_strings_escape_what_c_would_misread(self):
        self.assertEqual(po2c.c_string('a"b\\c'), '"a\\"b\\\\c"')
        self.assertEqual(po2c.c_string("??="), '"\\?\\?="')
        self.assertEqual(po2c.c_string("\u00fc1"), '"\\303\\2741"')     # octal: no greedy hex
        self.assertEqual(po2c.c_string("one\ntwo"), '("one\\n" "two")')  # parenthesised: clang warns of bare concatenation in an array


if __name__ == "__main__":
    root = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    sys.path.insert(0, os.path.join(root, "po"))
    import po2c     # noqa: E402
    unittest.main()
