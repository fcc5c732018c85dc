#!/usr/bin/env bash
# Call 54: the 128x256 tile over k-tiles of 8 in 4 stages (as cuBLAS SGEMM's cutlass_80_simt_sgemm_256x128_8x4 at
# short k with C large; call 50), not ruled: fp32_best_test, memcheck and racecheck of its cases, fp32_tune at
# 33 shapes (short k with C large, the misses of call 53, and large ones) beside the tiles the rule picks there.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 150 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 1 "$R/fp32_best_test.log"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/fp32_best_test" --gtest_filter='*k8*' \
  > "$R/sanitizer_memcheck.log" 2>&1; step memcheck $?; tail -n 1 "$R/sanitizer_memcheck.log"
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 99 "$BIN/fp32_best_test" \
  --gtest_filter='*k8_stream_k_3000x4099x37*:*k8_stream_k_2100x4100x300*:*k8_split_3_131x133x301*:*k8_260x516x200*:*k8_67x260x77_b2_c2*' \
  > "$R/sanitizer_racecheck.log" 2>&1; step racecheck $?; tail -n 1 "$R/sanitizer_racecheck.log"
mapfile -t SHAPES < .gpu-pack/k8_shapes.txt
timeout 240 "$BIN/fp32_tune" "${SHAPES[@]}" --plan="128x256 k8" --plan="128x256 k8 stream-k" --plan="128x256 k8 split 2" \
  --plan="128x256 k16" --plan="64x128" --plan="128x128 k16" --plan="128x128 k16 stream-k" --plan="64x64" --runs=10 \
  > "$R/fp32_tune.log" 2>&1
step tune $?
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
