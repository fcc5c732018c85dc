#!/usr/bin/env bash
# Call 68: shifted float4 built for each ldb % 4, so each row's shift is known where its k is (float4, pairs, or
# the two float4 around the row picked from; a word, a pair and a word on the 32x128 tile). fp32_best_test;
# memcheck on every case, racecheck on shifted cases of each ldb % 4; every plan of the five shifted
# tiles at call 66's 35 shapes with m up to 640 (against call 66's runtime shifts); five seeds of call 67.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/mis_small.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
for t in fp32_best_test; do
  timeout 100 "$BIN/$t" > "$R/$t.log" 2>&1; step "$t" $?; tail -n 1 "$R/$t.log"
done
grep -E "^\[  FAILED" "$R/fp32_best_test.log" | head -20
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/fp32_best_test" \
  --gtest_filter='EveryPlan/*' > "$R/sanitizer_memcheck.log" 2>&1; step memcheck $?
tail -n 2 "$R/sanitizer_memcheck.log"
F="*/32x128_split_3_131x133x301:*/64x64_k16_70x258x75:*/128x64_45x131x90:*/128x256_k16_split_3_21x3x33:"
F+="*/64x128_stream_k_40x2x34"
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 99 "$BIN/fp32_best_test" --gtest_filter="$F" \
  > "$R/sanitizer_racecheck.log" 2>&1; step racecheck $?; tail -n 2 "$R/sanitizer_racecheck.log"
P=()
for t in "64x128" "128x256 k16" "128x64" "64x64 k16" "32x128"; do
  P+=(--plan="$t" --plan="$t stream-k")
  for s in 2 3 4 5 6 7 8; do P+=(--plan="$t split $s"); done
done
mapfile -t S1 < .gpu-pack/mis_small.txt
n=${#S1[@]}; half=$(( (n + 1) / 2 ))
for i in 0 1; do
  timeout 120 "$BIN/fp32_tune" "${S1[@]:$((i * half)):$half}" "${P[@]}" --plan=rule --runs=10 > "$R/tables_small_$i.log" 2>&1
  step "tables small $i" $?
done
for seed in 1795943141 1795953016 1795960453 1795960876 1796057686; do
  mkdir -p "$R/seed-$seed"
  RESULTS=$R/seed-$seed FRESH_SEED=$seed timeout 60 bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/seed-$seed/82.log" 2>&1
  step "seed $seed" $?; tail -n 2 "$R/seed-$seed/82.log"
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
