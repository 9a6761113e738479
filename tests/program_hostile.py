#!/usr/bin/env python3
"""program_hostile.py RAYPICK [--assimp]: the demo given hostile files and
outputs (issue 34, docs/reliability.md "Hostile files and outputs").

Every file is made here, in a temporary directory: zlib bombs, images and
models that lie about their sizes, damaged checksums, FIFOs, pathological
models. Each case must end as its line says: refused (non-zero exit, a
message on stderr naming the file and the problem) or carried on (exit 0);
never a signal, a sanitizer report or a hang. Where a case is about
resources, the child's own CPU time and peak memory (wait4's rusage) are
checked against limits far above what the fixed program takes and far
below what the unfixed one took: neither depends on the machine's load.
The wall-clock limit only catches a program blocked without using CPU.

Needs a display (DISPLAY: the render suite runs under xvfb-run). Prints
"N passed, M failed" last.
"""
import math
import os
import re
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import watched  # tests/watched.py, beside this script

EXE = os.path.abspath(sys.argv[1])
HAVE_ASSIMP = "--assimp" in sys.argv[2:]
WRAPPER = os.environ.get("RAYPICK_EXE_WRAPPER", "").split()
HANG_WALL_S = 600       # the signal test's wait for its line
SANITIZER = ("runtime error", "AddressSanitizer", "LeakSanitizer")

passed = 0
failed = 0


def report(ok, name, detail):
    global passed, failed
    if ok:
        passed += 1
        print("ok    %-40s %s" % (name, detail))
    else:
        failed += 1
        print("FAIL  %-40s %s" % (name, detail))
    sys.stdout.flush()


def run(args, stdout=subprocess.DEVNULL, preexec=None):
    """Runs the program; returns (status, stderr text, cpu seconds, peak KiB)."""
    err = tempfile.TemporaryFile()
    p = subprocess.Popen(WRAPPER + [EXE] + args, stdin=subprocess.DEVNULL, stdout=stdout, stderr=err,
                         preexec_fn=preexec, start_new_session=True)
    # a run that blocks without CPU: tests/watched.py's stall (each case's
    # own CPU limit catches one that spins); wait4 here for its rusage
    clock = watched.StallClock(p.pid)
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if clock.stalled():
            os.killpg(p.pid, signal.SIGKILL)
            pid, status, usage = os.wait4(p.pid, 0)
            status = -1
            break
        time.sleep(0.02)
    p.returncode = 0
    err.seek(0)
    text = err.read().decode("utf-8", "replace")
    return status, text, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def describe(status):
    if status == -1:
        return "hung (no CPU used for %d s)" % watched.STALL_S
    if os.WIFSIGNALED(status):
        return "killed by signal %d" % os.WTERMSIG(status)
    return "exit %d" % os.WEXITSTATUS(status)


def case(name, args, expect, needles=(), cpu_s=None, peak_mib=None, stdout=subprocess.DEVNULL):
    """expect: 'refuse' (exit 1 or 2 with every needle in stderr) or
    'carry-on' (exit 0). cpu_s, peak_mib: the child's limits."""
    status, text, cpu, peak_kib = run(args, stdout=stdout)
    first = text.strip().splitlines()[0][:100] if text.strip() else ""
    why = ""
    if status == -1 or os.WIFSIGNALED(status):
        why = describe(status)
    elif any(s in text for s in SANITIZER):
        why = "sanitizer report: " + first
    elif expect == "refuse" and os.WEXITSTATUS(status) == 0:
        why = "accepted (exit 0)"
    elif expect == "refuse" and not all(n in text for n in needles):
        why = "message lacks %s: %s" % ([n for n in needles if n not in text], first)
    elif expect == "carry-on" and os.WEXITSTATUS(status) != 0:
        why = "refused (%s): %s" % (describe(status), first)
    elif cpu_s is not None and cpu > cpu_s:
        why = "took %.1f s of CPU (limit %g)" % (cpu, cpu_s)
    elif peak_mib is not None and peak_kib > peak_mib * 1024:
        why = "peak memory %d MiB (limit %d)" % (peak_kib // 1024, peak_mib)
    report(not why, name, why or "%s, %.2f s CPU, %d MiB: %s" % (describe(status), cpu, peak_kib // 1024, first))
    return status, text


def carry_on_report(name, args, cpu_s):
    """case() of a run that must carry on; returns what it printed (its
    --report lines), so one run answers both the limits and the pick."""
    out = tempfile.TemporaryFile()
    case(name, args, "carry-on", cpu_s=cpu_s, stdout=out)
    out.seek(0)
    return out.read().decode()


# ------------------------------------------------------------ file makers

def png_chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(w, h, depth, colour, idat, plte=None):
    out = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, colour, 0, 0, 0))
    if plte is not None:
        out += png_chunk(b"PLTE", plte)
    return out + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b"")


