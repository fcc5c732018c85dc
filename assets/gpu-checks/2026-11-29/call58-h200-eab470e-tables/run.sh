#!/usr/bin/env bash
# Call 58: fp32-best with 64x64 over k-tiles of 16 (in place of its k32 twin) and 32x128 (five blocks an SM), both
# ruled, the rule's constants for them guessed: fp32_best_test, then fp32_tune tables of every plan the rule can pick
# (each tile unsplit, split 2 to 8, stream-k) at 151 shapes (call 57's 31, 96 drawn as the bench draws, 24 more skinny
# ones), for fp32_rule_fit --fit.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/tune_shapes.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 100 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 3 "$R/fp32_best_test.log"
PLANS=()
for t in "128x256" "64x128" "128x256 k16" "128x64" "128x128 k16" "64x64 k16" "32x128"; do
  PLANS+=(--plan="$t" --plan="$t stream-k")
  for s in 2 3 4 5 6 7 8; do PLANS+=(--plan="$t split $s"); done
done
mapfile -t SHAPES < .gpu-pack/tune_shapes.txt
n=${#SHAPES[@]}; third=$(( (n + 2) / 3 ))
for i in 0 1 2; do
  timeout 165 "$BIN/fp32_tune" "${SHAPES[@]:$((i * third)):$third}" "${PLANS[@]}" --runs=10 > "$R/fp32_tune_$i.log" 2>&1
  step "tune$i" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
