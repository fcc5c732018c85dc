#!/usr/bin/env bash
# Call 46: tf32_ws_tune, every plan of the 8 tiles tf32-wgmma-ws's rule weighs, at the 10 shapes where the draws of
# calls 40-44 had it lowest (n of 255 to 954 mostly): a table for its rule, measured only (binary of d76388c).
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tf32_ws_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
ONLY=()
for t in "256x128 s4 g8 cn2" "128x256 s4 g8 cn2" "128x128 s6 g8 cn2" "128x128 s6 g8 cm2" "192x128 s4 g8 cn2" \
         "128x192 s4 g8 cm2" "128x64 s4 g8 cm2 2/sm" "64x128 s4 g8 cn2 2/sm"; do ONLY+=(--only="$t"); done
timeout 200 "$BIN/tf32_ws_tune" 1004x255x5849 3840x256x3456 1188x696x2552 379x954x6123 1920x512x2048 \
  1602x279x5123 3072x256x2176 1116x330x5042 4312x5916x6008 6156x716x5456 --runs=10 "${ONLY[@]}" \
  > "$R/ws_tune_narrow.log" 2>&1
echo "tune rc=$? at ${SECONDS}s" | tee -a "$R/steps.txt"; tail -n 15 "$R/ws_tune_narrow.log"
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
