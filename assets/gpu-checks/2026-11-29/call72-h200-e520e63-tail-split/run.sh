#!/usr/bin/env bash
# Call 72: the tail split (tf32-wgmma-ws: the last partial round's units cut into equal pieces of k, finished in
# the kernel), built before it is committed: tf32_wgmma_ws_test (every variant, the new tail cases), memcheck and
# racecheck on tail cases, and tables for the rule: every data-parallel, stream-k and tail plan of the six tiles of
# one CTA an SM at 22 shapes (the large TF32 misses of calls 63-70 and neighbours), and every tail plan at run 35's
# 274 shapes.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/tail_shapes.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tf32_ws_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
finish() { cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results; }

timeout 120 "$BIN/tf32_wgmma_ws_test" > "$R/tf32_wgmma_ws_test.log" 2>&1
rc=$?; step tf32_wgmma_ws_test $rc; tail -n 3 "$R/tf32_wgmma_ws_test.log"
grep -E "^\[  FAILED" "$R/tf32_wgmma_ws_test.log" | head -20
if ((rc == 124 || rc == 137)); then echo "the test hung: nothing else run" | tee -a "$R/steps.txt"; finish; exit 0; fi

F='*/256x128_s4_g8_cn2_*_tail8:*/128x128_s6_g8_cm2_*_tail8:*/128x192_s4_g8_cm2_*_tail8:*/192x128_s4_g8_cn2_1500x700x3001_tail4'
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 "$BIN/tf32_wgmma_ws_test" --gtest_filter="$F" \
  > "$R/sanitizer_memcheck.log" 2>&1
step memcheck $?; grep -E "ERROR SUMMARY|PASSED|FAILED" "$R/sanitizer_memcheck.log" | tail -n 3
F='*/256x128_s4_g8_cn2_130x132x68_*_tail8:*/256x128_s4_g8_cn2_515x260x1028_*_tail8:*/128x192_s4_g8_cm2_300x520x999_*_tail8:*/128x128_s6_g8_cn2_257x129x33_*_tail8'
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 99 "$BIN/tf32_wgmma_ws_test" --gtest_filter="$F" \
  > "$R/sanitizer_racecheck.log" 2>&1
step racecheck $?; grep -E "RACECHECK SUMMARY|PASSED|FAILED" "$R/sanitizer_racecheck.log" | tail -n 3

TILES=(--only="256x128 s4 g8 cn2" --only="128x256 s4 g8 cn2" --only="128x128 s6 g8 cn2" --only="128x128 s6 g8 cm2"
       --only="192x128 s4 g8 cn2" --only="128x192 s4 g8 cm2")
timeout 150 "$BIN/tf32_ws_tune" 1352x3820x5648 3592x6356x4804 4500x4724x5856 5888x1792x6272 6032x1516x6300 \
  3608x3508x5564 8192x8192x8192 4096x4096x4096 5000x5000x5000 6144x6144x6144 3000x5000x2000 2304x6392x4704 \
  5892x4036x5876 1280x1536x5632 4116x4588x3436 876x2000x2268 316x1340x2928 1024x1024x1024 128x4096x4096 \
  2048x2048x2048 4086x183x4349 3468x4844x320 --runs=10 "${TILES[@]}" --skip=split --skip="2/sm" > "$R/ws_tune_large.log" 2>&1
step ws_tune_large $?; tail -n 4 "$R/ws_tune_large.log" | cut -c1-200

TAILS=()
for t in "256x128 s4 g8 cn2" "128x256 s4 g8 cn2" "128x128 s6 g8 cn2" "128x128 s6 g8 cm2" "192x128 s4 g8 cn2" \
         "128x192 s4 g8 cm2"; do TAILS+=(--only="$t tail"); done
mapfile -t shapes < .gpu-pack/tail_shapes.txt
for c in 0 1 2 3; do
  if ((SECONDS > 480)); then echo "tails chunk $c not started (past 480 s)" | tee -a "$R/steps.txt"; continue; fi
  chunk=("${shapes[@]:$((c * 69)):69}")
  timeout $((560 - SECONDS)) "$BIN/tf32_ws_tune" "${chunk[@]}" --runs=10 "${TAILS[@]}" > "$R/ws_tune_tails_$c.log" 2>&1
  step "ws_tune_tails_$c" $?
done
finish
