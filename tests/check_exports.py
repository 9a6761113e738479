#!/usr/bin/env python3
"""The shared library exports exactly its public API, and every public
declaration is marked RP_API.

    check_exports.py NM LIBRARY INCLUDE_DIR

Fails when `nm -D --defined-only LIBRARY` lists a function that no header
in INCLUDE_DIR declares with RP_API (an internal leaking out, e.g. rp_hm_*),
when a function a header declares is not marked RP_API (it would vanish
from the library under hidden visibility), or when the library exports
nothing at all (the check would then prove nothing). A declared function
the library does not define yet is reported but allowed: headers may run
ahead of sources while the contract is implemented in parallel branches.
"""
import pathlib
import re
import subprocess
import sys

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
# A function declaration at file scope: return type words, the name, "(".
DECL = re.compile(r"^(?P<head>[A-Za-z_][\w\s\*]*?)\b(?P<name>rp_\w+)\s*\(", re.S)


def declarations(include_dir):
    """{name: marked_rp_api} for every function the headers declare."""
    found = {}
    for header in sorted(pathlib.Path(include_dir).glob("*.h")):
        text = COMMENT.sub(" ", header.read_text())
        # preprocessor lines (macros, guards, extern "C") are not declarations
        text = re.sub(r"^\s*#(?:[^\n]*\\\n)*[^\n]*", " ", text, flags=re.M)
        for stmt in re.split(r"[;{}]", text):
            stmt = stmt.strip()
            m = DECL.match(stmt)
            if not m or m.group("head").split()[0] in ("typedef", "return"):
                continue
            found[m.group("name")] = "RP_API" in m.group("head").split()
    return found


def exported(nm, library):
    out = subprocess.run([nm, "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        fields = line.split()
        # "address type name": functions (T, W, i) and data (D, B, R) alike;
        # a variable leaking out is as wrong as a function
        if len(fields) == 3:
            names.add(fields[2].split("@")[0])
    # the C runtime's own (_init, _fini) are not ours
    return {n for n in names if n not in ("_init", "_fini")}


def main():
    nm, library, include_dir = sys.argv[1:4]
    decls = declarations(include_dir)
    public = {n for n, marked in decls.items() if marked}
    unmarked = sorted(n for n, marked in decls.items() if not marked)
    exports = exported(nm, library)
    leaked = sorted(exports - public)
    missing = sorted(public - exports)

    print(f"{len(exports)} functions exported, {len(public)} declared with RP_API")
    for name in missing:
        print(f"declared, not (yet) defined: {name}")
    problems = []
    if not exports:
        problems.append("the library exports no function at all")
    if not public:
        problems.append(f"no RP_API declaration found under {include_dir}")
    problems += [f"exported but not a public declaration: {n}" for n in leaked]
    problems += [f"declared without RP_API: {n}" for n in unmarked]
    for p in problems:
        print("FAIL", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
