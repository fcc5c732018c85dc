#!/usr/bin/env bash
# A user's own kernel on the GPU: NVRTC compiles a copy of kernels/tiled.h in
# the recorded mode and the driver API runs it; its trace must equal the
# built-in tiled kernel's on the GPU and the emulator's, event for event, at
# three shapes and TILE 8 and 16 (user_kernel_gpu_test). Then the examples
# through the command line on the GPU: first_tiled.cu records and C is right
# (exit 0), timed with the NVRTC compile (a fresh cache) and from the cache;
# missing_bounds_check.cu stops at its access outside the arrays (exit 5, the
# README's "it stopped"; 4 is a kernel that does not compile); sgemm_alpha_beta.cu
# takes its alpha and beta from --arg and C is alpha A x B (exit 0). Writes
# $RESULTS/user_kernel_gpu_test.json and user_kernel_cli.log.
set -uo pipefail
rc=0
# Run from the checkout: the kernel headers and examples are this tree's, not the build machine's.
export TILESCOPE_INCLUDE_DIR=$PWD/include TILESCOPE_SOURCE_TREE=$PWD
export TILESCOPE_CACHE_DIR=$(mktemp -d)
"$BIN/user_kernel_gpu_test" --gtest_output=json:"$RESULTS/user_kernel_gpu_test.json" || rc=1
export TILESCOPE_CACHE_DIR=$(mktemp -d)  # empty again: the first record below pays NVRTC
tmp=$(mktemp -d)
TIMEFORMAT='%R s wall'
{
  for pass in first cached; do
    echo "--- $pass"
    time "$BIN/tilescope" record --kernel-file examples/kernels/first_tiled.cu --entry matmul_tiled \
      --block 16x16 -D TILE=16 --size 100 --device gpu -o "$tmp/first.tstrace"
    echo "exit status $? (expected 0)"
  done
  "$BIN/tilescope" record --kernel-file examples/kernels/missing_bounds_check.cu --entry matmul_tiled \
    --block 16x16 -D TILE=16 --size 50 --device gpu -o "$tmp/oob.tstrace"
  echo "exit status $? (expected 5)"
  "$BIN/tilescope" record --kernel-file examples/kernels/sgemm_alpha_beta.cu --entry sgemm \
    --block 16x16 --arg alpha=2 --arg beta=0.5 --size 100 --device gpu -o "$tmp/sgemm.tstrace"
  echo "sgemm exit status $? (expected 0)"
} 2>&1 | tee "$RESULTS/user_kernel_cli.log"
grep -q "exit status 0 (expected 0)" "$RESULTS/user_kernel_cli.log" || rc=1
grep -q "exit status 5 (expected 5)" "$RESULTS/user_kernel_cli.log" || rc=1
grep -q "sgemm exit status 0 (expected 0)" "$RESULTS/user_kernel_cli.log" || rc=1
grep -q "C equals 2 x A x B" "$RESULTS/user_kernel_cli.log" || rc=1
rm -rf "$tmp" "$TILESCOPE_CACHE_DIR"
exit $rc
