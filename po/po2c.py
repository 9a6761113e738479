#!/usr/bin/env python3
"""po2c.py OUT.c TEMPLATE.pot LANG.po...: the message catalogue as C tables.

The catalogue is gettext's layout (po/README.md): po/raypick.pot holds the
English texts, each entry's msgctxt its id and msgid its text; each
po/LANG.po repeats the id and the English text and gives the translation
in msgstr. This turns them into the tables src/lessons/msg.c reads: the
ids sorted (msg() searches them), then one array of texts per language,
English first, NULL where a language has no usable translation.

A translation is left out (NULL: the program shows English) and named in a
warning when it is empty, marked fuzzy, or translates another English text
than the template's (the English changed since: msgmerge marks such
entries fuzzy). tests/test_msg.c fails on any NULL, so the warning is
news, not noise. Syntax errors stop the build with FILE:LINE.

    python3 po/po2c.py --check po/raypick.pot po/de.po ...   parse and warn only
    python3 po/po2c.py --quiet OUT.c ...                      no warnings (test fixtures)
"""
import os
import re
import sys

ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
ID_RE = re.compile(r"^[a-z0-9_]+(?:[.-][a-z0-9_]+)*$")


class PoError(Exception):
    pass


def unquote(token, where):
    """The text of one "..." token with its escapes resolved."""
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        raise PoError("%s: expected a quoted string, got %r" % (where, token))
    body, out, i = token[1:-1], [], 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            if i + 1 >= len(body) or body[i + 1] not in ESCAPES:
                raise PoError("%s: unknown escape %r" % (where, body[i:i + 2]))
            out.append(ESCAPES[body[i + 1]])
            i += 2
        elif c == '"':
            raise PoError("%s: unescaped quote inside a string" % where)
        else:
            out.append(c)
            i += 1
    return "".join(out)


def parse_po(path):
    """The entries of a .po/.pot file: a list of dicts with ctxt, id, str,
    fuzzy, line. Raises PoError with FILE:LINE on anything it does not
    understand."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except UnicodeDecodeError as e:
        raise PoError("%s: not UTF-8 (%s)" % (path, e))
    entries, cur, field, flags = [], None, None, set()

    def finish():
        nonlocal cur, field, flags
        if cur is not None:
            if cur.get("id") is None or cur.get("str") is None:
                raise PoError("%s:%d: an entry needs msgid and msgstr" % (path, cur["line"]))
            cur["fuzzy"] = "fuzzy" in flags
            entries.append(cur)
        cur, field, flags = None, None, set()

    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        where = "%s:%d" % (path, n)
        if not line:
            finish()
        elif line.startswith("#~"):
            continue                    # obsolete entries (msgmerge keeps them): ignored
        elif line.startswith("#,"):
            if cur is not None and field is not None:
                finish()
            flags |= {f.strip() for f in line[2:].split(",")}
        elif line.startswith("#"):
            if cur is not None and field is not None:
                finish()
        elif line.startswith('"'):
            if cur is None or field is None:
                raise PoError("%s: a string continues nothing" % where)
            cur[field] += unquote(line, where)
        else:
            keyword, _, rest = line.partition(" ")
            fields = {"msgctxt": "ctxt", "msgid": "id", "msgstr": "str"}
            if keyword not in fields:
                raise PoError("%s: unknown keyword %r (plural forms are not used here)" % (where, keyword))
            field = fields[keyword]
            starts = cur is None or (field == "ctxt") or (field == "id" and cur["id"] is not None)
            if starts:
                if cur is not None:
                    finish()
                    field = fields[keyword]
                cur = {"line": n, "ctxt": None, "id": None, "str": None}
            if field == "str" and cur["id"] is None:
                raise PoError("%s: msgstr before msgid" % where)
            if cur[field] is not None:
                raise PoError("%s: %s given twice in one entry" % (where, keyword))
            cur[field] = unquote(rest.strip(), where)
    finish()
    return entries


def header_fields(entries, path):
    """The header entry's fields (msgid "" without msgctxt) as a dict."""
    for e in entries:
        if e["ctxt"] is None and e["id"] == "":
            fields = {}
            for item in e["str"].split("\n"):
                key, sep, value = item.partition(":")
                if sep:
                    fields[key.strip()] = value.strip()
            return fields
    raise PoError("%s: no header entry (msgid \"\")" % path)


