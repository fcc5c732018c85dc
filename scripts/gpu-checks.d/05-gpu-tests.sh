#!/usr/bin/env bash
# Every test labelled gpu (CTest) that no later check runs whole: each
# executable in full, its results as gtest JSON under $RESULTS. (gpu_trace_test
# runs in 10-foundation, focused_gpu_test in 72-focused.)
#  - user_kernel_gpu_test compiles user kernels with NVRTC against the kernel
#    API headers of this checkout ($TILESCOPE_INCLUDE_DIR) and caches them in
#    a scratch directory.
set -uo pipefail
rc=0
if ldd "$BIN/bench_runner_test" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export TILESCOPE_SOURCE_TREE=$PWD TILESCOPE_INCLUDE_DIR=$PWD/include
export TILESCOPE_CACHE_DIR=${TILESCOPE_CACHE_DIR:-$(mktemp -d)}
for test in counter_gpu_test mma_gpu_test user_kernel_gpu_test replay_gpu_test occupancy_gpu_test \
  ladder_test fp32_best_test bench_runner_test shared_refusal_test; do
  start=$SECONDS
  # A hung kernel costs its test, not the whole check.
  timeout --kill-after=10 240 "$BIN/$test" --gtest_output=json:"$RESULTS/$test.json" > "$RESULTS/$test.log" 2>&1
  status=$?
  ((status == 124 || status == 137)) && echo "$test: TIMED OUT after 240 s (a hang?)" >> "$RESULTS/$test.log"
  ((status == 0)) || rc=1
  printf '%-22s exit %d, %3d s: %s\n' "$test" "$status" $((SECONDS - start)) \
    "$(grep -E '^\[  (PASSED|FAILED)  \]' "$RESULTS/$test.log" | tr '\n' ' ')"
done
exit $rc