def grey_png(w, h, rows):
    raw = b"".join(b"\x00" + bytes(r) for r in rows)
    return png(w, h, 8, 0, zlib.compress(raw, 0))


def zlib_of_zeros(n):
    z = zlib.compressobj(9)
    block = bytes(1 << 20)
    parts = [z.compress(block) for _ in range(n >> 20)]
    return b"".join(parts) + z.flush()


def bmp(w, h, rows, header=40, top_down=False):
    """24-bit BMP of grey rows (top row first)."""
    stride = (w * 3 + 3) & ~3
    pixels = b""
    order = rows if top_down else rows[::-1]
    for r in order:
        line = b"".join(bytes([v, v, v]) for v in r)
        pixels += line + bytes(stride - len(line))
    offset = 14 + header
    if header == 12:
        info = struct.pack("<IHHHH", 12, w, h, 1, 24)
    else:
        info = struct.pack("<IiiHHIIiiII", 40, w, -h if top_down else h, 1, 24, 0, len(pixels), 0, 0, 0, 0)
    return b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset) + info + pixels


def write(tmp, name, data):
    path = os.path.join(tmp, name)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return path


# ------------------------------------------------------------ the cases

def images(tmp):
    hm = ["--lesson", "4", "--size", "160x120", "--frames", "3", "--heightmap"]
    # item 3: 2x2 grey, one IDAT of 1 GiB of zeros (about 1 MB compressed)
    bomb = write(tmp, "bomb.png", png(2, 2, 8, 0, zlib_of_zeros(1 << 30)))
    case("png zlib bomb (1 GiB of zeros)", hm + [bomb], "refuse",
         [bomb, "inflate to more than the 6 bytes a 2x2 image holds"], cpu_s=30, peak_mib=600)
    # item 5: one PLTE entry, every index 255
    pal = write(tmp, "palette.png", png(2, 2, 8, 3, zlib.compress(b"\x00\xff\xff" * 2), plte=b"\x10\x20\x30"))
    case("png index past its palette", hm + [pal], "refuse", [pal, "palette index past"])
    # item 13: one byte changed in a stored IDAT; then with the CRC mended
    good = grey_png(4, 4, [[0, 50, 100, 150]] * 4)
    at = good.index(b"IDAT") + 4 + 2 + 5 + 2
    bad = bytearray(good)
    bad[at] ^= 0x40
    crc = write(tmp, "crc.png", bytes(bad))
    case("png CRC error", hm + [crc], "refuse", [crc, "fails its CRC check"])
    start = good.index(b"IDAT")
    n = struct.unpack(">I", good[start - 4:start])[0]
    bad[start + 4 + n:start + 8 + n] = struct.pack(">I", zlib.crc32(bytes(bad[start:start + 4 + n])) & 0xFFFFFFFF)
    adler = write(tmp, "adler.png", bytes(bad))
    case("png Adler-32 error", hm + [adler], "refuse", [adler, "Adler-32"])
    # item 12: too small, before any spacing is computed
    one = write(tmp, "one.png", grey_png(1, 1, [[7]]))
    case("png 1x1", hm + [one], "refuse", [one, "1x1, too small"])
    zero = write(tmp, "zero.png", png(0, 0, 8, 0, zlib.compress(b"")))
    case("png 0x0", hm + [zero], "refuse", [zero, "too small"])
    # item 6: a 64x64 BMP cut to 200 bytes; a 1,054-byte BMP claiming 16384x4096
    full = bmp(64, 64, [[(r * 4 + c) & 255 for c in range(64)] for r in range(64)])
    cut = write(tmp, "cut.bmp", full[:200])
    case("bmp cut to 200 bytes", hm + [cut], "refuse", [cut, "truncated"])
    liar = bytearray(full[:1054])
    liar[18:26] = struct.pack("<ii", 16384, 4096)
    liar = write(tmp, "liar.bmp", bytes(liar))
    case("bmp claiming 16384x4096", hm + [liar], "refuse", [liar, "truncated"], cpu_s=10, peak_mib=600)
    # item 8: top-down and OS/2 BMPs load
    rows = [[(r * 40 + c * 9) & 255 for c in range(6)] for r in range(5)]
    case("bmp top-down", hm + [write(tmp, "top.bmp", bmp(6, 5, rows, top_down=True))], "carry-on")
    case("bmp OS/2 1.x", hm + [write(tmp, "os2.bmp", bmp(6, 5, rows, header=12))], "carry-on")
    # the note: a PGM comment right after maxval
    case("pgm comment after maxval", hm + [write(tmp, "c.pgm", b"P5\n2 2\n255#c\n\x00\x40\x80\xff")], "carry-on")
    # item 4: a FIFO is refused before it is opened (opening it blocks)
    if not WRAPPER:     # Windows has no FIFOs in its file system (Wine shows none)
        fifo = os.path.join(tmp, "fifo.pgm")
        os.mkfifo(fifo)
        case("heightmap FIFO", hm + [fifo], "refuse", [fifo, "not a regular file (a FIFO)"])


