#!/usr/bin/env bash
# Call 113: the shipped sweep (scripts/gpu-checks.d/80-bench-sweep.sh) with the code of d8167cc (the padded copies
# of call 112), to ship as assets/bench/h200.{json,csv}; then new seeds of the drawn-shape check while time is left.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin/new
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
mkdir -p "$R/sweep"
RESULTS=$R/sweep timeout 400 bash scripts/gpu-checks.d/80-bench-sweep.sh > "$R/sweep/80.log" 2>&1
step sweep $?; tail -n 30 "$R/sweep/80.log"
for s in $(seq 1 8); do
  if ((SECONDS > 330)); then echo "seed $s not started (past 330 s)" | tee -a "$R/steps.txt"; continue; fi
  mkdir -p "$R/fresh_$s"
  RESULTS="$R/fresh_$s" bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/fresh_$s/summary.txt" 2>&1
  step "fresh $(head -c 40 "$R/fresh_$s/summary.txt" | grep -o 'seed [0-9]*')" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
