#!/usr/bin/env bash
# Call 107: the 128x128 k16 tile copies B off 16 bytes shifted (float4 around each row) instead of words (run 44,
# call 106). New: the working tree with that change; old: eb2eef0's tilescope. ladder_test and fp32_best_test
# (new); memcheck of the 128x128 tile's cases and racecheck of four of them; the drawn-shape check
# (scripts/gpu-checks.d/82-bench-fresh-shapes.sh, 40 shapes a seed) on 12 new seeds, each seed by both binaries
# in turned order.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
NEW=$PWD/.gpu-bin/new OLD=$PWD/.gpu-bin/old
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$NEW/COMMIT" "$OLD/COMMIT"; } \
  > "$R/machine.txt"
if ldd "$NEW/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 60 "$NEW/ladder_test" > "$R/ladder_test.log" 2>&1; step ladder_test $?; tail -n 1 "$R/ladder_test.log"
timeout 90 "$NEW/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 1 "$R/fp32_best_test.log"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 99 "$NEW/fp32_best_test" --gtest_filter='*128x128*' \
  > "$R/fp32_memcheck_128x128.log" 2>&1
step fp32_memcheck_128x128 $?; grep -E "ERROR SUMMARY|PASSED|FAILED" "$R/fp32_memcheck_128x128.log" | tail -n 3
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 99 "$NEW/fp32_best_test" \
  --gtest_filter='*128x128_k16_45x131x90*:*128x128_k16_split_3_70x258x75*:*128x128_k16_stream_k_131x133x301*:*128x128_k16_21x3x33*' \
  > "$R/fp32_racecheck_128x128.log" 2>&1
step fp32_racecheck_128x128 $?; grep -E "RACECHECK SUMMARY|PASSED|FAILED" "$R/fp32_racecheck_128x128.log" | tail -n 3
base=$(date +%s)
for s in 1 2 3 4 5 6 7 8 9 10 11 12; do
  order=(old new); ((s % 2 == 0)) && order=(new old)
  for v in "${order[@]}"; do
    if ((SECONDS > 480)); then echo "seed $s $v not started (past 480 s)" | tee -a "$R/steps.txt"; continue; fi
    mkdir -p "$R/fresh_${s}_$v"
    bin=$NEW; [[ $v == old ]] && bin=$OLD
    FRESH_SEED=$((base + s)) BIN=$bin RESULTS="$R/fresh_${s}_$v" bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh \
      > "$R/fresh_${s}_$v/summary.txt" 2>&1
    step "fresh seed $((base + s)) $v" $?
  done
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
