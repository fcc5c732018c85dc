#!/usr/bin/env bash
# Call 84: the code commit f4690f7 (fp32-best's rule with the cost of a split's adds and run 38's exception
# narrowed): fp32_best_test; the rule's pick at call 80's three draws of 40 and three new ones (fp32_tune
# --plan=rule: alternating with cuBLAS SGEMM, the L2 overwritten before every run, as `tilescope bench` times it).
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/draws.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 1 "$R/fp32_best_test.log"
grep -E "^\[  FAILED" "$R/fp32_best_test.log" | head
while read -r seed shapes; do
  if ((SECONDS > 420)); then echo "draw $seed not started (past 420 s)" | tee -a "$R/steps.txt"; continue; fi
  read -r -a list <<< "$shapes"
  timeout $((560 - SECONDS)) "$BIN/fp32_tune" "${list[@]}" --plan=rule > "$R/draw_$seed.log" 2>&1
  step "draw_$seed" $?
done < .gpu-pack/draws.txt
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
