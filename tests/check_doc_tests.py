#!/usr/bin/env python3
"""check_doc_tests.py: every test the documents cite exists and runs.

    python3 tests/check_doc_tests.py [SOURCE_ROOT]
    python3 tests/check_doc_tests.py --self-test   (the parser on samples)

README.md and docs/**/*.md name the test behind each claim as a list:

    `tests/test_pick.c`, `centre_click_looks_forward` and `other_test`;
    (`tests/render/render_test.py`, `test_lesson2` (comment, skipped))

A backticked path under tests/ starts a list, in running text or inside
parentheses; the backticked names that follow, separated only by commas,
"and", semicolons, white space or a parenthesised comment, are its tests.
A C test must be registered with cmocka_unit_test(NAME) in that file (so
it runs, not merely exists); a Python test must be a `def NAME(` in that
file (a function, or a method of a unittest class). Every backticked path
under tests/ must exist, with or without tests after it; `*` in one is a
wildcard and `lessonN` stands for any lesson's number (both must match a
file). Fails on a missing file or test, and when fewer than MIN_CITATIONS
tests are found at all (the lists must not silently stop being
recognised).
"""
import glob
import os
import re
import sys

MIN_CITATIONS = 300
SPAN = re.compile(r'`([^`\n]+)`')
NAME = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')
SEPARATOR = re.compile(r'^(?:\s|,|;|\band\b)*$')
PATH = re.compile(r'`(tests/[^`\s]+)`')
FENCE = re.compile(r'^\s{0,3}(```|~~~)', re.MULTILINE)


def strip_fences(text):
    """The text with fenced code blocks blanked (line numbers kept)."""
    out, inside = [], False
    for line in text.split('\n'):
        if FENCE.match(line):
            inside = not inside
            out.append('')
            continue
        out.append('' if inside else line)
    return '\n'.join(out)


def drop_parentheses(text):
    """Removes (...) groups, nested ones included."""
    depth, out = 0, []
    for ch in text:
        if ch == '(':
            depth += 1
        elif ch == ')' and depth:
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return ''.join(out)


def paren_depths(text):
    """depth[i]: how many ( are open at text[i]; a blank line closes all."""
    depth, out, prev = 0, [], ''
    for ch in text:
        out.append(depth)
        if ch == '(':
            depth += 1
        elif ch == ')' and depth:
            depth -= 1
        elif ch == '\n' and prev == '\n':
            depth = 0
        prev = ch
    return out


def citations(text):
    """(line, file, test name) for every cited test. A list may stand in
    parentheses, as most do; spans inside parentheses opened after its
    path are comments: skipped, and they do not break it."""
    found = []
    depth = paren_depths(text)
    current, list_depth, prev_end = None, 0, 0
    for m in SPAN.finditer(text):
        if current and depth[m.start()] > list_depth:
            continue
        token = m.group(1)
        between = drop_parentheses(text[prev_end:m.start()])
        prev_end = m.end()
        if not SEPARATOR.match(between):
            current = None
        if token.startswith('tests/'):
            current, list_depth = token, depth[m.start()]
        elif current and NAME.match(token):
            found.append((text.count('\n', 0, m.start()) + 1, current, token))
        else:
            current = None
    return found


def cited_paths(text):
    """(line, path) for every backticked path under tests/."""
    return [(text.count('\n', 0, m.start()) + 1, m.group(1)) for m in PATH.finditer(text)]


def path_exists(root, path):
    """Whether path names a file or folder; a pattern (`*`, `lessonN`)
    must match one."""
    pattern = path.replace('lessonN', 'lesson[0-9]*')
    if pattern == path and '*' not in path:
        return os.path.exists(os.path.join(root, path))
    return bool(glob.glob(os.path.join(root, pattern)))


def registered_tests(path):
    """The test names registered in a C or Python test source; None for
    any other file (a fuzz input, a data file: it holds no tests)."""
    if not path.endswith(('.c', '.py')):
        return None
    with open(path, encoding='utf-8') as f:
        src = f.read()
    if path.endswith('.py'):
        return set(re.findall(r'^[ \t]*def\s+(\w+)\s*\(', src, re.MULTILINE))
    return set(re.findall(r'cmocka_unit_test\w*\(\s*(\w+)', src))


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), '..'))
    docs = [os.path.join(root, 'README.md')]
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, 'docs')):
        dirnames.sort()
        docs += [os.path.join(dirpath, n) for n in sorted(filenames) if n.endswith('.md')]
    errors, total, cache = [], 0, {}
    for doc in docs:
        if not os.path.isfile(doc):
            continue
        rel = os.path.relpath(doc, root)
        with open(doc, encoding='utf-8') as f:
            text = strip_fences(f.read())
        for line, path in cited_paths(text):
            if not path_exists(root, path):
                errors.append('%s:%d: cited path %s does not exist' % (rel, line, path))
        for line, test_file, name in citations(text):
            total += 1
            path = os.path.join(root, test_file)
            if test_file not in cache:
                cache[test_file] = registered_tests(path) if os.path.isfile(path) else None
            tests = cache[test_file]
            if tests is None and os.path.isfile(path):
                errors.append('%s:%d: %s is cited as holding the test %s but is not a test '
                              'source (.c or .py)' % (rel, line, test_file, name))
            elif tests is None:
                errors.append('%s:%d: cited test file %s does not exist' % (rel, line, test_file))
            elif name not in tests:
                errors.append('%s:%d: %s has no registered test %s' % (rel, line, test_file, name))
    if total < MIN_CITATIONS:
        errors.append('only %d cited tests found (expected at least %d): did the citation '
                      'format change?' % (total, MIN_CITATIONS))
    for e in errors:
        print(e)
    print('check_doc_tests: %d cited tests in %d files, %d problems'
          % (total, len(cache), len(errors)))
    return 1 if errors else 0


# (text, the (file, test) pairs citations() must find in it)
SAMPLES = [
    ('`tests/a.c`, `one` and `two`; `tests/b.py`, `three`',
     [('tests/a.c', 'one'), ('tests/a.c', 'two'), ('tests/b.py', 'three')]),
    # a list inside parentheses, with a comment of its own
    ('it holds (`tests/a.c`, `one` (the `skipped` case) and `two`).',
     [('tests/a.c', 'one'), ('tests/a.c', 'two')]),
    # the list ends where its parenthesis closes
    ('(`tests/a.c`, `one`), `not_a_test`', [('tests/a.c', 'one')]),
    # words between end a list; a name before a path is not its test
    ('`tests/a.c` runs, `not_a_test`', []),
    ('(`f` of `tests/a.sh`; the Python one `g` of `tests/b.py`)', []),
    # a blank line closes an unclosed parenthesis
    ('(`tests/a.c`, `one`\n\n`tests/b.c`, `two`', [('tests/a.c', 'one'), ('tests/b.c', 'two')]),
]


def self_test():
    bad = 0
    for text, want in SAMPLES:
        got = [(f, t) for _, f, t in citations(text)]
        if got != want:
            bad += 1
            print('citations(%r) = %r, expected %r' % (text, got, want))
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    for path, want in [('tests/check_doc_tests.py', True), ('tests/test_lessonN.c', True),
                       ('tests/test_lesson*.c', True), ('tests/no_such_file.c', False),
                       ('tests/test_lessonN_no_such_topic.c', False)]:
        if path_exists(here, path) != want:
            bad += 1
            print('path_exists(%r) is not %r' % (path, want))
    print('check_doc_tests self-test: %d samples, %d wrong' % (len(SAMPLES) + 5, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(self_test() if sys.argv[1:] == ['--self-test'] else main())
