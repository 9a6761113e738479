#!/usr/bin/env python3
"""check_no_seed_names.py: users never read "seed 001".

    python3 tests/check_no_seed_names.py SOURCE_ROOT [RAYPICK_EXE]

The tutorials raypick ports are kept beside the project as seed files
(seeds/000_*.txt ... 004_*.txt); "seed 001" means something to a
maintainer only. What users read names the tutorial instead ("the Chinese
bounding-sphere picking tutorial's CheckIntersection"; the table is
docs/tutorials.md). Fails when "seed 0..." appears in:

- the public headers, include/raypick/*.h;
- README.md;
- the program's --help output (when RAYPICK_EXE is given: a native build
  with the demo);
- a C string literal under src/ (the help text, the loading screen);
- a text of the message catalogue, po/*.pot and po/*.po (the HUD's
  titles, key lists and status lines in every language; the translators'
  comments may).
"""
import os
import re
import subprocess
import sys
import unittest

# "seed 001", "seeds 002 and 003", "Seed 0": not the option "--seed 0"
SEED_NAME = re.compile(r'(?<![-\w])seeds?\s+0\d*', re.IGNORECASE)
# a C string literal, escapes included (one line: the sources never span one)
STRING_LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')

ROOT = None
EXE = None


def seed_names(text):
    """Every "seed 0..." in text, as (line number, line)."""
    return [(n, line.strip()) for n, line in enumerate(text.split('\n'), 1)
            if SEED_NAME.search(line)]


def literal_seed_names(source):
    """Every string literal of a C source that says "seed 0...", as
    (line number, literal). Comments are the maintainers' and may."""
    found = []
    for n, line in enumerate(source.split('\n'), 1):
        code = re.sub(r'//.*', '', line)
        for m in STRING_LITERAL.finditer(code):
            if SEED_NAME.search(m.group(0)):
                found.append((n, m.group(0)))
    return found


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


class Detector(unittest.TestCase):
    """The pattern itself: a check that cannot fail proves nothing."""

    def test_finds_seed_numbers(self):
        for text in ("seed 001's CheckIntersection", 'seeds 002 and 003',
                     '"M  Seed 004 search"', 'a seed 0 here'):
            self.assertTrue(seed_names(text), text)

    def test_leaves_other_seeds_alone(self):
        for text in ('--seed N            seed of the procedural scenes (default 1)',
                     '--seed 0', 'a fixed seed keeps the result', 'the seed 1 map',
                     'rp_seed_001'):
            self.assertFalse(seed_names(text), text)

    def test_literals_only_in_c(self):
        src = ('/* seed 001: a comment may say it */\n'
               'const char *a = "exact";  // seed 002 too\n'
               'const char *b = "seed 002 shortcut";\n'
               'printf("%s \\"seed 003\\"", x);\n')
        self.assertEqual([n for n, _ in literal_seed_names(src)], [3, 4])


class UserFacingText(unittest.TestCase):

    def test_public_headers(self):
        folder = os.path.join(ROOT, 'include', 'raypick')
        headers = sorted(n for n in os.listdir(folder) if n.endswith('.h'))
        self.assertIn('raypick.h', headers)
        bad = ['include/raypick/%s:%d: %s' % (name, n, line)
               for name in headers
               for n, line in seed_names(read(os.path.join(folder, name)))]
        self.assertEqual(bad, [], 'name the tutorial (docs/tutorials.md), not its seed file')

    def test_readme(self):
        text = read(os.path.join(ROOT, 'README.md'))
        self.assertIn('# raypick', text)
        bad = ['README.md:%d: %s' % hit for hit in seed_names(text)]
        self.assertEqual(bad, [], 'name the tutorial (docs/tutorials.md), not its seed file')

    def test_string_literals_in_src(self):
        checked, bad = 0, []
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, 'src')):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(('.c', '.h')):
                    path = os.path.join(dirpath, name)
                    checked += 1
                    bad += ['%s:%d: %s' % (os.path.relpath(path, ROOT), n, lit)
                            for n, lit in literal_seed_names(read(path))]
        self.assertGreater(checked, 10)
        self.assertEqual(bad, [], 'the HUD and --help name the tutorial, not its seed file')

    def test_message_catalogue(self):
        folder = os.path.join(ROOT, 'po')
        files = sorted(n for n in os.listdir(folder) if n.endswith(('.po', '.pot')))
        self.assertIn('raypick.pot', files)
        bad = []
        for name in files:
            for n, line in seed_names(read(os.path.join(folder, name))):
                if not line.startswith('#'):
                    bad.append('po/%s:%d: %s' % (name, n, line))
        self.assertEqual(bad, [], 'the HUD names the tutorial, not its seed file')


class HelpOutput(unittest.TestCase):
    """Run only when the program is given (tests/meson.build passes it in a
    native build with the demo)."""

    def test_help_output(self):
        run = subprocess.run([EXE, '--help'], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=60)
        out = run.stdout.decode('utf-8', 'replace')
        self.assertEqual(run.returncode, 0, out)
        self.assertIn('--lesson', out)
        self.assertEqual(seed_names(out), [], out)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    ROOT = os.path.abspath(sys.argv[1])
    EXE = sys.argv[2] if len(sys.argv) > 2 else None
    loader = unittest.TestLoader()
    suite = unittest.TestSuite(loader.loadTestsFromTestCase(case) for case in
                               [Detector, UserFacingText] + ([HelpOutput] if EXE else []))
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)
