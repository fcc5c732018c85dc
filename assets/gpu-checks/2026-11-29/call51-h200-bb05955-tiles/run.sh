#!/usr/bin/env bash
# Call 51: two tiles cuBLAS SGEMM runs at narrow and short shapes (call 50, Nsight Compute), in fp32_any: 128x128
# over k-tiles of 16 (4 warps of 64x64, two blocks an SM) and 64x64 (4 warps of 32x32, four blocks an SM), not yet
# ruled: fp32_best_test (every tile), memcheck and racecheck on the new tiles' cases, fp32_tune tables of their
# plans beside 64x128 and 128x256 k16 at 40 shapes.
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
timeout 150 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 3 "$R/fp32_best_test.log"
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/fp32_best_test" \
  --gtest_filter='*128x128*:*64x64*' > "$R/sanitizer_memcheck.log" 2>&1; step memcheck $?
tail -n 2 "$R/sanitizer_memcheck.log"
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 99 "$BIN/fp32_best_test" \
  --gtest_filter='*128x128_k16_stream_k_3000x4099x37*:*64x64_stream_k_2100x4100x300*:*128x128_k16_split_3_131x133x301*:*64x64_split_3_131x133x301*:*128x128_k16_260x516x200*:*64x64_67x260x77_b2_c2*:*128x128_k16_split_48_130x131x6800*:*64x64_split_48_130x132x6800*' \
  > "$R/sanitizer_racecheck.log" 2>&1; step racecheck $?; tail -n 2 "$R/sanitizer_racecheck.log"
PLANS=(--plan="64x128" --plan="128x256 k16")
for t in "128x128 k16" "64x64"; do
  PLANS+=(--plan="$t" --plan="$t stream-k")
  for s in 2 3 4 6 8; do PLANS+=(--plan="$t split $s"); done
done
mapfile -t SHAPES < .gpu-pack/tune_shapes.txt
n=${#SHAPES[@]}; half=$(( (n + 1) / 2 ))
timeout 200 "$BIN/fp32_tune" "${SHAPES[@]:0:$half}" "${PLANS[@]}" --runs=10 > "$R/fp32_tune_0.log" 2>&1
step tune0 $?
timeout 200 "$BIN/fp32_tune" "${SHAPES[@]:$half}" "${PLANS[@]}" --runs=10 > "$R/fp32_tune_1.log" 2>&1
step tune1 $?
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
