#!/usr/bin/env bash
# Call 86: ws::for_each_piece walking a ws::PieceWalk (working tree on 79db28c, not committed): tf32_wgmma_ws_test,
# fp32_best_test; tf32-wgmma-ws before (the kernel of a67ffee, as committed) and after at 13 shapes, the rule's pick
# at each and the plans it picks elsewhere, in alternating processes (before, after, before, after).
set -uo pipefail
mkdir -p .gpu-bin && tar xJf .gpu-pack/bin.tar.xz -C .gpu-bin
export BIN=$PWD/.gpu-bin
R=$OUT/gpu-results
mkdir -p "$R"
cp .gpu-pack/run.sh "$R/"
{ nvidia-smi --query-gpu=name,uuid,driver_version,clocks.max.sm --format=csv; date -u; cat "$BIN/COMMIT"; } > "$R/machine.txt"
if ldd "$BIN/tf32_ws_tune" | grep -q "libcublas.*not found"; then
  dir=$(dirname "$(find /usr/local /opt /usr/lib -name 'libcublas.so.13*' 2>/dev/null | head -n 1)")
  export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
step() { echo "$1 rc=$2 at ${SECONDS}s" | tee -a "$R/steps.txt"; }
timeout 90 "$BIN/fp32_best_test" > "$R/fp32_best_test.log" 2>&1; step fp32_best_test $?; tail -n 1 "$R/fp32_best_test.log"
timeout 150 "$BIN/tf32_wgmma_ws_test" > "$R/tf32_wgmma_ws_test.log" 2>&1; step tf32_wgmma_ws_test $?
tail -n 1 "$R/tf32_wgmma_ws_test.log"; grep -E "^\[  FAILED" "$R/fp32_best_test.log" "$R/tf32_wgmma_ws_test.log" | head
AB=(4096x4096x4096 3000x5000x2000 5469x4470x365 1352x3820x5648 6032x1516x6300 4608x6466x2181 3471x2417x1619
    876x2000x2268 5444x552x1412 858x4157x2358 128x4096x4096 179x3912x626 1024x1024x1024)
NAMES=(--name="256x128 s4 g8 cn2" --name="256x128 s4 g8 cn2 tail 2" --name="256x128 s4 g8 cn2 tail 4"
       --name="256x128 s4 g8 cn2 sk" --name="192x128 s4 g8 cn2" --name="128x128 s6 g8 cm2"
       --name="128x192 s4 g8 cm2" --name="128x256 s4 g8 cn2" --name="128x128 s6 g8 cn2 split 4"
       --name="128x64 s4 g8 cm2 2/sm" --name="128x128 s6 g8 cm2 tail 2")
for round in 1 2; do
  for which in before after; do
    if ((SECONDS > 480)); then echo "ws_ab_${which}_$round not started (past 480 s)" | tee -a "$R/steps.txt"; continue; fi
    exe="$BIN/tf32_ws_tune"; [[ $which == before ]] && exe="$BIN/tf32_ws_tune_before"
    timeout $((570 - SECONDS)) "$exe" "${AB[@]}" --runs=10 "${NAMES[@]}" > "$R/ws_ab_${which}_$round.log" 2>&1
    step "ws_ab_${which}_$round" $?
  done
done
cd "$OUT" && tar czf results.tgz gpu-results && rm -rf gpu-results
