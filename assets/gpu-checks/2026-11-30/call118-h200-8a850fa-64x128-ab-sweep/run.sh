#!/usr/bin/env bash
# Call 118: the 64x128 s8 cm2 tile in the TF32 rule (cost 0.40). `tilescope bench --kernels tf32-wgmma-ws`, old
# (8a850fa) against new, alternating, two rounds, at 1024^3 and 44 freshly drawn shapes whose pick it takes (none
# timed before); the shipped sweep with the new binary (as assets/bench/h200.*); new seeds of the drawn-shape check
# while time is left.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin/new
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/shapes.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
mapfile -t shapes < <(sed 's/^/--shape=/' .gpu-pack/shapes.txt)
for round in 1 2; do
  order=(new old); ((round == 2)) && order=(old new)
  for v in "${order[@]}"; do
    timeout 60 "$PWD/.gpu-bin/$v/tilescope" bench --kernels tf32-wgmma-ws "${shapes[@]}" --runs 20 --no-ceilings \
      -o "$R/ab_${v}_$round.csv" > "$R/ab_${v}_$round.log" 2>&1
    step "ab ${v}_$round" $?
  done
done
mkdir -p "$R/sweep"
RESULTS=$R/sweep OUT=$R/sweep timeout 240 bash scripts/gpu-checks.d/80-bench-sweep.sh > "$R/sweep/80.log" 2>&1
step sweep $?; tail -n 16 "$R/sweep/80.log"
for s in $(seq 1 8); do
  if ((SECONDS > 330)); then echo "seed $s not started (past 330 s)" | tee -a "$R/steps.txt"; continue; fi
  mkdir -p "$R/fresh_$s"
  RESULTS="$R/fresh_$s" bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/fresh_$s/summary.txt" 2>&1
  step "fresh $(head -c 40 "$R/fresh_$s/summary.txt" | grep -o 'seed [0-9]*')" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
