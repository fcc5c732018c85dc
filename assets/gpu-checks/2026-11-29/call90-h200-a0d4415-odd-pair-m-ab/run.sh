#!/usr/bin/env bash
# Call 90: the TF32 rule with Tf32WsModel::odd_pair_m 0.3 (working tree on a0d4415): ladder_test; both picks
# (odd_pair_m 0 and 0.3) timed by tf32_ws_tune at all 118 of 12,000 freshly drawn shapes (seeds 20261129, 20261130,
# 20261202, 20261203) whose pick it moves, one process per pair of plans, in two rounds (the plans' order swapped);
# the drawn-shape check through tilescope bench with the new rule on new seeds; Nsight Compute of fp32-best and
# cuBLAS SGEMM at two of call 88's FP32 misses (short k, narrow n).
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh "$BIN/ab90_groups.txt" "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tf32_ws_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 60 "$BIN/ladder_test" > "$R/ladder_test.log" 2>&1; step ladder_test $?; tail -n 1 "$R/ladder_test.log"
for round in 1 2; do
  i=0
  while IFS='|' read -r a b shapes; do
    i=$((i + 1))
    if ((SECONDS > 250)); then echo "ab_${round}_$i not started (past 250 s)" | tee -a "$R/steps.txt"; continue; fi
    first=$a second=$b; ((round == 2)) && first=$b second=$a
    # shellcheck disable=SC2086 # $shapes is a list of shapes
    timeout 60 "$BIN/tf32_ws_tune" $shapes --runs=10 --name="$first" --name="$second" > "$R/ab_${round}_$i.log" 2>&1
    step "ab_${round}_$i" $?
  done < "$BIN/ab90_groups.txt"
done
for s in 1 2 3 4 5 6 7 8 9 10; do
  if ((SECONDS > 420)); then echo "seed $s not started (past 420 s)" | tee -a "$R/steps.txt"; continue; fi
  mkdir -p "$R/fresh_$s"
  RESULTS="$R/fresh_$s" bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/fresh_$s/summary.txt" 2>&1
  step "fresh $(head -c 40 "$R/fresh_$s/summary.txt" | grep -o 'seed [0-9]*')" $?
done
for shape in 2138x3897x302 2009x239x3566; do
  if ((SECONDS > 500)); then echo "ncu $shape not started (past 500 s)" | tee -a "$R/steps.txt"; continue; fi
  timeout $((580 - SECONDS)) ncu --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis -k 'regex:fp32_any|gemm|Kernel' \
    --launch-count 12 "$BIN/tilescope" bench --kernels fp32-best --shape "$shape" --runs 1 --no-ceilings \
    > "$R/ncu_$shape.txt" 2>&1
  step "ncu $shape" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
