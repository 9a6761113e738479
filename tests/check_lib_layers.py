#!/usr/bin/env python3
"""check_lib_layers.py: the library's sources keep their layering.

    python3 tests/check_lib_layers.py [SOURCE_ROOT]

docs/architecture.md ("Inside the library") promises three things that a
later edit could quietly break; this fails, naming the file, when one is:
- no #include circle among src/lib's files;
- the BVH layers (bvh*.c, bvh*.h) include nothing of the walks above them
  (mesh*, scene*), and mesh_bvh.{c,h} nothing of the mesh itself
  (mesh_internal.h);
- src/lib/simd.h alone decides the SIMD paths: no other library file
  tests the compiler's SIMD macros, includes an intrinsics header, or
  uses a per-function target attribute or CPU check (simd.c, its other
  half, asks cpuid).
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
SIMD_DECISIONS = re.compile(
    r'__SSE\w*__|__AVX\w*__|_M_X64|_M_IX86_FP|[a-z]mmintrin\.h|__builtin_cpu_supports'
    r'|target\s*\(\s*"|__cpuid')


def strip_comments(text):
    """The text without C comments (so a comment may name a macro)."""
    text = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
    lib = os.path.join(root, 'src', 'lib')
    names = sorted(f for f in os.listdir(lib) if f.endswith(('.c', '.h')))
    code = {f: strip_comments(open(os.path.join(lib, f), encoding='utf-8').read()) for f in names}
    includes = {f: [i for i in INCLUDE.findall(code[f]) if i in code] for f in names}
    problems = []

    done = set()

    def walk(f, path):
        """Depth first; a file met again on the current path closes a circle."""
        for i in includes[f]:
            if i in path:
                problems.append('include circle: ' + ' -> '.join(path[path.index(i):] + [i]))
            elif i not in done:
                walk(i, path + [i])
        done.add(f)

    for f in names:
        if f not in done:
            walk(f, [f])
    for f in names:
        for i in includes[f]:
            if f.startswith('bvh') and i.startswith(('mesh', 'scene')):
                problems.append(f'{f} includes {i}: the BVH layers sit below the walks')
            if f.startswith('mesh_bvh') and i == 'mesh_internal.h':
                problems.append(f'{f} includes {i}: the mesh BVH knows nothing of rp_mesh')
    if 'simd.h' not in code:
        problems.append('src/lib/simd.h is missing')
    for f in names:
        if f in ('simd.h', 'simd.c'):
            continue
        for m in SIMD_DECISIONS.finditer(code[f]):
            line = code[f].count('\n', 0, m.start()) + 1
            problems.append(f'src/lib/{f}:{line}: {m.group(0)} outside simd.h')
    for p in problems:
        print(p)
    print(f'{len(names)} files checked, {len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
