#!/usr/bin/env python3
"""check_macos.py: what macOS asks of the code, checked on Linux.

    python3 tests/check_macos.py [SOURCE_ROOT]

docs/platforms.md ("macOS: the checklist") lists what Apple's platform
needs; the points that can be read from the sources are held here, and
this fails naming the file when one breaks:

- OpenGL 4.1 core is Apple's ceiling: every shader says `#version NNN
  core` with NNN <= 410; the GL loader (subprojects/glad) was generated
  for a core version <= 4.1, so nothing newer can even be called; every
  desktop context request asks for <= 4.1;
- core profile, forward compatible: every file that asks SDL for a
  desktop context asks for the core profile (macOS gives 2.1 otherwise)
  and sets the forward-compatible flag;
- extensions Apple lacks (GL_KHR_debug) are used only behind their
  GLAD_GL_* check;
- Retina: the window is created with SDL_WINDOW_ALLOW_HIGHDPI and the
  renderer sizes itself by SDL_GL_GetDrawableSize (the pixel mapping at
  2x is tests/test_window_pixels.c's);
- case-insensitive file systems: no two files of the tree differ only in
  case, and every quoted #include names its file with the file's own case.
"""
import os
import re
import sys

CEILING = (4, 1)
SKIP_DIRS = {'.git', '__pycache__'}
CODE_DIRS = ['src', 'tests', 'bench', 'docs/examples']
KHR_DEBUG_CALLS = re.compile(r'\bgl(DebugMessage\w+|ObjectLabel|ObjectPtrLabel|PushDebugGroup|'
                             r'PopDebugGroup|GetDebugMessageLog|GetObjectLabel)\s*\(')
VERSION_LINE = re.compile(r'^\s*#\s*version\s+(\d+)(?:\s+(\w+))?')
SET_ATTR = re.compile(r'SDL_GL_SetAttribute\s*\(\s*SDL_GL_CONTEXT_(MAJOR|MINOR)_VERSION\s*,\s*(\d+)\s*\)')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def tracked_files(root):
    """Every file under root but build folders, git's and downloads."""
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        top = rel.split(os.sep)[0]
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not (
            rel == '.' and (d.startswith('build') or d in ('out',)))]
        if top == 'subprojects' and rel != 'subprojects' and not rel.startswith(
                os.path.join('subprojects', 'glad')):
            dirnames[:] = []
            continue
        for f in filenames:
            yield os.path.normpath(os.path.join(rel, f))


def code_files(root):
    for d in CODE_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, d)):
            dirnames[:] = [x for x in dirnames if x not in SKIP_DIRS]
            for f in filenames:
                if f.endswith(('.c', '.h')):
                    yield os.path.join(dirpath, f)


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def desktop_part(text):
    """The text without its __EMSCRIPTEN__ branches (WebGL asks for ES)."""
    out, skip, depth = [], False, 0
    for line in text.split('\n'):
        s = line.strip()
        if re.match(r'#\s*if(def)?\b.*__EMSCRIPTEN__', s) and not re.match(r'#\s*ifndef', s):
            skip, depth = True, 1
            continue
        if skip:
            if re.match(r'#\s*if', s):
                depth += 1
            elif re.match(r'#\s*endif', s):
                depth -= 1
                if depth == 0:
                    skip = False
            elif depth == 1 and re.match(r'#\s*(else|elif)', s):
                skip = False
            continue
        out.append(line)
    return '\n'.join(out)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
    problems = []

    # shaders: #version <= 410 core
    shaders = sorted(f for f in os.listdir(os.path.join(root, 'shaders'))
                     if f.endswith(('.vert', '.frag', '.geom', '.glsl')))
    if not shaders:
        problems.append('shaders/: no shader found')
    for f in shaders:
        lines = open(os.path.join(root, 'shaders', f), encoding='utf-8').read().split('\n')
        m = next((VERSION_LINE.match(l) for l in lines if VERSION_LINE.match(l)), None)
        if m is None:
            problems.append(f'shaders/{f}: no #version line')
        elif int(m.group(1)) > 410 or m.group(2) != 'core':
            problems.append(f'shaders/{f}: #version {m.group(1)} {m.group(2) or ""}: '
                            'macOS runs GLSL up to 410 core')

    # glad: generated for core <= 4.1
    glad_h = os.path.join(root, 'subprojects', 'glad', 'include', 'glad', 'gl.h')
    text = open(glad_h, encoding='utf-8').read()
    m = re.search(r"--api='gl:core=(\d+)\.(\d+)'", text)
    if m is None:
        problems.append('subprojects/glad/include/glad/gl.h: no gl:core=X.Y in its generator line')
    elif (int(m.group(1)), int(m.group(2))) > CEILING:
        problems.append(f'glad was generated for GL {m.group(1)}.{m.group(2)}: above 4.1')

    # context requests, and what extensions need
    highdpi = drawable = False
    for path in code_files(root):
        rel = os.path.relpath(path, root)
        code = strip_comments(open(path, encoding='utf-8').read())
        desk = desktop_part(code)
        asks = SET_ATTR.findall(desk)
        if asks:
            major = max(int(v) for k, v in asks if k == 'MAJOR')
            minors = [int(v) for k, v in asks if k == 'MINOR']
            minor = max(minors) if minors else 0
            if (major, minor) > CEILING:
                problems.append(f'{rel}: asks for OpenGL {major}.{minor}: macOS stops at 4.1')
            if 'SDL_GL_CONTEXT_PROFILE_CORE' not in desk:
                problems.append(f'{rel}: asks for OpenGL {major}.{minor} without the core '
                                'profile (macOS gives 2.1)')
            if 'SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG' not in desk:
                problems.append(f'{rel}: a core context without the forward-compatible flag')
        if KHR_DEBUG_CALLS.search(code) and 'GLAD_GL_KHR_debug' not in code:
            problems.append(f'{rel}: calls GL_KHR_debug (not on macOS) without checking '
                            'GLAD_GL_KHR_debug')
        if rel.startswith(os.path.join('src', 'app')):
            highdpi |= 'SDL_WINDOW_ALLOW_HIGHDPI' in code
            drawable |= 'SDL_GL_GetDrawableSize' in code
    if not highdpi:
        problems.append('src/app: no window asks for SDL_WINDOW_ALLOW_HIGHDPI (Retina)')
    if not drawable:
        problems.append('src/app: nothing reads SDL_GL_GetDrawableSize (Retina pixels)')

    # case-insensitive file systems
    seen = {}
    files = list(tracked_files(root))
    for f in files:
        key = f.lower()
        if key in seen and seen[key] != f:
            problems.append(f'{f} and {seen[key]} differ only in case')
        seen.setdefault(key, f)
    posix = [f.replace(os.sep, '/') for f in files]
    for path in code_files(root):
        rel = os.path.relpath(path, root)
        for inc in INCLUDE.findall(strip_comments(open(path, encoding='utf-8').read())):
            inc = os.path.normpath(inc).replace(os.sep, '/').lstrip('./')
            exact = [f for f in posix if f == inc or f.endswith('/' + inc)]
            folded = [f for f in posix if f.lower() == inc.lower() or f.lower().endswith('/' + inc.lower())]
            if folded and not exact:
                problems.append(f'{rel}: #include "{inc}" matches {folded[0]} only when case is ignored')

    for p in problems:
        print(p)
    print(f'{len(shaders)} shaders, {len(files)} files checked, {len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
