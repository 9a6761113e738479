#!/usr/bin/env python3
"""listing2c.py: a lesson's listing (src/lessons/listings/NAME.c) as the
text the code panel shows, embedded into the program at build time.

    python3 listing2c.py OUT.c LISTING.c [ROOT]   the C table (src/lessons/listing.h)
    python3 listing2c.py --print LISTING.c        the shown text, numbered as on screen

What is shown: the lines strictly between the line holding "LISTING BEGIN"
and the line holding "LISTING END", without the lesson's instrumentation:
every statement whose first word starts with LISTING_ (it may run over
several lines: until its parentheses close and a line ends in ';'). Each
source line gets the display line it stands for: a shown line its own, an
instrumentation line the nearest shown line above it (below it when none is
above), a line outside the shown part 0. A step recorded at __LINE__ then
lights the code it follows, whatever line __LINE__ names in a statement
spread over several lines. "The shown line above" is the first line of
its statement: a line continuing the one before it (that one ends in
neither ';', '{' nor '}', is no comment, blank or preprocessor line, and
is no if/else/for/while/do head whose parentheses are closed) gives way to
it. An instrumentation statement in the body of a plain `else` stands for
the `if` (or `else if`) head whose condition sent the program there: its
braced body's opening line, found by counting braces upwards.

Errors (no markers, an instrumentation statement that never ends, a
listing of more than 65535 lines) stop the build with FILE:LINE.
"""
import os
import sys


class ListingError(Exception):
    pass


def parse(path):
    """(shown, table): shown = [(source line, text)], table[source line] =
    display line (index 0 unused)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    begin = [i for i, s in enumerate(lines) if "LISTING BEGIN" in s]
    end = [i for i, s in enumerate(lines) if "LISTING END" in s]
    if len(begin) != 1 or len(end) != 1 or end[0] <= begin[0]:
        raise ListingError("%s: needs one line with LISTING BEGIN and one with LISTING END after it" % path)
    if len(lines) > 65535:
        raise ListingError("%s: more than 65535 lines" % path)
    hidden = set()
    i = begin[0] + 1
    while i < end[0]:
        if lines[i].strip().startswith("LISTING_"):
            start, depth = i, 0
            while True:
                if i >= end[0]:
                    raise ListingError("%s:%d: this LISTING_ statement never ends (no ';' after its ')')"
                                       % (path, start + 1))
                code = lines[i].split("//")[0]
                depth += code.count("(") - code.count(")")
                hidden.add(i)
                if depth <= 0 and code.rstrip().endswith(";"):
                    break
                i += 1
        i += 1
    shown, display = [], [0] * (len(lines) + 1)
    for i in range(begin[0] + 1, end[0]):
        if i not in hidden:
            shown.append((i + 1, lines[i].rstrip()))
            display[i + 1] = len(shown)
    if not shown:
        raise ListingError("%s: nothing to show between LISTING BEGIN and LISTING END" % path)
    texts = [text.strip() for _, text in shown]

    def statement_start(n):
        """the display line where the statement shown at line n begins"""
        while n > 1:
            above = texts[n - 2]
            ends = not above or above.endswith((";", "{", "}")) or above.startswith(("//", "/*", "*", "#"))
            code = above.split("//")[0]
            head = (code.split("(")[0].strip() in ("if", "} else if", "else if", "for", "while", "switch") and
                    code.count("(") <= code.count(")")) or above in ("else", "do")
            if ends or head:
                break
            n -= 1
        return n

    def condition_of_else(n):
        """for display line n holding a plain else ("} else {", "else {",
        "else"), the line where the if whose condition chose it begins: the
        line opening the braced body the else follows; n itself otherwise"""
        text = texts[n - 1].split("//")[0].strip()
        if text not in ("} else {", "}else{", "} else", "else {", "else"):
            return n
        j = n if text.startswith("}") else n - 1
        if j < 1 or not texts[j - 1].split("//")[0].strip().startswith("}"):
            return n
        depth = 0
        while j >= 1:
            code = texts[j - 1].split("//")[0]
            # right to left: on an "} else if (c) {" line its '{' opens the body first
            for ch in reversed(code if j != n else code[:code.index("}") + 1]):
                depth += 1 if ch == "}" else -1 if ch == "{" else 0
                if depth == 0:
                    return statement_start(j)
            j -= 1
        return n

    # instrumentation: the nearest shown statement above (an else's: its
    # if's condition), else below
    last = 0
    for i in range(begin[0] + 1, end[0]):
        if i in hidden:
            display[i + 1] = last
        else:
            last = condition_of_else(statement_start(display[i + 1]))
    nxt = 0
    for i in reversed(range(begin[0] + 1, end[0])):
        if i in hidden and display[i + 1] == 0:
            display[i + 1] = nxt
        elif i not in hidden:
            nxt = display[i + 1]
    return shown, display


def c_string(text):
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\t":
            out.append("    ")
        elif ord(ch) < 32:
            raise ListingError("a control character in the listing")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def write_c(out_path, path, root):
    shown, display = parse(path)
    name = os.path.splitext(os.path.basename(path))[0]
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root)) if root else os.path.basename(path)
    rel = rel.replace(os.sep, "/")
    body = ["/* generated by src/lessons/listings/listing2c.py from %s: do not edit */" % rel,
            '#include "listing.h"', "",
            "static const char *const lines[] = {"]
    body += ["    %s," % c_string(text) for _, text in shown]
    body += ["};", "", "static const unsigned short display_of_source[] = {"]
    for k in range(0, len(display), 16):
        body.append("    " + ", ".join(str(v) for v in display[k:k + 16]) + ",")
    body += ["};", "",
             "const listing listing_%s = {" % name,
             '    "%s", "%s", %d, lines, %d, display_of_source,' % (name, rel, len(shown), len(display) - 1),
             "};", ""]
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(body))


def main(argv):
    try:
        if len(argv) == 3 and argv[1] == "--print":
            shown, _ = parse(argv[2])
            width = len(str(len(shown)))
            for n, (_, text) in enumerate(shown, 1):
                print(("%*d  %s" % (width, n, text)).rstrip())
            return 0
        if len(argv) in (3, 4):
            write_c(argv[1], argv[2], argv[3] if len(argv) == 4 else None)
            return 0
    except (ListingError, OSError) as e:
        print("listing2c.py: %s" % e, file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
