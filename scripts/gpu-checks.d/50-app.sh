#!/usr/bin/env bash
# The app on the GPU (issue 3): with no display it draws offscreen through the
# NVIDIA driver's EGL, records live on the GPU and saves screenshots:
#   app_gpu.png       the default scene (tiled, TILE 16, N = 64), cell (5, 7) selected, step 3
#   app_gpu_6x6.png   seed 003's 6 x 6 integer example, TILE 2, cell (5, 3), step 7
# with app_*.json (where the matrices are; "recorder" must be "gpu") and app_*.log;
# and replay_gpu_test.json: the replay's highlights on GPU recordings of every
# kernel, and running sums equal to what the GPU stored, bit for bit.
# Needs .gpu-bin/app from scripts/gpu-app-bundle.sh (the screenshots).
set -uo pipefail
rc=0
"$BIN/replay_gpu_test" --gtest_output=json:"$RESULTS/replay_gpu_test.json" | grep -E "cells reproduced|PASSED|FAILED" || rc=1
app="$BIN/app/tilescope-app"
if [[ ! -x $app ]]; then
  echo "50-app: $app is missing: run scripts/gpu-app-bundle.sh after scripts/gpu-build.sh"
  exit 1
fi
shoot() {
  local name=$1
  shift
  "$app" "$@" --screenshot "$RESULTS/$name.png" --layout-json "$RESULTS/$name.json" --quit-after-frames 5 \
    > "$RESULTS/$name.log" 2>&1 || { echo "50-app: $name failed"; rc=1; }
  if grep -q '"recorder": "gpu"' "$RESULTS/$name.json" 2>/dev/null; then
    echo "50-app: $name recorded on the GPU"
  else
    echo "50-app: $name was not recorded on the GPU"; rc=1
  fi
  tail -n 3 "$RESULTS/$name.log"
}
shoot app_gpu --device gpu --select-c 5,7 --step 3
shoot app_gpu_6x6 --device gpu --kernel tiled --tile 2 --size 6 --inputs integers --seed 3 --select-c 5,3 --step 7
exit $rc
