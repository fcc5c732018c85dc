#!/usr/bin/env bash
# Call 95: 4205967 (fp32_tune of call 92). Nsight Compute's source page of fp32-best's 128x128 k16 kernel at
# 2138x3897x302: the stall samples of each SASS instruction (where call 94's long-scoreboard stalls sit).
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 200 ncu --section SourceCounters --section WarpStateStats -k 'regex:fp32_any' --launch-count 1 \
  --page source --print-source sass --csv "$BIN/fp32_tune" 2138x3897x302 --plan="128x128 k16" --runs=3 \
  > "$R/ncu_source_2138x3897x302.csv" 2> "$R/ncu_source.err"
step "ncu source" $?
timeout 200 ncu --section SourceCounters --print-details all -k 'regex:fp32_any' --launch-count 1 \
  "$BIN/fp32_tune" 2138x3897x302 --plan="128x128 k16" --runs=3 > "$R/ncu_sourcecounters.txt" 2>&1
step "ncu sourcecounters" $?
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
