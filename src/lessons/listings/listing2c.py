#!/usr/bin/env python3
"""listing2c.py: a lesson's listing (src/lessons/listings/NAME.c) as the
text the code panel shows, embedded into the program at build time.

    python3 listing2c.py OUT.c LISTING.c [ROOT]   the C table (src/lessons/listing.h)
    python3 listing2c.py --print LISTING.c        the shown text, numbered as on screen
    python3 listing2c.py --pot LISTING.c...       the comments' catalogue entries (below)
    python3 listing2c.py --sync-po PO_DIR LISTING.c...
                                                  writes them into PO_DIR's raypick.pot and
                                                  each LANG.po (po/README.md)

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

The comments of the shown part are translated (po/README.md, "The
listings' comments"): each comment is a catalogue entry, its id
listing.NAME.comment.K (K counts the shown part's comments from 1), its
English text the comment's lines after "// ", one a line. A comment is
one "//" comment after code, or a run of lines holding only a "//"
comment, indented alike. The C table gives each display line its
comment's id and which of its lines it is; the code panel replaces the
text after "// " by that line of the translation and leaves the code as
it is. "/* */" comments are refused in the shown part (their text could
not be translated line by line).

Errors (no markers, a "/*" comment in the shown part, an instrumentation statement that never ends, a
listing of more than 65535 lines) stop the build with FILE:LINE.
"""
import os
import sys
import unicodedata


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


def comment_start(text, where):
    """The index of the "//" starting text's comment, None when it has none
    (a "//" inside a string or character literal is no comment). A "/*"
    comment is refused."""
    quote, i = None, 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif text.startswith("//", i):
            return i
        elif text.startswith("/*", i):
            raise ListingError("%s: a /* */ comment in the shown part: write it as // lines, so that "
                               "it can be translated (po/README.md)" % where)
        i += 1
    return None


