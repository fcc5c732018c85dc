#!/usr/bin/env bash
# Call 117: tables for the 64x128 s8 cm2 variant's cost in the TF32 rule: tf32_ws_tune, every plan of every tile in
# pairs (the eight the rule weighs, the new one, the unruled), 10 runs, at the 67 shapes of shapes.txt: the 27 of the
# earlier tables (runs 40 and 42, call 74) and 40 of 405 of 20,000 drawn shapes whose pick the variant takes at a
# cost of 0.40 of a shipped k-tile.
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
mapfile -t S < .gpu-pack/shapes.txt
for i in 0 1 2; do
  left=$((330 - SECONDS)); ((left < 20)) && { echo "chunk $i not started" | tee -a "$R/steps.txt"; continue; }
  timeout "$left" "$BIN/tf32_ws_tune" "${S[@]:$((i * 23)):23}" --runs=10 --only=cn2 --only=cm2 > "$R/ws_tune_$i.log" 2>&1
  step "ws_tune $i" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
