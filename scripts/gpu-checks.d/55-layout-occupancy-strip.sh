#!/usr/bin/env bash
# The app's layout and the occupancy strip on a GPU machine (issue 12): offscreen
# through the driver's EGL at 1280 x 720, the strip beside the TILE buttons must
# show this GPU's row (from the CUDA runtime) above the rtx5070ti and h100
# presets, at TILE 16 and at TILE 32:
#   strip_gpu_t16.png, strip_gpu_t32.png   (+ .json: every panel's rectangle, "recorder": "gpu")
#   strip_live_t16.txt, strip_live_t32.txt what `tilescope occupancy --gpu live` says: the
#                                          strip's blocks/SM, limit and occupancy must equal it
#   presentation_gpu.png                   presentation mode, 6 x 6 example, recorded on the GPU
# Needs .gpu-bin/app from scripts/gpu-app-bundle.sh.
set -uo pipefail
rc=0
app="$BIN/app/tilescope-app"
if [[ ! -x $app ]]; then
  echo "55-layout: $app is missing: run scripts/gpu-app-bundle.sh after scripts/gpu-build.sh"
  exit 1
fi
shoot() {
  local name=$1
  shift
  "$app" --headless --window 1280x720 "$@" --screenshot "$RESULTS/$name.png" --layout-json "$RESULTS/$name.json" \
    --quit-after-frames 5 > "$RESULTS/$name.log" 2>&1 || { echo "55-layout: $name failed"; rc=1; }
  grep -q '"recorder": "gpu"' "$RESULTS/$name.json" 2>/dev/null || { echo "55-layout: $name was not recorded on the GPU"; rc=1; }
}
for tile in 16 32; do
  shoot "strip_gpu_t$tile" --device gpu --tile "$tile" --select-c 5,7 --step 3
  "$BIN/tilescope" occupancy --gpu live --kernel tiled --tile "$tile" > "$RESULTS/strip_live_t$tile.txt" 2>&1 || rc=1
  grep -E "blocks/SM|occupancy|bound" "$RESULTS/strip_live_t$tile.txt" | head -5
done
shoot presentation_gpu --device gpu --presentation --kernel tiled --tile 2 --size 6 --inputs integers --seed 3 \
  --select-c 5,3 --step 7
exit $rc
