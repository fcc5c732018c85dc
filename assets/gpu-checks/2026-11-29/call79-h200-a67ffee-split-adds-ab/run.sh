#!/usr/bin/env bash
# Call 79: fp32-best's rule with a split's adds costing more where C passes 1024 x 1024 cells (split_adds_past_1m),
# and the tail split as a plan fp32_tune times (working tree on a67ffee; for_each_piece as at a67ffee):
# fp32_best_test, ladder_test, memcheck on the tail cases; the pick before (split_adds_past_1m = 0) and after at
# 40 shapes drawn as the drawn-shape check draws them (seed 1796101234, 3,000 drawn, 294 of them changed) and at
# the 42 shapes of call 76's ten draws whose pick changes, both plans timed by fp32_tune in one process a pair.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/ab_groups.txt .gpu-pack/ab_fresh.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
finish() { cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results; }

timeout 60 "$BIN/ladder_test" > "$R/ladder_test.log" 2>&1; step ladder_test $?; tail -n 1 "$R/ladder_test.log"
timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1
rc=$?; step fp32_best_test $rc; tail -n 1 "$R/fp32_best_test.log"; grep -E "^\[  FAILED" "$R/fp32_best_test.log" | head
if ((rc == 124 || rc == 137)); then echo "fp32_best_test hung: nothing else run" | tee -a "$R/steps.txt"; finish; exit 0; fi
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/fp32_best_test" --gtest_filter='*tail*:*stream_k*' \
  > "$R/fp32_memcheck.log" 2>&1
step fp32_memcheck $?; grep -E "ERROR SUMMARY|PASSED|FAILED" "$R/fp32_memcheck.log" | tail -n 3

g=0
while IFS='|' read -r before after shapes; do
  if ((SECONDS > 540)); then echo "a/b group $g not started (past 540 s)" | tee -a "$R/steps.txt"; g=$((g + 1)); continue; fi
  read -r -a list <<< "$shapes"
  timeout $((580 - SECONDS)) "$BIN/fp32_tune" "${list[@]}" --plan="$before" --plan="$after" > "$R/ab_$g.log" 2>&1
  step "ab_$g" $?
  g=$((g + 1))
done < .gpu-pack/ab_groups.txt
finish
