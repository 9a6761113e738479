#!/usr/bin/env python3
"""testlog_counts.py BUILD_DIR: print "passed failed" from Meson's
meson-logs/testlog.json (one JSON object per test run): OK and EXPECTEDFAIL
pass, SKIP counts as neither, everything else (FAIL, TIMEOUT, ERROR,
UNEXPECTEDPASS) fails. A build dir with no test result counts one failure."""
import json
import os
import sys

passed = failed = 0
try:
    with open(os.path.join(sys.argv[1], "meson-logs", "testlog.json")) as f:
        for line in f:
            if line.strip():
                result = json.loads(line)["result"]
                if result in ("OK", "EXPECTEDFAIL"):
                    passed += 1
                elif result != "SKIP":
                    failed += 1
except OSError:
    pass
if passed + failed == 0:
    failed = 1
print(passed, failed)
