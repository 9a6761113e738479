#!/usr/bin/env python3
"""check_render_architecture.py: docs/architecture.md's map of the renderer
against the code.

    python3 tests/check_render_architecture.py [SOURCE_ROOT]

The section "The renderer: rooms and phases" has a table of the files of
src/render/, top to bottom, each marked GL yes or no. Checked here:
- every .c file of src/render/ is a row, and every row is a file;
- the rows marked GL are exactly the files under src/ that call a gl*
  function (comments and strings left out), and the folder table's
  src/render row names only files marked no as plain data;
- a file calls only functions of files below it in the table (no call
  circle, e.g. model.c and render.c calling each other);
- render_internal.h lists the rooms in the table's order;
- the "A new renderer pass or command" steps name render_pick_list and
  submit.c, and the files they name exist.
"""
import os
import re
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))

SECTION = '## The renderer: rooms and phases'
ROW = re.compile(r'^\|\s*`([\w.]+\.c)`\s*\|.*\|\s*(yes|no)\s*\|\s*$')
GL_CALL = re.compile(r'\bgl[A-Z]\w*\s*\(')
CALL = re.compile(r'\b([A-Za-z_]\w*)\s*\(')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'do', 'else', 'case'}
# comments, string and character literals (so that a gl* in a comment or a
# message is not a call)
TOKENS = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.DOTALL)


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def code_only(text):
    """The C source with comments and literals blanked (newlines kept)."""
    return TOKENS.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text)


def definitions(code):
    """(name, is_static) of every function defined at file level in code."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(code):
        if ch == '{':
            if depth == 0:
                head = code[start:i]
                m = re.search(r'\b([A-Za-z_]\w*)\s*\([^;{}]*\)\s*$', head)
                if m and '=' not in head and not re.search(r'\b(struct|enum|union)\s+\w*\s*$', head):
                    out.append((m.group(1), re.match(r'\s*static\b', head) is not None))
            depth += 1
        elif ch == '}':
            depth -= 1
            if depth == 0:
                start = i + 1
        elif ch == ';' and depth == 0:
            start = i + 1
        elif ch == '#' and depth == 0 and (i == 0 or code[i - 1] == '\n'):
            start = code.find('\n', i) + 1 or len(code)     # a preprocessor line
    return out


def doc_table(doc):
    """[(file, uses_gl)] of the rooms table, in its order."""
    start = doc.index(SECTION)
    end = doc.find('\n## ', start + 1)
    rows = []
    for line in doc[start:end if end >= 0 else len(doc)].splitlines():
        m = ROW.match(line)
        if m:
            rows.append((m.group(1), m.group(2) == 'yes'))
    return rows


class RenderArchitecture(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.doc = read(os.path.join(ROOT, 'docs', 'architecture.md'))
        cls.render_dir = os.path.join(ROOT, 'src', 'render')
        cls.table = doc_table(cls.doc)
        cls.order = [name for name, _ in cls.table]
        cls.code = {}
        for name in sorted(os.listdir(cls.render_dir)):
            if name.endswith('.c'):
                cls.code[name] = code_only(read(os.path.join(cls.render_dir, name)))

    def test_the_table_has_every_file_once(self):
        self.assertGreater(len(self.table), 10, 'the rooms table was not found')
        self.assertEqual(len(self.order), len(set(self.order)), 'a file is listed twice')
        self.assertEqual(sorted(self.order), sorted(self.code),
                         'the rooms table and the .c files of src/render/ differ')

    def test_the_files_marked_gl_are_those_that_call_gl(self):
        calling = set()
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, 'src')):
            dirnames.sort()
            for name in filenames:
                if name.endswith(('.c', '.h')):
                    path = os.path.join(dirpath, name)
                    if GL_CALL.search(code_only(read(path))):
                        calling.add(os.path.relpath(path, ROOT).replace(os.sep, '/'))
        marked = {'src/render/' + name for name, gl in self.table if gl}
        self.assertEqual(sorted(calling), sorted(marked),
                         'files that call gl* functions vs the files the table marks GL')

    def test_the_folder_rows_plain_data_files_call_no_gl(self):
        row = next(line for line in self.doc.splitlines() if line.startswith('| `src/render/` |'))
        plain = row.split('(plain data')[0]
        named = set()
        for stem, exts in re.findall(r'`(\w+)\.(?:\{([\w,]+)\}|c)`', plain):
            if not exts or 'c' in exts.split(','):
                named.add(stem + '.c')
        self.assertTrue(named, 'the src/render row names no plain-data file')
        gl = dict(self.table)
        for name in sorted(named):
            self.assertIn(name, gl, name + ' is named plain data but is not in the rooms table')
            self.assertFalse(gl[name], name + ' is named plain data but the table marks it GL')

    def test_calls_go_down_the_table(self):
        rank = {name: i for i, name in enumerate(self.order)}
        defined_in = {}
        own = {}
        for name, code in self.code.items():
            defs = definitions(code)
            own[name] = {f for f, _ in defs}
            for f, is_static in defs:
                if not is_static:   # (one file may define it once per #if branch)
                    self.assertIn(defined_in.setdefault(f, name), (name,), f + ' is defined in two files')
        self.assertIn('render_submit', defined_in, 'the definitions were not found')
        self.assertIn('render_pick_list', defined_in, 'the definitions were not found')
        upward = []
        for name, code in sorted(self.code.items()):
            for f in sorted(set(CALL.findall(code)) - KEYWORDS - own[name]):
                callee = defined_in.get(f)
                if callee and rank.get(callee, -1) <= rank.get(name, -1):
                    upward.append('%s calls %s() of %s, which is not below it' % (name, f, callee))
        self.assertEqual(upward, [])

    def test_render_internal_h_lists_the_same_order(self):
        header = read(os.path.join(self.render_dir, 'render_internal.h'))
        comment = header[:header.index('*/')]
        listed = re.findall(r'^\s+(\w+\.c)\s{2,}', comment, re.MULTILINE)
        self.assertEqual(listed, self.order)

    def test_new_command_steps_name_the_pick_list(self):
        m = re.search(r'^- \*\*A new renderer pass or command\*\*(.*?)(?=^- \*\*|^#|\Z)', self.doc,
                      re.MULTILINE | re.DOTALL)
        self.assertIsNotNone(m, 'the "A new renderer pass or command" steps were not found')
        steps = m.group(1)
        for must in ('`render_pick_list`', '`submit.c`', '`pick.c`'):
            self.assertIn(must, steps)
        for path in re.findall(r'`((?:tests|src|shaders)/[\w/.]+)`', steps):
            self.assertTrue(os.path.exists(os.path.join(ROOT, path)), path + ' does not exist')
        for name in re.findall(r'`(\w+\.[ch])`', steps):
            self.assertTrue(os.path.exists(os.path.join(self.render_dir, name)), name + ' is not in src/render')


if __name__ == '__main__':
    if len(sys.argv) > 1 and not sys.argv[1].startswith('-'):
        ROOT = os.path.abspath(sys.argv.pop(1))
    unittest.main()
