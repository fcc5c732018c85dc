#!/usr/bin/env bash
# Call 59: the rule refitted to call 58's tables (64x64 k16 and 32x128 ruled), at the 46 shapes fp32-best's rule
# tests and the sweep name: fp32_tune of the pick before (eab470e's rule), the new pick, and ten plans beside them;
# then the drawn-shape check with two seeds measured before (call 55: 10 misses of 40, call 56: 5).
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/ab_shapes.tsv "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
STD=("128x256" "128x256 k16" "128x128 k16" "128x128 k16 stream-k" "64x128" "128x64" "64x64 k16" "64x64 k16 stream-k"
     "32x128" "32x128 stream-k")
while IFS=$'\t' read -r shape old; do
  P=(--plan=rule)
  [ "$old" != "64x64" ] && [ "$old" != "64x64 stream-k" ] && P+=(--plan="$old")
  for p in "${STD[@]}"; do [ "$p" != "$old" ] && P+=(--plan="$p"); done
  timeout 60 "$BIN/fp32_tune" "$shape" "${P[@]}" --runs=10 | grep -v "^NVIDIA" >> "$R/ab_picks.log"
done < .gpu-pack/ab_shapes.tsv
step ab_picks $?
for seed in 1795943141 1795942234; do
  mkdir -p "$R/seed-$seed"
  RESULTS=$R/seed-$seed FRESH_SEED=$seed timeout 90 bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/seed-$seed/82.log" 2>&1
  step "seed $seed" $?; tail -n 4 "$R/seed-$seed/82.log"
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
