"""tests/watched.py, the tests' stall detector: a run that uses no CPU is
stopped and named, one that works (itself or through its children) is
not, and the command-line form gives the exit statuses its callers read
(tests/program_bad_input.sh). A short stall_s keeps it quick; what counts
is CPU ticks, which load does not take away from a process that waits."""
import os
import shlex
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import watched  # noqa: E402

BUSY = "import time\nt = time.process_time()\nwhile time.process_time() - t < %g: pass\n"


class WatchedTest(unittest.TestCase):
    def test_a_blocked_run_is_stopped_and_named(self):
        t0 = time.monotonic()
        with self.assertRaises(watched.Stalled) as caught:
            watched.run(["sleep", "600"], stall_s=1)
        self.assertLess(time.monotonic() - t0, 60)
        self.assertIn("sleep 600", str(caught.exception))
        self.assertIn("no CPU for 1 s", str(caught.exception))

    def test_a_working_run_ends_normally(self):
        # 2.5 s of CPU in one process, longer than stall_s and two samples
        proc = watched.run([sys.executable, "-c", BUSY % 2.5 + "print('done')"], stall_s=1)
        self.assertEqual(proc.returncode, 0)
        self.assertEqual(proc.stdout.strip(), "done")

    def test_work_in_child_processes_counts(self):
        # the parent only waits; its children work, one after another
        child = " ".join(shlex.quote(a) for a in [sys.executable, "-c", BUSY % 0.4])
        script = "for i in 1 2 3 4 5 6 7; do %s; done; echo done" % child
        proc = watched.run(["sh", "-c", script], stall_s=1)
        self.assertEqual((proc.returncode, proc.stdout.strip()), (0, "done"))

    def test_output_and_status_come_back(self):
        proc = watched.run(["sh", "-c", "echo out; echo err >&2; exit 3"])
        self.assertEqual((proc.returncode, proc.stdout, proc.stderr), (3, "out\n", "err\n"))
        raw = watched.run(["printf", "\\344\\270\\255"], text=False)
        self.assertEqual(raw.stdout.decode("utf-8"), "\u4e2d")

    def test_command_line_statuses(self):
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "watched.py")
        status = lambda *cmd: subprocess.run([sys.executable, here] + list(cmd)).returncode  # noqa: E731
        self.assertEqual(status("sh", "-c", "exit 3"), 3)
        self.assertEqual(status("sh", "-c", "kill -9 $$"), 128 + 9)
        self.assertEqual(status(), 2)   # no command: usage


if __name__ == "__main__":
    unittest.main()
