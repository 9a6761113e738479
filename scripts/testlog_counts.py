#!/usr/bin/env python3
"""Counts a meson test run from its JSON log (meson-logs/<logbase>.json:
one JSON object per test, its "result" field OK, FAIL, SKIP, TIMEOUT, ...).

    testlog_counts.py LOG.json MESON_EXIT_STATUS

Prints "PASSED FAILED" on the last line; before it, one line per test that
did not pass. A test passes on OK (or EXPECTEDFAIL); anything else counts
as failed, SKIP included (a skipped check checks nothing). A run that
failed without a failed test (a build error, a broken setup), or in which
no test ran, counts one failure more, so it cannot pass silently.
"""
import json
import sys

PASS = {"OK", "EXPECTEDFAIL"}


def main():
    path, status = sys.argv[1], int(sys.argv[2])
    passed = failed = 0
    try:
        with open(path) as f:
            for line in f:
                if not line.strip():
                    continue
                t = json.loads(line)
                if t.get("result") in PASS:
                    passed += 1
                else:
                    failed += 1
                    print("not passed: %s (%s)" % (t.get("name"), t.get("result")))
    except FileNotFoundError:
        print("no test log %s" % path)
    if passed + failed == 0:
        print("no test ran")
        failed += 1
    elif status != 0 and failed == 0:
        print("meson test exited with %d although every test passed" % status)
        failed += 1
    print(passed, failed)


if __name__ == "__main__":
    main()
