#!/usr/bin/env bash
# Call 73: c12d4c7 (the tail split in tf32-wgmma-ws's rule, tail_step and partial set from call 72):
# the drawn-shape check on the eight seeds of calls 68 and 70 (tf32-wgmma-ws under 90% at 11 of 320 there) and
# two new ones; the sweep, to ship as assets/bench/h200.{json,csv}.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
now=$(date +%s)
for seed in 1795943141 1795953016 1795960453 1795960876 1796057686 1795962726 1796059536 1797254516 \
            $((now + 7919)) $((now + 104729)); do
  mkdir -p "$R/seed-$seed"
  RESULTS=$R/seed-$seed FRESH_SEED=$seed timeout 60 bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/seed-$seed/82.log" 2>&1
  step "seed $seed" $?; tail -n 2 "$R/seed-$seed/82.log"
done
mkdir -p "$R/sweep"
RESULTS=$R/sweep timeout $((590 - SECONDS)) bash scripts/gpu-checks.d/80-bench-sweep.sh > "$R/sweep/80.log" 2>&1
step sweep $?; tail -n 25 "$R/sweep/80.log"
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
