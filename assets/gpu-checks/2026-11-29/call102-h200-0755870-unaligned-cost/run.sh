#!/usr/bin/env bash
# Call 102: 0755870 (the shipped code; the warp store of calls 99-101 not kept). Where do fp32-best's misses at
# n % 4 != 0 lose? fp32_tune --plan=rule at 156 of call 99's shapes (up to 8 misses and 4 others of each pick's tile
# and schedule, by the shipped store's times in calls 99 and 101): as drawn; as drawn with B padded
# (--b-in-place=never) and read in place (always); and at n rounded up to a multiple of 4 (every row of B and C on
# 16 bytes). Each variant in two processes a round, two rounds in turned order. Nsight Compute's source counters
# of the 128x256 k16 tile at 4973x6450x151 (call 98's worst FP32 shape, 85.5%) and at 4973x6452x151.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/shapes.txt .gpu-pack/shapes_aligned.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
mapfile -t drawn < .gpu-pack/shapes.txt
mapfile -t aligned < .gpu-pack/shapes_aligned.txt
n=${#drawn[@]}
run_variant() {  # name round
  local -a args=(--plan=rule) list=("${drawn[@]}")
  case $1 in
    padded) args+=(--b-in-place=never) ;;
    inplace) args+=(--b-in-place=always) ;;
    aligned) list=("${aligned[@]}") ;;
  esac
  for ((c = 0; c * 78 < n; ++c)); do
    if ((SECONDS > 420)); then echo "$1_$2_$c not started (past 420 s)" | tee -a "$R/steps.txt"; continue; fi
    timeout $((560 - SECONDS)) "$BIN/fp32_tune" "${list[@]:$((c * 78)):78}" "${args[@]}" > "$R/$1_$2_$c.log" 2>&1
    step "$1_$2_$c" $?
  done
}
for v in drawn padded inplace aligned; do run_variant $v 1; done
for v in aligned inplace padded drawn; do run_variant $v 2; done
for shape in 4973x6450x151 4973x6452x151; do
  if ((SECONDS > 520)); then echo "ncu $shape not started" | tee -a "$R/steps.txt"; continue; fi
  timeout $((585 - SECONDS)) ncu --section SourceCounters --section WarpStateStats -k 'regex:fp32_any' --launch-count 1 \
    --page source --print-source sass --csv "$BIN/fp32_tune" $shape --plan="128x256 k16" --runs=3 \
    > "$R/ncu_source_$shape.csv" 2> "$R/ncu_$shape.err"
  step "ncu $shape" $?
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
