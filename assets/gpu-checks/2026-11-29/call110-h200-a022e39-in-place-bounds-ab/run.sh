#!/usr/bin/env bash
# Call 110: the in-place bounds of run 44 (the 128x128 tile reads B off 16 bytes in place up to m = 2,048, the
# 64x64 tile up to 1,536; before, both 640), the picks unchanged. fp32_best_test (new); fp32_tune --plan=rule,
# old (a022e39) and new, at 88 fresh shapes with n % 4 != 0 whose in-place choice changes (seed 20261310, 60,000
# drawn: 44 of 107 such 128x128 picks, 44 of 568 such 64x64 ones), alternating, two rounds in turned order.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/shapes.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune_new" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 1 "$R/fp32_best_test.log"
mapfile -t shapes < .gpu-pack/shapes.txt
n=${#shapes[@]}
for round in 1 2; do
  order=(old new); ((round == 2)) && order=(new old)
  for v in "${order[@]}"; do
    for ((c = 0; c * 44 < n; ++c)); do
      if ((SECONDS > 300)); then echo "${v}_${round}_$c not started (past 300 s)" | tee -a "$R/steps.txt"; continue; fi
      timeout $((560 - SECONDS)) "$BIN/fp32_tune_$v" "${shapes[@]:$((c * 44)):44}" --plan=rule > "$R/${v}_${round}_$c.log" 2>&1
      step "${v}_${round}_$c" $?
    done
  done
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
