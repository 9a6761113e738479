#!/usr/bin/env python3
"""site.py: raypick's teaching site, static files built from the repository.

    python3 src/web/site.py --root . --web build-web --out build-web/site

Reads the lesson registry (src/lessons/lessons.c, as src/lessons/meson.build
does), the message catalogue (po/: the site's own texts are the `site.*`
ids), the lessons' notes and their translations (docs/lessons/, docs/lessons/de/,
docs/lessons/zh/), the glossary and the porting guides, and writes one
folder per language (en/, de/, zh/) of plain HTML pages beside the
program (raypick.js, raypick.wasm from --web), the pictures (img/), the
fonts the program draws with (fonts/: subsets of Debian's DejaVu Sans and
Noto Sans CJK SC, with their licences) and the source files the notes link
to (source/). No server code: any static host serves it.

Markdown is turned into HTML by markdown-it-py (Debian's python3-markdown-it):
a CommonMark parser, so the pages read as GitHub shows the same files.
Heading ids are GitHub's, so the docs' own #anchors work on the site.

A translation is docs/lessons/<lang>/<the English file's name>. Its first
line names the English file and the commit it translates:

    <!-- translation of docs/lessons/lesson1-picking-spheres.md at 6e6016b -->

and each `## ` section carries the English section's id on the line above
its heading (`<a id="the-idea"></a>`), so links and the site match the
sections across languages. An English section the translation lacks is
shown in English with a note; a section the English no longer has stays
where it is, named by the build; when the English file changed since the
commit named, the page says so (tests/web/test_site.py lists which).

Fails (exit 1) naming the file and link when a document links to a file
that does not exist.
"""
import argparse
import html
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import urllib.parse

import logging

from markdown_it import MarkdownIt

LANGUAGES = ("en", "de", "zh")
HTML_LANG = {"en": "en", "de": "de", "zh": "zh-Hans"}
# pages every language has besides the lessons; their links pull in the rest
SEED_DOCS = ("docs/glossary.md", "docs/tutorials.md", "docs/porting-d3d9.md", "docs/porting-d3d11-xna.md",
             "docs/porting-apps.md")
PORTING_GUIDES = ("docs/porting-d3d9.md", "docs/porting-d3d11-xna.md", "docs/porting-apps.md")
IMAGE_EXT = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp")
TRANSLATION_RE = re.compile(r"^<!--\s*translation of (\S+) at ([0-9a-f]{7,40})\s*-->")
ANCHOR_RE = re.compile(r'^<a id="([^"]+)"></a>\s*$')
# the characters the fonts keep besides the catalogue's: printable ASCII and
# Latin-1 (file names, numbers, the HUD's own punctuation)
FONT_BASE_CHARS = "".join(chr(c) for c in range(0x20, 0x7F)) + "".join(chr(c) for c in range(0xA0, 0x100))
FONTS = {
    "latin": {"file": "dejavu-sans.ttf", "source": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
              "name": "DejaVu Sans", "copyright": "/usr/share/doc/fonts-dejavu-core/copyright",
              "licence": "dejavu-sans.LICENSE.txt", "package": "fonts-dejavu-core"},
    "cjk": {"file": "noto-sans-cjk-sc.otf", "source": "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
            "face": "Noto Sans CJK SC", "name": "Noto Sans CJK SC",
            "copyright": "/usr/share/doc/fonts-noto-cjk/copyright", "licence": "noto-sans-cjk-sc.LICENSE.txt",
            "package": "fonts-noto-cjk"},
}
# which fonts a language's program needs, in RAYPICK_FONT's order
LANGUAGE_FONTS = {"en": ["latin"], "de": ["latin"], "zh": ["latin", "cjk"]}


class SiteError(Exception):
    pass


# ------------------------------------------------------------ the catalogue

def load_catalogue(root):
    """{lang: {id: text}}: English from raypick.pot, the others from their
    .po where the translation is usable (as po2c.py decides), else English."""
    sys.path.insert(0, os.path.join(root, "po"))
    import po2c  # noqa: E402 (the catalogue's own parser)
    template = {e["ctxt"]: e["id"] for e in po2c.parse_po(os.path.join(root, "po", "raypick.pot")) if e["ctxt"]}
    texts = {"en": dict(template)}
    for lang in LANGUAGES[1:]:
        own = dict(template)
        for e in po2c.parse_po(os.path.join(root, "po", lang + ".po")):
            if e["ctxt"] in template and e["str"] and not e["fuzzy"] and e["id"] == template[e["ctxt"]]:
                own[e["ctxt"]] = e["str"]
        texts[lang] = own
    return texts


