#!/usr/bin/env bash
# Call 66: B's rows off 16 bytes read in place, shifted, its fragments as float4 (k % 4 == 0), pairs (k even) or
# words, and the last rows' float4 word by word: fp32_best_test, memcheck on every case, racecheck on shifted ones;
# fp32_tune at call 64/65's small shapes; tables for the rule's refit at the 54 shapes of run 38's tables with n off
# 4 and m up to 3072 (every plan of call 58's list where m <= 640, the 128x256 tiles' above); three draws of run 38.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/mis_small.txt .gpu-pack/mis_mid.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 100 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 1 "$R/fp32_best_test.log"
grep -E "^\[  FAILED" "$R/fp32_best_test.log" | head -20
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/fp32_best_test" \
  --gtest_filter='EveryPlan/*' > "$R/sanitizer_memcheck.log" 2>&1; step memcheck $?
tail -n 2 "$R/sanitizer_memcheck.log"
F=""
for t in 32x128 64x64_k16 64x128 128x256_k16; do F+="*/${t}_split_3_131x133x301:*/${t}_3x1x7:"; done
F+="*/128x128_k16_stream_k_37x29x45:*/128x64_45x131x90"
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 99 "$BIN/fp32_best_test" --gtest_filter="$F" \
  > "$R/sanitizer_racecheck.log" 2>&1; step racecheck $?; tail -n 2 "$R/sanitizer_racecheck.log"
SMALL="158x1438x5376 264x3301x3952 267x1679x4607 408x4437x2241 440x2130x3502 240x1351x6234 280x5914x2839 390x5025x2950 430x4385x588"
plans=()
for t in "32x128" "64x64 k16" "64x128" "128x64"; do
  plans+=("--plan=$t")
  for s in 2 3 4 6 8 12 16; do plans+=("--plan=$t split $s"); done
done
sk=("--plan=32x128 stream-k" "--plan=64x64 k16 stream-k" "--plan=64x128 stream-k" "--plan=128x64 stream-k" "--plan=128x128 k16 stream-k" "--plan=rule")
timeout 100 "$BIN/fp32_tune" --runs=10 $SMALL "${plans[@]}" "${sk[@]}" > "$R/small-shifted.log" 2>&1; step small $?
for seed in 1795943141 1795953016 1795960453; do
  mkdir -p "$R/seed-$seed"
  RESULTS=$R/seed-$seed FRESH_SEED=$seed timeout 60 bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/seed-$seed/82.log" 2>&1
  step "seed $seed" $?; tail -n 3 "$R/seed-$seed/82.log"
done
PLANS=()
for t in "128x256" "64x128" "128x256 k16" "128x64" "128x128 k16" "64x64 k16" "32x128"; do
  PLANS+=(--plan="$t" --plan="$t stream-k")
  for s in 2 3 4 5 6 7 8; do PLANS+=(--plan="$t split $s"); done
done
PLANS+=(--plan=rule)
mapfile -t S1 < .gpu-pack/mis_small.txt
n=${#S1[@]}; half=$(( (n + 1) / 2 ))
for i in 0 1; do
  timeout 170 "$BIN/fp32_tune" "${S1[@]:$((i * half)):$half}" "${PLANS[@]}" --runs=10 > "$R/tables_small_$i.log" 2>&1
  step "tables small $i" $?
done
P256=()
for t in "128x256" "128x256 k16"; do
  P256+=(--plan="$t" --plan="$t stream-k")
  for s in 2 3 4 5 6 7 8; do P256+=(--plan="$t split $s"); done
done
mapfile -t S2 < .gpu-pack/mis_mid.txt
timeout 120 "$BIN/fp32_tune" "${S2[@]}" "${P256[@]}" --plan=rule --runs=10 > "$R/tables_mid.log" 2>&1; step "tables mid" $?
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
