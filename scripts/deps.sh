# scripts/deps.sh: the packages raypick needs, and how to get them.
# Sourced by scripts/test and scripts/run; .ci/run installs the same list.

RP_DEBIAN_PACKAGES="meson ninja-build pkg-config gcc libcglm-dev libcmocka-dev \
libsdl2-dev libgl-dev libstb-dev xvfb xauth libgl1-mesa-dri python3 python3-pil python3-numpy \
libassimp-dev cmake make g++ fonts-dejavu-core fonts-noto-cjk yamllint"

rp_ensure_packages() {
    if ! command -v dpkg >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
        if ! command -v meson >/dev/null 2>&1; then
            cat >&2 <<'MSG'
raypick needs: meson, ninja, pkg-config, a C11 compiler, cglm, cmocka, SDL2,
OpenGL headers and stb (stb_image, stb_image_write, stb_easy_font,
stb_truetype); for German and Chinese on the HUD a font with their
characters (DejaVu Sans and Noto Sans CJK, or set RAYPICK_FONT).
  macOS (Homebrew):  brew install meson ninja pkg-config cglm cmocka sdl2 stb
  MSYS2 (UCRT64):    pacman -S mingw-w64-ucrt-x86_64-{meson,gcc,pkgconf,cglm,cmocka,SDL2}
  elsewhere:         install meson; the .wrap files in subprojects/ fetch the rest
MSG
            exit 1
        fi
        return 0
    fi
    local missing=()
    local p
    for p in $RP_DEBIAN_PACKAGES; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    echo "raypick: installing missing packages: ${missing[*]}"
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo=(sudo)
        else
            echo "raypick: not root and no sudo; please install: ${missing[*]}" >&2
            exit 1
        fi
    fi
    "${sudo[@]}" apt-get update
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y "${missing[@]}"
}

# A private XDG_RUNTIME_DIR when the session has none (SSH, CI, su): SDL's
# Wayland probe (libwayland-client) prints "error: XDG_RUNTIME_DIR is invalid
# or not set in the environment." without one; with an empty directory of our
# own it finds no socket and says nothing. Owned by us, mode 0700, reused.
rp_private_runtime_dir() {
    [ -n "${XDG_RUNTIME_DIR:-}" ] && [ -d "$XDG_RUNTIME_DIR" ] && return 0
    local dir="${TMPDIR:-/tmp}/raypick-runtime-$(id -u)"
    mkdir -p -m 700 "$dir" 2>/dev/null || true
    if [ ! -O "$dir" ] || [ "$(stat -c %a "$dir" 2>/dev/null)" != 700 ]; then
        dir=$(mktemp -d)     # someone else's, or loose: a fresh one
    fi
    export XDG_RUNTIME_DIR="$dir"
}
