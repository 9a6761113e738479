#!/usr/bin/env python3
"""Render tests of lesson 5 (picking triangles) and GPU picking.

    lesson5_test.py RAYPICK [Lesson5Test.test_NAME ...]    (all without a name)

The program runs in script mode under an X server (xvfb-run when there is
no DISPLAY). Expected answers come from the test's own side:
- faces: the faces --print-layout names, each clicked at its projected
  centroid (the click is placed so the pick ray goes through the centroid
  exactly), must come back as that face with barycentrics near (1/3, 1/3);
- hole: the middle of the knot's hole (inside the bounding sphere, on no
  triangle) misses the mesh and hits the sphere; with B it is the sphere's
  false positive;
- gpu: with G, the ID buffer and the ray agree on triangle interiors (a
  pixel centre next to each named face's centroid), and the GPU's
  unprojected depth lands on the ray's hit point;
- mesh_obj / mesh_x: models the test writes itself (an .obj fan of four
  triangles, a text .x file with two frames placing a quad each) are
  picked where the test knows each triangle lies on screen; a file that
  cannot be read is refused with its name and exit status 1;
- lesson1_gpu: lesson 1's objects through the ID buffer agree with the
  ray at their centres.
"""
import math
import os
import sys

from rp_render import Camera, RenderCase, check, ctx, main, run

W, H = 1280, 720


def layout(extra=(), lesson=5):
    out, _ = run(["--lesson", lesson, "--size", "%dx%d" % (W, H), "--print-layout"] + list(extra))
    return out[0]


def picks(events, frames, extra=(), lesson=5):
    """events: ("click", x, y, frame) or ("key", k, frame). Returns (picks, async lines)."""
    args = ["--lesson", lesson, "--size", "%dx%d" % (W, H), "--report", "--frames", frames] + list(extra)
    for e in events:
        if e[0] == "click":
            args += ["--click", "%.4f,%.4f@%d" % (e[1], e[2], e[3])]
        else:
            args += ["--key", "%s@%d" % (e[1], e[2])]
    out, _ = run(args)
    return [o for o in out if "lesson" in o and "hit" in o], [o for o in out if "gpu_async" in o]


def exact_click(x, y):
    """the window position whose pick ray goes through (x, y): the app
    aims at the centre of the clicked position (x + 0.5)"""
    return x - 0.5, y - 0.5


def objects_of(lay):
    named = {o["id"]: o for o in lay["objects"]}
    faces = [o for o in lay["objects"] if o["id"] >= 0]
    return named, faces


# ------------------------------------------------------------------ models the tests write

