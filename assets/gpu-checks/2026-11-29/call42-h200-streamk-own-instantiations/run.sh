#!/usr/bin/env bash
# Call 42: fp32-best's stream-k as instantiations of its own (working tree after a43ad91): its tests and sanitizers,
# the kernel before (03b0cd6) and after (plans without stream-k, A/B), fp32_tune tables with stream-k at 47 shapes.
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
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 99 "$BIN/fp32_best_test" --gtest_filter='*stream_k*' \
    > "$R/sanitizer_$tool.log" 2>&1; step "$tool" $?; tail -n 2 "$R/sanitizer_$tool.log"
done
# A/B: the same plans by the binary before (03b0cd6) and this one, alternating, two rounds.
AB=(4096x4096x4096:"128x256" 5000x3472x4084:"64x128" 1602x279x5123:"128x64 split 4" 4148x3425x220:"64x128"
    283x4310x6393:"64x128 split 6" 5512x5639x150:"128x256 k16" 2048x2048x2048:"128x256 k16 split 2")
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
# Tables: stream-k of every tile beside the splits at the shapes in tune_shapes.txt.
PLANS=()
for t in "128x256" "64x128" "128x64" "128x256 k16"; do PLANS+=(--plan="$t stream-k" --plan="$t"); done
for t in "64x128" "128x64" "128x256 k16"; do for s in 2 3 4 6 8; do PLANS+=(--plan="$t split $s"); done; done
PLANS+=(--plan="128x256 split 2")
mapfile -t SHAPES < .gpu-pack/tune_shapes.txt
n=${#SHAPES[@]}; half=$(( (n + 1) / 2 ))
timeout 300 "$BIN/fp32_tune" "${SHAPES[@]:0:$half}" "${PLANS[@]}" --runs=10 > "$R/fp32_tune_0.log" 2>&1 &
p0=$!
# a second process would contend for the GPU: run in sequence, the second after the first
wait $p0; step tune0 $?
timeout $(( 560 - SECONDS > 30 ? 560 - SECONDS : 30 )) "$BIN/fp32_tune" "${SHAPES[@]:$half}" "${PLANS[@]}" --runs=10 > "$R/fp32_tune_1.log" 2>&1
step tune1 $?
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
