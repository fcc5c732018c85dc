#!/usr/bin/env bash
# Call 61: the words cost of the 32x128 tile apart from the 64x64 tile's (words_32 = 1.3): fp32_tune, every plan of the
# seven tiles (unsplit, split 2-8, stream-k), at 14 of call 60's worst drawn shapes (`tune_shapes.txt`); then the
# drawn-shape check with call 60's last seed (267x1679x4607 at 46.5% there) and two new ones.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/tune_shapes.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
PLANS=()
for t in "128x256" "64x128" "128x256 k16" "128x64" "128x128 k16" "64x64 k16" "32x128"; do
  PLANS+=(--plan="$t" --plan="$t stream-k")
  for s in 2 3 4 5 6 7 8; do PLANS+=(--plan="$t split $s"); done
done
mapfile -t SHAPES < .gpu-pack/tune_shapes.txt
timeout 150 "$BIN/fp32_tune" "${SHAPES[@]}" "${PLANS[@]}" --runs=10 > "$R/fp32_tune.log" 2>&1
step tune $?
for seed in 1795960453 $(( $(date +%s) + 7919 )) $(( $(date +%s) + 15838 )); do
  mkdir -p "$R/seed-$seed"
  RESULTS=$R/seed-$seed FRESH_SEED=$seed timeout 90 bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/seed-$seed/82.log" 2>&1
  step "seed $seed" $?; tail -n 4 "$R/seed-$seed/82.log"
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
