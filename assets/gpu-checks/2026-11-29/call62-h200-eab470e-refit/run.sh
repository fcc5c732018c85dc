#!/usr/bin/env bash
# Call 62: a second refit (run 38's rule, the constants searched again with calls 60 and 61's tables added, stream-k's
# whole rounds kept at 1.05): the pick of call 61's rule and of this one at 40 shapes drawn from the 645 of 3,000
# whose pick it changes (`ab_shapes.tsv`: shape, call 61's pick); the drawn-shape check with four seeds of calls 60-61.
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
while IFS=$'\t' read -r shape old; do
  timeout 60 "$BIN/fp32_tune" "$shape" --plan=rule --plan="$old" --runs=10 | grep -v "^NVIDIA" >> "$R/ab_picks.log"
done < .gpu-pack/ab_shapes.tsv
step ab_picks $?
for seed in 1795953016 1795960935 1795960453 1795943141; do
  mkdir -p "$R/seed-$seed"
  RESULTS=$R/seed-$seed FRESH_SEED=$seed timeout 90 bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/seed-$seed/82.log" 2>&1
  step "seed $seed" $?; tail -n 4 "$R/seed-$seed/82.log"
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
