#!/usr/bin/env python3
"""Soak run of the raypick demo: many frames in script mode, a left click
about every frame in every lesson, resident memory sampled from outside.

The program's script events (--key/--click) are capped, so the clicks come
from outside: real X input events through the XTEST extension (libXtst,
loaded with ctypes), aimed at the program's window. Pacing is closed-loop:
the program prints (and flushes) one --report line per pick with its frame
number; the driver sends the next click as soon as the frame counter moves
past the last one it clicked in, so every frame gets about one click.

Lessons are switched with --key at fixed frames: all four lessons and all
their toggles are visited in the first 1,000 frames, so everything a lesson
allocates on first use is in the baseline; afterwards the lessons keep
cycling every 1,000 frames.

VmRSS (/proc/PID/status) is sampled every 50 ms with the frame number seen
last. RSS swings by a megabyte or two both ways as the allocator and the GL
driver take and return memory, so a level is the median of a window: the
baseline is the median of the samples in frames 1,000-1,999, the end the
median of those in the last 1,000 frames (stopping 20 frames before the
shutdown). The run fails when the end exceeds the baseline by more than the
allowance (1 MiB), when the program exits non-zero or by a signal, or when
fewer than 90% of the frames got a click. The least-squares trend over the
run is reported too.

    soak_driver.py EXE FRAMES OUTDIR     (needs $DISPLAY)
"""
import ctypes
import ctypes.util
import json
import os
import re
import subprocess
import sys
import time

ALLOWANCE_KIB = 1024
BASELINE_FRAME = 1000
WINDOW = 1000            # frames whose samples make a level
SIZE = (320, 240)


def x11():
    """XOpenDisplay + XTEST fake input, or exit with a clear message."""
    libx11 = ctypes.util.find_library("X11")
    libxtst = ctypes.util.find_library("Xtst")
    if not libx11 or not libxtst:
        sys.exit("soak: needs libX11 and libXtst (Debian: xdotool pulls in libxtst6)")
    X = ctypes.CDLL(libx11)
    T = ctypes.CDLL(libxtst)
    X.XOpenDisplay.restype = ctypes.c_void_p
    X.XOpenDisplay.argtypes = [ctypes.c_char_p]
    X.XFlush.argtypes = [ctypes.c_void_p]
    X.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    T.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                       ctypes.c_int, ctypes.c_ulong]
    T.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int,
                                       ctypes.c_ulong]
    dpy = X.XOpenDisplay(None)
    if not dpy:
        sys.exit("soak: cannot open display %r" % os.environ.get("DISPLAY"))
    return X, T, dpy


def window_origin(pid, deadline):
    """Top-left corner of the program's window on the screen (xdotool)."""
    while time.time() < deadline:
        r = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(pid)],
                           capture_output=True, text=True)
        ids = r.stdout.split()
        if ids:
            g = subprocess.run(["xdotool", "getwindowgeometry", ids[-1]],
                               capture_output=True, text=True).stdout
            m = re.search(r"Position: (-?\d+),(-?\d+)", g)
            if m:
                return int(m.group(1)), int(m.group(2))
        time.sleep(0.1)
    return None


