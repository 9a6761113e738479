#!/usr/bin/env python3
"""Write the fuzz targets' seed corpora into tests/fuzz/corpus/<target>/.

Images (for fuzz_heightmap_load): valid and broken PNG/PGM written by hand
(PNG chunks with zlib and CRC32, so every byte is under control), plus a
few other formats stb_image reads, made with ImageMagick when it is there.
Geometry seeds: the byte layouts the targets read (see each target's
header comment), with values that hit, miss, graze and break things.

Deterministic: running it again writes the same files.
    python3 tests/fuzz/make_corpus.py            # every target's (files it does not
                                                 # write, such as committed findings, stay)
    python3 tests/fuzz/make_corpus.py models     # fuzz_model's only (objs, images, geometry)
"""
import base64
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")


written = []


def write(target, name, data):
    written.append(name)
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# ---------------------------------------------------------------- images

def chunk(kind, body, crc=None):
    c = zlib.crc32(kind + body) & 0xFFFFFFFF if crc is None else crc
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", c)


def png(width, height, depth, colour, rows, ihdr_size=None, idat=None, plte=None,
        interlace=0):
    """rows: list of bytes, one per scanline, without the filter byte."""
    w, h = ihdr_size or (width, height)
    ihdr = struct.pack(">IIBBBBB", w, h, depth, colour, 0, 0, interlace)
    raw = b"".join(b"\x00" + r for r in rows)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
    if plte is not None:
        out += chunk(b"PLTE", plte)
    out += chunk(b"IDAT", zlib.compress(raw) if idat is None else idat)
    return out + chunk(b"IEND", b"")


def ramp8(w, h):
    return [bytes((x * 37 + y * 59) & 0xFF for x in range(w)) for y in range(h)]


def pgm(w, h, maxval, pixels, magic=b"P5"):
    return magic + b"\n# raypick seed\n%d %d\n%d\n" % (w, h, maxval) + pixels


