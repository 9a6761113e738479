#!/usr/bin/env python3
"""test_site.py: the teaching site (scripts/web: build-web/site/) in headless Chromium.

    python3 tests/web/test_site.py --site build-web/site --native build/src/app/raypick [--out DIR]

Drives Debian's Chromium through Selenium and chromedriver (python3-selenium,
chromium-driver), WebGL 2 from SwiftShader as tests/web/test_web.py does,
with the site served from its folder by a local HTTP server. Checks:
  * the site has a page for every lesson of the native program's registry
    (--list-lessons), in every language;
  * every page, in every language, opens without console errors, and each
    lesson page runs its lesson in the canvas (the program tells the page
    its first step message; the canvas is not blank; nothing on stderr:
    a font the language lacks would say so); each page's screenshot is
    saved (--out);
  * the code panel follows steps driven through the page, in English,
    German and Chinese: the step-mode button, a real click in the canvas, the
    next-step button; each step's lit line, sentence and watches are what
    the native program's --report step lines say for the same clicks and
    keys; the listing's comments are in the page's language (po/LANG.po's
    translation after the code as written); the page's checkbox then puts the program's own panel into the
    canvas (its picture saved as panel-LANG.png); a tour button stages its
    moment as --tour does natively;
  * every internal link, picture, script and style of every file of the
    site resolves, anchors included;
  * keyboard only: Tab from the top of a lesson page reaches the tour's
    buttons and the canvas, each with a visible focus outline; Enter on a
    tour button stages it; keys typed into the canvas reach the program;
  * a phone-sized window: the lesson page stacks (notes under the
    program), nothing wider than the window;
  * ?lang= moves to the same page in the language asked for; the program
    in the canvas speaks it;
  * which translated notes are behind their English source (listed; a
    translation's header and section ids must be valid).

Prints "N passed, M failed" last (scripts/web --test adds it to its own).
"""
import argparse
import functools
import html.parser
import importlib.util
import http.server
import io
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lesson_registry  # noqa: E402  (tests/lesson_registry.py)

from PIL import Image, ImageChops, ImageStat  # noqa: E402  (Debian's python3-pil)
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SITE = NATIVE = OUT = None
LANGUAGES = ("en", "de", "zh")
DESKTOP = (1280, 900)
PHONE = (390, 844)
NOT_BLANK = 12.0          # grey-level standard deviation of the canvas (test_web.py's measure)
# wasm's float maths (cglm's plain C) against the native build's (SSE), relative
# to the watch's largest number: the far plane's unprojected point
# (GetPointerRay's far3DWorldPoint, 200 units away) differs in its fifth digit
WATCH_RELATIVE = 1e-3
STEP_LESSON = 4           # the lesson whose listing the panel test walks (the first with a tour)


# ------------------------------------------------------------ the server and the browser

class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".wasm": "application/wasm", ".js": "text/javascript"})

    def log_message(self, *args):
        pass


def serve(folder):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def chrome(size):
    options = Options()
    for arg in ("--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
                "--ignore-gpu-blocklist", "--no-first-run", "--no-default-browser-check",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-extensions", "--mute-audio", "--hide-scrollbars", "--lang=en-US",
                "--force-device-scale-factor=1", "--window-size=%d,%d" % size):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for binary in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if os.path.exists(binary):
            options.binary_location = binary
            break
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(60)
    return driver


def wait_for(driver, script, timeout=60.0, what="condition"):
    """The first truthy result of script (JavaScript returning a value);
    objects come back through JSON, so their keys keep their order."""
    deadline = time.monotonic() + timeout
    wrapped = "return JSON.stringify((function () { %s })() || null);" % script
    while True:
        value = json.loads(driver.execute_script(wrapped))
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("waited %gs for %s" % (timeout, what))
        time.sleep(0.1)


def wait_frames(driver, frames=3):
    """Returns once the page has run `frames` animation frames from now:
    the program (which draws in its own requestAnimationFrame callback)
    has drawn, and the browser painted, what a scroll or a click changed.
    Frames, not seconds: a loaded machine only makes them later."""
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; let left = %d;"
        "(function next() { if (--left < 0) done(); else requestAnimationFrame(next); })();"
        % frames)


def console_errors(driver):
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


# ------------------------------------------------------------ the native program

def run_native(args):
    cmd = [NATIVE] + args
    if not os.environ.get("DISPLAY"):
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1920x1200x24"] + cmd
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise AssertionError("%s exited %d: %s" % (" ".join(cmd), p.returncode, p.stderr[-800:]))
    return [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]


