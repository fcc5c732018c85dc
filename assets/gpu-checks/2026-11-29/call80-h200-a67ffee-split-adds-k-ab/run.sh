#!/usr/bin/env bash
# Call 80: fp32-best's rule with a split's adds costing more where C passes 1024 x 1024 cells and a split's k is
# under 1,000 (split_adds_past_1m 0.5, split_adds_k 1000; working tree on a67ffee): the pick before
# (split_adds_past_1m = 0) and after, both timed by fp32_tune in one process a pair, at every shape whose pick
# changes among 3,000 drawn as the drawn-shape check draws them (seed 1796109876: 37) and among call 76's ten
# draws (7); then the rule's pick at three new draws of 40 (fp32_tune --plan=rule: paired with cuBLAS SGEMM, the
# L2 overwritten before every run, as `tilescope bench` times it).
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh .gpu-pack/ab_groups.txt .gpu-pack/ab_fresh.txt .gpu-pack/draws.txt "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/fp32_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
finish() { cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results; }

g=0
while IFS='|' read -r before after shapes; do
  read -r -a list <<< "$shapes"
  timeout $((580 - SECONDS)) "$BIN/fp32_tune" "${list[@]}" --plan="$before" --plan="$after" > "$R/ab_$g.log" 2>&1
  step "ab_$g" $?
  g=$((g + 1))
done < .gpu-pack/ab_groups.txt
while read -r seed shapes; do
  if ((SECONDS > 420)); then echo "draw $seed not started (past 420 s)" | tee -a "$R/steps.txt"; continue; fi
  read -r -a list <<< "$shapes"
  timeout $((580 - SECONDS)) "$BIN/fp32_tune" "${list[@]}" --plan=rule > "$R/draw_$seed.log" 2>&1
  step "draw_$seed" $?
done < .gpu-pack/draws.txt
finish