def images():
    t = "heightmap_load"
    write(t, "gray8_4x4.png", png(4, 4, 8, 0, ramp8(4, 4)))
    write(t, "gray8_2x2.png", png(2, 2, 8, 0, [b"\x00\xff", b"\x80\x40"]))
    rows16 = [b"".join(struct.pack(">H", (x * 9000 + y * 7000) & 0xFFFF) for x in range(5))
              for y in range(3)]
    write(t, "gray16_5x3.png", png(5, 3, 16, 0, rows16))
    write(t, "rgb8_3x3.png", png(3, 3, 8, 2, [bytes(range(y * 9, y * 9 + 9)) for y in range(3)]))
    write(t, "rgba8_2x2.png", png(2, 2, 8, 6, [b"\x10\x20\x30\xff\x40\x50\x60\x80"] * 2))
    write(t, "graya8_3x2.png", png(3, 2, 8, 4, [b"\x00\xff\x80\xff\xff\x00"] * 2))
    write(t, "palette_4x4.png", png(4, 4, 8, 3, [bytes([0, 1, 2, 1])] * 4,
                                    plte=b"\x00\x00\x00\x80\x80\x80\xff\xff\xff"))
    write(t, "gray1_8x2.png", png(8, 2, 1, 0, [b"\xa5", b"\x5a"]))
    write(t, "gray4_4x2.png", png(4, 2, 4, 0, [b"\x0f\xf0", b"\x37\x73"]))
    # Broken PNGs.
    good = png(4, 4, 8, 0, ramp8(4, 4))
    write(t, "bad_truncated.png", good[: len(good) // 2])
    write(t, "bad_signature_only.png", good[:8])
    bad_crc = bytearray(good)
    bad_crc[29] ^= 0xFF                      # IHDR's CRC
    write(t, "bad_crc.png", bytes(bad_crc))
    write(t, "bad_zlib.png", png(4, 4, 8, 0, ramp8(4, 4), idat=b"\x78\x9c\xff\xff\xff\x00"))
    write(t, "bad_short_idat.png", png(4, 4, 8, 0, ramp8(4, 2)))
    write(t, "bad_huge_dims.png", png(4, 4, 8, 0, ramp8(4, 4), ihdr_size=(100000, 100000)))
    write(t, "bad_max_dims.png", png(4, 4, 8, 0, ramp8(4, 4), ihdr_size=(0x7FFFFFFF, 0x7FFFFFFF)))
    write(t, "bad_zero_dims.png", png(4, 4, 8, 0, ramp8(4, 4), ihdr_size=(0, 4)))
    write(t, "bad_1x1.png", png(1, 1, 8, 0, [b"\x80"]))
    write(t, "bad_1x64.png", png(1, 64, 8, 0, [b"\x80"] * 64))
    write(t, "bad_depth.png", png(2, 2, 7, 0, [b"\x00\x00"] * 2))
    write(t, "bad_palette_missing.png", png(2, 2, 8, 3, [b"\x00\x01"] * 2))
    write(t, "bad_filter.png", good.replace(zlib.compress(b"".join(b"\x00" + r for r in ramp8(4, 4))),
                                            zlib.compress(b"".join(b"\x09" + r for r in ramp8(4, 4)))))
    # PGM, binary and ASCII, valid and broken.
    write(t, "gray8_4x3.pgm", pgm(4, 3, 255, bytes(range(0, 240, 20))))
    write(t, "gray16_3x3.pgm", pgm(3, 3, 65535,
                                   b"".join(struct.pack(">H", v * 7000) for v in range(9))))
    write(t, "maxval15_2x2.pgm", pgm(2, 2, 15, b"\x00\x05\x0a\x0f"))
    write(t, "ascii_3x2.pgm", pgm(3, 2, 255, b"0 128 255\n64 32 16\n", magic=b"P2"))
    write(t, "bad_maxval0.pgm", pgm(2, 2, 0, b"\x00\x00\x00\x00"))
    write(t, "bad_short.pgm", pgm(16, 16, 255, b"\x01\x02\x03"))
    write(t, "bad_huge.pgm", pgm(60000, 60000, 255, b"\x01\x02\x03\x04"))
    write(t, "bad_negative.pgm", b"P5\n-4 3\n255\n" + bytes(12))
    write(t, "bad_header.pgm", b"P5\n4\n")
    write(t, "bad_overflow.pgm", b"P5\n99999999999999999999 2\n255\n" + bytes(8))
    # Reproducers of the findings in docs/reliability.md, kept as seeds so
    # that every run checks them first.
    write(t, "regress_f1_jpeg_dht_472_codes.jpg", bytes.fromhex("ffd8ffc4001c00ffd9"))
    write(t, "regress_f2_pgm_above_maxval.pgm", b"P5\n2 2\n2\n\x00\x01\x02\xc8")
    write(t, "regress_f3_empty_idat.png",
          b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 3, 2, 8, 0, 0, 0, 0)) +
          chunk(b"IDAT", b"") + chunk(b"IDAT", zlib.compress(b"\x00" * 8)) + chunk(b"IEND", b""))
    # A fuzzer find (106 bytes): an IDAT chunk declaring about 2 GiB.
    write(t, "regress_f4_idat_length_2gib.png", bytes.fromhex(
        "89504e470d0a1a0a0000000d49484452000000040000000408000000008c9ac1"
        "a20000001d49444154789ce3645044520000000400000036fbc053ce8dd77e2b"
        "000040e60854789ce3645044002d4944415408d705c13101e26666124967ddad"
        "2e0000004549b3004e44"))
    write(t, "empty.bin", b"")
    write(t, "text.txt", b"this is not an image\n")
    write(t, "noise.bin", bytes((i * 131 + 7) & 0xFF for i in range(300)))
    other_formats(t)


