#!/usr/bin/env bash
# Call 99: 0755870 with fp32_any's store of C by warp shuffles (kStoreWarp: each warp's rows as float4 aligned in
# C, no shared memory), uncommitted, and the override TS_FP32_C_STORE=rows|staged|warp for the comparison.
# fp32_best_test with every store off 16 bytes forced to the warp store; fp32_tune --plan=rule at 444 shapes with
# n % 4 != 0 (up to 36 of each pick's tile and schedule among 30,000 fresh draws, seeds 20261240-20261249), the
# three stores in alternating processes, twice; memcheck of fp32_best_test with the warp store forced; Nsight
# Compute's source counters at 1811x5698x478 (64x64 k16) by rows and by warp.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/shapes.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
cuobjdump --dump-resource-usage "$BIN/fp32_tune" 2>&1 | grep -A1 "fp32_any" > "$R/resource_usage.txt"
TS_FP32_C_STORE=warp timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test_warp.log" 2>&1
step fp32_best_test_warp $?; tail -n 1 "$R/fp32_best_test_warp.log"
mapfile -t shapes < .gpu-pack/shapes.txt
n=${#shapes[@]}
for round in 1 2; do
  order=(rows staged warp); ((round == 2)) && order=(warp staged rows)
  for store in "${order[@]}"; do
    for ((c = 0; c * 75 < n; ++c)); do
      if ((SECONDS > 400)); then echo "${store}_${round}_$c not started (past 400 s)" | tee -a "$R/steps.txt"; continue; fi
      TS_FP32_C_STORE=$store timeout $((560 - SECONDS)) "$BIN/fp32_tune" "${shapes[@]:$((c * 75)):75}" --plan=rule \
        > "$R/${store}_${round}_$c.log" 2>&1
      step "${store}_${round}_$c" $?
    done
  done
done
if ((SECONDS < 450)); then
  TS_FP32_C_STORE=warp timeout $((580 - SECONDS > 100 ? 100 : 580 - SECONDS)) compute-sanitizer --tool memcheck \
    --error-exitcode 99 "$BIN/fp32_best_test" --gtest_filter='*x131x*:*x133x*:*x29x*:*x2x*:*x3x*:*_c1*:*_c2*:*4099*' \
    > "$R/fp32_memcheck_warp.log" 2>&1
  step fp32_memcheck_warp $?; grep -E "ERROR SUMMARY|PASSED|FAILED" "$R/fp32_memcheck_warp.log" | tail -n 3
fi
for store in rows warp; do
  if ((SECONDS > 520)); then echo "ncu $store not started" | tee -a "$R/steps.txt"; continue; fi
  TS_FP32_C_STORE=$store timeout $((585 - SECONDS)) ncu --section SourceCounters --section WarpStateStats \
    -k 'regex:fp32_any' --launch-count 1 --page source --print-source sass --csv \
    "$BIN/fp32_tune" 1811x5698x478 --plan="64x64 k16" --runs=3 > "$R/ncu_source_$store.csv" 2> "$R/ncu_$store.err"
  step "ncu $store" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
