#!/usr/bin/env bash
# program_bad_input.sh RAYPICK: the demo given bad input from the command
# line: absurd window sizes, unknown options and keys, clicks far outside
# the window, missing, unreadable and malformed heightmap files.
#
# Every case must end in one of two ways: a message on stderr and a clean
# non-zero exit (refused), or a normal run that exits 0 (carried on). A
# signal, a sanitizer report (the render suite also runs under ASan+UBSan),
# a silent failure or a hang (60 s) fails the test. Registered in meson as
# 'program-bad-input' (suite 'render'); needs an X server like every
# render test.
set -u
exe=${1:?usage: program_bad_input.sh path/to/raypick}
here=$(cd "$(dirname "$0")" && pwd)
corpus=$here/fuzz/corpus/heightmap_load
# ends a run blocked without CPU: exit 124. The system's Python when there
# is one: a version manager's shim (pyenv) takes 150 ms a start, and this
# starts it a hundred times.
python=python3
[ -x /usr/bin/python3 ] && python=/usr/bin/python3
watch=("$python" "$here/watched.py")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

passed=0
failed=0
run() {   # run EXPECT NAME ARGS...: EXPECT is refuse, carry-on or either
    local expect=$1 name=$2 rc
    shift 2
    # A hang is 60 s of CPU time (ulimit -t: SIGXCPU), which the machine's
    # load does not change, or no CPU at all for two minutes: a program
    # blocked for good (tests/watched.py; it exits 124 then).
    # RAYPICK_EXE_WRAPPER: the launcher in a cross build (Wine), split in words
    # shellcheck disable=SC2086
    (ulimit -t 60; exec "${watch[@]}" ${RAYPICK_EXE_WRAPPER:-} "$exe" "$@") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    local why=""
    if [ "$rc" -eq 124 ]; then
        why="hung (blocked: no CPU for 120 s)"
    elif [ "$rc" -eq $((128 + 24)) ] || [ "$rc" -eq $((128 + 9)) ]; then
        why="hung (60 s of CPU time)"
    elif [ "$rc" -ge 128 ]; then
        why="killed by signal $((rc - 128))"
    elif grep -qE 'runtime error|AddressSanitizer|LeakSanitizer' "$tmp/err"; then
        why="sanitizer report"
    elif [ "$rc" -ne 0 ] && ! grep -q '[[:alnum:]]' "$tmp/err"; then
        why="exit $rc without a message"
    elif [ "$expect" = refuse ] && [ "$rc" -eq 0 ]; then
        why="accepted bad input (exit 0)"
    elif [ "$expect" = carry-on ] && [ "$rc" -ne 0 ]; then
        why="refused good input (exit $rc)"
    fi
    if [ -z "$why" ]; then
        passed=$((passed + 1))
        printf 'ok    %-28s exit %d  %s\n' "$name" "$rc" "$(head -1 "$tmp/err" | cut -c1-90)"
    else
        failed=$((failed + 1))
        printf 'FAIL  %-28s %s\n' "$name" "$why"
        sed 's/^/      /' "$tmp/err" | head -15
        wine_diagnosis "$rc" "$@"
    fi
}

# A silent non-zero exit under a launcher (Wine) may be the launcher's, not
# the program's: Wine without its preloader ended about one start in a few
# hundred with exit 1 and no word (F15 in docs/reliability.md; scripts/windows
# now requires the preloader). The failure stands; this only runs the same
# command once more with Wine's error channels on and prints what they say,
# so a next one is diagnosed rather than guessed at.
wine_diagnosis() {
    local rc=$1
    shift
    [ -n "${RAYPICK_EXE_WRAPPER:-}" ] && [ "$rc" -ne 0 ] && ! grep -q '[[:alnum:]]' "$tmp/err" || return 0
    # shellcheck disable=SC2086
    (ulimit -t 60; WINEDEBUG=err+all,warn+server,warn+process exec "${watch[@]}" ${RAYPICK_EXE_WRAPPER} "$exe" "$@") \
        >/dev/null 2>"$tmp/diag"
    printf '      (diagnosis: the same command again with WINEDEBUG=err+all ended with exit %d; its stderr:)\n' "$?"
    sed 's/^/      | /' "$tmp/diag" | head -30
}

short=(--frames 3)