def native_steps(lines):
    return [line["step"] for line in lines if "step" in line]


def numbers(text):
    return [float(x) for x in re.findall(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan", text)]


def same_watches(testcase, page, native, where):
    testcase.assertEqual(list(page), list(native), "%s: watch names" % where)
    for name in native:
        a, b = numbers(page[name]), numbers(native[name])
        testcase.assertEqual(len(a), len(b), "%s: %s = %s in the page, %s natively" % (where, name, page[name],
                                                                                    native[name]))
        scale = max([1.0] + [abs(y) for y in b])
        for x, y in zip(a, b):
            testcase.assertLessEqual(abs(x - y), WATCH_RELATIVE * scale,
                                     "%s: %s = %s in the page, %s natively" % (where, name, page[name], native[name]))


# ------------------------------------------------------------ the site's files

class Links(html.parser.HTMLParser):
    """The ids of a page and every URL it refers to."""

    def __init__(self):
        super().__init__()
        self.ids = set()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name"):
            if a.get(key) and (key == "id" or tag == "a"):
                self.ids.add(a[key])
        for key in ("href", "src"):
            if a.get(key) is not None and tag in ("a", "img", "link", "script"):
                self.urls.append((tag, a[key]))


def parse_page(path):
    parser = Links()
    with open(path, encoding="utf-8") as f:
        parser.feed(f.read())
    return parser


def site_pages():
    """Every HTML file of the site, relative to it."""
    found = []
    for dirpath, dirnames, filenames in os.walk(SITE):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".html"):
                found.append(os.path.relpath(os.path.join(dirpath, name), SITE).replace(os.sep, "/"))
    return found


def site_json():
    with open(os.path.join(SITE, "site.json"), encoding="utf-8") as f:
        return json.load(f)


# ------------------------------------------------------------ the tests

class SiteTest(unittest.TestCase):
    driver = None
    server = None

    @classmethod
    def setUpClass(cls):
        cls.server = serve(SITE)
        cls.base = "http://127.0.0.1:%d/" % cls.server.server_address[1]
        cls.driver = chrome(DESKTOP)
        cls.registry = lesson_registry.list_lessons(NATIVE)
        cls.site = site_json()

    @classmethod
    def tearDownClass(cls):
        if cls.driver:
            cls.driver.quit()
        if cls.server:
            cls.server.shutdown()

    def open(self, page, size=DESKTOP):
        d = self.driver
        if tuple(d.get_window_size().values()) != size:
            d.set_window_size(*size)
        d.get("about:blank")
        d.get_log("browser")        # what earlier pages left
        d.get(self.base + page)
        wait_for(d, "return document.readyState === 'complete'", what="%s to load" % page)
        return d

    def wait_program(self, page):
        """The lesson page's program running: its first message."""
        d = self.driver
        state = wait_for(d, "const p = window.raypickPage; return p && (p.messages.length || p.errors.length) && "
                            "{messages: p.messages.length, errors: p.errors, args: p.args}",
                         what="the program in %s" % page)
        self.assertEqual(state["errors"], [], "%s: the program's stderr" % page)
        return state

    def shot(self, name):
        if OUT:
            self.driver.save_screenshot(os.path.join(OUT, name + ".png"))

    def lesson_page(self, number):
        return next(l["page"] for l in self.site["lessons"] if l["number"] == number)

    # ---- the registry

    def test_a_page_for_every_lesson_of_the_registry(self):
        names = [(l["number"], l["name"]) for l in self.registry]
        self.assertEqual([(l["number"], l["name"]) for l in self.site["lessons"]], names)
        for lang in LANGUAGES:
            for lesson in self.site["lessons"]:
                self.assertTrue(os.path.isfile(os.path.join(SITE, lang, lesson["page"])), (lang, lesson["page"]))
            index = parse_page(os.path.join(SITE, lang, "index.html"))
            linked = {url for tag, url in index.urls if tag == "a"}
            for lesson in self.site["lessons"]:
                self.assertIn(lesson["page"], linked, "%s/index.html links every lesson" % lang)

    # ---- every page

    def test_every_page_opens_without_console_errors(self):
        pages = ["index.html"] + ["%s/%s" % (lang, p) for lang in LANGUAGES for p in self.site["pages"] + ["index.html"]]
        pages += [p for p in site_pages() if p.startswith("source/")]
        lessons = {l["page"] for l in self.site["lessons"]}
        for page in pages:
            with self.subTest(page=page):
                d = self.open(page)
                if page.split("/")[-1] in lessons and not page.startswith("source/"):
                    self.wait_program(page)
                    canvas = d.find_element(By.ID, "canvas")
                    d.execute_script("arguments[0].scrollIntoView()", canvas)
                    wait_frames(d)
                    image = Image.open(io.BytesIO(canvas.screenshot_as_png)).convert("L")
                    spread = ImageStat.Stat(image).stddev[0]
                    self.assertGreater(spread, NOT_BLANK, "%s: the canvas is blank" % page)
                    self.check_listing_shown(page)
                    d.execute_script("window.scrollTo(0, 0)")
                self.assertEqual(console_errors(d), [], page)
                if not page.startswith("source/"):
                    self.shot(page.replace("/", "-")[:-5])

    def check_listing_shown(self, page):
        """The code section shows the listing the program sends (a lesson
        given one later shows it without an edit to the site), or says the
        lesson has none."""
        got = wait_for(self.driver, """
            const p = window.raypickPage;
            if (!p.messages.length) return null;
            const m = p.messages[p.messages.length - 1];
            const config = JSON.parse(document.getElementById('raypick-config').textContent);
            return {listing: m.listing, none: config.texts['site.code.none'],
                    path: document.getElementById('code-path').textContent,
                    hidden: document.getElementById('listing-box').hidden,
                    lines: Array.from(document.querySelectorAll('#listing li')).map((li) => li.textContent)};""",
            what="%s: the program's message" % page)
        if got["listing"]:
            self.assertFalse(got["hidden"], "%s: the listing shown" % page)
            self.assertEqual(got["path"], got["listing"]["path"], page)
            self.assertEqual([l.strip() for l in got["lines"]], [l.strip() for l in got["listing"]["lines"]], page)
        else:
            self.assertTrue(got["hidden"], "%s: no listing box without a listing" % page)
            self.assertEqual(got["path"], got["none"], "%s: the page says the lesson has no listing" % page)

    # ---- the code panel against the native program

    def walk_steps(self, lang, steps):
        """Step mode, a click in the canvas, `steps` times the next-step
        button, all through the page; returns (the page's args, the click,
        what the panel showed after each, the messages)."""
        page = "%s/%s?report" % (lang, self.lesson_page(STEP_LESSON))
        d = self.open(page)
        state = self.wait_program(page)
        canvas = d.find_element(By.ID, "canvas")
        d.execute_script("arguments[0].scrollIntoView()", canvas)
        buttons = {b.get_attribute("data-key"): b for b in d.find_elements(By.CSS_SELECTOR, "button[data-key]")}
        buttons["p"].click()
        size = [int(v) for v in state["args"][state["args"].index("--size") + 1].split("x")]
        rect = d.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height];", canvas)
        self.assertEqual([int(v) for v in rect], size, "the canvas is the size the program was given")
        ActionChains(d).move_to_element_with_offset(canvas, 0, rect[1] * 0.05).click().perform()
        # where the click landed, as the program's --report pick line says (its window coordinates)
        pick = wait_for(d, "return raypickPage.printed.map((l) => JSON.parse(l)).filter((r) => 'x' in r)[0]",
                        what="the pick's report line")
        x, y = int(pick["x"]), int(pick["y"])
        self.assertEqual(pick["viewport"], size, "the program draws at the size its options say")
        shown = []

        def panel():
            return wait_for(d, """
                const lit = document.querySelector('#listing li.lit');
                const w = {};
                const dts = document.querySelectorAll('#watches dt');
                for (const dt of dts) w[dt.textContent] = dt.nextElementSibling.textContent;
                const m = raypickPage.last;
                return {line: lit ? lit.value : null, text: lit ? lit.textContent : null, watches: w,
                        sentence: document.getElementById('step-line').textContent,
                        step: m && m.report && m.report.step};""", what="the panel")
        count = 0
        for k in range(steps + 1):
            wait_for(d, "const m = raypickPage.last; return m && m.report && m.report.step.index === %d" % k,
                     what="step %d in %s" % (k, page))
            shown.append(panel())
            count = shown[-1]["step"]["count"]
            if k + 1 >= count:
                break
            buttons["."].click()
        self.assertEqual(console_errors(d), [], page)
        # the listing as the page shows it, for check_listing_comments
        self.page_listing = d.execute_script(
            "return [...document.querySelectorAll('#listing li')].map((li) => li.textContent)")
        return state["args"], (x, y), shown, wait_for(d, "return raypickPage.messages", what="the messages")

    def check_listing_comments(self, lang, messages):
        """The page's listing is the program's, its comments in the page's
        language: the code as written, after "// " the line of po/LANG.po's
        translation (English: the listing as listing2c.py prints it)."""
        sys.path.insert(0, os.path.join(ROOT, "src", "lessons", "listings"))
        sys.path.insert(0, os.path.join(ROOT, "po"))
        import listing2c
        import po2c
        listing = messages[-1]["listing"]
        path = os.path.join(ROOT, listing["path"])
        shown, _ = listing2c.parse(path)
        english = [text.replace("\t", "    ") for _, text in shown]
        self.assertEqual([t.strip() for t in self.page_listing], [t.strip() for t in listing["lines"]],
                         "%s: the page shows the program's listing" % lang)
        po = {} if lang == "en" else {e["ctxt"]: e["str"] for e in po2c.parse_po(os.path.join(ROOT, "po", lang + ".po"))}
        comments = listing2c.comments(path, shown, listing["name"])
        self.assertTrue(comments, "%s has comments" % listing["path"])
        for c in comments:
            for part, (n, column, _) in enumerate(c["lines"]):
                want = english[n - 1] if lang == "en" else \
                    english[n - 1][:column] + po[c["id"]].replace("%%", "%").split("\n")[part]
                self.assertEqual(listing["lines"][n - 1], want, "%s: line %d's comment" % (lang, n))
        translated = sum(a != b for a, b in zip(listing["lines"], english))
        self.assertEqual(translated, 0 if lang == "en" else sum(len(c["lines"]) for c in comments), lang)

    def check_steps_against_native(self, lang):
        args, (x, y), shown, messages = self.walk_steps(lang, 6)
        args = [a for a in args if a != "--report"]
        self.assertGreater(len(shown), 2, "the click gave steps to walk")
        keys = ["--key", "p@1", "--click", "%d,%d@2" % (x, y)]
        keys += [a for k in range(1, len(shown)) for a in ("--key", ".@%d" % (2 + k))]
        native = native_steps(run_native(args + ["--report", "--frames", str(len(shown) + 4)] + keys))
        self.assertEqual(len(native), len(shown), "a step line for each step shown")
        for k, (page, want) in enumerate(zip(shown, native)):
            where = "%s step %d" % (lang, k + 1)
            self.assertEqual(page["step"]["line"], want["line"], where)
            self.assertEqual(page["line"], want["line"], "%s: the lit line" % where)
            self.assertEqual(page["text"].strip(), want["code"].strip(), "%s: the lit line's code" % where)
            self.assertEqual(page["step"]["sentence"], want["sentence"], where)
            self.assertIn(want["sentence"], page["sentence"], "%s: the sentence under the listing" % where)
            self.assertEqual(page["step"]["tag"], want["tag"], where)
            same_watches(self, page["watches"], want["watches"], where)
        self.check_listing_comments(lang, messages)
        lines = [p["line"] for p in shown]
        self.assertGreater(len(set(lines)), 1, "the lit line moves")
        self.assertGreater(len({json.dumps(p["watches"]) for p in shown}), 1, "the watches change")
        self.panel_in_canvas(lang)
        return messages

    def panel_in_canvas(self, lang):
        """The page's checkbox puts the program's own code panel into the
        canvas (drawn in the page's language with its fonts): the canvas
        changes where the panel goes; a picture of it for the eye."""
        d = self.driver
        canvas = d.find_element(By.ID, "canvas")
        box = d.find_element(By.ID, "panel-in-canvas")
        self.assertFalse(box.is_selected(), "the panel starts outside the canvas")
        d.execute_script("arguments[0].scrollIntoView()", canvas)
        wait_frames(d)
        before = Image.open(io.BytesIO(canvas.screenshot_as_png)).convert("L")
        d.execute_script("window.raypickPage.panelDrawn = undefined; arguments[0].click()", box)
        drawn = wait_for(d, "const p = window.raypickPage; return p.panelDrawn !== undefined && {drawn: p.panelDrawn}",
                         what="the program's answer: the panel drawn or not")["drawn"]
        self.assertTrue(drawn, "%s: the program drew the panel in a %s canvas" % (lang, canvas.size))
        self.assertFalse(d.find_element(By.ID, "panel-note").is_displayed(), "%s: no note when it fits" % lang)
        wait_frames(d)
        shot = Image.open(io.BytesIO(canvas.screenshot_as_png))
        if OUT:
            shot.save(os.path.join(OUT, "panel-%s.png" % lang))
        changed = ImageStat.Stat(ImageChops.difference(before, shot.convert("L"))).mean[0]
        self.assertGreater(changed, 2.0, "%s: the code panel in the canvas changes the picture" % lang)
        self.assertEqual(console_errors(d), [], "%s: the panel in the canvas" % lang)

    def test_code_panel_follows_the_steps_in_english(self):
        self.check_steps_against_native("en")
        self.shot("steps-en")

    def test_code_panel_follows_the_steps_in_chinese(self):
        messages = self.check_steps_against_native("zh")
        self.assertTrue(all(m["language"] == "zh" for m in messages), "the program speaks Chinese")
        self.assertRegex(messages[-1]["report"]["step"]["sentence"], "[\u4e00-\u9fff]")
        self.shot("steps-zh")

    def test_code_panel_follows_the_steps_in_german(self):
        messages = self.check_steps_against_native("de")
        self.assertTrue(all(m["language"] == "de" for m in messages), "the program speaks German")
        self.shot("steps-de")

    def test_a_tour_button_stages_its_moment_as_natively(self):
        page = "en/" + self.lesson_page(STEP_LESSON)
        d = self.open(page)
        state = self.wait_program(page)
        buttons = wait_for(d, "const b = document.querySelectorAll('#tour-list button.tour-moment'); "
                              "return b.length && b.length", what="the tour's buttons")
        self.assertGreaterEqual(buttons, 2)
        moment = 2
        button = d.find_elements(By.CSS_SELECTOR, "#tour-list button.tour-moment")[moment - 1]
        d.execute_script("arguments[0].scrollIntoView()", button)
        button.click()
        last = wait_for(d, "const m = raypickPage.last; return m.tour === %d && m" % (moment - 1),
                        what="tour moment %d" % moment)
        self.assertEqual(button.get_attribute("aria-current"), "step")
        native = run_native(state["args"] + ["--report", "--frames", "2", "--tour", str(moment)])
        tour = [line["tour"] for line in native if "tour" in line]
        self.assertEqual(tour[0]["text"], button.text)
        steps = native_steps(native)
        if steps:
            want = steps[-1]
            got = last["report"]["step"]
            self.assertEqual((got["index"], got["line"], got["tag"]), (want["index"], want["line"], want["tag"]))
            same_watches(self, got["watches"], want["watches"], "tour moment %d" % moment)
        else:
            self.assertIsNone(last["report"])
        self.shot("tour-en")

    # ---- links

    def test_every_link_resolves(self):
        checked = 0
        ids = {}
        for page in site_pages():
            ids[page] = parse_page(os.path.join(SITE, page)).ids
        problems = []
        for page in site_pages():
            for tag, url in parse_page(os.path.join(SITE, page)).urls:
                parts = urllib.parse.urlsplit(url)
                if parts.scheme in ("http", "https", "mailto") or url.startswith("data:"):
                    continue
                checked += 1
                if parts.scheme or parts.netloc:
                    problems.append("%s: %s leaves the site" % (page, url))
                    continue
                target = page if not parts.path else posixpath.normpath(
                    posixpath.join(posixpath.dirname(page), urllib.parse.unquote(parts.path)))
                if target.startswith("../") or target == "..":
                    problems.append("%s: %s points above the site" % (page, url))
                    continue
                full = os.path.join(SITE, target)
                if os.path.isdir(full):
                    target = posixpath.join(target, "index.html")
                    full = os.path.join(SITE, target)
                if not os.path.isfile(full):
                    problems.append("%s: %s: no %s" % (page, url, target))
                elif parts.fragment and target.endswith(".html"):
                    if urllib.parse.unquote(parts.fragment) not in ids.get(target, set()):
                        problems.append("%s: %s: %s has no id '%s'" % (page, url, target, parts.fragment))
        self.assertEqual(problems, [])
        self.assertGreater(checked, 500, "links checked")
        print("  %d links checked in %d pages" % (checked, len(ids)), flush=True)

    # ---- keyboard

    def test_keyboard_reaches_the_tour_and_the_canvas(self):
        page = "en/" + self.lesson_page(STEP_LESSON)
        d = self.open(page)
        self.wait_program(page)
        wait_for(d, "return document.querySelectorAll('#tour-list button').length", what="the tour's buttons")
        d.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
        body = d.find_element(By.TAG_NAME, "body")
        body.click()
        reached = {}
        for n in range(120):
            ActionChains(d).send_keys(Keys.TAB).perform()
            info = d.execute_script("""
                const e = document.activeElement, s = getComputedStyle(e);
                return {tag: e.tagName.toLowerCase(), id: e.id, cls: e.className, moment: e.dataset.moment,
                        outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2};""")
            key = "canvas" if info["id"] == "canvas" else (
                "tour" if "tour-moment" in str(info["cls"]) else None)
            if key and key not in reached:
                reached[key] = (n, info)
                self.assertTrue(info["outline"], "%s has a visible focus outline" % key)
                if key == "tour":
                    self.shot("keyboard-tour-focus")
            if len(reached) == 2:
                break
        self.assertIn("canvas", reached, "Tab reaches the canvas")
        self.assertIn("tour", reached, "Tab reaches the tour's buttons")
        # the canvas comes before the tour (the page's order: the program, its controls, the tour)
        self.assertLess(reached["canvas"][0], reached["tour"][0])
        # Enter on the focused tour button stages its moment
        ActionChains(d).send_keys(Keys.ENTER).perform()
        wait_for(d, "return raypickPage.last.tour === 0", what="Enter to stage the first moment")
        # keys typed into the canvas reach the program: O walks the tour on
        d.execute_script("document.getElementById('canvas').focus()")
        ActionChains(d).send_keys("o").perform()
        wait_for(d, "return raypickPage.last.tour === 1", what="O typed into the canvas")

    # ---- a phone

    def test_a_phone_sized_window_stacks_the_page(self):
        for lang in ("en", "zh"):
            page = "%s/%s" % (lang, self.lesson_page(STEP_LESSON))
            d = self.open(page, PHONE)
            self.wait_program(page)
            geometry = d.execute_script("""
                const box = (id) => document.getElementById(id).getBoundingClientRect();
                return {live: box('live'), notes: box('notes'), canvas: box('canvas'),
                        width: document.documentElement.scrollWidth, inner: innerWidth};""")
            self.assertLessEqual(geometry["width"], geometry["inner"], "%s: nothing wider than the window" % page)
            self.assertGreaterEqual(geometry["notes"]["top"], geometry["live"]["bottom"] - 1, "notes under the program")
            self.assertLessEqual(geometry["canvas"]["right"], geometry["inner"])
            self.assertGreater(geometry["canvas"]["width"], geometry["inner"] * 0.8, "the canvas fills the width")
            # no room for the program's code panel in a phone's canvas: the note says so
            d.execute_script("window.raypickPage.panelDrawn = undefined; document.getElementById('panel-in-canvas').click()")
            wait_for(d, "return window.raypickPage.panelDrawn === false", what="%s: the panel not drawn" % page)
            note = d.find_element(By.ID, "panel-note")
            self.assertTrue(note.is_displayed(), "%s: the note says the picture is too narrow" % page)
            self.assertTrue(note.text.strip(), page)
            d.execute_script("document.getElementById('panel-in-canvas').click()")
            wait_for(d, "return document.getElementById('panel-note').hidden", what="%s: the note gone" % page)
            d.execute_script("window.scrollTo(0, 0)")
            self.shot("phone-" + lang)
            d.execute_script("document.getElementById('notes').scrollIntoView()")
            wait_frames(d)
            self.shot("phone-notes-" + lang)
            self.open(lang + "/index.html", PHONE)
            self.assertLessEqual(d.execute_script("return document.documentElement.scrollWidth - innerWidth"), 0)
            self.shot("phone-index-" + lang)
        self.driver.set_window_size(*DESKTOP)

    # ---- languages

    def test_lang_moves_to_the_page_in_that_language(self):
        d = self.driver
        page = self.lesson_page(STEP_LESSON)
        for start, want in (("en/%s?lang=de" % page, "de/" + page), ("de/%s?lang=zh#the-idea" % page, "zh/" + page),
                            ("index.html?lang=zh", "zh/index.html"), ("index.html", "en/index.html"),
                            ("zh/glossary.html?lang=en", "en/glossary.html")):
            with self.subTest(start=start):
                self.open(start)
                wait_for(d, "return location.pathname.endsWith('/%s')" % want, what=want)
                self.assertNotIn("lang=", d.current_url)
                if "#" in start:
                    self.assertTrue(d.current_url.endswith("#" + start.split("#")[1]))
                self.assertEqual(console_errors(d), [])
        for lang, html_lang in (("en", "en"), ("de", "de"), ("zh", "zh-Hans")):
            self.open("%s/%s" % (lang, page))
            self.assertEqual(d.execute_script("return document.documentElement.lang"), html_lang)
            message = wait_for(d, "return window.raypickPage && raypickPage.last", what="the program")
            self.assertEqual(message["language"], lang, "the program in the canvas speaks the page's language")
            self.assertEqual(d.execute_script("return raypickPage.errors"), [])

    # ---- translations

    def test_which_translations_are_behind(self):
        behind = []
        for english in sorted(os.listdir(os.path.join(ROOT, "docs", "lessons"))):
            if not english.endswith(".md"):
                continue
            source = "docs/lessons/" + english
            with open(os.path.join(ROOT, source), encoding="utf-8") as f:
                english_ids = set(re.findall(r"^## (.*)$", f.read(), re.MULTILINE))
            english_ids = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in english_ids}
            for lang in LANGUAGES[1:]:
                path = "docs/lessons/%s/%s" % (lang, english)
                full = os.path.join(ROOT, path)
                if not os.path.isfile(full):
                    behind.append("%s: missing (the site shows the English)" % path)
                    continue
                with open(full, encoding="utf-8") as f:
                    text = f.read()
                m = re.match(r"<!--\s*translation of (\S+) at ([0-9a-f]{7,40})\s*-->", text)
                self.assertIsNotNone(m, "%s: the first line names its English source and commit" % path)
                self.assertEqual(m.group(1), source, path)
                known = subprocess.run(["git", "-C", ROOT, "cat-file", "-e", m.group(2) + "^{commit}"],
                                       capture_output=True)
                self.assertEqual(known.returncode, 0, "%s: commit %s is in the history" % (path, m.group(2)))
                for sid in re.findall(r'^<a id="([^"]+)"></a>\s*\n## ', text, re.MULTILINE):
                    if sid not in english_ids:
                        behind.append("%s: section '%s' is not in the English any more" % (path, sid))
                changed = subprocess.run(["git", "-C", ROOT, "log", "--oneline", m.group(2) + "..HEAD", "--", source],
                                         capture_output=True, text=True, check=True).stdout.split("\n")
                changed = [c for c in changed if c]
                if changed:
                    behind.append("%s: %d commits behind %s (since %s: %s)" % (path, len(changed), source, m.group(2),
                                                                             changed[-1]))
        print("  translations behind their English notes:%s" % ("".join("\n    " + b for b in behind) or " none"),
              flush=True)
        listed = {"%s/%s" % (b["lang"], b["notes"]) for b in self.site["translations_behind"]}
        for line in behind:
            if "commits behind" in line:
                lang, name = line.split("/")[2], line.split("/")[3].split(":")[0]
                self.assertIn("%s/docs/lessons/%s" % (lang, name), listed, "the site marks %s as behind" % line)