def median(values):
    if len(values) < 3:
        return None
    v = sorted(values)
    return v[len(v) // 2]


def rss_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def script_keys(frames):
    """--key events: every lesson and toggle before the baseline, then the
    lessons in turn every 1,000 frames."""
    keys = [("2", 150), ("m", 200), ("m", 210), ("3", 300), ("m", 350), ("m", 360),
            ("m", 370), ("s", 380), ("s", 390), ("b", 400), ("b", 410),
            ("4", 450), ("m", 500), ("m", 510), ("t", 520), ("t", 530),
            ("1", 600), ("m", 650), ("n", 660), ("b", 670), ("m", 700), ("n", 710),
            ("b", 720), ("h", 750), ("h", 760)]
    lesson = 1
    for f in range(BASELINE_FRAME, frames, 1000):
        lesson = lesson % 4 + 1
        keys.append((str(lesson), f))
    args = []
    for k, f in keys[:64]:
        args += ["--key", "%s@%d" % (k, f)]
    return args


def main():
    exe, frames, outdir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.makedirs(outdir, exist_ok=True)
    X, T, dpy = x11()
    report_path = os.path.join(outdir, "soak-report.jsonl")
    err_path = os.path.join(outdir, "soak-stderr.txt")
    args = [exe, "--size", "%dx%d" % SIZE, "--frames", str(frames), "--report",
            "--seed", "7"] + script_keys(frames)
    report = open(report_path, "w")
    err = open(err_path, "w")
    start = time.time()
    proc = subprocess.Popen(args, stdout=report, stderr=err)
    origin = window_origin(proc.pid, time.time() + 60)
    if origin is None:
        proc.kill()
        proc.wait()
        sys.exit("soak: the program's window did not appear (stderr: %s)" % err_path)

    # Click positions: a grid over the window, so hits and misses alternate.
    w, h = SIZE
    grid = [(int(w * (i + 0.5) / 7), int(h * (j + 0.5) / 5)) for j in range(5) for i in range(7)]

    reader = open(report_path)
    last_frame = -1          # highest frame the program reported a pick in
    clicked_at = -2          # last_frame when the last click was sent
    click_time = 0.0
    clicks = 0
    picked_frames = set()
    samples = []             # (seconds, frame, rss KiB)
    next_sample = 0.0
    pending = ""
    while proc.poll() is None:
        now = time.time()
        chunk = reader.read()
        if chunk:
            pending += chunk
            *lines, pending = pending.split("\n")
            for line in lines:
                m = re.match(r'\{"lesson":\d+,"frame":(\d+)', line)
                if m:
                    f = int(m.group(1))
                    picked_frames.add(f)
                    last_frame = max(last_frame, f)
        # Next click once the last one was picked, or after 50 ms without
        # news (a click that landed while the window was busy elsewhere).
        if last_frame > clicked_at or now - click_time > 0.05:
            x, y = grid[clicks % len(grid)]
            T.XTestFakeMotionEvent(dpy, -1, origin[0] + x, origin[1] + y, 0)
            T.XTestFakeButtonEvent(dpy, 1, 1, 0)
            T.XTestFakeButtonEvent(dpy, 1, 0, 0)
            X.XFlush(dpy)
            clicks += 1
            clicked_at = last_frame
            click_time = now
        if now >= next_sample:
            r = rss_kib(proc.pid)
            if r is not None:
                samples.append((now - start, last_frame, r))
            next_sample = now + 0.05
        time.sleep(0.0002)
    rc = proc.returncode
    elapsed = time.time() - start
    report.close()
    chunk = reader.read()
    for line in (pending + chunk).split("\n"):
        m = re.match(r'\{"lesson":\d+,"frame":(\d+)', line)
        if m:
            picked_frames.add(int(m.group(1)))

    problems = []
    if rc != 0:
        problems.append("the program exited with %d (stderr: %s)" % (rc, err_path))
    # A level is the median of a window of samples: RSS moves by a megabyte
    # or two either way as the allocator and the GL driver take and give back
    # memory, and one sample at a high or a low point says nothing about a
    # leak. A leak moves the whole window, so its median moves with it.
    first = [s[2] for s in samples if BASELINE_FRAME <= s[1] < BASELINE_FRAME + WINDOW]
    last = [s[2] for s in samples if frames - WINDOW <= s[1] <= frames - 20]
    peak = max((s[2] for s in samples), default=0)
    coverage = len(picked_frames) / frames
    base = median(first)
    end = median(last)
    if base is None or end is None:
        problems.append("too few RSS samples in frames %d..%d or in the last %d frames"
                        % (BASELINE_FRAME, BASELINE_FRAME + WINDOW, WINDOW))
        growth = None
    else:
        growth = end - base
        if growth > ALLOWANCE_KIB:
            problems.append("resident memory grew by %d KiB (allowed %d)" % (growth, ALLOWANCE_KIB))
    # For the record: the least-squares trend over the whole run after the
    # baseline, in KiB per 1,000 frames.
    run = [(s[1], s[2]) for s in samples if s[1] >= BASELINE_FRAME]
    slope = None
    if len(run) > 2:
        mf = sum(f for f, _ in run) / len(run)
        mr = sum(r for _, r in run) / len(run)
        den = sum((f - mf) ** 2 for f, _ in run)
        if den > 0:
            slope = 1000.0 * sum((f - mf) * (r - mr) for f, r in run) / den
    if coverage < 0.9:
        problems.append("only %.1f%% of the frames got a click" % (100 * coverage))

    result = {
        "frames": frames, "seconds": round(elapsed, 1), "exit": rc,
        "clicks_sent": clicks, "picks_reported": sum(1 for _ in open(report_path)),
        "frames_with_a_pick": len(picked_frames), "coverage": round(coverage, 4),
        "rss_baseline_kib": base, "rss_baseline_samples": len(first),
        "rss_end_kib": end, "rss_end_samples": len(last),
        "rss_growth_kib": growth, "rss_peak_kib": peak, "allowance_kib": ALLOWANCE_KIB,
        "rss_trend_kib_per_1000_frames": round(slope, 2) if slope is not None else None,
        "rss_min_after_baseline_kib": min((r for _, r in run), default=None),
        "rss_max_after_baseline_kib": max((r for _, r in run), default=None),
        "samples": len(samples),
    }
    with open(os.path.join(outdir, "soak-rss.tsv"), "w") as f:
        f.write("seconds\tframe\trss_kib\n")
        for s in samples:
            f.write("%.3f\t%d\t%d\n" % s)
    with open(os.path.join(outdir, "soak-result.json"), "w") as f:
        json.dump(result, f, indent=1)
    print("soak: %d frames in %.1f s, %d clicks sent, a pick in %d frames (%.1f%%)"
          % (frames, elapsed, clicks, len(picked_frames), 100 * coverage))
    if growth is not None:
        print("soak: VmRSS median %d KiB in frames %d-%d, %d KiB in frames %d-%d: growth "
              "%+d KiB (allowed %d); range after the baseline %d-%d KiB, peak %d KiB, "
              "trend %+.1f KiB per 1,000 frames"
              % (base, BASELINE_FRAME, BASELINE_FRAME + WINDOW - 1, end, frames - WINDOW,
                 frames - 20, growth, ALLOWANCE_KIB, result["rss_min_after_baseline_kib"],
                 result["rss_max_after_baseline_kib"], peak, slope or 0.0))
    for p in problems:
        print("soak: FAIL: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
