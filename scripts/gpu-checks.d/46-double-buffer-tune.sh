#!/usr/bin/env bash
# double-buffer's listing (kernels/double_buffer.h, plain build) at the tuned
# kernel's tiles and around them, next to the tuned kernel and cuBLAS SGEMM
# in one process (ladder_tune, built with -DTILESCOPE_LADDER_TUNE=ON; skipped
# with a message where it was not built): every candidate checked against a
# double-precision reference at ragged shapes, then timed at 4096^3 and
# 8192^3, median of 20. Then compute-sanitizer memcheck and racecheck on the
# listing's candidates at the small ragged shapes (ladder_tune 0). Writes
# double_buffer_tune.log and double_buffer_sanitizer_*.log under $RESULTS (or $OUT).
set -uo pipefail
results=${RESULTS:-${OUT:-.}}
if [[ ! -x $BIN/ladder_tune ]]; then
  echo "ladder_tune was not built (-DTILESCOPE_LADDER_TUNE=ON): skipped"
  exit 0
fi
timeout --kill-after=10 240 "$BIN/ladder_tune" 4096 8192 > "$results/double_buffer_tune.log" 2>&1
rc=$?
cat "$results/double_buffer_tune.log"
for tool in memcheck racecheck; do
  timeout --kill-after=10 150 compute-sanitizer --tool "$tool" --error-exitcode 99 "$BIN/ladder_tune" 0 listing \
    > "$results/double_buffer_sanitizer_$tool.log" 2>&1 || rc=1
  tail -n 3 "$results/double_buffer_sanitizer_$tool.log"
done
exit $rc
