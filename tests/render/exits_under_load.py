#!/usr/bin/env python3
"""The demo's threaded runs end cleanly, again and again (scripts/ci-under-load).

    exits_under_load.py RAYPICK     (unittest: ExitsTest.test_threaded_runs_exit_cleanly)

RAYPICK_EXIT_RUNS in the environment sets RUNS (default 3: the sanitizer
suite runs a few, scripts/ci-under-load many).

Runs RAYPICK (a sanitizer build) RUNS times, cycling through the runs that
start the most threads: lesson 1's many-objects mode with GPU picking and
clicks (the scene's build and refit workers, llvmpipe's rasteriser threads,
the asynchronous pick reads), lesson 4 loading a 1025x1025 map the test
writes (the loading thread, the library's parallel build), and lesson 5
with a model from a file. Each run must exit 0 with nothing from a sanitizer
on stderr: every thread joined, the GL context and window gone, and
LeakSanitizer's check at exit finished. Meant to run while stress-ng keeps
every core busy, where thread start-ups and exits interleave most: a fixed
number of runs, no retries. Each run is a subtest: a failed one is
reported with its exit status and what the sanitizer said, and the runs
after it still run.
"""
import os
import sys

from PIL import Image

from rp_render import WRAPPER, RenderCase, ctx, main, run_program
import watched  # noqa: E402  (tests/watched.py, on the path rp_render sets)

# A run that hangs is a failure too: a deadlock at exit, a run that spins
# (rp_render's two hang detectors: CPU time, and no CPU at all for two
# minutes).
SANITIZER_WORDS = ("Sanitizer", "runtime error:", "Tracer caught signal")
DEFAULT_RUNS = 3


def write_map(path):
    side = 1025
    img = Image.new("L", (side, side))
    img.putdata([(x * 7 + y * 3) % 256 for y in range(side) for x in range(side)])
    img.save(path)


def write_model(path):
    # two triangles of a quad and a third standing on it
    with open(path, "w") as f:
        f.write("v -1 0 -1\nv 1 0 -1\nv 1 0 1\nv -1 0 1\nv 0 1.5 0\n"
                "f 1 2 3\nf 1 3 4\nf 1 3 5\n")


def configurations(tmp):
    heightmap = os.path.join(tmp, "map.png")
    model = os.path.join(tmp, "model.obj")
    write_map(heightmap)
    write_model(model)
    size = ["--size", "640x360", "--report"]
    return [
        ("lesson 1, 100,000 objects, GPU picking",
         ["--lesson", "1", "--key", "a@0", "--key", "g@0", "--click", "320,200@2",
          "--click", "500,180@3", "--frames", "5"] + size),
        ("lesson 4, a 1025x1025 map loaded on the loading thread",
         ["--lesson", "4", "--heightmap", heightmap, "--click", "320,200@1", "--frames", "3"] + size),
        ("lesson 5, a model from a file, GPU picking",
         ["--lesson", "5", "--mesh", model, "--key", "g@0", "--click", "320,180@1", "--frames", "3"] + size),
    ]


class ExitsTest(RenderCase):
    def test_threaded_runs_exit_cleanly(self):
        runs = int(os.environ.get("RAYPICK_EXIT_RUNS", DEFAULT_RUNS))
        self.assertGreater(runs, 0)
        configs = configurations(ctx.tmp)
        for i in range(runs):
            name, args = configs[i % len(configs)]
            with self.subTest(run=i + 1, what=name):
                try:
                    proc = run_program(WRAPPER + [ctx.raypick] + args)
                    words = [w for w in SANITIZER_WORDS if w in proc.stderr]
                    ok = proc.returncode == 0 and not words and '"hit"' in proc.stdout
                    why = "" if ok else "exit %d%s: %s" % (proc.returncode, ", " + ", ".join(words) if words else "",
                                                           proc.stderr.strip()[-800:])
                except watched.Stalled as e:
                    ok, why = False, str(e)
                print("%s run %d of %d: %s%s" % ("ok  " if ok else "FAIL", i + 1, runs, name,
                                                 "" if ok else ": " + why), flush=True)
                self.assertTrue(ok, why)


if __name__ == "__main__":
    sys.exit(main())