def other_formats(t):
    """BMP, GIF, TGA, JPEG, PSD, HDR: stb_image reads them all unless told
    otherwise, so the loader does too."""
    convert = shutil.which("convert")
    if not convert:
        print("make_corpus: no ImageMagick 'convert'; skipping BMP/GIF/TGA/JPEG seeds",
              file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src.pgm")
        with open(src, "wb") as f:
            f.write(pgm(6, 5, 255, bytes((i * 41) & 0xFF for i in range(30))))
        for ext in ("bmp", "gif", "tga", "jpg", "hdr", "psd"):
            out = os.path.join(tmp, "img." + ext)
            r = subprocess.run([convert, src, "-strip", out], capture_output=True)
            if r.returncode == 0 and os.path.exists(out):
                with open(out, "rb") as f:
                    write(t, "gray_6x5." + ext, f.read())
        out = os.path.join(tmp, "interlaced.png")
        r = subprocess.run([convert, src, "-strip", "-interlace", "PNG", out],
                           capture_output=True)
        if r.returncode == 0:
            with open(out, "rb") as f:
                write(t, "interlaced_6x5.png", f.read())


# ---------------------------------------------------------------- geometry

def tame(v):
    """The two bytes fuzz_tame_float() turns into v (v * 8 * 2^(6-sh) must be
    an integer in [-128, 127])."""
    for sh in range(13):
        m = v * 8 * 2.0 ** (6 - sh)
        if m == int(m) and -128 <= m <= 127:
            return struct.pack("bB", int(m), sh)
    raise ValueError("not a tame float: %r" % v)


def tames(*vs):
    return b"".join(tame(v) for v in vs)


def raws(*vs):
    return b"".join(struct.pack("<f", v) for v in vs)


NAN, INF = float("nan"), float("inf")


def geometry():
    # fuzz_sphere: mode, count, ray (6), 8 spheres (4 each), point (3)
    spheres = [(0, 0, 0, 1), (0.5, 0, -3, 2), (10, 0, 0, 1), (0, 1, 0, 1),
               (0, 0, 2, 0.5), (0, 0, 0, 0), (0, 0, -8, 4), (3, 3, 3, 1)]
    flat = [c for s in spheres for c in s]
    write("sphere", "hits", bytes([1, 8]) + tames(0, 0, 5, 0, 0, -1, *flat, 0.25, 0, 0))
    write("sphere", "inside", bytes([1, 3]) + tames(0, 0, 0, 1, 0.5, 0, *flat, 0, 0, 0))
    write("sphere", "tangent", bytes([1, 1]) + tames(1, 0, 5, 0, 0, -1, *flat, 1, 0, 0))
    write("sphere", "behind", bytes([1, 2]) + tames(0, 0, 5, 0, 0, 1, *flat, 0, 0, 2))
    write("sphere", "raw_nan", bytes([0, 2]) + raws(0, 0, 5, 0, NAN, -1, 0, 0, 0, 1,
                                                    0, 0, 0, INF, 0, 0, 0))
    write("sphere", "raw_far", bytes([0, 1]) + raws(0, 0, 0, 0, 0, -1,
                                                    1e30, 0, -1e30, 1e-30, 0, 0, 0))
    # fuzz_ellipsoid: mode, orientation kind, ray, centre, radii, [orientation]
    write("ellipsoid", "axis_aligned", bytes([1, 0]) + tames(0, 0, 10, 0, 0, -1,
                                                             0, 0, 0, 4, 1.5, 2))
    write("ellipsoid", "rotated", bytes([1, 1]) + tames(0, 0, 10, 0.125, 0, -1, 0, 0, 0,
                                                        4, 1.5, 2, 0, 1, 0, 0.75))
    write("ellipsoid", "inside", bytes([1, 0]) + tames(0.5, 0, 0, 1, 1, 0, 0, 0, 0, 4, 2, 1))
    write("ellipsoid", "raw_quat", bytes([0, 2]) + raws(0, 0, 10, 0, 0, -1, 0, 0, 0,
                                                        1, 2, 3, 0, 0, 0, 2))
    write("ellipsoid", "zero_radius", bytes([1, 0]) + tames(0, 0, 10, 0, 0, -1, 0, 0, 0,
                                                            4, 0, 2))
    # everything subnormal (multiples of 2^-149): a hit, not checked against
    # the surface (CI's fuzz check of 27 Nov found it)
    sub = 2.0 ** -149
    write("ellipsoid", "subnormal", bytes([0, 0]) + raws(0, 65 * sub, 128 * sub, 4259840 * sub, 0, 4 * sub,
                                                         0, -0.0, 191 * sub, 63 * sub, 256 * sub, 199 * sub))
    # fuzz_pick: mode, convention, x, y, viewport(4), then either two raw
    # matrices or a camera: the click as fractions of the viewport (2 bytes),
    # ortho, near, far, fov, half height (bytes), eye (3 tame), target
    # (3 tame); then a ray for the transform.
    cam = bytes([128, 100, 0, 20, 80, 128, 60]) + tames(0, 2, 10, 0, 0, 0)
    ray = tames(1, 2, 3, 0, 0, -1)
    write("pick", "gl_perspective", bytes([3, 0]) + tames(320, 240, 0, 0, 640, 480) + cam + ray)
    write("pick", "d3d_perspective", bytes([3, 1]) + tames(10, 472, 0, 0, 640, 480) + cam + ray)
    write("pick", "gl_ortho_offset", bytes([3, 0]) + tames(400, 100, 100, 50, 512, 256) +
          cam[:2] + bytes([1]) + cam[3:] + ray)
    write("pick", "d3d_ortho", bytes([3, 1]) + tames(0, 0, 0, 0, 256, 256) +
          cam[:2] + bytes([1]) + cam[3:] + ray)
    ident = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    zero = [0] * 16
    write("pick", "raw_identity", bytes([0, 0]) + raws(5, 5, 0, 0, 10, 10, *ident, *ident) +
          raws(0, 0, 0, 0, 0, 1))
    write("pick", "raw_singular", bytes([0, 1]) + raws(5, 5, 0, 0, 10, 10, *zero, *ident) +
          raws(0, 0, 0, 0, 0, 1))
    write("pick", "raw_empty_viewport", bytes([0, 0]) + raws(0, 0, 0, 0, 0, 0, *ident, *ident))
    write("pick", "bad_enum", bytes([1, 200]) + tames(5, 5, 0, 0, 10, 10, *ident, *ident))
    # fuzz_heightmap: mode, cols-2, rows-2, flags, spacing, origin, heights
    # (bytes / 16 unless flags & 1), ray, steps, accuracy, qx, qz, generator.
    hs = bytes((i * 37) & 0x7F for i in range(16))
    tail = tames(-1, 12, -1, 1, -1, 1) + bytes([31]) + tames(0.0625, 1.5, 1.5)
    gen = bytes([0x2d]) + tames(1, 8) + b"\x01\x02\x03\x04" + tames(0, 0, 0)
    write("heightmap", "bytes_4x4", bytes([1, 2, 2, 16]) + tames(1, 0, 0, 0) + hs + tail + gen)
    write("heightmap", "down_4x4", bytes([1, 2, 2, 0]) + tames(1, 0, 0, 0) + hs +
          tames(1.5, 20, 1.5, 0, -1, 0) + bytes([7]) + tames(1 / 64, 0.5, 2.5))
    write("heightmap", "level_ray", bytes([1, 2, 2, 0]) + tames(1, 0, 0, 0) + hs +
          tames(-1, 2, 1, 1, 0, 0) + bytes([5]) + tames(1 / 64, 0.5, 2.5))
    write("heightmap", "spike_7x7", bytes([1, 5, 5, 0]) + tames(0.5, -2, 0, -2) +
          bytes(24) + b"\xf0" + bytes(24) + tames(-2, 3, -2, 1, -0.0625, 1) +
          bytes([3]) + tames(1 / 128, 0, 0))
    write("heightmap", "raw_floats", bytes([0, 1, 1, 1]) + raws(1, 0, 0, 0, 0, 1, NAN, 3,
                                                              0, 5, 0, 0, -1, 0) +
          bytes([250]) + raws(0, 1, 1))
    write("heightmap", "huge_generate", bytes([1, 0, 0, 16]) + tames(1, 0, 0, 0) + bytes(4) +
          tail + bytes([0xfe]) + tames(1, 8) + b"\x00\x00\x00\x00" + tames(0, 0, 0))

    # fuzz_mesh: mode, vertex count - 1, triangle count - 1, flags, the
    # vertices, the indices (indexed), ray, [t_max], matrix (12 tame
    # floats: columns 0..3, rows 0..2)
    quad = tames(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0)
    affine = tames(2, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0)
    write("mesh", "quad_indexed", bytes([1, 3, 1, 9]) + quad + bytes([0, 1, 2, 0, 2, 3]) +
          tames(0.25, 0.5, 2, 0, 0, -1, 3) + affine)
    write("mesh", "quad_edge", bytes([1, 3, 1, 1]) + quad + bytes([0, 1, 2, 0, 2, 3]) +
          tames(0.5, 0.5, 2, 0, 0, -1) + affine)
    write("mesh", "soup_strided", bytes([1, 0, 1, 2]) +
          tames(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1) +
          tames(0.125, 0.125, -4, 0, 0, 1) + affine)
    write("mesh", "out_of_range", bytes([1, 2, 0, 1]) + tames(0, 0, 0, 1, 0, 0, 0, 1, 0) +
          bytes([0, 1, 3]) + tames(0.25, 0.25, 1, 0, 0, -1) + affine)
    write("mesh", "raw_nan", bytes([0, 2, 0, 5]) + raws(0, 0, 0, 1, NAN, 0, 0, 1, 0) +
          bytes([0, 1, 2]) + raws(0.25, 0.25, 1, 0, 0, -1) + raws(*([1] + [0] * 15)))

    # fuzz_scene: mode, count, objects (kind byte + floats; a mesh: 16
    # floats + affine flag), moves (count, then index + 1, kind, floats),
    # rays (6 floats each).
    ident = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    moved = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 4, 0, -6, 1]
    objs = (bytes([0]) + tames(0, 0, -5, 1) + bytes([2]) + tames(-1, -1, -9, 1, 1, -8) +
            bytes([4]) + tames(*moved) + b"\x01" + bytes([0]) + tames(0, 0, -5, 1))
    rays = tames(0, 0, 0, 0, 0, -1, 4, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 1)
    write("scene", "mixed_ties", bytes([1, 4]) + objs + bytes([0]) + rays)
    write("scene", "moves", bytes([1, 4]) + objs + bytes([2, 1]) + bytes([0]) +
          tames(3, 0, -5, 1) + bytes([3, 4]) + tames(*ident) + b"\x01" + rays)
    write("scene", "raw", bytes([0, 2]) + bytes([0]) + raws(0, 0, -5, 1) + bytes([1]) +
          raws(0, 0, -5, 1, 2, 3, 0, 0, 0, NAN) + bytes([0]) + raws(0, 0, 0, 0, 0, -1))

    # fuzz_frustum: mode, convention, flags, polyline count; rectangle (4),
    # viewport (4); mode 3: the rectangle as 4 bytes, then eye, target (3
    # tame each), near, far, fov, half height (bytes); else two matrices or
    # (flags & 1) a raw frustum of 48 floats; then the shapes: sphere (4),
    # ellipsoid (6 + quaternion 4 + a byte), aabb (6), obb (6 + 4 + a
    # byte), triangle (9), the polyline's points.
    shapes = (tames(0, 0, 0, 1) + tames(1, 0, 0, 1, 0.5, 0.25, 0, 0, 0, 1) + b"\x01" +
              tames(-1, -1, -1, 1, 1, 1) + tames(0, 0, 0, 1, 1, 1, 0, 0.5, 0, 0.875) + b"\x01" +
              tames(-2, 0, 0, 2, 0, 0, 0, 2, 0))
    poly = tames(-4, 0, 0, 0, 0, 0, 0, 0, -4, 4, 4, 4)
    cam = tames(0, 5, 10, 0, 0, 0) + bytes([20, 100, 128, 60])
    write("frustum", "gl_perspective", bytes([3, 0, 2, 4]) + tames(0, 0, 0, 0, 0, 0, 640, 480) +
          bytes([64, 64, 192, 160]) + cam + shapes + poly)
    write("frustum", "d3d_ortho_reversed", bytes([3, 1, 2 | 4 | 8, 3]) +
          tames(0, 0, 0, 0, 8, 4, 256, 256) + bytes([250, 10, 3, 200]) + cam + shapes + poly[:36])
    write("frustum", "past_the_edges", bytes([3, 0, 2, 2]) + tames(0, 0, 0, 0, 0, 0, 320, 200) +
          bytes([0, 0, 255, 255]) + cam + shapes + poly[:24])
    write("frustum", "empty_rect", bytes([3, 0, 2, 2]) + tames(0, 0, 0, 0, 0, 0, 320, 200) +
          bytes([64, 64, 64, 160]) + cam + shapes + poly[:24])
    ortho_box = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -0.25, 0, 0, 0, -1.5, 1]
    write("frustum", "tame_matrices", bytes([1, 0, 2, 4]) + tames(10, 10, 90, 70, 0, 0, 100, 80) +
          tames(*ortho_box) + tames(*ident) + shapes + poly)
    unit = [-1, 0, 0, 1, 1, 0, 0, 1, 0, -1, 0, 1, 0, 1, 0, 1, 0, 0, -1, 10, 0, 0, 1, -1]
    corners = [-1, -1, -1, 1, -1, -1, -1, 1, -1, 1, 1, -1, -1, -1, -10, 1, -1, -10, -1, 1, -10,
               1, 1, -10]
    write("frustum", "raw_frustum", bytes([1, 0, 1 | 2, 3]) + tames(0, 0, 0, 0, 0, 0, 1, 1) +
          tames(*unit) + tames(*corners) + shapes + poly[:36])
    write("frustum", "raw_nan", bytes([0, 1, 0, 2]) + raws(0, 0, NAN, 5, 0, 0, 10, 10) +
          raws(*ident) + raws(*ident) + raws(0, 0, -5, INF) + raws(*([0.5] * 20)))
    # a rectangle 0.0012 px wide, 97 units from the origin: narrower than
    # float holds there, so its centre is not checked (CI's fuzz check of
    # 27 Nov found it)
    write("frustum", "thinner_than_float", base64.b64decode("AwBgAgAAAAAAAKMAAAABAABQCzswAAD/AAD/AJ9k1UAFQAU="))
    # a triangle vertex 0.8 from the origin, just inside a face of a
    # frustum whose corners lie 2e9 away: "well inside" is measured
    # against the frustum's size, where its float rounding is (27 Nov)
    write("frustum", "huge_frustum_small_vertex", bytes([0, 1, 0, 0]) +
          raws(-504, -14.875, 0.6875, 101, 0, 0, 100, 100) +
          raws(20.75, -25, -15, -520, 0.22265625, 13.625, -86, -23.75,
               0, 0.2890625, 0.3125, 0.0703125, 128, 0, 0, 0) +
          raws(0, 94, 0, -0.671875, 0, -0.216796875, 0, 0.25,
               0, 0, -0.02734375, 254, -27, -55, -42, 90) +
          raws(*([0] * 30)) +
          raws(0.0849222913, 0.000196312438, -0.802445769, 4.36996698, -0.0386095382,
               -97.5618286, 6.36425781, -0.112508468, -92.5815201))

    # fuzz_thin: mode, flags, polyline count, stride choice; ray (6),
    # tolerance (2), point, segment ends, the polyline's points, plane (4),
    # cursor x, y, pixels, viewport (4); flags & 4: two cursor bytes, the
    # eye (3 tame) and a fov byte, else two matrices; grab, normal, object.
    ray = tames(0, 0, 5, 0, 0, -1)
    thin = tames(0.25, 0, 0) + tames(-1, 0.25, 0, 1, 0.25, 0)
    drag = tames(0, 0, 0, 0, 1, 0, 0, 0.5, 0)
    write("thin", "world_tolerance", bytes([1, 0, 3, 0]) + ray + tames(0.5, 0) + thin +
          tames(0, 0, 0, 1, 0, 0, 1, 1, 0) + tames(0, 1, 0, 0) +
          tames(32, 24, 3, 0, 0, 64, 48) + tames(*ident) + tames(*ident) + drag)
    write("thin", "pixels_real_camera", bytes([1, 4 | 8, 4, 2]) + ray + tames(0, 0.0625) + thin +
          tames(-2, 0, 0, 0, 0, 0, 0, 1, 0, 2, 2, 2) + tames(0, 1, 0, 0) +
          tames(0, 0, 3, 0, 0, 0, 0) + bytes([10, 250]) + tames(3, 4, 10) + bytes([100]) + drag)
    write("thin", "parallel_no_tolerance", bytes([1, 1, 2, 3]) + tames(0, 0, 0, 2, 0, 0) +
          tames(0, 0) + tames(3, 1, 0) + tames(2, 1, 0, 9, 1, 0) + tames(-3, 1, 0, 4, 1, 0) +
          tames(0, 0, 1, -2) + tames(1, 1, 1, 0, 0, 4, 4) + tames(*ident) + tames(*ident) + drag)
    write("thin", "one_point", bytes([1, 2, 1, 1]) + ray + tames(0.125, 1) + thin + tames(0, 0, -3) +
          tames(0, 0, 1, 0) + tames(1, 1, 1, 0, 0, 4, 4) + tames(*ident) + tames(*ident) + drag)
    write("thin", "raw_nan", bytes([0, 0, 2, 0]) + raws(0, 0, 5, 0, 0, -1) + raws(NAN, 0) +
          raws(1, INF, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 2, 2, 2) + raws(0, 0, 0, 0) +
          raws(0, 0, -1, 0, 0, 0, 0))

