#!/usr/bin/env python3
"""The pictures of docs/img against the program as it is (scripts/screenshots --check).

    docs_pictures.py DOCS_IMG FRESH
    docs_pictures.py --self-test    (the rules on pictures it draws)

FRESH holds every picture scripts/screenshots makes, made again with the
same script: NAME.png, beside NAME.json (the --report line of its
screenshot, which gives the HUD's panels) and NAME.arg (the script's
argument that makes it, for the message). A picture of docs/img is
current when the fresh one matches it:
  - the same size;
  - outside the HUD's panels (the scene, the code panel, the inset): at
    most SCENE_SHARE of the pixels differ by more than DIFF in a channel.
    The program draws from the same numbers in script mode (a fixed time
    step), so a current picture differs there in no pixel on one machine;
    the share leaves room for llvmpipe on another CPU rounding an edge
    otherwise. A moved camera, another object or a panel more or less
    differs in far more;
  - inside the HUD's panels: the differing rows make at most HUD_BANDS
    bands of at most BAND_ROWS rows (a band: rows less than BAND_GAP
    apart). The panels show wall-clock timings (a pick's microseconds,
    the GPU read's milliseconds, lesson 1's refit), different in any two
    runs: a line or two of digits. A changed sentence in one line passes
    too; more lines changed, or the panel's size, do not.
A picture of docs/img the script no longer makes is reported, not failed
(web.png and site-lesson4.png come from scripts/web --pictures,
lesson4-big.png where the build has no heightmap bench). Prints "ok NAME"
or "FAIL NAME: why" per picture; exits 1 when any failed.
"""
import json
import os
import sys

import numpy as np
from PIL import Image

DIFF = 40           # a channel's difference that counts (0-255)
SCENE_SHARE = 0.002
HUD_BANDS = 3
BAND_ROWS = 60      # two lines of the HUD's largest text (1920x1080)
BAND_GAP = 6


def hud_rects(json_path):
    """The HUD's panels as (x0, y0, x1, y1) in whole pixels, grown by one."""
    try:
        with open(json_path, encoding="utf-8") as f:
            shot = json.loads(f.readline())["screenshot"]
    except (OSError, ValueError, KeyError):
        return None
    rects = []
    for x, y, w, h in shot.get("hud", {}).values():
        rects.append((int(x) - 1, int(y) - 1, int(x + w) + 2, int(y + h) + 2))
    return rects


def bands(rows):
    """Runs of rows less than BAND_GAP apart, as (first, last)."""
    out = []
    for r in sorted(rows):
        if out and r - out[-1][1] < BAND_GAP:
            out[-1][1] = r
        else:
            out.append([r, r])
    return out


def compare(old_path, new_path, rects):
    """None when the picture is current, else why not."""
    old = Image.open(old_path).convert("RGB")
    new = Image.open(new_path).convert("RGB")
    if old.size != new.size:
        return f"{old.size[0]}x{old.size[1]} in docs, {new.size[0]}x{new.size[1]} made"
    w, h = old.size
    differs = (np.abs(np.asarray(old, np.int16) - np.asarray(new, np.int16)).max(axis=2) > DIFF)
    hud = np.zeros((h, w), bool)
    for x0, y0, x1, y1 in rects:
        hud[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)] = True
    scene = int((differs & ~hud).sum())
    hud_rows = np.nonzero((differs & hud).any(axis=1))[0].tolist()
    if scene > SCENE_SHARE * w * h:
        return f"{scene} pixels of the scene differ ({100.0 * scene / (w * h):.2f} %)"
    runs = bands(hud_rows)
    tall = [b for b in runs if b[1] - b[0] + 1 > BAND_ROWS]
    if len(runs) > HUD_BANDS or tall:
        return f"the HUD differs in {len(runs)} bands of rows ({runs[:6]})"
    return None


