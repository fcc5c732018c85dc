#!/usr/bin/env bash
# web.sh OUTDIR — tilescope in the browser: install what is missing, build the
# app with emscripten (web/CMakeLists.txt) and write a static site into OUTDIR:
# index.html, index.js, index.wasm, index.data (fonts and the GPU results the
# panels open) and traces/ (example traces the page opens with ?trace=...).
# Any static file server serves it:
#   ./scripts/web.sh site && python3 -m http.server -d site
# Environment: WEB_BUILD_DIR (default build-web), JOBS (default: the cores).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -ne 1 ]]; then
  echo "usage: scripts/web.sh OUTDIR" >&2
  exit 2
fi
out=$1
build=${WEB_BUILD_DIR:-build-web}
jobs=${JOBS:-$(nproc)}

# ---- what is missing: Debian 12's emscripten (with binaryen), the fonts, and
# a deb-src line for the sources of Dear ImGui, zstd and zlib ----
packages=(emscripten binaryen cmake make ccache fonts-dejavu-core libstb-dev nlohmann-json3-dev libcli11-dev dpkg-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
src_list=/etc/apt/sources.list.d/tilescope-web-src.sources
need_src=no
grep -rqs "^Types:.*deb-src\|^deb-src" /etc/apt/sources.list /etc/apt/sources.list.d/ || need_src=yes
if ((${#missing[@]})) || [[ $need_src == yes ]]; then
  if [[ $(id -u) -ne 0 ]]; then
    echo "web: run as root to install ${missing[*]:-} and a deb-src line" >&2
    exit 1
  fi
  if [[ $need_src == yes ]]; then
    echo "web: adding Debian's sources (deb-src) for apt-get source: $src_list"
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' > "$src_list"
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  if ((${#missing[@]})); then
    echo "web: installing ${missing[*]}"
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi

# Debian's emcc runs its JavaScript tools with the system's node; node-acorn
# lives in Debian's module directory, which a node from elsewhere does not search.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
# binaryen's tools (wasm-opt, for Asyncify) must be on PATH.
command -v wasm-opt >/dev/null || { echo "web: wasm-opt (binaryen) not on PATH" >&2; exit 1; }

mkdir -p "$build/deps"
deps=$(realpath "$build/deps")
for src in imgui libzstd zlib; do
  if ! compgen -G "$deps/$src-[0-9]*/" >/dev/null; then
    echo "web: apt-get source $src"
    (cd "$deps" && apt-get source -qq "$src" >/dev/null 2>&1) || { echo "web: apt-get source $src failed" >&2; exit 1; }
  fi
done

# -O2: the size and speed figures in assets/web-bench are of this build.
emcmake cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG" \
  -DTILESCOPE_WEB_DEPS="$deps" >/dev/null
cmake --build "$build" -j"$jobs" --target tilescope_web

mkdir -p "$out/traces"
cp "$build"/web/index.html "$build"/web/index.js "$build"/web/index.wasm "$build"/web/index.data "$out"/
# Example traces: those under assets/traces (recorded on GPUs), and the small
# emulator recordings the tests keep (file versions 1 and 2, each kernel).
for t in assets/traces/*.tstrace tests/core/data/*.tstrace tests/core/data/legacy/*.tstrace; do
  if [[ -e $t && $(stat -c %s "$t") -lt 4000000 ]]; then cp "$t" "$out/traces/"; fi
done
ls "$out/traces" > "$out/traces/index.txt"
echo "web: the site is in $out ($(du -sh "$out" | cut -f1)): python3 -m http.server -d $out"