def scene_queries():
    """fuzz_scene_query: mode, count, objects (kind byte, floats, mask
    byte), moves (count; index + 1, kind, floats, mask byte), queries
    (a byte: odd a ray with layers, t_max, any hit and a tolerance; even a
    camera and a rectangle with select, layers and cap)."""
    ident_at = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 3, 0, -6, 1]
    objs = (bytes([0]) + tames(0, 0, -5, 1) + bytes([0]) +
            bytes([2]) + tames(-1, -1, -9, 1, 1, -8) + bytes([2]) +
            bytes([5]) + tames(0, 0, -3, 0.25, 0) + bytes([6]) +
            bytes([6]) + tames(-1, 0.25, -4, 1, 0.25, -4, 0.5, 0) + bytes([0]) +
            bytes([7, 3]) + tames(-2, 0, -6, 0, 0, -6, 0, 0, -10, 2, 0, -10, 0.25, 0.5) +
            bytes([1]) +
            bytes([4]) + tames(*ident_at) + b"\x01" + bytes([3]))
    move = bytes([1, 1, 0]) + tames(1, 0, -5, 1) + bytes([10])
    rays = (bytes([1]) + tames(0, 0, 0, 0, 0, -1) + bytes([0]) + tames(0) + bytes([0]) +
            tames(0, 0) +
            bytes([1]) + tames(0, 0, 0, 0, 0, -1) + bytes([6]) + tames(4.5) + bytes([1]) +
            tames(0.125, 0.25))
    cam = tames(0, 5, 10, 0, 0, -5) + bytes([20, 100, 128])
    frusta = (bytes([0]) + cam + bytes([0, 40, 40, 200, 200, 0, 0, 5]) +
              bytes([2]) + cam + bytes([1, 0, 0, 255, 255, 2, 6, 1]) +
              bytes([4]) + cam + bytes([0, 100, 90, 120, 110, 1, 0, 17]))
    write("scene_query", "every_kind", bytes([1, 6]) + objs + move + rays + frusta + rays + frusta)
    write("scene_query", "no_moves", bytes([1, 6]) + objs + bytes([0]) + frusta + rays)
    write("scene_query", "raw", bytes([0, 2]) + bytes([5]) + raws(0, 0, -5, NAN, 0) +
          bytes([6]) + bytes([6]) + raws(0, 0, 0, 1, 1, 1, 0.5, 0) + bytes([2]) + bytes([0]) +
          bytes([1]) + raws(0, 0, 0, 0, 0, -1) + bytes([0]) + raws(-1) + bytes([1]) +
          raws(0.5, 0) + bytes([0]) + cam + bytes([0, 0, 0, 255, 255, 3, 0, 4]))


