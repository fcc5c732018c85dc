#!/usr/bin/env bash
# Tests the hypothesis in assets/ncu/counters-vs-ncu-4096.md that Nsight
# Compute's hardware shared-memory bank-conflict counters
# (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_*) count wavefronts that
# the instructions themselves do not make (other traffic on the banks): the
# textbook kernels at N = 4096, TILE 16 and 32, profiled once with the
# hardware counters and once with the SASS-level ones (smsp__sass_*: counted
# per executed instruction by patching the SASS, so no other traffic can
# enter them), side by side in ncu_sass_4096.csv. Which smsp__sass_ metrics
# exist is asked of this ncu (query_metrics.txt), not assumed.
# Writes $RESULTS/shared-sass/: query_metrics.txt, launches_4096.json,
# ncu_sass_4096.csv and .stderr, metrics.txt.
set -uo pipefail
out=$RESULTS/shared-sass
mkdir -p "$out"
command -v ncu > /dev/null || { echo "ncu not found on PATH"; exit 1; }
ncu --query-metrics > "$out/query_metrics.txt" 2>&1
hw="smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum"
hw+=",l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
hw+=",l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
sass=$(grep -oE '^smsp__sass_[a-z0-9_]*shared[a-z0-9_]*' "$out/query_metrics.txt" |
  grep -E 'wavefronts|bank_conflicts|inst_executed_op_shared' | sort -u | sed 's/$/.sum/' | paste -sd, -)
echo "hardware: $hw" > "$out/metrics.txt"
echo "sass: $sass" >> "$out/metrics.txt"
cat "$out/metrics.txt"
[[ -n $sass ]] || { echo "this ncu lists no smsp__sass_ shared-memory metric"; exit 1; }
timeout 400 ncu --csv --print-units base --clock-control none -k 'regex:plain_kernel' --metrics "$hw,$sass" \
  "$BIN/ncu_launches" --sizes 4096 --tiles 16,32 --kernels textbook --manifest "$out/launches_4096.json" \
  > "$out/ncu_sass_4096.csv" 2> "$out/ncu_sass_4096.stderr"
rc=$?
grep -c '^"' "$out/ncu_sass_4096.csv"
grep "==ERROR==" "$out/ncu_sass_4096.csv" "$out/ncu_sass_4096.stderr" | head -n 5
exit $rc
