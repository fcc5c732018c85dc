#!/usr/bin/env bash
# Call 47: Nsight Compute on fp32-best at 332x6422x6391 (stream-k 71.8% of cuBLAS SGEMM against 86.5% for
# 128x64 split 5 in call 43) and 200x6854x6667 (stream-k ahead): DRAM and L2 bytes, time, one launch each.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
M=dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed
for e in "332x6422x6391|128x256 k16 stream-k" "332x6422x6391|128x64 split 5" "200x6854x6667|128x256 k16 stream-k" \
         "200x6854x6667|128x64 split 3"; do
  shape=${e%%|*}; plan=${e#*|}
  echo "== $shape $plan" >> "$R/ncu.log"
  timeout 60 ncu --kernel-name regex:fp32_any --launch-skip 1 --launch-count 1 --metrics "$M" \
    "$BIN/fp32_tune" "$shape" --plan="$plan" --runs=1 >> "$R/ncu.log" 2>&1
  echo "rc=$? at ${SECONDS}s" >> "$R/ncu.log"
done
grep -E "^==|dram__bytes|lts__t_sectors|gpu__time|sm__throughput|rc=" "$R/ncu.log"
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
