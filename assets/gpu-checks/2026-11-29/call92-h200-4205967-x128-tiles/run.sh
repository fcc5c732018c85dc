#!/usr/bin/env bash
# Call 92: 4205967 with three experimental 128x128 tiles for fp32-best beside its 128x128 k16 (4 stages): k-tiles
# of 8 in 3 stages (cuBLAS SGEMM's geometry at 2138x3897x302), of 8 in 4, of 16 in 3; not ruled. fp32_tune: each
# tile unsplit, split 2-4 and stream-k, and the rule's pick, at 18 drawn FP32 misses of calls 90-91 and 4 controls.
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
P=(--plan=rule)
for t in "128x128 k16" "x128 k8 s3" "x128 k8 s4" "x128 k16 s3"; do
  P+=(--plan="$t" --plan="$t split 2" --plan="$t split 3" --plan="$t split 4" --plan="$t stream-k")
done
S1=(2138x3897x302 4301x2869x177 1299x5818x200 3013x1221x372 2240x5355x436 5708x4641x151 2406x4231x260 4096x4096x4096)
S2=(2009x239x3566 437x4621x4529 509x493x4976 1759x381x3128 292x3305x3858 3685x146x2570 1107x226x4618 2048x2048x2048)
S3=(288x1607x3496 3165x294x4086 5304x186x5496 319x5158x6328 3000x5000x2000 1024x4096x4096)
i=0
for set in S1 S2 S3; do
  i=$((i + 1)); declare -n shapes=$set
  if ((SECONDS > 480)); then echo "tune_$i not started (past 480 s)" | tee -a "$R/steps.txt"; continue; fi
  timeout $((570 - SECONDS)) "$BIN/fp32_tune" "${shapes[@]}" "${P[@]}" > "$R/tune_$i.log" 2>&1
  step "tune_$i" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
