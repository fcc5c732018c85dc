#!/usr/bin/env bash
# Call 98: 634cd11 (the final code: run 42's TF32 rule and the 128x128 tile's store of C): fp32_best_test,
# ladder_test; the drawn-shape check through tilescope bench on new seeds.
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
timeout 60 "$BIN/ladder_test" > "$R/ladder_test.log" 2>&1; step ladder_test $?; tail -n 1 "$R/ladder_test.log"
timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 1 "$R/fp32_best_test.log"
for s in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
  if ((SECONDS > 200)); then echo "seed $s not started (past 200 s)" | tee -a "$R/steps.txt"; continue; fi
  mkdir -p "$R/fresh_$s"
  RESULTS="$R/fresh_$s" bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/fresh_$s/summary.txt" 2>&1
  step "fresh $(head -c 40 "$R/fresh_$s/summary.txt" | grep -o 'seed [0-9]*')" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
