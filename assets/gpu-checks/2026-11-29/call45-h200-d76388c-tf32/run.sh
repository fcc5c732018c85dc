#!/usr/bin/env bash
# Call 45: tf32-wgmma-ws after run 36's refactor (its stream-k flags now EpochFlags, load_acquire/store_release in
# ladder_device.cuh, the work schedule in work_schedule.h): tf32_wgmma_ws_test, every variant, and compute-sanitizer
# memcheck and racecheck on check 77's stream-k, split-k and small ragged cases (binary of d76388c).
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 150 "$BIN/tf32_wgmma_ws_test" --gtest_filter='-*cn2*:*cm2*' > "$R/tf32_ws_test.log" 2>&1; step test $?
tail -n 3 "$R/tf32_ws_test.log"
timeout 90 "$BIN/tf32_wgmma_ws_test" --gtest_filter='*cn2*:*cm2*' > "$R/tf32_ws_test_cluster.log" 2>&1; step test_cluster $?
tail -n 3 "$R/tf32_ws_test_cluster.log"
F='*/256x128_s4_g8_cn2_130x132x68_grid6:*/256x128_s4_g8_130x132x68_grid3:*/256x128_s4_g8_cn2_257x129x33_grid4_sk:*/128x128_s6_g8_cm2_515x260x1028_grid6_sk:*/128x128_s6_g8_cn2_300x261x199_grid6_split7:*/128x256_s4_g8_cn2_37x29x45_split64:*/128x64_s4_g8_cm2_2_sm_515x260x1028_grid6_sk:*/64x128_s4_g8_cn2_2_sm_300x261x199_grid6_split7:*/64x128_s4_g8_cn2_2_sm_130x132x68_grid6'
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 "$BIN/tf32_wgmma_ws_test" --gtest_filter="$F" \
    > "$R/sanitizer_$tool.log" 2>&1; step "$tool" $?; tail -n 2 "$R/sanitizer_$tool.log"
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
