#!/usr/bin/env bash
# Call 105: B's rows off 16 bytes realigned in shared memory (kBRealigned, uncommitted, chosen by the override
# TS_FP32_B=realign | realign-always): each row copied as the aligned float4 around it (as kBShifted), then moved
# into its columns in place by the lanes that copied it (shuffles, no barrier), so the main loop's fragment loads
# are float4 as on aligned shapes and the tiles that copied words copy float4. One binary; fp32_best_test plain and
# with every B off 16 bytes realigned in place; fp32_tune --plan=rule at call 102's 156 shapes with n % 4 != 0:
# old (shipped), old in place (--b-in-place=always), realign (rule's padding), realign always in place, and the
# shapes with n rounded up to a multiple of 4; each in two processes, two rounds in turned order; memcheck and
# racecheck with realign-always.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/shapes.txt .gpu-pack/shapes_aligned.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 1 "$R/fp32_best_test.log"
TS_FP32_B=realign-always timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test_realign.log" 2>&1
step fp32_best_test_realign $?; tail -n 3 "$R/fp32_best_test_realign.log"
mapfile -t drawn < .gpu-pack/shapes.txt
mapfile -t aligned < .gpu-pack/shapes_aligned.txt
n=${#drawn[@]}
run_variant() {  # name round
  local -a args=(--plan=rule) list=("${drawn[@]}") envs=(TS_NONE=1)
  case $1 in
    oldin) args+=(--b-in-place=always) ;;
    re) envs=(TS_FP32_B=realign) ;;
    rein) envs=(TS_FP32_B=realign-always) ;;
    aligned) list=("${aligned[@]}") ;;
  esac
  for ((c = 0; c * 78 < n; ++c)); do
    if ((SECONDS > 400)); then echo "$1_$2_$c not started (past 400 s)" | tee -a "$R/steps.txt"; continue; fi
    env "${envs[@]}" timeout $((560 - SECONDS)) "$BIN/fp32_tune" "${list[@]:$((c * 78)):78}" "${args[@]}" \
      > "$R/$1_$2_$c.log" 2>&1
    step "$1_$2_$c" $?
  done
}
for v in old oldin re rein aligned; do run_variant $v 1; done
for v in aligned rein re oldin old; do run_variant $v 2; done
filter='*x131x*:*x133x*:*x29x*:*x2x*:*x3x*:*_c1*:*_c2*:*4099*:*_b1*:*_b3*:*x45x*:*x258x*'
if ((SECONDS < 430)); then
  TS_FP32_B=realign-always timeout 60 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/fp32_best_test" \
    --gtest_filter="$filter" > "$R/fp32_memcheck_realign.log" 2>&1
  step fp32_memcheck_realign $?; grep -E "ERROR SUMMARY|PASSED|FAILED" "$R/fp32_memcheck_realign.log" | tail -n 3
fi
if ((SECONDS < 500)); then
  TS_FP32_B=realign-always timeout 50 compute-sanitizer --tool racecheck --error-exitcode 99 "$BIN/fp32_best_test" \
    --gtest_filter='*128x256_k16_131x133x301*:*64x64_k16_45x131x90*:*32x128_70x258x75*:*128x128_k16_67x260x77_b2_c2*:*128x64_split_3_45x131x90*' \
    > "$R/fp32_racecheck_realign.log" 2>&1
  step fp32_racecheck_realign $?; grep -E "RACECHECK SUMMARY|PASSED|FAILED" "$R/fp32_racecheck_realign.log" | tail -n 3
fi
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
