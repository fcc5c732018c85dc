#!/usr/bin/env bash
# Call 116: two new tf32-wgmma-ws variants, 64x128 of two consumers, 8 stages, in pairs along n (cn2) or m (cm2),
# cuBLAS TF32's tile at 1024^3 (call 115). tf32_wgmma_ws_test (every variant), memcheck of the new variants' cases
# and racecheck of a few; tf32_ws_tune, every plan of the two beside the rule's pick, at 20 shapes (1024^3, the
# aligned misses of calls 111-114 at small C, and large shapes for the variants' cost).
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tf32_ws_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 150 "$BIN/tf32_wgmma_ws_test" > "$R/tf32_wgmma_ws_test.log" 2>&1; step tf32_wgmma_ws_test $?
tail -n 1 "$R/tf32_wgmma_ws_test.log"
S=(1024x1024x1024 896x1152x1792 1408x512x2176 1536x512x2176 512x1536x1408 1084x1292x1992 584x1988x2620
  1836x772x2880 1280x1280x1280 1152x1152x1152 768x768x4096 2048x2048x2048 4096x4096x4096 1024x4096x4096
  4096x1024x4096 2712x3676x208 1668x5776x556 3340x3864x672 4240x1524x4596 3072x768x5248)
timeout 200 "$BIN/tf32_ws_tune" "${S[@]}" --runs=20 --only="64x128 s8" --only=rule > "$R/ws_tune.log" 2>&1
step ws_tune $?
timeout 150 compute-sanitizer --tool memcheck "$BIN/tf32_wgmma_ws_test" --gtest_filter='*64x128_s8*' \
  > "$R/memcheck.log" 2>&1; step memcheck $?; tail -n 2 "$R/memcheck.log"
timeout 100 compute-sanitizer --tool racecheck "$BIN/tf32_wgmma_ws_test" \
  --gtest_filter='*64x128_s8_g8_c?2_515x260x1028_grid6*:*64x128_s8_g8_c?2_1500x700x3001_sk' > "$R/racecheck.log" 2>&1
step racecheck $?; tail -n 2 "$R/racecheck.log"
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
