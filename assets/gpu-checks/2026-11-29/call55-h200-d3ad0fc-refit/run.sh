#!/usr/bin/env bash
# Call 55: the rule refitted with call 54 (HEAD): fp32_best_test (the tree limit left the other tests out);
# the pick of c1db921 and of the refit at 41 shapes (40 drawn at random from the drawn-like
# shapes whose pick the refit changes, none fitted to, and 6426x1181x377); two new seeds of the
# drawn-shape check; the sweep, to ship as assets/bench/h200.{json,csv}.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
for t in fp32_best_test; do
  timeout 200 "$BIN/$t" > "$R/$t.log" 2>&1; step "$t" $?; tail -n 1 "$R/$t.log"
done
cp .gpu-pack/ab_picks3.tsv "$R/ab_picks.tsv"
while IFS=$'\t' read -r shape old new; do
  timeout 60 "$BIN/fp32_tune" "$shape" --plan="$old" --plan="$new" --runs=10 | grep -v "^NVIDIA" >> "$R/ab_picks.log"
done < .gpu-pack/ab_picks3.tsv
step ab_picks $?
for i in 1 2; do
  seed=$(( $(date +%s) + i * 7919 ))
  mkdir -p "$R/seed-$seed"
  RESULTS=$R/seed-$seed FRESH_SEED=$seed timeout 90 bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/seed-$seed/82.log" 2>&1
  step "seed $seed" $?; tail -n 4 "$R/seed-$seed/82.log"
done
mkdir -p "$R/sweep"
RESULTS=$R/sweep OUT=$R/sweep timeout 240 bash scripts/gpu-checks.d/80-bench-sweep.sh > "$R/80.log" 2>&1
step sweep $?; tail -n 16 "$R/80.log"
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
