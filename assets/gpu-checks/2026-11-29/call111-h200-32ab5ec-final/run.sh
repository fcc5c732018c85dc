#!/usr/bin/env bash
# Call 111: the final code (32ab5ec; its kernels and rule are 9bf5ec3's): ladder_test, fp32_best_test, the
# drawn-shape check (82-bench-fresh-shapes.sh, 40 shapes a seed) on 16 new seeds; and a lead for the in-place
# bounds of the other tiles: fp32_tune --plan=rule, B in place and padded at every m, alternating, twice, at 48
# fresh shapes with n % 4 != 0 (seeds 20261300 and 20261310): 30 picks of the 32x128 tile at m 257-640 and 18 of
# the 64x128 and 128x64 tiles at m 257-2048.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/shapes.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 60 "$BIN/ladder_test" > "$R/ladder_test.log" 2>&1; step ladder_test $?; tail -n 1 "$R/ladder_test.log"
timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 1 "$R/fp32_best_test.log"
mapfile -t shapes < .gpu-pack/shapes.txt
for round in 1 2; do
  order=(in pad); ((round == 2)) && order=(pad in)
  for v in "${order[@]}"; do
    arg=--b-in-place=always; [[ $v == pad ]] && arg=--b-in-place=never
    timeout 60 "$BIN/fp32_tune" "${shapes[@]}" --plan=rule $arg > "$R/${v}_${round}_0.log" 2>&1
    step "${v}_${round}" $?
  done
done
for s in $(seq 1 16); do
  if ((SECONDS > 420)); then echo "seed $s not started (past 420 s)" | tee -a "$R/steps.txt"; continue; fi
  mkdir -p "$R/fresh_$s"
  RESULTS="$R/fresh_$s" bash scripts/gpu-checks.d/82-bench-fresh-shapes.sh > "$R/fresh_$s/summary.txt" 2>&1
  step "fresh $(head -c 40 "$R/fresh_$s/summary.txt" | grep -o 'seed [0-9]*')" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
