#!/usr/bin/env python3
"""The browser's pictures of docs/img (scripts/web --pictures).

    pictures.py BUILD_WEB DOCS_IMG

  - web.png: lesson 2 in headless Chromium (WebGL2 through SwiftShader),
    the script of docs/img/lesson2.png (scripts/screenshots) given as the
    page's URL query: the same picture the native program makes, drawn by
    the browser;
  - site-lesson4.png: the teaching site's lesson 4 page in English,
    1280 pixels wide, after a click in step mode and six steps (the notes
    beside the program, the recipe's code with the step's line lit and
    its sentence).
Both through tests/web/cdp.py's browser, as the web tests drive it.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp      # noqa: E402
import images   # noqa: E402

WIDTH, HEIGHT = 960, 540
LESSON2 = "lesson=2&size=%dx%d&key=m@0&click=655,249@5&frames=14" % (WIDTH, HEIGHT)
SITE_WIDTH, SITE_HEIGHT = 1280, 1360


def web_png(browser, build_web, out):
    server = cdp.StaticServer(os.path.abspath(build_web))
    try:
        browser.set_viewport(WIDTH + 160, HEIGHT + 240, 1.0)
        browser.navigate(server.url("index.html?" + LESSON2))
        browser.wait_for("document.body.getAttribute('data-finished')", timeout=120)
        shot = images.crop(images.read_png(browser.screenshot()), 0, 0, WIDTH, HEIGHT)
        shot.save(out)
    finally:
        server.close()


def site_png(browser, site, out):
    """Lesson 4's page: step mode, a click in the canvas (where the site's
    tests click), six steps with the page's next-step button."""
    server = cdp.StaticServer(os.path.abspath(site))
    try:
        browser.set_viewport(SITE_WIDTH, SITE_HEIGHT, 1.0)
        browser.navigate(server.url("en/lesson4-terrain-picking.html?report&key=h@0"))
        browser.wait_for("window.raypickPage && window.raypickPage.messages.length > 0", timeout=120)
        browser.evaluate("document.querySelector('button[data-key=\"p\"]').click()")
        x, y = browser.evaluate("""(() => { const r = document.getElementById('canvas').getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height * 0.55]; })()""")
        browser.click(x, y)
        for k in range(7):
            browser.wait_for("(() => { const m = raypickPage.last; return m && m.report && m.report.step"
                             " && m.report.step.index === %d; })()" % k, timeout=60)
            if k < 6:
                browser.evaluate("document.querySelector('button[data-key=\".\"]').click()")
        # the lit line in the middle of the listing's box, the page at its top
        browser.evaluate("""(() => {
            const li = document.querySelector('#listing li.lit');
            let box = li.parentElement;
            while (box && !(box.scrollHeight > box.clientHeight + 1 &&
                            getComputedStyle(box).overflowY !== 'visible')) box = box.parentElement;
            if (box) box.scrollTop += li.getBoundingClientRect().top - box.getBoundingClientRect().top
                                      - box.clientHeight / 2;
            window.scrollTo(0, 0); })()""")
        time.sleep(0.5)
        images.read_png(browser.screenshot()).save(out)
    finally:
        server.close()


def main():
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    build_web, docs = sys.argv[1], sys.argv[2]
    browser = cdp.Browser()
    try:
        web_png(browser, build_web, os.path.join(docs, "web.png"))
        print("tests/web/pictures.py: wrote %s" % os.path.join(docs, "web.png"))
        site_png(browser, os.path.join(build_web, "site"), os.path.join(docs, "site-lesson4.png"))
        print("tests/web/pictures.py: wrote %s" % os.path.join(docs, "site-lesson4.png"))
    finally:
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
