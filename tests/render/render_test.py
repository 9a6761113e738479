#!/usr/bin/env python3
"""Render tests of the raypick demo: run the program in script mode under an
X server, click where known objects appear, and check what it reports and
what the screenshot shows.

    render_test.py RAYPICK [RenderTest.test_NAME ...]    (all of them without a name)

Each test is a method of RenderTest (unittest); meson registers each one
as its own test (render-lesson1 runs RenderTest.test_lesson1).

The expected answers do not come from the program: the test projects the
objects' centres with the camera the program prints (--print-layout), and an
independent oracle here (ray vs sphere / ellipsoid in double precision)
decides what a click there must hit. Screenshots are compared with a run
without the click, in small neighbourhoods, so rasterisation differences
between drivers do not matter. The shared helpers (running the program,
the camera, the oracle, screenshots through Pillow) are in rp_render.py.
"""
import math
import os
import sys

from rp_render import (WRAPPER, ctx, Camera, RenderCase, add, brightness, check, clicks_run, dist, dot, layout,
                       lessons, main, mean_brightness, nearest_sphere, norm, on_ellipsoid, ray_ellipsoid,
                       ray_sphere, run, run_program, scale, screenshot, sky_click, sub, unit)


# ------------------------------------------------------------------ lesson 2's oracle

def lesson2_oracle(lay, o, d, turret_index):
    """what the beam hits: aim at the first shield under the cursor, else the
    ground (y = 0), else far away; the beam from the turret stops at the first
    shield. Returns (t, shield) or None, and the beam ray."""
    shields = [s for s in lay["objects"] if s["kind"] in ("sphere", "ellipsoid")]
    turret = [s for s in lay["objects"] if s["kind"] == "turret"][turret_index]["center"]

    def first(o, d):
        best = None
        for s in shields:
            t = ray_ellipsoid(o, d, s)
            if t is not None and (best is None or t < best[0]):
                best = (t, s)
        return best

    hit = first(o, d)
    if hit:
        aim = add(o, scale(d, hit[0]))
    elif d[1] < 0 and o[1] > 0:
        aim = add(o, scale(d, -o[1] / d[1]))
    else:
        aim = add(o, scale(unit(d), 200))
    bd = unit(sub(aim, turret))
    beam = first(turret, bd)
    if beam and beam[0] > 60:
        beam = None
    return beam, turret, bd


def check_seed_quadratic(rep, shield, where):
    """the reported a, b, c (the tutorial's own sums, as its listing forms
    them: a sphere's with r^2, an ellipsoid's divided axis by axis by its
    squared semi-axes along x, y and z, its orientation left out as the
    tutorial has none), det and the tutorial's min(s1, s2), against double
    precision here"""
    r = shield["radii"]
    sphere = r[0] == r[1] == r[2] and not any(shield.get("orientation", [0, 0, 0, 0])[:3])
    oc, d = sub(rep["origin"], shield["center"]), rep["dir"]
    if sphere:
        want = [dot(d, d), 2 * dot(oc, d), dot(oc, oc) - r[0] ** 2]
    else:
        s = [ri * ri for ri in r]
        want = [sum(d[i] * d[i] / s[i] for i in range(3)), 2 * sum(oc[i] * d[i] / s[i] for i in range(3)),
                sum(oc[i] * oc[i] / s[i] for i in range(3)) - 1]
    got = rep["quadratic"]
    check(all(abs(g - w) < 1e-4 * (1 + abs(w)) for g, w in zip(got, want)),
          where + ": quadratic %s, oracle %s" % (got, want))
    disc = want[1] ** 2 - 4 * want[0] * want[2]
    check(abs(rep["discriminant"] - disc) < 1e-3 * (1 + abs(disc)),
          where + ": det %g, oracle %g" % (rep["discriminant"], disc))
    if disc < 0:
        check("tutorial_t" not in rep, where + ": det < 0, yet the tutorial's root is reported")
        return
    small = (-want[1] - math.sqrt(disc)) / (2 * want[0])
    check(abs(rep["tutorial_t"] - small) < 2e-3 * (1 + abs(small)),
          where + ": the tutorial's min(s1, s2) %g, oracle %g" % (rep["tutorial_t"], small))
    if not any(shield.get("orientation", [0, 0, 0, 0])[:3]):
        check((rep["tutorial_t"] < 0) == rep["inside"],
              where + ": the tutorial's root must be negative exactly when the turret is inside")


def seen_through(lay, p):
    """does the camera see world point p through one of lesson 2's shields?"""
    eye = lay["eye"]
    v = sub(p, eye)
    n = norm(v)
    for s in lay["objects"]:
        if s["kind"] in ("sphere", "ellipsoid"):
            t = ray_ellipsoid(eye, unit(v), s)
            if t is not None and t < n * 0.999:
                return True
    return False


