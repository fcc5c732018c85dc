#!/usr/bin/env bash
# Call 49: fp32-best's persistent grid (a block runs tile after tile through one pipeline; stream-k's grid too):
# fp32_best_test, memcheck and racecheck of the persistent and stream-k cases, the plans without it by the binary
# before (1349633) and this one (A/B, two rounds), fp32_tune tables of every tile's persistent grid beside the
# other plans at 40 shapes, and which kernels cuBLAS SGEMM runs at short-k shapes (Nsight Compute launch stats).
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
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 "$BIN/fp32_best_test" \
    --gtest_filter='*persistent*:*stream_k_3000x4099x37*:*stream_k_2100x4100x300*' \
    > "$R/sanitizer_$tool.log" 2>&1; step "$tool" $?; tail -n 2 "$R/sanitizer_$tool.log"
done
AB=(4096x4096x4096:"128x256" 5000x3472x4084:"64x128" 1602x279x5123:"128x64 split 4" 4148x3425x220:"64x128"
    283x4310x6393:"64x128 split 6" 5512x5639x150:"128x256 k16" 2048x2048x2048:"128x256 k16 split 2"
    2132x347x3273:"128x256 k16 split 2")
for round in 1 2; do
  for e in "${AB[@]}"; do
    shape=${e%%:*}; plan=${e#*:}
    for which in old new; do
      exe=$BIN/fp32_tune; [[ $which == old ]] && exe=$BIN/fp32_tune_old
      timeout 30 "$exe" "$shape" --plan="$plan" --runs=10 | grep -v "^NVIDIA" | sed "s/^/$which r$round /" >> "$R/ab.log"
    done
  done
done
step ab $?
PLANS=()
for t in "128x256" "64x128" "128x64" "128x256 k16"; do PLANS+=(--plan="$t" --plan="$t persistent" --plan="$t stream-k"); done
for t in "64x128" "128x64" "128x256 k16"; do for s in 2 3 4 6 8; do PLANS+=(--plan="$t split $s"); done; done
mapfile -t SHAPES < .gpu-pack/tune_shapes.txt
n=${#SHAPES[@]}; half=$(( (n + 1) / 2 ))
timeout 200 "$BIN/fp32_tune" "${SHAPES[@]:0:$half}" "${PLANS[@]}" --runs=10 > "$R/fp32_tune_0.log" 2>&1
step tune0 $?
timeout 200 "$BIN/fp32_tune" "${SHAPES[@]:$half}" "${PLANS[@]}" --runs=10 > "$R/fp32_tune_1.log" 2>&1
step tune1 $?
# cuBLAS SGEMM's kernels at short k: name, grid, block, registers, shared memory, occupancy.
for shape in 1653x4702x344 2372x4365x168 2968x5153x282 4096x4096x4096; do
  timeout 60 ncu --section LaunchStats --section Occupancy --kernel-name regex:'gemm' --launch-skip 0 \
    --launch-count 3 "$BIN/fp32_tune" "$shape" --plan="128x256 k16" --runs=1 > "$R/ncu_cublas_$shape.log" 2>&1
  step "ncu $shape" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