# ---------------------------------------------------------------- .obj text

def objs():
    """fuzz_obj: models as the demo reads them, good and broken."""
    quad = b"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
    write("obj", "triangle.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    write("obj", "quad_fan.obj", quad + b"f 1 2 3 4\n")
    write("obj", "forms.obj", b"# every corner form\r\nmtllib m.mtl\r\no a\r\n" + quad +
          b"vt 0 0\nvt 1 0 0\nvt 0.5\nvn 0 0 1\ng g\nusemtl red\ns 1\n"
          b"f 1/1/1 2/2/1 3/3/1\nf 1//1 3//1 4//1\nf -4/-3 -3/-2 -1/-1\nl 1 2\np 3\n")
    write("obj", "forward.obj", b"f 1 2 3 4 5\nv 0 0 0 1\nv 1 0 0 1 0 0 1\nv 1e-3 -.5 +2.\n"
          b"v 0x1p2 0 0\nv 1E2 3.25e+1 -0\n")
    write("obj", "dot.obj", b"v 1 1 1\nv 1 1 1\nv 1 1 1\nf 1 2 3\n")
    write("obj", "huge_coords.obj", b"v -3e38 -3e38 0\nv 3e38 0 3e38\nv 0 3e38 -3e38\nf 1 2 3\n")
    write("obj", "tiny_coords.obj", b"v 1e-45 0 0\nv 0 1e-45 0\nv 0 0 1e-45\nf 1 2 3\n")
    write("obj", "bad_nan.obj", b"v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    write("obj", "bad_index.obj", quad + b"f 1 2 5\nf 0 1 2\nf -5 1 2\n")
    write("obj", "bad_corner.obj", quad + b"f 1/1/1/1 2 3\nf 1//x 2 3\n")
    write("obj", "bad_short_face.obj", quad + b"f 1 2\n")
    write("obj", "bad_overflow.obj", quad + b"f 4294967297 99999999999999999999999 1\n")
    write("obj", "points_only.obj", quad + b"p 1 2 3\nl 1 2 3\n")
    write("obj", "binary.obj", bytes(range(256)))


# ---------------------------------------------------------------- models

# fuzz_model: byte 0 picks the extension (tests/fuzz/fuzz_model.c's FORMATS)
X, GLTF, GLB, PLY, STL, OBJ = range(6)

X_MESH = b"Mesh m {\n3;\n0;0;0;,\n1;0;0;,\n0;1;0;;\n1;\n3;0,1,2;;\n}\n"


def model(name, fmt, data):
    write("model", name, bytes([fmt]) + data)


def x_binary_mesh():
    """A binary .x (32-bit floats): Mesh { 3; 9 floats; 1; 3; 0,1,2 } as tokens."""
    def word(w):
        return struct.pack("<H", w)
    name = word(1) + struct.pack("<I", 4) + b"Mesh"
    ints = lambda *v: word(6) + struct.pack("<I", len(v)) + b"".join(struct.pack("<I", i) for i in v)
    floats = lambda *v: word(7) + struct.pack("<I", len(v)) + b"".join(struct.pack("<f", f) for f in v)
    return (b"xof 0302bin 0032" + name + word(10) + ints(3) + floats(0, 0, 0, 1, 0, 0, 0, 1, 0) +
            ints(1, 3, 0, 1, 2) + word(11))


def x_compressed(body):
    """MSZIP: the 16-byte header, 6 bytes assimp skips, one block of raw deflate."""
    z = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = z.compress(body) + z.flush()
    return (b"xof 0302tzip0032" + struct.pack("<IH", len(body) + 16, 0) +
            struct.pack("<H", len(packed)) + b"CK" + packed)


def glb(json, bin_chunk=b""):
    json += b" " * (-len(json) % 4)
    out = struct.pack("<I", len(json)) + b"JSON" + json
    if bin_chunk:
        bin_chunk += b"\0" * (-len(bin_chunk) % 4)
        out += struct.pack("<I", len(bin_chunk)) + b"BIN\0" + bin_chunk
    return b"glTF" + struct.pack("<II", 2, 12 + len(out)) + out


def gltf_triangle_json(uri=None):
    """One triangle: 3 float positions (36 bytes) and 3 ushort indices (6, padded to 8)."""
    buffer = b'{"byteLength":44' + (b',"uri":"' + uri + b'"' if uri else b"") + b"}"
    return (b'{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],'
            b'"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],'
            b'"buffers":[' + buffer + b'],'
            b'"bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":6}],'
            b'"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3",'
            b'"min":[0,0,0],"max":[1,1,0]},{"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}]}')


def models():
    """fuzz_model: small models of every format the loader takes, good,
    lying about their counts and nesting too deep (issue 34)."""
    tri_bin = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<3H", 0, 1, 2) + b"\0\0"
    model("triangle.x", X, b"xof 0302txt 0064\n" + X_MESH)
    model("frames.x", X, b"xof 0303txt 0032\nFrame F {\n FrameTransformMatrix { 1.0,0.0,0.0,0.0, 0.0,1.0,0.0,0.0, "
          b"0.0,0.0,-1.0,0.0, 5.0,0.0,0.0,1.0;; }\n " + X_MESH + b"}\n")
    model("binary.x", X, x_binary_mesh())
    model("compressed.x", X, x_compressed(b"\n" + X_MESH))
    model("lie_faces.x", X, b"xof 0302txt 0064\nMesh m {\n3;\n0;0;0;,\n1;0;0;,\n0;1;0;;\n500000000;\n"
          b"3;0,1,2;;\n}\n")
    model("deep.x", X, b"xof 0302txt 0064\n" + b"Frame f {\n" * 300 + X_MESH + b"}\n" * 300)
    model("triangle.gltf", GLTF, gltf_triangle_json(b"data:application/octet-stream;base64," +
                                                     __import__("base64").b64encode(tri_bin)))
    model("lie.gltf", GLTF, b'{"asset":{"version":"2.0"},"buffers":[{"byteLength":4294967295,"uri":"none.bin"}]}')
    model("deep.gltf", GLTF, b'{"asset":{"version":"2.0"},"extras":' + b"[" * 300 + b"]" * 300 + b"}")
    model("triangle.glb", GLB, glb(gltf_triangle_json(), tri_bin))
    model("lie.glb", GLB, glb(b'{"asset":{"version":"2.0"},"buffers":[{"byteLength":4294967295}]}'))
    model("triangle.ply", PLY, b"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
          b"property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
          b"0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n")
    model("binary.ply", PLY, b"ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\n"
          b"property float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\n"
          b"end_header\n" + struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<B3i", 3, 0, 1, 2))
    model("lie.ply", PLY, b"ply\nformat ascii 1.0\nelement vertex 1000000000\nproperty float x\n"
          b"property float y\nproperty float z\nend_header\n0 0 0\n")
    model("triangle.stl", STL, b"solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"
          b"vertex 0 1 0\nendloop\nendfacet\nendsolid t\n")
    model("binary.stl", STL, b"\0" * 80 + struct.pack("<I", 1) + struct.pack("<12f", 0, 0, 1, 0, 0, 0, 1, 0, 0,
                                                                            0, 1, 0) + b"\0\0")
    model("lie.stl", STL, b"\0" * 80 + struct.pack("<I", 4000000000) + b"\0" * 50)
    model("triangle.obj", OBJ, b"\xef\xbb\xbfv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    model("overdraw.obj", OBJ, b"v -1 -1 0\nv 1 -1 0\nv 0 1 0\n" + b"f 1 2 3\n" * 512)


def main():
    only = sys.argv[1:]
    if only:    # these targets' seeds only (others, and found inputs, stay)
        for target in only:
            {"models": models, "objs": objs, "images": images, "geometry": geometry}[target]()
        print("make_corpus: wrote %s" % ", ".join(only))
        return
    images()
    geometry()
    scene_queries()
    objs()
    models()
    n = sum(len(fs) for _, _, fs in os.walk(CORPUS))
    print("make_corpus: wrote %d seeds; %s holds %d" % (len(written), os.path.relpath(CORPUS), n))


if __name__ == "__main__":
    main()