def check_lesson2_behind(lay, cam):
    """a missing beam that passes behind shields: dimmer there than where
    the camera sees it directly (the depth cue)"""
    w, h = cam.w, cam.h
    found = None
    for my in range(h // 2, h - 20, 8):
        for mx in range(20, w - 20, 8):
            o, d = cam.click_ray(mx, my)
            beam, turret, bd = lesson2_oracle(lay, o, d, 0)
            if beam:
                continue
            pts = [add(turret, scale(bd, 0.25 * (k + 0.5))) for k in range(120)]
            on_screen = [p for p in pts if 0.3 * h < cam.project(p)[1] < 0.7 * h and 0 < cam.project(p)[0] < w]
            hidden = [p for p in on_screen if seen_through(lay, p)]
            direct = [p for p in on_screen if not seen_through(lay, p)]
            if len(hidden) > 10 and len(direct) > 10:
                found = (mx, my, hidden, direct)
                break
        if found:
            break
    if not check(found, "lesson 2: no click whose missing beam passes behind a shield"):
        return
    mx, my, hidden, direct = found
    base = screenshot("l2-behind-base", 2, w, h, 3, keys=[("m", 0)])
    shot = screenshot("l2-behind", 2, w, h, 3, clicks=[(mx, my, 2)], keys=[("m", 0)])

    def gain(points):
        out = []
        for p in points:
            x, y = cam.project(p)
            out.append(mean_brightness(shot.around(x, y, 0, 2)) - mean_brightness(base.around(x, y, 0, 2)))
        return sum(out) / len(out)

    g_direct, g_hidden = gain(direct), gain(hidden)
    check(g_direct > 20 and g_hidden < 0.75 * g_direct,
          "lesson 2: the beam behind a shield must be dimmer (%.1f) than in front (%.1f)" % (g_hidden, g_direct))


# ------------------------------------------------------------------ tests

class RenderTest(RenderCase):
    def test_usage(self):
        past_last = str(len(lessons()) + 1)      # lesson 0 and one past the registry's last
        bad = [["--lesson", past_last], ["--lesson", "0"], ["--lesson"], ["--size", "10x10"],
               ["--size", "640"], ["--click", "1,2"], ["--click", "a,b@3"], ["--click", "-1,2@1"],
               ["--key", "mm@1"], ["--key", "m"], ["--frames", "0"], ["--frames", "-3"],
               ["--frames", "ten"], ["--bench-frames", "0"], ["--seed", "x"], ["--bogus"],
               ["--screenshot", os.path.join(ctx.tmp, "x.png")], ["extra"],
               ["--frames", "5", "--click", "10,10@5"], ["--frames", "2", "--key", "m@9"]]
        for args in bad:
            _, err = run(args, expect=2)
            check("usage:" in err, "%s: no usage on stderr" % args)
        out = run_program(WRAPPER + [ctx.raypick, "--help"])
        check(out.returncode == 0 and "usage:" in out.stdout, "--help prints usage and exits 0")
        check(all(lesson["title"] in out.stdout for lesson in lessons()), "--help lists every lesson of the registry")
        # no OpenGL 3.3 core (Mesa told to offer 3.0 only): a clear message, exit 1
        proc = run_program(WRAPPER + [ctx.raypick, "--frames", "1"], env=dict(os.environ, MESA_GL_VERSION_OVERRIDE="3.0"))
        check(proc.returncode == 1 and "OpenGL 3.3" in proc.stderr,
              "without GL 3.3: exit %d, stderr %r" % (proc.returncode, proc.stderr))
        # a heightmap that cannot be read: a message naming the file, exit 1
        missing = os.path.join(ctx.tmp, "no-such-map.png")
        _, err = run(["--lesson", "4", "--heightmap", missing, "--frames", "1"], expect=1)
        check(missing in err, "--heightmap error names the file: %r" % err)

    def test_lesson1(self):
        picked = {}
        for w, h in ((640, 360), (1920, 1080)):
            lay = layout(1, w, h)
            cam = Camera(lay)
            objects = lay["objects"]
            clicks, expected = [], []
            for obj in objects:
                mx, my = cam.click_for(obj["center"])
                o, d = cam.click_ray(mx, my)
                best = nearest_sphere(o, d, objects)
                clicks.append((mx, my, len(clicks)))
                expected.append(best)
            # and where the ray passes through the most bounding spheres
            def all_hits(mx, my):
                o, d = cam.click_ray(mx, my)
                return [obj for obj in objects if ray_sphere(o, d, obj["center"], obj["radius"]) is not None]
            if "deep" not in picked:     # found at the first size, reused (scaled) at the next
                step = w // 80
                best = max(((x, y) for y in range(step // 2, h, step) for x in range(step // 2, w, step)),
                           key=lambda p: len(all_hits(*p)))
                picked["deep"] = ((best[0] + 0.5) / w, (best[1] + 0.5) / h)
            mx, my = int(picked["deep"][0] * w), int(picked["deep"][1] * h)
            clicks.append((mx, my, len(clicks)))
            expected.append(nearest_sphere(*cam.click_ray(mx, my), objects))
            sx, sy = sky_click(cam, lambda o, d: nearest_sphere(o, d, objects))
            clicks.append((sx, sy, len(clicks)))
            expected.append(None)
            direct = sum(1 for obj, e in zip(objects, expected) if e and e[1]["id"] == obj["id"])
            check(direct >= 4, "lesson 1 %dx%d: only %d objects directly clickable" % (w, h, direct))
            for method_key in (None, "m"):
                extra = ["--key", "m@0"] if method_key else []
                reports = clicks_run(1, w, h, clicks, extra)
                for (mx, my, _), exp, rep in zip(clicks, expected, reports):
                    where = "lesson 1 %dx%d click %d,%d (%s)" % (w, h, mx, my, rep["method"])
                    check(rep["method"] == ("unproject" if method_key else "d3d9"), where + ": method")
                    check(rep["agree"] is True, where + ": the two pick-ray methods disagree")
                    if exp is None:
                        check(not rep["hit"] and rep["id"] == -1, where + ": expected a miss")
                        continue
                    if not check(rep["hit"] and rep["id"] == exp[1]["id"],
                                 where + ": expected id %d, got %s" % (exp[1]["id"], rep["id"])):
                        continue
                    obj = exp[1]
                    o, d = cam.click_ray(mx, my)
                    want = add(o, scale(d, exp[0]))
                    check(dist(rep["point"], want) < 2e-3 * max(1.0, norm(sub(want, o))),
                          where + ": point %s, oracle %s" % (rep["point"], want))
                    check(abs(dist(rep["point"], obj["center"]) - obj["radius"]) < 1e-3 * obj["radius"] + 1e-4,
                          where + ": point not on the bounding sphere")
                picked[(w, h)] = [r["id"] for r in reports]
            # N: every object whose bounding sphere the ray passes through toggles
            reports = clicks_run(1, w, h, clicks, ["--key", "n@0"])
            multi = 0
            for (mx, my, _), rep in zip(clicks, reports):
                o, d = cam.click_ray(mx, my)
                want = sorted(obj["id"] for obj in objects
                              if ray_sphere(o, d, obj["center"], obj["radius"]) is not None)
                multi += len(want) > 1
                check(sorted(rep["toggled"]) == want and rep["nearest_only"] is False,
                      "lesson 1 %dx%d all-on-the-ray click %d,%d: toggled %s, oracle %s" %
                      (w, h, mx, my, rep["toggled"], want))
            check(multi >= 1, "lesson 1: no click passes through two bounding spheres")
        check(picked[(640, 360)] == picked[(1920, 1080)],
              "lesson 1: 640x360 and 1920x1080 pick different objects: %s" % picked)

        # the screenshot: the hit point is marked (bright point) where the report says
        w, h = 640, 360
        cam = Camera(layout(1, w, h))
        obj = layout(1, w, h)["objects"][2]
        mx, my = cam.click_for(obj["center"])
        rep = clicks_run(1, w, h, [(mx, my, 1)])[0]
        base = screenshot("l1-base", 1, w, h, 4)
        shot = screenshot("l1-click", 1, w, h, 4, clicks=[(mx, my, 1)])
        px, py = cam.project(rep["point"])
        marker = [p for p in shot.around(px, py, 0, 3) if min(p[0], p[1]) > 200]
        check(marker, "lesson 1: no bright hit marker at the projected hit point %.1f,%.1f" % (px, py))
        check(mean_brightness(shot.around(px, py, 0, 3)) > mean_brightness(base.around(px, py, 0, 3)) + 20,
              "lesson 1: the hit point is not brighter than without the click")

    def test_lesson2(self):
        picked = {}
        for w, h in ((640, 360), (1920, 1080)):
            lay = layout(2, w, h)
            cam = Camera(lay)
            shields = [s for s in lay["objects"] if s["kind"] in ("sphere", "ellipsoid")]
            clicks = [cam.click_for(s["center"]) + (i,) for i, s in enumerate(shields)]
            sx, sy = sky_click(cam, lambda o, d: lesson2_oracle(lay, o, d, 0)[0])
            clicks.append((sx, sy, len(clicks)))
            for turret in (0, 1):
                # M: the library's answer (the smallest root >= 0); the tutorial's
                # own is checked by check_seed_quadratic and teach_lessons25_test.py
                extra = ["--key", "m@0"] + (["--key", "t@0"] if turret else [])
                reports = clicks_run(2, w, h, clicks, extra)
                ids = []
                for (mx, my, _), rep in zip(clicks, reports):
                    o, d = cam.click_ray(mx, my)
                    exp, origin, bd = lesson2_oracle(lay, o, d, turret)
                    where = "lesson 2 %dx%d turret %d click %d,%d" % (w, h, turret, mx, my)
                    check(dist(rep["origin"], origin) < 1e-4, where + ": the beam does not start at the turret")
                    check(dist(unit(rep["dir"]), bd) < 2e-3,
                          where + ": beam direction %s, oracle %s" % (rep["dir"], bd))
                    ids.append(rep["id"])
                    if exp is None:
                        check(not rep["hit"], where + ": expected a miss (beam at full range)")
                        continue
                    t, s = exp
                    if not check(rep["hit"] and rep["id"] == s["id"],
                                 where + ": expected shield %d, got %s" % (s["id"], rep["id"])):
                        continue
                    check_seed_quadratic(rep, s, where)
                    check(abs(on_ellipsoid(rep["point"], s) - 1) < 2e-3, where + ": point not on the shield")
                    check(abs(rep["t"] - t) < 2e-3 * max(1, t), where + ": t %g, oracle %g" % (rep["t"], t))
                    if turret == 1:
                        # inside its own shield: the beam stops at the exit point
                        check(rep["inside"] and rep["t_enter"] < 0 and abs(rep["t"] - rep["t_exit"]) < 1e-5,
                              where + ": the inside turret must hit the exit point")
                    else:
                        check(not rep["inside"] and abs(rep["t"] - rep["t_enter"]) < 1e-5,
                              where + ": the outside turret must hit the entry point")
                if turret == 0:
                    check(sum(1 for i in ids[:-1] if i >= 0) >= 2, where + ": too few shield hits: %s" % ids)
                picked[(w, h, turret)] = ids
        for turret in (0, 1):
            check(picked[(640, 360, turret)] == picked[(1920, 1080, turret)],
                  "lesson 2: the sizes pick different shields: %s" % picked)

        # key 2 switches from lesson 1 to lesson 2 (with lesson 2's own camera)
        lay = layout(2, 640, 360)
        cam = Camera(lay)
        mx, my = cam.click_for(lay["objects"][0]["center"])
        rep = clicks_run(1, 640, 360, [(mx, my, 1)], ["--key", "2@0", "--key", "m@0"])[0]
        want = lesson2_oracle(lay, *cam.click_ray(mx, my), 0)[0][1]["id"]
        check(rep["lesson"] == 2 and rep["hit"] and rep["id"] == want,
              "lesson 2 via key 2: %s" % rep)

        # the screenshot: the beam's colour at the impact, the shield lit around it
        w, h = 640, 360
        lay = layout(2, w, h)
        cam = Camera(lay)
        mx, my = cam.click_for(lay["objects"][0]["center"])
        rep = clicks_run(2, w, h, [(mx, my, 2)], ["--key", "m@0"])[0]
        check(rep["hit"], "lesson 2: the screenshot click must hit a shield")
        base = screenshot("l2-base", 2, w, h, 8, keys=[("m", 0)])
        shot = screenshot("l2-click", 2, w, h, 8, clicks=[(mx, my, 2)], keys=[("m", 0)])
        px, py = cam.project(rep["point"])
        core = shot.around(px, py, 0, 3)
        check(any(p[0] > 220 and p[1] > 150 for p in core),
              "lesson 2: no beam/impact colour at the projected impact %.1f,%.1f: %s" % (px, py, core[:6]))
        ring_now, ring_before = mean_brightness(shot.around(px, py, 5, 12)), mean_brightness(base.around(px, py, 5, 12))
        check(ring_now > ring_before + 15,
              "lesson 2: the shield is not lit around the impact (%.1f vs %.1f)" % (ring_now, ring_before))
        # halfway along the beam: the beam's orange
        mid = add(rep["origin"], scale(unit(rep["dir"]), rep["t"] * 0.5))
        qx, qy = cam.project(mid)
        check(any(p[0] > 150 and p[0] > p[2] + 60 for p in shot.around(qx, qy, 0, 3)),
              "lesson 2: no beam halfway to the impact at %.1f,%.1f" % (qx, qy))
        # a miss flies on: the beam is visible past where a shield would stop it
        sx, sy = sky_click(cam, lambda o, d: lesson2_oracle(lay, o, d, 0)[0])
        rep = clicks_run(2, w, h, [(sx, sy, 2)], ["--key", "m@0"])[0]
        shot = screenshot("l2-miss", 2, w, h, 5, clicks=[(sx, sy, 2)], keys=[("m", 0)])
        far = add(rep["origin"], scale(unit(rep["dir"]), 12.0))
        qx, qy = cam.project(far)
        check(not rep["hit"] and any(p[0] > 150 and p[0] > p[2] + 60 for p in shot.around(qx, qy, 0, 3)),
              "lesson 2: a missing beam must fly on (nothing orange 12 units out at %.1f,%.1f)" % (qx, qy))
        check_lesson2_behind(lay, cam)

    def test_lesson3(self):
        picked = {}
        for w, h in ((640, 360), (1920, 1080)):
            lay = layout(3, w, h)
            cam = Camera(lay)
            objects = lay["objects"]
            clicks, expected = [], []
            for obj in objects:
                mx, my = cam.click_for(obj["center"])
                o, d = cam.click_ray(mx, my)
                clicks.append((mx, my, 0))     # frame 0: the layout's positions
                expected.append(nearest_sphere(o, d, objects))
            sx, sy = sky_click(cam, lambda o, d: nearest_sphere(o, d, objects))
            clicks.append((sx, sy, 0))
            expected.append(None)
            reports = clicks_run(3, w, h, clicks)
            for (mx, my, _), exp, rep in zip(clicks, expected, reports):
                where = "lesson 3 %dx%d click %d,%d" % (w, h, mx, my)
                if exp is None:
                    check(not rep["hit"], where + ": expected a miss")
                    continue
                if check(rep["hit"] and rep["id"] == exp[1]["id"], where + ": expected id %d, got %s" %
                         (exp[1]["id"], rep["id"])):
                    check(abs(dist(rep["point"], exp[1]["center"]) - exp[1]["radius"]) < 1e-3,
                          where + ": point not on the bounding sphere")
            picked[(w, h)] = [r["id"] for r in reports]
            check(sum(1 for i in picked[(w, h)] if i >= 0) >= 3, "lesson 3: too few ships clickable")
        check(picked[(640, 360)] == picked[(1920, 1080)], "lesson 3: sizes pick differently: %s" % picked)

        # At frame 20 ships 0 and 1 are 2.04 apart (radii 1.6 and 0.6): they
        # touch, the seed's shortcut says they do not: its pair is highlighted
        # magenta. With the exact test (M twice) nothing is highlighted.
        def magenta(p):
            return p[0] > 150 and p[2] > 130 and p[1] < 0.45 * p[0]

        # S shrinks the bounding spheres to 80 %: a click reports the radius
        lay = layout(3, 640, 360)
        cam = Camera(lay)
        big = max(lay["objects"], key=lambda o: o["radius"])
        mx, my = cam.click_for(big["center"])
        rep = clicks_run(3, 640, 360, [(mx, my, 0)], ["--key", "s@0"])[0]
        check(rep["hit"] and rep["id"] == big["id"] and abs(rep["radius"] - 0.8 * big["radius"]) < 1e-4
              and abs(dist(rep["point"], big["center"]) - 0.8 * big["radius"]) < 1e-3,
              "lesson 3: S must shrink the bounding sphere to 80 %%: %s" % rep)

        # At the start ships 0 and 1 are 2.4 apart (radii 1.6 and 0.6): no
        # contact, but the sqrt(2)-scaled shortcut says there is one (2.4 <
        # 2.417): an amber bridge above the pair. The exact test shows no bridge.
        s0, s1 = lay["objects"][0], lay["objects"][1]
        top0 = add(s0["center"], [0, s0["radius"] + 0.5, 0])
        top1 = add(s1["center"], [0, s1["radius"] + 0.5, 0])
        bx, by = cam.project(scale(add(top0, top1), 0.5))

        def amber(p):
            return p[0] > 200 and p[1] > 110 and p[2] < 90 and p[1] < 0.9 * p[0]

        img = screenshot("l3-scaled", 3, 640, 360, 2, keys=[("m", 0)])
        check(any(amber(p) for p in img.around(bx, by, 0, 3)),
              "lesson 3: no amber false-alarm bridge at %.1f,%.1f: %s" % (bx, by, img.around(bx, by, 0, 1)))
        img = screenshot("l3-exact-start", 3, 640, 360, 2, keys=[("m", 0), ("m", 0)])
        check(not any(amber(p) for p in img.around(bx, by, 0, 3)),
              "lesson 3: the exact test must show no bridge at %.1f,%.1f" % (bx, by))

        img = screenshot("l3-shortcut", 3, 640, 360, 20)
        all_px = img.pixels()
        n_short = sum(1 for p in all_px if magenta(p))
        img = screenshot("l3-exact", 3, 640, 360, 20, keys=[("m", 0), ("m", 0)])
        all_px = img.pixels()
        n_exact = sum(1 for p in all_px if magenta(p))
        check(n_short > 30, "lesson 3: the shortcut's missed contact is not highlighted (%d px)" % n_short)
        check(n_exact < 5, "lesson 3: the exact test must highlight no pair (%d px)" % n_exact)

        # At frame 30 with S the left pair's models overlap while their shrunk
        # spheres are apart: the models glow red and a red pin marks the overlap.
        # With the spheres enclosing the models nothing is red.
        def crimson(p):
            return p[0] > 200 and p[1] < 50 and p[2] < 70

        n_shrunk = sum(1 for p in screenshot("l3-shrunk", 3, 640, 360, 30, keys=[("s", 0)]).pixels() if crimson(p))
        n_plain = sum(1 for p in screenshot("l3-plain", 3, 640, 360, 30).pixels() if crimson(p))
        check(n_shrunk > 40 and n_plain < 5,
              "lesson 3: S must mark the overlap the spheres miss (%d red px with S, %d without)" % (n_shrunk, n_plain))

    def test_lesson4(self):
        w, h = 640, 360
        lay = layout(4, w, h)
        cam = Camera(lay)
        marks = [o for o in lay["objects"] if o["kind"] == "point"]
        check(len(marks) >= 3, "lesson 4: too few visible landmarks: %d" % len(marks))
        clicks = [cam.click_for(m["center"]) + (i,) for i, m in enumerate(marks)]
        clicks.append((w // 2, 3, len(clicks)))      # sky above the horizon
        for mode, extra, tol in (("search", [], 0.35), ("exact", ["--key", "m@0"], 0.35)):
            reports = clicks_run(4, w, h, clicks, extra)
            picked_640 = [r["hit"] for r in reports]
            for (mx, my, _), m, rep in zip(clicks, marks + [None], reports):
                where = "lesson 4 %s click %d,%d" % (mode, mx, my)
                check(rep["method"] == mode, where + ": method %s" % rep["method"])
                if m is None:
                    check(not rep["hit"], where + ": the sky must be a miss")
                    continue
                if check(rep["hit"], where + ": expected a terrain hit"):
                    check(dist(rep["point"], m["center"]) < tol,
                          where + ": point %s, landmark %s" % (rep["point"], m["center"]))
            if mode == "exact":
                # the same clicks at 1920x1080 land on the same points
                big = Camera(layout(4, 1920, 1080))
                bclicks = [big.click_for(m["center"]) + (i,) for i, m in enumerate(marks)]
                breps = clicks_run(4, 1920, 1080, bclicks, extra)
                for m, rep in zip(marks, breps):
                    check(rep["hit"] and dist(rep["point"], m["center"]) < tol,
                          "lesson 4 1920x1080: landmark %s, got %s" % (m["center"], rep.get("point")))
                check(picked_640[:-1] == [r["hit"] for r in breps], "lesson 4: sizes differ")

        # the spire (1 x 1 units on top): a click meant for it hits it, with the
        # exact method and with the default 30 linear steps; the binary search
        # alone (L twice: 30 -> 300 -> 1) strides over it somewhere along its
        # upper part. Every report carries both methods' points and t.
        spire = [o for o in lay["objects"] if o["kind"] == "spire"]
        if check(spire, "lesson 4: the default map has a spire"):
            top, base = spire[0]["center"], spire[0]["base"]
            pts = [add(base, scale(sub(top, base), f)) for f in (0.55, 0.7, 0.85)]
            sclicks = [cam.click_for(p) + (i,) for i, p in enumerate(pts)]
            exact = clicks_run(4, w, h, sclicks, ["--key", "m@0"])
            search = clicks_run(4, w, h, sclicks)
            alone = clicks_run(4, w, h, sclicks, ["--key", "l@0", "--key", "l@0"])
            near = lambda p: math.hypot(p[0] - top[0], p[2] - top[2]) < 1.1
            check(all(r["hit"] and near(r["point"]) for r in exact), "lesson 4: exact must hit the spire: %s" %
                  [r["point"] for r in exact])
            check(all(r["hit"] and near(r["point"]) for r in search), "lesson 4: 30 steps must hit the spire: %s" %
                  [r["point"] for r in search])
            check(all(r["linear_steps"] == 1 for r in alone), "lesson 4: L twice must give 1 linear step")
            check(any(not near(r["search_point"]) for r in alone), "lesson 4: the binary search alone never "
                  "steps over the spire: %s" % [r["search_point"] for r in alone])
            for r in exact + search + alone:
                for m in ("search", "exact"):
                    if check(m + "_point" in r and m + "_t" in r, "lesson 4: report lacks %s_point/t" % m):
                        o, d = r["origin"], r["dir"]
                        on_ray = add(o, scale(d, r[m + "_t"]))
                        check(dist(on_ray, r[m + "_point"]) < 1e-3 * norm(d) + 1e-3,
                              "lesson 4: %s_t does not give %s_point" % (m, m))

        # --heightmap: a PGM written here; the clicked points must lie on the
        # surface this test computes from its own pixels (two triangles per cell,
        # split along the (col,row)-(col+1,row+1) diagonal)
        cols, rows = 41, 29
        pix = [[int(127 + 110 * math.sin(c * 0.21) * math.cos(r * 0.17)) for c in range(cols)] for r in range(rows)]
        path = os.path.join(ctx.tmp, "map.pgm")
        with open(path, "wb") as f:
            f.write(b"P5\n%d %d\n255\n" % (cols, rows) + bytes(v for row in pix for v in row))
        lay = layout(4, w, h, ["--heightmap", path])
        cam = Camera(lay)
        info = [o for o in lay["objects"] if o["kind"] == "map"][0]
        check((info["cols"], info["rows"]) == (cols, rows), "lesson 4: the loaded map is %dx%d" %
              (info["cols"], info["rows"]))

        def surface(x, z):
            fx = (x - info["origin"][0]) / info["spacing"]
            fz = (z - info["origin"][2]) / info["spacing"]
            c, r = min(int(fx), cols - 2), min(int(fz), rows - 2)
            u, v = fx - c, fz - r
            hs = lambda cc, rr: pix[rr][cc] / 255.0 * info["height_scale"] + info["origin"][1]
            if u >= v:
                return hs(c, r) + u * (hs(c + 1, r) - hs(c, r)) + v * (hs(c + 1, r + 1) - hs(c + 1, r))
            return hs(c, r) + v * (hs(c, r + 1) - hs(c, r)) + u * (hs(c + 1, r + 1) - hs(c, r + 1))

        spots = [(w // 2, h // 2), (w // 3, 2 * h // 3), (2 * w // 3, h // 2), (w // 2, 5 * h // 6)]
        reps = clicks_run(4, w, h, [(x, y, i) for i, (x, y) in enumerate(spots)],
                          ["--heightmap", path, "--key", "m@0"])
        for (x, y), rep in zip(spots, reps):
            where = "lesson 4 --heightmap click %d,%d" % (x, y)
            if not check(rep["hit"], where + ": expected a hit"):
                continue
            p = rep["point"]
            check(abs(p[1] - surface(p[0], p[2])) < 0.01, where + ": point %s is off the surface (%.4f)" %
                  (p, surface(p[0], p[2])))
            o, d = cam.click_ray(x, y)
            t = dot(sub(p, o), d) / dot(d, d)
            check(dist(add(o, scale(d, t)), p) < 0.01, where + ": point %s is off the click's ray" % p)

        # the screenshot: the marker (red and gold) at the projected point
        m = marks[0]
        mx, my = cam.click_for(m["center"])
        shot = screenshot("l4-click", 4, w, h, 3, clicks=[(mx, my, 1)], keys=[("m", 0)])
        px, py = cam.project(m["center"])
        red = [p for p in shot.around(px, py - 6, 0, 9) if p[0] > 170 and p[1] < 110 and p[2] < 90]
        check(len(red) >= 3, "lesson 4: no marker at the projected point %.1f,%.1f" % (px, py))
        base = screenshot("l4-base", 4, w, h, 3, keys=[("m", 0)])
        red0 = [p for p in base.around(px, py - 6, 0, 9) if p[0] > 170 and p[1] < 110 and p[2] < 90]
        check(len(red0) < len(red), "lesson 4: the marker colours are there without a click")

    def test_lesson1_many(self):
        """A: 100,000 instanced objects fill the belt; a click picks one of them
        with the scene, on the click's ray, lights it up, and shows the BVH
        boxes the traversal opened."""
        w, h = 640, 360
        cam = Camera(layout(1, w, h))     # A keeps lesson 1's camera
        plain = screenshot("plain", 1, w, h, 3, keys=[("h", 0)])
        many = screenshot("many", 1, w, h, 3, keys=[("a", 0), ("h", 0)])

        def band(img):      # the belt's rows, below the HUD
            return [img.pixel(x, y) for y in range(int(0.35 * h), int(0.75 * h), 2) for x in range(0, w, 2)]

        def lit(p):
            return brightness(p) > 70

        def orange(p):      # boxes
            return p[0] > 120 and p[0] > p[2] + 50

        def blue(p):        # ellipsoids
            return p[2] > 110 and p[2] > p[0] + 30
        for name, img in (("plain", plain), ("many", many)):
            px = band(img)
            print("%s: lit %.2f, orange %.3f, blue %.3f" % (name, sum(map(lit, px)) / len(px),
                  sum(map(orange, px)) / len(px), sum(map(blue, px)) / len(px)))
        px = band(many)
        check(sum(map(lit, px)) > 0.4 * len(px), "many objects: the belt does not fill the view")
        check(sum(map(orange, px)) > 0.03 * len(px) and sum(map(blue, px)) > 0.03 * len(px),
              "many objects: boxes and ellipsoids not both seen")
        check(sum(map(lit, px)) > 2 * sum(map(lit, band(plain))), "many objects: no different from lesson 1's scene")

        # a click in the middle of the belt: the scene's pick, on the ray
        mx, my = w // 2, int(0.55 * h)
        rep = clicks_run(1, w, h, [(mx, my, 2)], ["--key", "a@0"])[0]
        where = "many objects click %d,%d" % (mx, my)
        if check(rep["hit"] and 0 <= rep["id"] < 100000, where + ": no hit: %s" % rep):
            check(rep["objects"] == 100000 and rep["method"] == "scene", where + ": %s" % rep)
            check(rep["what"].split()[0] in ("sphere", "ellipsoid", "box", "torus") and
                  rep["what"].endswith(" %d" % rep["id"]), where + ": names %r" % rep["what"])
            o, d = cam.click_ray(mx, my)     # the oracle's ray; t is in units of the program's dir
            u = unit(d)
            along = dot(sub(rep["point"], o), u)
            off = dist(rep["point"], add(o, scale(u, along)))
            check(along > 0 and off < 2e-3 * max(1.0, along),
                  where + ": point %s is %.2g off the click's ray" % (rep["point"], off))
            check(dist(rep["point"], add(rep["origin"], scale(rep["dir"], rep["t"]))) < 1e-3 * max(1.0, along),
                  where + ": point is not origin + t dir")
            check(dist(rep["point"], rep["center"]) <= rep["bound_radius"] * 1.001,
                  where + ": point outside the picked object's bounds")
            # the picked object lights up (yellow, with a glass halo)
            before = screenshot("before", 1, w, h, 3, keys=[("a", 0), ("h", 0)])
            after = screenshot("after", 1, w, h, 3, clicks=[(mx, my, 2)], keys=[("a", 0), ("h", 0)])
            cx, cy = cam.project(rep["center"])

            def yellow(p):
                return p[0] > 180 and p[1] > 150 and p[2] < 0.6 * p[1]
            n_before = sum(map(yellow, before.around(cx, cy, 0, 8)))
            n_after = sum(map(yellow, after.around(cx, cy, 0, 8)))
            check(n_after > n_before + 3, where + ": the pick is not lit: %d yellow pixels, %d before" %
                  (n_after, n_before))
            # what the traversal did: a sliver of the tree opened, drawn as
            # light blue boxes (the root's around the whole belt) that were not
            # there before the click
            check(0 < rep["nodes_visited"] < rep["tree_nodes"] / 100 and rep["leaves_visited"] >= 1 and
                  rep["leaves_visited"] <= rep["objects_tested"] < 1000,
                  where + ": traversal counts %s" % {k: rep[k] for k in (
                      "nodes_visited", "leaves_visited", "objects_tested", "tree_nodes")})

            def box_blue(p):
                return p[2] > 170 and p[1] > 130 and p[0] < 0.7 * p[2] and p[1] > 0.7 * p[2]
            new_blue = sum(1 for p, q in zip(before.pixels(), after.pixels()) if box_blue(q) and not box_blue(p))
            print("%s: %d box-blue pixels new after the click" % (where, new_blue))
            check(new_blue > 200, where + ": the traversal's boxes are not drawn (%d new box-blue pixels)" % new_blue)

        # --many-objects N: the mode makes N objects (the report counts them, an
        # id is below N), and a belt of 2,000 lights a fraction of the pixels
        few = clicks_run(1, w, h, [(mx, my, 2)], ["--key", "a@0", "--many-objects", "2000"])[0]
        check(few["objects"] == 2000 and few["method"] == "scene" and (not few["hit"] or 0 <= few["id"] < 2000),
              "--many-objects 2000: %s" % few)
        sparse = screenshot("many2000", 1, w, h, 3, keys=[("a", 0), ("h", 0)], extra=["--many-objects", "2000"])
        lit_sparse, lit_full = sum(map(lit, band(sparse))), sum(map(lit, band(many)))
        print("--many-objects 2000: lit %d of the band's pixels, 100,000: %d" % (lit_sparse, lit_full))
        check(0 < lit_sparse < 0.5 * lit_full, "--many-objects 2000: the belt is as full as 100,000 objects' "
              "(%d lit pixels, %d)" % (lit_sparse, lit_full))

    def test_lesson1_many_gpu(self):
        """G in the many-objects mode: the ID buffer names the object the
        scene's ray picks. Probes at the projected centres of objects a first
        run's clicks across the belt found, and on the tori (found by their
        green in a screenshot of the same moment), are each clicked with their
        four neighbours one pixel away, all in the frame the first run clicked
        in: where the ray picks the same object at all five, the probe lies
        inside that object and the GPU must name it too (at a silhouette a
        pixel may go either way). A click on the sky: both see nothing."""
        w, h = 640, 360
        cam = Camera(layout(1, w, h))     # A keeps lesson 1's camera
        keys = [("a", 0), ("g", 0), ("h", 0)]
        extra = [a for k, f in keys for a in ("--key", "%s@%d" % (k, f))]
        moment = 3      # the screenshot of a run of 3 frames shows what a click at frame 3 sees

        def green(p):   # the tori
            return p[1] > p[0] + 40 and p[1] > p[2] + 15
        shot = screenshot("many_gpu", 1, w, h, moment, keys=keys)
        tori = []       # pixels with a 5x5 green neighbourhood, apart from each other
        for y in range(2, h - 2):
            for x in range(2, w - 2):
                if all(green(shot.pixel(x + i, y + j)) for i in range(-2, 3) for j in range(-2, 3)) and \
                        all(abs(x - tx) + abs(y - ty) > 30 for tx, ty in tori):
                    tori.append((x, y))
        check(tori, "many objects: no torus seen in the screenshot")
        # objects across the belt, and where their centres appear
        grid = [(x, int(f * h), moment) for f in (0.45, 0.52, 0.6, 0.68, 0.76) for x in range(w // 24, w, w // 12)]
        centres = []
        for rep in clicks_run(1, w, h, grid, extra):
            if rep["hit"] and not rep["what"].startswith("torus"):     # a torus's centre is its hole
                x, y = cam.project(rep["center"])
                if 2 <= x < w - 2 and 2 <= y < h - 2 and (int(x), int(y)) not in centres:
                    centres.append((int(x), int(y)))
        runs = [tori[:2] + centres[:10], centres[10:22]]
        interior = {"torus": 0, "other": 0}
        for probes in runs:
            clicks = [(x + dx, y + dy, moment) for x, y in probes
                      for dx, dy in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1))]
            sky = (w // 2, 3)
            reps = clicks_run(1, w, h, clicks + [sky + (moment,)], extra)
            for k, (x, y) in enumerate(probes):
                five = reps[5 * k:5 * k + 5]
                rep, g = five[0], five[0]["gpu"]
                where = "many objects, G, click %d,%d (%s)" % (x, y, rep["what"])
                if not rep["hit"] or any(not r["hit"] or r["id"] != rep["id"] for r in five):
                    continue    # on an edge, or between objects
                interior["torus" if rep["what"].startswith("torus") else "other"] += 1
                check(g["hit"] and g["id"] == rep["id"] and g["agree"],
                      where + ": the GPU names %s" % (g["id"] if g["hit"] else "nothing"))
                check(g["distance"] >= 0 and g["distance"] < 2e-3 * max(1.0, rep["t"]),
                      where + ": the GPU's point is %.3g from the ray's" % g["distance"])
            rep = reps[-1]
            check(not rep["hit"] and not rep["gpu"]["hit"] and rep["gpu"]["id"] == -1 and rep["gpu"]["agree"],
                  "many objects, G, the sky at %d,%d: ray %s, GPU %s" % (sky + (rep["what"], rep["gpu"])))
        print("interior probes: %s of %d" % (interior, sum(map(len, runs))))
        check(interior["torus"] >= 1, "many objects: no probe inside a torus (%s)" % interior)
        check(interior["other"] >= 12, "many objects: only %d probes inside a sphere, ellipsoid or box" %
              interior["other"])

    def test_layout(self):
        """--print-layout's window positions: the test's own projection agrees,
        on_screen says whether the point is inside the window, and a click at
        the printed position picks the object (lesson 1's oracle decides)."""
        offscreen_seen = 0
        for w, h in ((640, 360), (200, 600)):
            lay = layout(1, w, h)
            cam = Camera(lay)
            check(lay["window_width"] == w and lay["window_height"] == h,
                  "layout %dx%d: window size %s" % (w, h, (lay["window_width"], lay["window_height"])))
            clicks, wanted = [], []
            for obj in lay["objects"]:
                x, y = cam.project(obj["center"])
                where = "layout %dx%d %s" % (w, h, obj["name"])
                check(abs(obj["window"][0] - x) < 1e-3 * w and abs(obj["window"][1] - y) < 1e-3 * h,
                      where + ": window %s, projected %.3f,%.3f" % (obj["window"], x, y))
                inside = 0 <= x < w and 0 <= y < h
                check(obj["on_screen"] == inside, where + ": on_screen %s at %.1f,%.1f" % (obj["on_screen"], x, y))
                check(obj["click"] == [math.floor(obj["window"][0]), math.floor(obj["window"][1])],
                      where + ": click %s" % obj["click"])
                if not inside:
                    offscreen_seen += 1
                    continue
                mx, my = obj["click"]
                best = nearest_sphere(*cam.click_ray(mx, my), lay["objects"])
                clicks.append((mx, my, len(clicks)))
                wanted.append((obj, best))
            reports = clicks_run(1, w, h, clicks)
            itself = 0
            for (obj, best), rep in zip(wanted, reports):
                check(best is not None and rep["hit"] and rep["id"] == best[1]["id"],
                      "layout %dx%d: a click at %s's printed position: %s, oracle %s" %
                      (w, h, obj["name"], rep["id"], best and best[1]["id"]))
                itself += rep["id"] == obj["id"]
            check(itself >= min(4, len(wanted)) and itself >= 2,
                  "layout %dx%d: only %d of %d printed positions pick their own object" % (w, h, itself, len(wanted)))
        check(offscreen_seen >= 1, "layout: the narrow window should leave an object off screen")

    def test_bench_line(self):
        """--bench-frames N: one JSON line with N frames, the window's size,
        ordered times and the GL driver's name (scripts/gpu-frames relies on
        it to tell a GPU's figures from llvmpipe's)."""
        lines, _ = run(["--lesson", "3", "--size", "320x240", "--bench-frames", "4"])
        benches = [line["bench"] for line in lines if "bench" in line]
        if not check(len(benches) == 1, "--bench-frames: %d bench lines" % len(benches)):
            return
        b = benches[0]
        check(b["lesson"] == 3 and b["frames"] == 4 and (b["width"], b["height"]) == (320, 240),
              "--bench-frames: lesson, frames, size %s" % b)
        check(0 < b["median_ms"] <= b["max_ms"] and b["cpu_median_ms"] >= 0, "--bench-frames: times %s" % b)
        name = b.get("gl_renderer", "")
        check(name not in ("", "unknown") and '"' not in name, "--bench-frames: gl_renderer %r" % name)

    def test_hud(self):
        """The HUD's panels (--print-layout "hud") at a small, a medium and a
        large size in every lesson of the registry: inside the window, apart, at
        most half its height, the text larger with the drawable; at 320x240 the
        screenshot shows the scene between the panels and dark, near-opaque
        panels."""
        scales = {}
        for entry in lessons():
            lesson = entry["number"]
            for w, h in ((320, 240), (640, 360), (1920, 1080)):
                lay = layout(lesson, w, h)
                hud = lay["hud"]
                top, bottom = hud["top"], hud["bottom"]
                where = "hud lesson %d %dx%d" % (lesson, w, h)
                check(lay["lesson"] == lesson and lay["name"] == entry["name"],
                      where + ": --print-layout names lesson %s %s" % (lay["lesson"], lay.get("name")))
                check(top[0] >= 0 and top[1] >= 0 and top[0] + top[2] <= w, where + ": top panel %s" % top)
                check(bottom[3] > 0 and bottom[0] + bottom[2] <= w and bottom[1] + bottom[3] <= h,
                      where + ": bottom panel %s" % bottom)
                check(top[1] + top[3] < bottom[1], where + ": the panels overlap: %s %s" % (top, bottom))
                check(top[3] + bottom[3] <= 0.5 * h,
                      where + ": the panels cover %.0f of %d rows" % (top[3] + bottom[3], h))
                if (w, h) == (320, 240):
                    check(top[1] + top[3] <= 0.35 * h and bottom[1] >= 0.8 * h,
                          where + ": the panels reach into the middle: %s %s" % (top, bottom))
                scales[(lesson, w)] = hud["scale"]
            # 2.7 at most; a lesson with long status text and a long key list
            # (lesson 1: 22 lines at 1920x1080, where 640x360 shows "H help"
            # only) gives some back to stay within half the height
            check(scales[(lesson, 1920)] >= 1.75 * scales[(lesson, 640)],
                  "hud lesson %d: the text does not grow with the window: %s" % (lesson, scales))

        w, h = 320, 240
        lay = layout(1, w, h)
        hud = lay["hud"]
        img = screenshot("hud-320", 1, w, h, 3)
        # the scene shows between the panels: the objects' own colours
        scene = [img.pixel(x, y) for y in range(int(hud["top"][1] + hud["top"][3]) + 2, int(hud["bottom"][1]) - 2)
                 for x in range(w)]
        coloured = sum(1 for p in scene if max(p) - min(p) > 60)
        check(coloured > 0.08 * len(scene),
              "hud 320x240: little of the scene shows between the panels (%d px)" % coloured)
        # the panels: dark wherever there is no letter (letters are bright)
        for name in ("top", "bottom"):
            x0, y0, pw, ph = hud[name]
            px = [img.pixel(x, y) for y in range(int(y0) + 1, int(y0 + ph) - 1)
                  for x in range(int(x0) + 1, int(x0 + pw) - 1)]
            dark = sum(1 for p in px if max(p) < 40)
            check(dark > 0.6 * len(px), "hud 320x240 %s panel: only %d of %d pixels dark" % (name, dark, len(px)))

    def test_lesson4_steps(self):
        """Step mode's pictures (P, '.'): the current point (a large pale-yellow
        dot) moves from A (ClipRay, the third step of the recipe's listing) to
        the recipe's point 1 halfway down the ray (its sixth step with one
        linear step: GetPointerRay twice, ClipRay, the returned ray,
        BinarySearch's start, the first halving), seen from the start camera
        orbited by -60 degrees ([: the click's ray is seen end-on from where it came);
        the ground profile under the
        ray (yellow line) is drawn, and only in step mode. Pixels are counted in
        the scene's room, left of the code panel (its lit line has the dot's
        colour)."""
        w, h = 640, 360
        cam = Camera(layout(4, w, h))
        marks = [o for o in layout(4, w, h)["objects"] if o["kind"] == "point"]
        mx, my = cam.click_for(marks[0]["center"])
        # step mode, the binary search alone, the camera free (Z: the framing
        # camera would put A and point 1, each the start of its step's span, at
        # the same place on screen)
        keys = [("h", 0), ("p", 1), ("l", 1), ("l", 1), ("z", 1)]
        room = w // 2            # the panel's column starts at 340 of 640 (src/app/code_panel.c: 300 wide at least)

        def current(img):     # the current step's dot and label: (1, 1, 0.45)
            return [(x, y) for y in range(img.h) for x in range(room)
                    for p in [img.pixel(x, y)] if p[0] > 235 and p[1] > 235 and 80 < p[2] < 150]

        def profile(img):     # the ground under the ray: (1, 0.85, 0.25)
            return [1 for y in range(img.h) for x in range(room)
                    for p in [img.pixel(x, y)] if p[0] > 235 and 195 < p[1] < 235 and p[2] < 100]

        def centre(pts):
            return (sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts))

        dots = lambda n: [("[", 4)] + [(".", 4)] * n     # orbit -60 degrees: the ray seen from aside
        clip = screenshot("l4-step-clip", 4, w, h, 6, clicks=[(mx, my, 3)], keys=keys + dots(2))
        one = screenshot("l4-step-point1", 4, w, h, 6, clicks=[(mx, my, 3)], keys=keys + dots(5))
        plain = screenshot("l4-step-off", 4, w, h, 6, clicks=[(mx, my, 3)], keys=[("h", 0), ("l", 1), ("l", 1)])
        a, b = current(clip), current(one)
        if check(len(a) >= 20 and len(b) >= 20, "lesson 4 steps: no current point (%d, %d pixels)" % (len(a), len(b))):
            ca, cb = centre(a), centre(b)
            check(math.hypot(ca[0] - cb[0], ca[1] - cb[1]) > 20.0,
                  "lesson 4 steps: the current point did not move from A to point 1: %s -> %s" % (ca, cb))
        check(len(profile(clip)) >= 100 and len(profile(one)) >= 100, "lesson 4 steps: no ground profile")
        np_ = len(profile(plain))     # (the marker's gold shares the dot's colour: not counted)
        check(np_ < len(profile(clip)) // 4, "lesson 4 steps: a ground profile without step mode (%d pixels)" % np_)


if __name__ == "__main__":
    sys.exit(main())
