#!/usr/bin/env bash
# Call 109: where should fp32-best stop reading B off 16 bytes in place and pad it? The rule pads past m = 640
# (3,072 on the 128x256 tiles); run 44 made the 128x128 tile's in-place reads shifted float4, cheaper than its
# words. fp32_tune --plan=rule at 120 fresh shapes with n % 4 != 0 (seed 20261300, 60,000 drawn) just past those
# bounds: 36 of the 128x128 and 64x64 k16 tiles' picks and 24 of the 32x128's at m of 641 to 2560, 24 of the
# 128x256 k16 tile's past 3,072; B in place (--b-in-place=always) and padded (never), two processes a variant,
# two rounds in turned order. a022e39's fp32_tune.
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
BIN=$PWD/.gpu-bin
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
n=${#shapes[@]}
run_variant() {  # name round
  local arg=--b-in-place=always
  [[ $1 == pad ]] && arg=--b-in-place=never
  for ((c = 0; c * 60 < n; ++c)); do
    if ((SECONDS > 400)); then echo "$1_$2_$c not started (past 400 s)" | tee -a "$R/steps.txt"; continue; fi
    timeout $((560 - SECONDS)) "$BIN/fp32_tune" "${shapes[@]:$((c * 60)):60}" --plan=rule $arg > "$R/$1_$2_$c.log" 2>&1
    step "$1_$2_$c" $?
  done
}
for v in in pad; do run_variant $v 1; done
for v in pad in; do run_variant $v 2; done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