def untranslated(texts, lang, key):
    """true when lang shows key in English (the program's fallback)."""
    return lang != "en" and texts[lang].get(key) == texts["en"].get(key)


# ------------------------------------------------------------ the registry

def read_registry(root):
    """The lessons in order: [{number, object, name, notes}], from the
    LESSON( lines of src/lessons/lessons.c (src/lessons/meson.build reads
    the same lines)."""
    path = os.path.join(root, "src", "lessons", "lessons.c")
    lessons = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r'\s*LESSON\((\w+),\s*"([a-z0-9-]+)"', line)
            if m:
                n = len(lessons) + 1
                lessons.append({"number": n, "object": m.group(1), "name": m.group(2),
                                "notes": "docs/lessons/lesson%d-%s.md" % (n, m.group(2))})
    if not lessons:
        raise SiteError("%s: no LESSON( lines" % path)
    return lessons


# ------------------------------------------------------------ Markdown

def github_slug(text):
    """The id GitHub gives a heading: lower case, punctuation other than
    '-' and '_' dropped, each space a '-'."""
    s = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return s.replace(" ", "-")


def inline_text(token):
    return "".join(c.content for c in (token.children or []) if c.type in ("text", "code_inline"))


def render_inline(md, text):
    """One line of Markdown (a heading's text) as inline HTML."""
    return md.renderInline(text)


CJK = re.compile(r"[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]")


def join_cjk_lines(children):
    """A line break inside Chinese text joins without a space (a browser
    shows a newline between two characters as one): the source's lines
    are wrapped, the sentence is not."""
    for k, child in enumerate(children):
        if child.type != "softbreak" or k == 0 or k + 1 == len(children):
            continue
        before, after = children[k - 1].content, children[k + 1].content
        if before and after and (CJK.match(before[-1]) or CJK.match(after[0])):
            child.type = "text"
            child.content = ""


def make_markdown():
    md = MarkdownIt("commonmark", {"html": True, "typographer": False})
    md.enable("table").enable("strikethrough")
    return md


def split_sections(text):
    """(preamble, [(id, source)]): the text before the first '## ' heading,
    then each '## ' section with its id: the `<a id="...">` line above the
    heading when there is one, else the heading's GitHub slug. Headings in
    fenced code are not headings."""
    lines = text.split("\n")
    fence = None
    starts = []
    for i, line in enumerate(lines):
        m = re.match(r"^(```+|~~~+)", line)
        if m:
            if fence is None:
                fence = m.group(1)[0] * len(m.group(1))
            elif line.startswith(fence):
                fence = None
            continue
        if fence is None and line.startswith("## "):
            start, sid = i, github_slug(line[3:])
            if i > 0 and ANCHOR_RE.match(lines[i - 1]):
                start, sid = i - 1, ANCHOR_RE.match(lines[i - 1]).group(1)
            starts.append((start, sid))
    if not starts:
        return text, []
    preamble = "\n".join(lines[:starts[0][0]])
    sections = []
    for k, (start, sid) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        sections.append((sid, "\n".join(lines[start:end])))
    return preamble, sections


def take_title(text, title):
    """text without its first '# ' line, which goes into the list title;
    text as it is when title is None."""
    if title is None:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("# "):
            title.append(line[2:].strip())
            return "\n".join(lines[:i] + lines[i + 1:])
    return text


def translation_header(text):
    """(English path, commit) from a translation's first line, or None."""
    m = TRANSLATION_RE.match(text.lstrip("\ufeff"))
    return (m.group(1), m.group(2)) if m else None


# ------------------------------------------------------------ the site