def write(name, text):
    path = os.path.join(ctx.tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


# Four triangles fanned around the centre of a square in z = 0: face 0 is
# the bottom one, 1 the right, 2 the top, 3 the left (counter-clockwise
# seen from +z).
FAN_OBJ = """# raypick render test: a fan of four triangles
v 0 0 0
v -1 -1 0
v 1 -1 0
v 1 1 0
v -1 1 0
f 1 2 3
f 1 3 4
f 1 4 5
f 1 5 2
"""

# Two frames, each a 2 x 2 quad (two triangles), at x = -3 and x = +3: with
# the frames' transforms the quads lie apart and the middle is empty;
# without them both would sit on the centre.
TWO_QUADS_X = """xof 0303txt 0032
Frame Left {
 FrameTransformMatrix { 1.0,0.0,0.0,0.0, 0.0,1.0,0.0,0.0, 0.0,0.0,1.0,0.0, -3.0,0.0,0.0,1.0;; }
 Mesh LeftQuad { 4; -1.0;-1.0;0.0;, 1.0;-1.0;0.0;, 1.0;1.0;0.0;, -1.0;1.0;0.0;; 2; 3;0,2,1;, 3;0,3,2;; }
}
Frame Right {
 FrameTransformMatrix { 1.0,0.0,0.0,0.0, 0.0,1.0,0.0,0.0, 0.0,0.0,1.0,0.0, 3.0,0.0,0.0,1.0;; }
 Mesh RightQuad { 4; -1.0;-1.0;0.0;, 1.0;-1.0;0.0;, 1.0;1.0;0.0;, -1.0;1.0;0.0;; 2; 3;0,2,1;, 3;0,3,2;; }
}
"""


def model_clicks(path, offsets, expect):
    """Clicks the model's centre plus offsets (in units of its bounding
    sphere's screen radius) and checks which faces come back."""
    lay = layout(["--mesh", path])
    cam = Camera(lay)
    named, _ = objects_of(lay)
    check(-2 not in named, "%s: a hole named in a user's model" % path)
    sphere = named[-1]
    cx, cy = cam.project(sphere["center"])
    r = sphere["radius"] * cam.pixels_per_unit(sphere["center"])
    events = []
    for i, (dx, dy) in enumerate(offsets):
        x, y = exact_click(cx + dx * r, cy + dy * r)
        events.append(("click", x, y, i + 1))
    got, _ = picks(events, len(offsets) + 2, ["--mesh", path])
    for (dx, dy), want, p in zip(offsets, expect, got):
        if want is None:
            check(not p["hit"], "%s: click at (%g, %g) r picked %s, expected nothing" % (path, dx, dy, p["what"]))
        else:
            check(p["hit"] and p["id"] in want,
                  "%s: click at (%g, %g) r picked %s, expected one of %s" % (path, dx, dy, p["what"], want))


# ------------------------------------------------------------------ tests

class Lesson5Test(RenderCase):
    def test_faces(self):
        lay = layout()
        cam = Camera(lay)
        _, faces = objects_of(lay)
        check(len(faces) >= 6, "lesson 5 names only %d faces" % len(faces))
        events = []
        for i, f in enumerate(faces):
            x, y = exact_click(*cam.project(f["center"]))
            events.append(("click", x, y, i + 1))
        got, _ = picks(events, len(faces) + 2)
        for f, p in zip(faces, got):
            check(p["hit"] and p["id"] == f["id"] and p["face"] == f["id"],
                  "click on %s picked %s" % (f["name"], p["what"]))
            check(abs(p["u"] - 1 / 3) < 0.05 and abs(p["v"] - 1 / 3) < 0.05,
                  "%s: barycentrics (%g, %g) are not the centroid's" % (f["name"], p["u"], p["v"]))
            check(p["hits"] == [p["face"]], "%s: nearest-only lists %s" % (f["name"], p["hits"]))
            check(0.0 <= p["tv"] <= 1.0, "%s: tv %g outside the tube's range" % (f["name"], p["tv"]))
        # all hits (A): the same face first, an even number (a closed tube)
        x, y = exact_click(*cam.project(faces[0]["center"]))
        got, _ = picks([("key", "a", 0), ("click", x, y, 1)], 3)
        hits = got[0]["hits"]
        check(hits and hits[0] == faces[0]["id"] and len(hits) % 2 == 0,
              "all hits through %s: %s" % (faces[0]["name"], hits))

    def test_hole(self):
        lay = layout()
        cam = Camera(lay)
        named, _ = objects_of(lay)
        hole, sphere = named[-2], named[-1]
        x, y = exact_click(*cam.project(hole["center"]))
        got, _ = picks([("click", x, y, 1), ("key", "b", 2), ("click", x, y, 3)], 5)
        mesh, only_sphere = got
        check(not mesh["hit"] and mesh["sphere_hit"] and mesh["false_positive"],
              "hole click: hit %s sphere_hit %s" % (mesh["hit"], mesh["sphere_hit"]))
        check(only_sphere["hit"] and only_sphere["method"] == "sphere" and only_sphere["false_positive"],
              "hole click with B: %s" % only_sphere["what"])
        # the sphere's entry point lies on the sphere the layout gives
        d = math.sqrt(sum((a - b) ** 2 for a, b in zip(only_sphere["point"], sphere["center"])))
        check(abs(d - sphere["radius"]) < 1e-3 * sphere["radius"],
              "the sphere hit is %g from the centre, radius %g" % (d, sphere["radius"]))

    def test_gpu(self):
        lay = layout()
        cam = Camera(lay)
        named, faces = objects_of(lay)
        # integer window positions: the GPU reads that pixel, the ray goes
        # through its centre, so both look at the same point
        events = [("key", "g", 0)]
        for i, f in enumerate(faces):
            x, y = cam.project(f["center"])
            events.append(("click", math.floor(x), math.floor(y), i + 1))
        x, y = cam.project(named[-2]["center"])
        events.append(("click", math.floor(x), math.floor(y), len(faces) + 1))
        got, later = picks(events, len(faces) + 4)
        for p in got[:-1]:
            g = p.get("gpu")
            if not check(g is not None, "no gpu field in a G click"):
                continue
            check(p["hit"] and g["hit"] and g["agree"] and g["id"] == p["id"],
                  "GPU picked %s, the ray %s" % (g["id"], p["id"]))
            # depth precision: 24 bits over 0.1 .. far; well under a millimetre here
            check(g["distance"] < 5e-3, "GPU point %g from the ray's" % g["distance"])
            check(g["read_ms"] >= 0.0, "negative read time")
        hole = got[-1]
        check(not hole["gpu"]["hit"] and hole["gpu"]["agree"], "GPU sees something in the hole")
        # the PBO read, a frame later, says the same as the synchronous one
        check(len(later) == len(got), "%d async reads for %d clicks" % (len(later), len(got)))
        for a in later:
            check(a["gpu_async"]["same_as_sync"] and a["gpu_async"]["frame"] > a["gpu_async"]["click_frame"],
                  "async read %s" % a)

    def test_mesh_obj(self):
        path = write("fan.obj", FAN_OBJ)
        # the square's half-size is fitted to 1.5, its sphere radius 1.5 sqrt 2:
        # 0.3 r is 0.64 units from the centre, well inside the side's triangle
        model_clicks(path, [(0.0, 0.3), (0.3, 0.0), (0.0, -0.3), (-0.3, 0.0)],
                     [[0], [1], [2], [3]])

    def test_mesh_x(self):
        path = write("quads.x", TWO_QUADS_X)
        # x spans -4 .. 4, fitted to -1.5 .. 1.5: the quads cover |x| in
        # 0.75 .. 1.5, r = |(1.5, 0.375)| = 1.55, so 0.7 r lands on a quad and
        # the middle is empty
        model_clicks(path, [(-0.7, 0.0), (0.7, 0.0), (0.0, 0.0)], [[0, 1], [2, 3], None])
        # a file that cannot be read: its name and the reason, exit status 1
        bad = write("broken.x", "xof 0303txt 0032\nMesh { 3; not a mesh")
        _, err = run(["--lesson", 5, "--mesh", bad, "--frames", 1], expect=1)
        check(bad in err, "the error does not name the file: %s" % err)
        missing = os.path.join(ctx.tmp, "missing.obj")
        _, err = run(["--lesson", 5, "--mesh", missing, "--frames", 1], expect=1)
        check(missing in err, "the error does not name the missing file: %s" % err)

    def test_lesson1_gpu(self):
        lay = layout(lesson=1)
        cam = Camera(lay)
        events = [("key", "g", 0)]
        objs = lay["objects"]
        for i, o in enumerate(objs):
            x, y = cam.project(o["center"])
            events.append(("click", math.floor(x), math.floor(y), 2 * i + 1))
            events.append(("click", math.floor(x), math.floor(y), 2 * i + 2))    # toggles back
        got, _ = picks(events, 2 * len(objs) + 3, lesson=1)
        for o, p in zip(objs, got[::2]):
            g = p["gpu"]
            # a torus's centre is its hole: the sphere says torus, the ID buffer
            # sees what lies behind (or nothing)
            if "torus" in o["name"] or o["name"] == "ring":
                check(p["id"] == o["id"] and not (g["hit"] and g["id"] == o["id"]),
                      "%s: the GPU sees the torus in its own hole" % o["name"])
            else:
                check(g["hit"] and g["id"] == o["id"] and g["agree"], "%s: GPU picked %s" % (o["name"], g["id"]))


if __name__ == "__main__":
    sys.exit(main())
