# shellcheck shell=bash
# scripts/counts.sh: how a check script adds up and reports its result
# (sourced by scripts/test, valgrind, fuzz, windows, web, ...). The last line
# of every check is "N passed, M failed" for people; .ci/run reads the same
# two numbers from the file $RP_COUNTS names, never from the output.

passed=0
failed=0

# rp_add_meson_run LOG.json MESON_EXIT_STATUS: adds a meson test run, counted
# from meson's JSON log and exit status (scripts/testlog_counts.py), and
# names each test that did not pass.
rp_add_meson_run() {
    local counts p f
    counts=$(python3 "$(dirname "${BASH_SOURCE[0]}")/testlog_counts.py" "$1" "$2")
    echo "$counts" | sed '$d'
    read -r p f <<<"$(echo "$counts" | tail -1)"
    passed=$((passed + p))
    failed=$((failed + f))
}

# rp_run_check COMMAND...: runs another check script and adds its counts (a
# script that ends without them counts as one failure).
rp_run_check() {
    local file p=0 f=1 rc=0
    file=$(mktemp)
    RP_COUNTS=$file "$@" || rc=$?
    if [ -s "$file" ]; then read -r p f <"$file"; fi
    rm -f "$file"
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    passed=$((passed + p))
    failed=$((failed + f))
}

# rp_finish: prints "N passed, M failed" last, writes "N M" to $RP_COUNTS
# when it names a file, and returns non-zero when anything failed.
rp_finish() {
    echo
    echo "$passed passed, $failed failed"
    if [ -n "${RP_COUNTS:-}" ]; then echo "$passed $failed" >"$RP_COUNTS"; fi
    [ "$failed" -eq 0 ]
}
