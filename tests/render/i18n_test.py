#!/usr/bin/env python3
"""Render tests of the program's languages (--lang, the locale, fonts):

    i18n_test.py RAYPICK [I18nTest.test_TEST ...]    TEST: options glyphs panel_glyphs panel_comments
                                                            fallback

options   --lang xx is refused with a message; --lang and the locale
          (LC_ALL over LC_MESSAGES over LANG) choose the language of
          --help and --list-lessons.
glyphs    the HUD's title in German and Chinese is drawn with the fonts'
          own glyphs: each non-ASCII character of the title is found in
          the screenshot, in order, by matching the character as Pillow
          (FreeType, not the program's stb_truetype) draws it with the
          face the program reports, and matches it far better than it
          matches any other character of the title. A missing box ("tofu")
          or a wrong font matches none.
panel-glyphs  lesson 4's code panel in Chinese (step mode, a click, five
          steps): each ideograph of the step's sentence (--report) is found
          in the text under the listing (--report's panel: text_y, scale)
          as FreeType draws it with the CJK face.
panel-comments  lesson 2's code panel at its tour's first moment, which
          lights a comment line: --report's code is the listing's line in
          English, and in German and Chinese the code as written with the
          comment's translation from po/LANG.po; the panel's scale is the
          same in every language (no translated line is wider than the
          listing's widest); in Chinese each ideograph of the comment is
          found in the lit line as FreeType draws it with the CJK face.
fallback  with no font for Chinese (RAYPICK_FONT at a Latin font only, or
          at nothing) --lang zh says what to install and shows English; a
          file that is no font is named, and the HUD uses its built-in
          font.
"""
import math
import os
import sys

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from rp_render import WRAPPER, RenderCase, check, ctx, lessons, main, run_program

# large enough that the title's em (about 30 pixels) leaves FreeType's hinting
# (Pillow's) and stb_truetype's unhinted outlines a pixel's difference at most
SIZE = (1920, 1080)
# Under Wine (scripts/windows) a Windows program finds no Debian fonts and
# reads Unix paths through drive Z:; the tests give it these.
FONTS_LATIN = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
               "/usr/share/fonts/dejavu/DejaVuSans.ttf", "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf"]
FONTS_CJK = ["/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
             "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc", "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"]


def program_path(path):
    """a path of this machine as the program under test opens it"""
    return "Z:" + path if WRAPPER else path


def local_path(path):
    """a path the program reported, as this machine opens it"""
    return path[2:] if WRAPPER and path[:2].upper() == "Z:" else path


def run(args, expect=0, env=None):
    """(stdout, stderr) of raypick with args, as UTF-8 text; env: variables
    set (a value None removes one) on top of a locale-free environment."""
    full = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG", "RAYPICK_FONT")}
    if WRAPPER:
        found = [next((f for f in fonts if os.path.isfile(f)), None) for fonts in (FONTS_LATIN, FONTS_CJK)]
        full["RAYPICK_FONT"] = ";".join(program_path(f) for f in found if f)
    for k, v in (env or {}).items():
        if v is None:
            full.pop(k, None)
        else:
            full[k] = v
    cmd = WRAPPER + [ctx.raypick] + [str(a) for a in args]
    proc = run_program(cmd, env=full, text=False)
    out, err = proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")
    if proc.returncode != expect:
        raise AssertionError("%s exited %d, expected %d\nstderr: %s" % (" ".join(cmd), proc.returncode, expect,
                                                                       err[-2000:]))
    return out, err


def titles(args=(), env=None):
    import json
    out, _ = run(list(args) + ["--list-lessons"], env=env)
    return [json.loads(line.rstrip(","))["title"] for line in out.splitlines() if line.startswith("{\"number\"")]


def hud(lang, env=None, lesson=1):
    import json
    out, err = run(["--lesson", lesson, "--size", "%dx%d" % SIZE, "--lang", lang, "--print-layout"], env=env)
    return json.loads(out.splitlines()[0])["hud"], err


# ------------------------------------------------------------------ glyphs