def remake(fresh, name):
    """The scripts/screenshots argument that made picture `name` (NAME.arg)."""
    try:
        with open(os.path.join(fresh, name + ".arg"), encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return ""


def verdict(docs, fresh, name):
    """None when docs/NAME.png is current against fresh/NAME.png, else why not."""
    old = os.path.join(docs, name + ".png")
    rects = hud_rects(os.path.join(fresh, name + ".json"))
    if not os.path.exists(old):
        return f"not in {docs} (scripts/screenshots makes it: add it)"
    if rects is None:
        return "no --report screenshot line (did the program end early?)"
    return compare(old, os.path.join(fresh, name + ".png"), rects)


def self_test():
    """The rules on drawn pictures: a scene with a HUD panel of text lines."""
    import tempfile
    from PIL import ImageDraw

    def picture(changes=(), size=(320, 200)):
        im = Image.new("RGB", size, (20, 24, 40))
        d = ImageDraw.Draw(im)
        d.rectangle((4, 4, 200, 90), fill=(10, 12, 20))           # the HUD panel
        for i in range(6):                                          # its lines
            d.text((8, 8 + 13 * i), f"line {i}: 1.25 ms", fill=(220, 220, 220))
        d.ellipse((220, 110, 300, 190), fill=(90, 140, 230))       # an object
        for what, arg in changes:
            if what == "line":                                      # other digits
                d.rectangle((8, 8 + 13 * arg, 190, 19 + 13 * arg), fill=(10, 12, 20))
                d.text((8, 8 + 13 * arg), f"line {arg}: 9.87 ms", fill=(220, 220, 220))
            elif what == "moved":                                   # the object moved
                d.ellipse((200, 110, 280, 190), fill=(90, 140, 230))
            elif what == "speck":                                   # an edge rounded otherwise
                d.point((arg, 150), fill=(200, 200, 200))
        return im

    report = '{"screenshot":{"hud":{"top":[4,4,197,87]}}}\n'
    cases = [   # (changes, size, has docs, has json, expected to pass)
        ((), None, True, True, True),
        ((("line", 2),), None, True, True, True),
        ((("line", 1), ("line", 3)), None, True, True, True),
        ((("line", 0), ("line", 2), ("line", 4), ("line", 5)), None, True, True, False),
        ((("moved", 0),), None, True, True, False),
        ((("speck", 10), ("speck", 30)), None, True, True, True),
        ((), (320, 180), True, True, False),
        ((), None, False, True, False),
        ((), None, True, False, False),
    ]
    wrong = 0
    for i, (changes, size, has_docs, has_json, passes) in enumerate(cases):
        with tempfile.TemporaryDirectory() as tmp:
            docs, fresh = os.path.join(tmp, "docs"), os.path.join(tmp, "fresh")
            os.mkdir(docs)
            os.mkdir(fresh)
            if has_docs:
                picture().save(os.path.join(docs, "p.png"))
            picture(changes, size or (320, 200)).save(os.path.join(fresh, "p.png"))
            if has_json:
                with open(os.path.join(fresh, "p.json"), "w", encoding="utf-8") as f:
                    f.write(report)
            why = verdict(docs, fresh, "p")
            if (why is None) != passes:
                wrong += 1
                print(f"FAIL self-test case {i} {changes}: expected {'pass' if passes else 'fail'}, got {why}")
            else:
                print(f"ok self-test case {i}: {why or 'current'}")
    return 1 if wrong else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    docs, fresh = sys.argv[1], sys.argv[2]
    made = sorted(n[:-4] for n in os.listdir(fresh) if n.endswith(".png"))
    if not made:
        print(f"FAIL {fresh}: no picture was made")
        return 1
    failed = 0
    for name in made:
        why = verdict(docs, fresh, name)
        if why:
            failed += 1
            print(f"FAIL {name}: {why}; remake it with scripts/screenshots {remake(fresh, name)}")
        else:
            print(f"ok {name}")
    for name in sorted(n[:-4] for n in os.listdir(docs) if n.endswith(".png")):
        if name not in made:
            print(f"(not checked: {name}.png, made elsewhere)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
