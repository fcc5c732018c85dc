#!/usr/bin/env bash
# Focused traces on the GPU (only the chosen blocks run the instrumented
# kernel): equal to the emulator's focused traces of the same blocks, event for
# event, at ragged sizes and at N = 4096 for every kernel; the time of one
# block's recording at N = 4096 is in each case's gpu_seconds property. Then
# `record --blocks` at N = 4096 through the command line, timed, with the
# whole launch counted beside it. Writes $RESULTS/focused_gpu_test.json and
# focused_cli.log.
set -uo pipefail
rc=0
timeout --kill-after=10 240 "$BIN/focused_gpu_test" --gtest_output=json:"$RESULTS/focused_gpu_test.json" || rc=1
compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/focused_gpu_test" --gtest_filter='*_37x29x45' \
  > "$RESULTS/focused_memcheck.log" 2>&1 || rc=1
tail -n 2 "$RESULTS/focused_memcheck.log"
tmp=$(mktemp -d)
TIMEFORMAT='%R s wall'
# Block (64, 64) lies inside both grids (tiled: 256 x 256 blocks; coarsened,
# 2 x 2 cells a thread: 128 x 128). The loop runs in this shell, so that a
# failure reaches rc (a pipe into tee would run it in a subshell).
for kernel in tiled coarsened; do
  time "$BIN/tilescope" record --kernel "$kernel" --tile 16 --size 4096 \
    --blocks "64,64" --counters --device gpu -o "$tmp/$kernel.tstrace" || rc=1
done > "$RESULTS/focused_cli.log" 2>&1
cat "$RESULTS/focused_cli.log"
cat "$tmp"/*.counters.json > "$RESULTS/focused_counters.json" 2>/dev/null
rm -rf "$tmp"
exit $rc
