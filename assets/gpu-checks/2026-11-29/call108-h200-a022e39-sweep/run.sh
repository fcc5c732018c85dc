#!/usr/bin/env bash
# Call 108: the shipped sweep (scripts/gpu-checks.d/80-bench-sweep.sh) with the code of a022e39 (runs 41-44's
# kernels and rules), to ship as assets/bench/h200.{json,csv}.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin/new
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
mkdir -p "$R/sweep"
RESULTS=$R/sweep timeout 560 bash scripts/gpu-checks.d/80-bench-sweep.sh > "$R/sweep/80.log" 2>&1
step sweep $?; tail -n 30 "$R/sweep/80.log"
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