# ---- the lessons, from the registry (--list-lessons prints one a line)
# shellcheck disable=SC2086
lessons=$( (ulimit -t 60; exec "${watch[@]}" ${RAYPICK_EXE_WRAPPER:-} "$exe" --list-lessons) |
          sed -n 's/^{"number":\([0-9][0-9]*\),.*/\1/p' | tr '\n' ' ')
count=$(echo "$lessons" | wc -w)
if [ "$count" -ge 1 ] && [ "$lessons" = "$(seq -s ' ' 1 "$count") " ]; then
    passed=$((passed + 1))
    printf 'ok    %-28s %s\n' "--list-lessons" "lessons $lessons"
else
    failed=$((failed + 1))
    printf 'FAIL  %-28s no lessons 1..N in its output: "%s"\n' "--list-lessons" "$lessons"
    count=1; lessons=1
fi

# ---- window sizes
for size in 0x0 100000x100000 -5x3 abc 64x x64 640 640x480x2 1e3x1e3 '' ' 640x480' 0x480 \
            2147483648x2; do
    run refuse "size '$size'" --size "$size" "${short[@]}"
done
run either "size 1x1" --size 1x1 "${short[@]}"
run carry-on "size 64x64" --size 64x64 "${short[@]}" --click 32,32@1

# ---- options and values
run refuse "unknown option" --frobnicate "${short[@]}"
run refuse "option without value" "${short[@]}" --lesson
# ---- the parser's messages (tests/test_options.c checks every case; these
# the program's own exit 2 and first line, as a user sees them)
usage() {    # usage NAME 'MESSAGE' ARGS...: exit 2, MESSAGE the first line of stderr
    local name=$1 want="raypick: $2" rc
    shift 2
    # shellcheck disable=SC2086
    (ulimit -t 60; exec "${watch[@]}" ${RAYPICK_EXE_WRAPPER:-} "$exe" "$@") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    tr -d '\r' <"$tmp/err" >"$tmp/err.lf" && mv "$tmp/err.lf" "$tmp/err"   # Windows' text mode: CRLF
    if [ "$rc" -eq 2 ] && [ "$(head -1 "$tmp/err")" = "$want" ] && grep -q '^usage:' "$tmp/err"; then
        passed=$((passed + 1))
        printf 'ok    %-28s exit 2  %s\n' "$name" "$want"
    else
        failed=$((failed + 1))
        printf 'FAIL  %-28s exit %d, want 2 and "%s", got "%s"\n' "$name" "$rc" "$want" "$(head -1 "$tmp/err")"
    fi
}
usage "unknown option last" "unknown option '--bogus'" "${short[@]}" --bogus
usage "unknown option alone" "unknown option '--bogus'" --bogus
usage "unknown option, value" "unknown option '--bogus'" --bogus=1 "${short[@]}"
usage "empty argument" "unknown option ''" "${short[@]}" ''
usage "a value with no name" "unknown option '--=5': no name before '='" "${short[@]}" --=5
usage "stray word" "unknown option 'extra'" "${short[@]}" extra
usage "value is an option" "--mesh needs a value" --mesh "${short[@]}"
usage "flag with a value" "--report takes no value (given '1')" --report=1 "${short[@]}"
usage "lesson twice" "--lesson is given twice: once is enough" --lesson 1 --lesson=2 "${short[@]}"
usage "frames and bench-frames" \
    "--frames and --bench-frames do not go together: --bench-frames N runs N frames itself" \
    --bench-frames 3 "${short[@]}"
usage "load-limit without a file" \
    "--load-limit needs --heightmap or --mesh (it limits loading them)" --load-limit 64 "${short[@]}"
run carry-on "--lesson=N" --lesson="$count" --size=160x120 --frames=2
run refuse "lesson 0" --lesson 0 "${short[@]}"
run refuse "lesson $((count + 1)), past the last" --lesson $((count + 1)) "${short[@]}"
run refuse "lesson abc" --lesson abc "${short[@]}"
run refuse "frames -1" --frames -1
run refuse "frames 1e99" --frames 99999999999999999999
run refuse "click no frame" "${short[@]}" --click 10,10
run refuse "click nan" "${short[@]}" --click nan,nan@1
run refuse "click no comma" "${short[@]}" --click 10@1
run refuse "key empty" "${short[@]}" --key @1
run refuse "key two chars" "${short[@]}" --key ab@1
run refuse "key frame -1" "${short[@]}" --key m@-1
for n in 0 1000001 abc; do
    run refuse "many-objects '$n'" "${short[@]}" --many-objects "$n"
