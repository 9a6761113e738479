"""The lesson registry as the program prints it (raypick --list-lessons):
every script and test outside C that loops over lessons reads it here, so
a new lesson's registry line reaches them all.

    from lesson_registry import list_lessons
    lessons = list_lessons("build/src/app/raypick")   # [{"number": 1, ...}, ...]

Each lesson is a dict: number, name, title, title_key, pick_ids, files
(the options naming a file it loads, e.g. ["heightmap"]), object, source,
unit_test, notes (paths relative to the source root). src/app/report.c
writes it.
"""
import json
import os
import subprocess


def wrapper():
    """RAYPICK_EXE_WRAPPER: the launcher of a cross build's program
    (scripts/windows: Wine), split in words; [] for a native build."""
    return os.environ.get("RAYPICK_EXE_WRAPPER", "").split()


def list_lessons(raypick, launcher=None, timeout=300):
    """The registry of the program at path raypick, run through launcher
    (default: wrapper()). Raises RuntimeError when the program fails or
    prints something that is not the registry (numbers 1..count in order)."""
    cmd = (wrapper() if launcher is None else list(launcher)) + [raypick, "--list-lessons"]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (" ".join(cmd), proc.returncode, proc.stderr.strip()[-500:]))
    try:
        data = json.loads(proc.stdout)
        lessons = data["lessons"]
        numbers = [lesson["number"] for lesson in lessons]
    except (ValueError, KeyError, TypeError) as e:
        raise RuntimeError("%s printed no registry (%s): %r" % (" ".join(cmd), e, proc.stdout[:300]))
    if not lessons or data["count"] != len(lessons) or numbers != list(range(1, len(lessons) + 1)):
        raise RuntimeError("%s: count %s, numbers %s" % (" ".join(cmd), data.get("count"), numbers))
    return lessons


def numbers(lessons):
    """[1, 2, ..., count]"""
    return [lesson["number"] for lesson in lessons]


def with_pick_ids(lessons):
    """The numbers of the lessons whose draw lists give GPU pick ids."""
    return [lesson["number"] for lesson in lessons if lesson["pick_ids"]]


def for_file(lessons, option):
    """The number of the first lesson that loads --option's file, None when none does."""
    for lesson in lessons:
        if option in lesson["files"]:
            return lesson["number"]
    return None
