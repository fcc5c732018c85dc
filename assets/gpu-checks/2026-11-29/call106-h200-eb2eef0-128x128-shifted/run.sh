#!/usr/bin/env bash
# Call 106: the 128x128 k16 tile reads B off 16 bytes as words (4-byte cp.async); in place at 485x1937x1181
# split 4 and 491x1307x3618 split 6 it ran 13 points behind its padded copy (calls 102, 105), where other tiles'
# in place ran ahead. Override TS_FP32_128_SHIFTED (uncommitted): that tile copies B shifted instead (float4 around
# each row, as the other tiles but 128x256). fp32_best_test plain and with the override; fp32_tune --plan=rule at
# the 108 of call 99's 444 shapes whose pick is the 128x128 tile: shipped, shifted, each also with B in place at
# every m, and n rounded up to a multiple of 4, two processes a variant, two rounds in turned order; memcheck of
# the 128x128 cases shifted; Nsight Compute at 491x1307x3618 split 6: words in place, padded, shifted in place.
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
TS_FP32_128_SHIFTED=1 timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test_shifted.log" 2>&1
step fp32_best_test_shifted $?; tail -n 1 "$R/fp32_best_test_shifted.log"
mapfile -t drawn < .gpu-pack/shapes.txt
mapfile -t aligned < .gpu-pack/shapes_aligned.txt
n=${#drawn[@]}
run_variant() {  # name round
  local -a args=(--plan=rule) list=("${drawn[@]}") envs=(TS_NONE=1)
  case $1 in
    oldin) args+=(--b-in-place=always) ;;
    sh) envs=(TS_FP32_128_SHIFTED=1) ;;
    shin) envs=(TS_FP32_128_SHIFTED=1); args+=(--b-in-place=always) ;;
    aligned) list=("${aligned[@]}") ;;
  esac
  for ((c = 0; c * 54 < n; ++c)); do
    if ((SECONDS > 330)); then echo "$1_$2_$c not started (past 330 s)" | tee -a "$R/steps.txt"; continue; fi
    env "${envs[@]}" timeout $((560 - SECONDS)) "$BIN/fp32_tune" "${list[@]:$((c * 54)):54}" "${args[@]}" \
      > "$R/$1_$2_$c.log" 2>&1
    step "$1_$2_$c" $?
  done
}
for v in old sh oldin shin aligned; do run_variant $v 1; done
for v in aligned shin oldin sh old; do run_variant $v 2; done
if ((SECONDS < 360)); then
  TS_FP32_128_SHIFTED=1 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/fp32_best_test" \
    --gtest_filter='*128x128*' > "$R/fp32_memcheck_shifted.log" 2>&1
  step fp32_memcheck_shifted $?; grep -E "ERROR SUMMARY|PASSED|FAILED" "$R/fp32_memcheck_shifted.log" | tail -n 3
fi
for v in words padded shifted; do
  if ((SECONDS > 500)); then echo "ncu $v not started" | tee -a "$R/steps.txt"; continue; fi
  envs=(TS_NONE=1); inp=--b-in-place=always
  [[ $v == padded ]] && inp=--b-in-place=never
  [[ $v == shifted ]] && envs=(TS_FP32_128_SHIFTED=1)
  env "${envs[@]}" timeout $((585 - SECONDS)) ncu --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section LaunchStats --section Occupancy -k 'regex:fp32_any' --launch-count 1 \
    "$BIN/fp32_tune" 491x1307x3618 --plan="128x128 k16 split 6" $inp --runs=3 > "$R/ncu_$v.txt" 2>&1
  step "ncu $v" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