def models(tmp):
    mesh = ["--lesson", "5", "--size", "160x120", "--frames", "3", "--mesh"]
    # item 7: a UTF-8 byte-order mark before the first vertex
    bom = write(tmp, "bom.obj", b"\xef\xbb\xbfv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 50\nf 1 2 3\n")
    case("obj with a UTF-8 BOM", mesh + [bom], "carry-on")
    # item 9: 2^20 copies of one triangle (minutes a frame under llvmpipe
    # before the draw budget): drawn once, picked exactly (face 0: the
    # lowest index of equal hits)
    ov = write(tmp, "overdraw.obj", "v -1 -1 0\nv 1 -1 0\nv 0 1 0\n" + "f 1 2 3\n" * (1 << 20))
    # one run for both checks: loading 2^20 triangles is most of its time
    line = carry_on_report("obj of 2^20 coincident triangles",
                           ["--lesson", "5", "--size", "160x120", "--frames", "2", "--click", "80,60@1",
                            "--report", "--mesh", ov], cpu_s=60)
    report('"hit":true' in line and '"face":0' in line, "coincident triangles picked exactly",
           "face 0 hit" if '"face":0' in line else line[:120])
    # item 9: one face of 2^20 corners round a circle (5.6 s a frame under
    # llvmpipe before the draw budget: 10 frames took a minute of CPU);
    # the click at the centre hits one of its fan's n - 2 triangles, the
    # pick searching all of them though few are drawn
    n = 1 << 20
    step = 2 * math.pi / n
    big = write(tmp, "bigface.obj", "".join("v %.7f %.7f 0\n" % (math.cos(i * step), math.sin(i * step))
                                            for i in range(n)) +
                "f " + " ".join(map(str, range(1, n + 1))) + "\n")
    line = carry_on_report("obj face of 2^20 corners",
                           ["--lesson", "5", "--size", "160x120", "--frames", "10", "--click", "80,60@1",
                            "--report", "--mesh", big], cpu_s=30)
    face = re.search(r'"face":(\d+)', line)
    report('"hit":true' in line and face is not None and int(face.group(1)) < n - 2,
           "2^20-corner face picked", "face %s of %d hit" % (face.group(1), n - 2) if face else line[:120])
    if not WRAPPER:     # no FIFOs on Windows
        fifo = os.path.join(tmp, "fifo.obj")
        os.mkfifo(fifo)
        case("mesh FIFO", mesh + [fifo], "refuse", [fifo, "not a regular file (a FIFO)"])
    if not HAVE_ASSIMP:
        return
    d = 60000
    deep = write(tmp, "deep.x", "xof 0302txt 0064\n" + "Frame f {\n" * d +
                 "Mesh m {\n3;\n0;0;0;,\n1;0;0;,\n0;1;0;;\n1;\n3;0,1,2;;\n}\n" + "}\n" * d)
    case("x nested 60,000 deep", mesh + [deep], "refuse", [deep, "nest more than 256 deep"], cpu_s=10)
    lie = write(tmp, "lie.x", "xof 0302txt 0064\nMesh m {\n3;\n0;0;0;,\n1;0;0;,\n0;1;0;;\n500000000;\n"
                "3;0,1,2;;\n}\n")
    case("x claiming 500M faces", mesh + [lie], "refuse", [lie, "500000000"], cpu_s=5, peak_mib=600)
    js = b'{"asset":{"version":"2.0"},"buffers":[{"byteLength":4294967295}]}'
    js += b" " * (-len(js) % 4)
    glb = write(tmp, "lie.glb", b"glTF" + struct.pack("<III", 2, 20 + len(js), len(js)) + b"JSON" + js)
    case("glb claiming 4 GiB", mesh + [glb], "refuse", [glb, "4294967295"], cpu_s=5, peak_mib=600)
    ply = write(tmp, "lie.ply", "ply\nformat ascii 1.0\nelement vertex 1000000000\nproperty float x\n"
                "property float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\n"
                "end_header\n0 0 0\n")
    case("ply claiming 1e9 vertices", mesh + [ply], "refuse", [ply, "1000000000"], cpu_s=5, peak_mib=600)
    case("unchecked format", mesh + [write(tmp, "m.dae", "<COLLADA/>")], "refuse", ["this format is not read"])


