#!/usr/bin/env bash
# Call 74: tables for tf32-wgmma-ws's rule at the 400 shapes of the drawn-shape checks of calls 68, 70 and 73
# (lowest share of cuBLAS TF32 first): every plan of the eight tiles the rule weighs (data-parallel, stream-k,
# the tail split, split-k), in chunks of 50 shapes while time is left. Binary of 53b330e.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/draw_shapes.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tf32_ws_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
ONLY=()
for t in "256x128 s4 g8 cn2" "128x256 s4 g8 cn2" "128x128 s6 g8 cn2" "128x128 s6 g8 cm2" "192x128 s4 g8 cn2" \
         "128x192 s4 g8 cm2" "128x64 s4 g8 cm2 2/sm" "64x128 s4 g8 cn2 2/sm"; do ONLY+=(--only="$t"); done
mapfile -t shapes < .gpu-pack/draw_shapes.txt
for c in 0 1 2 3 4 5 6 7; do
  if ((SECONDS > 400)); then echo "chunk $c not started (past 400 s)" | tee -a "$R/steps.txt"; continue; fi
  timeout $((470 - SECONDS)) "$BIN/tf32_ws_tune" "${shapes[@]:$((c * 50)):50}" --runs=10 "${ONLY[@]}" \
    --skip="2/sm tail" --skip="grid=tiles" > "$R/ws_tune_draws_$c.log" 2>&1
  step "ws_tune_draws_$c" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
