#!/usr/bin/env bash
# The emulator's checks (record --check) against compute-sanitizer: each bug
# planted in tests/kernels/planted_bugs.h, compiled as a plain CUDA kernel
# (planted_bugs_gpu, built with -lineinfo), under the tool that should see it;
# then the emulator's findings for the same kernels and size (sanitizer_test's
# GpuCheckSize case). Agreement: memcheck reports an invalid __global__ read
# for no-bounds-check, racecheck reports shared-memory hazards for
# missing-barrier, both at the lines marked in planted_bugs.h, and the clean
# tiled kernel ("none") has no errors under either tool.
set -uo pipefail
BIN=${BIN:-$PWD/.gpu-bin}
RESULTS=${OUT:-${RESULTS:-$PWD/gpu-results}}
mkdir -p "$RESULTS"
rc=0
sanitize() {  # TOOL BUG: the tool's log, and its summary line
  local log="$RESULTS/sanitizer_${1}_${2}.log"
  compute-sanitizer --tool "$1" --show-backtrace no "$BIN/planted_bugs_gpu" "$2" > "$log" 2>&1
  echo "$1 $2: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -n 1)"
}
for bug in no-bounds-check none; do sanitize memcheck "$bug"; done
for bug in missing-barrier none; do sanitize racecheck "$bug"; done
for bug in early-return none; do sanitize synccheck "$bug"; done
for bug in unstaged-column none; do sanitize initcheck "$bug"; done
# The lines the tools name, next to the lines the emulator names.
grep -ho 'planted_bugs.h:[0-9]*' "$RESULTS"/sanitizer_memcheck_no-bounds-check.log | sort | uniq -c | head -n 5
grep -ho 'planted_bugs.h:[0-9]*' "$RESULTS"/sanitizer_racecheck_missing-barrier.log | sort | uniq -c | head -n 5
grep -n '\[oob-load\]\|\[race-load\]\|\[race-store\]' tests/kernels/planted_bugs.h
grep -q 'ERROR SUMMARY: 0 errors' "$RESULTS/sanitizer_memcheck_none.log" || rc=1
grep -q 'ERROR SUMMARY: 0 errors' "$RESULTS/sanitizer_memcheck_no-bounds-check.log" && rc=1
"$BIN/sanitizer_test" --gtest_filter='Sanitizer.GpuCheckSize' > "$RESULTS/emulator_checks.log" 2>&1 || rc=1
grep '^emulator\|first:' "$RESULTS/emulator_checks.log"
exit $rc