def outputs(tmp):
    short = ["--size", "160x120", "--frames", "3"]
    full = open("/dev/full", "wb")
    case("--screenshot /dev/full", short + ["--screenshot", "/dev/full"], "refuse",
         ["could not write screenshot /dev/full"])
    case("--report >/dev/full", short + ["--click", "80,60@1", "--report"], "refuse",
         ["cannot write to standard output"], stdout=full)
    case("--print-layout >/dev/full", ["--size", "160x120", "--print-layout"], "refuse",
         ["cannot write to standard output"], stdout=full)
    case("--bench-frames 3 >/dev/full", ["--size", "160x120", "--bench-frames", "3"], "refuse",
         ["cannot write to standard output"], stdout=full)
    full.close()
    # item 10: stdout closed; the X connection must not become fd 1
    def close_stdout():
        os.close(1)
    status, text, _, _ = run(short + ["--click", "80,60@1", "--report"], preexec=close_stdout)
    # Windows (Wine) gives the program a handle that fails at the first
    # write: the write error is what it can say there
    said = "standard output is closed" in text or (WRAPPER and "cannot write to standard output" in text)
    ok = os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1 and said
    report(ok, "--report with stdout closed", describe(status) + ": " + text.strip()[:90])
    status, text, _, _ = run(short, preexec=close_stdout)
    report(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, "stdout closed, no output asked",
           describe(status))


def child_cpu(pid):
    """CPU seconds of a running process, all its threads (/proc)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stop_while_loading(tmp, sig):
    """SIGINT/SIGTERM while a large map loads: the program ends without
    finishing the load. Measured in CPU: after the signal it may use a
    fraction of a second of CPU, where the rest of the load takes
    seconds."""
    big = os.path.join(tmp, "big.pgm")
    if not os.path.exists(big):
        w, h = 8192, 8192
        with open(big, "wb") as f:
            f.write(b"P5\n%d %d\n255\n" % (w, h))
            f.write(bytes(range(256)) * (w * h // 256))
    err = tempfile.TemporaryFile()
    # --frames far beyond the load: the program never ends by itself before
    # the signal, however the machine's load delays this script
    p = subprocess.Popen(WRAPPER + [EXE, "--lesson", "4", "--size", "160x120", "--frames", "1000000",
                                    "--heightmap", big], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=err,
                         preexec_fn=lambda: os.nice(19))
    # The loading step's line shows on stderr once the load has taken half
    # a second; a faster machine may load the map sooner and never print
    # it. So the signal comes at that line or after a second of the
    # program's own CPU, whichever is first. The program runs at the
    # lowest priority, so this script, polling, keeps up with it even when
    # every core is busy; a signal that finds the frames running instead
    # must end them as promptly (what is measured is the CPU after it).
    deadline = time.monotonic() + HANG_WALL_S
    while time.monotonic() < deadline and p.poll() is None:
        err.seek(0)
        if b"loading" in err.read() or child_cpu(p.pid) >= 1.0:
            break
        time.sleep(0.02)
    if p.poll() is not None:
        report(False, "signal %d while loading" % sig, "ended before the signal: " + describe(p.returncode))
        return
    cpu_at_signal = child_cpu(p.pid)
    p.send_signal(sig)
    pid, status, usage = os.wait4(p.pid, 0)
    after = usage.ru_utime + usage.ru_stime - cpu_at_signal
    err.seek(0)
    text = err.read().decode("utf-8", "replace")
    ended_by_it = (os.WIFSIGNALED(status) and os.WTERMSIG(status) == sig) or \
                  (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0)
    ok = ended_by_it and after < 1.0 and not any(s in text for s in SANITIZER)
    report(ok, "signal %d while loading" % sig, "%s, %.2f s CPU after the signal" % (describe(status), after))


def signals(tmp):
    if WRAPPER:
        return      # under Wine: no POSIX signals to send
    stop_while_loading(tmp, signal.SIGTERM)
    stop_while_loading(tmp, signal.SIGINT)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        images(tmp)
        models(tmp)
        outputs(tmp)
        signals(tmp)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
