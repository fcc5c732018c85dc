#!/usr/bin/env bash
# Call 75: 53b330e (the tail split; work_schedule.h's walk now also serves fp32-best's stream-k): ladder_test,
# fp32_best_test, memcheck of fp32-best's stream-k cases and of the ladder's tf32-wgmma-ws cases, racecheck of
# four stream-k cases.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/ladder_test" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
for t in ladder_test fp32_best_test; do
  timeout 100 "$BIN/$t" > "$R/$t.log" 2>&1; step "$t" $?; tail -n 1 "$R/$t.log"
done
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/fp32_best_test" --gtest_filter='*stream_k*' \
  > "$R/fp32_memcheck.log" 2>&1; step fp32_memcheck $?; tail -n 2 "$R/fp32_memcheck.log"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/ladder_test" --gtest_filter='*tf32_wgmma_ws*' \
  > "$R/ladder_memcheck.log" 2>&1; step ladder_memcheck $?; tail -n 2 "$R/ladder_memcheck.log"
F='*128x256_stream_k_130x132x68:*128x256_stream_k_260x516x200:*stream_k_37x29x45'
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 99 "$BIN/fp32_best_test" --gtest_filter="$F" \
  > "$R/fp32_racecheck.log" 2>&1; step fp32_racecheck $?; tail -n 2 "$R/fp32_racecheck.log"
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
