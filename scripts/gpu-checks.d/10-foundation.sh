#!/usr/bin/env bash
# The foundation on the GPU: trace equality with the emulator for every kernel,
# TILE and shape; the plain kernels against the reference; compute-sanitizer
# memcheck and racecheck on the instrumented and plain kernels; the recording
# benchmark.
set -uo pipefail
rc=0
timeout --kill-after=10 300 "$BIN/gpu_trace_test" --gtest_output=json:"$RESULTS/gpu_trace_test.json" || rc=1
# Sanitizers: every kernel and TILE at a ragged size (both kernel builds run in these tests).
for tool in memcheck racecheck; do
  compute-sanitizer --tool "$tool" --error-exitcode 99 \
    "$BIN/gpu_trace_test" --gtest_filter='*_37x29x45' > "$RESULTS/sanitizer_$tool.log" 2>&1 || rc=1
  tail -n 3 "$RESULTS/sanitizer_$tool.log"
done
"$BIN/record_bench" --json "$RESULTS/record_bench.json" || rc=1
exit $rc