done
run carry-on "many-objects 300, A" --size 160x120 --frames 3 --key a@0 --many-objects 300 --click 80,60@1
run refuse "heightmap spacing 0" "${short[@]}" --heightmap "$corpus/gray8_4x4.png" --heightmap-spacing 0
run refuse "heightmap spacing -1" "${short[@]}" --heightmap "$corpus/gray8_4x4.png" --heightmap-spacing -1
run refuse "heightmap spacing abc" "${short[@]}" --heightmap "$corpus/gray8_4x4.png" --heightmap-spacing abc
run refuse "heightmap spacing inf" "${short[@]}" --heightmap "$corpus/gray8_4x4.png" --heightmap-spacing inf
run refuse "heightmap scale nan" "${short[@]}" --heightmap "$corpus/gray8_4x4.png" --heightmap-scale nan
run refuse "heightmap scale 0" "${short[@]}" --heightmap "$corpus/gray8_4x4.png" --heightmap-scale 0
run refuse "heightmap scale 1e9" "${short[@]}" --heightmap "$corpus/gray8_4x4.png" --heightmap-scale 1e9
run refuse "spacing without map" "${short[@]}" --heightmap-spacing 1
run refuse "scale without map" "${short[@]}" --heightmap-scale 1

# ---- input the program must survive and carry on from
for lesson in $lessons; do
    run carry-on "lesson $lesson unknown keys" --lesson "$lesson" --size 160x120 --frames 6 \
        --key '#@1' --key 'z@1' --key '~@2' --key 'q@2' --key '0@3' --key '9@3' --key '5@4' \
        --click 80,60@5
    run carry-on "lesson $lesson clicks outside" --lesson "$lesson" --size 160x120 --frames 5 \
        --click 100000,100000@1 --click 0,0@2 --click 159.99,119.99@3 --click 160,120@4 \
        --click 99999,0@4
done
# a click scheduled after the last frame would never happen: a usage error
run refuse "click at frame past end" --size 160x120 --frames 2 --click 10,10@500

# ---- heightmap files
printf 'this is not an image\n' >"$tmp/text.png"
: >"$tmp/empty.png"
mkdir "$tmp/dir.png"
head -c 50 "$corpus/gray8_4x4.png" >"$tmp/cut.png"    # into the IDAT chunk
hm() { run "$1" "heightmap $2" --lesson 4 --size 160x120 --frames 3 --heightmap "$3"; }
hm refuse missing "$tmp/does-not-exist.png"
hm refuse empty "$tmp/empty.png"
hm refuse "a directory" "$tmp/dir.png"
hm refuse text "$tmp/text.png"
hm refuse "cut short" "$tmp/cut.png"
hm refuse /dev/null /dev/null
hm refuse /dev/zero /dev/zero
for f in bad_truncated.png bad_zlib.png bad_huge_dims.png bad_max_dims.png bad_zero_dims.png \
         bad_1x1.png bad_1x64.png bad_depth.png bad_palette_missing.png bad_short_idat.png \
         bad_filter.png bad_signature_only.png bad_header.pgm bad_huge.pgm bad_negative.pgm \
         bad_overflow.pgm bad_maxval0.pgm bad_short.pgm noise.bin text.txt empty.bin; do
    hm refuse "$f" "$corpus/$f"
