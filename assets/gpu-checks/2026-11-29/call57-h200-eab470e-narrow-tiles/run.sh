#!/usr/bin/env bash
# Call 57: three tiles in fp32_any, not yet ruled: 32x128 and 128x32 over k-tiles of 16 (4 warps of 32x32 in a row or
# a column, five blocks an SM) for C with a narrow side, and 64x64 over k-tiles of 16 (four blocks an SM) for short k:
# fp32_best_test (every tile), memcheck and racecheck on the new tiles' cases, fp32_tune tables of their plans beside
# the rule's pick at narrow, drawn narrow and short-k shapes.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/tune_shapes.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 150 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 3 "$R/fp32_best_test.log"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/fp32_best_test" \
  --gtest_filter='*/32x128*:*/128x32*:*/64x64_k16*' > "$R/sanitizer_memcheck.log" 2>&1; step memcheck $?
tail -n 2 "$R/sanitizer_memcheck.log"
F=""
for t in 32x128 128x32 64x64_k16; do
  F+="*/${t}_stream_k_3000x4099x37*:*/${t}_stream_k_2100x4100x300*:*/${t}_split_3_131x133x301*:*/${t}_260x516x200*:*/${t}_67x260x77_b2_c2*:*/${t}_split_48_130x131x6800*:"
done
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 99 "$BIN/fp32_best_test" --gtest_filter="$F" \
  > "$R/sanitizer_racecheck.log" 2>&1; step racecheck $?; tail -n 2 "$R/sanitizer_racecheck.log"
PLANS=(--plan=rule)
for t in "32x128" "128x32" "64x64 k16"; do
  PLANS+=(--plan="$t" --plan="$t stream-k")
  for s in 2 3 4 6 8; do PLANS+=(--plan="$t split $s"); done
done
PLANS+=(--plan="64x64" --plan="64x64 stream-k" --plan="128x128 k16 stream-k" --plan="64x128" --plan="128x64")
mapfile -t SHAPES < .gpu-pack/tune_shapes.txt
n=${#SHAPES[@]}; half=$(( (n + 1) / 2 ))
timeout 220 "$BIN/fp32_tune" "${SHAPES[@]:0:$half}" "${PLANS[@]}" --runs=10 > "$R/fp32_tune_0.log" 2>&1
step tune0 $?
timeout 220 "$BIN/fp32_tune" "${SHAPES[@]:$half}" "${PLANS[@]}" --runs=10 > "$R/fp32_tune_1.log" 2>&1
step tune1 $?
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