class TranslationMergeTest(unittest.TestCase):
    """src/web/site.py with a translation that lacks a newer English
    section, in a repository of its own: the section shows in English
    with the note, the page says the translation is behind, a section the
    English no longer has stays where it was, and a translation without
    its header stops the build."""

    ENGLISH = "docs/lessons/lesson1-picking-spheres.md"

    def setUp(self):
        # src/web/site.py, by its path: "site" is also Python's own module
        spec = importlib.util.spec_from_file_location("raypick_site", os.path.join(ROOT, "src", "web", "site.py"))
        self.site_module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.site_module)
        self.tmp = tempfile.mkdtemp(prefix="raypick-site-")
        for rel in ("po", "src/lessons/lessons.c", "docs/img/lesson1.png", "docs/tutorials.md"):
            src, dst = os.path.join(ROOT, rel), os.path.join(self.tmp, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            (shutil.copytree if os.path.isdir(src) else shutil.copyfile)(src, dst)
        self.write(self.ENGLISH, "# Lesson 1\n\n## The idea\n\nA sphere.\n\n## In raypick\n\nThe library.\n")
        self.git("init", "-q")
        self.git("add", ".")
        self.git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
        self.first = self.git("rev-parse", "--short", "HEAD").strip()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def write(self, rel, text):
        os.makedirs(os.path.dirname(os.path.join(self.tmp, rel)), exist_ok=True)
        with open(os.path.join(self.tmp, rel), "w", encoding="utf-8") as f:
            f.write(text)

    def git(self, *args):
        return subprocess.run(["git", "-C", self.tmp] + list(args), capture_output=True, text=True,
                              check=True).stdout

    def document(self, lang="de"):
        m = self.site_module
        site = m.Site(self.tmp, "unused", os.path.join(self.tmp, "out"), m.git_changed_since(self.tmp))
        return site, site.document(self.ENGLISH, lang)

    def test_a_missing_section_shows_in_english_with_a_note(self):
        self.write("docs/lessons/de/lesson1-picking-spheres.md",
                   "<!-- translation of %s at %s -->\n# Lektion 1\n\n<a id=\"the-idea\"></a>\n## Die Idee\n\n"
                   "Eine Kugel.\n" % (self.ENGLISH, self.first))
        site, (html_text, lang, notes) = self.document()
        self.assertEqual(lang, "de")
        self.assertEqual(notes, [], "the English has not changed since")
        self.assertIn("Eine Kugel.", html_text)
        untranslated = re.search(r'<div class="untranslated" lang="en">(.*?)</div>', html_text, re.S)
        self.assertIsNotNone(untranslated, "the missing section, marked")
        self.assertIn("The library.", untranslated.group(1))
        self.assertIn(site.t("de", "site.untranslated.section"), untranslated.group(1))
        self.assertLess(html_text.index("Eine Kugel."), html_text.index("The library."), "in the English order")
        self.assertIn('id="in-raypick"', html_text, "the English section keeps its anchor")
        # the English grows: the translation is behind
        self.write(self.ENGLISH, "# Lesson 1\n\n## The idea\n\nA sphere, exactly.\n\n## In raypick\n\nThe library.\n")
        self.git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "two")
        site, (html_text, lang, notes) = self.document()
        self.assertEqual(notes, [site.t("de", "site.translation.behind")])
        self.assertIn(("de", self.ENGLISH), site.behind)
        # Chinese has no translation: the English, as it is
        site, (html_text, lang, notes) = self.document("zh")
        self.assertEqual(lang, "en")
        self.assertIn("A sphere, exactly.", html_text)

    def test_a_section_the_english_lacks_stays_where_it_was(self):
        self.write("docs/lessons/de/lesson1-picking-spheres.md",
                   "<!-- translation of %s at %s -->\n# Lektion 1\n\n<a id=\"the-idea\"></a>\n## Die Idee\n\nEins.\n\n"
                   "<a id=\"no-such-section\"></a>\n## Nichts\n\nZwei.\n\n<a id=\"in-raypick\"></a>\n## In raypick\n\n"
                   "Drei.\n" % (self.ENGLISH, self.first))
        site, (html_text, lang, notes) = self.document()
        self.assertEqual(site.orphans, [("docs/lessons/de/lesson1-picking-spheres.md", "no-such-section")])
        self.assertTrue(html_text.index("Eins.") < html_text.index("Zwei.") < html_text.index("Drei."))
        self.assertEqual(notes, [site.t("de", "site.translation.behind")])
        self.assertNotIn("untranslated", html_text)

    def test_a_translation_without_its_header_stops_the_build(self):
        self.write("docs/lessons/de/lesson1-picking-spheres.md", "# Lektion 1\n")
        with self.assertRaises(self.site_module.SiteError) as raised:
            self.document()
        self.assertIn("translation of " + self.ENGLISH, str(raised.exception))