def catalogue(path, template=False):
    """(language code, {id: (english, text or None, line, problem)}) of one file."""
    entries = parse_po(path)
    head = header_fields(entries, path)
    ctype = head.get("Content-Type", "")
    if "charset=UTF-8" not in ctype.replace(" ", ""):
        raise PoError("%s: the header must say Content-Type: text/plain; charset=UTF-8" % path)
    code = "en" if template else head.get("Language", "")
    stem = os.path.splitext(os.path.basename(path))[0]
    if not template and code != stem:
        raise PoError("%s: the header's Language is %r, the file's name says %r" % (path, code, stem))
    out = {}
    for e in entries:
        if e["ctxt"] is None and e["id"] == "":
            continue
        where = "%s:%d" % (path, e["line"])
        if e["ctxt"] is None:
            raise PoError("%s: an entry without msgctxt: the id goes there (po/README.md)" % where)
        if not ID_RE.match(e["ctxt"]):
            raise PoError("%s: id %r: use [a-z0-9_] words joined by '.' or '-'" % (where, e["ctxt"]))
        if e["ctxt"] in out:
            raise PoError("%s: id %r appears twice (first at line %d)" % (where, e["ctxt"], out[e["ctxt"]][2]))
        if template:
            if e["id"] == "":
                raise PoError("%s: %r has no English text" % (where, e["ctxt"]))
            out[e["ctxt"]] = (e["id"], e["id"], e["line"], None)
            continue
        problem = None
        if e["fuzzy"]:
            problem = "marked fuzzy"
        elif e["str"] == "":
            problem = "not translated"
        out[e["ctxt"]] = (e["id"], None if problem else e["str"], e["line"], problem)
    return code, out


def c_string(text):
    """A C string literal: ASCII as is, other bytes as octal escapes (no
    hex escape swallowing the next character), split at newlines."""
    parts, cur = [], []
    for b in text.encode("utf-8"):
        ch = chr(b)
        if ch == "\\":
            cur.append("\\\\")
        elif ch == '"':
            cur.append('\\"')
        elif ch == "\n":
            cur.append("\\n")
            parts.append("".join(cur))
            cur = []
        elif ch == "\t":
            cur.append("\\t")
        elif 32 <= b < 127:
            cur.append("\\?" if ch == "?" else ch)     # "\?": no "??x" trigraph
        else:
            cur.append("\\%03o" % b)
    if cur or not parts:
        parts.append("".join(cur))
    joined = " ".join('"%s"' % p for p in parts)
    return "(%s)" % joined if len(parts) > 1 else joined   # (): clang's -Wstring-concatenation


def load(template_path, po_paths, warn):
    """[(code, {id: text or None})], English first; warnings through warn."""
    _, english = catalogue(template_path, template=True)
    languages = [("en", {k: v[0] for k, v in english.items()})]
    for path in po_paths:
        code, entries = catalogue(path)
        if any(code == c for c, _ in languages):
            raise PoError("%s: language %r given twice" % (path, code))
        texts = {}
        for key, (english_text, text, line, problem) in sorted(entries.items()):
            where = "%s:%d" % (path, line)
            if key not in english:
                warn("%s: %r is not in %s (left out)" % (where, key, template_path))
                continue
            if problem is None and english_text != english[key][0]:
                problem = "translates an older English text (now %r)" % english[key][0]
            if problem:
                warn("%s: %r %s: English is shown instead" % (where, key, problem))
                text = None
            texts[key] = text
        for key in sorted(set(english) - set(entries)):
            warn("%s: %r is missing: English is shown instead" % (path, key))
        languages.append((code, texts))
    return languages


def write_c(out_path, sources, languages):
    ids = sorted(languages[0][1])
    lines = ["/* generated by po/po2c.py from %s: do not edit */" % " ".join(sources),
             '#include "msg_tables.h"', "",
             "const int msg_table_count = %d;" % len(ids), "",
             "const char *const msg_table_ids[%d] = {" % max(len(ids), 1)]
    lines += ["    %s," % c_string(i) for i in ids] or ["    0,"]
    lines.append("};")
    for code, texts in languages:
        lines += ["", "static const char *const text_%s[%d] = {" % (code, max(len(ids), 1))]
        for i in ids:
            t = texts.get(i)
            lines.append("    %s," % (c_string(t) if t is not None else "0"))
        if not ids:
            lines.append("    0,")
        lines.append("};")
    lines += ["", "const int msg_table_language_count = %d;" % len(languages), "",
              "const msg_table_language msg_table_languages[%d] = {" % len(languages)]
    lines += ['    {"%s", text_%s},' % (code, code) for code, _ in languages]
    lines += ["};", "", "const char *const msg_table_codes[%d] = {" % (len(languages) + 1)]
    lines += ['    "%s",' % code for code, _ in languages]
    lines += ["    0,", "};", ""]
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def main(argv):
    quiet = argv[:1] == ["--quiet"]
    if quiet:
        argv = argv[1:]
    check = argv[:1] == ["--check"]
    if check:
        argv = argv[1:]
    if (check and len(argv) < 1) or (not check and len(argv) < 2):
        sys.stderr.write(__doc__)
        return 2
    out, files = (None, argv) if check else (argv[0], argv[1:])
    warnings = []
    try:
        languages = load(files[0], files[1:], warnings.append)
    except PoError as e:
        sys.stderr.write("po2c: %s\n" % e)
        return 1
    for w in [] if quiet else warnings:
        sys.stderr.write("po2c: warning: %s\n" % w)
    if out:
        write_c(out, [os.path.relpath(f) if not os.path.isabs(f) else os.path.basename(f) for f in files],
                languages)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
