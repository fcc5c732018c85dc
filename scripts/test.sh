#!/usr/bin/env bash
# test.sh — install what is missing, build, and run every test:
#   1. the full build (CUDA and GUI when available; CUDA for this machine's
#      GPU, or sm_90 alone without one): CPU tests, window tests under Xvfb,
#      and the GPU tests (label gpu) when an NVIDIA GPU is present;
#   2. the Debian package (scripts/package.sh: CUDA off, GUI on), installed
#      with apt and its app run under Xvfb from an empty directory: the
#      occupancy strip must show figures from the shipped compiler data;
#   3. a CUDA-off, GUI-off build of the core under AddressSanitizer and
#      UndefinedBehaviorSanitizer (clang): the CPU tests again, the fuzzing
#      corpus, and a 60-second fuzzing run of the trace loader;
#   4. a small ThreadSanitizer build (clang, CUDA off, GUI off) of the threaded
#      tests only (CTest label tsan: the emulator's worker threads, the app's
#      background loader), run under it;
#   5. the browser build (scripts/web.sh: emscripten, -O2, sharing the compiler
#      cache) and its page test in headless chromium (tests/web/run.sh), with
#      the page's picture of a scripted scene against the desktop app's.
# Each stage says when it starts (seconds since this script started).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)

start=$SECONDS
stage() { echo "== $1 (at $((SECONDS - start)) s) =="; }

# The CUDA architectures: the GPU's own where there is one; else one (sm_90),
# which compiles every CUDA source as the tests need (nothing runs it). The
# occupancy presets' compiler numbers are taken for every preset's
# architecture whatever this list says (cmake/KernelResources.cmake).
# TILESCOPE_CUDA_ARCHITECTURES overrides.
exclude=()
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  gpu=yes
  arches=${TILESCOPE_CUDA_ARCHITECTURES:-native}
else
  gpu=no
  arches=${TILESCOPE_CUDA_ARCHITECTURES:-90}
  exclude=(-LE gpu)
fi

stage "build: release (CUDA architectures: $arches)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$arches"
cmake --build build -j"$jobs"

if [[ $gpu == yes ]]; then
  echo "== GPU found: $(nvidia-smi -L | head -1): running the GPU tests too =="
else
  echo "== no NVIDIA GPU here: SKIPPING the GPU tests (CTest label 'gpu') =="
fi
stage "tests: release"
xvfb-run -a -s "-screen 0 1920x1080x24" ctest --test-dir build --output-on-failure -j"$jobs" "${exclude[@]}"

stage "package: the .deb as scripts/package.sh builds it (CUDA off), installed, its occupancy strip"
scripts/package.sh build-package
debs=(build-package/tilescope_*.deb)
tests/packaging/installed_package_test.sh "${debs[0]}" build-package/installed-test

stage "build: sanitizers (clang, ASan + UBSan, CUDA off, GUI off)"
CC=clang CXX=clang++ cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTILESCOPE_CUDA=OFF -DTILESCOPE_GUI=OFF -DTILESCOPE_SANITIZE=ON -DTILESCOPE_FUZZ=ON
cmake --build build-sanitize -j"$jobs"
stage "tests: sanitizers"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-sanitize --output-on-failure -j"$jobs"

stage "build: ThreadSanitizer (clang, CUDA off, GUI off, the threaded tests only)"
tsan_start=$(date +%s)
CC=clang CXX=clang++ cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTILESCOPE_CUDA=OFF -DTILESCOPE_GUI=OFF -DTILESCOPE_TSAN=ON
cmake --build build-tsan -j"$jobs" --target emulator_correctness_test trace_loader_test
stage "tests: ThreadSanitizer"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  ctest --test-dir build-tsan --output-on-failure -j"$jobs" -L tsan
echo "== ThreadSanitizer stage: $(( $(date +%s) - tsan_start )) s =="
stage "web: the browser build (scripts/web.sh) and its page test (headless chromium, tests/web)"
web_start=$(date +%s)
WEB_BUILD_DIR=build-web JOBS="$jobs" scripts/web.sh build-web/site
tests/web/run.sh build-web/site build/app/cli/tilescope
echo "== web stage: $(( $(date +%s) - web_start )) s =="
stage "all stages passed"
