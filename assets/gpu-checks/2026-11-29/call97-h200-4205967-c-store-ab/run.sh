#!/usr/bin/env bash
# Call 97: 4205967 with fp32-best's 128x128 k16 tile storing C through shared memory where C's rows are off 16
# bytes and the plan is not persistent (its grid and its splits; stream-k keeps the rows), uncommitted, and the
# experimental override TS_FP32_C_STORE=rows (the store before) for the comparison. fp32_best_test; memcheck of
# the 128x128 tile's cases, racecheck of its grid's and splits'; fp32_tune --plan=rule at all 340 of 30,000
# freshly drawn shapes (seeds 20261220-20261229) with n % 4 != 0 whose pick is that tile's grid or a split of it,
# before (rows) and after (staged) in alternating processes, twice.
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
timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 1 "$R/fp32_best_test.log"
mapfile -t shapes < .gpu-pack/shapes.txt
n=${#shapes[@]}
for round in 1 2; do
  for store in rows staged; do
    for ((c = 0; c * 60 < n; ++c)); do
      if ((SECONDS > 330)); then echo "${store}_${round}_$c not started (past 330 s)" | tee -a "$R/steps.txt"; continue; fi
      envs=(); [[ $store == rows ]] && envs=(TS_FP32_C_STORE=rows)
      env "${envs[@]}" timeout $((560 - SECONDS)) "$BIN/fp32_tune" "${shapes[@]:$((c * 60)):60}" --plan=rule \
        > "$R/${store}_${round}_$c.log" 2>&1
      step "${store}_${round}_$c" $?
    done
  done
done
timeout $((590 - SECONDS > 120 ? 120 : 590 - SECONDS)) compute-sanitizer --tool memcheck --error-exitcode 99 \
  "$BIN/fp32_best_test" --gtest_filter='*128x128_k16_*' > "$R/fp32_memcheck.log" 2>&1
step fp32_memcheck $?; grep -E "ERROR SUMMARY|PASSED|FAILED" "$R/fp32_memcheck.log" | tail -n 3
if ((SECONDS < 520)); then
  timeout $((590 - SECONDS)) compute-sanitizer --tool racecheck --error-exitcode 99 "$BIN/fp32_best_test" \
    --gtest_filter='*128x128_k16_*-*stream*:*tail*' > "$R/fp32_racecheck.log" 2>&1
  step fp32_racecheck $?; grep -E "RACECHECK SUMMARY|PASSED|FAILED" "$R/fp32_racecheck.log" | tail -n 3
fi
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
