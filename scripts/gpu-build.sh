#!/usr/bin/env bash
# gpu-build.sh — build everything for a Hopper GPU server (CUDA on, sm_90 only,
# GUI off, static Boost) on a Debian 12 build machine, and gather the
# executables the GPU checks use into .gpu-bin/ to copy to the server. There, from a checkout of
# the same commit: scripts/gpu-checks.sh OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DTILESCOPE_GUI=OFF -DTILESCOPE_CUDA=ON -DBoost_USE_STATIC_LIBS=ON
cmake --build build-gpu -j"$(nproc)"
rm -rf .gpu-bin
mkdir -p .gpu-bin
# Only the executables the GPU checks run ($BIN/<name> in scripts/gpu-checks.d/,
# and the tests they run by name, such as 05-gpu-tests.sh's list).
for name in $( (grep -oh '\$BIN/[A-Za-z0-9_-]*' scripts/gpu-checks.d/*.sh | sed 's|\$BIN/||'
  grep -ohw '[A-Za-z0-9_]*_test' scripts/gpu-checks.d/*.sh) | sort -u); do
  exe=$(find build-gpu -type f -executable -name "$name" -not -path '*/CMakeFiles/*' | head -n 1)
  [[ -n $exe ]] && cp "$exe" .gpu-bin/
done
git rev-parse HEAD > .gpu-bin/COMMIT
du -sh .gpu-bin