def display_width(text):
    """Columns text takes on screen: an ideograph (East Asian wide or
    full-width) two, anything else one."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def comments(path, shown, name):
    """The shown part's comments: a list of dicts with id, lines (a list of
    (display line, column, text): the line's comment text starts at column
    (characters, tabs as 4 spaces), after "//" and one space), bytes (each
    line's column in UTF-8 bytes, as the C table counts), room (the
    columns its lines may take: the listing's widest line less the
    column)."""
    shown = [(source, text.replace("\t", "    ")) for source, text in shown]     # as c_string writes it
    out, widest = [], max(display_width(text) for _, text in shown)
    for n, (source, text) in enumerate(shown, 1):
        at = comment_start(text, "%s:%d" % (path, source))
        if at is None:
            continue
        column = at + 2 + (1 if text[at + 2:at + 3] == " " else 0)
        only = not text[:at].strip()
        last = out[-1] if out else None
        if (only and last and last["only"] and last["lines"][-1][0] == n - 1 and
                last["indent"] == text[:at]):
            last["lines"].append((n, column, text[column:]))
        else:
            out.append({"id": "listing.%s.comment.%d" % (name, len(out) + 1), "only": only,
                        "indent": text[:at], "lines": [(n, column, text[column:])]})
    for c in out:
        c["room"] = widest - max(display_width(shown[n - 1][1][:column]) for n, column, _ in c["lines"])
        c["bytes"] = [len(shown[n - 1][1][:column].encode("utf-8")) for n, column, _ in c["lines"]]
        if len(c["lines"]) > 255:
            raise ListingError("%s: a comment of more than 255 lines" % path)
    return out


def po_string(text):
    """text as a .po string: one "..." per line, "\\n" ending all but the last"""
    def quote(t):
        return '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"'
    lines = text.split("\n")
    if len(lines) == 1:
        return quote(text)
    return '""\n' + "\n".join(quote(t)[:-1] + ('\\n"' if k + 1 < len(lines) else '"') for k, t in enumerate(lines))


def comment_english(c):
    """the comment's English text as the catalogue holds it (a printf
    format: '%' doubled)"""
    return "\n".join(text for _, _, text in c["lines"]).replace("%", "%%")


def pot_entries(path):
    """The catalogue entries (raypick.pot's layout) of the listing's comments."""
    shown, _ = parse(path)
    name = os.path.splitext(os.path.basename(path))[0]
    out = []
    for c in comments(path, shown, name):
        first, last = c["lines"][0][0], c["lines"][-1][0]
        where = "line %d" % first if first == last else "lines %d-%d" % (first, last)
        count = len(c["lines"])
        out.append({"ctxt": c["id"], "id": comment_english(c),
                    "note": "#. the code panel: %s.c, %s: %s at most %d columns "
                            "(an ideograph takes 2)" % (name, where, "%d lines, each" % count if count > 1 else
                                                        "one line,", c["room"])})
    return out


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
    of_line = ["{NULL, 0, 0, 0}"] * len(shown)
    for c in comments(path, shown, name):
        for part, (n, _, _) in enumerate(c["lines"]):
            of_line[n - 1] = '{"%s", %d, %d, %d}' % (c["id"], c["bytes"][part], part, len(c["lines"]))
    body += ["};", "", "/* each display line's comment: its id, where its text starts, which of its lines */",
             "static const listing_comment comments[] = {"]
    body += ["    %s," % e for e in of_line]
    body += ["};", "",
             "const listing listing_%s = {" % name,
             '    "%s", "%s", %d, lines, %d, display_of_source, comments,' % (name, rel, len(shown),
                                                                           len(display) - 1),
             "};", ""]
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(body))


SECTION = ("# The listings' comments, as the code panel shows them: written by\n"
           "# src/lessons/listings/listing2c.py --sync-po (po/README.md); translate the msgstr only.")


def po_entry(e, translation):
    return "%s\nmsgctxt \"%s\"\nmsgid %s\nmsgstr %s" % (e["note"], e["ctxt"], po_string(e["id"]),
                                                     po_string(translation))


def sync_po(po_dir, paths):
    """Rewrites the listing entries of po_dir's raypick.pot and LINGUAS'
    LANG.po: the old ones out, the listings' comments in at the end. A
    translation is kept for the same id and English text, or moves with its
    English text to the comment's new id; else it is empty (po2c.py warns,
    the test msg fails)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "po"))
    import po2c     # po/po2c.py: the catalogue's reader
    entries = [e for path in paths for e in pot_entries(path)]
    with open(os.path.join(po_dir, "LINGUAS"), encoding="utf-8") as f:
        codes = [w.strip() for w in f.read().split("\n") if w.strip() and not w.strip().startswith("#")]
    for file in ["raypick.pot"] + [c + ".po" for c in codes]:
        target = os.path.join(po_dir, file)
        old = [e for e in po2c.parse_po(target) if (e["ctxt"] or "").startswith("listing.") and not e["fuzzy"]]
        same = {(e["ctxt"], e["id"]): e["str"] for e in old if e["str"]}
        moved = {e["id"]: e["str"] for e in old if e["str"]}
        with open(target, encoding="utf-8") as f:
            blocks = f.read().rstrip("\n").split("\n\n")
        keep = [b for b in blocks if not b.startswith(SECTION.split("\n")[0]) and
                not any(line.startswith('msgctxt "listing.') for line in b.split("\n"))]
        new = [SECTION]
        for e in entries:
            text = "" if file.endswith(".pot") else same.get((e["ctxt"], e["id"]), moved.get(e["id"], ""))
            new.append(po_entry(e, text))
        with open(target, "w", encoding="utf-8") as f:
            f.write("\n\n".join(keep + new) + "\n")


def main(argv):
    try:
        if len(argv) >= 3 and argv[1] == "--pot":
            for path in argv[2:]:
                for e in pot_entries(path):
                    print(po_entry(e, "") + "\n")
            return 0
        if len(argv) >= 4 and argv[1] == "--sync-po":
            try:
                sync_po(argv[2], argv[3:])
            except Exception as e:      # po2c.PoError: a .po file it cannot read
                if type(e).__name__ != "PoError":
                    raise
                print("listing2c.py: %s" % e, file=sys.stderr)
                return 1
            return 0
        if len(argv) == 3 and argv[1] == "--print":
            shown, _ = parse(argv[2])
            comments(argv[2], shown, "")        # its errors
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
