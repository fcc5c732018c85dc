#!/usr/bin/env bash
# package.sh — build tilescope's Debian package: ./scripts/package.sh [BUILD_DIR]
# A Release build of the app (GUI on; CUDA off, so that the package needs only
# Debian's own libraries: TILESCOPE_CUDA=ON in the environment builds the
# recorder and benchmark too, and the package then needs the CUDA libraries
# it was linked against), then CPack. Prints the package's path; install it
# with `apt install ./tilescope_*.deb`.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-package}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DTILESCOPE_TESTS=OFF \
  -DTILESCOPE_GUI="${TILESCOPE_GUI:-ON}" -DTILESCOPE_CUDA="${TILESCOPE_CUDA:-OFF}"
cmake --build "$build" -j"$(nproc)" --target tilescope
(cd "$build" && cpack -G DEB)
ls "$build"/tilescope_*.deb
