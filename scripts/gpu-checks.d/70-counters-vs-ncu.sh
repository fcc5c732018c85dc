#!/usr/bin/env bash
# The whole-launch counters (`tilescope counters`, the counting build of the
# kernels: no trace) against Nsight Compute's at N = 4096: every kernel at
# TILE 16 and 32, one plain launch each (ncu_launches), profiled with
# `ncu --clock-control none --csv`; memory_vs_ncu --counters counts the same
# launches on the GPU and puts both side by side (and checks the GPU's counters
# against the emulator's streamed counters at N = 64). Then the counters path's
# speed on this GPU (record_bench --counters-only). Writes $RESULTS/ncu-counters/:
# counters-vs-ncu.json and .md (the table, to commit under assets/ncu/), the raw
# ncu.csv and launches.json, counter_gpu_test.json and record_bench.json.
set -uo pipefail
out=$RESULTS/ncu-counters
mkdir -p "$out"
if ! command -v ncu > /dev/null; then
  echo "ncu not found on PATH"
  exit 1
fi
ncu --version > "$out/ncu_version.txt" 2>&1
metrics=$("$BIN/memory_vs_ncu" --print-metrics) || exit 1

# Counters on the GPU = the emulator's = the GPU trace's, at small shapes.
"$BIN/counter_gpu_test" --gtest_output="json:$out/counter_gpu_test.json" || exit 1

# The counters at N = 64 first (the emulator check), then N = 4096.
for n in 64 4096; do
  if ! ncu --csv --print-units base --clock-control none -k regex:plain_kernel --metrics "$metrics" \
      "$BIN/ncu_launches" --sizes "$n" --tiles 16,32 --manifest "$out/launches_$n.json" \
      > "$out/ncu_$n.csv" 2> "$out/ncu_$n.stderr" ||
      grep -q "==ERROR==" "$out/ncu_$n.csv" "$out/ncu_$n.stderr"; then
    echo "ncu failed at N = $n:"
    grep "==ERROR==" "$out/ncu_$n.csv" "$out/ncu_$n.stderr" | head -n 5
    tail -n 5 "$out/ncu_$n.stderr"
    exit 1
  fi
  "$BIN/memory_vs_ncu" --counters --manifest "$out/launches_$n.json" --ncu "$out/ncu_$n.csv" --device gpu \
    --check-emulator-up-to 64 \
    --ncu-version "$(tail -n 1 "$out/ncu_version.txt")" --commit "$(cat "$BIN/COMMIT" 2>/dev/null)" \
    -o "$out/counters-vs-ncu-$n.json" --markdown "$out/counters-vs-ncu-$n.md" || exit 1
done

"$BIN/record_bench" --counters-only --device gpu --json "$out/record_bench.json" || exit 1
