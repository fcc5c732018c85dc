#!/usr/bin/env bash
# Call 56: the refit rule (as call 55): ladder_test and bench_runner_test (left out of call 55 by
# the tree limit), and the drawn-shape check again with call 53's two seeds, the same 80 shapes as the rule before.
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
for t in ladder_test bench_runner_test; do
  timeout 60 "$BIN/$t" > "$R/$t.log" 2>&1; step "$t" $?; tail -n 1 "$R/$t.log"
done
for seed in 1795942234 1795950161; do
  mkdir -p "$R/seed-$seed"
  RESULTS=$R/seed-$seed FRESH_SEED=$seed timeout 90 bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/seed-$seed/82.log" 2>&1
  step "seed $seed" $?; tail -n 4 "$R/seed-$seed/82.log"
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
