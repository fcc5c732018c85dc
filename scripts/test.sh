#!/usr/bin/env bash
# test.sh — install what is missing, build, and run every test:
#   1. the full build (CUDA and GUI when available): CPU tests, window tests
#      under Xvfb, and the GPU tests (label gpu) when an NVIDIA GPU is present;
#   2. a CUDA-off, GUI-off build of the core under AddressSanitizer and
#      UndefinedBehaviorSanitizer (clang): the CPU tests again, the fuzzing
#      corpus, and a 60-second fuzzing run of the trace loader;
#   3. the Debian package (scripts/package.sh: CUDA off, GUI on), installed
#      with apt and its app run under Xvfb from an empty directory: the
#      occupancy strip must show figures from the shipped compiler data;
#   4. a small ThreadSanitizer build (clang, CUDA off, GUI off) of the threaded
#      tests only (CTest label tsan: the emulator's worker threads, the app's
#      background loader), run under it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)

echo "== build: release =="
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"

exclude=()
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo "== GPU found: $(nvidia-smi -L | head -1): running the GPU tests too =="
else
  echo "== no NVIDIA GPU here: SKIPPING the GPU tests (CTest label 'gpu') =="
  exclude=(-LE gpu)
fi
echo "== tests: release =="
xvfb-run -a -s "-screen 0 1920x1080x24" ctest --test-dir build --output-on-failure -j"$jobs" "${exclude[@]}"

echo "== package: the .deb as scripts/package.sh builds it (CUDA off), installed, its occupancy strip =="
scripts/package.sh build-package
debs=(build-package/tilescope_*.deb)
tests/packaging/installed_package_test.sh "${debs[0]}" build-package/installed-test

echo "== build: sanitizers (clang, ASan + UBSan, CUDA off, GUI off) =="
CC=clang CXX=clang++ cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTILESCOPE_CUDA=OFF -DTILESCOPE_GUI=OFF -DTILESCOPE_SANITIZE=ON -DTILESCOPE_FUZZ=ON
cmake --build build-sanitize -j"$jobs"
echo "== tests: sanitizers =="
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-sanitize --output-on-failure -j"$jobs"

echo "== build: ThreadSanitizer (clang, CUDA off, GUI off, the threaded tests only) =="
tsan_start=$(date +%s)
CC=clang CXX=clang++ cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTILESCOPE_CUDA=OFF -DTILESCOPE_GUI=OFF -DTILESCOPE_TSAN=ON
cmake --build build-tsan -j"$jobs" --target emulator_correctness_test trace_loader_test
echo "== tests: ThreadSanitizer =="
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  ctest --test-dir build-tsan --output-on-failure -j"$jobs" -L tsan
echo "== ThreadSanitizer stage: $(( $(date +%s) - tsan_start )) s =="
