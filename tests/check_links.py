#!/usr/bin/env python3
"""check_links.py: every relative link and image in README.md and docs/**/*.md
points at a file or directory that exists.

    python3 tests/check_links.py [SOURCE_ROOT]

Checks Markdown links [text](target), images ![alt](target), reference
definitions [name]: target, and HTML <img src="..."> / <a href="...">.
Skips absolute URLs (http:, https:, mailto:, ...) and text inside fenced or
inline code. A target with a #fragment is checked without the fragment;
a bare #fragment must name a heading of the same file. Every page under
docs/ must be reachable from README.md by following links (a directory
link reaches the pages in it).
Exits 1 and lists every broken link and unreachable page when one is found.
"""
import os
import re
import sys

# the "](target)" that ends every inline link or image, nested ones included
INLINE = re.compile(r'\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
REFDEF = re.compile(r'^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$')
HTML = re.compile(r'<(?:img|a)\b[^>]*?\b(?:src|href)\s*=\s*"([^"]+)"', re.IGNORECASE)
SCHEME = re.compile(r'^[a-zA-Z][a-zA-Z0-9+.-]*:')
FENCE = re.compile(r'^\s{0,3}(```|~~~)')
INLINE_CODE = re.compile(r'`+[^`]*`+')


def markdown_files(root):
    files = [os.path.join(root, 'README.md')]
    docs = os.path.join(root, 'docs')
    for dirpath, dirnames, filenames in os.walk(docs):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith('.md'):
                files.append(os.path.join(dirpath, name))
    return [f for f in files if os.path.isfile(f)]


def github_anchor(heading):
    """GitHub's heading id: lower case, punctuation dropped, spaces to '-'."""
    text = INLINE_CODE.sub(lambda m: m.group(0).strip('`'), heading.strip())
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', text)   # links: keep text
    text = text.lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def scan(path):
    """(line number, target) of every link outside code, and the anchors."""
    links, anchors = [], set()
    seen = {}
    in_fence = False
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            heading = re.match(r'^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$', line)
            if heading:
                anchor = github_anchor(heading.group(1))
                count = seen.get(anchor, 0)
                seen[anchor] = count + 1
                anchors.add(anchor if count == 0 else '%s-%d' % (anchor, count))
            text = INLINE_CODE.sub('', line)
            for pattern in (INLINE, HTML):
                for m in pattern.finditer(text):
                    links.append((number, m.group(1)))
            m = REFDEF.match(text)
            if m:
                links.append((number, m.group(1)))
    return links, anchors


def reachable(root, edges):
    """Pages reached from README.md by following links; a link to a folder
    reaches the pages directly in it."""
    start = os.path.join(root, 'README.md')
    seen, todo = {start}, [start]
    while todo:
        for target in edges.get(todo.pop(), ()):
            pages = [target]
            if os.path.isdir(target):
                pages = [os.path.join(target, n) for n in os.listdir(target) if n.endswith('.md')]
            for page in pages:
                if page not in seen:
                    seen.add(page)
                    todo.append(page)
    return seen


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), '..'))
    files = markdown_files(root)
    if not files:
        print('check_links: no README.md or docs/*.md under %s' % root)
        return 1
    anchors_of = {}
    broken = []
    edges = {}       # page -> the files and folders it links to
    checked = 0
    scans = {path: scan(path) for path in files}
    for path, (_, anchors) in scans.items():
        anchors_of[os.path.normpath(path)] = anchors
    for path, (links, _) in scans.items():
        rel = os.path.relpath(path, root)
        for number, target in links:
            if SCHEME.match(target) or target.startswith('//'):
                continue
            checked += 1
            file_part, _, fragment = target.partition('#')
            if not file_part:
                if fragment and fragment not in anchors_of[os.path.normpath(path)]:
                    broken.append('%s:%d: no heading for #%s' % (rel, number, fragment))
                continue
            if file_part.startswith('/'):
                resolved = os.path.join(root, file_part.lstrip('/'))
            else:
                resolved = os.path.join(os.path.dirname(path), file_part)
            resolved = os.path.normpath(resolved)
            edges.setdefault(os.path.normpath(path), set()).add(resolved)
            if not os.path.exists(resolved):
                broken.append('%s:%d: %s does not exist' % (rel, number, target))
            elif fragment and resolved in anchors_of and fragment not in anchors_of[resolved]:
                broken.append('%s:%d: %s has no heading for #%s' % (rel, number, file_part, fragment))
    reached = reachable(root, edges)
    unreachable = [os.path.relpath(p, root) for p in files
                   if os.path.normpath(p) not in reached]
    for line in broken:
        print(line)
    for page in unreachable:
        print('%s: not reachable from README.md by its links' % page)
    print('check_links: %d files, %d relative links, %d broken, %d pages unreachable'
          % (len(files), checked, len(broken), len(unreachable)))
    return 1 if broken or unreachable else 0


if __name__ == '__main__':
    sys.exit(main())
