#!/usr/bin/env bash
# The whole-launch counters (`tilescope counters`, the counting build of the
# kernels: no trace) against Nsight Compute's at N = 64 and N = 4096: every
# textbook kernel at TILE 16 and 32 and every recorded rung of the ladder
# (kernels/kernel_kind.h kRungKernels: fixed tiles, TILE 0 in the manifest),
# one plain launch each (ncu_launches), profiled with
# `ncu --clock-control none --csv`; memory_vs_ncu --counters counts the same
# launches on the GPU and puts both side by side with why they differ (and
# checks the GPU's counters against the emulator's streamed counters at
# N = 64). Then the counters path's speed on this GPU (record_bench
# --counters-only). Writes $RESULTS/ncu-counters/: counters-vs-ncu-N.json and
# .md (the tables, to commit under assets/ncu/), the raw ncu_N.csv and
# launches_N.json, sass.txt (the plain kernels' SASS, where cuobjdump is
# found), counter_gpu_test.json and record_bench.json.
# The rungs add five launches per size (an estimate, not yet measured: well
# under a minute on an H100 at 4096, each a few ms per ncu replay and a few
# seconds of counting); ncu_launches now computes its reference once per size.
set -uo pipefail
out=$RESULTS/ncu-counters
mkdir -p "$out"
if ! command -v ncu > /dev/null; then
  echo "ncu not found on PATH"
  exit 1
fi
ncu --version > "$out/ncu_version.txt" 2>&1
wanted=$("$BIN/memory_vs_ncu" --print-metrics) || exit 1

# Counters on the GPU = the emulator's = the GPU trace's, at small shapes. A
# failure here fails the check but does not stop the tables below.
rc=0
"$BIN/counter_gpu_test" --gtest_output="json:$out/counter_gpu_test.json" || rc=1
# The counting build of the textbook kernels under compute-sanitizer, at a
# ragged shape (45-rungs.sh does the rungs).
for tool in memcheck racecheck; do
  timeout --kill-after=10 240 compute-sanitizer --tool "$tool" --error-exitcode 99 \
    "$BIN/counter_gpu_test" --gtest_filter='AllKernels/*_37x29x45' > "$out/counted_sanitizer_$tool.log" 2>&1 || rc=1
  tail -n 3 "$out/counted_sanitizer_$tool.log"
done

# The instructions the compiler chose (LDS.128, LDGSTS and its padding, guarded
# zero stores), which the table's reasons quote.
sass=()
if command -v cuobjdump > /dev/null && cuobjdump -sass "$BIN/ncu_launches" > "$out/sass.txt" 2>&1; then
  sass=(--sass "$out/sass.txt")
else
  echo "no cuobjdump: the table's reasons will not quote the SASS"
fi

# profile N METRICS: one ncu run over every launch of size N; fails on any ncu
# error. The kernels are plain_kernel<KIND, TILE> and plain_rung<KIND>: nothing
# else matches, so ncu's result i is the manifest's launch i.
profile() {
  ncu --csv --print-units base --clock-control none -k 'regex:plain_(kernel|rung)' --metrics "$2" \
    "$BIN/ncu_launches" --sizes "$1" --tiles 16,32 --kernels both --manifest "$out/launches_$1.json" \
    > "$out/ncu_$1.csv" 2> "$out/ncu_$1.stderr" &&
    ! grep -q "==ERROR==" "$out/ncu_$1.csv" "$out/ncu_$1.stderr" && grep -q '^"ID"' "$out/ncu_$1.csv"
}

# The counters at N = 64 first (the emulator check), then N = 4096. An unknown
# metric fails a whole ncu run: if the full list fails, keep those this ncu
# lists (the table marks a pair whose metric is absent as missing).
metrics=$wanted
for n in 64 4096; do
  if ! profile "$n" "$metrics"; then
    echo "ncu failed at N = $n:"
    grep "==ERROR==" "$out/ncu_$n.csv" "$out/ncu_$n.stderr" | head -n 5
    ncu --query-metrics > "$out/query_metrics.txt" 2>&1
    known=""
    for m in ${metrics//,/ }; do
      if grep -q "^${m%.*}\b" "$out/query_metrics.txt"; then known+="${known:+,}$m"; else echo "ncu lacks $m"; fi
    done
    if [[ -z $known || $known == "$metrics" ]] || ! profile "$n" "$known"; then
      tail -n 5 "$out/ncu_$n.stderr"
      exit 1
    fi
    metrics=$known
  fi
  grep "skipping" "$out/ncu_$n.stderr"
  table() {
    "$BIN/memory_vs_ncu" --counters --manifest "$out/launches_$n.json" --ncu "$out/ncu_$n.csv" "${sass[@]}" \
      --device gpu "$@" \
      --ncu-version "$(tail -n 1 "$out/ncu_version.txt")" --commit "$(cat "$BIN/COMMIT" 2>/dev/null)" \
      -o "$out/counters-vs-ncu-$n.json" --markdown "$out/counters-vs-ncu-$n.md" \
      | tee "$out/counters-vs-ncu-$n.summary.txt"
  }
  # At N = 64 the GPU's counters must also equal the emulator's; if they do
  # not, the check fails, and the table is still written without that check.
  if ((n > 64)); then
    table || exit 1
  elif ! table --check-emulator-up-to 64; then
    rc=1
    echo "memory_vs_ncu failed at N = $n; again without the emulator check"
    table || exit 1
  fi
done

"$BIN/record_bench" --counters-only --device gpu --json "$out/record_bench.json" || rc=1
exit $rc
