#!/usr/bin/env bash
# Call 52: the rule weighing the 128x128 and 64x64 tiles (run 37's model, fitted to calls 49 and 51): the pick
# before and after at 66 shapes (56 drawn at random from the 3,722 of 6,000 drawn-like shapes whose pick changes,
# and 10 the rule's tests name), stream-k of the four earlier tiles again at the 40 shapes of call 49 (its stream-k
# was the persistent kernel, since reverted), and two new seeds of the drawn-shape check.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
cp .gpu-pack/ab_picks.tsv "$R/"
while IFS=$'\t' read -r shape old new; do
  plans=(--plan="$old"); [[ $new != "$old" ]] && plans+=(--plan="$new")
  timeout 60 "$BIN/fp32_tune" "$shape" "${plans[@]}" --runs=10 | grep -v "^NVIDIA" >> "$R/ab_picks.log"
done < .gpu-pack/ab_picks.tsv
step ab_picks $?
mapfile -t SHAPES < .gpu-pack/tune_shapes.txt
timeout 200 "$BIN/fp32_tune" "${SHAPES[@]}" --plan="128x256 stream-k" --plan="64x128 stream-k" --plan="128x64 stream-k" \
  --plan="128x256 k16 stream-k" --runs=10 > "$R/fp32_tune_sk.log" 2>&1
step tune_sk $?
for i in 1 2; do
  seed=$(( $(date +%s) + i * 7919 ))
  mkdir -p "$R/seed-$seed"
  RESULTS=$R/seed-$seed FRESH_SEED=$seed timeout 90 bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/seed-$seed/82.log" 2>&1
  step "seed $seed" $?; tail -n 4 "$R/seed-$seed/82.log"
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
