#!/usr/bin/env bash
# Call 115: where the time goes at two TF32 shapes the kernels miss (no code change): Nsight Compute's Speed Of
# Light, launch statistics and warp states of every kernel `tilescope bench` launches for tf32-wgmma-ws and cuBLAS
# TF32 at 1024^3 (C of 64 tiles) and 1668x5776x556 (short k, C large), the first launches of each.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin/new
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tilescope" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
for s in 1024x1024x1024 1668x5776x556; do
  timeout 200 ncu --section SpeedOfLight --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis \
    --launch-count 30 --csv "$BIN/tilescope" bench --kernels tf32-wgmma-ws,cublas-tf32 --shape "$s" --runs 20 \
    --no-ceilings -o /tmp/b.csv > "$R/ncu_$s.csv" 2> "$R/ncu_$s.err"
  step "ncu $s" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