done
# the loader checks every chunk's CRC before stb_image decodes (issue 34)
hm refuse bad_crc.png "$corpus/bad_crc.png"
# too large for the demo: refused from the header, before decoding, with a
# message naming the file and the limit (the header is all these files have)
png_header() {   # png_header FILE WIDTH_HEX4 HEIGHT_HEX4 BITS COLOUR_TYPE (hex bytes)
    printf '%b' "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x${2:0:2}\x${2:2:2}\x00\x00\x${3:0:2}\x${3:2:2}\x$4\x$5\x00\x00\x00\x00\x00\x00\x00" >"$1"
}
hm_limit() {     # hm_limit NAME FILE TEXT: refused, and the message names FILE and has TEXT
    hm refuse "$1" "$2"
    if grep -qF "$2" "$tmp/err" && grep -qF "$3" "$tmp/err"; then
        passed=$((passed + 1))
        printf 'ok    %-28s names the file and "%s"\n' "$1 message" "$3"
    else
        failed=$((failed + 1))
        printf 'FAIL  %-28s message lacks the file or "%s": %s\n' "$1 message" "$3" "$(head -1 "$tmp/err")"
    fi
}
png_header "$tmp/side.png" 4001 0002 10 00       # 16385 x 2, 16-bit gray
hm_limit "side above the library's" "$tmp/side.png" "at most 16384"
png_header "$tmp/rgba.png" 2000 2000 10 06       # 8192 x 8192, 16-bit RGBA: about 1.3 GiB
hm_limit "over the memory budget" "$tmp/rgba.png" "1024 MiB the demo allows"
printf 'P5\n16385 16385\n255\n' >"$tmp/side.pgm"
hm_limit "PGM above the limit" "$tmp/side.pgm" "at most 16384"
hm carry-on "valid 8-bit PNG" "$corpus/gray8_4x4.png"
run carry-on "heightmap spacing and scale" --lesson 4 --size 160x120 --frames 3 \
    --heightmap "$corpus/gray8_4x4.png" --heightmap-spacing 2.5 --heightmap-scale 0.5 --click 80,60@1
hm carry-on "valid 16-bit PNG" "$corpus/gray16_5x3.png"
hm carry-on "valid PGM" "$corpus/gray8_4x3.pgm"

# ---- no display (X11/Wayland builds; a cross build's program runs under
# Wine, which has no such case): an interactive run is refused with exit 1
# and says what to run instead, never a silent endless loop; a script run
# goes offscreen and prints no XDG_RUNTIME_DIR noise (libwayland's probe).
if [ -z "${RAYPICK_EXE_WRAPPER:-}" ]; then
    nodisplay=(env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER -u XDG_RUNTIME_DIR)
    (ulimit -t 60; exec "${watch[@]}" "${nodisplay[@]}" "$exe") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 1 ] && grep -q 'no display' "$tmp/err" && grep -q 'xvfb-run' "$tmp/err" &&
       grep -q -- '--screenshot' "$tmp/err" && ! grep -q XDG_RUNTIME_DIR "$tmp/err"; then
        passed=$((passed + 1))
        printf 'ok    %-28s exit %d  %s\n' "no display, interactive" "$rc" "$(head -1 "$tmp/err" | cut -c1-90)"
    else
        failed=$((failed + 1))
        printf 'FAIL  %-28s exit %d (want 1 and how to run)\n' "no display, interactive" "$rc"
        sed 's/^/      /' "$tmp/err" | head -15
    fi
    # a heightmap its header refuses, before any window: the file's
    # message, not the display's (lesson.check_files)
    (ulimit -t 60; exec "${watch[@]}" "${nodisplay[@]}" "$exe" --lesson 4 --heightmap "$tmp/side.png") \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 1 ] && grep -qF "$tmp/side.png" "$tmp/err" && ! grep -q 'no display' "$tmp/err"; then
        passed=$((passed + 1))
        printf 'ok    %-28s exit %d  %s\n' "bad heightmap before window" "$rc" "$(head -1 "$tmp/err" | cut -c1-90)"
    else
        failed=$((failed + 1))
        printf 'FAIL  %-28s exit %d (want 1 and the file named, before the display)\n' \
            "bad heightmap before window" "$rc"
        sed 's/^/      /' "$tmp/err" | head -15
    fi
    (ulimit -t 120; exec "${watch[@]}" "${nodisplay[@]}" "$exe" --size 160x120 --frames 2 \
        --screenshot "$tmp/offscreen.png") >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 0 ] && [ -s "$tmp/offscreen.png" ] && ! grep -q XDG_RUNTIME_DIR "$tmp/err"; then
        passed=$((passed + 1))
        printf 'ok    %-28s exit %d\n' "no display, script mode" "$rc"
    else
        failed=$((failed + 1))
        printf 'FAIL  %-28s exit %d, or no PNG, or XDG noise\n' "no display, script mode" "$rc"
        sed 's/^/      /' "$tmp/err" | head -15
    fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