def red_band(png, layout):
    """the title's rows of the screenshot, red channel (the title's ink is
    (1, 0.92, 0.65) on a dark panel: red is the coverage), the panel's own
    level taken off"""
    h = layout["hud"] if "hud" in layout else layout
    top = max(int(h["title_y"]) - 4, 0)
    bottom = int(h["title_y"] + 12 * h["title_scale"]) + 5
    left = max(int(h["text_x"]) - 4, 0)
    right = int(h["top"][0] + h["top"][2])
    with Image.open(png) as im:
        band = im.convert("RGB").crop((left, top, right, bottom)).getchannel("R")
    panel = sorted(band.getdata())[band.width * band.height // 2]
    return ImageChops.subtract(band, Image.new("L", band.size, panel)), (left, top)


def soft(im):
    """a pixel's blur: FreeType's hinting moves a stem by a pixel where
    stb_truetype's exact coverage does not; the shapes must agree, not
    their pixels"""
    return im.filter(ImageFilter.GaussianBlur(1.0))


def glyph_image(font, ch):
    """ch as FreeType draws it: coverage 0..255 on black, cropped to its ink"""
    box = font.getbbox(ch)
    w, h = max(box[2] - box[0], 1), max(box[3] - box[1], 1)
    im = Image.new("L", (w, h), 0)
    ImageDraw.Draw(im).text((-box[0], -box[1]), ch, font=font, fill=255)
    return im


def _mismatches(band, glyph, xs, ys):
    """mean |difference| (0..255) of glyph placed at each (x, y), x in xs,
    y in ys (ranges): an array [y][x]. Beyond the band's edges its pixels
    are 0, as Image.crop pads them. numpy: every place at once, where one
    crop and one ImageStat per place took 38 s for one test."""
    g = np.asarray(glyph, dtype=np.int16)
    h, w = g.shape
    a = np.asarray(band, dtype=np.int16)
    a = np.pad(a, ((0, max(ys.stop - 1 + h - a.shape[0], 0)), (0, max(xs.stop - 1 + w - a.shape[1], 0))))
    out = np.empty((len(ys), len(xs)))
    for i, y in enumerate(ys):
        rows = a[y:y + h, xs.start:xs.stop - 1 + w]
        windows = np.lib.stride_tricks.sliding_window_view(rows, w, axis=1)    # [h][x][w]
        out[i] = np.abs(windows - g[:, None, :]).sum(axis=(0, 2), dtype=np.int64) / (h * w)
    return out


def mismatch(band, glyph, x, y):
    """mean |difference| of glyph placed at (x, y) in band, 0..255"""
    return float(_mismatches(band, glyph, range(x, x + 1), range(y, y + 1))[0, 0])


def best_place(band, glyph, x_from=0, x_to=None):
    """(mismatch, x, y) of the glyph's best place in band, x in [x_from, x_to);
    of equal ones the first, row by row"""
    x_to = band.width - glyph.width + 1 if x_to is None else min(x_to, band.width - glyph.width + 1)
    xs = range(max(x_from, 0), max(x_to, x_from + 1))
    ys = range(0, max(band.height - glyph.height + 1, 1))
    if len(xs) == 0:
        return (1e9, 0, 0)
    m = _mismatches(band, glyph, xs, ys)
    i, j = np.unravel_index(np.argmin(m), m.shape)
    return float(m[i, j]), xs[j], ys[i]


def faces(h):
    """the faces the program reports, as Pillow fonts at the title's em"""
    # text.c rasterises at lroundf(em): half away from zero (round() would
    # take 40 for 40.5, the HUD's title at 1920x1080, where the program draws 41)
    em = int(math.floor(10 * h["title_scale"] + 0.5))
    return [ImageFont.truetype(local_path(f["path"]), em, index=f["index"]) for f in h["fonts"]], em


def check_distinct(where, band, glyphs, found, clear):
    """Where each glyph was found, every other one matches far worse:
    clear(m, alt) says whether alt (another glyph's best mismatch within 3
    pixels of that place) is far enough above m (the glyph's own)."""
    for ch, (m, x, y) in found.items():
        for other, g in glyphs.items():
            if other == ch:
                continue
            alt = min(mismatch(band, g, xx, yy) for xx in range(max(x - 3, 0), x + 4)
                      for yy in range(max(y - 3, 0), min(y + 4, band.height - g.height + 1)))
            check(clear(m, alt), "%s: at %r's place %r matches nearly as well (%.1f vs %.1f)"
                  % (where, ch, other, alt, m))


def check_title_glyphs(lang, face_for):
    h, err = hud(lang)
    check(h["language"] == lang, "--lang %s: the HUD shows %s (%s)" % (lang, h["language"], err.strip()))
    png = os.path.join(ctx.tmp, "hud-%s.png" % lang)
    run(["--lesson", 1, "--size", "%dx%d" % SIZE, "--lang", lang, "--frames", 2, "--screenshot", png])
    band = soft(red_band(png, h)[0])
    fonts, em = faces(h)
    title = h["title"]
    wanted = [ch for ch in dict.fromkeys(title) if ord(ch) > 127 and not ch.isspace()]
    check(len(wanted) >= 1, "%s: no non-ASCII character in the title %r" % (lang, title))
    glyphs = {ch: soft(glyph_image(fonts[face_for(ch, h)], ch)) for ch in wanted}
    found = {}
    for ch in wanted:
        m, x, y = best_place(band, glyphs[ch])
        found[ch] = (m, x, y)
        check(m < 22.0, "%s: %r (U+%04X) is not drawn as its font draws it: best mismatch %.1f of 255"
              % (lang, ch, ord(ch), m))
    # in the title's order (first occurrences)
    order = sorted(wanted, key=lambda ch: title.index(ch))
    xs = [found[ch][1] for ch in order]
    check(xs == sorted(xs), "%s: the characters are not in the title's order: %s" %
          (lang, [(ch, found[ch][1]) for ch in order]))
    # distinct: where one character is, every other one matches far worse
    check_distinct(lang, band, glyphs, found, lambda m, alt: alt > 2.0 * m + 6.0)
    return h


# ------------------------------------------------------------------ tests

class I18nTest(RenderCase):
    def test_options(self):
        for bad in (["--lang", "xx"], ["--lang", "DE"], ["--lang", ""], ["--lang"]):
            _, err = run(bad + ["--frames", "1"], expect=2)
            check("usage:" in err, "%s: no usage on stderr" % bad)
            if len(bad) == 2:
                check("no language '%s'" % bad[1] in err and "en, de, zh" in err,
                      "%s: the message does not name the language and the choices: %r" % (bad, err))
        english = titles(["--lang", "en"])
        german = titles(["--lang", "de"])
        chinese = titles(["--lang", "zh"])
        check(len(english) == len(german) == len(chinese) == len(lessons()),
              "--list-lessons: %d, %d, %d titles for %d lessons" % (len(english), len(german), len(chinese),
                                                                    len(lessons())))
        check(all(g != e for g, e in zip(german, english)) and all(c != e for c, e in zip(chinese, english)),
              "--lang de / zh: titles not translated: %s %s" % (german, chinese))
        check(any(ord(ch) > 0x3000 for ch in "".join(chinese)), "--lang zh: no Chinese in the titles: %s" % chinese)
        # --help in the language asked for, before or after --help
        for args in (["--lang", "de", "--help"], ["--help", "--lang", "de"]):
            out, _ = run(args)
            check(all(t in out for t in german), "%s: the German titles are not listed" % args)
        out, _ = run(["--help"], env={"LANG": "zh_CN.UTF-8"})
        check(all(t in out for t in chinese), "LANG=zh_CN.UTF-8 --help: not in Chinese")
        # the locale: LC_ALL over LC_MESSAGES over LANG; --lang over all
        check(titles(env={"LANG": "de_DE.UTF-8"}) == german, "LANG=de_DE.UTF-8: not German")
        check(titles(env={"LANG": "de_DE.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}) == chinese,
              "LC_MESSAGES=zh_CN over LANG=de_DE: not Chinese")
        check(titles(env={"LANG": "de_DE.UTF-8", "LC_ALL": "C"}) == english, "LC_ALL=C over LANG=de_DE: not English")
        check(titles(env={"LANG": "fr_FR.UTF-8"}) == english, "LANG=fr_FR.UTF-8: not English")
        check(titles(["--lang", "en"], env={"LANG": "zh_CN.UTF-8"}) == english, "--lang en over LANG=zh_CN: not English")
        check(titles() == english, "no locale: not English")

    def test_glyphs(self):
        def latin_first(ch, h):
            return 0

        def cjk(ch, h):
            # the program's chain: the Latin face first; CJK characters come from the second
            return 1 if ord(ch) >= 0x2e80 else 0

        h = check_title_glyphs("de", latin_first)
        check(len(h["fonts"]) == 1, "German opened a CJK face too: %s" % h["fonts"])
        h = check_title_glyphs("zh", cjk)
        check(len(h["fonts"]) == 2, "Chinese: the faces %s" % h["fonts"])

    def test_panel_glyphs(self):
        """Lesson 4's code panel in Chinese, step 6 of a click's search: each
        ideograph of the step's sentence (from --report) is found in the text
        under the listing as the CJK face draws it, and matches far better
        there than any other of them."""
        import json
        png = os.path.join(ctx.tmp, "panel-zh.png")
        click = (840, 660)       # teach_test.py's click on landmark 1's slope, at 1920x1080
        args = ["--lesson", 4, "--size", "%dx%d" % SIZE, "--lang", "zh", "--report", "--key", "h@0", "--key", "p@1",
                "--click", "%d,%d@2" % click] + ["--key", ".@3"] * 5 + ["--frames", 6, "--screenshot", png]
        out, err = run(args)
        lines = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
        panel = [l["panel"] for l in lines if "panel" in l][-1]
        step = [l["step"] for l in lines if "step" in l][-1]
        check(panel["shown"], "lesson 4 in Chinese at %dx%d drew no code panel" % SIZE)
        wanted = [ch for ch in dict.fromkeys(step["sentence"]) if 0x4E00 <= ord(ch) <= 0x9FFF]
        check(len(wanted) >= 3, "the step's sentence has no Chinese: %r" % step["sentence"])
        h, _ = hud("zh", lesson=4)
        fonts = [ImageFont.truetype(local_path(f["path"]), int(round(10 * panel["scale"])), index=f["index"])
                 for f in h["fonts"]]
        check(len(fonts) == 2, "Chinese: the faces %s" % h["fonts"])
        # the text under the listing, green channel: its ink is (0.75, 1, 0.8)
        x, y, w, hh = panel["code"]
        top = max(int(panel["text_y"]) - 4, 0)
        with Image.open(png) as im:
            # the step's line and the sentence's (wrapped) lines; the watches below are ASCII
            bottom = min(int(panel["text_y"] + 4 * panel["line_h"]) + 4, int(y + hh))
            band = im.convert("RGB").crop((int(x), top, int(x + w), bottom)).getchannel("G")
        level = sorted(band.getdata())[band.width * band.height // 2]
        band = soft(ImageChops.subtract(band, Image.new("L", band.size, level)))
        glyphs = {ch: soft(glyph_image(fonts[1], ch)) for ch in wanted}
        found = {}
        for ch in wanted:
            found[ch] = best_place(band, glyphs[ch])
            check(found[ch][0] < 22.0, "panel: %r (U+%04X) is not drawn as its font draws it: best mismatch %.1f of 255"
                  % (ch, ord(ch), found[ch][0]))
        # the panel's em (about 20 pixels here) is smaller than the title's, and
        # the blur makes ideographs alike: a clear margin, not the title's ratio
        check_distinct("panel", band, glyphs, found, lambda m, alt: alt > m + 8.0)

    def test_panel_comments(self):
        """Lesson 2's panel lights line 88, a comment (the tour's first
        moment: the beam's end); its code in --report and its ideographs on
        screen are the language's."""
        import json
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
        sys.path.insert(0, os.path.join(root, "src", "lessons", "listings"))
        sys.path.insert(0, os.path.join(root, "po"))
        import listing2c
        import po2c
        path = os.path.join(root, "src", "lessons", "listings", "lesson2_phaser_tutorial.c")
        shown, _ = listing2c.parse(path)
        by_line = {n: c for c in listing2c.comments(path, shown, "lesson2_phaser_tutorial")
                   for n, _, _ in c["lines"]}
        seen = {}
        for lang in ("en", "de", "zh"):
            png = os.path.join(ctx.tmp, "comments-%s.png" % lang)
            out, _ = run(["--lesson", 2, "--tour", 1, "--size", "%dx%d" % SIZE, "--lang", lang, "--report",
                          "--frames", 6, "--screenshot", png])
            lines = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
            panel = [l["panel"] for l in lines if "panel" in l][-1]
            step = [l["step"] for l in lines if "step" in l][-1]
            check(panel["shown"], "lesson 2 in %s drew no code panel" % lang)
            n = step["line"]
            check(n in by_line and len(by_line[n]["lines"]) == 1,
                  "the tour's first moment lights line %d, no one-line comment: %r" % (n, step["code"]))
            english = shown[n - 1][1]
            (_, column, text), = by_line[n]["lines"]
            if lang == "en":
                want = english
            else:
                po = {e["ctxt"]: e["str"] for e in po2c.parse_po(os.path.join(root, "po", lang + ".po"))}
                want = english[:column] + po[by_line[n]["id"]].replace("%%", "%")
                check(want != english, "po/%s.po does not translate %s" % (lang, by_line[n]["id"]))
            check(step["code"] == want, "%s: line %d shows %r, not %r" % (lang, n, step["code"], want))
            seen[lang] = (panel, png, step["code"][column:])
        scales = {lang: seen[lang][0]["scale"] for lang in seen}
        check(len(set(scales.values())) == 1, "the panel's scale differs by language: %s" % scales)
        # the comment's ideographs in the lit line (its ink (1, 0.95, 0.55) on the lit band)
        panel, png, comment = seen["zh"]
        wanted = [ch for ch in dict.fromkeys(comment) if 0x4E00 <= ord(ch) <= 0x9FFF]
        check(len(wanted) >= 5, "the Chinese comment has no ideographs: %r" % comment)
        h, _ = hud("zh", lesson=2)
        fonts = [ImageFont.truetype(local_path(f["path"]), int(round(10 * panel["scale"])), index=f["index"])
                 for f in h["fonts"]]
        check(len(fonts) == 2, "Chinese: the faces %s" % h["fonts"])
        x, y, w, hh = panel["lit"]
        with Image.open(png) as im:
            band = im.convert("RGB").crop((int(x), max(int(y) - 3, 0), int(x + w), int(y + hh) + 3)).getchannel("G")
        level = sorted(band.getdata())[band.width * band.height // 2]
        # full coverage lifts green from the band's 0.32 to the ink's 0.95: scaled to 0..255
        band = ImageChops.subtract(band, Image.new("L", band.size, level))
        band = soft(band.point(lambda v: min(255, int(round(v / 0.63)))))
        glyphs = {ch: soft(glyph_image(fonts[1], ch)) for ch in wanted}
        found = {}
        for ch in wanted:
            found[ch] = best_place(band, glyphs[ch])
            check(found[ch][0] < 22.0, "lit line: %r (U+%04X) is not drawn as its font draws it: best mismatch "
                  "%.1f of 255" % (ch, ord(ch), found[ch][0]))
        check_distinct("lit line", band, glyphs, found, lambda m, alt: alt > m + 8.0)

    def test_fallback(self):
        plain = hud("en")[0]
        english, latin = plain["title"], plain["fonts"][0]["path"]
        for font, why in ((latin, "lack characters of"), (program_path(os.path.join(ctx.tmp, "none.ttf")), "cannot open")):
            h, err = hud("zh", env={"RAYPICK_FONT": font})
            where = "RAYPICK_FONT=%s --lang zh" % font
            check(h["language"] == "en" and h["title"] == english, where + ": not English: %s %r" % (h["language"],
                                                                                                     h["title"]))
            check(why in err and "showing English" in err and "RAYPICK_FONT" in err,
                  where + ": the message does not say why and what to do: %r" % err)
            if sys.platform.startswith("linux") and not WRAPPER:
                check("fonts-noto-cjk" in err, where + ": the message names no package: %r" % err)
        # German without a font: English too (umlauts need one)
        h, err = hud("de", env={"RAYPICK_FONT": program_path(os.path.join(ctx.tmp, "none.ttf"))})
        check(h["language"] == "en" and "showing English" in err, "German without a font: %s %r" % (h["language"], err))
        # a file that is no font: named, and the built-in font draws English
        bogus = os.path.join(ctx.tmp, "bogus.ttf")
        with open(bogus, "w") as f:
            f.write("not a font at all, only words")
        h, err = hud("en", env={"RAYPICK_FONT": program_path(bogus)})
        check(h["fonts"] == [] and "bogus.ttf" in err and "not a TrueType" in err and "built-in" in err,
              "RAYPICK_FONT at a text file: fonts %s, stderr %r" % (h["fonts"], err))
        png = os.path.join(ctx.tmp, "builtin.png")
        run(["--size", "%dx%d" % SIZE, "--frames", 2, "--screenshot", png], env={"RAYPICK_FONT": program_path(bogus)})
        band, _ = red_band(png, h)
        inked = sum(1 for v in band.getdata() if v > 128)
        check(inked > 100, "the built-in font drew no title (%d bright pixels)" % inked)


if __name__ == "__main__":
    sys.exit(main())
