#!/usr/bin/env python3
"""check_readme_example.py: code quoted in the Markdown docs is the code that
is compiled and tested.

    python3 tests/check_readme_example.py [SOURCE_ROOT]

In README.md and docs/**/*.md, a line

    <!-- quote: docs/examples/pick_nearest.c -->

must be followed (blank lines allowed) by a fenced code block whose content
equals that file byte for byte. The path is relative to the source root.
README.md must quote at least one file, so deleting the marker fails too.
"""
import os
import re
import sys

MARKER = re.compile(r'^<!--\s*quote:\s*(\S+)\s*-->\s*$')
FENCE = re.compile(r'^(```|~~~)')


def quoted_blocks(path):
    """(line number, quoted file, block text or None) for every marker."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    found = []
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        start = i + 1
        j = start
        while j < len(lines) and not lines[j].strip():
            j += 1
        fence = FENCE.match(lines[j]) if j < len(lines) else None
        if not fence:
            found.append((start, m.group(1), None))
            i = j
            continue
        k = j + 1
        while k < len(lines) and not lines[k].startswith(fence.group(1)):
            k += 1
        found.append((start, m.group(1), '\n'.join(lines[j + 1:k]) + '\n'))
        i = k + 1
    return found


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), '..'))
    docs = [os.path.join(root, 'README.md')]
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, 'docs')):
        dirnames.sort()
        docs += [os.path.join(dirpath, n) for n in sorted(filenames) if n.endswith('.md')]
    errors = []
    quotes = 0
    readme_quotes = 0
    for doc in docs:
        if not os.path.isfile(doc):
            continue
        rel = os.path.relpath(doc, root)
        for line, target, block in quoted_blocks(doc):
            quotes += 1
            if doc.endswith(os.sep + 'README.md') and os.path.dirname(doc) == root:
                readme_quotes += 1
            source = os.path.join(root, target)
            if block is None:
                errors.append('%s:%d: no fenced code block after the quote of %s'
                              % (rel, line, target))
                continue
            if not os.path.isfile(source):
                errors.append('%s:%d: quoted file %s does not exist' % (rel, line, target))
                continue
            with open(source, encoding='utf-8') as f:
                text = f.read()
            if block != text:
                a, b = block.split('\n'), text.split('\n')
                n = next((n for n, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                errors.append('%s:%d: the block differs from %s at its line %d:\n  doc:  %r\n  file: %r'
                              % (rel, line, target, n + 1,
                                 a[n] if n < len(a) else '<end>', b[n] if n < len(b) else '<end>'))
    if readme_quotes == 0:
        errors.append('README.md: no <!-- quote: FILE --> marker: the example is not checked')
    for e in errors:
        print(e)
    print('check_readme_example: %d quoted blocks, %d problems' % (quotes, len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
