#!/usr/bin/env bash
# Call 87: bf3648c (ws::kTailPieces and ws::stream_k_schedule shared by both kernels' launches and rules):
# fp32_best_test and tf32_wgmma_ws_test.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 1 "$R/fp32_best_test.log"
timeout 150 "$BIN/tf32_wgmma_ws_test" > "$R/tf32_wgmma_ws_test.log" 2>&1; step tf32_wgmma_ws_test $?
tail -n 1 "$R/tf32_wgmma_ws_test.log"; grep -E "^\[  FAILED" "$R/fp32_best_test.log" "$R/tf32_wgmma_ws_test.log" | head
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
