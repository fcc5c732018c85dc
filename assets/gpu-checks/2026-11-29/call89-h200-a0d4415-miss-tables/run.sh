#!/usr/bin/env bash
# Call 89: a0d4415. tf32_ws_tune: every plan of the eight tiles the rule weighs (data-parallel, stream-k, the tail
# split, split-k) at the 31 drawn shapes of calls 73, 76, 85 and 88 where tf32-wgmma-ws ran under 92% of cuBLAS TF32
# and no table had them, then at 30 freshly drawn shapes (seed 20261201, the drawn-shape check's draw).
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/shapes.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tf32_ws_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
ONLY=()
for t in "256x128 s4 g8 cn2" "128x256 s4 g8 cn2" "128x128 s6 g8 cn2" "128x128 s6 g8 cm2" "192x128 s4 g8 cn2" \
         "128x192 s4 g8 cm2" "128x64 s4 g8 cm2 2/sm" "64x128 s4 g8 cn2 2/sm"; do ONLY+=(--only="$t"); done
mapfile -t shapes < .gpu-pack/shapes.txt
for c in 0 1 2 3 4 5 6; do
  ((c * 10 >= ${#shapes[@]})) && break
  if ((SECONDS > 520)); then echo "chunk $c not started (past 520 s)" | tee -a "$R/steps.txt"; continue; fi
  timeout $((585 - SECONDS)) "$BIN/tf32_ws_tune" "${shapes[@]:$((c * 10)):10}" --runs=10 "${ONLY[@]}" \
    --skip="2/sm tail" --skip="grid=tiles" > "$R/ws_tune_$c.log" 2>&1
  step "ws_tune_$c" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
