"""Running the demo from a test without waiting on a hang (docs/reliability.md,
"Load and flakiness"). Two ways a run never ends, two measures, neither of
them the clock:

- it spins: the CPU limit (RLIMIT_CPU, set by the caller's preexec_fn) stops
  it; CPU time is what a loaded machine does not stretch;
- it blocks (a deadlock, a lost wake-up) and uses no CPU at all: stalled.
  A run is stalled when neither the program nor any process it started
  has used a clock tick of CPU for STALL_S seconds. A runnable process on a
  busy machine gets the CPU within milliseconds; two minutes without a
  single tick is a process that waits on something that never comes.

    import watched
    proc = watched.run(["build/src/app/raypick", "--frames", "3"])
    # like subprocess.run(..., stdout=PIPE, stderr=PIPE, text), but raises
    # watched.Stalled, naming the command, instead of waiting for ever

A stalled run is killed with every process of its session (Wine's too).
From a shell script, the same watch in front of a command (exit 124 when it
stalls, as timeout(1) does; otherwise the command's own status):

    python3 tests/watched.py build/src/app/raypick --frames 3
"""
import os
import signal
import subprocess
import sys
import time

STALL_S = 120
SAMPLE_S = 1.0      # how often the tree's CPU time is read


class Stalled(AssertionError):
    """The run used no CPU for stall_s seconds and was killed."""

    def __init__(self, cmd, stall_s):
        super().__init__("%s used no CPU for %d s (blocked: a deadlock or a lost wake-up); killed"
                         % (" ".join(str(c) for c in cmd), stall_s))
        self.cmd = cmd


def _stat_fields(pid):
    """(parent pid, CPU clock ticks) of pid, or None when it is gone. The
    ticks are its own (utime + stime, every thread) and those of children
    it has reaped (cutime + cstime): a program that waits on short helpers
    is not idle."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            text = f.read()
    except OSError:
        return None
    # the command name (field 2) may hold spaces and parentheses: split after its last ')'
    rest = text[text.rindex(")") + 2:].split()
    return int(rest[1]), sum(int(v) for v in rest[11:15])


def tree_cpu_ticks(root):
    """CPU clock ticks used so far by process root and its live descendants."""
    children, ticks = {}, {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = _stat_fields(int(name))
            if fields:
                children.setdefault(fields[0], []).append(int(name))
                ticks[int(name)] = fields[1]
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += ticks.get(pid, 0)
        todo.extend(children.get(pid, ()))
    return total


class StallClock:
    """Watches process pid and its descendants: stalled() is true once they
    have used no CPU tick for stall_s seconds. Call it as often as you
    like; it reads /proc at most every SAMPLE_S."""

    def __init__(self, pid, stall_s=STALL_S):
        self.pid, self.stall_s = pid, stall_s
        self.ticks, self.last_change = -1, time.monotonic()
        self.next_sample = self.last_change + SAMPLE_S

    def stalled(self):
        now = time.monotonic()
        if now < self.next_sample:
            return False
        self.next_sample = now + SAMPLE_S
        ticks = tree_cpu_ticks(self.pid)
        if ticks != self.ticks:
            self.ticks, self.last_change = ticks, now
        return now - self.last_change > self.stall_s


def wait(proc, cmd, stall_s=STALL_S):
    """Waits for Popen proc (started with start_new_session=True) like
    proc.wait(), but kills its session and raises Stalled when it stalls."""
    clock = StallClock(proc.pid, stall_s)
    while True:
        try:
            return proc.wait(timeout=SAMPLE_S)     # returns as soon as it ends
        except subprocess.TimeoutExpired:
            pass
        if clock.stalled():
            kill_session(proc)
            raise Stalled(cmd, stall_s)


def kill_session(proc):
    """SIGKILL to every process of proc's session (its group), then reap."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    proc.wait()


def run(cmd, env=None, preexec_fn=None, stdin=subprocess.DEVNULL, text=True, stall_s=STALL_S):
    """Runs cmd to its end; returns a subprocess.CompletedProcess with its
    stdout and stderr, as text (UTF-8, an invalid byte replaced) or, with
    text=False, as bytes. Raises Stalled (and kills the run) when it
    stalls. Output goes through files, not pipes: nothing to drain while
    waiting."""
    import tempfile     # here: the command-line form, started a hundred times a test, needs none
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdin=stdin, stdout=out, stderr=err, env=env,
                                preexec_fn=preexec_fn, start_new_session=True)
        try:
            wait(proc, cmd, stall_s)
        except BaseException:
            if proc.poll() is None:
                kill_session(proc)
            raise
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
        if text:
            stdout, stderr = stdout.decode("utf-8", "replace"), stderr.decode("utf-8", "replace")
        return subprocess.CompletedProcess(cmd, proc.returncode, stdout, stderr)


def main(argv):
    if not argv:
        print("usage: watched.py COMMAND [ARG...]", file=sys.stderr)
        return 2
    proc = subprocess.Popen(argv, start_new_session=True)

    def pass_on(signum, frame):     # the command is in a session of its own: end it too
        kill_session(proc)
        sys.exit(128 + signum)
    signal.signal(signal.SIGTERM, pass_on)
    signal.signal(signal.SIGINT, pass_on)
    try:
        status = wait(proc, argv)
    except Stalled as e:
        print("watched.py: %s" % e, file=sys.stderr)
        return 124
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