class Site:
    def __init__(self, root, web, out, commit_of=None):
        self.root = os.path.abspath(root)
        self.web = web
        self.out = out
        self.md = make_markdown()
        self.texts = load_catalogue(self.root)
        self.lessons = read_registry(self.root)
        self.pages = {}          # repo path of an English .md -> page file name
        self.queue = []          # .md files linked to and not yet written
        self.sources = set()     # repo paths of other files linked to (source/ pages)
        self.folders = set()     # repo folders linked to
        self.images = set()      # repo paths of pictures
        self.broken = []         # (document, link) that resolve to nothing
        self.behind = {}         # (lang, English path) -> commit the translation names
        self.orphans = []        # (translation, section id) of sections the English does not have
        self.commit_of = commit_of

    # ---- texts

    def t(self, lang, key):
        text = self.texts[lang].get(key)
        if text is None:
            raise SiteError("po/: no text '%s' (add it to po/raypick.pot, de.po, zh.po)" % key)
        return text

    def esc(self, lang, key):
        return html.escape(self.t(lang, key))

    # ---- where things go

    def page_name(self, path):
        """The page file a repo .md becomes (the same in every language)."""
        base = posixpath.basename(path)
        if path.startswith("docs/") and path.count("/") <= 2:
            return base[:-3] + ".html"
        return path[:-3].replace("/", "-").lower() + ".html"

    def english_of(self, path):
        """The English document a translation's path stands for: a link
        from docs/lessons/de/x.md to its German sibling y.md means the page
        of docs/lessons/y.md."""
        parts = path.split("/")
        if len(parts) >= 2 and parts[-2] in LANGUAGES[1:]:
            return "/".join(parts[:-2] + parts[-1:])
        return path

    def want_page(self, path):
        if path not in self.pages:
            self.pages[path] = self.page_name(path)
            self.queue.append(path)
        return self.pages[path]

    def link(self, href, base, lang):
        """href as written in the repo file `base`, as a page in the
        language's folder must write it."""
        parts = urllib.parse.urlsplit(href)
        if parts.scheme or parts.netloc or href.startswith("//"):
            return href
        if not parts.path:
            return href     # #anchor on the same page
        up = "../"
        target = posixpath.normpath(posixpath.join(posixpath.dirname(base), urllib.parse.unquote(parts.path)))
        frag = "#" + parts.fragment if parts.fragment else ""
        full = os.path.join(self.root, target)
        if target.startswith(".."):
            self.broken.append((base, href))
            return href
        if os.path.isdir(full):
            if target == "docs/lessons":
                return "index.html" + frag
            if posixpath.dirname(target) == "docs/lessons" and posixpath.basename(target) in LANGUAGES:
                return up + posixpath.basename(target) + "/index.html"
            self.folders.add(target)
            return up + "source/" + target + "/index.html"
        if not os.path.isfile(full):
            english = self.english_of(target)
            if english != target and os.path.isfile(os.path.join(self.root, english)):
                target, full = english, os.path.join(self.root, english)
            else:
                self.broken.append((base, href))
                return href
        if target.endswith(".md"):
            return self.want_page(self.english_of(target)) + frag
        if target.startswith("docs/img/") and target.lower().endswith(IMAGE_EXT):
            self.images.add(target)
            return up + "img/" + posixpath.basename(target)
        self.sources.add(target)
        return up + "source/" + target + ".html" + frag

    # ---- Markdown to HTML

    def render(self, text, base, lang, ids):
        """text (a repo file's Markdown, or part of it) as HTML: links
        resolved from base, headings given GitHub's ids (unique in `ids`,
        the page's set so far)."""
        tokens = self.md.parse(text)
        for i, tok in enumerate(tokens):
            if tok.type == "heading_open":
                slug = github_slug(inline_text(tokens[i + 1]))
                sid, n = slug, 0
                while sid in ids:
                    n += 1
                    sid = "%s-%d" % (slug, n)
                ids.add(sid)
                tok.attrSet("id", sid)
            if tok.type == "html_block":
                m = ANCHOR_RE.match(tok.content.strip())
                if m:
                    ids.add(m.group(1))
            join_cjk_lines(tok.children or [])
            for child in tok.children or []:
                if child.type == "link_open" and child.attrGet("href") is not None:
                    child.attrSet("href", self.link(child.attrGet("href"), base, lang))
                elif child.type == "image":
                    child.attrSet("src", self.link(child.attrGet("src"), base, lang))
                    child.attrSet("loading", "lazy")
        return self.md.renderer.render(tokens, self.md.options, {})

    def translation(self, english, lang):
        """(path, text) of english's translation into lang, or None."""
        if lang == "en":
            return None
        path = posixpath.join(posixpath.dirname(english), lang, posixpath.basename(english))
        full = os.path.join(self.root, path)
        if not os.path.isfile(full):
            return None
        with open(full, encoding="utf-8") as f:
            return path, f.read()

    def document(self, english, lang, title=None):
        """(html, content language, notes) of a document's page in lang:
        its translation with the English sections it lacks, or the English.
        title: a list to move the document's '# ' heading into (a lesson
        page puts it above the program and the notes)."""
        with open(os.path.join(self.root, english), encoding="utf-8") as f:
            source = f.read()
        ids = set()
        tr = self.translation(english, lang)
        if not tr:
            return self.render(take_title(source, title), english, lang, ids), "en", []
        tr_path, tr_text = tr
        head = translation_header(tr_text)
        if not head or head[0] != english:
            raise SiteError("%s: the first line must be '<!-- translation of %s at COMMIT -->'" % (tr_path, english))
        notes = []
        if self.commit_of and self.commit_of(english, head[1]):
            self.behind[(lang, english)] = head[1]
            notes.append(self.t(lang, "site.translation.behind"))
        en_pre, en_sections = split_sections(source)
        tr_pre, tr_sections = split_sections(tr_text)
        have = dict(tr_sections)
        # a section the English no longer has (renamed, dropped: the
        # English moved on) stays, after the section it follows in the
        # translation; the build names it, the page says it is behind
        english_ids = {sid for sid, _ in en_sections}
        after = {}
        previous = None
        for sid, text in tr_sections:
            if sid in english_ids:
                previous = sid
            else:
                after.setdefault(previous, []).append(text)
                self.orphans.append((tr_path, sid))
        if after and not notes:
            notes.append(self.t(lang, "site.translation.behind"))
        parts = [self.render(take_title(tr_pre, title), tr_path, lang, ids)]
        parts += [self.render(text, tr_path, lang, ids) for text in after.get(None, [])]
        for sid, en_text in en_sections:
            if sid in have:
                parts.append(self.render(have[sid], tr_path, lang, ids))
                parts += [self.render(text, tr_path, lang, ids) for text in after.get(sid, [])]
            else:
                parts.append('<div class="untranslated" lang="en"><p class="note" lang="%s">%s</p>\n%s</div>'
                             % (HTML_LANG[lang], self.esc(lang, "site.untranslated.section"),
                                self.render(en_text, english, lang, ids)))
        return "\n".join(parts), lang, notes

    # ---- page frame

    def frame(self, lang, name, title, body, current=None, extra_head="", body_class=""):
        """A whole page: head, the language switch, navigation, body."""
        langs = []
        for other in LANGUAGES:
            label = html.escape(self.texts[other]["language.name"])
            if other == lang:
                langs.append('<li><a href="%s" hreflang="%s" lang="%s" aria-current="true">%s</a></li>'
                             % (name, HTML_LANG[other], HTML_LANG[other], label))
            else:
                langs.append('<li><a href="../%s/%s" hreflang="%s" lang="%s">%s</a></li>'
                             % (other, name, HTML_LANG[other], HTML_LANG[other], label))
        nav = []
        for key, href in (("site.nav.home", "index.html"), ("site.nav.glossary", "glossary.html"),
                          ("site.nav.porting", "index.html#porting")):
            cur = ' aria-current="page"' if current == key else ""
            nav.append('<li><a href="%s"%s>%s</a></li>' % (href, cur, self.esc(lang, key)))
        fonts = " ".join('<a href="../fonts/%s">%s</a>' % (FONTS[k]["licence"], html.escape(FONTS[k]["name"]))
                         for k in ("latin", "cjk"))
        return """<!doctype html>
<html lang="{hl}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="../site.css">
<link rel="icon" href="../favicon.svg" type="image/svg+xml">
<script src="../lang.js"></script>
{extra_head}</head>
<body class="{body_class}" data-lang="{lang}" data-page="{name}">
<a class="skip" href="#content">{skip}</a>
<header class="site-header">
<a class="site-name" href="index.html">{site}</a>
<nav aria-label="{navlabel}"><ul class="site-nav">{nav}</ul></nav>
<nav aria-label="{langlabel}"><ul class="langs">{langs}</ul></nav>
</header>
{body}
<footer class="site-footer">
<p>{fontsnote} {fonts}</p>
<p>{made}</p>
</footer>
</body>
</html>
""".format(hl=HTML_LANG[lang], title=html.escape(title), extra_head=extra_head, body_class=body_class,
           lang=lang, name=name, skip=self.esc(lang, "site.skip.content"), site=self.esc(lang, "site.name"),
           navlabel=self.esc(lang, "site.nav.label"), nav="".join(nav),
           langlabel=self.esc(lang, "site.nav.language"), langs="".join(langs), body=body,
           fontsnote=self.esc(lang, "site.footer.fonts"), fonts=fonts, made=self.esc(lang, "site.footer.made"))

    def write(self, rel, text):
        path = os.path.join(self.out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    # ---- pages

    def lesson_title(self, lang, lesson):
        title = self.t(lang, "lesson.%s.title" % lesson["name"])
        return self.t(lang, "lesson.heading").replace("%d", str(lesson["number"]), 1).replace("%s", title, 1)

    def summary(self, lang, lesson):
        """The index's sentence: site.summary.NAME, else the notes' first
        sentence of their first section (a new lesson has one by itself)."""
        key = "site.summary." + lesson["name"]
        if key in self.texts[lang]:
            return self.texts[lang][key]
        _, sections = split_sections(open(os.path.join(self.root, lesson["notes"]), encoding="utf-8").read())
        for _, text in sections:
            for para in text.split("\n\n")[1:]:
                if para.strip() and not para.lstrip().startswith(("!", "|", "```", "<", "-", "    ")):
                    flat = " ".join(para.split())
                    return re.split(r"(?<=[.:])\s", flat, maxsplit=1)[0]
        return ""

    def index_page(self, lang):
        items = []
        for lesson in self.lessons:
            name = self.want_lesson(lesson)
            picture = "docs/img/lesson%d.png" % lesson["number"]
            img = ""
            if os.path.isfile(os.path.join(self.root, picture)):
                self.images.add(picture)
                img = '<img src="../img/%s" alt="" width="320" height="180" loading="lazy">' % posixpath.basename(picture)
            items.append('<li class="card"><a href="%s">%s<span class="card-title">%s</span></a><p>%s</p></li>'
                         % (name, img, html.escape(self.lesson_title(lang, lesson)),
                            html.escape(self.summary(lang, lesson))))
        more = ['<li><a href="%s">%s</a>: %s</li>' % (self.want_page("docs/glossary.md"), self.esc(lang, "site.nav.glossary"),
                                                     self.esc(lang, "site.index.glossary")),
                '<li><a href="%s">%s</a>: %s</li>' % (self.want_page("docs/tutorials.md"),
                                                     html.escape(self.doc_title("docs/tutorials.md")),
                                                     self.esc(lang, "site.index.tutorials"))]
        porting = "".join('<li><a href="%s">%s</a></li>' % (self.want_page(p), html.escape(self.doc_title(p)))
                          for p in PORTING_GUIDES)
        body = """<main id="content">
<h1>{site}</h1>
<p class="lead">{tagline}</p>
<h2 id="lessons">{lessons}</h2>
<ul class="cards">{items}</ul>
<h2 id="porting">{porting_h}</h2>
<p>{porting_lead}</p>
<ul>{porting}</ul>
<h2 id="background">{more_h}</h2>
<ul>{more}</ul>
</main>""".format(site=self.esc(lang, "site.name"), tagline=self.esc(lang, "site.tagline"),
                  lessons=self.esc(lang, "site.index.lessons"), items="".join(items),
                  porting_h=self.esc(lang, "site.nav.porting"), porting_lead=self.esc(lang, "site.index.porting"),
                  porting=porting, more_h=self.esc(lang, "site.index.more"), more="".join(more))
        self.write(lang + "/index.html", self.frame(lang, "index.html", self.t(lang, "site.name"), body,
                                                   current="site.nav.home"))

    def want_lesson(self, lesson):
        name = self.page_name(lesson["notes"])
        self.pages[lesson["notes"]] = name
        return name

    def doc_title(self, path):
        with open(os.path.join(self.root, path), encoding="utf-8") as f:
            for line in f:
                if line.startswith("# "):
                    return line[2:].strip()
        return posixpath.basename(path)

    def untranslated_note(self, lang, content_lang):
        if lang == content_lang:
            return ""
        return '<p class="note">%s</p>' % self.esc(lang, "site.untranslated.page")

    def lesson_page(self, lang, k):
        lesson = self.lessons[k]
        name = self.want_lesson(lesson)
        title = []
        notes_html, content_lang, notes = self.document(lesson["notes"], lang, title)
        heading = title[0] if title else self.lesson_title(lang, lesson)
        texts = {key: self.t(lang, key) for key in (
            "teach.panel.step", "teach.panel.no-step", "site.code.none", "site.tour.none",
            "site.lesson.failed", "site.lesson.loading")}
        config = {"lesson": lesson["number"], "name": lesson["name"], "lang": lang,
                  "fonts": ["../fonts/" + FONTS[f]["file"] for f in LANGUAGE_FONTS[lang]], "texts": texts}
        pager = []
        if k > 0:
            prev = self.lessons[k - 1]
            pager.append('<a rel="prev" href="%s">%s: %s</a>' % (self.want_lesson(prev), self.esc(lang, "site.lesson.previous"),
                                                             html.escape(self.lesson_title(lang, prev))))
        if k + 1 < len(self.lessons):
            nxt = self.lessons[k + 1]
            pager.append('<a rel="next" href="%s">%s: %s</a>' % (self.want_lesson(nxt), self.esc(lang, "site.lesson.next"),
                                                             html.escape(self.lesson_title(lang, nxt))))
        porting = " · ".join('<a href="%s">%s</a>' % (self.want_page(p), html.escape(self.doc_title(p)))
                             for p in PORTING_GUIDES)
        behind = "".join('<p class="note">%s</p>' % html.escape(n) for n in notes)
        body = """<main id="content" class="lesson">
<h1 class="lesson-title" lang="{content_lang}">{heading}</h1>
<div class="lesson-grid">
<section id="live" class="live" aria-labelledby="live-h">
<h2 id="live-h">{live}</h2>
<div class="canvas-box">
<canvas id="canvas" tabindex="0" aria-label="{canvas}" aria-describedby="lesson-keys" oncontextmenu="event.preventDefault()"></canvas>
<p id="status" class="status" role="status">{loading}</p>
<noscript><p class="note">{nojs}</p></noscript>
</div>
<details class="keys"><summary>{keys_h}</summary><p id="lesson-keys">{keys}</p></details>
<div class="controls" role="group" aria-labelledby="controls-h">
<h3 id="controls-h">{controls}</h3>
<p class="help">{controls_help}</p>
<button type="button" data-key="p">{step_mode}</button>
<button type="button" data-key=",">{previous}</button>
<button type="button" data-key=".">{next}</button>
<button type="button" data-key="r">{reset}</button>
<label class="check"><input type="checkbox" id="panel-in-canvas"> {panel}</label>
<p id="panel-note" class="help" role="status" hidden>{panel_small}</p>
</div>
<section class="code" aria-labelledby="code-h">
<h3 id="code-h">{code}</h3>
<p id="code-path" class="code-path"></p>
<div id="listing-box" class="listing-box" tabindex="0" role="region" aria-label="{listing}">
<ol id="listing" class="listing"></ol>
</div>
<p id="step-line" class="step-line" aria-live="polite"></p>
<h4 class="watches-h">{watches_h}</h4>
<dl id="watches" class="watches"></dl>
</section>
<section class="tour" aria-labelledby="tour-h">
<h3 id="tour-h">{tour}</h3>
<p class="help">{tour_help}</p>
<ol id="tour-list" class="tour-list"></ol>
</section>
<p class="porting">{porting_h}: {porting}</p>
</section>
<article id="notes" class="notes" lang="{content_lang}" aria-label="{notes_label}">
{untranslated}{behind}
{notes_html}
</article>
</div>
<nav class="pager" aria-label="{lessons}">{pager}</nav>
</main>""".format(
            heading=render_inline(self.md, heading), live=self.esc(lang, "site.lesson.live"),
            canvas=self.esc(lang, "site.lesson.canvas"), loading=self.esc(lang, "site.lesson.loading"),
            nojs=self.esc(lang, "site.lesson.nojs"),
            keys=html.escape(self.t(lang, "lesson.%s.keys" % lesson["name"])), keys_h=self.esc(lang, "site.lesson.keys"),
            controls=self.esc(lang, "site.controls.heading"), controls_help=self.esc(lang, "site.controls.help"),
            step_mode=self.esc(lang, "site.controls.step-mode"), previous=self.esc(lang, "site.controls.previous"),
            next=self.esc(lang, "site.controls.next"), reset=self.esc(lang, "site.controls.reset"),
            panel=self.esc(lang, "site.controls.panel"), panel_small=self.esc(lang, "site.controls.panel-small"),
            tour=self.esc(lang, "site.tour.heading"),
            tour_help=self.esc(lang, "site.tour.help"), code=self.esc(lang, "site.code.heading"),
            listing=self.esc(lang, "site.code.listing"), watches_h=self.esc(lang, "site.code.watches"),
            porting_h=self.esc(lang, "site.nav.porting"), porting=porting, content_lang=HTML_LANG[content_lang],
            notes_label=self.esc(lang, "site.lesson.notes"), untranslated=self.untranslated_note(lang, content_lang),
            behind=behind, notes_html=notes_html, lessons=self.esc(lang, "site.nav.home"), pager=" ".join(pager))
        head = ('<script type="application/json" id="raypick-config">%s</script>\n'
                '<script src="../raypick.js" defer></script>\n<script src="../lesson.js" defer></script>\n'
                % json.dumps(config, ensure_ascii=False).replace("</", "<\\/"))
        self.write(lang + "/" + name, self.frame(lang, name, self.lesson_title(lang, lesson) + " · raypick", body,
                                                 extra_head=head, body_class="lesson-page"))

    def doc_page(self, lang, path):
        name = self.pages[path]
        content, content_lang, notes = self.document(path, lang)
        current = "site.nav.glossary" if path == "docs/glossary.md" else (
            "site.nav.porting" if path in PORTING_GUIDES else None)
        behind = "".join('<p class="note">%s</p>' % html.escape(n) for n in notes)
        body = '<main id="content"><article class="doc" lang="%s">%s%s\n%s</article></main>' % (
            HTML_LANG[content_lang], self.untranslated_note(lang, content_lang), behind, content)
        self.write(lang + "/" + name, self.frame(lang, name, self.doc_title(path) + " · raypick", body, current=current))

    def source_page(self, path):
        full = os.path.join(self.root, path)
        depth = path.count("/") + 1
        up = "../" * depth
        try:
            with open(full, encoding="utf-8") as f:
                text = f.read()
        except UnicodeDecodeError:
            dest = os.path.join(self.out, "source", path)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(full, dest)
            text = None
        if text is None:
            body = '<p><a href="%s">%s</a></p>' % (html.escape(posixpath.basename(path)), html.escape(path))
        else:
            lines = "".join('<li id="L%d"><code>%s</code></li>' % (i, html.escape(line) or " ")
                            for i, line in enumerate(text.split("\n"), 1))
            body = '<ol class="source">%s</ol>' % lines
        self.write("source/" + path + ".html", self.source_frame(path, up, body, "site.source.heading"))

    def folder_page(self, path):
        full = os.path.join(self.root, path)
        up = "../" * (path.count("/") + 2)
        entries = []
        for entry in sorted(os.listdir(full)):
            if entry.startswith(".") or entry.startswith("build"):
                continue
            rel = posixpath.join(path, entry)
            if os.path.isfile(os.path.join(full, entry)):
                self.sources.add(rel)
                entries.append('<li><a href="%s.html">%s</a></li>' % (html.escape(entry), html.escape(entry)))
            else:
                entries.append("<li>%s/</li>" % html.escape(entry))
        self.write("source/" + path + "/index.html",
                   self.source_frame(path + "/", up, "<ul>%s</ul>" % "".join(entries), "site.source.folder"))

    def source_frame(self, path, up, body, heading):
        return """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{path} · raypick</title>
<link rel="stylesheet" href="{up}site.css">
<link rel="icon" href="{up}favicon.svg" type="image/svg+xml">
</head>
<body class="source-page">
<header class="site-header"><a class="site-name" href="{up}en/index.html">{site}</a></header>
<main id="content">
<h1><span class="muted">{heading}:</span> <code>{path}</code></h1>
{body}
</main>
</body>
</html>
""".format(path=html.escape(path), up=up, site=self.esc("en", "site.name"), heading=self.esc("en", heading),
           body=body)

    def root_page(self):
        links = "".join('<li><a href="%s/index.html" hreflang="%s" lang="%s">%s: %s</a></li>'
                        % (lang, HTML_LANG[lang], HTML_LANG[lang], html.escape(self.texts[lang]["language.name"]),
                           self.esc(lang, "site.name")) for lang in LANGUAGES)
        self.write("index.html", """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>raypick</title>
<link rel="stylesheet" href="site.css">
<link rel="icon" href="favicon.svg" type="image/svg+xml">
<script src="lang.js"></script>
</head>
<body data-lang="" data-page="index.html">
<main id="content">
<h1>raypick</h1>
<ul class="langs-big">{links}</ul>
</main>
</body>
</html>
""".format(links=links))

    # ---- fonts

    def fonts(self):
        """Subsets of Debian's fonts with every character of the catalogue
        (the program draws nothing else but numbers and file names), and
        their licences beside them."""
        from fontTools import subset
        logging.getLogger("fontTools").setLevel(logging.ERROR)   # "FFTM NOT subset": a timestamp table, dropped
        from fontTools.ttLib import TTCollection, TTFont
        os.makedirs(os.path.join(self.out, "fonts"), exist_ok=True)
        used = {c for lang in LANGUAGES for text in self.texts[lang].values() for c in text if ord(c) >= 0x20}
        latin_cmap = TTFont(FONTS["latin"]["source"]).getBestCmap()
        # DejaVu first (RAYPICK_FONT's order); the CJK font has what DejaVu lacks
        chars = {"latin": used | set(FONT_BASE_CHARS), "cjk": {c for c in used if ord(c) not in latin_cmap}}
        for key, spec in FONTS.items():
            if not os.path.isfile(spec["source"]):
                raise SiteError("%s is missing: install Debian's %s" % (spec["source"], spec["package"]))
            if spec["source"].endswith(".ttc"):
                faces = TTCollection(spec["source"]).fonts
                font = next((f for f in faces if f["name"].getDebugName(4) == spec["face"]), None)
                if font is None:
                    raise SiteError("%s has no face '%s'" % (spec["source"], spec["face"]))
            else:
                font = TTFont(spec["source"])
            wanted = chars[key]
            options = subset.Options()
            options.layout_features = ["*"]
            options.name_IDs = ["*"]
            options.notdef_outline = True
            sub = subset.Subsetter(options)
            sub.populate(unicodes=[ord(c) for c in wanted])
            sub.subset(font)
            font.save(os.path.join(self.out, "fonts", spec["file"]))
            shutil.copyfile(spec["copyright"], os.path.join(self.out, "fonts", spec["licence"]))

    # ---- all of it

    def build(self):
        if os.path.isdir(self.out):
            shutil.rmtree(self.out)
        os.makedirs(self.out)
        for lang in LANGUAGES:
            self.index_page(lang)
            for k in range(len(self.lessons)):
                self.lesson_page(lang, k)
        for path in SEED_DOCS:
            self.want_page(path)
        done = set()
        while self.queue:
            path = self.queue.pop(0)
            if path in done or path in [l["notes"] for l in self.lessons]:
                continue
            done.add(path)
            for lang in LANGUAGES:
                self.doc_page(lang, path)
        names = {}
        for path, name in self.pages.items():
            if names.setdefault(name, path) != path:
                raise SiteError("%s and %s would both be %s" % (names[name], path, name))
        if self.broken:
            raise SiteError("links to nothing:\n" + "\n".join("  %s: %s" % b for b in sorted(set(self.broken))))
        for path in sorted(self.folders):
            self.folder_page(path)
        written = set()
        while self.sources - written:
            path = sorted(self.sources - written)[0]
            written.add(path)
            self.source_page(path)
        os.makedirs(os.path.join(self.out, "img"), exist_ok=True)
        for path in sorted(self.images):
            shutil.copyfile(os.path.join(self.root, path), os.path.join(self.out, "img", posixpath.basename(path)))
        self.root_page()
        here = os.path.dirname(os.path.abspath(__file__))
        for asset in ("site.css", "lang.js", "lesson.js", "favicon.svg"):
            shutil.copyfile(os.path.join(here, "site", asset), os.path.join(self.out, asset))
        for program in ("raypick.js", "raypick.wasm"):
            shutil.copyfile(os.path.join(self.web, program), os.path.join(self.out, program))
        self.fonts()
        # GitHub Pages: serve the files as they are (no Jekyll)
        self.write(".nojekyll", "")
        behind = [{"lang": lang, "notes": path, "commit": commit} for (lang, path), commit in sorted(self.behind.items())]
        self.write("site.json", json.dumps({
            "languages": list(LANGUAGES),
            "lessons": [{"number": l["number"], "name": l["name"], "page": self.page_name(l["notes"])}
                        for l in self.lessons],
            "pages": sorted(set(self.pages.values())),
            "translations_behind": behind,
            "sections_not_in_english": [{"translation": p, "section": sid} for p, sid in sorted(set(self.orphans))]},
            indent=1) + "\n")


def git_changed_since(root):
    """A function (path, commit) -> true when git says path changed in a
    commit after `commit`; None where there is no git history."""
    def changed(path, commit):
        try:
            out = subprocess.run(["git", "-C", root, "log", "--format=%H", commit + "..HEAD", "--", path],
                                 capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            return False
        return bool(out.strip())
    try:
        subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return changed


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=".", help="the repository")
    ap.add_argument("--web", default="build-web", help="where raypick.js and raypick.wasm are")
    ap.add_argument("--out", default="build-web/site", help="the site's folder (replaced)")
    args = ap.parse_args(argv)
    try:
        site = Site(args.root, args.web, args.out, git_changed_since(args.root))
        site.build()
    except SiteError as e:
        print("site.py: %s" % e, file=sys.stderr)
        return 1
    pages = sum(len(files) for _, _, files in os.walk(args.out))
    print("site.py: %s: %d files, %d pages a language, %d lessons" % (args.out, pages, len(site.pages) + 1,
                                                                      len(site.lessons)))
    for path, sid in sorted(set(site.orphans)):
        print("site.py: %s: section '%s' is not in the English notes (kept where it is; its id above "
              "the heading should be an English section's)" % (path, sid))
    for (lang, path), commit in sorted(site.behind.items()):
        print("site.py: %s/%s translates %s as of %s; the English changed since" % (
            posixpath.dirname(path), lang, path, commit))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
