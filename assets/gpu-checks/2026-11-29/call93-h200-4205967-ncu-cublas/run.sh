#!/usr/bin/env bash
# Call 93: 4205967 (fp32_tune of call 92). Nsight Compute at 2138x3897x302 of cuBLAS SGEMM and fp32-best's pick
# there (128x128 k16), the same geometry: warp states with their stall reasons, instruction mix, shared-memory
# bank conflicts (--print-details all).
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
for shape in 2138x3897x302 4096x4096x4096; do
  plan="128x128 k16"; [[ $shape == 4096x4096x4096 ]] && plan="128x256"
  timeout 200 ncu --section WarpStateStats --section InstructionStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis --section LaunchStats \
    --print-details all -k 'regex:fp32_any|xmma|sgemm' --launch-count 2 \
    "$BIN/fp32_tune" "$shape" --plan="$plan" --runs=3 > "$R/ncu_$shape.txt" 2>&1
  step "ncu $shape" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