# ------------------------------------------------------------ main

class CountingResult(unittest.TextTestResult):
    """Counts subtests as checks of their own."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.checks_passed = 0
        self.checks_failed = 0

    def addSuccess(self, test):
        super().addSuccess(test)
        self.checks_passed += 1

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.checks_failed += 1

    def addError(self, test, err):
        super().addError(test, err)
        self.checks_failed += 1

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is None:
            self.checks_passed += 1
        else:
            self.checks_failed += 1


def main():
    global SITE, NATIVE, OUT
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--site", default=os.path.join(ROOT, "build-web", "site"))
    ap.add_argument("--native", default=os.path.join(ROOT, "build", "src", "app", "raypick"))
    ap.add_argument("--out", default=None, help="where to save the pages' screenshots")
    ap.add_argument("tests", nargs="*", help="test names (default: all)")
    args = ap.parse_args()
    SITE, NATIVE = os.path.abspath(args.site), os.path.abspath(args.native)
    if args.out:
        OUT = os.path.abspath(args.out)
        os.makedirs(OUT, exist_ok=True)
    loader = unittest.TestLoader()
    if args.tests:
        suite = loader.loadTestsFromNames([t if "." in t or t in globals() else "SiteTest." + t for t in args.tests],
                                          sys.modules[__name__])
    else:
        suite = unittest.TestSuite([loader.loadTestsFromTestCase(TranslationMergeTest),
                                    loader.loadTestsFromTestCase(SiteTest)])
    runner = unittest.TextTestRunner(verbosity=2, resultclass=CountingResult, stream=sys.stdout)
    result = runner.run(suite)
    print("%d passed, %d failed" % (result.checks_passed, result.checks_failed))
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
