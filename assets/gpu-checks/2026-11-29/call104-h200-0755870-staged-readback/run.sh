#!/usr/bin/env bash
# Call 104: store_staged's read-back rewritten (a warp a row, its lanes the row's float4 chunks, the row's shift
# once a row; before, a loop over the block's chunks took each one's row by a division and its shift from a 64-bit
# address: 1,440 instructions a warp at the 128x256 tile, call 103). New: 0755870 with that loop, uncommitted, with
# the override TS_FP32_C_STORE=rows|staged; old: 0755870. fp32_best_test (new; and with every store off 16 bytes
# through shared memory); fp32_tune --plan=rule at 156 of call 99's shapes (12 of each pick's tile and schedule):
# old, new, and new with every store through shared memory, in alternating processes, twice; memcheck and a short
# racecheck with every store through shared memory.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/shapes.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune_new" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 1 "$R/fp32_best_test.log"
TS_FP32_C_STORE=staged timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test_staged.log" 2>&1
step fp32_best_test_staged $?; tail -n 1 "$R/fp32_best_test_staged.log"
mapfile -t shapes < .gpu-pack/shapes.txt
n=${#shapes[@]}
for round in 1 2; do
  order=(old new staged); ((round == 2)) && order=(staged new old)
  for v in "${order[@]}"; do
    for ((c = 0; c * 75 < n; ++c)); do
      if ((SECONDS > 190)); then echo "${v}_${round}_$c not started (past 190 s)" | tee -a "$R/steps.txt"; continue; fi
      envs=(); bin=fp32_tune_new
      [[ $v == old ]] && bin=fp32_tune_old
      [[ $v == staged ]] && envs=(TS_FP32_C_STORE=staged)
      env "${envs[@]}" timeout $((560 - SECONDS)) "$BIN/$bin" "${shapes[@]:$((c * 75)):75}" --plan=rule \
        > "$R/${v}_${round}_$c.log" 2>&1
      step "${v}_${round}_$c" $?
    done
  done
done
filter='*x131x*:*x133x*:*x29x*:*x2x*:*x3x*:*_c1*:*_c2*:*4099*'
if ((SECONDS < 210)); then
  TS_FP32_C_STORE=staged timeout 30 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/fp32_best_test" \
    --gtest_filter="$filter" > "$R/fp32_memcheck_staged.log" 2>&1
  step fp32_memcheck_staged $?; grep -E "ERROR SUMMARY|PASSED|FAILED" "$R/fp32_memcheck_staged.log" | tail -n 3
fi
if ((SECONDS < 235)); then
  TS_FP32_C_STORE=staged timeout 25 compute-sanitizer --tool racecheck --error-exitcode 99 "$BIN/fp32_best_test" \
    --gtest_filter='*128x256_k16_131x133x301*:*64x64_k16_45x131x90*:*32x128_70x258x75*:*128x128_k16_67x260x77_b2_c2*' \
    > "$R/fp32_racecheck_staged.log" 2>&1
  step fp32_racecheck_staged $?; grep -E "RACECHECK SUMMARY|PASSED|FAILED" "$R/fp32_racecheck_staged.log" | tail -n 3
fi
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
