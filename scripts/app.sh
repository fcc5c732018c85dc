#!/usr/bin/env bash
# app.sh — install what is missing, build, and open tilescope on its default
# scene (tiled kernel, TILE 16, N = 64; on the GPU if there is one, else the
# CPU emulator). Extra arguments go to the app, e.g. --kernel naive-row.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)" --target tilescope
exec build/app/cli/tilescope "$@"
