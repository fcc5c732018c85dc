#!/usr/bin/env bash
# Call 77: the final commit 40657e5 (tail_schedule's remainder written plainly): tf32_wgmma_ws_test (every variant,
# the tail cases), fp32_best_test and ladder_test.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/ladder_test" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
for t in ladder_test fp32_best_test tf32_wgmma_ws_test; do
  timeout 150 "$BIN/$t" > "$R/$t.log" 2>&1; step "$t" $?; tail -n 1 "$R/$t.log"
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
