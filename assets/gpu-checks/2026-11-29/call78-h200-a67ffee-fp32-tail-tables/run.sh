#!/usr/bin/env bash
# Call 78: fp32-best's tail split and for_each_piece walking a PieceWalk (working tree on a67ffee, not yet
# committed): fp32_best_test (tail cases of every tile), tf32_wgmma_ws_test; memcheck and racecheck
# on fp32-best's tail cases; and fp32_tune tables of every tile unsplit, split 2-8, stream-k and tail 2-16 at 34 shapes
# (call 76's misses and six controls).
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
finish() { cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results; }

# (ladder_test left out: the carried binaries must stay under the size limit)
timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1
rc=$?; step fp32_best_test $rc; tail -n 1 "$R/fp32_best_test.log"; grep -E "^\[  FAILED" "$R/fp32_best_test.log" | head
if ((rc == 124 || rc == 137)); then echo "fp32_best_test hung: nothing else run" | tee -a "$R/steps.txt"; finish; exit 0; fi
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/fp32_best_test" --gtest_filter='*tail*' \
  > "$R/fp32_memcheck.log" 2>&1
step fp32_memcheck $?; grep -E "ERROR SUMMARY|PASSED|FAILED" "$R/fp32_memcheck.log" | tail -n 3
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 99 "$BIN/fp32_best_test" \
  --gtest_filter='*tail_16_*x70:*tail_3_*x70' > "$R/fp32_racecheck.log" 2>&1
step fp32_racecheck $?; grep -E "RACECHECK SUMMARY|PASSED|FAILED" "$R/fp32_racecheck.log" | tail -n 3
timeout 130 "$BIN/tf32_wgmma_ws_test" > "$R/tf32_wgmma_ws_test.log" 2>&1
rc=$?; step tf32_wgmma_ws_test $rc; tail -n 1 "$R/tf32_wgmma_ws_test.log"; grep -E "^\[  FAILED" "$R/tf32_wgmma_ws_test.log" | head

PLANS=()
for t in "128x256" "64x128" "128x256 k16" "128x64" "128x128 k16" "64x64 k16" "32x128"; do
  PLANS+=(--plan="$t")
  for s in 2 3 4 6 8; do PLANS+=(--plan="$t split $s"); done
  PLANS+=(--plan="$t stream-k")
  for s in 2 3 4 6 8 16; do PLANS+=(--plan="$t tail $s"); done
done
PLANS+=(--plan=rule)
GROUPS_=("1920x5632x640 3072x1152x3712 4140x3564x876 6296x4004x804 752x2712x544 800x3056x2416"
         "564x2248x5508 692x5952x4164 2560x5888x1152 3044x532x5720 1304x744x3648 4096x4096x4096"
         "3899x479x626 1478x2793x296 2019x1819x317 2213x3367x148 3566x3335x225 665x5634x424"
         "3693x5669x270 2925x2834x213 4203x5513x426 4406x6005x146 6274x6090x150 2048x2048x2048"
         "172x5521x4628 646x383x5643 5625x174x3948 1680x329x5876 2749x365x4005 1309x370x4957"
         "3000x5000x2000 1024x1024x1024 8192x8192x1024 3001x4097x2999")
for g in "${!GROUPS_[@]}"; do
  if ((SECONDS > 530)); then echo "fp32 tables group $g not started (past 530 s)" | tee -a "$R/steps.txt"; continue; fi
  read -r -a shapes <<< "${GROUPS_[$g]}"
  timeout $((570 - SECONDS)) "$BIN/fp32_tune" "${shapes[@]}" --runs=10 "${PLANS[@]}" > "$R/fp32_tune_$g.log" 2>&1
  step "fp32_tune_$g" $?
done
finish
