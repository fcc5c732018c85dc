#!/usr/bin/env bash
# Call 60: run 38's final rule (64x64 over k-tiles of 16 in place of its k32 twin, 32x128, the refit model, stream-k's
# whole rounds costed apart, no 128x128 stream-k where the 128x256 tile's rounds are full): fp32_best_test, ladder_test,
# bench_runner_test; memcheck of the two tiles' cases, racecheck of six; the pick before (eab470e) and the new pick at
# 70 shapes (the 46 of call 59 and 24 drawn from the 1,991 of 3,000 whose pick changed); the drawn-shape check with the
# four seeds of calls 55-56 and two new ones; the sweep (assets/bench/h200.{json,csv}).
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/ab_shapes.tsv "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
for t in fp32_best_test ladder_test bench_runner_test; do
  timeout 100 "$BIN/$t" > "$R/$t.log" 2>&1; step "$t" $?; tail -n 1 "$R/$t.log"
done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/fp32_best_test" \
  --gtest_filter='*/32x128*:*/64x64_k16*' > "$R/sanitizer_memcheck.log" 2>&1; step memcheck $?
tail -n 2 "$R/sanitizer_memcheck.log"
F=""
for t in 32x128 64x64_k16; do
  F+="*/${t}_stream_k_2100x4100x300*:*/${t}_split_3_131x133x301*:*/${t}_67x260x77_b2_c2*:"
done
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 99 "$BIN/fp32_best_test" --gtest_filter="$F" \
  > "$R/sanitizer_racecheck.log" 2>&1; step racecheck $?; tail -n 2 "$R/sanitizer_racecheck.log"
while IFS=$'\t' read -r shape old; do
  P=(--plan=rule)
  case "$old" in 64x64|"64x64 "*) ;; *) P+=(--plan="$old") ;; esac
  timeout 60 "$BIN/fp32_tune" "$shape" "${P[@]}" --runs=10 | grep -v "^NVIDIA" >> "$R/ab_picks.log"
done < .gpu-pack/ab_shapes.tsv
step ab_picks $?
for seed in 1795943141 1795951071 1795942234 1795950161 $(( $(date +%s) + 7919 )) $(( $(date +%s) + 15838 )); do
  mkdir -p "$R/seed-$seed"
  RESULTS=$R/seed-$seed FRESH_SEED=$seed timeout 90 bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/seed-$seed/82.log" 2>&1
  step "seed $seed" $?; tail -n 4 "$R/seed-$seed/82.log"
done
mkdir -p "$R/sweep"
RESULTS=$R/sweep OUT=$R/sweep timeout 240 bash scripts/gpu-checks.d/80-bench-sweep.sh > "$R/80.log" 2>&1
step sweep $?; tail -n 16 "$R/80.log"
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
