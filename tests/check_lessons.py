#!/usr/bin/env python3
"""check_lessons.py: a lesson is its .c, its unit test, its notes and one
registry line; this fails when one of them is missing, or when the lesson
count of the registry, the build and the documents disagree.

    check_lessons.py RAYPICK SOURCE_ROOT MESON_OBJECTS REGISTERED_TESTS

RAYPICK: the program (its --list-lessons is the registry). MESON_OBJECTS:
the lessons' table names, comma-separated, as src/lessons/meson.build read
them from src/lessons/lessons.c. REGISTERED_TESTS: the tests/test_lesson*.c
files tests/meson.build registered, comma-separated. Checks:
  - Meson read the same lessons as the compiler did (the program's list);
  - every lesson's source, unit test (registered) and notes exist;
  - every tests/test_lessonN*.c is registered, and N is a lesson;
  - docs/lessons/ holds the registry's notes and no other lesson's;
  - README.md: every lesson link and picture it has is the registry's
    (number, notes), and every lesson with a picture (docs/img/lessonN.png,
    scripts/screenshots) is in it, linked to its notes;
  - docs/architecture.md's "a new lesson" says those four things;
  - --help says 1-N and lists every lesson's title; --lesson N+1 is refused.
Prints one line per problem and "N passed, M failed" last.
"""
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lesson_registry import list_lessons, wrapper  # noqa: E402


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, message):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL " + message)
        return ok


def split_list(arg):
    return [x for x in arg.split(",") if x]


def check_files(c, root, lessons, registered):
    for lesson in lessons:
        n, where = lesson["number"], "lesson %d (%s)" % (lesson["number"], lesson["name"])
        for key in ("source", "unit_test", "notes"):
            c.check(os.path.isfile(os.path.join(root, lesson[key])), "%s: no %s %s" % (where, key, lesson[key]))
        c.check(os.path.basename(lesson["unit_test"]) in registered,
                "%s: %s is not registered (tests/meson.build registers tests/test_lessonN.c of every lesson: "
                "reconfigure the build?)" % (where, lesson["unit_test"]))
        c.check(lesson["source"] == "src/lessons/%s.c" % lesson["object"] and lesson["object"].startswith(
            "lesson%d_" % n), "%s: table %s in %s" % (where, lesson["object"], lesson["source"]))
    count = len(lessons)
    for path in sorted(glob.glob(os.path.join(root, "tests", "test_lesson[0-9]*.c"))):
        name = os.path.basename(path)
        n = int(re.match(r"test_lesson(\d+)", name).group(1))
        c.check(1 <= n <= count, "tests/%s: there is no lesson %d (the registry has %d)" % (name, n, count))
        c.check(name in registered, "tests/%s is not registered: a lesson's tests/test_lessonN.c is, others go "
                "in lesson_more_tests (tests/meson.build); or reconfigure the build" % name)


def check_notes(c, root, lessons):
    notes = {lesson["notes"] for lesson in lessons}
    for path in sorted(glob.glob(os.path.join(root, "docs", "lessons", "lesson*.md"))):
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        c.check(rel in notes, "%s: notes of no lesson in the registry (%s)" % (rel, ", ".join(sorted(notes))))


def check_readme(c, root, lessons):
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        text = f.read()
    by_number = {lesson["number"]: lesson for lesson in lessons}
    for m in re.finditer(r"docs/lessons/lesson(\d+)-([a-z0-9-]+)\.md", text):
        n = int(m.group(1))
        c.check(n in by_number and by_number[n]["notes"] == m.group(0),
                "README.md links %s: the registry's lesson %d is %s" % (
                    m.group(0), n, by_number[n]["notes"] if n in by_number else "not there"))
    for m in re.finditer(r"docs/img/lesson(\d+)\.png", text):
        n = int(m.group(1))
        c.check(n in by_number, "README.md shows %s: there is no lesson %d" % (m.group(0), n))
    for lesson in lessons:
        picture = "docs/img/lesson%d.png" % lesson["number"]
        if not os.path.isfile(os.path.join(root, picture)):
            continue    # not made yet (scripts/screenshots N): README cannot show it
        c.check(picture in text and lesson["notes"] in text,
                "README.md: lesson %d has its picture %s, but README's lesson table lacks it or its notes %s"
                % (lesson["number"], picture, lesson["notes"]))


def check_architecture(c, root):
    with open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^#+ [^\n]*a new lesson[^\n]*$(.*?)(?=^#+ |\Z)", text, re.MULTILINE | re.IGNORECASE | re.DOTALL)
    if not c.check(m, "docs/architecture.md has no section on a new lesson"):
        return
    section = m.group(1)
    for thing in ("src/lessons/lessonN_name.c", "tests/test_lessonN.c", "docs/lessons/lessonN-NAME.md",
                  "src/lessons/lessons.c"):
        c.check(thing in section, "docs/architecture.md, a new lesson: does not name %s" % thing)


def check_program(c, raypick, lessons):
    count = len(lessons)
    run = wrapper() + [raypick]
    help_ = subprocess.run(run + ["--help"], stdout=subprocess.PIPE, universal_newlines=True, timeout=300)
    c.check(help_.returncode == 0 and "(1-%d)" % count in help_.stdout and "keys: 1-%d lesson" % count in help_.stdout,
            "--help does not say 1-%d" % count)
    for lesson in lessons:
        c.check(lesson["title"] in help_.stdout, "--help does not list lesson %d: %s" % (lesson["number"],
                                                                                       lesson["title"]))
    for bad in (0, count + 1):
        p = subprocess.run(run + ["--lesson", str(bad), "--list-lessons"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
        c.check(p.returncode == 2 and "--lesson" in p.stderr, "--lesson %d: exit %d, %r" % (bad, p.returncode,
                                                                                          p.stderr[:200]))


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    raypick, root, objects, registered = argv[0], argv[1], split_list(argv[2]), split_list(argv[3])
    c = Checks()
    lessons = list_lessons(raypick)
    c.check([lesson["object"] for lesson in lessons] == objects,
            "Meson read the lessons %s from src/lessons/lessons.c, the program lists %s (keep each LESSON( at "
            "the start of its line, outside #if)" % (objects, [lesson["object"] for lesson in lessons]))
    check_files(c, root, lessons, registered)
    check_notes(c, root, lessons)
    check_readme(c, root, lessons)
    check_architecture(c, root)
    check_program(c, raypick, lessons)
    print("%d lessons: %s" % (len(lessons), ", ".join("%d %s" % (x["number"], x["name"]) for x in lessons)))
    print("%d passed, %d failed" % (c.passed, c.failed))
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
