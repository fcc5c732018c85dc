#!/usr/bin/env bash
# The trace's memory counters against Nsight Compute's on this GPU: every
# kernel at TILE 8, 16, 32 and N = 64, 256, one plain launch each (ncu_launches),
# profiled with `ncu --clock-control none --csv`; the instrumented kernel
# records the same launches and memory_vs_ncu puts both side by side, with why
# they differ (and checks the GPU traces' counters against the emulator's at
# N = 64). The textbook kernels only: the ladder's rungs are compared by
# 70-counters-vs-ncu.sh. Writes $RESULTS/ncu/: memory-vs-ncu.json and .md (the table, to
# commit under assets/ncu/), and the raw ncu.csv, launches.json, sass.txt.
set -uo pipefail
out=$RESULTS/ncu
mkdir -p "$out"
if ! command -v ncu > /dev/null; then
  echo "ncu not found on PATH"
  exit 1
fi
ncu --version > "$out/ncu_version.txt" 2>&1

# profile METRICS: one ncu run over every launch; fails on any ncu error.
profile() {
  ncu --csv --print-units base --clock-control none -k regex:plain_kernel --metrics "$1" \
    "$BIN/ncu_launches" --sizes 64,256 --tiles 8,16,32 --kernels textbook --manifest "$out/launches.json" > "$out/ncu.csv" 2> "$out/ncu.stderr" &&
    ! grep -q "==ERROR==" "$out/ncu.csv" "$out/ncu.stderr" && grep -q '^"ID"' "$out/ncu.csv"
}

# An unknown metric fails a whole ncu run: if the full list fails, keep those
# this ncu lists, and failing that, the counters named in the issue.
wanted=$("$BIN/memory_vs_ncu" --print-metrics) || exit 1
if ! profile "$wanted"; then
  echo "ncu failed with the full metric list:"
  grep "==ERROR==" "$out/ncu.csv" "$out/ncu.stderr" | head -n 5
  ncu --query-metrics > "$out/query_metrics.txt" 2>&1
  known=""
  for m in ${wanted//,/ }; do
    if grep -q "^${m%.*}\b" "$out/query_metrics.txt"; then known+="${known:+,}$m"; else echo "ncu lacks $m"; fi
  done
  core=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  core+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
  core+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  if ! { [[ -n $known ]] && profile "$known"; } && ! profile "$core"; then
    tail -n 5 "$out/ncu.stderr"
    exit 1
  fi
fi
tail -n 2 "$out/ncu.stderr"

# The instructions the compiler chose (128-bit shared loads, ...), to explain differences.
sass=()
if command -v cuobjdump > /dev/null && cuobjdump -sass "$BIN/ncu_launches" > "$out/sass.txt" 2>&1; then
  sass=(--sass "$out/sass.txt")
fi
"$BIN/memory_vs_ncu" --manifest "$out/launches.json" --ncu "$out/ncu.csv" "${sass[@]}" --device gpu \
  --check-emulator-up-to 64 \
  --ncu-version "$(tail -n 1 "$out/ncu_version.txt")" --commit "$(cat "$BIN/COMMIT" 2>/dev/null)" \
  -o "$out/memory-vs-ncu.json" --markdown "$out/memory-vs-ncu.md"
