#!/usr/bin/env bash
# Call 96: 4205967 with an experimental override of fp32-best's store of C where C's rows are off 16 bytes
# (TS_FP32_C_STORE=rows|staged; the rule stores rows on the tiles of several blocks an SM unsplit). fp32_tune
# --plan=rule at 100 drawn shapes with n % 4 != 0 (60 of calls 88-91's FP32 misses, 40 others), each store
# in alternating processes (rows, staged, rows, staged).
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/shapes.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
mapfile -t shapes < .gpu-pack/shapes.txt
for round in 1 2; do
  for store in rows staged; do
    for c in 0 1; do
      if ((SECONDS > 500)); then echo "${store}_${round}_$c not started (past 500 s)" | tee -a "$R/steps.txt"; continue; fi
      TS_FP32_C_STORE=$store timeout $((580 - SECONDS)) "$BIN/fp32_tune" "${shapes[@]:$((c * 50)):50}" --plan=rule \
        > "$R/${store}_${round}_$c.log" 2>&1
      step "${store}_${round}_$c" $?
    done
  done
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
