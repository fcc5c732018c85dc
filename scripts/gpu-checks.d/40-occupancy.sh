#!/usr/bin/env bash
# Occupancy and scheduling on the GPU:
#  1. occupancy_gpu_test: the calculator equals
#     cudaOccupancyMaxActiveBlocksPerMultiprocessor for every kernel and TILE
#     (with the GPU's limits and with its preset's), the build-time resource
#     table equals cudaFuncGetAttributes, carve-out preferences follow the API,
#     and a recorded timeline never exceeds the API's blocks per SM.
#  2. `tilescope occupancy --gpu live` for every kernel and TILE.
#  3. The SM timeline of tiled at N = 4096 for TILE 16 and 32, recorded alone
#     and under Nsight Compute, which measures achieved occupancy
#     (sm__warps_active.avg.pct_of_peak_sustained_active) of that very launch:
#     the second timed launch (the first warms up) of the same program.
# Writes $RESULTS/occupancy/: occupancy_gpu_test.json, occupancy_live.{txt,json},
# timeline_tiled_t{16,32}_4096{,_ncu}.json (per-block timing: commit the pair
# under assets/timelines/), their .txt summaries, ncu_tiled_t{16,32}_4096.csv, and
# compare_tiled_t{16,32}_4096.json (timeline vs ncu for the profiled launch: docs/occupancy.md).
set -uo pipefail
out=$RESULTS/occupancy
mkdir -p "$out"
rc=0

"$BIN/occupancy_gpu_test" --gtest_output=json:"$out/occupancy_gpu_test.json" > "$out/occupancy_gpu_test.log" 2>&1 || rc=1
grep -E "^\[  (PASSED|FAILED) " "$out/occupancy_gpu_test.log" | head -n 20

"$BIN/tilescope" occupancy --gpu live --kernel all --tile all > "$out/occupancy_live.txt" 2>&1 || rc=1
"$BIN/tilescope" occupancy --gpu live --kernel all --tile all --json > "$out/occupancy_live.json" || rc=1
grep -E "^  tiled  " "$out/occupancy_live.txt"

# Achieved and theoretical occupancy, what bounds it, and the SMs' active time.
metrics=sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct
metrics+=,sm__warps_active.avg.per_cycle_active,sm__cycles_active.avg,sm__cycles_elapsed.avg,gpu__time_duration.sum
metrics+=,launch__occupancy_limit_blocks,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem
metrics+=,launch__occupancy_limit_warps,launch__registers_per_thread,launch__shared_mem_config_size
metrics+=,launch__waves_per_multiprocessor

# ncu_timeline NAME TILE METRICS: the timeline program under ncu, its second launch profiled.
ncu_timeline() {
  ncu --csv --print-units base --clock-control none -k regex:timed_kernel --launch-skip 1 --launch-count 1 \
    --metrics "$3" --log-file "$out/ncu_$1.csv" \
    "$BIN/tilescope" timeline --kernel tiled --tile "$2" --size 4096 --seed 1 -o "$out/timeline_$1_ncu.json" \
    > "$out/timeline_$1_ncu.txt" 2>&1 &&
    ! grep -q "==ERROR==" "$out/ncu_$1.csv" && grep -q '^"ID"' "$out/ncu_$1.csv"
}

for tile in 16 32; do
  name=tiled_t${tile}_4096
  "$BIN/tilescope" timeline --kernel tiled --tile "$tile" --size 4096 --seed 1 -o "$out/timeline_$name.json" \
    > "$out/timeline_$name.txt" 2>&1 || rc=1
  cat "$out/timeline_$name.txt"
  if ! command -v ncu > /dev/null; then
    echo "ncu not found on PATH"
    rc=1
    continue
  fi
  # An unknown metric fails the whole run: fall back to achieved occupancy alone.
  if ! ncu_timeline "$name" "$tile" "$metrics" &&
     ! ncu_timeline "$name" "$tile" sm__warps_active.avg.pct_of_peak_sustained_active; then
    tail -n 5 "$out/ncu_$name.csv"
    rc=1
  fi
  # The same launch side by side: the timeline recorded under ncu and ncu's counters.
  "$BIN/tilescope" timeline --load "$out/timeline_${name}_ncu.json" --ncu "$out/ncu_$name.csv" --json \
    > "$out/compare_$name.json" || rc=1
  "$BIN/tilescope" timeline --load "$out/timeline_${name}_ncu.json" --ncu "$out/ncu_$name.csv" | tail -n 1
done
ncu --version > "$out/ncu_version.txt" 2>&1
exit $rc
